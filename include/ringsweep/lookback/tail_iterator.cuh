// tail_iterator: tracks which tiles of a launch have finished reading the status buffer, so that a
// later tile knows when the slot it is about to reuse can no longer be read.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Tiles retire in groups of `GROUP = 2^TAIL_BITS` local tile indices. The tail, the number of
/// groups every tile of which has retired, advances in order; retiring never waits:
///
/// - a tile adds 1 to its group's counter (one of `GROUPS`, reused round-robin) and leaves;
/// - a group's counter also receives one *token* when the tail reaches the group (group 0 needs
///   none), so it completes at `GROUP + 1` (`GROUP`) adds, made by whichever arrives last: the
///   group's last tile or the carry of the previous group;
/// - whoever completes group g clears its counter, stores tail = g + 1 (release) and hands the
///   token to group g + 1, whose completion it may be again, and so on. The carry role passes by
///   acquire-release atomics, so exactly one block carries at a time and the tail only grows.
///
/// Local tile `u` reads slots of tiles `u-1 .. u-LOOKBACK_DEPTH` only, and shares its slot with tile
/// `u + STATUS_SLOTS`. Before writing, tile `u` waits until every tile below `u - STATUS_SLOTS + LOOKBACK_DEPTH + 1`
/// has retired (`wait_slot_free`): on smaller tickets only when `STATUS_SLOTS >= LOOKBACK_DEPTH + GROUP`, and a group's
/// counter is clear before any tile of the group that reuses it can pass that wait, because
/// `GROUPS * GROUP >= STATUS_SLOTS - LOOKBACK_DEPTH`. Tiles below `STATUS_SLOTS - LOOKBACK_DEPTH` never wait, so a
/// launch of at most `STATUS_SLOTS - LOOKBACK_DEPTH` tiles need not retire at all.
///
/// Two sets of words, used by alternate launches of a sort; the first tile of a launch clears the
/// other set for the next launch (the previous one, which used it, has finished).
///
///     tail_iterator<1024, 512, 8> tail{d_words, launch};   // d_words: WORDS_PER_SORT zeroed words
///     if (u == 0) tail.clear_next();
///     tail.wait_slot_free(u);   // before the first publish
///     ...look-back, then a block barrier...
///     tail.retire(u);           // one thread; never waits
template <int STATUS_SLOTS, int LOOKBACK_DEPTH, int TAIL_BITS>
struct tail_iterator {
  static_assert(STATUS_SLOTS >= LOOKBACK_DEPTH + (1 << TAIL_BITS),
                "tail_iterator needs STATUS_SLOTS >= LOOKBACK_DEPTH + 2^TAIL_BITS");
  static constexpr u32 GROUP = 1u << TAIL_BITS;
  static constexpr u32 FREE_TILES = u32(STATUS_SLOTS - LOOKBACK_DEPTH);  // tiles that never wait for a slot
  static constexpr u32 GROUPS = max_of(1u, ceil_div(FREE_TILES, GROUP));
  static constexpr int WORDS = 1 + int(GROUPS);  // the tail, then the group counters
  static constexpr int WORDS_PER_SORT = 2 * WORDS;

  u32* words;   // this launch's set: [0] tail, [1 + g % GROUPS] group g's counter
  u32* next;    // the other set

  __device__ __forceinline__ tail_iterator(u32* sort_words, u32 launch)
      : words(sort_words + (launch & 1u) * u32(WORDS)), next(sort_words + ((launch + 1u) & 1u) * u32(WORDS)) {}

  /// Clears the other set of words for the next launch (one thread of the launch's first tile).
  __device__ __forceinline__ void clear_next() const {
    for (int i = 0; i < WORDS; ++i) next[i] = 0;
  }

  /// Blocks until local tile `u` may write its status slot.
  __device__ __forceinline__ void wait_slot_free(u32 u) const {
    if (u < FREE_TILES) return;
    u32 pause = 0;
    for (;;) {
      const u32 done = load_acquire(words) * GROUP;
      if (done + FREE_TILES > u) return;
      backoff(pause);
    }
  }

  /// Records that local tile `u` has finished every look-back read (one thread, after a block
  /// barrier); carries the tail over every group this completes. Never waits.
  __device__ __forceinline__ void retire(u32 u) const {
    u32 g = u >> TAIL_BITS;
    if (atomic_add_acq_rel(counter(g), 1u) + 1u != GROUP + (g != 0 ? 1u : 0u)) return;
    for (;;) {
      // Group g is complete and the tail stands at g: clear its counter for the group that
      // reuses it, move the tail past it, and hand the token to group g + 1.
      store_relaxed(counter(g), 0u);
      store_release(words, g + 1u);
      ++g;
      if (atomic_add_acq_rel(counter(g), 1u) + 1u != GROUP + 1u) return;
    }
  }

 private:
  __device__ __forceinline__ u32* counter(u32 g) const { return words + 1 + g % GROUPS; }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
