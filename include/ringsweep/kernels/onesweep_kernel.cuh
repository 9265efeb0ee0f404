// The onesweep kernel: one block per tile of one pass over one portion.
#pragma once

#include "../agent/onesweep_tile.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// One launch per (pass, portion); the grid is the portion's tile count. Tiles take their index
/// from the sort's ticket counter, not from blockIdx (see onesweep_tile).
template <class Policy, class Key, class ValueRaw, bool HAS_VALUES>
__global__ void __launch_bounds__(onesweep_tile<Policy, Key, ValueRaw, HAS_VALUES>::THREADS,
                                  onesweep_tile<Policy, Key, ValueRaw, HAS_VALUES>::MIN_BLOCKS)
    onesweep_kernel(onesweep_params<Key, ValueRaw> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    if constexpr (Policy::DEPENDENT_LAUNCH) {
      // May start while the previous kernel of the sort finishes: nothing is read before it has.
      grid_dependency_wait();
      grid_dependents_launch();
    }
    using agent_t = onesweep_tile<Policy, Key, ValueRaw, HAS_VALUES>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
