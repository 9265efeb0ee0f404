// host_sort_config: how a host-resident sort (host_sort.cuh) uses the machine: its device memory
// budget, its GPUs, its host scratch and its progress callback. Included by host_sort.cuh and
// tuning.cuh; a header of its own so that the host side (device/host_sort_dispatch.cuh) reads it
// without including the API above it.
#pragma once

#include <cstddef>

#include "detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// How a host-resident sort uses the machine (see host_sort.cuh). Every member has a default:
///
///     ringsweep::host_sort_config cfg;
///     cfg.device_bytes = std::size_t(8) << 30;   // at most 8 GiB per GPU
///     ringsweep::sort_keys_host(h_keys, n, {}, cfg);
struct host_sort_config {
  std::size_t device_bytes = 0;   // device memory the sort may use per GPU; 0: 80% of what is free
  const int* devices = nullptr;   // GPUs to use; nullptr: the current device only
  int num_devices = 0;
  void* h_scratch = nullptr;      // optional host scratch of n keys (+ n values); else allocated
  void (*progress)(double fraction, void* user) = nullptr;  // called from the host thread, 0..1
  void* progress_user = nullptr;
  // Host threads of the host copies: into the caller's arrays at the end, and a pageable input's
  // chunks into a page-locked scratch (shared among the devices). 0: one per 4 MiB, at most 16.
  int host_threads = 0;
};

RINGSWEEP_NAMESPACE_END
