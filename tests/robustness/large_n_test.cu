// Large n on a GPU: 2^32 + 1000 one-byte keys (past every 32-bit count and across portions), their
// argsort with 64-bit indices (every index checked, those above 2^32 included), and 2^31 + 1000
// u32 keys when device memory allows. GPU only; skipped where the device is too small.
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

// keys[i] = i mod 256 (not sorted: the onesweep pass runs and makes every index).
__global__ void fill_mod256_kernel(std::uint8_t* keys, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    keys[i] = static_cast<std::uint8_t>(i);
  }
}

// The stable argsort of keys[i] = i mod 256 puts, at output position j of digit d's run (which
// starts at starts[d]), the index d + 256 * (j - starts[d]). counts: [0] wrong indices, [1] wrong
// indices at positions of 2^32 and above, [2] the first wrong position (atomicMin), [3] indices
// at or above 2^32 seen (so the case reaches them).
__global__ void check_argsort_kernel(const std::uint64_t* idx, std::size_t n, const unsigned long long* starts,
                                     unsigned long long* counts) {
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < n;
       j += std::size_t(gridDim.x) * blockDim.x) {
    int d = 0;
    for (int step = 128; step > 0; step /= 2) {  // the last run starting at or before j
      if (d + step < 256 && starts[d + step] <= j) d += step;
    }
    const unsigned long long want = static_cast<unsigned long long>(d) + 256ull * (j - starts[d]);
    if (idx[j] != want) {
      atomicAdd(&counts[0], 1ull);
      if (j >> 32) atomicAdd(&counts[1], 1ull);
      atomicMin(&counts[2], static_cast<unsigned long long>(j));
    }
    if (want >> 32) atomicAdd(&counts[3], 1ull);
  }
}

// argsort of 2^32 + 1000 one-byte keys with 64-bit indices: an index above 2^32 must be its
// position (the onesweep pass makes them from 64-bit tile and portion offsets).
void argsort_large() {
  const std::size_t n = (std::size_t(1) << 32) + 1000;
  std::size_t free_bytes = 0, total = 0;
  REQUIRE_CUDA(cudaMemGetInfo(&free_bytes, &total));
  std::size_t temp_bytes = 0;
  REQUIRE_CUDA(ringsweep::argsort(nullptr, temp_bytes, static_cast<const std::uint8_t*>(nullptr), nullptr,
                                  static_cast<std::uint64_t*>(nullptr), n));
  if (n * (1 + sizeof(std::uint64_t)) + temp_bytes + (std::size_t(1) << 28) > free_bytes) {
    WARN("skipped: argsort of n = " << n << " needs more device memory than the " << free_bytes << " bytes free");
    return;
  }
  ringsweep_test::device_buffer<std::uint8_t> in(n);
  ringsweep_test::device_buffer<std::uint64_t> idx(n);
  ringsweep_test::device_buffer<unsigned char> temp(temp_bytes);
  std::vector<unsigned long long> starts(256);
  for (std::size_t d = 0, at = 0; d < 256; ++d) {
    starts[d] = at;
    at += n / 256 + (d < n % 256 ? 1 : 0);  // how many i < n have i mod 256 == d
  }
  ringsweep_test::device_buffer<unsigned long long> d_starts(starts);
  ringsweep_test::device_buffer<unsigned long long> counts(std::vector<unsigned long long>{0, 0, ~0ull, 0});
  REQUIRE_CUDA(ringsweep_test::launch(fill_mod256_kernel, 4096, 256, 0, ringsweep_test::serial, in.data(), n));
  REQUIRE_CUDA(ringsweep::argsort(temp.data(), temp_bytes, in.data(), nullptr, idx.data(), n));
  REQUIRE_CUDA(ringsweep_test::launch(check_argsort_kernel, 4096, 256, 0, ringsweep_test::serial, idx.data(), n,
                                      d_starts.data(), counts.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned long long> c = counts.download();
  INFO("wrong indices " << c[0] << " (" << c[1] << " at positions of 2^32 and above), the first at " << c[2]);
  CHECK(c[0] == 0ull);
  CHECK(c[3] > 0ull);  // indices above 2^32 were made and checked
}

}  // namespace

TEST_CASE("2^32 + 1000 one-byte keys", "[large][gpu]") { sort_large<std::uint8_t>((std::size_t(1) << 32) + 1000); }
TEST_CASE("2^31 + 1000 u32 keys", "[large][gpu]") { sort_large<std::uint32_t>((std::size_t(1) << 31) + 1000); }
TEST_CASE("argsort of 2^32 + 1000 one-byte keys with 64-bit indices", "[large][gpu][argsort]") { argsort_large(); }
