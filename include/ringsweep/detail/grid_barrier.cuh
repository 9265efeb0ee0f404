// grid_barrier: the barrier of a cooperative grid (every block resident at once, launch_order::
// cooperative): top-k's levels kernel and its candidates' sort.
#pragma once

#include "config.cuh"
#include "intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Waits until every block of the grid has arrived here for the `count`-th time (1, 2, ...) in
/// this launch; what a block wrote before it is visible to every block after it. `arrived`, zeroed
/// before the launch, counts the arrivals of every barrier of the launch: thread 0 of each block
/// adds its block's and spins (with `backoff`) until all `count x gridDim.x` are in.
///
///     u32 barriers = 0;
///     grid_barrier(p.arrived, ++barriers);
__device__ __forceinline__ void grid_barrier(u32* arrived, u32 count) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    const u32 all = count * gridDim.x;
    u32 pause = 0;
    while (load_acquire(arrived) < all) backoff(pause);
    __threadfence();
  }
  __syncthreads();
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
