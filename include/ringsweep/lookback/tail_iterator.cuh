// tail_iterator: tracks which tiles of a launch have finished reading the status buffer, so that a
// later tile knows when the slot it is about to reuse can no longer be read.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

namespace ringsweep {
namespace detail {

/// One 32-bit counter per launch. Tiles retire in groups of `2^TAIL_BITS` local tile indices: the
/// high bits advance in order (a tile may retire once its group is current), the low bits count
/// the group's retirements in any order, and the group's last retirement carries into the high
/// bits. So `(tail >> TAIL_BITS) << TAIL_BITS` tiles have all finished their look-back.
///
/// Local tile `u` reads slots of tiles `u-1 .. u-L` only, and shares its slot with tile
/// `u + N_TABLE`. Before writing, tile `u` waits until every tile below `u - N_TABLE + L + 1` has
/// retired; that wait is on smaller tickets only when `N_TABLE >= L + 2^TAIL_BITS`.
///
///     tail_iterator<1024, 512, 8> tail{d_tail};
///     tail.wait_slot_free(u);   // before the first publish
///     ...look-back, then a block barrier...
///     tail.retire(u);           // one thread
template <int N_TABLE, int L, int TAIL_BITS>
struct tail_iterator {
  static_assert(N_TABLE >= L + (1 << TAIL_BITS), "tail_iterator needs N_TABLE >= L + 2^TAIL_BITS");
  u32* tail;

  /// Blocks until local tile `u` may write its status slot.
  __device__ __forceinline__ void wait_slot_free(u32 u) const {
    if (u < u32(N_TABLE - L)) return;
    u32 pause = 0;
    for (;;) {
      const u32 done = (load_acquire(tail) >> TAIL_BITS) << TAIL_BITS;
      if (done + u32(N_TABLE - L) > u) return;
      backoff(pause);
    }
  }

  /// Records that local tile `u` has finished every look-back read (call after a block barrier).
  __device__ __forceinline__ void retire(u32 u) const {
    u32 pause = 0;
    while ((load_acquire(tail) >> TAIL_BITS) != (u >> TAIL_BITS)) backoff(pause);
    __threadfence();
    atomicAdd(tail, 1u);
  }
};

}  // namespace detail
}  // namespace ringsweep
