// Nothing lost when memory runs out: the in-place sorts, which allocate their scratch with
// cudaMallocAsync, return cudaErrorMemoryAllocation with keys and values bit-identical, and the
// error is not sticky (the next sort succeeds). On the SIMT backend the failure is injected
// (simt::fail_allocation, RINGSWEEP_SIMT_FAIL_ALLOC); on a GPU the device memory is really
// exhausted first.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "test_util.cuh"

#if defined(RINGSWEEP_SIMT_BACKEND)
#include <ringsweep_simt/control.hpp>
#endif

using ringsweep_test::device_buffer;

namespace {

#if defined(RINGSWEEP_SIMT_BACKEND)
constexpr std::size_t k_n = 50000;
#else
constexpr std::size_t k_n = std::size_t{1} << 22;  // scratch of 16 MiB and more: beyond what the hog leaves
#endif

struct pairs_data {
  std::vector<std::uint32_t> keys = ringsweep_test::random_keys<std::uint32_t>(k_n, ringsweep_test::catch_seed() + 11);
  std::vector<std::uint64_t> values = ringsweep_test::random_keys<std::uint64_t>(k_n, ringsweep_test::catch_seed() + 12);
  device_buffer<std::uint32_t> d_keys{keys};
  device_buffer<std::uint64_t> d_values{values};

  // Both arrays exactly as uploaded.
  void require_unchanged() const {
    CHECK(d_keys.download() == keys);
    CHECK(d_values.download() == values);
  }
  // A stable sort by key, against std::stable_sort.
  void require_sorted(bool with_values) const {
    std::vector<std::uint32_t> index(k_n);
    std::iota(index.begin(), index.end(), 0u);
    std::stable_sort(index.begin(), index.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    std::vector<std::uint32_t> want_keys(k_n);
    std::vector<std::uint64_t> want_values(k_n);
    for (std::size_t i = 0; i < k_n; ++i) {
      want_keys[i] = keys[index[i]];
      want_values[i] = values[index[i]];
    }
    CHECK(d_keys.download() == want_keys);
    if (with_values) CHECK(d_values.download() == want_values);
  }
};

// The in-place sorts fail with the allocation error, leave everything as it was, and succeed
// when tried again. `exhaust` makes the next allocation fail; `restore` undoes it.
template <class Exhaust, class Restore>
void check_in_place_sorts(Exhaust exhaust, Restore restore) {
  SECTION("sort_keys") {
    pairs_data d;
    exhaust();
    const cudaError_t e = ringsweep::sort_keys(d.d_keys.data(), k_n);
    restore();
    CHECK(e == cudaErrorMemoryAllocation);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    d.require_unchanged();
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);  // reported once, then cleared
    REQUIRE_CUDA(ringsweep::sort_keys(d.d_keys.data(), k_n));
    REQUIRE_CUDA_LAUNCH();
    d.require_sorted(false);
  }
  SECTION("sort_pairs") {
    pairs_data d;
    exhaust();
    const cudaError_t e = ringsweep::sort_pairs(d.d_keys.data(), d.d_values.data(), k_n);
    restore();
    CHECK(e == cudaErrorMemoryAllocation);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    d.require_unchanged();
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
    REQUIRE_CUDA(ringsweep::sort_pairs(d.d_keys.data(), d.d_values.data(), k_n));
    REQUIRE_CUDA_LAUNCH();
    d.require_sorted(true);
  }
}

}  // namespace

#if defined(RINGSWEEP_SIMT_BACKEND)

TEST_CASE("in-place sorts whose allocation fails change nothing and can be retried", "[robustness][alloc]") {
  check_in_place_sorts([] { simt::fail_allocation(1); }, [] { simt::fail_allocation(0); });
}

TEST_CASE("simt::fail_allocation fails exactly the k-th allocation call, once", "[robustness][alloc]") {
  void* p[3] = {nullptr, nullptr, nullptr};
  const unsigned long long before = simt::allocation_calls();
  simt::fail_allocation(2);
  CHECK(cudaMalloc(&p[0], 64) == cudaSuccess);
  CHECK(cudaMallocHost(&p[1], 64) == cudaErrorMemoryAllocation);  // the second call
  CHECK(p[1] == nullptr);
  CHECK(cudaMallocAsync(&p[2], 64, 0) == cudaSuccess);          // only once
  CHECK(simt::allocation_calls() == before + 3);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  CHECK_CUDA(cudaFree(p[0]));
  CHECK_CUDA(cudaFreeAsync(p[2], 0));
}

// Registered once more with RINGSWEEP_SIMT_FAIL_ALLOC=40 (tests/robustness/CMakeLists.txt): burns
// allocation calls up to the 39th, so that the sort's own allocation is the 40th of the process.
TEST_CASE("RINGSWEEP_SIMT_FAIL_ALLOC=k fails the k-th allocation call of the process", "[.][fail_alloc_env]") {
  const char* env = std::getenv("RINGSWEEP_SIMT_FAIL_ALLOC");
  REQUIRE(env != nullptr);
  const unsigned long long k = std::strtoull(env, nullptr, 10);
  pairs_data d;
  REQUIRE(simt::allocation_calls() < k - 1);
  while (simt::allocation_calls() < k - 1) {
    void* p = nullptr;
    REQUIRE_CUDA(cudaMalloc(&p, 16));
    REQUIRE_CUDA(cudaFree(p));
  }
  CHECK(ringsweep::sort_pairs(d.d_keys.data(), d.d_values.data(), k_n) == cudaErrorMemoryAllocation);
  CHECK(simt::allocation_calls() == k);
  d.require_unchanged();
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  REQUIRE_CUDA(ringsweep::sort_pairs(d.d_keys.data(), d.d_values.data(), k_n));
  REQUIRE_CUDA_LAUNCH();
  d.require_sorted(true);
}

// The backend's copy failure, which the distributed sort's tests inject on one rank
// (tests/distributed): the k-th copy call from now fails once, as a copy that failed part-way.
TEST_CASE("simt::fail_copy fails exactly the k-th copy call, once, its destination garbage", "[robustness][copy]") {
  const std::vector<std::uint32_t> src(16, 0x01020304u);
  std::vector<std::uint32_t> dst(16, 7u);
  const std::vector<std::uint32_t> garbage(16, 0xA5A5A5A5u);
  device_buffer<std::uint32_t> d(std::vector<std::uint32_t>(16, 0u));
  const unsigned long long before = simt::copy_calls();
  simt::fail_copy(2);
  CHECK(cudaMemcpy(d.data(), src.data(), 64, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemsetAsync(d.data(), 0, 4, 0) == cudaSuccess);  // not a copy call
  CHECK(cudaMemcpyAsync(dst.data(), d.data(), 64, cudaMemcpyDeviceToHost, 0) == cudaErrorLaunchFailure);
  CHECK(dst == garbage);
  CHECK(cudaMemcpy(dst.data(), d.data(), 64, cudaMemcpyDeviceToHost) == cudaSuccess);  // only once
  CHECK(dst[0] == 0u);
  CHECK(std::equal(dst.begin() + 1, dst.end(), src.begin() + 1));
  CHECK(simt::copy_calls() == before + 3);
  CHECK(cudaGetLastError() == cudaErrorLaunchFailure);  // recorded, then cleared: not sticky
  CHECK(cudaGetLastError() == cudaSuccess);
  // A failing call whose arguments are wrong reports them instead, and uses the failure up.
  simt::fail_copy(1);
  CHECK(cudaMemcpy(nullptr, src.data(), 4, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(dst.data(), src.data(), 64, cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(dst == src);
  simt::fail_copy(3);
  simt::fail_copy(0);  // disarmed
  for (int i = 0; i < 4; ++i) CHECK(cudaMemcpy(dst.data(), src.data(), 64, cudaMemcpyHostToHost) == cudaSuccess);
  cudaGetLastError();
}

// Registered once more with RINGSWEEP_SIMT_FAIL_COPY=5 (tests/robustness/CMakeLists.txt): burns
// copy calls up to the 4th (the uploads of the data are two), so that a download is the 5th.
TEST_CASE("RINGSWEEP_SIMT_FAIL_COPY=k fails the k-th copy call of the process", "[.][fail_copy_env]") {
  const char* env = std::getenv("RINGSWEEP_SIMT_FAIL_COPY");
  REQUIRE(env != nullptr);
  const unsigned long long k = std::strtoull(env, nullptr, 10);
  pairs_data d;
  REQUIRE(simt::copy_calls() < k - 1);
  std::uint32_t word = 0;
  while (simt::copy_calls() < k - 1) REQUIRE_CUDA(cudaMemcpy(&word, &word, 0, cudaMemcpyHostToHost));
  std::vector<std::uint32_t> host(k_n, 0u);
  CHECK(cudaMemcpy(host.data(), d.d_keys.data(), k_n * 4, cudaMemcpyDeviceToHost) == cudaErrorLaunchFailure);
  CHECK(simt::copy_calls() == k);
  CHECK(host == std::vector<std::uint32_t>(k_n, 0xA5A5A5A5u));
  CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
  d.require_unchanged();  // a download: the source was never written, and the next copy works
}

#else

namespace {
// Holds all but a little of the device's free memory (less than an in-place sort of k_n pairs
// needs), so that the sort's cudaMallocAsync fails for real.
struct memory_hog {
  void* p = nullptr;
  void grab() {
    std::size_t free_bytes = 0, total_bytes = 0;
    REQUIRE_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    for (std::size_t margin = std::size_t{1} << 20; margin < k_n * sizeof(std::uint32_t) && margin < free_bytes;
         margin *= 2) {
      if (cudaMalloc(&p, free_bytes - margin) == cudaSuccess) break;
      p = nullptr;
    }
    (void)cudaGetLastError();  // the attempts that did not fit
    REQUIRE(p != nullptr);
  }
  void release() {
    CHECK_CUDA(cudaFree(p));
    p = nullptr;
  }
};
}  // namespace

TEST_CASE("in-place sorts without device memory left change nothing and can be retried", "[robustness][alloc]") {
  memory_hog hog;
  check_in_place_sorts([&] { hog.grab(); }, [&] { hog.release(); });
}

#endif
