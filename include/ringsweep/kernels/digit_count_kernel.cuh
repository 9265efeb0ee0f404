// digit_count_kernel: the digit counts of one array on the device, for the host-resident sort's
// partition ops (device/host_sort_dispatch.cuh), which used to count their digit runs on the host,
// key by key, after every op (a serial pass over all the data, slower than the bus).
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

constexpr int digit_count_threads = 256;
constexpr int digit_count_radix = 256;

/// `counts[digit_of(keys[i])] += 1` for i < n (`counts`: 256 words, zeroed before; digits below
/// 256). A block counts in shared memory over a grid-stride loop, then adds its nonzero counts.
template <class Bits, class Extractor>
__global__ void __launch_bounds__(digit_count_threads)
    digit_count_kernel(const Bits* keys, std::size_t n, Extractor digit_of, unsigned* counts) {
  __shared__ unsigned local[digit_count_radix];
  for (int d = int(threadIdx.x); d < digit_count_radix; d += digit_count_threads) local[d] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t(gridDim.x) * digit_count_threads;
  for (std::size_t i = std::size_t(blockIdx.x) * digit_count_threads + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[digit_of(load_global(keys + i))], 1u);
  }
  __syncthreads();
  for (int d = int(threadIdx.x); d < digit_count_radix; d += digit_count_threads) {
    if (local[d] != 0) atomicAdd(&counts[d], local[d]);
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
