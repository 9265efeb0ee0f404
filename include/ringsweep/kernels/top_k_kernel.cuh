// The kernels of top-k (top_k.cuh): the select's count, pick and step (agent/top_k_select.cuh),
// and the gathers after the sort of the k candidates.
#pragma once

#include "../agent/top_k_select.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_for_arch.cuh"
#include "segment_classify_kernel.cuh"

#include <type_traits>

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

// The count and step kernels name 4 blocks per SM in their launch bounds (at most 128 registers for
// 128 threads): without a minimum, CUDA 13's ptxas trades spills for occupancy on its own.

/// One block per range: every pass's digit counts of the range (top_k_select::count_input).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS, 4) top_k_count_kernel(top_k_params<Key> params) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = top_k_select<Policy, Key>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::count_input(temp, params);
  } else {
    (void)params;
  }
}

/// One block of HIST_THREADS threads per range: round `round`'s level and bucket, and
/// each range's counts below and in it (top_k_select::pick).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS, 4) top_k_pick_kernel(top_k_params<Key> params, int round) {
  if constexpr (policy_compiled_here<Policy>()) {
    top_k_select<Policy, Key>::pick(params, round);
  } else {
    (void)params;
    (void)round;
  }
}

/// One block per range: the level's moves (top_k_select::step).
template <class Policy, class Key>
__global__ void __launch_bounds__(Policy::HIST_THREADS, 4) top_k_step_kernel(top_k_params<Key> params, int round) {
  if constexpr (policy_compiled_here<Policy>()) {
    using agent_t = top_k_select<Policy, Key>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::step(temp, params, round);
  } else {
    (void)params;
    (void)round;
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

/// One warp per segment (grid-stride): positions `begin .. end - 1` at `out[begin, end)` for the
/// segments of more than `large_above` keys only (the large class, which onesweep passes sort
/// with these as values; the warp and block classes make their positions themselves).
template <class Offset, class Index>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_segment_iota_kernel(const Offset* begin_offsets, const Offset* end_offsets, u64 segments, u64 n,
                              u64 large_above, Index* out) {
  constexpr u64 WARPS = top_k_gather_threads / warp_threads;
  const u64 lane = threadIdx.x % warp_threads;
  for (u64 s = u64(blockIdx.x) * WARPS + threadIdx.x / warp_threads; s < segments; s += u64(gridDim.x) * WARPS) {
    u64 begin = 0, end = 0;
    if (!segment_offsets<Offset>{begin_offsets, end_offsets}.bounds(s, n, begin, end) || end - begin <= large_above) continue;
    for (u64 i = begin + lane; i < end; i += warp_threads) store_global(out + i, Index(i));
  }
}

/// Arguments of the segmented top-k's copy: segment `s` of the sorted arrays to slots
/// `[s * k, s * k + min(k, size))` of the outputs, for the segments of more than `large_above`
/// keys (the others were written by the sort).
template <class Offset, class Bits, class ValueRaw>
struct top_k_segment_copy_params {
  const Offset* begin_offsets;
  const Offset* end_offsets;
  u64 segments;
  u64 n;
  u64 k;
  u64 large_above;
  const Bits* keys_sorted;
  Bits* keys_out;  // null: no keys (indices only)
  const ValueRaw* values_sorted;
  ValueRaw* values_out;  // null: keys only
};

/// One warp per segment (grid-stride): the first min(k, size) keys (and values) of each sorted
/// large segment. Segments the segmented sort ignores (empty, or not within [0, n)) write nothing.
template <class Offset, class Bits, class ValueRaw>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_segment_copy_kernel(top_k_segment_copy_params<Offset, Bits, ValueRaw> p) {
  constexpr u64 WARPS = top_k_gather_threads / warp_threads;
  const u64 lane = threadIdx.x % warp_threads;
  for (u64 s = u64(blockIdx.x) * WARPS + threadIdx.x / warp_threads; s < p.segments; s += u64(gridDim.x) * WARPS) {
    u64 begin = 0, end = 0;
    if (!segment_offsets<Offset>{p.begin_offsets, p.end_offsets}.bounds(s, p.n, begin, end) || end - begin <= p.large_above) {
      continue;
    }
    const u64 take = min_of<u64>(p.k, end - begin);
    for (u64 i = lane; i < take; i += warp_threads) {
      if (p.keys_out != nullptr) store_global(p.keys_out + s * p.k + i, load_global(p.keys_sorted + begin + i));
      if (p.values_out != nullptr) store_global(p.values_out + s * p.k + i, load_global(p.values_sorted + begin + i));
    }
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
