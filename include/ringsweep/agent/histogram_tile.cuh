// histogram_tile: the upfront pass that counts the digits of every pass with one read of the keys.
#pragma once

#include <cstdint>

#include "../block/block_histogram.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../detail/digit_window.cuh"
#include "../key_traits.cuh"
#include "../policy.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the histogram kernel.
template <class Key>
struct histogram_params : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  const bits_type* keys;
  std::size_t n;
  u64* counts;      // passes x RADIX, zeroed; receives the digit counts of every pass
  int begin_bit;
  int end_bit;
  bool descending;
};

/// A persistent block: walks tiles `blockIdx.x, blockIdx.x + gridDim.x, ...`, counting each key's
/// digit of every pass in shared memory, then adds its counts to the global ones.
///
///     __shared__ typename histogram_tile<P, Key>::TempStorage temp;
///     histogram_tile<P, Key>(temp, params).process();
template <class Policy, class Key>
class histogram_tile {
 public:
  using bits_type = typename key_traits<Key>::bits_type;
  static constexpr int THREADS = Policy::HIST_THREADS;
  static constexpr int ITEMS = Policy::HIST_ITEMS;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int MAX_PASSES = ceil_div(int(sizeof(bits_type)) * 8, Policy::RADIX_BITS);
  using histogram_t = block_histogram<THREADS, MAX_PASSES, Policy::RADIX_BITS>;

  struct TempStorage {
    typename histogram_t::TempStorage hist;
  };

  __device__ __forceinline__ histogram_tile(TempStorage& temp, const histogram_params<Key>& p)
      : hist_(temp.hist), p_(p) {}

  __device__ __forceinline__ void process() {
    hist_.clear();
    __syncthreads();
    const int passes = digit_window::passes(p_.begin_bit, p_.end_bit, Policy::RADIX_BITS);
    // Keys before the first VEC-aligned address are counted one by one (block 0, fewer than VEC);
    // full tiles after them are read with vector loads, the ragged last tile one key at a time.
    constexpr std::size_t VEC_BYTES = std::size_t(VEC) * sizeof(bits_type);
    const std::size_t misaligned =
        std::size_t(reinterpret_cast<std::uintptr_t>(p_.keys) % VEC_BYTES) / sizeof(bits_type);
    const std::size_t head = min_of<std::size_t>(p_.n, misaligned == 0 ? 0 : std::size_t(VEC) - misaligned);
    if (blockIdx.x == 0 && threadIdx.x < head) {
      bits_type key[1] = {p_.keys[threadIdx.x]};
      count<true>(key, 1, passes);
    }
    const bits_type* body = p_.keys + head;
    const std::size_t m = p_.n - head;
    for (std::size_t first = std::size_t(blockIdx.x) * TILE; first < m; first += std::size_t(gridDim.x) * TILE) {
      bits_type keys[ITEMS];
      if (m - first >= std::size_t(TILE)) {
        load_block_vectorized<THREADS, VEC>(body + first, keys);
        count<true>(keys, TILE, passes);
      } else {
        const int valid = int(m - first);
        if constexpr (key_context<Key>::custom_key) {  // defined bytes through the decomposer (no warnings)
RINGSWEEP_UNROLL
          for (int k = 0; k < ITEMS; ++k) keys[k] = bits_type{};
        }
        load_block_striped<THREADS>(body + first, valid, keys);
        count<false>(keys, valid, passes);
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
    const digit_extractor<Key> image_of = p_.extractor(p_.descending, digit_window{});
RINGSWEEP_UNROLL
    for (int k = 0; k < N; ++k) keys[k] = image_of.image(keys[k]);
    for (int pass = 0; pass < passes; ++pass) {
      const digit_window w = digit_window::of_pass(p_.begin_bit, p_.end_bit, Policy::RADIX_BITS, pass);
      const u32 mask = w.mask();
RINGSWEEP_UNROLL
      for (int k = 0; k < N; ++k) {
        if (FULL || k * THREADS + int(threadIdx.x) < valid) hist_.add(pass, u32(keys[k] >> w.shift) & mask);
      }
    }
  }

  histogram_t hist_;
  const histogram_params<Key>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
