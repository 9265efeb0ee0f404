// Sorting data larger than the GPU: host-resident keys (and values) streamed through one or more
// GPUs. Declarations and documentation (the options, host_sort_config, in host_sort_config.cuh);
// the definitions are in device/host_sort.inl, the machinery in device/host_sort_dispatch.cuh.
// Included by ringsweep.cuh.
//
// The sorts are in place on host arrays, stable, synchronous (they return when the data is
// sorted) and give the bytes the device sorts give (same key types, decomposers, bit windows,
// descending). Host memory may be pageable or page-locked (cudaMallocHost, cudaHostRegister):
// page-locked memory copies faster and lets the copies overlap the kernels. The sort detects it
// (cudaPointerGetAttributes): the scratch it allocates itself is page-locked, and a pageable input
// streamed through a page-locked scratch is copied into it on the host chunk by chunk, each just
// before its transfer (one host pass, which the driver's own staging of pageable copies would cost
// anyway), so every transfer overlaps.
//
// How: data whose double buffer fits the budget (`host_sort_config::device_bytes` per GPU, or 80%
// of the free device memory) is copied in, sorted and copied out to the scratch: 2 bus crossings
// per key, then host copies into your arrays (never a device copy: one failing part-way would
// leave garbage there). Larger
// data is split by the window's top 8-bit digit: each chunk (a third of a GPU's budget, a double
// buffer) is copied in, sorted stably by that digit alone (one onesweep pass) and copied to the
// scratch (2 crossings); then consecutive buckets are packed into groups, sorted by the whole
// window and copied back to the scratch (2 more; one extent per chunk a group touches): 4
// crossings per key in all. Each chunk or group is one batched copy call each way (CUDA 12.8+).
// A bucket larger than a chunk is
// split again by the next digit: 2 more crossings for its keys per extra level, and a bucket with
// no digit left holds equal keys and is not moved again, so all-equal keys and heavy skew end in
// at most one level per digit. The caller's arrays are written once, at the end, by host copies
// from the scratch (no bus crossing). With several GPUs, chunks go to all of them at once (three
// streams each: one copying in, one sorting, one copying out); the result is the same bytes. The
// device memory and page-locked words are allocated once per call.
//
// Scratch (every size above one key, data that fits included): `host_sort_config::h_scratch`, or
// allocated (page-locked, or pageable when that fails) and freed by the call: n keys, then n values from the next multiple of alignof(Value), i.e.
// `round_up(n * sizeof(Key), alignof(Value)) + n * sizeof(Value)` bytes.
//
// Values of any trivially copyable type: those of 1, 2, 4, 8 or 16 bytes travel with their keys as
// above. Any other size (a 12-byte float3, a 24-byte struct) is never sent to a GPU: the keys are
// sorted as above with their input positions as values (I = 4 bytes below 2^32 keys, else 8), and
// the values are then gathered once on the host through a buffer and copied back (host threads as
// for the final copies). Over the bus that is K + I bytes per key and crossing instead of
// K + sizeof(Value): fewer for every such value but a 3-byte one (one byte more). Host memory
// besides: the order, n * I bytes (std::malloc), and the gather's buffer, n * sizeof(Value), which
// is the values part of the caller's scratch when one is given (else std::malloc); the argsort
// uses the caller's scratch too when it holds `round_up(n * sizeof(Key), I) + n * I` bytes, else
// allocates its own as above. Both allocations are made before anything is sorted (failing:
// cudaErrorMemoryAllocation, your data untouched); the values are written only after the keys'
// sort succeeded, by host copies that cannot fail.
//
// Errors: cudaErrorInvalidValue for a bad window or order, null arrays with n > 0, an n whose bytes
// overflow, a negative `num_devices` or null `devices` with devices, a `device_bytes` too small for
// a chunk of 256 keys; cudaErrorInvalidDevice for a device that does not exist;
// cudaErrorMemoryAllocation when the free device memory is too small; any CUDA error of a copy or
// a sort. Your data on an error: untouched (every phase before the final host copies writes only
// the scratch and the devices).
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "device/key_kind.cuh"
#include "host_sort_config.cuh"
#include "sort_options.cuh"
#include "tuning.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Sorts `n` host keys in place through the GPU(s) (see the top of host_sort.cuh).
///
///     std::vector<std::uint64_t> keys = load_column();         // 50 GB on a 24 GB card
///     ringsweep::host_sort_keys(keys.data(), keys.size());
///     ringsweep::host_sort_config cfg;
///     int gpus[] = {0, 1, 2, 3};
///     cfg.devices = gpus;
///     cfg.num_devices = 4;
///     ringsweep::host_sort_keys(keys.data(), keys.size(), {}, cfg);   // four GPUs
template <class Key>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// Sorts `n` host (key, value) pairs in place by key, stably. Values of any trivially copyable
/// type (other sizes than 1, 2, 4, 8 and 16 bytes: sorted as positions, gathered on the host).
///
///     ringsweep::host_sort_pairs(h_keys, h_values, n);
template <class Key, class Value>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, sort_options opts = {},
                            host_sort_config cfg = {});

/// Sorts `n` host custom keys by the fields `decomposer` names (see decomposer.cuh).
///
///     ringsweep::host_sort_keys(h_particles, n, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                           host_sort_config cfg = {});

/// Sorts `n` host (custom key, value) pairs by the key's fields, stably.
///
///     ringsweep::host_sort_pairs(h_particles, h_ids, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer,
                            sort_options opts = {}, host_sort_config cfg = {});

// Deprecated names (0.1), kept for one release: the same sorts as host_sort_keys / host_sort_pairs
// (the qualifier first, as in segmented_sort_keys and top_k_keys). Each is that call.

/// Deprecated: `ringsweep::host_sort_keys`.
template <class Key>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::host_sort_keys (sort_keys_host goes in 0.3)") cudaError_t
sort_keys_host(Key* h_keys, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `ringsweep::host_sort_pairs`.
template <class Key, class Value>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::host_sort_pairs (sort_pairs_host goes in 0.3)") cudaError_t
sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `ringsweep::host_sort_keys` (custom keys).
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::host_sort_keys (sort_keys_host goes in 0.3)") cudaError_t
sort_keys_host(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `ringsweep::host_sort_pairs` (custom keys).
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::host_sort_pairs (sort_pairs_host goes in 0.3)") cudaError_t
sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer, sort_options opts = {},
                host_sort_config cfg = {});

RINGSWEEP_NAMESPACE_END

#include "device/host_sort.inl"
