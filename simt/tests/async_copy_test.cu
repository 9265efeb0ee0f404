// Asynchronous copies to shared memory (<cuda_pipeline_primitives.h>: cp.async on sm_80) with
// their real visibility rule: a copy's bytes are in shared memory once its thread has waited for its
// batch (__pipeline_wait_prior), and in other threads' view after a barrier that follows. Both
// backends check what is guaranteed (sizes 4, 8, 16, zfill, batches landing oldest first). The
// SIMT-only case checks what the backend does where a GPU gives no guarantee: before the wait the
// destination still holds its old bytes (0xA5 under RINGSWEEP_SIMT_POISON=1, run by ctest), and a
// younger batch has not landed after waiting for an older one.
#include <catch2/catch.hpp>

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>
#include <ringsweep/detail/intrinsics.cuh>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

constexpr unsigned threads = 64;
constexpr unsigned words = 4 * threads;  // 16 bytes per thread

// Each thread copies its 16 bytes of `in` as one 16-byte, two 8-byte or four 4-byte copies (by
// `size`), the last `zfill` bytes zero-filled; after the wait and a barrier, thread t writes what
// thread t+1 copied to `out`.
__global__ void landing_kernel(const unsigned* in, unsigned* out, unsigned size, unsigned zfill) {
  __shared__ uint4 s_vec[threads];  // 16-byte aligned
  unsigned* s = reinterpret_cast<unsigned*>(s_vec);
  const unsigned t = threadIdx.x;
  for (unsigned b = 0; b < 16; b += size) {
    const unsigned fill = b + size == 16 ? zfill : 0;
    __pipeline_memcpy_async(reinterpret_cast<char*>(s + 4 * t) + b, reinterpret_cast<const char*>(in + 4 * t) + b,
                            size, fill);
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const unsigned n = (t + 1) % threads;
  for (unsigned i = 0; i < 4; ++i) out[4 * t + i] = s[4 * n + i];
}

// Two batches: the first copies `in` to s0, the second `in + words` to s1. After waiting for all
// but the newest batch, the first has landed (read back by the same thread).
__global__ void batches_kernel(const unsigned* in, unsigned* out) {
  __shared__ uint4 s0_vec[threads];  // 16-byte aligned
  unsigned* s0 = reinterpret_cast<unsigned*>(s0_vec);
  __shared__ uint4 s1_vec[threads];  // 16-byte aligned
  unsigned* s1 = reinterpret_cast<unsigned*>(s1_vec);
  const unsigned t = threadIdx.x;
  __pipeline_memcpy_async(s0 + 4 * t, in + 4 * t, 16);
  __pipeline_commit();
  __pipeline_memcpy_async(s1 + 4 * t, in + words + 4 * t, 16);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  for (unsigned i = 0; i < 4; ++i) out[4 * t + i] = s0[4 * t + i];
  __pipeline_wait_prior(0);
  for (unsigned i = 0; i < 4; ++i) out[words + 4 * t + i] = s1[4 * t + i];
}

namespace rd = ringsweep::detail;

// The copy engine (sm_90 and the SIMT backend): `rounds` bulk copies of 1 KiB (`words`) through
// one stage, each completing one phase of one mbarrier (parity r & 1). Every thread reads the stage
// after its own wait (the mbarrier makes the bytes visible to it); a barrier ends the reads before
// thread 0 starts the next copy.
__global__ void bulk_kernel(const unsigned* in, unsigned* out, unsigned rounds) {
  __shared__ uint4 stage_vec[words / 4];
  __shared__ unsigned long long bar;
  unsigned* stage = reinterpret_cast<unsigned*>(stage_vec);
  const unsigned t = threadIdx.x;
  if (t == 0) rd::mbarrier_init(&bar, 1);
  __syncthreads();
  for (unsigned r = 0; r < rounds; ++r) {
    if (t == 0) {
      rd::fence_proxy_async_shared();
      rd::mbarrier_arrive_expect_tx(&bar, words * 4);
      rd::bulk_copy_to_shared(stage, in + r * words, words * 4, &bar);
    }
    rd::u32 pause = 0;
    while (!rd::mbarrier_try_wait_parity(&bar, r & 1u)) rd::backoff(pause);
    for (unsigned i = 0; i < 4; ++i) out[r * words + 4 * t + i] = stage[4 * t + i];
    __syncthreads();
  }
}

#if defined(RINGSWEEP_VARIANT_SIMT)
// SIMT only: what the destination holds before its copy has landed. Shared memory starts as
// `marker`; each thread records its first word before the wait, the second batch's word after
// waiting for the first only, then both after the last wait.
__global__ void early_read_kernel(const unsigned* in, unsigned* out, unsigned marker) {
  __shared__ uint4 s0_vec[threads];  // 16-byte aligned
  unsigned* s0 = reinterpret_cast<unsigned*>(s0_vec);
  __shared__ uint4 s1_vec[threads];  // 16-byte aligned
  unsigned* s1 = reinterpret_cast<unsigned*>(s1_vec);
  const unsigned t = threadIdx.x;
  for (unsigned i = 0; i < 4; ++i) s0[4 * t + i] = s1[4 * t + i] = marker;
  __pipeline_memcpy_async(s0 + 4 * t, in + 4 * t, 16);
  __pipeline_commit();
  __pipeline_memcpy_async(s1 + 4 * t, in + words + 4 * t, 16);
  out[5 * t + 0] = s0[4 * t];  // before any wait: not landed
  __pipeline_commit();
  __pipeline_wait_prior(1);
  out[5 * t + 1] = s0[4 * t];  // landed
  out[5 * t + 2] = s1[4 * t];  // the younger batch: not landed
  __pipeline_wait_prior(0);
  out[5 * t + 3] = s1[4 * t];  // landed
  // A copy never committed is not waited for: it lands when the thread exits.
  __pipeline_memcpy_async(s1 + 4 * t, in + 4 * t, 16);
  __pipeline_wait_prior(0);
  out[5 * t + 4] = s1[4 * t];
}
#endif

#if defined(RINGSWEEP_VARIANT_SIMT)
#if defined(__SANITIZE_THREAD__)
constexpr bool race_build = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool race_build = true;
#else
constexpr bool race_build = false;
#endif
#else
constexpr bool race_build = false;
#endif

// Whether the backend poisons the destination of a copy in flight (RINGSWEEP_SIMT_POISON=1, or
// the race-detection build).
bool copies_poisoned() {
  const char* poison = std::getenv("RINGSWEEP_SIMT_POISON");
  return race_build || (poison != nullptr && std::strcmp(poison, "1") == 0);
}
#endif

#if defined(RINGSWEEP_VARIANT_SIMT)
// SIMT only: a bulk copy lands at the block's first wait on its mbarrier. Each thread records its
// stage word before any thread waits (not landed), then after every thread has waited for an empty
// phase of another mbarrier (expect_tx of 0 bytes completes it at once): still not landed; then
// after the copy's phase.
__global__ void bulk_early_kernel(const unsigned* in, unsigned* out, unsigned marker) {
  __shared__ uint4 stage_vec[words / 4];
  __shared__ unsigned long long bars[2];
  unsigned* stage = reinterpret_cast<unsigned*>(stage_vec);
  const unsigned t = threadIdx.x;
  for (unsigned i = 0; i < 4; ++i) stage[4 * t + i] = marker;
  if (t == 0) {
    rd::mbarrier_init(&bars[0], 1);
    rd::mbarrier_init(&bars[1], 1);
  }
  __syncthreads();
  if (t == 0) {
    rd::mbarrier_arrive_expect_tx(&bars[0], words * 4);
    rd::bulk_copy_to_shared(stage, in, words * 4, &bars[0]);
    rd::mbarrier_arrive_expect_tx(&bars[1], 0);
  }
  __syncthreads();
  out[3 * t + 0] = stage[4 * t];
  __syncthreads();
  rd::u32 pause = 0;
  while (!rd::mbarrier_try_wait_parity(&bars[1], 0)) rd::backoff(pause);
  out[3 * t + 1] = stage[4 * t];
  __syncthreads();
  while (!rd::mbarrier_try_wait_parity(&bars[0], 0)) rd::backoff(pause);
  out[3 * t + 2] = stage[4 * t];
}
#endif

std::vector<unsigned> pattern(std::size_t n) {
  std::vector<unsigned> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0x1000u + unsigned(i) * 7u;
  return v;
}

}  // namespace

TEST_CASE("asynchronous copies land at the wait: sizes 4, 8 and 16, zero fill", "[simt][async_copy]") {
  const std::vector<unsigned> host = pattern(words);
  device_buffer<unsigned> in(host), out(words);
  const unsigned size = GENERATE(4u, 8u, 16u);
  const unsigned zfill = GENERATE(0u, 4u);
  REQUIRE(launch(landing_kernel, 1, threads, 0, serial, in.data(), out.data(), size, zfill) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned> got = out.download();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned n = (t + 1) % threads;
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned want = zfill == 4 && i == 3 ? 0u : host[4 * n + i];
      INFO("size " << size << " zfill " << zfill << " thread " << t << " word " << i);
      REQUIRE(got[4 * t + i] == want);
    }
  }
}

TEST_CASE("asynchronous copies: batches land oldest first", "[simt][async_copy]") {
  const std::vector<unsigned> host = pattern(2 * words);
  device_buffer<unsigned> in(host), out(2 * words);
  REQUIRE(launch(batches_kernel, 1, threads, 0, serial, in.data(), out.data()) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(out.download() == host);
}

TEST_CASE("bulk copies complete mbarrier phases in turn", "[simt][async_copy][bulk]") {
#if !defined(RINGSWEEP_VARIANT_SIMT)
  int device = 0, major = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  if (major < 9) {
    WARN("the copy engine needs sm_90: not tested on this device");
    return;
  }
#endif
  const unsigned rounds = 5;
  const std::vector<unsigned> host = pattern(rounds * words);
  device_buffer<unsigned> in(host), out(rounds * words);
  REQUIRE(launch(bulk_kernel, 1, threads, 0, serial, in.data(), out.data(), rounds) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(out.download() == host);
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("bulk copies: before the wait on its mbarrier the stage keeps its bytes (SIMT)", "[simt][async_copy][bulk]") {
  const std::vector<unsigned> host = pattern(words);
  device_buffer<unsigned> in(host), out(3 * threads);
  const unsigned marker = 0x5eed5eedu;
  REQUIRE(launch(bulk_early_kernel, 1, threads, 0, serial, in.data(), out.data(), marker) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned> got = out.download();
  const unsigned early = copies_poisoned() ? 0xA5A5A5A5u : marker;
  for (unsigned t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(got[3 * t + 0] == early);
    CHECK(got[3 * t + 1] == early);
    CHECK(got[3 * t + 2] == host[4 * t]);
  }
}

TEST_CASE("asynchronous copies: before the wait the destination keeps its bytes (SIMT)", "[simt][async_copy]") {
  const std::vector<unsigned> host = pattern(2 * words);
  device_buffer<unsigned> in(host), out(5 * threads);
  const unsigned marker = 0x5eed5eedu;
  REQUIRE(launch(early_read_kernel, 1, threads, 0, serial, in.data(), out.data(), marker) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned> got = out.download();
  const unsigned early = copies_poisoned() ? 0xA5A5A5A5u : marker;
  for (unsigned t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(got[5 * t + 0] == early);
    CHECK(got[5 * t + 1] == host[4 * t]);
    CHECK(got[5 * t + 2] == early);
    CHECK(got[5 * t + 3] == host[words + 4 * t]);
    CHECK(got[5 * t + 4] == (copies_poisoned() ? 0xA5A5A5A5u : host[words + 4 * t]));
  }
}
#endif
