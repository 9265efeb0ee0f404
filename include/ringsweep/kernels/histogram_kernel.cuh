// The upfront histogram kernel and the per-pass scan kernel that follows it.
#pragma once

#include "../agent/bins_scan.cuh"
#include "../agent/histogram_tile.cuh"

namespace ringsweep {
namespace detail {

/// Persistent grid; counts the digits of every pass (see histogram_tile).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS) histogram_kernel(histogram_params<Key> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = histogram_tile<Policy, Key>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// Threads of the scan kernel: one block per pass.
constexpr int bins_scan_threads = 256;

/// Block `p` scans pass `p`'s counts into global digit offsets (see bins_scan).
template <int RADIX>
__global__ void __launch_bounds__(bins_scan_threads) bins_scan_kernel(u64* bins) {
  using agent_t = bins_scan<bins_scan_threads, RADIX>;
  __shared__ typename agent_t::TempStorage temp;
  agent_t(temp).process(bins + std::size_t(blockIdx.x) * RADIX);
}

}  // namespace detail
}  // namespace ringsweep
