// block_thread_rank: stable ranks of a tile's narrow digits by per-thread counters (no warp match).
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "block_scan.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Ranks a tile of `THREADS * ITEMS` digits of `RADIX_BITS` bits held *blocked*: thread `t` item
/// `k` is tile position `t * ITEMS + k`. The rank of an item is its position in the tile stably
/// sorted by digit.
///
/// Every thread counts its own items, one after the other, in a column of counters of its own
/// (`counters[d][t]`: a shared-memory load, add and store per item, no warp collective); the
/// counters are then scanned in (digit, thread) order, which is the stable order, by raking (thread
/// `t` owns the `RADIX` consecutive words from `t * RADIX`) and one block scan; an item's rank is
/// its column's scanned counter plus the items of its digit before it in its thread. The counters
/// take `RADIX * THREADS` words, so the digits are narrow (4 bits: two passes per 8-bit digit), the
/// price of a ranking whose per-item work is a handful of instructions (the warp match of
/// block_radix_rank costs about 25 per item and pass on sm_90).
///
///     using rank_t = block_thread_rank<256, 16, 4>;
///     __shared__ rank_t::TempStorage temp;
///     u32 ranks[16];
///     rank_t(temp).rank([&](int k) { return digit(keys[k]); }, ranks);
///     __syncthreads();   // before `temp` is reused
///
/// Every position ranks, padding too: a caller pads a partial tile with keys of the largest digit
/// in every pass (digit_extractor::pad), which rank after every real key. `GROUPED`: each group of
/// THREADS consecutive threads of a larger block ranks its own tile in its own `temp`
/// (group_thread), every group at once.
template <int THREADS, int ITEMS, int RADIX_BITS, bool GROUPED = false>
class block_thread_rank {
 public:
  static constexpr int RADIX = 1 << RADIX_BITS;
  static_assert(THREADS * ITEMS <= (1 << 16), "tile ranks travel in 16 bits");

  struct TempStorage {
    alignas(16) u32 counters[RADIX * THREADS];  // [digit][thread]
    typename block_scan<u32, THREADS, GROUPED>::TempStorage scan;
  };

  __device__ __forceinline__ explicit block_thread_rank(TempStorage& temp) : temp_(temp) {}

  /// `ranks[k]`: the stable tile rank of item k, whose digit is `digit_at(k)` (< RADIX). The block
  /// synchronises inside; on return other threads may still read `temp`.
  template <class DigitAt>
  __device__ __forceinline__ void rank(DigitAt&& digit_at, u32 (&ranks)[ITEMS]) {
    // A group's thread index hidden from the optimiser (opaque): knowing it below THREADS, ptxas
    // merged it into each key's counter address by a logic operation of its own (sm_80: 32
    // instructions a pass of a 64 x 16 group) instead of adding it to the column's base once.
    const int t = GROUPED ? int(opaque(u32(group_thread<THREADS, GROUPED>()))) : int(threadIdx.x);
    u32* const rake = temp_.counters + t * RADIX;
RINGSWEEP_UNROLL
    for (int j = 0; j < RADIX; ++j) rake[j] = 0;
    __syncthreads();

    // The thread's items in tile order: each one's rank among its digit's items of this thread.
    u32* const column = temp_.counters + t;
    u32 at[ITEMS];
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      at[k] = u32(digit_at(k)) * u32(THREADS);
      const u32 c = column[at[k]];
      column[at[k]] = c + 1u;
      ranks[k] = c;
    }
    __syncthreads();

    // Exclusive scan of the counters in (digit, thread) order: the raking thread's words in
    // registers, their total through the block scan.
    u32 words[RADIX];
    u32 sum = 0;
RINGSWEEP_UNROLL
    for (int j = 0; j < RADIX; ++j) {
      const u32 c = rake[j];
      words[j] = sum;
      sum += c;
    }
    u32 total;
    const u32 base = block_scan<u32, THREADS, GROUPED>::exclusive_sum(temp_.scan, sum, total);
RINGSWEEP_UNROLL
    for (int j = 0; j < RADIX; ++j) rake[j] = words[j] + base;
    __syncthreads();

RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) ranks[k] += column[at[k]];
  }

 private:
  TempStorage& temp_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
