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
/// independent loads in flight instead of one dependent round trip each) and walks them
/// nearest first. The caller keeps slots from being overwritten too early (tail_iterator).
/// `KEEP`: the status words are read and written with an evict-last hint (circular_status_buffer).
///
/// The walk is built for the instructions it issues. Addresses are 32-bit offsets from the digit's
/// column (circular_status_buffer::column), made once per call. A window is taken whole only
/// where it needs no care: every word above depth `LOOKBACK_DEPTH` and its slots not wrapping
/// around the ring, so its words lie at fixed offsets below the first (no predicate, no address
/// arithmetic per word). The first word that is not published there, and every word a window does
/// not cover (at the ring's wrap, the last W down to the depth limit, all of them when W = 1),
/// goes one at a time through one poll and, when that finds nothing, the one wait of the walk
/// (circular_status_buffer::wait, with its backoff): one copy of the spin loop, whatever the window.
template <int RADIX, int STATUS_SLOTS, int LOOKBACK_DEPTH, int W = 1, bool KEEP = false>
struct decoupled_lookback {
  static_assert(W >= 1 && W <= 32, "look-back window: 1 to 32 words");
  using buffer_t = circular_status_buffer<RADIX, STATUS_SLOTS, KEEP>;
  buffer_t status;
  u32 tile_base;

  __device__ __forceinline__ void publish_count(u32 u, int digit, u32 count) const {
    status.publish(tile_base + u, digit, u == 0 ? status_word::inclusive : status_word::aggregate, count);
  }

  /// The sum of `digit`'s counts over tiles before `u`; `stats` (instrumented builds) gets the
  /// depth of the predecessor that ended the walk and the polls that found nothing.
  __device__ __forceinline__ u32 exclusive_prefix(u32 u, int digit, lookback_stats* stats = nullptr) const {
    if (u == 0) return 0;
    u32* polls = stats != nullptr ? &stats->polls : nullptr;
    // One pointer per digit, held: the optimiser would otherwise fold it into a 64-bit index per word.
    const u64* column = opaque(status.column(digit));
    // The walk counts down `left`, the distance of the nearest predecessor not yet summed (tile
    // u-1-k after k) from the deepest it may read, u - LOOKBACK_DEPTH or 0, whose global index is
    // `deepest`: one counter, no depth test but `left == 0`.
    const u32 last = u > u32(LOOKBACK_DEPTH) ? u - u32(LOOKBACK_DEPTH) : 0u;
    const u32 deepest = tile_base + last;
    u32 left = u - 1 - last;
    u32 sum = 0;
    for (;;) {
      if constexpr (W > 1) {
        // A whole window: W tiles from global index g down, all above the deepest, in slots slot
        // down to slot-W+1.
        const u32 g = deepest + left;
        const u32 slot = buffer_t::slot(g);
        if (left >= u32(W) && slot >= u32(W - 1)) {
          const u64* p = buffer_t::at(column, slot);
          u64 words[W];
RINGSWEEP_UNROLL
          for (int i = 0; i < W; ++i) words[i] = buffer_t::peek(p - i * RADIX);
          int k = 0;  // words summed
RINGSWEEP_UNROLL
          for (; k < W; ++k) {
            const u32 lo = low_word(words[k]);
            // One branch for both tests (`|`, not `||`).
            if ((status_word::tile(words[k]) != g - u32(k)) | (status_word::flag_of_low(lo) == status_word::invalid)) break;
            sum += status_word::count_of_low(lo);
            if (status_word::flag_of_low(lo) == status_word::inclusive) {
              if (stats != nullptr) stats->depth = u - last - (left - u32(k));
              return sum;
            }
          }
          left -= u32(k);
          if (k == W) continue;
          // The next word is not published yet: on to the wait below.
        }
      }
      // One word; at depth LOOKBACK_DEPTH (left == 0) only an inclusive count will do.
      const u32 g = deepest + left;
      const u64* p = buffer_t::at(column, buffer_t::slot(g));
      const u32 need = left == 0 ? status_word::inclusive : status_word::aggregate;
      u64 w = buffer_t::peek(p);
      if ((status_word::tile(w) != g) | (status_word::flag_of_low(low_word(w)) < need)) {
        w = buffer_t::wait(p, g, need, polls);
      }
      const u32 lo = low_word(w);
      sum += status_word::count_of_low(lo);
      if (status_word::flag_of_low(lo) == status_word::inclusive) {
        if (stats != nullptr) stats->depth = u - last - left;
        return sum;
      }
      --left;
    }
  }

  __device__ __forceinline__ void publish_inclusive(u32 u, int digit, u32 inclusive) const {
    if (u != 0) status.publish(tile_base + u, digit, status_word::inclusive, inclusive);
  }

 private:
  /// A status word's low half (flag and count), opaque: the optimiser would otherwise widen the
  /// flag's tests to 64-bit compares (two instructions each).
  __device__ __forceinline__ static u32 low_word(u64 w) { return opaque(u32(w)); }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
