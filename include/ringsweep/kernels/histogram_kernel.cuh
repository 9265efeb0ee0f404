// The upfront histogram kernel and the per-pass scan kernel that follows it.
#pragma once

#include "../agent/bins_scan.cuh"
#include "../agent/histogram_tile.cuh"
#include "../agent/pass_route.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Persistent grid; counts the digits of every pass (see histogram_tile). `Config`: a keys-only
/// config (sort_config::keys_only), shared by the keys and pairs sorts of the same keys.
template <class Config>
__global__ void __launch_bounds__(Config::policy::HIST_THREADS)
    histogram_kernel(histogram_params<typename Config::key_type> params) {
  using Policy = typename Config::policy;
  if constexpr (policy_compiled_here<Policy>()) {
    // The first kernel of a sort (after a memset): it waits for nothing, and lets the scan be
    // scheduled at once.
    if constexpr (Policy::DEPENDENT_LAUNCH) grid_dependents_launch();
    using agent_t = histogram_tile<Config>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// Threads of the scan kernel: one block per pass.
constexpr int bins_scan_threads = 256;

/// Arguments of the bins scan kernel (one block per pass).
struct bins_scan_params {
  u64* bins;    // passes x RADIX digit counts, scanned in place
  u32* routes;  // route_words(passes) words: receive the sort's pass routes (see pass_route)
  u32* done;    // zeroed counter of finished blocks
  u32 mode;     // route_mode: where the input is among the result's buffers
  const u32* unsorted;  // the histogram's sorted-input flag: 0 when every key is in order
};

/// Block `p` scans pass `p`'s counts into global digit offsets (see bins_scan) and notes whether
/// the pass is uniform; the last block to finish (every pass skipped when the histogram found the
/// input sorted) turns the notes into the routes of every pass
/// (build_pass_routes), which the onesweep launches and the final copy read. `DEPENDENT`: launched
/// as a programmatic dependent of the histogram (Policy::DEPENDENT_LAUNCH).
template <int RADIX, bool DEPENDENT>
__global__ void __launch_bounds__(bins_scan_threads) bins_scan_kernel(bins_scan_params params) {
  if constexpr (DEPENDENT) {
    grid_dependency_wait();
    grid_dependents_launch();
  }
  using agent_t = bins_scan<bins_scan_threads, RADIX>;
  __shared__ typename agent_t::TempStorage temp;
  const bool uniform = agent_t(temp).process(params.bins + std::size_t(blockIdx.x) * RADIX);
  if (threadIdx.x == 0) {
    params.routes[1 + blockIdx.x] = uniform ? 1u : 0u;
    // Release: this block's note before its count; acquire: the last block sees every note.
    if (atomic_add_acq_rel(params.done, 1u) + 1u == gridDim.x) {
      // A sorted input needs no pass at all: every pass is skipped as if uniform.
      if (*params.unsorted == 0) {
        for (u32 p = 0; p < gridDim.x; ++p) params.routes[1 + p] = 1u;
      }
      build_pass_routes(params.routes, int(gridDim.x), params.mode);
    }
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
