// The single-block kernel for inputs of at most one tile.
#pragma once

#include "../agent/small_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Launched with one block (see small_sort).
template <class Policy, class Key, class ValueRaw, bool HAS_VALUES>
__global__ void __launch_bounds__(small_sort<Policy, Key, ValueRaw, HAS_VALUES>::THREADS, 1)
    small_sort_kernel(small_sort_params<Key, ValueRaw> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = small_sort<Policy, Key, ValueRaw, HAS_VALUES>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
