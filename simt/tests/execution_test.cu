// The execution model: shared memory per block, barriers, blocks that really run at once, chains
// of blocks that wait on their predecessor (the look-back pattern), launch errors. Runs on both
// backends.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

__device__ unsigned load_acquire(const unsigned* p) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(const_cast<unsigned*>(p), 0u);
#else
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

// Block-wide tree reduction through shared memory: many barrier phases, each a chance for a
// permuted schedule to expose a missing barrier.
__global__ void reduce_kernel(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[256];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Every block fills its shared array with its own id, then checks that no other block's writes
// are visible to it.
__global__ void shared_isolation_kernel(unsigned* mismatches) {
  __shared__ unsigned s[128];
  for (int round = 0; round < 4; ++round) {
    s[threadIdx.x] = blockIdx.x * 1000 + threadIdx.x + round;
    __syncthreads();
    const unsigned other = (threadIdx.x + 17) % blockDim.x;
    if (s[other] != blockIdx.x * 1000 + other + round) atomicAdd(mismatches, 1u);
    __syncthreads();
    __nanosleep(100);  // invite other blocks to run in between
  }
}

// Block 1 spins until block 0 raises the flag. Completes only if the blocks run concurrently
// (or block 0 ran first).
__global__ void flag_kernel(unsigned* flag, unsigned* out) {
  if (blockIdx.x == 1) {
    while (load_acquire(flag) == 0) __nanosleep(64);
    if (threadIdx.x == 0) out[0] = 1;
  } else if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(flag, 1u);
  }
}

// Chain: tile i (a dynamic ticket) waits until tile i-1 published its inclusive sum, then
// publishes its own. Every wait is on an earlier ticket, as in decoupled look-back.
__global__ void chain_kernel(unsigned* ticket, unsigned* inclusive, unsigned* ready, const unsigned* values) {
  __shared__ unsigned s_tile;
  if (threadIdx.x == 0) s_tile = atomicAdd(ticket, 1u);
  __syncthreads();
  const unsigned tile = s_tile;
  if (threadIdx.x == 0) {
    unsigned prefix = 0;
    if (tile > 0) {
      while (load_acquire(&ready[tile - 1]) == 0) __nanosleep(32);
      prefix = inclusive[tile - 1];
    }
    inclusive[tile] = prefix + values[tile];
    __threadfence();
    atomicExch(&ready[tile], 1u);
  }
  __syncthreads();
}

__global__ void empty_kernel() {}

}  // namespace

TEST_CASE("barrier phases give the same result under every schedule", "[simt][block]") {
  const unsigned blocks = 6, threads = 256;
  std::vector<unsigned> in(blocks * threads);
  std::iota(in.begin(), in.end(), 1u);
  device_buffer<unsigned> d_in(in), d_out(blocks);
  REQUIRE_CUDA(launch(reduce_kernel, blocks, threads, 0, serial, d_in.data(), d_out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = d_out.download();
  for (unsigned b = 0; b < blocks; ++b) {
    const unsigned first = b * threads + 1, last = first + threads - 1;
    CHECK(h[b] == (first + last) * threads / 2);
  }
}

TEST_CASE("shared memory belongs to one block and is shared by its threads", "[simt][block]") {
  device_buffer<unsigned> mismatches(std::vector<unsigned>{0});
  REQUIRE_CUDA(launch(shared_isolation_kernel, 16, 128, 0, serial, mismatches.data()));
  REQUIRE_CUDA_LAUNCH();
  CHECK(mismatches.download()[0] == 0u);
}

TEST_CASE("two blocks run at once: block 1 waits for a flag block 0 sets", "[simt][grid]") {
  device_buffer<unsigned> flag(std::vector<unsigned>{0}), out(std::vector<unsigned>{0});
  REQUIRE_CUDA(launch(flag_kernel, 2, 64, 0, serial, flag.data(), out.data()));
  REQUIRE_CUDA_LAUNCH();
  CHECK(out.download()[0] == 1u);
}

TEST_CASE("a chain of tiles, each waiting on its predecessor, completes over many blocks", "[simt][grid]") {
  const unsigned tiles = GENERATE(1u, 7u, 300u);
  std::vector<unsigned> values(tiles);
  for (unsigned i = 0; i < tiles; ++i) values[i] = (i * 2654435761u) % 1000u;
  device_buffer<unsigned> ticket(std::vector<unsigned>{0}), inclusive(tiles), ready(std::vector<unsigned>(tiles, 0u)),
      d_values(values);
  REQUIRE_CUDA(launch(chain_kernel, tiles, 64, 0, serial,
                      ticket.data(), inclusive.data(), ready.data(), d_values.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = inclusive.download();
  unsigned sum = 0;
  for (unsigned i = 0; i < tiles; ++i) {
    sum += values[i];
    INFO("tile " << i);
    REQUIRE(h[i] == sum);
  }
}

TEST_CASE("launch errors come back as the CUDA error a GPU gives", "[simt][launch]") {
  // Seen on an H100 with CUDA 13.0 (driver 580): cudaLaunchKernelEx, cudaLaunchKernel and <<<>>>
  // all return cudaErrorInvalidValue for a bad grid or block (older toolkits said
  // cudaErrorInvalidConfiguration for some of them).
  // The backend's own validation of a launch configuration, so cudaLaunchKernelEx itself, with any
  // grid and block shape.
  const auto launch_shape = [](dim3 grid, dim3 block, std::size_t dynamic_shared_bytes = 0) {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = dynamic_shared_bytes;
    return cudaLaunchKernelEx(&config, empty_kernel);
  };
  CHECK(launch_shape(dim3(1), dim3(2048)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);  // not sticky
  CHECK(launch_shape(dim3(1), dim3(32, 32, 2)) == cudaErrorInvalidValue);
  CHECK(launch_shape(dim3(0), dim3(32)) == cudaErrorInvalidValue);
  CHECK(launch_shape(dim3(1, 70000), dim3(32)) == cudaErrorInvalidValue);
  CHECK(launch_shape(dim3(1), dim3(0)) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(launch_shape(dim3(1), dim3(32), 1u << 20) != cudaSuccess);  // 1 MiB of dynamic shared memory exists nowhere
  cudaGetLastError();
  CHECK(launch(empty_kernel, 3, 33, 0, serial) == cudaSuccess);  // partial warps are fine
  REQUIRE_CUDA_LAUNCH();
}

TEST_CASE("device attributes and occupancy queries answer", "[simt][runtime]") {
  int device = -1, sms = 0, major = 0, blocks = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CHECK(sms > 0);
  CHECK(major >= 7);
  REQUIRE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, empty_kernel, 256, 0));
  CHECK(blocks > 0);
  cudaFuncAttributes attr{};
  REQUIRE_CUDA(cudaFuncGetAttributes(&attr, empty_kernel));
  CHECK(attr.maxThreadsPerBlock >= 256);
  cudaStream_t s;
  cudaEvent_t a, b;
  REQUIRE_CUDA(cudaStreamCreate(&s));
  REQUIRE_CUDA(cudaEventCreate(&a));
  REQUIRE_CUDA(cudaEventCreate(&b));
  REQUIRE_CUDA(cudaEventRecord(a, s));
  device_buffer<int> buf(1000);
  REQUIRE_CUDA(cudaMemsetAsync(buf.data(), 0x7f, 1000 * sizeof(int), s));
  REQUIRE_CUDA(cudaEventRecord(b, s));
  REQUIRE_CUDA(cudaStreamSynchronize(s));
  float ms = -1;
  REQUIRE_CUDA(cudaEventElapsedTime(&ms, a, b));
  CHECK(ms >= 0.0f);
  CHECK(buf.download()[999] == 0x7f7f7f7f);
  CHECK(cudaEventDestroy(a) == cudaSuccess);
  CHECK(cudaEventDestroy(b) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}
