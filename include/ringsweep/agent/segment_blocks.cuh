// segment_blocks: the block classes of a segmented sort (compact, medium, small) and how one block
// shape sorts all three: groups of threads sort the compact and medium segments side by side, the
// whole block a small one (segment_blocks_kernel).
#pragma once

#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_for_arch.cuh"
#include "kernel_arrays.cuh"
#include "segment_lists.cuh"
#include "small_sort.cuh"
#include "sort_config.cuh"
#include "subwarp_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The size classes of a segmented sort with the (unhooked) configuration `Config`, by their
/// largest segments: TINY (a sub-warp's network, in the classifying launch), COMPACT and MEDIUM
/// (groups of the block of segment_blocks_kernel, each with its policy's own block shape; 0: no
/// such class), SMALL (the whole block: one onesweep tile), and above it the large class
/// (onesweep passes over its tiles).
///
///     using classes = segment_block_classes<sort_config<policy_sm90, unsigned, null_value>>;
///     // classes::TINY 512, COMPACT 1024, MEDIUM 4096, SMALL 9216; THREADS 512
template <class Config>
struct segment_block_classes {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using Value = typename Config::value_type;
  using compact_config = sort_config<segment_compact_policy<Policy>, Key, Value>;
  using medium_config = sort_config<segment_block_policy<Policy>, Key, Value>;
  using small_config = sort_config<segment_small_policy<Policy>, Key, Value>;
  /// The block's threads (SEGMENT_SMALL_THREADS, or fewer for a small onesweep tile).
  static constexpr int THREADS = small_config::THREADS;
  static constexpr int TINY = min_of(Policy::SEGMENT_TINY_KEYS, subwarp_sort<Config>::MAX_KEYS);
  static constexpr int SMALL = Config::TILE;
  static_assert(small_config::TILE >= SMALL, "the small block holds one onesweep tile");
  static_assert(TINY <= 65536 && SMALL <= 65536, "segment_item holds sizes up to 65536");
  static constexpr int MEDIUM = medium_config::TILE > TINY && medium_config::TILE < SMALL ? medium_config::TILE : 0;
  static constexpr int COMPACT =
      MEDIUM != 0 && compact_config::TILE > TINY && compact_config::TILE < MEDIUM ? compact_config::TILE : 0;
  static_assert(MEDIUM == 0 || THREADS % medium_config::THREADS == 0,
                "segment_block's threads must divide the small block's (SEGMENT_SMALL_THREADS)");
  static_assert(COMPACT == 0 || THREADS % compact_config::THREADS == 0,
                "segment_compact_block's threads must divide the small block's (SEGMENT_SMALL_THREADS)");
  /// Groups of the block per compact and per medium segment (1 where there is no such class).
  static constexpr int COMPACT_GROUPS = COMPACT != 0 ? THREADS / compact_config::THREADS : 1;
  static constexpr int MEDIUM_GROUPS = MEDIUM != 0 ? THREADS / medium_config::THREADS : 1;
  /// Front-list items a block takes at a time (both classes share the front list).
  static constexpr int CHUNK = COMPACT_GROUPS > MEDIUM_GROUPS ? COMPACT_GROUPS : MEDIUM_GROUPS;
  static_assert(CHUNK <= warp_threads, "a warp finds a chunk's items (chunk_member)");

  using compact_sort = small_sort<compact_config, true, (COMPACT_GROUPS > 1)>;
  using medium_sort = small_sort<medium_config, true, (MEDIUM_GROUPS > 1)>;
  using small_sort_t = small_sort<small_config, true>;
};

/// Arguments of the kernel that sorts compact, medium and small segments (segment_lists' items).
template <class Key, class ValueRaw>
struct segment_sort_params : sort_arrays<Key, ValueRaw> {
  const u64* items;           // segment_item words: compact and medium from the front, small from the back
  u64 capacity;
  const u32* front_count;     // the front list's items (compact and medium)
  const u32* small_count;
};

/// Sorts the listed segment `item` (list index `at`) with `Sort` (a small_sort whose threads sort
/// together: a group or the whole block) where `active`; an inactive group sorts 0 keys (the same
/// barriers as its neighbours', nothing read or written). `Output` (segment_in_place or
/// segment_first_k, segment_lists.cuh) says where the segment goes.
template <class Sort, class Output>
__device__ __forceinline__ void sort_listed_segment(typename Sort::TempStorage& temp,
                                                    const segment_sort_params<typename Sort::Key,
                                                                              typename Sort::ValueRaw>& p,
                                                    const Output& out, u64 at, u64 item, bool active) {
  const u64 begin = active ? segment_item::begin(item) : 0;
  small_sort_params<typename Sort::Key, typename Sort::ValueRaw> sp;
  static_cast<key_context<typename Sort::Key>&>(sp) = p;
  sp.keys_in = p.keys_in + begin;
  sp.values_in = p.values_in != nullptr ? p.values_in + begin : nullptr;
  sp.keys = active ? int(segment_item::size(item)) : 0;
  sp.window = p.window;
  if constexpr (Output::TOP_K) {
    // The first min(k, size) sorted keys straight to the segment's k slots.
    const u64 slot = active ? out.slot(u64(load_global(out.item_segments + at))) : 0;
    sp.keys_out = out.keys_out != nullptr ? out.keys_out + slot : nullptr;
    sp.values_out = out.values_out != nullptr ? out.values_out + slot : nullptr;
    Sort(temp, sp).process_first(out.take(sp.keys), begin, out);
  } else {
    sp.keys_out = p.keys_out + begin;
    sp.values_out = p.values_out != nullptr ? p.values_out + begin : nullptr;
    Sort(temp, sp).process();
  }
}

/// The chunk's item `want` of one class (`in_class(size)`) among its `count` items (at most 32,
/// `chunk`: shared memory, item j the front list's item `first + j`), its list index in `at`, and
/// in `members` how many of the class the chunk holds; 0 where `want` is not below that. Every warp
/// finds it on its own (lane j reads item j: two ballots and a shuffle, no barrier), so every thread
/// of the block agrees.
template <class InClass>
__device__ __forceinline__ u64 chunk_member(const u64* chunk, u32 first, int count, int want, InClass&& in_class,
                                            int& members, u32& at) {
  const u32 lane = lane_id();
  const bool here = int(lane) < count;
  const u64 w = here ? chunk[lane] : 0;
  const bool member = here && in_class(segment_item::size(w));
  const u32 mask = __ballot_sync(0xffffffffu, member);
  members = __popc(mask);
  const u32 hit = __ballot_sync(0xffffffffu, member && __popc(mask & lanemask_lt()) == want);
  const int src = hit != 0 ? __ffs(hit) - 1 : 0;
  at = first + u32(src);
  const u64 item = __shfl_sync(0xffffffffu, w, src);
  return hit != 0 ? item : 0;
}

/// The chunk's items (`chunk`, shared: the front list's `[first, first + count)`) of one class
/// (`in_class(size)`), sorted by the block's `GROUPS` groups of `Sort`, GROUPS at a time: group h
/// of round r sorts the class's item r x GROUPS + h of the chunk (chunk_member). Every group passes
/// the same rounds and barriers, a group without an item sorting none. Ends with a block barrier
/// where it sorted anything.
template <class Sort, int GROUPS, class Output, class InClass>
__device__ __forceinline__ void sort_chunk_class(typename Sort::TempStorage (&temp)[GROUPS],
                                                 const segment_sort_params<typename Sort::Key,
                                                                           typename Sort::ValueRaw>& p,
                                                 const Output& out, const u64* chunk, u32 first, int count,
                                                 InClass&& in_class) {
  const int group = GROUPS > 1 ? int(threadIdx.x) / Sort::THREADS : 0;
  for (int round = 0;; ++round) {
    const int want = round * GROUPS + group;  // this group's member of the chunk, if there is one
    int members = 0;
    u32 at = 0;
    const u64 item = chunk_member(chunk, first, count, want, in_class, members, at);
    if (round * GROUPS >= members) break;
    sort_listed_segment<Sort>(temp[group], p, out, at, item, want < members);
    __syncthreads();  // shared memory free for the next round
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
