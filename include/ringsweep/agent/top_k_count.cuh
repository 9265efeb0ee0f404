// top_k_count: the select's first read of the input (top_k_count_kernel): every range's digit counts
// and its speculative candidates (docs/design.md section 15).
#pragma once

#include "top_k_select.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The count phase of top_k_select<Config>: one block per range.
template <class Config>
struct top_k_count : top_k_select<Config> {
  using base = top_k_select<Config>;
  using Key = typename base::Key;
  using bits_type = typename base::bits_type;
  using params_t = typename base::params_t;
  using TempStorage = typename base::TempStorage;
  using histogram_t = typename base::histogram_t;
  using base::THREADS;
  using base::ROWS;
  using base::TILE;
  using base::WARPS;
  using base::RADIX;
  using base::SPECULATE;
  using base::extractor;
  using base::offsets_of_rows;
  using base::first_digit_holding;

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

  /// Speculation: D_r, the first digit of the speculation pass at which the range's first tile
  /// (`valid` keys, in `key`) holds `spec_need` keys (all of them, if fewer), into temp.spec_digit.
  __device__ __forceinline__ static void guess_digit(TempStorage& temp, const params_t& p,
                                                     const digit_extractor<Key>& spec_of, const bits_type (&key)[ROWS],
                                                     u64 valid) {
    first_digit_holding(temp, u32(min_of<u64>(p.spec_need, min_of<u64>(valid, TILE))), spec_of, key, valid);
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
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
