// block_radix_rank: stable ranks of a tile's digits, with a callback the moment the tile's digit
// counts are known (where onesweep publishes its look-back aggregate).
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../warp/warp_multisplit.cuh"
#include "block_scan.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Ranks a tile of `THREADS * ITEMS` digits held warp-striped: warp `w` owns the contiguous segment
/// starting at `w * 32 * ITEMS`, and lane `l` item `k` is position `w * 32 * ITEMS + k * 32 + l`.
/// The rank of an item is its position in the tile stably sorted by digit.
///
/// Digit bookkeeping is split among "digit owner" threads: thread `t` owns the
/// `DIGITS_PER_THREAD` consecutive digits from `t * DIGITS_PER_THREAD` (those below `RADIX`).
/// `rank` returns, to each owner, the tile count and the tile start (exclusive prefix over digits)
/// of its digits, and calls `on_counts(counts)` on every thread as soon as the counts are known and
/// before they are scanned (non-owners see zeros).
///
///     using rank_t = block_radix_rank<256, 4, 8>;
///     __shared__ rank_t::TempStorage temp;
///     u32 ranks[4], counts[rank_t::DIGITS_PER_THREAD], starts[rank_t::DIGITS_PER_THREAD];
///     rank_t(temp).rank(digits, valid, ranks, counts, starts, [](const u32 (&)[1]) {});
///
/// Only the first `valid` positions of the tile hold keys; the ranks of the others are
/// meaningless. Counts come first (shared-memory atomics per warp), so `on_counts` runs before
/// the ranking proper. The block synchronises inside; on return `temp` may still be read by
/// other threads, so synchronise before reusing it.
template <int THREADS, int ITEMS, int RADIX_BITS>
class block_radix_rank {
 public:
  static constexpr int RADIX = 1 << RADIX_BITS;
  static constexpr int WARPS = THREADS / warp_threads;
  static constexpr int DIGITS_PER_THREAD = ceil_div(RADIX, THREADS);
  static constexpr int SEGMENT = warp_threads * ITEMS;
  static_assert(THREADS * ITEMS <= (1 << 16), "tile ranks travel in 16 bits");

  struct TempStorage {
    alignas(16) u32 counters[WARPS][RADIX];  // cleared 16 bytes at a time
    typename block_scan<u32, THREADS>::TempStorage scan;
  };

  __device__ __forceinline__ explicit block_radix_rank(TempStorage& temp) : temp_(temp) {}

  /// Zeroes every warp's counters (`QUADS`: unrolled 16-byte stores where the block divides them
  /// evenly; the u64 single-tile sort spilled 4 bytes on sm_90 with them).
  template <bool QUADS>
  __device__ __forceinline__ void clear_counters() {
    constexpr int WORDS = WARPS * RADIX;
    if constexpr (QUADS && WORDS % (4 * THREADS) == 0) {
      uint4* quads = reinterpret_cast<uint4*>(&temp_.counters[0][0]);
RINGSWEEP_UNROLL
      for (int j = 0; j < WORDS / (4 * THREADS); ++j) quads[j * THREADS + int(threadIdx.x)] = make_uint4(0, 0, 0, 0);
    } else {
      u32* flat = &temp_.counters[0][0];
      for (int i = int(threadIdx.x); i < WORDS; i += THREADS) flat[i] = 0;
    }
  }

  /// The first digit owned by this thread (owners are the threads whose first digit is < RADIX).
  __device__ __forceinline__ static int first_digit() { return int(threadIdx.x) * DIGITS_PER_THREAD; }

  template <class CountsReady>
  __device__ __forceinline__ void rank(const u32 (&digits)[ITEMS], int valid, u32 (&ranks)[ITEMS],
                                       u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                       CountsReady&& on_counts) {
    rank_by([&](int k) { return digits[k]; }, valid, ranks, counts, starts, on_counts);
  }

  /// The same with `digit_at(k)` giving item k's digit on demand (no digit array in registers).
  /// `digit_at` is only called for valid positions.
  template <class DigitAt, class CountsReady>
  __device__ __forceinline__ void rank_by(DigitAt&& digit_at, int valid, u32 (&ranks)[ITEMS],
                                          u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                          CountsReady&& on_counts) {
    // Positions past `valid` rank as the largest digit: after every real key of that digit, so
    // no real rank moves; that digit's count is corrected below.
    const int lane_first = int(threadIdx.x) / warp_threads * SEGMENT + int(lane_id());
    const auto digit_or_pad = [&](int k) {
      return lane_first + k * warp_threads < valid ? u32(digit_at(k)) : u32(RADIX - 1);
    };
    rank_impl<false>(digit_or_pad, valid, u32(RADIX - 1), ranks, counts, starts, on_counts);
  }

  /// The same for a tile padded by its caller: positions past `valid` hold keys whose digit is
  /// `pad_digit`, the largest digit of the pass (a narrow last pass's largest is below RADIX - 1),
  /// so they rank after every real key and no bounds check runs per key; their count is taken off
  /// `pad_digit`'s before `on_counts`.
  template <class DigitAt, class CountsReady>
  __device__ __forceinline__ void rank_padded(DigitAt&& digit_at, int valid, u32 pad_digit, u32 (&ranks)[ITEMS],
                                              u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                              CountsReady&& on_counts) {
    rank_impl<true>(digit_at, valid, pad_digit, ranks, counts, starts, on_counts);
  }

  /// As `rank_padded`, handing each key's rank to `on_rank(k, rank)` as the warp ranking finds it
  /// (no ranks array): a fused exchange. The counters must not share memory with what `on_rank`
  /// writes, since other warps still rank.
  template <class DigitAt, class CountsReady, class OnRank>
  __device__ __forceinline__ void rank_padded_each(DigitAt&& digit_at, int valid, u32 pad_digit,
                                                   u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                                   CountsReady&& on_counts, OnRank&& on_rank) {
    count_and_offset<true>(digit_at, valid, pad_digit, counts, starts, on_counts);
    // sass: rank
    warp_multisplit<ITEMS, RADIX_BITS>::rank_each(temp_.counters[int(threadIdx.x) / warp_threads], digit_at, on_rank);
    // sass: end
  }

 private:
  template <bool QUADS, class DigitAt, class CountsReady>
  __device__ __forceinline__ void rank_impl(DigitAt&& digit_at, int valid, u32 pad_digit, u32 (&ranks)[ITEMS],
                                            u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                            CountsReady&& on_counts) {
    count_and_offset<QUADS>(digit_at, valid, pad_digit, counts, starts, on_counts);
    // sass: rank
    // The counters now hold each warp's first tile rank per digit: the warp ranking advances
    // them item by item. Padding positions get ranks too (past the real keys); callers skip them.
    warp_multisplit<ITEMS, RADIX_BITS>::rank(temp_.counters[int(threadIdx.x) / warp_threads], digit_at, ranks);
    // sass: end
  }

  /// The ranking up to the warp ranking: counts, their publication (`on_counts`), and each warp's
  /// first tile rank per digit in the counters.
  template <bool QUADS, class DigitAt, class CountsReady>
  __device__ __forceinline__ void count_and_offset(DigitAt&& digit_at, int valid, u32 pad_digit,
                                                   u32 (&counts)[DIGITS_PER_THREAD], u32 (&starts)[DIGITS_PER_THREAD],
                                                   CountsReady&& on_counts) {
    const int warp = int(threadIdx.x) / warp_threads;
    // sass: counts
    clear_counters<QUADS>();
    __syncthreads();

    // Early counts: each warp's digit histogram by shared-memory atomics (independent of one
    // another, unlike the ranking below), so the tile's counts are known, and published by
    // `on_counts`, before the slower ranking.
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) atomicAdd(&temp_.counters[warp][digit_at(k)], 1u);
    __syncthreads();

    // Per digit: turn the warps' counts into exclusive offsets across warps (warp order is tile
    // order, which keeps the ranks stable) and total them.
    const int d0 = first_digit();
    u32 sum = 0;
RINGSWEEP_UNROLL
    for (int i = 0; i < DIGITS_PER_THREAD; ++i) {
      counts[i] = 0;
      const int d = d0 + i;
      if (d < RADIX) {
        u32 running = 0;
RINGSWEEP_UNROLL
        for (int w = 0; w < WARPS; ++w) {
          const u32 c = temp_.counters[w][d];
          temp_.counters[w][d] = running;
          running += c;
        }
        if (u32(d) == pad_digit) running -= u32(THREADS * ITEMS - valid);  // the padding counted here
        counts[i] = running;
        sum += running;
      }
    }
    // sass: end
    on_counts(counts);

    // sass: rank
    u32 total;
    u32 start = block_scan<u32, THREADS>::exclusive_sum(temp_.scan, sum, total);
RINGSWEEP_UNROLL
    for (int i = 0; i < DIGITS_PER_THREAD; ++i) {
      starts[i] = start;
      const int d = d0 + i;
      if (d < RADIX) {
RINGSWEEP_UNROLL
        for (int w = 0; w < WARPS; ++w) temp_.counters[w][d] += start;
      }
      start += counts[i];
    }
    __syncthreads();
    // sass: end
  }

  TempStorage& temp_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
