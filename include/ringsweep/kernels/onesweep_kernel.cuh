// The onesweep kernel: one block per tile of one pass over one portion.
#pragma once

#include <cstddef>

#include "../agent/onesweep_tile.cuh"
#include "../detail/dynamic_shared.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The body of both onesweep kernels: one tile (see onesweep_tile), with cache hints where
/// `CACHE_HINTS`, of a sort whose count is on the device where `COUNTED`.
template <class Config, class Hooks, bool SEGMENTED, bool CACHE_HINTS = false, bool COUNTED = false>
__device__ __forceinline__ void onesweep_kernel_body(
    const onesweep_params<typename Config::key_type, typename Config::value_raw_t>& params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {
      // May start while the previous kernel of the sort finishes: nothing is read before it has.
      grid_dependency_wait();
      grid_dependents_launch();
    }
    using agent_t = onesweep_tile<typename Config::policy, typename Config::key_type, typename Config::value_raw_t,
                                  Config::HAS_VALUES, Hooks, Config::INDEX_VALUES, SEGMENTED, CACHE_HINTS, COUNTED>;
    if constexpr (agent_t::PIPELINED) {
      agent_t(dynamic_shared<typename agent_t::TempStorage>(), params).process();
    } else {
      __shared__ typename agent_t::TempStorage temp;
      agent_t(temp, params).process();
    }
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// Dynamic shared memory of a onesweep launch: the pipelined tile's storage, else none (the same
/// with and without cache hints; `COUNTED`: of the counted kernel).
template <class Config, class Hooks, bool COUNTED = false>
__host__ __device__ constexpr std::size_t onesweep_dynamic_shared_bytes() {
  using agent_t = onesweep_tile<typename Config::policy, typename Config::key_type, typename Config::value_raw_t,
                                Config::HAS_VALUES, Hooks, Config::INDEX_VALUES, false, false, COUNTED>;
  return agent_t::PIPELINED ? sizeof(typename agent_t::TempStorage) : 0;
}

/// One launch per (pass, portion); the grid is the portion's tile count, or with PIPELINE_STAGES
/// = 2 the blocks that fit on the device at once (at most the tile count). Tiles take their index
/// from the sort's ticket counter, not from blockIdx (see onesweep_tile). `CACHE_HINTS`: the
/// instantiation with cache hints, launched for sorts whose data cannot stay in L2 (sort_dispatch).
template <class Config, class Hooks, bool CACHE_HINTS = false>
__global__ void __launch_bounds__(Config::THREADS, Config::shape::MIN_BLOCKS)
    onesweep_kernel(onesweep_params<typename Config::key_type, typename Config::value_raw_t> params) {
  onesweep_kernel_body<Config, Hooks, false, CACHE_HINTS>(params);
}

/// The same for a sort whose count is read on the device (params.count, sort.cuh's device_count):
/// the host launched the portions of max_n keys, and the tiles past the count leave (onesweep_tile's
/// COUNTED).
template <class Config, class Hooks, bool CACHE_HINTS = false>
__global__ void __launch_bounds__(Config::THREADS, Config::shape::MIN_BLOCKS)
    counted_onesweep_kernel(onesweep_params<typename Config::key_type, typename Config::value_raw_t> params) {
  onesweep_kernel_body<Config, Hooks, false, CACHE_HINTS, true>(params);
}

/// The same over the tiles of a segmented sort's large segments: one launch per (pass, portion)
/// of a grid the host bounds (it does not know the segments), whose tiles past the last one leave.
template <class Config, class Hooks>
__global__ void __launch_bounds__(Config::THREADS, Config::shape::MIN_BLOCKS)
    segmented_onesweep_kernel(onesweep_params<typename Config::key_type, typename Config::value_raw_t> params) {
  onesweep_kernel_body<Config, Hooks, true>(params);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
