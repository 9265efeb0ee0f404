// Large n on a GPU: 2^32 + 1000 one-byte keys (past every 32-bit count and across portions), and
// 2^31 + 1000 u32 keys when device memory allows. GPU only; skipped where the device is too small.
#include <catch2/catch.hpp>

#include <vector>

#include "robustness_util.cuh"

namespace {

// Fills keys[i] with a hash of i, on the device.
template <class T>
__global__ void fill_kernel(T* keys, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned long long x = (i + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    keys[i] = static_cast<T>(x * 0xBF58476D1CE4E5B9ull >> 32);
  }
}

// Counts positions where keys[i] > keys[i+1], and a histogram of the low byte of the keys.
template <class T>
__global__ void check_kernel(const T* keys, std::size_t n, unsigned long long* inversions, unsigned long long* hist) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (i + 1 < n && keys[i] > keys[i + 1]) atomicAdd(inversions, 1ull);
    atomicAdd(&hist[static_cast<unsigned>(keys[i]) & 255u], 1ull);
  }
}

template <class T>
void sort_large(std::size_t n) {
  std::size_t free_bytes = 0, total = 0;
  REQUIRE_CUDA(cudaMemGetInfo(&free_bytes, &total));
  std::size_t temp_bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_keys<T>(nullptr, temp_bytes, nullptr, nullptr, n));
  if (2 * n * sizeof(T) + temp_bytes + (std::size_t(1) << 28) > free_bytes) {
    WARN("skipped: n = " << n << " needs more device memory than the " << free_bytes << " bytes free");
    return;
  }
  ringsweep_test::device_buffer<T> in(n), out(n);
  ringsweep_test::device_buffer<unsigned char> temp(temp_bytes);
  // counts: [0] inversions of the output, [1, 257) its low-byte histogram; [257] inversions of
  // the input (ignored), [258, 514) its histogram.
  ringsweep_test::device_buffer<unsigned long long> counts(514);
  counts.fill_bytes(0);
  REQUIRE_CUDA(ringsweep_test::launch(fill_kernel<T>, 4096, 256, 0, ringsweep_test::serial, in.data(), n));
  REQUIRE_CUDA(
      ringsweep_test::launch(check_kernel<T>, 4096, 256, 0, ringsweep_test::serial,
                             in.data(), n, counts.data() + 257, counts.data() + 258));
  REQUIRE_CUDA(ringsweep::sort_keys(temp.data(), temp_bytes, in.data(), out.data(), n));
  REQUIRE_CUDA(ringsweep_test::launch(check_kernel<T>, 4096, 256, 0, ringsweep_test::serial,
                                      out.data(), n, counts.data(), counts.data() + 1));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned long long> c = counts.download();
  CHECK(c[0] == 0ull);  // sorted
  bool same = true;     // the same multiset of low bytes: a permutation check that fits on the device
  for (int b = 0; b < 256; ++b) same = same && c[1 + b] == c[258 + b];
  CHECK(same);
}

}  // namespace

TEST_CASE("2^32 + 1000 one-byte keys", "[large][gpu]") { sort_large<std::uint8_t>((std::size_t(1) << 32) + 1000); }
TEST_CASE("2^31 + 1000 u32 keys", "[large][gpu]") { sort_large<std::uint32_t>((std::size_t(1) << 31) + 1000); }
