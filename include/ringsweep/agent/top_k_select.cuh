// top_k_select: the radix select behind top_k_keys / top_k_pairs / top_k_indices. One block per
// *range* (a contiguous run of the input, the same run at every level) counts digits, one block
// picks the bucket that holds the k-th key, and the ranges then move their keys, in input order,
// to where the pick said. docs/design.md section 15 walks through it. This file: the state between
// the launches, the kernels' arguments, and what every phase shares (shapes, shared storage, the
// tile ranking); the phases: top_k_count.cuh (the first read), top_k_pick.cuh (the bucket of a
// level), top_k_moves.cuh (a level's moves), top_k_row_select.cuh (one block per long row).
#pragma once

#include <cstddef>
#include <type_traits>

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
  // The first read counts the top digit only. What the first pick needs of the lower passes:
  u64* input_bits;         // raw bits (zeroed), of the threads of the first read: [0] those set in some
                           // thread's first key, [1] those clear in one, [2] those in which a key
                           // differs from its thread's first key; a pass whose digit bits are in
                           // neither [2] nor both [0] and [1] holds one digit (see uniform_passes)
  bits_type* samples;      // per range: its first key; their majority is the guessed key
  u32* arrived;            // the levels kernel's grid barrier: blocks arrived, over all its barriers (zeroed)
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

  /// Built-in integer and floating-point keys: the first read ORs their raw bits' differences
  /// (top_k_params::input_bits), which tell the lower passes that hold one digit. Custom keys
  /// (whose digits are not their raw bits) skip it: no pass is known to hold one digit.
  static constexpr bool DIFF = std::is_integral<Key>::value || std::is_floating_point<Key>::value;

  /// The count kernel ranks its speculative candidates per (row, warp) with one value a thread.
  static constexpr bool SPECULATE = ROWS * WARPS <= THREADS;

  struct TempStorage {
    typename histogram_t::TempStorage hist;
    u64 row_counts[STEP_ROWS * WARPS];  // per (row, warp): keys below the bucket << 32 | keys in it
    typename block_scan<u64, THREADS>::TempStorage scan;
    u32 spec_hist[RADIX];               // the speculation pass's digits of the range's first tile
    u64 spec_rows[SPECULATE ? ROWS * WARPS : 1];  // per (row, warp): speculative candidates
    u32 spec_digit;                     // D_r
    u32 spec_lanes[SPECULATE ? ROWS * THREADS : 1];  // the first read's: per (vector row, thread), its lane's candidates and the lower lanes'
    typename block_scan<u32, THREADS>::TempStorage scan32;  // the first read's scan of a tile's candidate counts
    unsigned long long bits[3];         // the first read's: as top_k_params::input_bits, of the range
  };

  __device__ __forceinline__ static digit_extractor<Key> extractor(const params_t& p, int pass) {
    return p.window.template extractor<RADIX_BITS>(p, pass);
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
    pick_spec_digit(temp, need);
  }

  /// The speculation's guess from a tile's digit counts in temp.spec_hist: the first digit at
  /// which their running sum reaches `need` (the last digit if none), into temp.spec_digit, by
  /// thread 0. Starts with a barrier (the counts are complete) and ends with one (every thread
  /// may read the digit).
  __device__ __forceinline__ static void pick_spec_digit(TempStorage& temp, u32 need) {
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

  /// The highest pass at or below `from` whose digit is not the same for every key (bit p of
  /// `uniform` set: the same), or -1.
  __device__ __forceinline__ static int highest_level(u64 uniform, int from) {
    int pass = from;
    while (pass >= 0 && ((uniform >> pass) & 1u) != 0) --pass;
    return pass;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
