// top_k_select: the radix select behind top_k_keys / top_k_pairs / top_k_indices. One block per
// *range* (a contiguous run of the input, the same run at every level) counts digits, one block
// picks the bucket that holds the k-th key, and the ranges then move their keys, in input order,
// to where the pick said. docs/design.md section 15 walks through it.
#pragma once

#include <cstddef>

#include "../block/block_histogram.cuh"
#include "../block/block_scan.cuh"
#include "../detail/config.cuh"
#include "../detail/sort_window.cuh"
#include "../detail/digit_window.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Where the select stands between its launches (in the temporary storage, zeroed by the memset;
/// two of them: round r's pick reads the state of round r - 1 and writes its own, `r & 1`).
/// A *level* is one digit pass, taken from the most significant down; passes in which every key
/// of the input has the same digit (seen by the first histogram) are no levels at all.
template <int MAX_PASSES>
struct top_k_state {
  u64 k_rem;         // keys still to take from the current bucket
  u64 out_base;      // candidates written by the levels before the current one
  u64 level_less;    // keys of the current walk below its bucket (summed over its levels)
  u64 bucket_count;  // keys of the current walk's bucket
  int level;         // the lowest level of the walk (its bucket's); -1: none (every key is in the bucket)
  int next_level;    // the pass the current step counts for the next level; -1: none
  u32 bucket;        // the digit of `level` in the walk
  u32 src;           // what the current step reads: 0 the input, 1 or 2 a candidate buffer
  u32 dst;           // where its bucket's keys go: 0 nowhere (kept in the source), 1 or 2 a buffer
  u32 take;          // 1: the bucket's first k_rem keys are the last candidates (the last step)
  u32 started;       // the first pick has run
  u32 done;          // the last step has run: later picks and steps do nothing
  u32 checks;        // passes whose digit a source key must match (decided since it was written)
  u32 walk;          // levels the step splits by at once: walk_pass[0] (highest) .. walk_pass[walk - 1] == level
  u32 path;          // 1: the step counts along the guessed key (`guess`) below next_level, not next_level alone
  u64 uniform;       // bit p: every key of the input has the same digit in pass p (no level)
  int check_pass[MAX_PASSES];
  u32 check_digit[MAX_PASSES];
  int walk_pass[MAX_PASSES];
  u32 walk_digit[MAX_PASSES];
  u32 guess[MAX_PASSES];  // per pass: its most frequent digit in the whole input (the first pick's)
};

/// Arguments of every select kernel of one call.
template <class Key>
struct top_k_params : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  const bits_type* keys;   // the input
  u64 n;
  u64 k;
  u64 span;                // keys per range (the last range may hold fewer)
  u32 ranges;
  u64 capacity;            // keys a candidate buffer holds
  sort_window window;  // bits, direction and passes (sort_window::resolve)
  void* state;             // two top_k_state, by round parity
  u64* input_counts;       // passes x RADIX: digit counts of the whole input (zeroed)
  u64* level_counts;       // 2 x passes x RADIX: digit counts among a bucket's keys, by the step's round
                           // parity (zeroed; the pick clears its round's half before its step)
  u32* range_counts;       // ranges x passes x RADIX: each range's counts
  u64* src_off;            // per range: where its keys start in the current source, and how many
  u64* src_cnt;
  u64* range_less;         // per range: its keys below the current level's bucket
  u64* range_in;           // per range: its keys in the bucket
  u64* bucket_before;      // per range: bucket keys of the earlier ranges (the step's, for the next pick)
  bits_type* out_keys;     // k candidates: the keys of the top k, grouped by level, in input order
  u64* out_pos;            // and their input positions
  bits_type* buf_keys[2];  // candidate buffers 1 and 2
  u64* buf_pos[2];
  // Speculation (design.md section 15): while counting, range r also writes the keys whose digit of
  // pass `spec_pass` is at most its guess D_r to buffer 1 at r x spec_cap; the first pick uses them
  // instead of a second read of the input when the bucket is at most every D_r and none overflowed.
  int spec_pass;           // the top pass of the window
  u64 spec_cap;            // keys per range in buffer 1 (0: no speculation)
  u32 spec_need;           // D_r: the first digit at which a range's first tile holds this many keys
  u64* spec_cnt;           // per range: keys written
  u32* spec_flags;         // [0] max over ranges of RADIX - 1 - D_r, [1] some range overflowed (zeroed)
};

/// The select's block work for the keys-only sort_config `Config` (its policy and key): blocks of
/// `HIST_THREADS` threads walking tiles of `HIST_THREADS x HIST_ITEMS` keys, row by row (a row: one
/// key per thread, consecutive).
template <class Config>
struct top_k_select {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using traits = key_traits<Key>;
  using bits_type = typename traits::bits_type;
  using params_t = top_k_params<Key>;
  static constexpr int THREADS = Policy::HIST_THREADS;
  static constexpr int ROWS = Policy::HIST_ITEMS;
  static constexpr int TILE = THREADS * ROWS;  // the ranges' unit
  /// Rows of a step's tile: at most 8, which keeps a thread's keys and positions in registers.
  static constexpr int STEP_ROWS = ROWS < 8 ? ROWS : 8;
  static constexpr int STEP_TILE = THREADS * STEP_ROWS;
  static constexpr int WARPS = THREADS / warp_threads;
  static constexpr int RADIX_BITS = Policy::RADIX_BITS;
  static constexpr int RADIX = 1 << RADIX_BITS;
  static constexpr int MAX_PASSES = ceil_div(int(traits::bits), RADIX_BITS) > 0 ? ceil_div(int(traits::bits), RADIX_BITS) : 1;
  using state_t = top_k_state<MAX_PASSES>;
  static_assert(MAX_PASSES <= 64, "top-k: at most 64 digit passes (a 64-bit mask of uniform passes)");
  using histogram_t = block_histogram<THREADS, MAX_PASSES, RADIX_BITS>;
  static_assert(THREADS % warp_threads == 0, "top-k: HIST_THREADS must be whole warps");
  static_assert(STEP_ROWS * WARPS <= THREADS, "top-k: rows x warps must not exceed HIST_THREADS");
  /// Threads of the pick kernel, and the digits each of them reads.
  static constexpr int PICK_THREADS = THREADS;
  static constexpr int PICK_DIGITS = (RADIX + THREADS - 1) / THREADS;

  /// The count kernel ranks its speculative candidates per (row, warp) with one value a thread.
  static constexpr bool SPECULATE = ROWS * WARPS <= THREADS;

  struct TempStorage {
    typename histogram_t::TempStorage hist;
    u64 row_counts[STEP_ROWS * WARPS];  // per (row, warp): keys below the bucket << 32 | keys in it
    typename block_scan<u64, THREADS>::TempStorage scan;
    u32 spec_hist[RADIX];               // the speculation pass's digits of the range's first tile
    u64 spec_rows[SPECULATE ? ROWS * WARPS : 1];  // per (row, warp): speculative candidates
    u32 spec_digit;                     // D_r
  };

  __device__ __forceinline__ static digit_extractor<Key> extractor(const params_t& p, int pass) {
    return p.window.template extractor<RADIX_BITS>(p, pass);
  }

  /// Block `r` counts the digits of every pass over its range of the input, into its rows of
  /// `range_counts` and into `input_counts`.
  __device__ __forceinline__ static void count_input(TempStorage& temp, const params_t& p) {
    histogram_t hist(temp.hist);
    hist.clear();
    if (threadIdx.x == 0) temp.spec_digit = u32(RADIX - 1);  // an empty range constrains nothing
    __syncthreads();
    const u64 r = blockIdx.x;
    const u64 begin = r * p.span;
    const u64 end = min_of<u64>(p.n, begin + p.span);
    bool spec = SPECULATE && p.spec_cap != 0;  // the same in every thread of the block
    u64 spec_written = 0;
    const digit_extractor<Key> spec_of = spec ? extractor(p, p.spec_pass) : digit_extractor<Key>();
    // A tile's loads first (ROWS per thread in flight), then their digits.
    for (u64 tile = begin; tile < end; tile += TILE) {
      bits_type key[ROWS];
RINGSWEEP_UNROLL
      for (int row = 0; row < ROWS; ++row) {
        const u64 i = tile + u64(row) * THREADS + threadIdx.x;
        if (i < end) key[row] = load_global(p.keys + i);
      }
RINGSWEEP_UNROLL
      for (int row = 0; row < ROWS; ++row) {
        if (tile + u64(row) * THREADS + threadIdx.x >= end) continue;
        for (int pass = 0; pass < p.window.passes; ++pass) hist.add(pass, extractor(p, pass)(key[row]));
      }
      if constexpr (SPECULATE) {
        if (spec) {
          if (tile == begin) guess_digit(temp, p, spec_of, key, end - begin);
          spec = speculate(temp, p, spec_of, key, tile, end, spec_written);
        }
      }
    }
    if constexpr (SPECULATE) {
      if (threadIdx.x == 0 && p.spec_cap != 0) {
        p.spec_cnt[r] = spec_written;
        if (spec) {
          atomicMax(p.spec_flags, u32(RADIX - 1) - temp.spec_digit);
        } else {
          atomicOr(p.spec_flags + 1, 1u);
        }
      }
    }
    __syncthreads();
    const u32* flat = &temp.hist.bins[0][0];
    u32* rows = p.range_counts + r * u64(p.window.passes) * RADIX;
    for (int i = int(threadIdx.x); i < p.window.passes * RADIX; i += THREADS) {
      rows[i] = flat[i];
      if (flat[i] != 0) atomicAdd(reinterpret_cast<unsigned long long*>(p.input_counts + i), (unsigned long long)flat[i]);
    }
  }

  /// A tile's (row, warp) counts in `rows[0, count)` (one per thread at most) become exclusive
  /// offsets in tile order; returns their total. Starts and ends with a barrier.
  __device__ __forceinline__ static u64 offsets_of_rows(TempStorage& temp, u64* rows, int count) {
    __syncthreads();
    const u64 mine = int(threadIdx.x) < count ? rows[threadIdx.x] : 0;
    u64 total = 0;
    const u64 before = block_scan<u64, THREADS>::exclusive_sum(temp.scan, mine, total);
    if (int(threadIdx.x) < count) rows[threadIdx.x] = before;
    __syncthreads();
    return total;
  }

  /// Speculation: D_r, the first digit of the speculation pass at which the range's first tile
  /// (`valid` keys, in `key`) holds `spec_need` keys (all of them, if fewer), into temp.spec_digit.
  __device__ __forceinline__ static void guess_digit(TempStorage& temp, const params_t& p,
                                                     const digit_extractor<Key>& spec_of, const bits_type (&key)[ROWS],
                                                     u64 valid) {
    first_digit_holding(temp, u32(min_of<u64>(p.spec_need, min_of<u64>(valid, TILE))), spec_of, key, valid);
  }

  /// The first digit (by `spec_of`) at which the block's tile (`valid` keys, block-striped in `key`)
  /// holds `need` keys, or the last digit, into temp.spec_digit (every thread, after a barrier):
  /// the speculation's guess of the single-array and the per-row select.
  __device__ __forceinline__ static void first_digit_holding(TempStorage& temp, u32 need,
                                                             const digit_extractor<Key>& spec_of,
                                                             const bits_type (&key)[ROWS], u64 valid) {
    for (int d = int(threadIdx.x); d < RADIX; d += THREADS) temp.spec_hist[d] = 0;
    __syncthreads();
RINGSWEEP_UNROLL
    for (int row = 0; row < ROWS; ++row) {
      if (u64(row) * THREADS + threadIdx.x < valid) atomicAdd(&temp.spec_hist[spec_of(key[row])], 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      u32 sum = 0;
      int d = 0;
      for (; d < RADIX - 1; ++d) {
        sum += temp.spec_hist[d];
        if (sum >= need) break;
      }
      temp.spec_digit = u32(d);
    }
    __syncthreads();
  }

  /// Speculation: appends the tile's keys whose speculation digit is at most D_r, with their
  /// positions, in input order, to the range's part of buffer 1; false (nothing written) when they
  /// would not fit: the range then stops speculating.
  __device__ __forceinline__ static bool speculate(TempStorage& temp, const params_t& p,
                                                   const digit_extractor<Key>& spec_of, const bits_type (&key)[ROWS],
                                                   u64 tile, u64 end, u64& written) {
    const u32 lane = lane_id();
    const int warp = int(threadIdx.x) / warp_threads;
    const u32 limit = temp.spec_digit;
    u32 rank[ROWS];
RINGSWEEP_UNROLL
    for (int row = 0; row < ROWS; ++row) {
      const bool in = tile + u64(row) * THREADS + threadIdx.x < end && spec_of(key[row]) <= limit;
      const u32 mask = __ballot_sync(0xffffffffu, in);
      if (lane == 0) temp.spec_rows[row * WARPS + warp] = u64(__popc(mask));
      rank[row] = in ? u32(__popc(mask & lanemask_lt())) : ~0u;
    }
    const u64 total = offsets_of_rows(temp, temp.spec_rows, ROWS * WARPS);
    const bool fits = written + total <= p.spec_cap;
    if (fits) {
      const u64 base = u64(blockIdx.x) * p.spec_cap + written;
RINGSWEEP_UNROLL
      for (int row = 0; row < ROWS; ++row) {
        if (rank[row] == ~0u) continue;
        const u64 at = base + temp.spec_rows[row * WARPS + warp] + rank[row];
        store_global(p.buf_keys[0] + at, key[row]);
        store_global(p.buf_pos[0] + at, tile + u64(row) * THREADS + threadIdx.x);
      }
      written += total;
    }
    __syncthreads();  // spec_rows and the scan's storage are reused by the next tile
    return fits;
  }

  /// Round `round`'s decision, by every block (the state by block 0): the walk (one level, or
  /// several when the last step counted along the guessed key), the bucket of the k_rem-th key
  /// from the levels' global counts, and the block's range's counts below and in the bucket (see
  /// design.md 15). `PICK_THREADS` threads.
  __device__ __forceinline__ static void pick(const params_t& p, int round) {
    const state_t& prev = static_cast<const state_t*>(p.state)[(round + 1) & 1];
    state_t& cur = static_cast<state_t*>(p.state)[round & 1];
    __shared__ typename block_scan<u64, PICK_THREADS>::TempStorage scan;
    __shared__ u64 chosen[3];  // bucket, keys below it, keys in it
    __shared__ unsigned long long uniform_bits;
    __shared__ int walk_pass[MAX_PASSES];
    __shared__ u32 walk_digit[MAX_PASSES];
    const int t = int(threadIdx.x);
    const u64 r = blockIdx.x;
    const bool first = prev.started == 0;
    if (prev.done != 0 || (!first && prev.take != 0)) {
      if (r == 0 && t == 0) cur.done = 1;  // the select ended; this round and every later one exit
      return;
    }
    // This round's step counts into half `round & 1` of level_counts, which the step of round - 2
    // wrote and the pick of round - 1 read: cleared here, by all blocks.
    const u64 half = u64(p.window.passes) * RADIX;
    {
      u64* const mine = p.level_counts + u64(round & 1) * half;
      for (u64 i = r * PICK_THREADS + u64(t); i < half; i += u64(gridDim.x) * PICK_THREADS) mine[i] = 0;
    }
    // Passes whose digit is the same for every key of the input: no level at all. And the guessed
    // key: each pass's most frequent digit (a key holding more than half of the input is it).
    if (first) {
      if (t == 0) uniform_bits = 0;
      __syncthreads();
      for (int pass = 0; pass < p.window.passes; ++pass) {
        for (int i = 0; i < PICK_DIGITS; ++i) {
          const int d = t * PICK_DIGITS + i;
          if (d < RADIX && p.input_counts[u64(pass) * RADIX + u64(d)] == p.n) atomicOr(&uniform_bits, 1ull << pass);
        }
      }
      if (r == 0) {
        for (int pass = t; pass < p.window.passes; pass += PICK_THREADS) {
          u64 best = 0;
          u32 arg = 0;
          for (int d = 0; d < RADIX; ++d) {
            const u64 c = p.input_counts[u64(pass) * RADIX + u64(d)];
            if (c > best) {
              best = c;
              arg = u32(d);
            }
          }
          cur.guess[pass] = arg;
        }
      }
      __syncthreads();
    }
    const u64 uniform = first ? u64(uniform_bits) : prev.uniform;
    // Counts along the guessed key (prev.path) let the walk go on below a level whose bucket is
    // the guessed digit: the step counted the next level among exactly those keys.
    const bool along_guess = !first && prev.path != 0;
    const u64* const counts = first ? p.input_counts : p.level_counts + u64((round + 1) & 1) * half;
    int level = first ? highest_level(uniform, p.window.passes - 1) : prev.next_level;
    u64 k_rem = first ? p.k : prev.k_rem;
    u64 level_less = 0, bucket_count = p.n;
    u32 bucket = 0;
    int walk = 0, next = -1, lowest = -1;
    u64 less = 0;  // this thread's digits' share of the range's keys below the bucket
    while (level >= 0) {
      // The level's digit counts (this thread's run of digits), and the bucket of the k_rem-th key.
      u64 count[PICK_DIGITS];
      u64 mine = 0;
      for (int i = 0; i < PICK_DIGITS; ++i) {
        const int d = t * PICK_DIGITS + i;
        count[i] = d < RADIX ? counts[u64(level) * RADIX + u64(d)] : 0;
        mine += count[i];
      }
      u64 total = 0;
      u64 below = block_scan<u64, PICK_THREADS>::exclusive_sum(scan, mine, total);
      for (int i = 0; i < PICK_DIGITS; ++i) {
        if (count[i] != 0 && below < k_rem && k_rem <= below + count[i]) {
          chosen[0] = u64(t * PICK_DIGITS + i);
          chosen[1] = below;
          chosen[2] = count[i];
        }
        below += count[i];
      }
      __syncthreads();
      bucket = u32(chosen[0]);
      level_less += chosen[1];
      k_rem -= chosen[1];
      bucket_count = chosen[2];
      const u32* row = p.range_counts + (r * u64(p.window.passes) + u64(level)) * RADIX;
      for (int i = 0; i < PICK_DIGITS; ++i) {
        const int d = t * PICK_DIGITS + i;
        if (d < int(bucket)) less += row[d];
      }
      if (t == 0) {
        walk_pass[walk] = level;
        walk_digit[walk] = bucket;
      }
      ++walk;
      lowest = level;
      next = highest_level(uniform, level - 1);
      __syncthreads();  // chosen is rewritten by the next level
      if (!(along_guess && next >= 0 && bucket == prev.guess[level] && bucket_count != k_rem)) break;
      level = next;
    }
    // The count's speculative candidates stand in for the input when the level is the pass they
    // were chosen by, the bucket is at most every range's D_r, and no range overflowed.
    const bool spec_ok = first && SPECULATE && p.spec_cap != 0 && lowest >= 0 && lowest == p.spec_pass &&
                         p.spec_flags[1] == 0 && bucket <= u32(RADIX - 1) - p.spec_flags[0];
    // This block's range: adopt what the last step wrote, then count below and in the bucket.
    u64 off, cnt;
    if (spec_ok) {
      off = r * p.spec_cap;
      cnt = p.spec_cnt[r];
    } else if (first) {
      off = min_of<u64>(p.n, r * p.span);
      cnt = min_of<u64>(p.n, off + p.span) - off;
    } else if (prev.dst != 0) {
      off = p.bucket_before[r];
      cnt = p.range_counts[(r * u64(p.window.passes) + u64(prev.level)) * RADIX + prev.bucket];
    } else {
      off = p.src_off[r];
      cnt = p.src_cnt[r];
    }
    u64 less_total = 0;
    (void)block_scan<u64, PICK_THREADS>::exclusive_sum(scan, less, less_total);
    if (t == 0) {
      p.src_off[r] = off;
      p.src_cnt[r] = cnt;
      p.range_less[r] = less_total;
      p.range_in[r] = lowest >= 0 ? u64(p.range_counts[(r * u64(p.window.passes) + u64(lowest)) * RADIX + bucket]) : cnt;
    }
    if (r != 0 || t != 0) return;
    const bool take = next < 0 || bucket_count == k_rem;
    const u32 src = first ? (spec_ok ? 1u : 0u) : (prev.dst != 0 ? prev.dst : prev.src);
    u32 checks = 0;
    if (!first && prev.dst == 0) {
      // The source stays: its keys must also match the levels just decided.
      for (u32 c = 0; c < prev.checks; ++c) {
        cur.check_pass[c] = prev.check_pass[c];
        cur.check_digit[c] = prev.check_digit[c];
      }
      checks = prev.checks;
      for (u32 w = 0; w < prev.walk; ++w, ++checks) {
        cur.check_pass[checks] = prev.walk_pass[w];
        cur.check_digit[checks] = prev.walk_digit[w];
      }
    }  // else a fresh buffer holds only keys that matched every decided digit
    if (!first) {
      for (int pass = 0; pass < p.window.passes; ++pass) cur.guess[pass] = prev.guess[pass];
    }
    for (int w = 0; w < walk; ++w) {
      cur.walk_pass[w] = walk_pass[w];
      cur.walk_digit[w] = walk_digit[w];
    }
    cur.walk = u32(walk);
    cur.checks = checks;
    cur.uniform = uniform;
    cur.started = 1;
    cur.done = 0;
    cur.k_rem = k_rem;
    cur.out_base = first ? 0 : prev.out_base + prev.level_less;
    cur.level_less = level_less;
    cur.bucket_count = bucket_count;
    cur.level = lowest;
    cur.next_level = take ? -1 : next;
    cur.bucket = bucket;
    cur.src = src;
    cur.dst = take || bucket_count > p.capacity ? 0u : (src == 1u ? 2u : 1u);
    cur.take = take ? 1u : 0u;
    // A bucket too large for a buffer stays in the source (the input): the step then counts the
    // levels below along the guessed key, so that the next pick can walk down to the guessed key
    // or to a bucket that fits, and the input is read once more at most (design.md 15).
    cur.path = !take && cur.dst == 0u ? 1u : 0u;
  }

  /// The highest pass at or below `from` whose digit is not the same for every key (bit p of
  /// `uniform` set: the same), or -1.
  __device__ __forceinline__ static int highest_level(u64 uniform, int from) {
    int pass = from;
    while (pass >= 0 && ((uniform >> pass) & 1u) != 0) --pass;
    return pass;
  }

  /// Block `r` moves its range of the current source: keys below the bucket (at any level of the
  /// walk) to the candidates, the bucket's keys to the next buffer (counting their next digit, or
  /// every lower digit along the guessed key) or, in the last step, its first k_rem to the
  /// candidates; all in input order.
  __device__ __forceinline__ static void step(TempStorage& temp, const params_t& p, int round) {
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
    if (count_next) hist.clear();
    const u64 r = blockIdx.x;
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
  }
};

/// A large row of a batched top-k, listed for the per-row select: segment `segment`'s keys
/// `[begin, begin + size)` of the input.
struct top_k_row {
  u64 segment;
  u64 begin;
  u64 size;
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
  bits_type* cand_keys;       // n keys: a row's min(k, size) candidates at the start of its own range,
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
      select_row<ValueRaw, VALUES, POSITIONS>(temp, p, row.begin, row.size);
    }
  }

  template <class ValueRaw, bool VALUES, bool POSITIONS>
  __device__ __forceinline__ static void select_row(TempStorage& temp, const top_k_rows_params<Key, ValueRaw>& p,
                                                    u64 begin, u64 size) {
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
    u64 out_at = begin;    // the row's next candidate slot
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
