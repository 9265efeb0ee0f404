// bins_scan: turns one pass's digit counts into the global offset of each digit's first key.
#pragma once

#include "../block/block_scan.cuh"
#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Exclusive sum, in place, of `RADIX` 64-bit counts by one block of `THREADS` threads (thread `t`
/// owns the consecutive digits from `t * DIGITS_PER_THREAD`); also tells whether one digit holds
/// every key (the pass is uniform and can be skipped).
///
///     __shared__ typename bins_scan<256, 256>::TempStorage temp;
///     const bool uniform = bins_scan<256, 256>(temp).process(counts + pass * 256);
template <int THREADS, int RADIX>
class bins_scan {
 public:
  static constexpr int DIGITS_PER_THREAD = ceil_div(RADIX, THREADS);
  using scan_t = block_scan<u64, THREADS>;
  struct TempStorage {
    typename scan_t::TempStorage scan;
  };

  __device__ __forceinline__ explicit bins_scan(TempStorage& temp) : temp_(temp) {}

  /// This thread's counts of `bins` (its digits from `t * DIGITS_PER_THREAD`, 0 past RADIX) and
  /// their sum; also the segmented sort's scan reads its segments' counts this way.
  __device__ __forceinline__ static u64 thread_counts(const u64* bins, u64 (&counts)[DIGITS_PER_THREAD]) {
    const int d0 = int(threadIdx.x) * DIGITS_PER_THREAD;
    u64 sum = 0;
RINGSWEEP_UNROLL
    for (int i = 0; i < DIGITS_PER_THREAD; ++i) {
      counts[i] = d0 + i < RADIX ? bins[d0 + i] : 0;
      sum += counts[i];
    }
    return sum;
  }

  /// Scans `bins` in place; returns (to every thread) whether one digit holds all the counts.
  __device__ __forceinline__ bool process(u64* bins) {
    const int d0 = int(threadIdx.x) * DIGITS_PER_THREAD;
    u64 counts[DIGITS_PER_THREAD];
    const u64 sum = thread_counts(bins, counts);
    u64 total;
    u64 offset = scan_t::exclusive_sum(temp_.scan, sum, total);
    bool holds_all = false;
RINGSWEEP_UNROLL
    for (int i = 0; i < DIGITS_PER_THREAD; ++i) {
      if (d0 + i < RADIX) bins[d0 + i] = offset;
      offset += counts[i];
      holds_all = holds_all || (counts[i] == total && total != 0);
    }
    return __syncthreads_or(holds_all ? 1 : 0) != 0;
  }

 private:
  TempStorage& temp_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
