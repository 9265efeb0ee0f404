// The kernels of top-k (top_k.cuh): the select's count, pick and step (agent/top_k_select.cuh),
// and the gathers after the sort of the k candidates.
#pragma once

#include "../agent/top_k_select.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// One block per range: every pass's digit counts of the range (top_k_select::count_input).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS) top_k_count_kernel(top_k_params<Key> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = top_k_select<Policy, Key>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::count_input(temp, params);
  } else {
    (void)params;
  }
}

/// One block of top_k_select::PICK_THREADS threads: the next level's bucket and every range's
/// offsets (top_k_select::pick).
template <class Policy, class Key>
__global__ void __launch_bounds__(256) top_k_pick_kernel(top_k_params<Key> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    top_k_select<Policy, Key>::pick(params);
  } else {
    (void)params;
  }
}

/// One block per range: the level's moves (top_k_select::step).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS) top_k_step_kernel(top_k_params<Key> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = top_k_select<Policy, Key>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::step(temp, params);
  } else {
    (void)params;
  }
}

constexpr int top_k_gather_threads = 256;

/// `out[i] = in[pos[i]]` for i < k (grid-stride): the values of the top k, by their positions.
template <class ValueRaw>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_gather_kernel(const ValueRaw* in, const u64* pos, ValueRaw* out, u64 k) {
  const u64 stride = u64(gridDim.x) * top_k_gather_threads;
  for (u64 i = u64(blockIdx.x) * top_k_gather_threads + threadIdx.x; i < k; i += stride) {
    store_global(out + i, load_global(in + load_global(pos + i)));
  }
}

/// `out[i] = Index(pos[i])` for i < k (grid-stride): the positions of the top k as the caller's type.
template <class Index>
__global__ void __launch_bounds__(top_k_gather_threads) top_k_index_kernel(const u64* pos, Index* out, u64 k) {
  const u64 stride = u64(gridDim.x) * top_k_gather_threads;
  for (u64 i = u64(blockIdx.x) * top_k_gather_threads + threadIdx.x; i < k; i += stride) {
    store_global(out + i, Index(load_global(pos + i)));
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
