// block_scan: exclusive prefix sum of one value per thread across a block.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Exclusive sum over the threads of a block (thread order), with the block total.
///
///     __shared__ block_scan<u32, 256>::TempStorage temp;
///     u32 total;
///     u32 prefix = block_scan<u32, 256>::exclusive_sum(temp, my_count, total);
///
/// Every thread of the block must call it; it synchronises the block twice and leaves `temp` free.
/// `GROUPED`: over each group of THREADS consecutive threads of a larger block instead, each with
/// its own `temp` (group_thread), every group calling it at once.
template <class T, int THREADS, bool GROUPED = false>
struct block_scan {
  static constexpr int WARPS = THREADS / warp_threads;
  struct TempStorage {
    T warp_totals[WARPS];
  };

  __device__ __forceinline__ static T exclusive_sum(TempStorage& temp, T value, T& total) {
    const u32 lane = lane_id();
    const int warp = group_thread<THREADS, GROUPED>() / warp_threads;
    T inclusive = value;
RINGSWEEP_UNROLL
    for (int offset = 1; offset < warp_threads; offset *= 2) {
      const T other = __shfl_up_sync(0xffffffffu, inclusive, offset);
      if (int(lane) >= offset) inclusive += other;
    }
    if (lane == warp_threads - 1) temp.warp_totals[warp] = inclusive;
    __syncthreads();
    T prefix = 0;
    if constexpr (WARPS > 8) {
      // Every warp scans the warp totals itself, lane w holding warp w's: log2(WARPS) shuffle
      // steps instead of a load, compare and add per warp (a 512 x 18 block_thread_rank pass on
      // sm_90: 312 instructions a warp against 330; at 8 warps the loop was as short).
      const T mine = int(lane) < WARPS ? temp.warp_totals[lane] : T(0);
      T running = mine;
RINGSWEEP_UNROLL
      for (int offset = 1; offset < WARPS; offset *= 2) {
        const T other = __shfl_up_sync(0xffffffffu, running, offset);
        if (int(lane) >= offset) running += other;
      }
      prefix = __shfl_sync(0xffffffffu, running - mine, warp);
      total = __shfl_sync(0xffffffffu, running, WARPS - 1);
    } else {
      total = 0;
RINGSWEEP_UNROLL
      for (int w = 0; w < WARPS; ++w) {
        const T t = temp.warp_totals[w];
        if (w < warp) prefix += t;
        total += t;
      }
    }
    __syncthreads();
    return prefix + inclusive - value;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
