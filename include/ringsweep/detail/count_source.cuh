// count_source: where a sort's key count comes from, the host (the usual case) or device memory
// (the device_count overloads), read by each kernel when it runs.
#pragma once

#include <cstdint>

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A key count held in device memory (`ptr`: a 4- or 8-byte integer, signed or not), bounded by
/// `bound` (the host's max_n, from which the sort was planned); `ptr == nullptr`: the count is the
/// host's. Every kernel of a counted sort resolves it once, when it runs, so a captured graph
/// replayed after the count changed sorts the new count. A negative count is 0; one above `bound`
/// is `bound`.
///
///     count_source c{d_n, max_n, 4, true};        // d_n: const int*
///     const u64 n = c.resolve(host_n);            // device: *d_n clamped to [0, max_n]
struct count_source {
  const void* ptr = nullptr;
  u64 bound = 0;
  u32 bytes = 0;
  bool is_signed = false;

  /// The count: the device word clamped to [0, bound], or `host_n` when there is none.
  __device__ __forceinline__ u64 resolve(u64 host_n) const {
    if (ptr == nullptr) return host_n;
    u64 raw = 0;
    bool negative = false;
    if (bytes == 4) {
      const u32 w = *static_cast<const u32*>(ptr);
      negative = is_signed && (w >> 31) != 0;
      raw = w;
    } else {
      raw = *static_cast<const u64*>(ptr);
      negative = is_signed && (raw >> 63) != 0;
    }
    return negative ? 0 : (raw < bound ? raw : bound);
  }
};

/// The count argument of the sort forms' runners where the count is the host's (no count_source:
/// the counted kernels are not instantiated).
struct host_count {};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
