// top_k_row_select: the batched top-k's select of one long row by one block (top_k_rows_kernel),
// with top_k_select's storage and tile ranking (docs/design.md section 15).
#pragma once

#include "top_k_select.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A large row of a batched top-k, or a part of one (top_k_row_parts), listed for the per-row
/// select: segment `segment`'s keys `[begin, begin + size)` of the input, whose candidates go to
/// the candidate arrays from slot `out` on.
struct top_k_row {
  u64 segment;
  u64 begin;
  u64 size;
  u64 out;
};

/// Arguments of the batched top-k's per-row select (top_k_row_select). `ValueRaw`: the caller's
/// values (pairs), the index type (indices) or unused (keys).
template <class Key, class ValueRaw>
struct top_k_rows_params : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  const bits_type* keys;      // the input
  const ValueRaw* values;     // pairs: the caller's values (gathered for the candidates only)
  const top_k_row* rows;      // the large rows, in any order
  const u32* row_count;       // how many (at most `row_capacity` are read)
  u64 row_capacity;
  u64 k;
  sort_window window;  // bits, direction and passes (sort_window::resolve)
  bits_type* buf_keys;        // n keys: a row's current bucket, compacted in place at the row's own range
  u64* buf_pos;               // and their input positions
  bits_type* cand_keys;       // n keys: a row's candidates at the start of its own range (its parts' one after another),
  ValueRaw* cand_values;      // grouped by level, in input order within a group (and their values)
};

/// The per-row select of a batched top-k's large rows (design.md section 15): one block per row,
/// `HIST_THREADS` threads, with top_k_select's storage and tile ranking. The block counts every
/// pass's digits of its row in one read (writing its likely candidates as it goes), then splits
/// by a level (or a walk of levels) at a time: keys below the bucket of the k-th key go to the
/// row's candidates, those in it to the row's bucket buffer (the row's own range of an n-key
/// scratch) when they are at most an eighth of the row, else they stay in the row and are
/// counted along the row's guessed key, as the single-array select does; until the bucket's keys
/// are exactly those still needed or no level is left; then the bucket's first ones (input
/// order) end the row's candidates. Their stable sort is the row's top k.
template <class Config>
struct top_k_row_select {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using select = top_k_select<Config>;
  using bits_type = typename select::bits_type;
  using TempStorage = typename select::TempStorage;
  using histogram_t = typename select::histogram_t;
  static constexpr int THREADS = select::THREADS;
  static constexpr int ROWS = select::ROWS;
  static constexpr int TILE = select::TILE;
  static constexpr int STEP_ROWS = select::STEP_ROWS;
  static constexpr int STEP_TILE = select::STEP_TILE;
  static constexpr int WARPS = select::WARPS;
  static constexpr int RADIX = select::RADIX;
  static constexpr int DIGITS = select::PICK_DIGITS;  // digits per thread in a pick (THREADS threads)

  /// Every listed row, one block each (grid-stride over the list). `VALUES`: candidates carry the
  /// caller's values; `POSITIONS`: their input positions as `ValueRaw` (indices).
  template <class ValueRaw, bool VALUES, bool POSITIONS>
  __device__ __forceinline__ static void rows(TempStorage& temp, const top_k_rows_params<Key, ValueRaw>& p) {
    const u64 count = min_of<u64>(load_global(p.row_count), p.row_capacity);
    for (u64 i = blockIdx.x; i < count; i += gridDim.x) {
      const top_k_row row = p.rows[i];
      select_row<ValueRaw, VALUES, POSITIONS>(temp, p, row.begin, row.size, row.out);
    }
  }

  /// The select of keys `[begin, begin + size)` (buffered in that range of the bucket arrays), its
  /// `min(k, size)` candidates to the candidate arrays from slot `out` on.
  template <class ValueRaw, bool VALUES, bool POSITIONS>
  __device__ __forceinline__ static void select_row(TempStorage& temp, const top_k_rows_params<Key, ValueRaw>& p,
                                                    u64 begin, u64 size, u64 out) {
    constexpr int MAX_PASSES = select::MAX_PASSES;
    __shared__ u64 chosen[3];  // bucket, keys below it, keys in it
    __shared__ unsigned long long uniform_bits;
    __shared__ u32 guess[MAX_PASSES];        // the guessed key: each pass's most frequent digit in the row
    __shared__ int walk_pass[MAX_PASSES];    // the levels a split decides at once, highest first
    __shared__ u32 walk_digit[MAX_PASSES];
    __shared__ int check_pass[MAX_PASSES];   // digits a kept source's keys must match
    __shared__ u32 check_digit[MAX_PASSES];
    histogram_t hist(temp.hist);
    hist.clear();
    if (threadIdx.x == 0) uniform_bits = 0;
    // A bucket of more keys than this stays in the row, which the next split reads again, rather
    // than going to the buffer with its positions (which the next split would read instead).
    const u64 cap = max_of<u64>(size / 8, u64(TILE));
    __syncthreads();
    // Every pass's digit counts of the row, in one read. Speculation, as the single-array count
    // does: the keys whose top digit is at most D (the first digit at which the row's first tile
    // holds twice the k-th key's share, plus 16) go to the row's bucket buffer as they are read,
    // in input order, while they number at most `cap`; the first split reads them instead of the
    // row when its bucket is at most D.
    bool spec = select::SPECULATE && p.window.passes > 0;  // the same in every thread of the block
    const digit_extractor<Key> spec_of = spec ? extractor(p, p.window.passes - 1) : digit_extractor<Key>();
    u64 spec_written = 0;
    const u32 lane = lane_id();
    const int warp = int(threadIdx.x) / warp_threads;
    for (u64 tile = 0; tile < size; tile += TILE) {
      bits_type key[ROWS];
RINGSWEEP_UNROLL
      for (int r = 0; r < ROWS; ++r) {
        const u64 i = tile + u64(r) * THREADS + threadIdx.x;
        if (i < size) key[r] = load_global(p.keys + begin + i);
      }
RINGSWEEP_UNROLL
      for (int r = 0; r < ROWS; ++r) {
        if (tile + u64(r) * THREADS + threadIdx.x >= size) continue;
        for (int pass = 0; pass < p.window.passes; ++pass) hist.add(pass, extractor(p, pass)(key[r]));
      }
      if constexpr (select::SPECULATE) {
        if (spec) {
          if (tile == 0) guess_digit(temp, p, spec_of, key, size);
          const u32 limit = temp.spec_digit;
          u32 rank[ROWS];
RINGSWEEP_UNROLL
          for (int r = 0; r < ROWS; ++r) {
            const bool in = tile + u64(r) * THREADS + threadIdx.x < size && spec_of(key[r]) <= limit;
            const u32 mask = __ballot_sync(0xffffffffu, in);
            if (lane == 0) temp.spec_rows[r * WARPS + warp] = u64(__popc(mask));
            rank[r] = in ? u32(__popc(mask & lanemask_lt())) : ~0u;
          }
          const u64 total = select::offsets_of_rows(temp, temp.spec_rows, ROWS * WARPS);
          spec = spec_written + total <= cap;
          if (spec) {
RINGSWEEP_UNROLL
            for (int r = 0; r < ROWS; ++r) {
              if (rank[r] == ~0u) continue;
              const u64 at = begin + spec_written + temp.spec_rows[r * WARPS + warp] + rank[r];
              store_global(p.buf_keys + at, key[r]);
              store_global(p.buf_pos + at, begin + tile + u64(r) * THREADS + threadIdx.x);
            }
            spec_written += total;
          }
          __syncthreads();  // spec_rows and the scan's storage are reused by the next tile
        }
      }
    }
    __syncthreads();
    for (int pass = 0; pass < p.window.passes; ++pass) {
      for (int d = int(threadIdx.x); d < RADIX; d += THREADS) {
        if (u64(temp.hist.bins[pass][d]) == size) atomicOr(&uniform_bits, 1ull << pass);
      }
    }
    for (int pass = int(threadIdx.x); pass < p.window.passes; pass += THREADS) {
      u32 best = 0, arg = 0;
      for (int d = 0; d < RADIX; ++d) {
        if (temp.hist.bins[pass][d] > best) {
          best = temp.hist.bins[pass][d];
          arg = u32(d);
        }
      }
      guess[pass] = arg;
    }
    __syncthreads();
    const u64 uniform = uniform_bits;
    int level = select::highest_level(uniform, p.window.passes - 1);
    u64 k_rem = min_of<u64>(p.k, size);
    u64 cnt = size;        // keys of the current source
    u64 out_at = out;      // the row's next candidate slot
    bool from_input = true;
    bool path = false;     // the last split counted along the guessed key (its bucket stayed in the row)
    int checks = 0;
    for (bool first = true;; first = false) {
      // The walk: the bucket of the k_rem-th key at `level` (no level: every key is in it) and,
      // after a split that counted along the guessed key, on down while the bucket is the
      // guessed digit (the counts of the level below are then exactly those of its keys).
      u64 less = 0, in_bucket = cnt;
      int walk = 0, next = -1;
      while (level >= 0) {
        u64 count[DIGITS];
        u64 mine = 0;
        for (int i = 0; i < DIGITS; ++i) {
          const int d = int(threadIdx.x) * DIGITS + i;
          count[i] = d < RADIX ? u64(temp.hist.bins[level][d]) : 0;
          mine += count[i];
        }
        u64 total = 0;
        u64 below = block_scan<u64, THREADS>::exclusive_sum(temp.scan, mine, total);
        for (int i = 0; i < DIGITS; ++i) {
          if (count[i] != 0 && below < k_rem && k_rem <= below + count[i]) {
            chosen[0] = u64(int(threadIdx.x) * DIGITS + i);
            chosen[1] = below;
            chosen[2] = count[i];
          }
          below += count[i];
        }
        __syncthreads();
        const u32 bucket = u32(chosen[0]);
        less += chosen[1];
        k_rem -= chosen[1];
        in_bucket = chosen[2];
        if (threadIdx.x == 0) {
          walk_pass[walk] = level;
          walk_digit[walk] = bucket;
        }
        ++walk;
        next = select::highest_level(uniform, level - 1);
        __syncthreads();  // chosen is rewritten by the next level; the walk is read below
        if (!(path && next >= 0 && bucket == guess[level] && in_bucket != k_rem)) break;
        level = next;
      }
      if constexpr (select::SPECULATE) {
        if (first && spec && walk == 1 && walk_pass[0] == p.window.passes - 1 && walk_digit[0] <= temp.spec_digit) {
          from_input = false;  // the speculative keys hold every key at or below the bucket
          cnt = spec_written;
        }
      }
      (void)first;
      const bool take = next < 0 || in_bucket == k_rem;
      const bool keep = !take && from_input && in_bucket > cap;
      if (!take) {
        for (int j = next; j >= 0; j = keep ? select::highest_level(uniform, j - 1) : -1) {
          for (int d = int(threadIdx.x); d < RADIX; d += THREADS) temp.hist.bins[j][d] = 0;
        }
      }
      const digit_extractor<Key> next_of = take ? digit_extractor<Key>() : extractor(p, next);
      const bits_type* const src_keys = from_input ? p.keys + begin : p.buf_keys + begin;
      u64 less_at = out_at, bucket_at = 0;  // bucket ranks so far (buffer slots, or taken candidates)
      __syncthreads();
      for (u64 tile = 0; tile < cnt; tile += STEP_TILE) {
        bits_type key[STEP_ROWS];
        u64 where[STEP_ROWS];
        u32 cls[STEP_ROWS];  // 0 neither, 1 below the bucket, 2 in it; rank within the warp's row << 2
RINGSWEEP_UNROLL
        for (int r = 0; r < STEP_ROWS; ++r) {
          const u64 i = tile + u64(r) * THREADS + threadIdx.x;
          cls[r] = 0;
          if (i < cnt) {
            key[r] = load_global(src_keys + i);
            where[r] = from_input ? begin + i : load_global(p.buf_pos + begin + i);
            bool match = true;
            for (int c = 0; c < checks && match; ++c) match = extractor(p, check_pass[c])(key[r]) == check_digit[c];
            // The walk's levels, highest first: the first digit that differs decides.
            u32 c = match ? 2u : 0u;
            for (int w = 0; w < walk && c == 2u; ++w) {
              const u32 d = extractor(p, walk_pass[w])(key[r]);
              c = d < walk_digit[w] ? 1u : (d == walk_digit[w] ? 2u : 0u);
            }
            cls[r] = c;
          }
          const u32 below = __ballot_sync(0xffffffffu, cls[r] == 1u);
          const u32 in = __ballot_sync(0xffffffffu, cls[r] == 2u);
          if (lane == 0) temp.row_counts[r * WARPS + warp] = u64(__popc(below)) << 32 | u64(__popc(in));
          cls[r] |= u32(__popc(cls[r] == 1u ? below & lanemask_lt() : in & lanemask_lt())) << 2;
        }
        // (A barrier first: every key of the tile is loaded before any is written back in place.)
        const u64 tile_total = select::offsets_of_rows(temp, temp.row_counts, STEP_ROWS * WARPS);
RINGSWEEP_UNROLL
        for (int r = 0; r < STEP_ROWS; ++r) {
          const u32 c = cls[r] & 3u;
          if (c == 0) continue;
          const u64 row_before = temp.row_counts[r * WARPS + warp];
          const u64 rank = u64(cls[r] >> 2);
          u64 at = ~u64(0);
          if (c == 1) {
            at = less_at + (row_before >> 32) + rank;
          } else {
            const u64 in_rank = bucket_at + (row_before & 0xffffffffu) + rank;
            if (take) {
              if (in_rank < k_rem) at = out_at + less + in_rank;
            } else {
              if (!keep) {
                store_global(p.buf_keys + begin + in_rank, key[r]);
                store_global(p.buf_pos + begin + in_rank, where[r]);
              }
              // The next level's digit; when the bucket stays, also the levels below while the
              // digits are the guessed ones.
              u32 d = next_of(key[r]);
              hist.add(next, d);
              for (int j = next; keep && d == guess[j];) {
                j = select::highest_level(uniform, j - 1);
                if (j < 0) break;
                d = extractor(p, j)(key[r]);
                hist.add(j, d);
              }
            }
          }
          if (at != ~u64(0)) {
            store_global(p.cand_keys + at, key[r]);
            if constexpr (POSITIONS) {
              store_global(p.cand_values + at, index_value<ValueRaw>(where[r]));
            } else if constexpr (VALUES) {
              store_global(p.cand_values + at, load_global(p.values + where[r]));
            }
          }
        }
        less_at += tile_total >> 32;
        bucket_at += tile_total & 0xffffffffu;
        __syncthreads();  // row_counts is reused by the next tile
      }
      if (take) break;
      out_at += less;
      if (keep) {
        // The source stays: its keys must also match the levels just decided.
        if (threadIdx.x == 0) {
          for (int w = 0; w < walk; ++w) {
            check_pass[checks + w] = walk_pass[w];
            check_digit[checks + w] = walk_digit[w];
          }
        }
        checks += walk;
      } else {
        cnt = in_bucket;
        from_input = false;
        checks = 0;
      }
      path = keep;
      level = next;
      __syncthreads();  // the checks and the counts are read by the next split
    }
    __syncthreads();  // the storage is reused by the block's next row
  }

  /// Speculation: D, the first top digit at which the row's first tile (`size` keys of the row
  /// from its start, at most a tile, in `key`) holds twice the k-th key's share plus 16 keys (all
  /// of them, if fewer), into temp.spec_digit.
  template <class ValueRaw>
  __device__ __forceinline__ static void guess_digit(TempStorage& temp, const top_k_rows_params<Key, ValueRaw>& p,
                                                     const digit_extractor<Key>& spec_of, const bits_type (&key)[ROWS],
                                                     u64 size) {
    const u64 valid = min_of<u64>(size, TILE);
    const u64 share = min_of<u64>(p.k, size) * 2 * valid / size + 16;
    select::first_digit_holding(temp, u32(min_of<u64>(share, valid)), spec_of, key, size);
  }

  template <class ValueRaw>
  __device__ __forceinline__ static digit_extractor<Key> extractor(const top_k_rows_params<Key, ValueRaw>& p, int pass) {
    return p.window.template extractor<select::RADIX_BITS>(p, pass);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
