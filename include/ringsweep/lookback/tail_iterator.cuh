// tail_iterator: tracks which tiles of a launch have finished reading the status buffer, so that a
// later tile knows when the slot it is about to reuse can no longer be read.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Tiles retire in groups of `GROUP = 2^TAIL_BITS` local tile indices, into `GROUPS` counters:
/// group g's tiles add to counter `g % GROUPS`, which is never cleared within a launch, so it
/// counts groups g % GROUPS, g % GROUPS + GROUPS, ... A retire is one release reduction (`red`,
/// no reply awaited, never a wait); nothing carries a tail from group to group.
///
/// Local tile `u` reads slots of tiles `u-1 .. u-LOOKBACK_DEPTH` only, and shares its slot with
/// tile `u + STATUS_SLOTS`. Before writing, tile `u` waits until every tile up to
/// `m = u - FREE_TILES` (`FREE_TILES = STATUS_SLOTS - LOOKBACK_DEPTH`) has retired
/// (`wait_slot_free`): it waits for the `CHECKS = FREE_TILES / GROUP` groups up to m's, a = m / GROUP,
/// to be complete, group y's counter having reached `(y / GROUPS + 1) * GROUP`. Why that suffices,
/// by induction over the waits in the order they pass (docs/design.md section 5):
///
/// - the counter says what it seems to: every tile of group y + GROUPS passed a wait that found
///   every group up to y complete (`GROUPS = ceil(FREE_TILES / GROUP)`), so the counter cannot
///   reach group y's mark through adds of later groups while a group of y's class is incomplete;
/// - groups a-CHECKS+1 .. a complete means every group up to a is: the last tile of group a waited
///   for every group up to a-CHECKS (`FREE_TILES < (CHECKS + 1) * GROUP`), or is one of the first
///   FREE_TILES, and then a < CHECKS.
///
/// Every wait is on smaller tickets only (`FREE_TILES >= GROUP`), so no tile waits on one that
/// waits on it. Tiles below `FREE_TILES` never wait, so a launch of at most `FREE_TILES` tiles need
/// not retire at all.
///
/// Two sets of words, used by alternate launches of a sort; the first tile of a launch clears the
/// other set for the next launch (the previous one, which used it, has finished).
///
///     tail_iterator<1024, 512, 8> tail{d_words, launch};   // d_words: WORDS_PER_SORT zeroed words
///     if (u == 0) tail.clear_next();
///     tail.wait_slot_free(u);   // before the first publish
///     ...look-back, then a block barrier...
///     tail.retire(u);           // one thread, the one that waited; never waits
template <int STATUS_SLOTS, int LOOKBACK_DEPTH, int TAIL_BITS>
struct tail_iterator {
  static_assert(STATUS_SLOTS >= LOOKBACK_DEPTH + (1 << TAIL_BITS),
                "tail_iterator needs STATUS_SLOTS >= LOOKBACK_DEPTH + 2^TAIL_BITS");
  static constexpr u32 GROUP = 1u << TAIL_BITS;
  static constexpr u32 FREE_TILES = u32(STATUS_SLOTS - LOOKBACK_DEPTH);  // tiles that never wait for a slot
  static constexpr u32 GROUPS = ceil_div(FREE_TILES, GROUP);             // counters, >= 1
  static constexpr u32 CHECKS = FREE_TILES / GROUP;                      // groups a wait reads, 1 .. GROUPS
  static constexpr int WORDS = int(GROUPS);                              // the group counters
  static constexpr int WORDS_PER_SORT = 2 * WORDS;

  u32* words;   // this launch's set: [g % GROUPS] counts the retired tiles of groups g, g + GROUPS, ...
  u32* next;    // the other set

  __device__ __forceinline__ tail_iterator(u32* sort_words, u32 launch)
      : words(sort_words + (launch & 1u) * u32(WORDS)), next(sort_words + ((launch + 1u) & 1u) * u32(WORDS)) {}

  /// Clears the other set of words for the next launch (one thread of the launch's first tile).
  __device__ __forceinline__ void clear_next() const {
    for (int i = 0; i < WORDS; ++i) next[i] = 0;
  }

  /// Blocks until local tile `u` may write its status slot: groups a-CHECKS+1 .. a complete, a the
  /// group of tile u - FREE_TILES, latest first. Each counter is read with an acquire load: every
  /// add is a release RMW, so the load synchronizes with every add before the value it reads, and
  /// what those tiles read and wrote happens before this tile's publishes (ordered after this
  /// thread by the ranking's block barriers) and before its own retire (same thread).
  __device__ __forceinline__ void wait_slot_free(u32 u) const {
    if (u < FREE_TILES) return;
    u32 g = (u - FREE_TILES) >> TAIL_BITS;
    u32 left = min_of(g + 1u, CHECKS);  // groups still to find complete (none below group 0)
    u32 pause = 0;
    for (;;) {
      if (load_acquire(counter(g)) >= mark(g)) {
        if (--left == 0) return;
        --g;
      } else {
        backoff(pause);
      }
    }
  }

  /// Records that local tile `u` has finished every look-back read and status write (one thread,
  /// the one that called wait_slot_free, after a block barrier): a release reduction, no reply.
  /// The barrier puts the block's status reads and writes before this thread's release, which is
  /// cumulative: they happen before anything that acquires this add.
  __device__ __forceinline__ void retire(u32 u) const { red_add_release(counter(u >> TAIL_BITS), 1u); }

 private:
  __device__ __forceinline__ u32* counter(u32 g) const { return words + g % GROUPS; }
  /// Group g's counter once g and every earlier group of its class are complete.
  __device__ __forceinline__ static u32 mark(u32 g) { return (g / GROUPS + 1u) * GROUP; }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
