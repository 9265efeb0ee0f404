// warp_multisplit: stable ranking of a warp's digits by __match_any_sync, against per-warp digit
// counters in shared memory.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

namespace ringsweep {
namespace detail {

/// Ranks `ITEMS` warp-striped digits per lane (lane `l` item `k` is segment position `k*32 + l`).
///
/// `counters` are this warp's `RADIX` digit counters (shared memory, zeroed by the caller). For
/// each item in order, the lanes holding the same digit find each other with `__match_any_sync`;
/// the item's rank is the counter before the group plus the number of peers in lower lanes, and the
/// group's highest lane advances the counter. Ranks are therefore stable within the segment, and
/// afterwards `counters[d]` holds the segment's count of digit `d`. Only the first `valid` items of
/// the segment take part; the ranks of the others are left alone.
///
///     __shared__ u32 counters[256];   // zeroed, one array per warp
///     warp_multisplit<4>::rank(counters, digits, valid_in_segment, ranks);
template <int ITEMS>
struct warp_multisplit {
  __device__ __forceinline__ static void rank(u32* counters, const u32 (&digits)[ITEMS], int valid,
                                              u32 (&ranks)[ITEMS]) {
    const u32 lane = lane_id();
    const u32 lt = lanemask_lt();
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int active = min_of(max_of(valid - k * warp_threads, 0), warp_threads);
      if (active == 0) break;  // the same for the whole warp
      const u32 mask = active == warp_threads ? 0xffffffffu : (1u << active) - 1u;
      if (int(lane) < active) {
        const u32 digit = digits[k];
        const u32 peers = __match_any_sync(mask, digit);
        const int leader = 31 - __clz(int(peers));
        u32 base = 0;
        if (int(lane) == leader) {
          base = counters[digit];
          counters[digit] = base + u32(__popc(peers));
        }
        base = __shfl_sync(mask, base, leader);
        ranks[k] = base + u32(__popc(peers & lt));
      }
      __syncwarp();  // the counter update is visible to the next item's leader
    }
  }
};

}  // namespace detail
}  // namespace ringsweep
