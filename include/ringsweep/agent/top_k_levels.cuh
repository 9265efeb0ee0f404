// top_k_levels: every level of the select after the first read, in one cooperative launch
// (top_k_levels_kernel): per round the pick (top_k_pick.cuh) and the moves (top_k_moves.cuh),
// separated by grid barriers (detail/grid_barrier.cuh; docs/design.md section 15).
#pragma once

#include "../detail/grid_barrier.cuh"
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

  /// Round after round: the pick of the level (or walk of levels) and the bucket, a barrier, the
  /// moves of every range, a barrier; until a pick finds the select ended (every block alike).
  __device__ __forceinline__ static void run(TempStorage& temp, const params_t& p) {
    const int rounds = p.window.passes > 1 ? p.window.passes : 1;
    u32 barriers = 0;
    for (int round = 0; round < rounds; ++round) {
      if (!top_k_pick<Config>::pick(p, round)) return;
      grid_barrier(p.arrived, ++barriers);
      for (u64 r = blockIdx.x; r < p.ranges; r += gridDim.x) top_k_moves<Config>::step(temp, p, round, r);
      if (round + 1 < rounds) grid_barrier(p.arrived, ++barriers);
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
