// The onesweep kernels: one block per tile of one pass over one portion (or a persistent block
// taking tiles), whatever the tiles' source; and a chain of such launches in one kernel.
#pragma once

#include <cstddef>

#include "../agent/counted_tile_source.cuh"
#include "../agent/onesweep_tile.cuh"
#include "../agent/portion_tile_source.cuh"
#include "../agent/segment_tile_source.cuh"
#include "../detail/dynamic_shared.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The launch arguments of a onesweep kernel of `Config` over `Source`'s tiles.
template <class Config, class Source>
using onesweep_params_of = typename onesweep_tile<Config, Source>::params_t;

/// One launch per (pass, portion); the grid is the portion's tile count (a bound on them where
/// the source's tiles are not all real), or with PIPELINE_STAGES = 2 the blocks that fit on the
/// device at once (at most the tile count). Tiles take their index from the sort's ticket
/// counter, not from blockIdx (see onesweep_tile). `Source`: portion_tiles<HINTS> (with cache
/// hints for sorts whose data cannot stay in L2, sort_dispatch), counted_tiles<HINTS> (a sort
/// whose count is on the device: the host launched the portions of max_n keys, and the tiles past
/// the count leave); a segmented sort's large segments (segment_tiles) chain their launches in
/// one kernel instead (onesweep_chain_kernel, below).
template <class Config, class Source>
__global__ void __launch_bounds__(Config::THREADS, Config::shape::MIN_BLOCKS)
    onesweep_kernel(onesweep_params_of<Config, Source> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {
      // May start while the previous kernel of the sort finishes: nothing is read before it has.
      grid_dependency_wait();
      grid_dependents_launch();
    }
    using agent_t = onesweep_tile<Config, Source>;
    if constexpr (agent_t::DYNAMIC_SHARED) {
      agent_t(dynamic_shared<typename agent_t::TempStorage>(), params).process();
    } else {
      __shared__ typename agent_t::TempStorage temp;
      agent_t(temp, params).process();
    }
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// The arguments of a chained onesweep kernel (a source that is CHAINED: segment_tiles): those
/// of up to `CHAIN` launches, run as one (onesweep_chain); `launch[0].launches` says how many.
template <class Config, class Source, int CHAIN>
struct onesweep_chain_params {
  onesweep_params_of<Config, Source> launch[CHAIN];
  // 16 entries of 256 bytes at most (128-bit keys): every CUDA 12 toolkit takes 4 KiB of them.
  static_assert(sizeof(launch) <= 4096, "a chain's launch arguments must fit a kernel's 4 KiB of parameters");
};

/// A chain of onesweep launches in one (onesweep_chain): the grid is the blocks that fit on the
/// device at once, each taking tiles by ticket through every launch of the chain.
template <class Config, class Source, int CHAIN>
__global__ void __launch_bounds__(Config::THREADS, Config::shape::MIN_BLOCKS)
    onesweep_chain_kernel(onesweep_chain_params<Config, Source, CHAIN> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {
      grid_dependency_wait();  // may start while the previous kernel of the sort finishes
      grid_dependents_launch();
    }
    using agent_t = onesweep_tile<Config, Source>;
    static_assert(Source::CHAINED, "a chained kernel takes a chained source");
    if constexpr (agent_t::DYNAMIC_SHARED) {
      agent_t(dynamic_shared<typename agent_t::TempStorage>(), params.launch[0]).process();
    } else {
      __shared__ typename agent_t::TempStorage temp;
      agent_t(temp, params.launch[0]).process();
    }
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// Dynamic shared memory of a onesweep launch over `Source`: the tile's storage where it lives
/// there (pipelined, or above 48 KiB: onesweep_tile::DYNAMIC_SHARED), else none.
template <class Config, class Source = portion_tiles<false>>
__host__ __device__ constexpr std::size_t onesweep_dynamic_shared_bytes() {
  using agent_t = onesweep_tile<Config, Source>;
  return agent_t::DYNAMIC_SHARED ? sizeof(typename agent_t::TempStorage) : 0;
}

/// Lets `kernel` (a onesweep kernel over `Source`) launch with its dynamic shared memory (the
/// attribute above 48 KiB), and checks that one block of it fits an SM; nothing where it has none.
/// `blocks_per_sm` (optional): how many fit.
template <class Config, class Source, class Kernel>
__host__ cudaError_t allow_onesweep_shared(Kernel* kernel, int* blocks_per_sm = nullptr) {
  const std::size_t bytes = onesweep_dynamic_shared_bytes<Config, Source>();
  if (bytes == 0) return cudaSuccess;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  int fit = 0;
  if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, Config::THREADS, bytes);
  if (e != cudaSuccess) return e;
  if (fit < 1) return cudaErrorInvalidConfiguration;  // the tile's storage does not fit an SM
  if (blocks_per_sm != nullptr) *blocks_per_sm = fit;
  return cudaSuccess;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
