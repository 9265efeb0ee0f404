// The single-block kernel for inputs of at most one tile.
#pragma once

#include "../agent/small_sort.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Launched with one block (see small_sort). Where the policy has DEPENDENT_LAUNCH, it may be
/// launched as a programmatic dependent (top-k's sort of its candidates after the select): it
/// waits for its predecessor first (no wait when launched otherwise).
template <class Config>
__global__ void __launch_bounds__(Config::THREADS, 1)
    small_sort_kernel(small_sort_params<typename Config::key_type, typename Config::value_raw_t> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) grid_dependency_wait();
    using agent_t = small_sort<Config>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
