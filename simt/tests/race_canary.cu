// A deliberately racy kernel for the race-detection build (RINGSWEEP_SANITIZE=thread): thread t
// reads the shared word thread t+1 wrote, with the __syncthreads between them left out. ThreadSanitizer
// must report it; ctest expects the report. With `--clean` the barrier is in place and nothing may
// be reported. With `--async` the word arrives by an asynchronous copy (__pipeline_memcpy_async),
// which its thread has waited for: without the barrier the neighbour's read still races. With
// `--dependent` a programmatic dependent launch reads what the grid before it wrote: before its
// cudaGridDependencySynchronize() a race, after it (`--clean`) not. Earlier grids run first, so
// the runners reuse fibers of finished grids: a reused fiber must not order the reads after the
// writes either.
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>
#include <ringsweep/device/launch.cuh>

#include <cstdio>
#include <cstring>

namespace {
__global__ void neighbour_kernel(int* out, int with_barrier) {
  __shared__ int s[64];
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  if (with_barrier) __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void async_neighbour_kernel(const int* in, int* out, int with_barrier) {
  __shared__ int s[64];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  if (with_barrier) __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void producer_kernel(int* data) {
  cudaTriggerProgrammaticLaunchCompletion();  // the dependent grid may start at once
  data[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

__global__ void dependent_kernel(const int* data, int* out, int wait_first) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (wait_first) cudaGridDependencySynchronize();
  const int v = data[i];
  if (!wait_first) cudaGridDependencySynchronize();
  out[i] = v;
}
}  // namespace

int main(int argc, char** argv) {
  bool clean = false, async = false, dependent = false;
  for (int i = 1; i < argc; ++i) {
    clean = clean || std::strcmp(argv[i], "--clean") == 0;
    async = async || std::strcmp(argv[i], "--async") == 0;
    dependent = dependent || std::strcmp(argv[i], "--dependent") == 0;
  }
  constexpr unsigned blocks = 8, n = 64 * blocks;
  int* out = nullptr;
  int* in = nullptr;
  if (cudaMalloc(&out, n * sizeof(int)) != cudaSuccess || cudaMalloc(&in, n * sizeof(int)) != cudaSuccess) return 2;
  if (cudaMemset(in, 0, n * sizeof(int)) != cudaSuccess) return 2;
  using ringsweep::detail::launch;
  using ringsweep::detail::launch_order;
  cudaError_t e = cudaSuccess;
  if (dependent) {
    for (int warm = 0; warm < 3 && e == cudaSuccess; ++warm)  // finished grids: fibers to reuse
      e = launch(producer_kernel, blocks, 64, 0, launch_order::serial, out);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = launch(producer_kernel, blocks, 64, 0, launch_order::serial, in);
    if (e == cudaSuccess) e = launch(dependent_kernel, blocks, 64, 0, launch_order::dependent, in, out, clean ? 1 : 0);
  } else {
    e = async ? launch(async_neighbour_kernel, 1, 64, 0, launch_order::serial, in, out, clean ? 1 : 0)
              : launch(neighbour_kernel, 1, 64, 0, launch_order::serial, out, clean ? 1 : 0);
  }
  if (e != cudaSuccess) return 2;
  int host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  cudaFree(in);
  std::printf("race canary (%s%s): out[0] = %d\n",
              dependent ? "dependent launch, " : async ? "asynchronous copy, " : "",
              dependent ? (clean ? "read after the dependency wait" : "read before it")
                        : (clean ? "with barrier" : "barrier missing"),
              host[0]);
  return 0;
}
