// top_k_moves: a level's moves (in top_k_levels_kernel): each range's keys below the bucket to the
// candidates and its bucket's keys to the next buffer, in input order (docs/design.md section 15).
#pragma once

#include "top_k_select.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The move phase of top_k_select<Config>: every block of the levels kernel, its ranges one by one.
template <class Config>
struct top_k_moves : top_k_select<Config> {
  using base = top_k_select<Config>;
  using Key = typename base::Key;
  using bits_type = typename base::bits_type;
  using params_t = typename base::params_t;
  using TempStorage = typename base::TempStorage;
  using histogram_t = typename base::histogram_t;
  using state_t = typename base::state_t;
  using base::THREADS;
  using base::STEP_ROWS;
  using base::STEP_TILE;
  using base::WARPS;
  using base::RADIX;
  using base::extractor;
  using base::offsets_of_rows;
  using base::highest_level;

  /// The block moves range `r` of the current source: keys below the bucket (at any level of the
  /// walk) to the candidates, the bucket's keys to the next buffer (counting their next digit, or
  /// every lower digit along the guessed key) or, in the last step, its first k_rem to the
  /// candidates; all in input order. Starts and ends with a barrier.
  __device__ __forceinline__ static void step(TempStorage& temp, const params_t& p, int round, u64 r) {
    const state_t& s = static_cast<const state_t*>(p.state)[round & 1];
    if (s.done != 0) return;  // the same for every block
    histogram_t hist(temp.hist);
    const int level = s.walk != 0 ? s.walk_pass[0] : -1, next = s.next_level;
    const u32 bucket = s.walk != 0 ? s.walk_digit[0] : 0u, src = s.src, dst = s.dst, checks = s.checks;
    const u32 walk = s.walk;
    const bool path = s.path != 0;
    const u64 uniform = s.uniform;
    const bool take = s.take != 0;
    const u64 k_rem = s.k_rem;
    const bool count_next = !take && next >= 0;
    __syncthreads();  // the block's previous range is done with the shared storage
    if (count_next) hist.clear();
    const u64 off = p.src_off[r], cnt = p.src_cnt[r];
    // Where this range writes: after the earlier ranges' keys below and in the bucket.
    u64 less_mine = 0, in_mine = 0;
    for (u64 q = threadIdx.x; q < r; q += THREADS) {
      less_mine += p.range_less[q];
      in_mine += p.range_in[q];
    }
    u64 less_before = 0, in_before = 0;
    (void)block_scan<u64, THREADS>::exclusive_sum(temp.scan, less_mine, less_before);
    (void)block_scan<u64, THREADS>::exclusive_sum(temp.scan, in_mine, in_before);
    if (threadIdx.x == 0) p.bucket_before[r] = in_before;  // the next pick's offset of this range
    u64 less_at = s.out_base + less_before;
    u64 bucket_at = (take ? s.out_base + s.level_less : 0) + in_before;
    u64 bucket_rank = in_before;  // the bucket's keys of the earlier ranges and tiles
    const bits_type* keys = src == 0 ? p.keys : p.buf_keys[src - 1];
    const u64* pos = src == 0 ? nullptr : p.buf_pos[src - 1];
    const digit_extractor<Key> digit_of = level >= 0 ? extractor(p, level) : digit_extractor<Key>();
    const digit_extractor<Key> next_of = count_next ? extractor(p, next) : digit_extractor<Key>();
    const u32 lane = lane_id();
    const int warp = int(threadIdx.x) / warp_threads;
    __syncthreads();
    for (u64 tile = 0; tile < cnt; tile += STEP_TILE) {
      bits_type key[STEP_ROWS];
      u64 where[STEP_ROWS];
      u32 cls[STEP_ROWS];  // 0 neither, 1 below the bucket, 2 in it
RINGSWEEP_UNROLL
      for (int row = 0; row < STEP_ROWS; ++row) {
        const u64 i = tile + u64(row) * THREADS + threadIdx.x;
        cls[row] = 0;
        if (i < cnt) {
          key[row] = load_global(keys + off + i);
          where[row] = pos == nullptr ? off + i : load_global(pos + off + i);
          bool match = true;
          for (u32 c = 0; c < checks; ++c) match = match && extractor(p, s.check_pass[c])(key[row]) == s.check_digit[c];
          if (match) {
            // The walk's levels, highest first: the first digit that differs decides.
            const u32 d = level >= 0 ? digit_of(key[row]) : 0u;
            u32 c = d < bucket ? 1u : (d == bucket ? 2u : 0u);
            for (u32 w = 1; w < walk && c == 2u; ++w) {
              const u32 dw = extractor(p, s.walk_pass[w])(key[row]);
              c = dw < s.walk_digit[w] ? 1u : (dw == s.walk_digit[w] ? 2u : 0u);
            }
            cls[row] = c;
          }
        }
        const u32 below = __ballot_sync(0xffffffffu, cls[row] == 1u);
        const u32 in = __ballot_sync(0xffffffffu, cls[row] == 2u);
        if (lane == 0) temp.row_counts[row * WARPS + warp] = u64(__popc(below)) << 32 | u64(__popc(in));
        // Ranks within the warp's row, kept in `where`'s company until the row offsets are known.
        cls[row] |= u32(__popc(cls[row] == 1u ? below & lanemask_lt() : in & lanemask_lt())) << 2;
      }
      const u64 tile_total = offsets_of_rows(temp, temp.row_counts, STEP_ROWS * WARPS);
RINGSWEEP_UNROLL
      for (int row = 0; row < STEP_ROWS; ++row) {
        const u32 c = cls[row] & 3u;
        if (c == 0) continue;
        const u64 row_before = temp.row_counts[row * WARPS + warp];
        const u64 rank = u64(cls[row] >> 2);
        if (c == 1) {
          const u64 at = less_at + (row_before >> 32) + rank;
          store_global(p.out_keys + at, key[row]);
          store_global(p.out_pos + at, where[row]);
        } else {
          const u64 in_rank = (row_before & 0xffffffffu) + rank;
          if (take) {
            if (bucket_rank + in_rank < k_rem) {
              store_global(p.out_keys + bucket_at + in_rank, key[row]);
              store_global(p.out_pos + bucket_at + in_rank, where[row]);
            }
          } else {
            if (dst != 0) {
              store_global(p.buf_keys[dst - 1] + bucket_at + in_rank, key[row]);
              store_global(p.buf_pos[dst - 1] + bucket_at + in_rank, where[row]);
            }
            if (count_next) {
              // The next level's digit; along the guessed key, the levels below while the digits
              // are the guessed ones (a key equal to the guess is counted at every level).
              u32 d = next_of(key[row]);
              hist.add(next, d);
              for (int j = next; path && d == s.guess[j];) {
                j = highest_level(uniform, j - 1);
                if (j < 0) break;
                d = extractor(p, j)(key[row]);
                hist.add(j, d);
              }
            }
          }
        }
      }
      less_at += tile_total >> 32;
      bucket_at += tile_total & 0xffffffffu;
      bucket_rank += tile_total & 0xffffffffu;
      __syncthreads();  // row_counts is reused by the next tile
    }
    if (count_next) {
      // The counted levels' rows of this range, and the global counts in this round's half.
      __syncthreads();
      u64* const counts = p.level_counts + u64(round & 1) * u64(p.window.passes) * RADIX;
      for (int j = next; j >= 0; j = path ? highest_level(uniform, j - 1) : -1) {
        u32* row = p.range_counts + (r * u64(p.window.passes) + u64(j)) * RADIX;
        for (int d = int(threadIdx.x); d < RADIX; d += THREADS) {
          const u32 c = temp.hist.bins[j][d];
          row[d] = c;
          if (c != 0) atomicAdd(reinterpret_cast<unsigned long long*>(counts + u64(j) * RADIX + d), (unsigned long long)c);
        }
      }
    }
    __syncthreads();
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
