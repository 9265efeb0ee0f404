// block_histogram: digit counts of every pass at once, in shared memory.
#pragma once

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Shared-memory histograms of up to `MAX_PASSES` digit passes of `RADIX` bins each.
///
///     using hist_t = block_histogram<256, 4, 8>;
///     __shared__ hist_t::TempStorage temp;
///     hist_t h(temp);
///     h.clear();  __syncthreads();
///     h.add(pass, digit);          // any thread, any number of times
///     __syncthreads();
///     h.flush(global_counts, passes);   // atomically added to passes * RADIX 64-bit counters
template <int THREADS, int MAX_PASSES, int RADIX_BITS>
class block_histogram {
 public:
  static constexpr int RADIX = 1 << RADIX_BITS;
  struct TempStorage {
    u32 bins[MAX_PASSES][RADIX];
  };

  __device__ __forceinline__ explicit block_histogram(TempStorage& temp) : temp_(temp) {}

  __device__ __forceinline__ void clear() {
    u32* flat = &temp_.bins[0][0];
    for (int i = int(threadIdx.x); i < MAX_PASSES * RADIX; i += THREADS) flat[i] = 0;
  }

  __device__ __forceinline__ void add(int pass, u32 digit) { atomicAdd(&temp_.bins[pass][digit], 1u); }

  __device__ __forceinline__ void flush(u64* global, int passes) const {
    const u32* flat = &temp_.bins[0][0];
    for (int i = int(threadIdx.x); i < passes * RADIX; i += THREADS) {
      const u32 c = flat[i];
      if (c != 0) atomicAdd(global + i, u64(c));
    }
  }

 private:
  TempStorage& temp_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
