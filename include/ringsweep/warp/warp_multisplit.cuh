// warp_multisplit: stable ranking of a warp's digits by match_any, against per-warp digit counters
// in shared memory.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "warp_match.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Ranks `ITEMS` warp-striped digits of `RADIX_BITS` bits per lane (lane `l` item `k` is segment
/// position `k*32 + l`).
///
/// `counters` are this warp's `2^RADIX_BITS` digit counters in shared memory: zero for ranks
/// within the warp, or each digit's first rank for the warp (tile ranks, as block_radix_rank does).
/// For each item in order, the lanes holding the same digit find each other (warp_match_any); the
/// item's rank is the counter before the group plus the number of peers in lower lanes, and the
/// group's highest lane advances the counter. Ranks are therefore stable within the segment, and
/// afterwards `counters[d]` has advanced by the segment's count of digit `d`. Ranks must fit 16 bits.
///
/// Every lane ranks every item, always with the full warp: callers give items past the end of the
/// input the largest digit, so they rank after every real item of that digit and disturb no real
/// rank (only that digit's count, which the caller corrects).
///
/// `digit_at(k)` gives item k's digit; computing it on demand keeps a digit array out of
/// registers.
///
///     __shared__ u32 counters[256];   // zeroed, one array per warp
///     warp_multisplit<4, 8>::rank(counters, [&](int k) { return digit(keys[k]); }, ranks);
template <int ITEMS, int RADIX_BITS>
struct warp_multisplit {
  /// Each item's rank, handed to `on_rank(k, rank)` as soon as it is known (a fused exchange
  /// stores the key there; `rank` keeps them).
  template <class DigitAt, class OnRank>
  __device__ __forceinline__ static void rank_each(u32* counters, DigitAt&& digit_at, OnRank&& on_rank) {
    const u32 lane = lane_id();
    const u32 lt = lanemask_lt();
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const u32 digit = digit_at(k);
      const u32 peers = warp_match_any<RADIX_BITS>(digit);
      const int leader = 31 - __clz(int(peers));
      const u32 below = u32(__popc(peers & lt));
      u32 base = 0;
      if (int(lane) == leader) {
        base = counters[digit];
        counters[digit] = base + below + 1u;  // the leader is the group's highest lane
      }
      base = __shfl_sync(0xffffffffu, base, leader);
      on_rank(k, base + below);
      __syncwarp();  // the counter update is visible to the next item's leader
    }
  }

  template <class DigitAt>
  __device__ __forceinline__ static void rank(u32* counters, DigitAt&& digit_at, u32 (&ranks)[ITEMS]) {
    rank_each(counters, digit_at, [&](int k, u32 r) { ranks[k] = r; });
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
