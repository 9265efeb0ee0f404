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
  /// Front-list items a block takes at a time (both classes share the front list), and the slots of
  /// each class's queue: fewer than GROUPS wait after the rounds, CHUNK come.
  static constexpr int CHUNK = COMPACT_GROUPS > MEDIUM_GROUPS ? COMPACT_GROUPS : MEDIUM_GROUPS;
  static_assert(CHUNK <= warp_threads, "one warp takes a chunk's items (queue_front_items)");
  static constexpr int QUEUE = CHUNK <= 4 ? 8 : CHUNK <= 8 ? 16 : CHUNK <= 16 ? 32 : 64;

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

/// A block's queue of listed segments of one class (shared memory): `RING` slots (a power of two,
/// at most 64) of a segment's item and its list index; slot `i % RING` holds the class's i-th
/// segment of the block. Its head and tail are in queue_marks.
template <int RING>
struct segment_queue {
  static_assert((RING & (RING - 1)) == 0 && RING <= 64, "a queue's slots are a power of two, at most 64");
  u64 item[RING];
  u32 at[RING];
};

/// Where a block's compact (queue 0) and medium (queue 1) queues stand, and the parity of its
/// takes, in one word every thread holds alike (so the sorts in between keep their registers):
/// each queue's head and tail counted modulo 128 (a queue holds fewer than 64 segments, and its
/// slots divide 128), 7 bits each, queue q's head at bit 14q, its tail at 14q + 7, the parity at 28.
struct queue_marks {
  __device__ __forceinline__ u32 head(int q) const { return field(14 * q); }
  __device__ __forceinline__ u32 tail(int q) const { return field(14 * q + 7); }
  __device__ __forceinline__ u32 waiting(int q) const { return (tail(q) - head(q)) & 127u; }
  __device__ __forceinline__ void push(int q, u32 n) { add(14 * q + 7, n); }
  __device__ __forceinline__ void pop(int q, u32 n) { add(14 * q, n); }
  __device__ __forceinline__ u32 parity() const { return bits >> 28; }
  __device__ __forceinline__ void flip() { bits ^= 1u << 28; }

 private:
  u32 bits = 0;
  __device__ __forceinline__ u32 field(int at) const { return (bits >> at) & 127u; }
  __device__ __forceinline__ void add(int at, u32 n) {
    bits = (bits & ~(127u << at)) | (((field(at) + n) & 127u) << at);
  }
};

/// Takes the front list's items `[first, first + count)` (count <= 32) into the block's compact and
/// medium queues (segments of at most `COMPACT` keys, and the rest), after their tails; one warp
/// reads them (lane j item j: a ballot per class), every thread adds `added` (shared, written by
/// the warp before the barrier that ends this) to the tails in its `marks`. `added` alternates
/// between two pairs (the parity of the takes): a warp still reading the last take's pair is never
/// overwritten.
template <int COMPACT, int RING>
__device__ __forceinline__ void queue_front_items(const u64* items, u32 first, int count, segment_queue<RING>& compact,
                                                  segment_queue<RING>& medium, u32 (&added)[2][2],
                                                  queue_marks& marks) {
  u32* mine = added[marks.parity()];
  if (threadIdx.x < warp_threads) {
    const u32 lane = threadIdx.x;
    const bool here = int(lane) < count;
    const u64 w = here ? load_global(items + first + lane) : 0;
    const bool is_compact = here && segment_item::size(w) <= u32(COMPACT);
    const bool is_medium = here && !is_compact;
    const u32 compact_mask = __ballot_sync(0xffffffffu, is_compact);
    const u32 medium_mask = __ballot_sync(0xffffffffu, is_medium);
    if (is_compact || is_medium) {
      segment_queue<RING>& q = is_compact ? compact : medium;
      const u32 slot = (marks.tail(is_compact ? 0 : 1) +
                        u32(__popc((is_compact ? compact_mask : medium_mask) & lanemask_lt()))) % u32(RING);
      q.item[slot] = w;
      q.at[slot] = first + lane;
    }
    if (lane == 0) {
      mine[0] = u32(__popc(compact_mask));
      mine[1] = u32(__popc(medium_mask));
    }
  }
  __syncthreads();
  marks.push(0, mine[0]);
  marks.push(1, mine[1]);
  marks.flip();
}

/// Sorts the segments waiting in queue `q` (`queue`, `marks`) by the block's `GROUPS` groups of
/// `Sort`, GROUPS at a time (group h the round's h-th): whole rounds while GROUPS wait, and where
/// `drain` the rest too (a group without a segment sorts none: every group passes the same
/// barriers). Moves the queue's head past what it sorted; each round ends with a block barrier.
template <class Sort, int GROUPS, int RING, class Output>
__device__ __forceinline__ void sort_queued(typename Sort::TempStorage (&temp)[GROUPS],
                                            const segment_sort_params<typename Sort::Key, typename Sort::ValueRaw>& p,
                                            const Output& out, const segment_queue<RING>& queue, queue_marks& marks,
                                            int q, bool drain) {
  const u32 group = GROUPS > 1 ? threadIdx.x / u32(Sort::THREADS) : 0;
  for (u32 waiting = marks.waiting(q); waiting >= u32(GROUPS) || (drain && waiting != 0); waiting = marks.waiting(q)) {
    const bool active = group < waiting;
    const u32 slot = (marks.head(q) + group) % u32(RING);
    const u64 item = active ? queue.item[slot] : 0;
    const u32 at = active ? queue.at[slot] : 0;
    sort_listed_segment<Sort>(temp[group], p, out, at, item, active);
    marks.pop(q, min_of(u32(GROUPS), waiting));
    __syncthreads();  // shared memory and the slots free for the next round
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
