// decoupled_lookback: per-digit exclusive prefix of a tile across the earlier tiles of its launch,
// with look-back depth capped at LOOKBACK_DEPTH.
#pragma once

#include "../detail/config.cuh"
#include "../detail/tile_trace.cuh"
#include "circular_status_buffer.cuh"
#include "status_word.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Decoupled look-back over a circular status buffer. Tiles are numbered locally (`u`, from the
/// launch's first ticket `tile_base`) and globally (`tile_base + u`, stored in the status words).
///
///     decoupled_lookback<256, 1024, 512> lb{{d_status}, tile_base};
///     lb.publish_count(u, d, count);          // as soon as the count is known
///     u32 exclusive = lb.exclusive_prefix(u, d);
///     lb.publish_inclusive(u, d, exclusive + count);
///
/// Tile 0 of a launch publishes its count as inclusive at once. Any other tile sums the aggregates
/// of tiles `u-1, u-2, ...` until it meets an inclusive one; at depth `LOOKBACK_DEPTH` it waits for that tile to
/// become inclusive. With a window `W > 1` it loads the words of W predecessors at once (W
/// independent loads in flight instead of one dependent round trip each) and walks them nearest
/// first, waiting only on a word not yet published. The caller keeps slots from being overwritten
/// too early (tail_iterator). `KEEP`: the status words are read and written with an evict-last
/// hint (circular_status_buffer).
template <int RADIX, int STATUS_SLOTS, int LOOKBACK_DEPTH, int W = 1, bool KEEP = false>
struct decoupled_lookback {
  static_assert(W >= 1 && W <= 32, "look-back window: 1 to 32 words");
  circular_status_buffer<RADIX, STATUS_SLOTS, KEEP> status;
  u32 tile_base;

  __device__ __forceinline__ void publish_count(u32 u, int digit, u32 count) const {
    status.publish(tile_base + u, digit, u == 0 ? status_word::inclusive : status_word::aggregate, count);
  }

  /// The sum of `digit`'s counts over tiles before `u`; `stats` (instrumented builds) gets the
  /// depth of the predecessor that ended the walk and the polls that found nothing.
  __device__ __forceinline__ u32 exclusive_prefix(u32 u, int digit, lookback_stats* stats = nullptr) const {
    if (u == 0) return 0;
    u32* polls = stats != nullptr ? &stats->polls : nullptr;
    const u32 last = u > u32(LOOKBACK_DEPTH) ? u - u32(LOOKBACK_DEPTH) : 0u;
    u32 sum = 0;
    if constexpr (W == 1) {
      for (u32 j = u - 1;; --j) {
        u64 w = status.wait(tile_base + j, digit, polls);
        if (status_word::flag(w) != status_word::inclusive && j == last) {
          w = status.wait_inclusive(tile_base + j, digit, polls);
        }
        sum += status_word::count(w);
        if (status_word::flag(w) == status_word::inclusive) {
          if (stats != nullptr) stats->depth = u - j;
          return sum;
        }
      }
    } else {
      for (u32 j = u - 1;; j -= u32(W)) {
        // Predecessors j, j-1, ..., j-W+1, none below `last`: every load issued before any is used.
        u64 words[W];
RINGSWEEP_UNROLL
        for (int i = 0; i < W; ++i) words[i] = j >= last + u32(i) ? status.peek(tile_base + j - u32(i), digit) : 0;
RINGSWEEP_UNROLL
        for (int i = 0; i < W; ++i) {
          const u32 t = j - u32(i);
          u64 w = words[i];
          if (!status.published(w, tile_base + t)) w = status.wait(tile_base + t, digit, polls);
          if (status_word::flag(w) != status_word::inclusive && t == last) {
            w = status.wait_inclusive(tile_base + t, digit, polls);
          }
          sum += status_word::count(w);
          if (status_word::flag(w) == status_word::inclusive) {
            if (stats != nullptr) stats->depth = u - t;
            return sum;
          }
        }
      }
    }
  }

  __device__ __forceinline__ void publish_inclusive(u32 u, int digit, u32 inclusive) const {
    if (u != 0) status.publish(tile_base + u, digit, status_word::inclusive, inclusive);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
