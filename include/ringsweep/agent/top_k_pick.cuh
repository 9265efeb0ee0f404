// top_k_pick: a round's decision (in top_k_levels_kernel): the walk of levels, the bucket of the k-th
// key, each range's keys below and in it, and the next state (docs/design.md section 15).
#pragma once

#include "top_k_select.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The pick phase of top_k_select<Config>: every block of the levels kernel, PICK_THREADS threads.
template <class Config>
struct top_k_pick : top_k_select<Config> {
  using base = top_k_select<Config>;
  using Key = typename base::Key;
  using params_t = typename base::params_t;
  using state_t = typename base::state_t;
  using base::RADIX;
  using base::MAX_PASSES;
  using base::PICK_THREADS;
  using base::PICK_DIGITS;
  using base::SPECULATE;
  using base::highest_level;
  using base::extractor;
  using base::DIFF;
  using bits_type = typename base::bits_type;

  /// Round `round`'s decision, by every block of the levels kernel (the state by block 0): the
  /// walk (one level, or several when the last step counted along the guessed key), the bucket of
  /// the k_rem-th key from the levels' global counts, and the counts below and in the bucket of
  /// the block's ranges (blockIdx.x, then every gridDim.x-th; see design.md 15). `PICK_THREADS`
  /// threads. False, the same in every block: the select has ended (no step this round).
  __device__ __forceinline__ static bool pick(const params_t& p, int round) {
    const state_t& prev = static_cast<const state_t*>(p.state)[(round + 1) & 1];
    state_t& cur = static_cast<state_t*>(p.state)[round & 1];
    __shared__ typename block_scan<u64, PICK_THREADS>::TempStorage scan;
    __shared__ u64 chosen[3];  // bucket, keys below it, keys in it
    __shared__ int walk_pass[MAX_PASSES];
    __shared__ u32 walk_digit[MAX_PASSES];
    const int t = int(threadIdx.x);
    const u64 block = blockIdx.x;
    const bool first = prev.started == 0;
    if (prev.done != 0 || (!first && prev.take != 0)) {
      if (block == 0 && t == 0) cur.done = 1;  // the select ended; this round and every later one exit
      return false;
    }
    // This round's step counts into half `round & 1` of level_counts, which the step of round - 2
    // wrote and the pick of round - 1 read: cleared here, by all blocks.
    const u64 half = u64(p.window.passes) * RADIX;
    {
      u64* const mine = p.level_counts + u64(round & 1) * half;
      for (u64 i = block * PICK_THREADS + u64(t); i < half; i += u64(gridDim.x) * PICK_THREADS) mine[i] = 0;
    }
    // The guessed key: the top pass's most frequent digit, and below it the digits of the ranges'
    // first keys' majority (a key holding more than half of the input is most likely it; any
    // guess is correct, a good one saves reads). The first read counts the top digit only.
    if (first && block == 0) guess_key(p, cur);
    const u64 uniform = first ? uniform_passes(p) : prev.uniform;
    // Counts along the guessed key (prev.path) let the walk go on below a level whose bucket is
    // the guessed digit: the step counted the next level among exactly those keys.
    const bool along_guess = !first && prev.path != 0;
    const u64* const counts = first ? p.input_counts : p.level_counts + u64((round + 1) & 1) * half;
    // The first level is the top pass, the one the first read counted, even when it holds one
    // digit (then every key is in its bucket).
    int level = first ? p.window.passes - 1 : prev.next_level;
    u64 k_rem = first ? p.k : prev.k_rem;
    u64 level_less = 0, bucket_count = p.n;
    u32 bucket = 0;
    int walk = 0, next = -1, lowest = -1;
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
    // This block's ranges: adopt what the last step wrote, then count below and in the bucket.
    for (u64 r = block; r < p.ranges; r += gridDim.x) {
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
      // This thread's digits' share of the range's keys below the bucket, at every level of the walk.
      u64 less = 0;
      for (int w = 0; w < walk; ++w) {
        const u32* row = p.range_counts + (r * u64(p.window.passes) + u64(walk_pass[w])) * RADIX;
        for (int i = 0; i < PICK_DIGITS; ++i) {
          const int d = t * PICK_DIGITS + i;
          if (d < int(walk_digit[w])) less += row[d];
        }
      }
      u64 less_total = 0;
      (void)block_scan<u64, PICK_THREADS>::exclusive_sum(scan, less, less_total);
      if (t == 0) {
        p.src_off[r] = off;
        p.src_cnt[r] = cnt;
        p.range_less[r] = less_total;
        p.range_in[r] = lowest >= 0 ? u64(p.range_counts[(r * u64(p.window.passes) + u64(lowest)) * RADIX + bucket]) : cnt;
      }
      __syncthreads();  // the scan's storage is reused by the next range
    }
    if (block != 0 || t != 0) return true;
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
    return true;
  }

  /// Passes (bit p) whose digit is the same for every key: no digit bit in which two keys differ
  /// (the first read's input_bits). Raw bits: integer images are the raw bits
  /// XOR a constant; float ones too while no two keys differ in sign (else, and for -0.0 beside
  /// +0.0, no pass is known to hold one digit). Custom keys: none known.
  __device__ __forceinline__ static u64 uniform_passes(const params_t& p) {
    if constexpr (!DIFF) {
      (void)p;
      return 0;
    } else {
      const u64 diff = p.input_bits[2] | (p.input_bits[0] & p.input_bits[1]);  // the bits in which two keys differ
      if (!std::is_integral<Key>::value && ((diff >> (8 * sizeof(bits_type) - 1)) & 1u) != 0) return 0;
      u64 mask = 0;
      for (int pass = 0; pass < p.window.passes; ++pass) {
        const digit_extractor<Key> e = extractor(p, pass);
        if (((diff >> e.shift) & e.mask) == 0) mask |= 1ull << pass;
      }
      return mask;
    }
  }

  /// The first pick's guessed key, into cur.guess (block 0, every thread): the top pass's most
  /// frequent digit, and the lower passes' digits of the majority (Boyer-Moore, by thread and
  /// then over the threads) of the ranges' first keys.
  __device__ __forceinline__ static void guess_key(const params_t& p, state_t& cur) {
    const int t = int(threadIdx.x);
    const int top = p.window.passes - 1;
    if (t == 0 && top >= 0) {
      u64 best = 0;
      u32 arg = 0;
      for (int d = 0; d < RADIX; ++d) {
        const u64 c = p.input_counts[u64(top) * RADIX + u64(d)];
        if (c > best) {
          best = c;
          arg = u32(d);
        }
      }
      cur.guess[top] = arg;
    }
    // No pass below the top one: nothing to vote for (and no sample stored: the first read
    // stores them with the keys it reads, none when the window is empty).
    if (top <= 0) return;
    if constexpr (DIFF) {
      __shared__ bits_type keys[PICK_THREADS];
      __shared__ u32 votes[PICK_THREADS];
      bits_type cand{};
      u32 cnt = 0;
      for (u64 q = u64(t); q < p.ranges && q * p.span < p.n; q += PICK_THREADS) {
        const bits_type s = p.samples[q];
        if (cnt == 0) {
          cand = s;
          cnt = 1;
        } else {
          cnt = s == cand ? cnt + 1 : cnt - 1;
        }
      }
      keys[t] = cand;
      votes[t] = cnt;
      __syncthreads();
      if (t == 0) {
        cand = bits_type{};
        cnt = 0;
        for (int i = 0; i < PICK_THREADS; ++i) {
          if (votes[i] == 0) continue;
          if (cnt == 0 || keys[i] == cand) {
            if (cnt == 0) cand = keys[i];
            cnt += votes[i];
          } else if (votes[i] > cnt) {
            cand = keys[i];
            cnt = votes[i] - cnt;
          } else {
            cnt -= votes[i];
          }
        }
        for (int pass = 0; pass < top; ++pass) cur.guess[pass] = extractor(p, pass)(cand);
      }
    } else {
      for (int pass = t; pass < top; pass += PICK_THREADS) cur.guess[pass] = 0;
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
