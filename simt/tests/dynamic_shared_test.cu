// Dynamic shared memory (`extern __shared__ T name[];`) as a GPU has it: each block its own bytes,
// sized by the launch (<<<>>>, cudaLaunchKernelEx, cudaLaunchKernel, cudaLaunchCooperativeKernel),
// every declaration of a kernel (function or file scope, any element type) naming the same bytes,
// more than 48 KiB only after cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize),
// beyond the opt-in limit never. Runs on both backends; the [.poison] case (SIMT only) runs under
// RINGSWEEP_SIMT_POISON=1 and checks that every block starts with 0xA5 bytes.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;

namespace {

// A file-scope declaration: every later use of `pool` in this file is the block's buffer.
extern __shared__ __align__(16) unsigned char pool[];

struct alignas(16) vec4 {
  float x, y, z, w;
};

// The launch's dynamic shared memory size, as the kernel sees it.
__device__ unsigned dynamic_smem_size() {
#if defined(__CUDA_ARCH__)
  unsigned r;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
#elif defined(RINGSWEEP_VARIANT_SIMT)
  return static_cast<unsigned>(simt::dynamic_shared_bytes());
#else
  return 0;
#endif
}

// From a device function, as library code declares it.
__device__ unsigned* scratch() {
  extern __shared__ unsigned scratch_words[];
  return scratch_words;
}

// Each block fills its buffer with its own pattern, then rereads it over several barriers while
// other blocks run (on other workers, in other fibers' turns): mismatches count into bad[block].
__global__ void isolation_kernel(unsigned words, int rounds, unsigned* bad) {
  extern __shared__ unsigned mine[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) mine[i] = blockIdx.x * 0x10000u + i;
  __syncthreads();
  unsigned wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    for (unsigned i = (threadIdx.x + r * 32) % blockDim.x; i < words; i += blockDim.x)
      wrong += scratch()[i] != blockIdx.x * 0x10000u + i;
    __syncthreads();
  }
  if (wrong != 0) atomicAdd(&bad[blockIdx.x], wrong);
}

// A pointer's address as a value the compiler cannot reason about. nvcc folds `a == b` to false
// when a and b are distinct extern __shared__ symbols, though both name the block's dynamic
// shared memory (seen on an H100, 2026-11-26: values agreed, the address comparison did not).
__device__ std::uintptr_t address_of(const void* p) {
  volatile std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  return a;
}

// Every declaration aliases the same bytes: function-scope vec4 and float arrays, the file-scope
// byte pool, the device function's words. flags[t]: bit 0 values agree, bit 1 addresses agree,
// bit 2 16-byte aligned (flags: one word per thread of the grid).
__global__ void alias_kernel(unsigned* flags) {
  extern __shared__ vec4 vecs[];
  extern __shared__ float floats[];
  const unsigned t = threadIdx.x;
  vecs[t] = vec4{1.0f * t, 2.0f * t, 3.0f * t, 4.0f * t};
  __syncthreads();
  const unsigned n = blockDim.x;
  const unsigned u = (t + 1) % n;  // a neighbour's element
  const float from_pool = reinterpret_cast<const float*>(pool)[4 * u + 3];
  const bool values = floats[4 * u + 1] == 2.0f * u && from_pool == 4.0f * u &&
                      scratch()[4 * u + 1] == __float_as_uint(2.0f * u);
  const bool addresses = address_of(vecs) == address_of(floats) && address_of(pool) == address_of(vecs) &&
                         address_of(scratch()) == address_of(&pool[0]);
  const bool aligned = reinterpret_cast<std::uintptr_t>(pool) % 16 == 0;
  flags[blockIdx.x * n + t] = (values ? 1u : 0u) | (addresses ? 2u : 0u) | (aligned ? 4u : 0u);
}

// sizes[block] = the dynamic shared memory size; every thread also writes its buffer's last bytes
// (an allocation smaller than the launch's size is an ASan error on the backend).
__global__ void size_kernel(unsigned* sizes) {
  const unsigned bytes = dynamic_smem_size();
  if (threadIdx.x == 0) sizes[blockIdx.x] = bytes;
  if (bytes > threadIdx.x) pool[bytes - 1 - threadIdx.x] = 1;
}

// A kernel no attribute is set for: 48 KiB at most.
__global__ void plain_kernel(unsigned* sizes) {
  if (threadIdx.x == 0) sizes[blockIdx.x] = dynamic_smem_size();
}

// Opted in to more than 48 KiB.
__global__ void big_kernel(unsigned* sizes) {
  const unsigned bytes = dynamic_smem_size();
  pool[bytes - 1 - threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
  if (threadIdx.x == 0) sizes[blockIdx.x] = bytes;
}

cudaLaunchConfig_t config_of(unsigned grid, unsigned block, size_t smem) {
  cudaLaunchConfig_t c{};
  c.gridDim = dim3(grid);
  c.blockDim = dim3(block);
  c.dynamicSmemBytes = smem;
  return c;
}

}  // namespace

TEST_CASE("each block has its own dynamic shared memory", "[simt][dynamic_shared]") {
  const unsigned blocks = 48, words = 3000;
  device_buffer<unsigned> bad(blocks);
  bad.fill_bytes(0);
  isolation_kernel<<<blocks, 96, words * sizeof(unsigned)>>>(words, 6, bad.data());
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = bad.download();
  for (unsigned b = 0; b < blocks; ++b) CHECK(h[b] == 0u);
}

TEST_CASE("every extern __shared__ declaration names the same bytes", "[simt][dynamic_shared]") {
  const unsigned blocks = 2, threads = 64;
  device_buffer<unsigned> flags(blocks * threads);
  alias_kernel<<<blocks, threads, threads * sizeof(vec4)>>>(flags.data());
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = flags.download();
  for (unsigned t = 0; t < blocks * threads; ++t) CHECK(h[t] == 7u);
}

TEST_CASE("the dynamic shared memory size is the launch's, through every launch API", "[simt][dynamic_shared]") {
  device_buffer<unsigned> sizes(4);
  auto first_size = [&] { return sizes.download()[0]; };

  size_kernel<<<4, 64, 1024>>>(sizes.data());
  REQUIRE_CUDA_LAUNCH();
  CHECK(sizes.download() == std::vector<unsigned>(4, 1024u));

  cudaLaunchConfig_t c = config_of(2, 32, 2064);
  REQUIRE_CUDA(cudaLaunchKernelEx(&c, size_kernel, sizes.data()));
  REQUIRE_CUDA_LAUNCH();
  CHECK(first_size() == 2064u);

  unsigned* out = sizes.data();
  void* args[] = {&out};
  REQUIRE_CUDA(cudaLaunchKernel((void*)size_kernel, dim3(2), dim3(32), args, 784, 0));
  REQUIRE_CUDA_LAUNCH();
  CHECK(first_size() == 784u);

  REQUIRE_CUDA(cudaLaunchCooperativeKernel((void*)size_kernel, dim3(2), dim3(32), args, 560, 0));
  REQUIRE_CUDA_LAUNCH();
  CHECK(first_size() == 560u);

  size_kernel<<<1, 32>>>(sizes.data());  // none: the kernel touches nothing
  REQUIRE_CUDA_LAUNCH();
  CHECK(first_size() == 0u);
}

TEST_CASE("more than 48 KiB needs cudaFuncAttributeMaxDynamicSharedMemorySize; the opt-in limit holds",
          "[simt][dynamic_shared]") {
  device_buffer<unsigned> sizes(2);
  int optin = 0;
  REQUIRE_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  REQUIRE(optin > 48 * 1024);
  const size_t default_limit = 48 * 1024;

  plain_kernel<<<2, 32, default_limit>>>(sizes.data());  // exactly the default limit: fine
  REQUIRE_CUDA_LAUNCH();
  CHECK(sizes.download()[1] == default_limit);

  plain_kernel<<<2, 32, default_limit + 16>>>(sizes.data());
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaLaunchConfig_t c = config_of(2, 32, default_limit + 16);
  CHECK(cudaLaunchKernelEx(&c, plain_kernel, sizes.data()) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  unsigned* out = sizes.data();
  void* args[] = {&out};
  CHECK(cudaLaunchKernel((void*)plain_kernel, dim3(2), dim3(32), args, default_limit + 16, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  const int big = 100 * 1024;
  REQUIRE_CUDA(cudaFuncSetAttribute(big_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  cudaFuncAttributes attr{};
  REQUIRE_CUDA(cudaFuncGetAttributes(&attr, big_kernel));
  CHECK(attr.maxDynamicSharedSizeBytes == big);
  big_kernel<<<2, 64, big>>>(sizes.data());
  REQUIRE_CUDA_LAUNCH();
  CHECK(sizes.download() == std::vector<unsigned>(2, unsigned(big)));
  big_kernel<<<2, 64, big + 16>>>(sizes.data());  // beyond what was opted in to
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  CHECK(cudaFuncSetAttribute(big_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaFuncSetAttribute(big_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  big_kernel<<<1, 64, optin>>>(sizes.data());  // the whole opt-in limit (no static shared memory)
  REQUIRE_CUDA_LAUNCH();
  CHECK(sizes.download()[0] == unsigned(optin));
}

#if defined(RINGSWEEP_VARIANT_SIMT)
namespace {
// Reads before writing: the values a block starts with. Writes zeros afterwards, which the next
// block on the same worker must not see.
__global__ void read_first_kernel(unsigned* seen) {
  extern __shared__ unsigned first[];
  seen[blockIdx.x * blockDim.x + threadIdx.x] = first[threadIdx.x];
  __syncthreads();
  first[threadIdx.x] = 0;
}
}  // namespace

TEST_CASE("RINGSWEEP_SIMT_POISON fills dynamic shared memory with 0xA5 at every block start",
          "[.poison][simt][dynamic_shared]") {
  const char* poison = std::getenv("RINGSWEEP_SIMT_POISON");
  REQUIRE(poison != nullptr);
  REQUIRE(std::string(poison) == "1");
  const unsigned blocks = 16, threads = 64;
  device_buffer<unsigned> seen(blocks * threads);
  read_first_kernel<<<blocks, threads, threads * sizeof(unsigned)>>>(seen.data());
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> h = seen.download();
  for (unsigned i = 0; i < blocks * threads; ++i) CHECK(h[i] == 0xA5A5A5A5u);
}
#endif
