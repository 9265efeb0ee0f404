// The kernels that sort a segmented sort's compact, medium and small segments (one block each, the
// single-tile sort's agent), from the classification's lists; the small segments' kernel also
// prepares the large ones' passes.
#pragma once

#include "../agent/segment_lists.cuh"
#include "../agent/large_offsets.cuh"
#include "../agent/small_sort.cuh"
#include "../agent/kernel_arrays.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the kernels that sort compact, medium and small segments (segment_lists' items).
template <class Key, class ValueRaw>
struct segment_sort_params : sort_arrays<Key, ValueRaw> {
  const u64* items;           // segment_item words: compact and medium from the front, small from the back
  u64 capacity;
  const u32* front_count;     // the front list's items (compact and medium)
  const u32* small_count;
  // A front list's kernel (small_segment_kernel) sorts its items of `front_min` to `front_max`
  // keys and passes over the others (the compact and medium classes share the front).
  u32 front_min = 0;
  u32 front_max = 0xffffffffu;
};

/// Block `b` of a persistent grid sorts its listed segments `b, b + gridDim.x, ...` (from
/// the back of the items; `FRONT`: those of `p.front_min` to `p.front_max` keys from the front, the
/// compact or the medium ones, passing over the other class's), each as a single-tile sort of
/// Config's shape ranked by per-thread counters over 4-bit digits (small_sort's THREAD_RANK: every
/// class, a fraction of the onesweep block ranking's instructions per key); `Output`
/// (segment_in_place or segment_first_k, segment_lists.cuh) says where each goes. Ends with a
/// block barrier (after each segment).
template <class Config, class Output, bool FRONT>
__device__ __forceinline__ void sort_block_segments(typename small_sort<Config, true>::TempStorage& temp,
                                                    const segment_sort_params<typename Config::key_type,
                                                                              typename Config::value_raw_t>& p,
                                                    const Output& out) {
  using agent_t = small_sort<Config, true>;
  const u32 count = FRONT ? *p.front_count : *p.small_count;
  for (u32 i = blockIdx.x; i < count; i += gridDim.x) {
    const u64 at = FRONT ? i : p.capacity - 1 - i;
    const u64 item = load_global(p.items + at);
    if constexpr (FRONT) {  // the same item in every thread: the whole block passes over it
      const u32 size = segment_item::size(item);
      if (size < p.front_min || size > p.front_max) continue;
    }
    const u64 begin = segment_item::begin(item);
    small_sort_params<typename Config::key_type, typename Config::value_raw_t> sp;
    static_cast<key_context<typename Config::key_type>&>(sp) = p;
    sp.keys_in = p.keys_in + begin;
    sp.values_in = p.values_in != nullptr ? p.values_in + begin : nullptr;
    sp.keys = int(segment_item::size(item));
    sp.window = p.window;
    if constexpr (Output::TOP_K) {
      // The first min(k, size) sorted keys straight to the segment's k slots.
      const u64 slot = out.slot(u64(load_global(out.item_segments + at)));
      sp.keys_out = out.keys_out != nullptr ? out.keys_out + slot : nullptr;
      sp.values_out = out.values_out != nullptr ? out.values_out + slot : nullptr;
      agent_t(temp, sp).process_first(out.take(sp.keys), begin, out);
    } else {
      sp.keys_out = p.keys_out + begin;
      sp.values_out = p.values_out != nullptr ? p.values_out + begin : nullptr;
      agent_t(temp, sp).process();
    }
    __syncthreads();  // shared memory free for the next segment
  }
}

/// Persistent grid over the compact or the medium segments (sort_block_segments, `FRONT`).
/// `MIN_BLOCKS`: blocks per SM the registers must allow.
template <class Config, class Output = segment_in_place, int MIN_BLOCKS = 1>
__global__ void __launch_bounds__(Config::THREADS, MIN_BLOCKS)
    small_segment_kernel(segment_sort_params<typename Config::key_type, typename Config::value_raw_t> p, Output out) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {  // may start early: waits for the lists
      grid_dependency_wait();
      grid_dependents_launch();
    }
    __shared__ typename small_sort<Config, true>::TempStorage temp;
    sort_block_segments<Config, Output, true>(temp, p, out);
  } else {
    (void)p;
    (void)out;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

/// Persistent grid of the sort's onesweep shape: the small segments (sort_block_segments, from
/// the back of the items), then, where the host planned a large class (`large.large_word` not
/// null), the large segments' histogram, scan and copy (large_offsets): one launch for both. The
/// launch bounds name the minimum of one block: with the thread count alone ptxas capped the sm_90
/// u64 keys with 16-byte values at 80 registers and spilled.
template <class Config, class Output = segment_in_place>
__global__ void __launch_bounds__(Config::THREADS, 1)
    small_large_segment_kernel(segment_sort_params<typename Config::key_type, typename Config::value_raw_t> p,
                               Output out,
                               large_offsets_params<typename Config::key_type, typename Config::value_raw_t> large) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {  // may start early: waits for the lists
      grid_dependency_wait();
      grid_dependents_launch();
    }
    using offsets_t = large_offsets<Config, Config::THREADS>;
    __shared__ union {
      typename small_sort<Config, true>::TempStorage sort;
      typename offsets_t::TempStorage offsets;
    } temp;
    sort_block_segments<Config, Output, false>(temp.sort, p, out);  // ends with a barrier
    // sass: large_offsets
    if (large.large_word != nullptr) offsets_t(temp.offsets).run(large);
    // sass: end
  } else {
    (void)p;
    (void)out;
    (void)large;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
