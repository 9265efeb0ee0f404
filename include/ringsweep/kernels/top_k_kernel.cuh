// The kernels of top-k (top_k.cuh): the select's first read and its levels (agent/top_k_count.cuh,
// top_k_levels.cuh), the per-row select of batched top-k (top_k_row_select.cuh), the candidates'
// sort in one cooperative launch (top_k_sort.cuh), and the gathers after the other sorts.
#pragma once

#include "../agent/top_k_count.cuh"
#include "../agent/top_k_levels.cuh"
#include "../agent/top_k_row_select.cuh"
#include "../agent/top_k_sort.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_for_arch.cuh"
#include "segment_classify_kernel.cuh"

#include <type_traits>

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Blocks per SM the levels kernel's launch bounds name: 4 (at most 128 registers for 128
/// threads; without a minimum, CUDA 13's ptxas trades spills for occupancy on its own), 3 for
/// custom keys, whose digits come from a decomposer's fields: the pick and the moves in one body
/// spilled 32 bytes of a float-and-int key at 128 registers on sm_90.
template <class Config>
constexpr int top_k_levels_min_blocks() {
  return top_k_select<Config>::DIFF ? 4 : 3;
}

/// Blocks per SM the first read's launch bounds name: at most 64 registers a thread.
template <int THREADS>
constexpr int top_k_count_min_blocks() {
  return 65536 / (THREADS * 64) < 16 ? 65536 / (THREADS * 64) : 16;
}

/// One block per range: the top digit's counts of the range and its speculative candidates
/// (top_k_count::count_input), at most 64 registers: with TOP_K_MAX_RANGES = 1024 every range's
/// block is resident at once on an SM count of 128 or more (8 blocks of 128 threads an SM).
/// `Config`: the keys-only sort_config of the sort's policy and key (no hooks), as for every
/// kernel below.
template <class Config>
__global__ void __launch_bounds__(Config::policy::HIST_THREADS, top_k_count_min_blocks<Config::policy::HIST_THREADS>())
    top_k_count_kernel(top_k_params<typename Config::key_type> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    using agent_t = top_k_count<Config>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::count_input(temp, params);
  } else {
    (void)params;
  }
}

/// Every level after the first read (top_k_levels::run): a cooperative grid of at most one block
/// per range, every block resident at once.
template <class Config>
__global__ void __launch_bounds__(Config::policy::HIST_THREADS, top_k_levels_min_blocks<Config>())
    top_k_levels_kernel(top_k_params<typename Config::key_type> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    using agent_t = top_k_levels<Config>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::run(temp, params);
  } else {
    (void)params;
  }
}

/// The stable sort of more candidates than one block's tile (top_k_sort::process): a cooperative
/// grid of one block per tile of `Config`'s shape (the keys-only sort_config, no hooks), every
/// block resident at once; writes the sorted keys and, by `Output`, their values or indices.
template <class Config, class Output>
__global__ void __launch_bounds__(Config::THREADS, 1)
    top_k_sort_kernel(top_k_sort_params<typename Config::key_type, Output> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    using agent_t = top_k_sort<Config, Output>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t(temp, params).process();
  } else {
    (void)params;
  }
}

constexpr int top_k_gather_threads = 256;

/// `out[i] = in[pos[i]]` for i < k (grid-stride): the values of the top k, by their positions.
/// May be launched as a programmatic dependent of the candidates' sort: waits for it first.
template <class ValueRaw>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_gather_kernel(const ValueRaw* in, const u64* pos, ValueRaw* out, u64 k) {
  grid_dependency_wait();
  const u64 stride = u64(gridDim.x) * top_k_gather_threads;
  for (u64 i = u64(blockIdx.x) * top_k_gather_threads + threadIdx.x; i < k; i += stride) {
    store_global(out + i, load_global(in + load_global(pos + i)));
  }
}

/// `out[i] = Index(pos[i])` for i < k (grid-stride): the positions of the top k as the caller's type.
/// May be launched as a programmatic dependent of the candidates' sort: waits for it first.
template <class Index>
__global__ void __launch_bounds__(top_k_gather_threads) top_k_index_kernel(const u64* pos, Index* out, u64 k) {
  grid_dependency_wait();
  const u64 stride = u64(gridDim.x) * top_k_gather_threads;
  for (u64 i = u64(blockIdx.x) * top_k_gather_threads + threadIdx.x; i < k; i += stride) {
    store_global(out + i, Index(load_global(pos + i)));
  }
}

/// One thread per segment (grid-stride): the rows of more than `large_above` keys, each as its
/// `split.parts(size)` parts (a block's select each), appended in any order to `rows` (`count`
/// zeroed); part c's candidates go to slot `begin + c * k`. Disjoint segments make at most
/// `capacity` = min(segments, n / (large_above + 1)) + n / split.part_min of them; overlapping
/// ones (undefined) may count more, but no part past `capacity` is written or selected.
template <class Segments>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_rows_list_kernel(Segments segments, u64 num_segments, u64 n, u64 large_above, top_k_row_parts split, u64 k,
                           top_k_row* rows, u64 capacity, u32* count) {
  const u64 stride = u64(gridDim.x) * top_k_gather_threads;
  for (u64 s = u64(blockIdx.x) * top_k_gather_threads + threadIdx.x; s < num_segments; s += stride) {
    u64 begin = 0, end = 0;
    if (!segments.bounds(s, n, begin, end) || end - begin <= large_above) continue;
    const u64 size = end - begin, parts = split.parts(size);
    const u64 at = atomicAdd(count, u32(parts));
    for (u64 c = 0; c < parts && at + c < capacity; ++c) {
      const u64 first = top_k_row_parts::first(size, parts, c);
      rows[at + c] = top_k_row{s, begin + first, top_k_row_parts::first(size, parts, c + 1) - first, begin + c * k};
    }
  }
}

/// One block per listed row (grid-stride): its select, to the row's candidates
/// (top_k_row_select::rows). 2 blocks per SM in the launch bounds (at most 255 registers for 128
/// threads): the row's offsets, counts, speculation and walk next to a tile's keys and positions
/// spill 8-byte keys at 128 registers on sm_90 and at 168 on sm_80.
template <class Config, class ValueRaw, bool VALUES, bool POSITIONS>
__global__ void __launch_bounds__(Config::policy::HIST_THREADS, 2)
    top_k_rows_kernel(top_k_rows_params<typename Config::key_type, ValueRaw> params) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    using agent_t = top_k_row_select<Config>;
    __shared__ typename agent_t::TempStorage temp;
    agent_t::template rows<ValueRaw, VALUES, POSITIONS>(temp, params);
  } else {
    (void)params;
  }
}

/// Arguments of the segmented top-k's copy: segment `s` of the sorted arrays to slots
/// `[s * k, s * k + size)` of the outputs, for the segments `segments` lists with more than
/// `large_above` keys (the others were written by the sort).
template <class Segments, class Bits, class ValueRaw>
struct top_k_segment_copy_params {
  Segments segments;
  u64 num_segments;
  u64 n;
  u64 k;
  u64 large_above;
  const Bits* keys_sorted;
  Bits* keys_out;  // null: no keys (indices only)
  const ValueRaw* values_sorted;
  ValueRaw* values_out;  // null: keys only
};

/// One warp per segment (grid-stride): the keys (and values) of each sorted large segment.
/// Segments the segmented sort ignores (empty, or not within [0, n)) write nothing.
template <class Segments, class Bits, class ValueRaw>
__global__ void __launch_bounds__(top_k_gather_threads)
    top_k_segment_copy_kernel(top_k_segment_copy_params<Segments, Bits, ValueRaw> p) {
  constexpr u64 WARPS = top_k_gather_threads / warp_threads;
  const u64 lane = threadIdx.x % warp_threads;
  for (u64 s = u64(blockIdx.x) * WARPS + threadIdx.x / warp_threads; s < p.num_segments; s += u64(gridDim.x) * WARPS) {
    u64 begin = 0, end = 0;
    if (!p.segments.bounds(s, p.n, begin, end) || end - begin <= p.large_above) continue;
    for (u64 i = lane; i < end - begin; i += warp_threads) {
      if (p.keys_out != nullptr) store_global(p.keys_out + s * p.k + i, load_global(p.keys_sorted + begin + i));
      if (p.values_out != nullptr) store_global(p.values_out + s * p.k + i, load_global(p.values_sorted + begin + i));
    }
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
