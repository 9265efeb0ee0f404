// ringsweep SIMT backend: settings read once from the environment.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simt {
namespace detail {

struct backend_config {
  unsigned workers;            // RINGSWEEP_SIMT_WORKERS: OS threads that run blocks (default: hardware threads, >= 2)
  std::uint64_t seed;          // RINGSWEEP_SIMT_SEED: 0 runs fibers in thread order; otherwise a seeded permutation per pass
  double watchdog_seconds;     // RINGSWEEP_SIMT_WATCHDOG_S: a block that only spins this long is reported (default 120)
  std::size_t stack_bytes;     // RINGSWEEP_SIMT_STACK_KB: fiber stack size
  int sm_count;                // RINGSWEEP_SIMT_SMS: multiprocessors of the emulated device (default 4)
  int device_count;            // RINGSWEEP_SIMT_DEVICES: emulated devices, 0 a machine without one (default 1, at most 16)
  std::size_t device_bytes[16];  // RINGSWEEP_SIMT_DEVICE_BYTES: each device's memory, one number for every
                                 // device or a comma-separated list (device i the i-th, the last one
                                 // repeated); allocations beyond it fail (default 16 GiB)
  int l2_bytes;                // RINGSWEEP_SIMT_L2_BYTES: each device's L2 size as cudaDevAttrL2CacheSize and
                               // cudaDeviceProp::l2CacheSize report it (default 50 MiB, an H100's; nothing is cached)
  unsigned delay_permille;     // RINGSWEEP_SIMT_DELAY: fault injection, chance per mille of a delay at atomics,
                               // spin-waits and block start (default 0: off)
  bool poison_shared;          // RINGSWEEP_SIMT_POISON=1: fill shared memory with 0xA5 bytes at block start
  bool dependent_launch;       // RINGSWEEP_SIMT_PDL=0: every launch completes before it returns (no programmatic
                               // dependent launch overlap; default 1)
  unsigned long long fail_alloc_at;  // RINGSWEEP_SIMT_FAIL_ALLOC=k: allocation call number k of the process fails
                                     // with cudaErrorMemoryAllocation (0: none)
  unsigned long long fail_copy_at;   // RINGSWEEP_SIMT_FAIL_COPY=k: copy call number k of the process fails with
                                     // cudaErrorLaunchFailure, its destination overwritten with 0xA5 bytes (0: none)
};

const backend_config& config();
backend_config& mutable_config();

// Writes a diagnostic naming the current block and thread (when inside a kernel) and aborts.
[[noreturn]] void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace detail
}  // namespace simt
