// A deliberately racy kernel for the race-detection build (RINGSWEEP_SANITIZE=thread): thread t
// reads the shared word thread t+1 wrote, with the __syncthreads between them left out. ThreadSanitizer
// must report it; ctest expects the report. With `--clean` the barrier is in place and nothing may
// be reported.
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
}  // namespace

int main(int argc, char** argv) {
  const bool clean = argc > 1 && std::strcmp(argv[1], "--clean") == 0;
  int* out = nullptr;
  if (cudaMalloc(&out, 64 * sizeof(int)) != cudaSuccess) return 2;
  if (ringsweep::detail::launch(neighbour_kernel, 1, 64, 0, ringsweep::detail::launch_order::serial, out,
                                clean ? 1 : 0) != cudaSuccess)
    return 2;
  int host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  std::printf("race canary (%s): out[0] = %d\n", clean ? "with barrier" : "barrier missing", host[0]);
  return 0;
}
