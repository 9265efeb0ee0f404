// top_k_count: the select's first read of the input (top_k_count_kernel): every range's counts of
// the top digit and its speculative candidates (docs/design.md section 15).
#pragma once

#include "top_k_select.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The first read of top_k_select<Config>: one block per range. It counts the top digit only (one
/// shared atomic a key); the lower levels are counted by the steps, among the bucket's keys. Its
/// tile is `FTILE` keys (a TILE, or half of one for 8-byte keys), loaded as vectors: thread t's
/// item i is key `(i / VEC x THREADS + t) x VEC + i % VEC` of the tile, one vector of VEC keys
/// (16 bytes where the key's size allows) per `i / VEC`. A range whose start is not aligned to a
/// vector reads its first keys (fewer than VEC: the *head*) one by one; a range's last tile, if
/// partial, is read with guarded loads.
template <class Config>
struct top_k_count : top_k_select<Config> {
  using base = top_k_select<Config>;
  using Key = typename base::Key;
  using bits_type = typename base::bits_type;
  using params_t = typename base::params_t;
  using TempStorage = typename base::TempStorage;
  using base::THREADS;
  using base::ROWS;
  using base::TILE;
  using base::WARPS;
  using base::RADIX;
  using base::SPECULATE;
  using base::extractor;
  using base::offsets_of_rows;
  using base::DIFF;

  /// Keys a thread reads at once: 64 bytes' worth, at most HIST_ITEMS (a whole tile of 4-byte keys
  /// on the shipped policies, half a tile of 8-byte ones; 16 bytes of 2-byte floats, whose ordered
  /// image takes registers of its own): at most 64 registers a thread, no spills.
  static constexpr int FROWS_BYTES = key_traits<Key>::image_is_xor || sizeof(bits_type) > 2 ? 64 : 16;
  static constexpr int FROWS = ROWS < int(FROWS_BYTES / sizeof(bits_type)) ? ROWS : (FROWS_BYTES / sizeof(bits_type) > 0 ? int(FROWS_BYTES / sizeof(bits_type)) : 1);
  static constexpr int FTILE = THREADS * FROWS;  // the first read's tile
  /// Keys per vector load, and vectors per thread in a tile.
  static constexpr int VEC = vector_items<bits_type, FROWS>();
  static constexpr int VROWS = FROWS / VEC;
  static_assert(!SPECULATE || VROWS * WARPS <= THREADS, "top-k: vector rows x warps must not exceed HIST_THREADS");

  /// Where this thread's item `i` lies in a tile.
  __device__ __forceinline__ static u32 item_at(int i) {
    return (u32(i / VEC) * THREADS + threadIdx.x) * VEC + u32(i % VEC);
  }

  /// The bits in which `key` differs from the thread's reference key `ref` into `diff` (built-in
  /// keys; raw bits): one LOP3 a key.
  __device__ __forceinline__ static void note_diff(bits_type& diff, const bits_type& key, const bits_type& ref) {
    if constexpr (DIFF) {
      diff = bits_type(diff | bits_type(key ^ ref));
    } else {
      (void)diff;
      (void)key;
      (void)ref;
    }
  }

  /// A partial tile's first `valid` keys, one by one.
  __device__ __forceinline__ static void load_partial(const params_t& p, u64 tile, u64 valid, bits_type (&key)[FROWS]) {
RINGSWEEP_UNROLL
    for (int i = 0; i < FROWS; ++i) {
      if (item_at(i) < valid) key[i] = load_global(p.keys + tile + item_at(i));
    }
  }

  /// Block `r` counts the top digit of its range of the input into its row of `range_counts` and
  /// into `input_counts`, and (speculation) writes the keys whose top digit is at most its guess
  /// D_r to its part of buffer 1, in input order.
  __device__ __forceinline__ static void count_input(TempStorage& temp, const params_t& p) {
    u32* const bins = &temp.hist.bins[0][0];
    for (int d = int(threadIdx.x); d < RADIX; d += THREADS) bins[d] = 0;
    if (threadIdx.x == 0) {
      temp.spec_digit = u32(RADIX - 1);  // a range without a tile constrains nothing
      for (int b = 0; b < 3; ++b) temp.bits[b] = 0;
    }
    const int top = p.window.passes - 1;
    const u64 r = blockIdx.x;
    const u64 begin = min_of<u64>(p.n, r * p.span);
    const u64 end = min_of<u64>(p.n, begin + p.span);
    const bool speculating = SPECULATE && p.spec_cap != 0 && top >= 0;  // the call's
    bool spec = speculating;  // this range's: false once its candidates overflowed its part
    u64 spec_written = 0;
    const digit_extractor<Key> digit_of = top >= 0 ? extractor(p, top) : digit_extractor<Key>();
    // The head: the keys before the first aligned to a vector.
    u64 head = 0;
    if constexpr (VEC > 1) {
      constexpr u64 bytes = u64(VEC) * sizeof(bits_type);
      const u64 addr = reinterpret_cast<unsigned long long>(p.keys + begin);
      head = min_of<u64>(end - begin, ((bytes - addr % bytes) % bytes) / sizeof(bits_type));
    }
    bits_type head_key{};
    if (threadIdx.x < head) head_key = load_global(p.keys + begin + threadIdx.x);
    const u64 first = begin + head;  // the first tile's start, aligned to a vector
    __syncthreads();  // the bins are cleared
    // Which passes hold one digit (the first pick's uniform_passes): every thread ORs its keys XOR
    // its own first key (`ref`: no key loaded for it), and the block the threads' first keys'
    // bits, set and clear (input_bits). The range's first key, thread 0's, is a sample of the
    // input for the guessed key, stored from its register after the loop. (The input's first key
    // loaded by every thread, and the range's first key loaded again, were 1/16 and 1/2048 of a
    // read on 2048-key ranges: sort_traffic_test.)
    bits_type ref = head_key, diff{};
    if (top >= 0) {
      if constexpr (SPECULATE) {
        // Without a tile the guess constrains nothing (RADIX - 1); else the first tile's, below.
        if (spec && first >= end && head != 0) spec = speculate_head(temp, p, digit_of, head_key, begin, head, spec_written);
      }
      if (threadIdx.x < head) atomicAdd(&bins[digit_of(head_key)], 1u);
      for (u64 tile = first; tile < end; tile += FTILE) {
        bits_type key[FROWS];
        if (end - tile >= u64(FTILE)) {
          // sass: first_load
          load_block_vectorized<THREADS, VEC>(p.keys + tile, key);
          // sass: end
        } else {
          load_partial(p, tile, end - tile, key);  // sass: cold
        }
        // Item 0 is a thread's first key, if any is valid (a select, not a branch).
        if (DIFF) ref = tile == first && threadIdx.x >= head ? key[0] : ref;  // sass: cold
        if (SPECULATE && spec && tile == first) {
          // sass: cold
          // The guess from the first tile's keys (read once), then the head's candidates, first
          // in the range's part.
          guess_digit(temp, p, digit_of, key, end - tile);
          if (head != 0) spec = speculate_head(temp, p, digit_of, head_key, begin, head, spec_written);
          // sass: end
        }
        if (end - tile >= u64(FTILE)) {
          // A range that stopped speculating (its candidates overflowed) still ballots, for none:
          // the ballots stay out of a branch on a value the compiler cannot see is the block's.
          if (SPECULATE && speculating) {
            spec = count_speculate<true>(temp, p, bins, digit_of, key, tile, end, spec, spec_written, ref, diff);
          } else {
            // sass: first_plain
RINGSWEEP_UNROLL
            for (int i = 0; i < FROWS; ++i) {
              atomicAdd(&bins[digit_of(key[i])], 1u);
              note_diff(diff, key[i], ref);
            }
            // sass: end
          }
        } else {
          // sass: cold
          if (SPECULATE && speculating) {
            spec = count_speculate<false>(temp, p, bins, digit_of, key, tile, end, spec, spec_written, ref, diff);
          } else {
RINGSWEEP_UNROLL
            for (int i = 0; i < FROWS; ++i) {
              if (item_at(i) < end - tile) {
                atomicAdd(&bins[digit_of(key[i])], 1u);
                note_diff(diff, key[i], ref);
              }
            }
          }
          // sass: end
        }
      }
    }
    if constexpr (DIFF) {
      // A thread that read a key: the head's, or item 0 of the first tile.
      const bool read = threadIdx.x < head || (first < end && u64(threadIdx.x) * VEC < end - first);
      if (top >= 0 && read) {
        if (threadIdx.x == 0) store_global(p.samples + r, ref);  // the range's first key
        atomicOr(&temp.bits[0], (unsigned long long)ref);
        atomicOr(&temp.bits[1], (unsigned long long)bits_type(~ref));
        if (diff != 0) atomicOr(&temp.bits[2], (unsigned long long)diff);
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
    if (DIFF && threadIdx.x == 0) {
      for (int b = 0; b < 3; ++b) {
        if (temp.bits[b] != 0) atomicOr(reinterpret_cast<unsigned long long*>(p.input_bits + b), temp.bits[b]);
      }
    }
    if (top < 0) return;
    u32* row = p.range_counts + (r * u64(p.window.passes) + u64(top)) * RADIX;
    u64* const total = p.input_counts + u64(top) * RADIX;
    for (int d = int(threadIdx.x); d < RADIX; d += THREADS) {
      row[d] = bins[d];
      if (bins[d] != 0) atomicAdd(reinterpret_cast<unsigned long long*>(total + d), (unsigned long long)bins[d]);
    }
  }

  /// Speculation: D_r, the first top digit at which the range's first tile (`valid` keys from its
  /// first aligned key, at most a tile) holds `spec_need` keys (all of them, if fewer), into
  /// temp.spec_digit (every thread, after a barrier).
  __device__ __forceinline__ static void guess_digit(TempStorage& temp, const params_t& p,
                                                     const digit_extractor<Key>& digit_of,
                                                     const bits_type (&key)[FROWS], u64 valid) {
    // sass: cold
    // spec_need is a TILE's; the first read's tile may be a part of one.
    const u64 scaled = (u64(p.spec_need) * FTILE + TILE - 1) / TILE;
    const u32 need = u32(min_of<u64>(scaled, min_of<u64>(valid, FTILE)));
    for (int d = int(threadIdx.x); d < RADIX; d += THREADS) temp.spec_hist[d] = 0;
    __syncthreads();
RINGSWEEP_UNROLL
    for (int i = 0; i < FROWS; ++i) {
      if (item_at(i) < valid) atomicAdd(&temp.spec_hist[digit_of(key[i])], 1u);
    }
    base::pick_spec_digit(temp, need);
    // sass: end
  }

  /// Speculation: the head's keys (thread t < `head` holds key `begin + t`) at most D_r, as
  /// speculate does a tile's; the range's first candidates.
  __device__ __forceinline__ static bool speculate_head(TempStorage& temp, const params_t& p,
                                                        const digit_extractor<Key>& digit_of, const bits_type& key,
                                                        u64 begin, u64 head, u64& written) {
    // sass: cold
    const bool in = threadIdx.x < head && digit_of(key) <= temp.spec_digit;
    const u32 mask = __ballot_sync(0xffffffffu, in);  // the head lies in warp 0 (fewer than VEC keys)
    const u64 total = u64(__popc(mask));
    const bool fits = total <= p.spec_cap;
    if (fits && in) {
      const u64 at = u64(blockIdx.x) * p.spec_cap + written + u64(__popc(mask & lanemask_lt()));
      store_global(p.buf_keys[0] + at, key);
      store_global(p.buf_pos[0] + at, begin + threadIdx.x);
    }
    if (warp_threads < THREADS) {
      // Warp 0's count for the others.
      if (threadIdx.x == 0) temp.spec_rows[0] = total;
      __syncthreads();
      const u64 all = temp.spec_rows[0];
      __syncthreads();
      if (fits) written += all;
    } else if (fits) {
      written += total;
    }
    // sass: end
    return fits;
  }

  /// A tile's counts with speculation (`FULL`: a whole one, else its first `end - tile` keys):
  /// appends its keys whose top digit is at most D_r,
  /// with their positions, in input order, to the range's part of buffer 1; false (nothing
  /// written) when they would not fit: the range then stops speculating. A warp's vector row is
  /// 32 x VEC consecutive keys, lane by lane: a key's rank in it is the candidates of the lower
  /// lanes (a ballot per item of the vector) and its lane's earlier items. Only a bit a key and a
  /// count a vector row (in shared memory) outlive the block's scan of the rows: the candidates,
  /// few, are then loaded again (from cache) and written one by one, so that neither the keys nor
  /// per-key code stay past the counting.
  template <bool FULL>
  __device__ __forceinline__ static bool count_speculate(TempStorage& temp, const params_t& p, u32* bins,
                                                         const digit_extractor<Key>& digit_of,
                                                         const bits_type (&key)[FROWS], u64 tile, u64 end, bool spec,
                                                         u64& written, bits_type ref, bits_type& diff) {
    static_assert(FROWS <= 32, "top-k: a thread's candidates of a tile are a 32-bit mask");
    const int warp = int(threadIdx.x) / warp_threads;
    const u32 above = spec ? temp.spec_digit + 1u : 0u;  // candidates: digits below this
    const u32 lower_lanes = lanemask_lt();
    constexpr u32 VMASK = VEC == 32 ? ~0u : (1u << VEC) - 1u;
    u32 mine = 0;  // bit i: item i is a candidate
RINGSWEEP_UNROLL
    for (int v = 0; v < VROWS; ++v) {
      u32 lower = 0;
RINGSWEEP_UNROLL
      for (int j = 0; j < VEC; ++j) {
        // sass: first_count
        const bool valid = FULL || item_at(v * VEC + j) < end - tile;
        const u32 d = digit_of(key[v * VEC + j]);
        if (valid) {
          atomicAdd(&bins[d], 1u);
          note_diff(diff, key[v * VEC + j], ref);
        }
        // sass: first_speculate
        const bool in = valid && d < above;
        lower += u32(__popc(__ballot_sync(0xffffffffu, in) & lower_lanes));
        mine |= u32(in) << (v * VEC + j);
        // sass: end
      }
      // sass: first_speculate
      // Every lane its inclusive count (no lane's branch: ptxas would copy the loop for it).
      temp.spec_lanes[v * THREADS + int(threadIdx.x)] = lower + u32(__popc((mine >> (v * VEC)) & VMASK));
      // sass: end
    }
    // sass: first_append
    __syncthreads();
    // The (vector row, warp) counts (each warp's last lane's inclusive count) become offsets in
    // tile order: 32-bit, a tile holds fewer than 2^32 keys.
    const int t = int(threadIdx.x);
    const u32 count = t < VROWS * WARPS ? temp.spec_lanes[(t / WARPS) * THREADS + (t % WARPS) * warp_threads + warp_threads - 1] : 0u;
    u32 total = 0;
    const u32 before = block_scan<u32, THREADS>::exclusive_sum(temp.scan32, count, total);
    if (t < VROWS * WARPS) temp.spec_rows[t] = u64(before);
    __syncthreads();
    const bool fits = spec && written + total <= p.spec_cap;
    if (fits) {
      const u64 base_at = u64(blockIdx.x) * p.spec_cap + written;
      for (u32 left = mine; left != 0; left &= left - 1u) {
        const int i = __ffs(int(left)) - 1;
        const int v = i / VEC, j = i % VEC;
        const u32 row = (mine >> (v * VEC)) & VMASK;
        // the warp row's candidates before this lane (its inclusive count less its own), then its earlier items
        const u32 rank = temp.spec_lanes[v * THREADS + t] - u32(__popc(row)) + u32(__popc(row & ((1u << j) - 1u)));
        const u64 at = base_at + temp.spec_rows[v * WARPS + warp] + rank;
        const u64 from = tile + (u64(v) * THREADS + threadIdx.x) * VEC + u64(j);
        store_global(p.buf_keys[0] + at, load_global(p.keys + from));
        store_global(p.buf_pos[0] + at, from);
      }
      written += total;
    }
    __syncthreads();  // spec_rows, spec_lanes and the scan's storage are reused by the next tile
    // sass: end
    return fits;
  }

};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
