// histogram_tile: the upfront pass that counts the digits of every pass with one read of the keys.
#pragma once

#include "../block/block_histogram.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "../policy.cuh"

namespace ringsweep {
namespace detail {

/// Arguments of the histogram kernel.
template <class Key>
struct histogram_params {
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
    const int passes = ceil_div(p_.end_bit - p_.begin_bit, Policy::RADIX_BITS);
    for (std::size_t first = std::size_t(blockIdx.x) * TILE; first < p_.n; first += std::size_t(gridDim.x) * TILE) {
      const int valid = int(min_of<std::size_t>(TILE, p_.n - first));
      bits_type keys[ITEMS];
      load_block_striped<THREADS>(p_.keys + first, valid, keys);
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        if (k * THREADS + int(threadIdx.x) < valid) {
          for (int pass = 0; pass < passes; ++pass) {
            const int shift = p_.begin_bit + pass * Policy::RADIX_BITS;
            const digit_extractor<Key> digit_of(p_.descending, shift, min_of(Policy::RADIX_BITS, p_.end_bit - shift));
            hist_.add(pass, digit_of(keys[k]));
          }
        }
      }
    }
    __syncthreads();
    hist_.flush(p_.counts, passes);
  }

 private:
  histogram_t hist_;
  const histogram_params<Key>& p_;
};

}  // namespace detail
}  // namespace ringsweep
