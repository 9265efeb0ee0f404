// The onesweep tail iterator as it was until 2026-11-28, for ringsweep_tune's retire before/after
// measurement (case trace_retire): a retire is an `atom.acq_rel.gpu` whose returned count the
// retiring thread waits for, and the add that completes a group carries a tail over the groups it
// completes (one counter word more). The library's tail_iterator retires by a release reduction
// instead (docs/design.md section 5). Swapped in through the hooks' `tail` alias (sort_hooks.cuh).
#pragma once

#include <ringsweep/policy.cuh>
#include <ringsweep/detail/intrinsics.cuh>

namespace tune {
namespace carry_detail {
using namespace ringsweep::detail;  // the library's word types and intrinsics, as in its own headers

/// Tiles retire in groups of `GROUP = 2^TAIL_BITS`; the tail, the number of groups every tile of
/// which has retired, advances in order. A tile adds 1 to its group's counter (one of `GROUPS`,
/// reused round-robin); a group's counter also receives one token when the tail reaches it (group
/// 0 needs none), and whoever completes group g clears its counter, stores tail = g + 1 (release)
/// and hands the token to group g + 1. Tile `u` writes once every tile below
/// `u - STATUS_SLOTS + LOOKBACK_DEPTH + 1` has retired.
template <int STATUS_SLOTS, int LOOKBACK_DEPTH, int TAIL_BITS>
struct carry_tail {
  static_assert(STATUS_SLOTS >= LOOKBACK_DEPTH + (1 << TAIL_BITS),
                "carry_tail needs STATUS_SLOTS >= LOOKBACK_DEPTH + 2^TAIL_BITS");
  static constexpr u32 GROUP = 1u << TAIL_BITS;
  static constexpr u32 FREE_TILES = u32(STATUS_SLOTS - LOOKBACK_DEPTH);  // tiles that never wait for a slot
  static constexpr u32 GROUPS = max_of(1u, ceil_div(FREE_TILES, GROUP));
  static constexpr int WORDS = 1 + int(GROUPS);  // the tail, then the group counters
  static constexpr int WORDS_PER_SORT = 2 * WORDS;

  u32* words;   // this launch's set: [0] tail, [1 + g % GROUPS] group g's counter
  u32* next;    // the other set

  __device__ __forceinline__ carry_tail(u32* sort_words, u32 launch)
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

}  // namespace carry_detail

using carry_detail::carry_tail;

/// Hooks that retire through carry_tail; nothing else changes.
struct carry_hooks : ringsweep::detail::no_hooks {
  template <int S, int L, int TAIL_BITS>
  using tail = carry_tail<S, L, TAIL_BITS>;
};

/// `Base` with the retire as it was until 2026-11-28.
template <class Base>
using carry_retire = ringsweep::detail::with_hooks<Base, carry_hooks>;

}  // namespace tune
