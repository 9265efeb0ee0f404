// histogram_tile: the upfront pass that counts the digits of every pass with one read of the keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../block/block_histogram.cuh"
#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "../detail/sort_window.cuh"
#include "../detail/intrinsics.cuh"
#include "../key_traits.cuh"
#include "../policy.cuh"
#include "kernel_arrays.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the histogram kernel.
template <class Key>
struct histogram_params : histogram_arrays<Key> {  // counts: passes x RADIX
  std::size_t n;
  u32* unsorted;    // zeroed; set when a key is out of order for the sort (sorted-input detection)
  count_source count;  // a count on the device (then `n` is its bound), or none
};

/// A persistent block: walks tiles `blockIdx.x, blockIdx.x + gridDim.x, ...`, counting each key's
/// digit of every pass in shared memory, then adds its counts to the global ones.
///
/// It also detects sorted input: while every key it has seen is in order for the sort (the bit
/// window of the image, direction included: non-decreasing images ascending, non-increasing
/// descending; equal keys count as in order), each tile compares every key with the next one,
/// across threads by shuffles, across warps through shared memory, and across tiles with one
/// second read of the next tile's first key. A key out of order sets `unsorted`, and the block
/// stops checking. The bins scan then skips every pass of a sorted input. Custom (decomposed) keys
/// are checked on their image too: in the word they move as (1, 2, 4 or 8 bytes), or as two
/// 64-bit words for wider ones (images up to 128 bits, the 128-bit integers among them).
///
///     __shared__ typename histogram_tile<Config>::TempStorage temp;   // Config: a sort_config
///     histogram_tile<Config>(temp, params).process();
template <class Config>
class histogram_tile {
 public:
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using bits_type = typename key_traits<Key>::bits_type;
  static constexpr int THREADS = Policy::HIST_THREADS;
  static constexpr int ITEMS = Policy::HIST_ITEMS;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int MAX_PASSES = ceil_div(int(sizeof(bits_type)) * 8, Policy::RADIX_BITS);
  using histogram_t = block_histogram<THREADS, MAX_PASSES, Policy::RADIX_BITS>;

  static constexpr int WARPS = THREADS / warp_threads;
  /// A key's place for the order check: its window bits as one unsigned number, in the word it
  /// moves as, or (custom keys of other sizes) as two 64-bit words, the high one first.
  struct wide_place {
    u64 hi, lo;
    __device__ __forceinline__ friend bool operator<=(const wide_place& a, const wide_place& b) {
      return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo);
    }
    __device__ __forceinline__ friend bool operator>(const wide_place& a, const wide_place& b) { return !(a <= b); }
  };
  static constexpr bool WORD = std::is_integral<bits_type>::value;
  using place_t = typename std::conditional<WORD, bits_type, wide_place>::type;

  struct TempStorage {
    typename histogram_t::TempStorage hist;
    place_t row_first[ITEMS][WARPS];  // order check: each warp's first key of each row of groups
  };

  __device__ __forceinline__ histogram_tile(TempStorage& temp, const histogram_params<Key>& p)
      : hist_(temp.hist), row_first_(temp.row_first), p_(p) {}

  __device__ __forceinline__ void process() {
    hist_.clear();
    __syncthreads();
    // Recomputed from the bits rather than read (window.passes): read, it cost the sm_80 histogram of
    // decomposed keys 20 bytes of spills.
    const int passes = digit_window::passes(p_.window.begin_bit, p_.window.end_bit, Policy::RADIX_BITS);
    const std::size_t n = std::size_t(p_.count.resolve(p_.n));
    // Keys before the first VEC-aligned address are counted one by one (block 0, fewer than VEC);
    // full tiles after them are read with vector loads, the ragged last tile one key at a time.
    constexpr std::size_t VEC_BYTES = std::size_t(VEC) * sizeof(bits_type);
    const std::size_t misaligned =
        std::size_t(reinterpret_cast<std::uintptr_t>(p_.keys) % VEC_BYTES) / sizeof(bits_type);
    const std::size_t head = min_of<std::size_t>(n, misaligned == 0 ? 0 : std::size_t(VEC) - misaligned);
    if (blockIdx.x == 0 && threadIdx.x < head) {
      // sass: cold
      bits_type key[1] = {p_.keys[threadIdx.x]};
      count<true>(key, 1, passes);
      // The head's keys against their successors (the last one's is the body's first key).
      if (threadIdx.x + 1 < n && window(key[0]) > window(image(peek_global(p_.keys + threadIdx.x + 1)))) {
        store_relaxed(p_.unsorted, 1u);
      }
      // sass: end
    }
    const bits_type* body = p_.keys + head;
    const std::size_t m = n - head;
    bool checking = true;  // until this block finds a key out of order
    for (std::size_t first = std::size_t(blockIdx.x) * TILE; first < m; first += std::size_t(gridDim.x) * TILE) {
      bits_type keys[ITEMS];
      if (m - first >= std::size_t(TILE)) {
        // sass: hist_load
        load_block_vectorized<THREADS, VEC>(body + first, keys);
        // sass: end
        count<true>(keys, TILE, passes);  // its regions: hist_image, hist_pass
        // sass: hist_check
        if (checking) checking = tile_in_order<VEC>(keys, TILE, body, first, m);
        // sass: end
      } else {
        // sass: cold
        const int valid = int(m - first);
        if constexpr (key_context<Key>::custom_key) {  // defined bytes through the decomposer (no warnings)
RINGSWEEP_UNROLL
          for (int k = 0; k < ITEMS; ++k) keys[k] = bits_type{};
        }
        load_block_striped<THREADS>(body + first, valid, keys);
        count<false>(keys, valid, passes);
        if (checking) checking = tile_in_order<1>(keys, valid, body, first, m);
        // sass: end
      }
    }
    __syncthreads();
    hist_.flush(p_.counts, passes);
  }

 private:
  static constexpr int VEC = vector_items<bits_type, ITEMS>();

  /// Counts every pass's digit of `keys` (all of them when FULL, else block-striped item `k` when
  /// `k * THREADS + threadIdx.x < valid`). Each key's order-preserving image is made once, in place,
  /// and only shifted and masked per pass (pass-outer, so no per-pass state stays live).
  template <bool FULL, int N>
  __device__ __forceinline__ void count(bits_type (&keys)[N], int valid, int passes) {
    // sass: hist_image
    const digit_extractor<Key> image_of = p_.window.image(p_);
RINGSWEEP_UNROLL
    for (int k = 0; k < N; ++k) keys[k] = image_of.image(keys[k]);
    // sass: hist_pass
    for (int pass = 0; pass < passes; ++pass) {
      const digit_window w = p_.window.template pass<Policy::RADIX_BITS>(pass);
      const u32 mask = w.mask();
RINGSWEEP_UNROLL
      for (int k = 0; k < N; ++k) {
        if (FULL || k * THREADS + int(threadIdx.x) < valid) hist_.add(pass, u32(keys[k] >> w.shift) & mask);
      }
    }
    // sass: end
  }

  /// A key's order-preserving image, complemented for a descending sort (raw bits in).
  __device__ __forceinline__ bits_type image(bits_type raw) const {
    return p_.window.image(p_).image(raw);
  }
  /// The bits of an image the sort orders by: its window, as an unsigned number (place_t).
  __device__ __forceinline__ place_t window(bits_type img) const {
    const int begin = p_.window.begin_bit;
    const int width = p_.window.end_bit - begin;
    if constexpr (WORD) {
      constexpr int BITS = int(sizeof(bits_type)) * 8;
      const bits_type shifted = bits_type(img >> begin);
      return width >= BITS ? shifted : bits_type(shifted & bits_type((bits_type(1) << width) - 1));
    } else {
      // Shifted down, not masked in place (the same order for fewer instructions): in place, ptxas
      // gave the sm_90 {float, int64} kernel 96 registers and 12 bytes of spills.
      wide_place w{img >> 64, img >> 0};  // key_words' words of the image (the high one 0 up to 8 bytes)
      if (begin >= 64) {
        w.lo = w.hi >> (begin - 64);
        w.hi = 0;
      } else if (begin > 0) {
        w.lo = w.lo >> begin | w.hi << (64 - begin);
        w.hi >>= begin;
      }
      if (width < 64) {
        w.hi = 0;
        w.lo &= (u64(1) << width) - 1;
      } else if (width < 128) {
        w.hi &= (u64(1) << (width - 64)) - 1;
      }
      return w;
    }
  }
  /// The next lane's place (the last lane gets its own).
  __device__ __forceinline__ static place_t next_lane(const place_t& x) {
    if constexpr (WORD) {
      using shuffled = typename std::conditional<(sizeof(bits_type) < 4), u32, bits_type>::type;
      return bits_type(__shfl_down_sync(0xffffffffu, shuffled(x), 1u));
    } else {
      return wide_place{__shfl_down_sync(0xffffffffu, x.hi, 1u), __shfl_down_sync(0xffffffffu, x.lo, 1u)};
    }
  }

  /// Whether the tile starting at `first` of `body` (its `valid` keys' images in `imgs`, in
  /// groups of `GROUP` consecutive keys: thread t's group j is tile keys (j * THREADS + t) * GROUP
  /// on) is in order, the next tile's first key included; marks the sort unsorted if not. Called by
  /// every thread of the block.
  template <int GROUP>
  __device__ __forceinline__ bool tile_in_order(const bits_type (&imgs)[ITEMS], int valid, const bits_type* body,
                                                std::size_t first, std::size_t m) {
    constexpr int ROWS = ITEMS / GROUP;
    const int lane = int(lane_id());
    const int warp = int(threadIdx.x) / warp_threads;
    if (lane == 0) {
RINGSWEEP_UNROLL
      for (int j = 0; j < ROWS; ++j) row_first_[j][warp] = window(imgs[j * GROUP]);
    }
    __syncthreads();
    bool ok = true;
RINGSWEEP_UNROLL
    for (int j = 0; j < ROWS; ++j) {
      const int at = (j * THREADS + int(threadIdx.x)) * GROUP;  // the group's first key in the tile
RINGSWEEP_UNROLL
      for (int v = 0; v + 1 < GROUP; ++v) {
        if (at + v + 1 < valid) ok = ok && window(imgs[j * GROUP + v]) <= window(imgs[j * GROUP + v + 1]);
      }
      // The next group's first key: the next lane's, the next warp's, the next row's, or the
      // next tile's.
      const place_t lane_next = next_lane(window(imgs[j * GROUP]));
      const int next = at + GROUP;
      if (next < valid) {
        const place_t succ = lane + 1 < warp_threads ? lane_next
                               : warp + 1 < WARPS      ? row_first_[j][warp + 1]
                                                       : row_first_[j + 1 < ROWS ? j + 1 : j][0];
        ok = ok && window(imgs[j * GROUP + GROUP - 1]) <= succ;
      } else if (next == valid && first + std::size_t(valid) < m) {
        ok = ok && window(imgs[j * GROUP + GROUP - 1]) <= window(image(peek_global(body + first + valid)));
      }
    }
    const bool out_of_order = __syncthreads_or(ok ? 0 : 1) != 0;
    if (out_of_order && threadIdx.x == 0) store_relaxed(p_.unsorted, 1u);
    return !out_of_order;
  }

  histogram_t hist_;
  place_t (&row_first_)[ITEMS][WARPS];
  const histogram_params<Key>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
