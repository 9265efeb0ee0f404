// top_k_levels: every level of the select after the first read, in one cooperative launch
// (top_k_levels_kernel): per round the pick (top_k_pick.cuh) and the moves (top_k_moves.cuh),
// separated by grid barriers (docs/design.md section 15).
#pragma once

#include "top_k_moves.cuh"
#include "top_k_pick.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The levels of top_k_select<Config>: a grid of blocks that are all resident at once (a
/// cooperative launch), each taking the ranges blockIdx.x, blockIdx.x + gridDim.x, ...
template <class Config>
struct top_k_levels : top_k_select<Config> {
  using base = top_k_select<Config>;
  using params_t = typename base::params_t;
  using TempStorage = typename base::TempStorage;

  /// Waits until every block of the grid has arrived here for the `count`-th time (1, 2, ...) in
  /// this call; what a block wrote before it is visible to every block after it. p.arrived, zeroed
  /// by the call's memset, counts the arrivals of every barrier.
  __device__ __forceinline__ static void grid_barrier(const params_t& p, u32 count) {
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(p.arrived, 1u);
      const u32 all = count * gridDim.x;
      u32 pause = 0;
      while (load_acquire(p.arrived) < all) backoff(pause);
      __threadfence();
    }
    __syncthreads();
  }

  /// Round after round: the pick of the level (or walk of levels) and the bucket, a barrier, the
  /// moves of every range, a barrier; until a pick finds the select ended (every block alike).
  __device__ __forceinline__ static void run(TempStorage& temp, const params_t& p) {
    const int rounds = p.window.passes > 1 ? p.window.passes : 1;
    u32 barriers = 0;
    for (int round = 0; round < rounds; ++round) {
      if (!top_k_pick<Config>::pick(p, round)) return;
      grid_barrier(p, ++barriers);
      for (u64 r = blockIdx.x; r < p.ranges; r += gridDim.x) top_k_moves<Config>::step(temp, p, round, r);
      if (round + 1 < rounds) grid_barrier(p, ++barriers);
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
