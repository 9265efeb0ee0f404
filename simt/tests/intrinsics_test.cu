// Warp collectives, barriers with predicates and bit intrinsics against their CUDA semantics.
// Runs on both backends: these results must be what a GPU gives.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

__device__ unsigned lane_id() { return threadIdx.x % 32; }

// out[t*8 + k]: results of eight shuffle variants for thread t.
__global__ void shuffle_kernel(int* out) {
  const unsigned t = threadIdx.x, lane = lane_id();
  const int v = static_cast<int>(t * 10);
  int* o = out + t * 8;
  o[0] = __shfl_sync(0xffffffffu, v, 5);                 // broadcast lane 5
  o[1] = __shfl_sync(0xffffffffu, v, static_cast<int>(lane) + 1, 8);  // rotate inside groups of 8
  o[2] = __shfl_up_sync(0xffffffffu, v, 3);
  o[3] = __shfl_down_sync(0xffffffffu, v, 2, 16);
  o[4] = __shfl_xor_sync(0xffffffffu, v, 1);
  o[5] = __shfl_xor_sync(0xffffffffu, v, 4, 4);  // later group: own value; earlier group: allowed
  // 64-bit and float payloads
  const long long big = (static_cast<long long>(t) << 40) | t;
  o[6] = static_cast<int>(__shfl_down_sync(0xffffffffu, big, 1) >> 40);
  o[7] = static_cast<int>(__shfl_sync(0xffffffffu, static_cast<float>(t) + 0.5f, 0) * 2.0f);
}

// Only the even lanes take part (partial mask).
__global__ void partial_shuffle_kernel(int* out) {
  const unsigned lane = lane_id();
  int r = -1;
  if (lane % 2 == 0) r = __shfl_down_sync(0x55555555u, static_cast<int>(lane), 2);
  out[threadIdx.x] = r;
}

__global__ void vote_kernel(unsigned* out) {
  const unsigned t = threadIdx.x, lane = lane_id();
  unsigned* o = out + t * 6;
  o[0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
  o[1] = __any_sync(0xffffffffu, lane == 17);
  o[2] = __all_sync(0xffffffffu, lane < 31);
  o[3] = 0;
  if (lane < 16) o[3] = __ballot_sync(0x0000ffffu, lane & 1);  // ballot of a diverged warp
  o[4] = __match_any_sync(0xffffffffu, lane / 4 + (lane == 31 ? 100u : 0u));  // groups of 4, lane 31 alone
  o[5] = __match_any_sync(0xffffffffu, static_cast<unsigned long long>(lane % 2) << 40);
}

__global__ void barrier_predicate_kernel(int* out) {
  const unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  out[g * 3 + 0] = __syncthreads_count(t % 5 == 0);
  out[g * 3 + 1] = __syncthreads_and(t < 1000);
  out[g * 3 + 2] = __syncthreads_or(t == 77);
}

__global__ void bits_kernel(unsigned* out, unsigned x, unsigned long long y) {
  if (threadIdx.x != 0) return;
  out[0] = static_cast<unsigned>(__popc(x));
  out[1] = static_cast<unsigned>(__popcll(y));
  out[2] = static_cast<unsigned>(__clz(static_cast<int>(x)));
  out[3] = static_cast<unsigned>(__clzll(static_cast<long long>(y)));
  out[4] = static_cast<unsigned>(__ffs(static_cast<int>(x)));
  out[5] = static_cast<unsigned>(__ffsll(static_cast<long long>(y)));
  out[6] = __brev(x);
  out[7] = __float_as_uint(-2.0f);
  out[8] = static_cast<unsigned>(__clz(0));
  out[9] = static_cast<unsigned>(__ffs(0));
  out[10] = __float_as_uint(__uint_as_float(0x7fc00001u));
  out[11] = static_cast<unsigned>(static_cast<unsigned long long>(__double_as_longlong(-0.0)) >> 32);
}

__global__ void atomics_kernel(unsigned* u, unsigned long long* ull, int* i, float* f) {
  __shared__ unsigned s_count;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  atomicAdd(&s_count, 1u);
  atomicAdd(&u[0], 1u);
  atomicMax(&u[1], threadIdx.x + 1000u * blockIdx.x);
  atomicMin(&i[0], -static_cast<int>(threadIdx.x));
  atomicAdd(&ull[0], 1ull << 33);
  atomicOr(&u[2], 1u << (threadIdx.x % 32));
  atomicAdd(&f[0], 0.5f);
  atomicInc(&u[3], 9u);  // wraps to 0 after 9
  unsigned expected = atomicCAS(&u[4], 0u, 0u);  // read
  while (true) {
    const unsigned seen = atomicCAS(&u[4], expected, expected + 2);
    if (seen == expected) break;
    expected = seen;
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&u[5], s_count);
}

}  // namespace

TEST_CASE("shuffles follow CUDA semantics, widths included", "[simt][warp]") {
  const unsigned threads = 64;
  device_buffer<int> out(threads * 8);
  REQUIRE_CUDA(launch(shuffle_kernel, 1, threads, 0, serial, out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<int> h = out.download();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % 32, base = t - lane;
    auto v = [&](unsigned l) { return static_cast<int>((base + l) * 10); };
    INFO("thread " << t);
    CHECK(h[t * 8 + 0] == v(5));
    CHECK(h[t * 8 + 1] == v((lane & ~7u) + ((lane + 1) & 7u)));
    CHECK(h[t * 8 + 2] == (lane >= 3 ? v(lane - 3) : v(lane)));
    CHECK(h[t * 8 + 3] == ((lane % 16) + 2 < 16 ? v(lane + 2) : v(lane)));
    CHECK(h[t * 8 + 4] == v(lane ^ 1));
    CHECK(h[t * 8 + 5] == ((lane & 4u) ? v(lane - 4) : v(lane)));
    CHECK(h[t * 8 + 6] == static_cast<int>(lane < 31 ? t + 1 : t));
    CHECK(h[t * 8 + 7] == static_cast<int>(2 * base + 1));
  }
}

TEST_CASE("a shuffle over a partial mask exchanges among its lanes only", "[simt][warp]") {
  device_buffer<int> out(32);
  REQUIRE_CUDA(launch(partial_shuffle_kernel, 1, 32, 0, serial, out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<int> h = out.download();
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    if (lane % 2) CHECK(h[lane] == -1);
    else CHECK(h[lane] == (lane + 2 < 32 ? lane + 2 : lane));
  }
}

TEST_CASE("votes and match_any, on full and diverged warps", "[simt][warp]") {
  device_buffer<unsigned> out(64 * 6);
  REQUIRE_CUDA(launch(vote_kernel, 1, 64, 0, serial, out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = out.download();
  unsigned every_third = 0;
  for (unsigned l = 0; l < 32; l += 3) every_third |= 1u << l;
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned lane = t % 32;
    INFO("thread " << t);
    CHECK(h[t * 6 + 0] == every_third);
    CHECK(h[t * 6 + 1] == 1u);
    CHECK(h[t * 6 + 2] == 0u);
    CHECK(h[t * 6 + 3] == (lane < 16 ? 0x0000aaaau : 0u));
    const unsigned group = lane == 31 ? 0x80000000u : (lane >= 28 ? 0x70000000u : 0xfu << (lane & ~3u));
    CHECK(h[t * 6 + 4] == group);
    CHECK(h[t * 6 + 5] == (lane % 2 ? 0xaaaaaaaau : 0x55555555u));
  }
}

TEST_CASE("barriers with predicates reduce over the whole block", "[simt][block]") {
  const unsigned threads = 96, blocks = 2;
  device_buffer<int> out(blocks * threads * 3);
  REQUIRE_CUDA(launch(barrier_predicate_kernel, blocks, threads, 0, serial, out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<int> h = out.download();
  for (unsigned t = 0; t < blocks * threads; ++t) {
    CHECK(h[t * 3 + 0] == 20);  // multiples of 5 below 96
    CHECK(h[t * 3 + 1] != 0);
    CHECK(h[t * 3 + 2] != 0);
  }
}

TEST_CASE("bit intrinsics and reinterpretations", "[simt][bits]") {
  device_buffer<unsigned> out(12);
  const unsigned x = 0x00f0'0100u;
  const unsigned long long y = 0x0000'0300'0000'0000ull;
  REQUIRE_CUDA(launch(bits_kernel, 1, 32, 0, serial, out.data(), x, y));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = out.download();
  CHECK(h[0] == 5u);
  CHECK(h[1] == 2u);
  CHECK(h[2] == 8u);
  CHECK(h[3] == 22u);
  CHECK(h[4] == 9u);
  CHECK(h[5] == 41u);
  CHECK(h[6] == 0x0080'0f00u);
  CHECK(h[7] == 0xc000'0000u);
  CHECK(h[8] == 32u);
  CHECK(h[9] == 0u);
  CHECK(h[10] == 0x7fc00001u);
  CHECK(h[11] == 0x8000'0000u);
}

TEST_CASE("atomics on shared and global memory, 32 and 64 bits", "[simt][atomics]") {
  const unsigned blocks = 3, threads = 128;
  std::vector<unsigned> u0 = {0, 0, 0, 0, 0, 0};
  device_buffer<unsigned> u(u0);
  device_buffer<unsigned long long> ull(std::vector<unsigned long long>{0});
  device_buffer<int> i(std::vector<int>{0});
  device_buffer<float> f(std::vector<float>{0.0f});
  REQUIRE_CUDA(launch(atomics_kernel, blocks, threads, 0, serial, u.data(), ull.data(), i.data(), f.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = u.download();
  const unsigned n = blocks * threads;
  CHECK(h[0] == n);
  CHECK(h[1] == threads - 1 + 1000u * (blocks - 1));
  CHECK(h[2] == 0xffffffffu);
  CHECK(h[3] == n % 10);
  CHECK(h[4] == 2 * n);
  CHECK(h[5] == n);
  CHECK(i.download()[0] == -static_cast<int>(threads - 1));
  CHECK(ull.download()[0] == (static_cast<unsigned long long>(n) << 33));
  CHECK(f.download()[0] == static_cast<float>(n) * 0.5f);
}
