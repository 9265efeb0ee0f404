// ringsweep demo (placeholder until the sort API lands with issue 3): says which backend runs
// and checks that device memory works there.

#include <ringsweep/version.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  std::printf("ringsweep %s demo\n", RINGSWEEP_VERSION_STRING);
#if defined(RINGSWEEP_VARIANT_GPU)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("backend: GPU, but no CUDA device is usable here; run the SIMT demo instead\n");
    return 1;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("cudaGetDeviceProperties failed\n");
    return 1;
  }
  std::printf("backend: GPU 0: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
#else
  std::printf("backend: SIMT (CUDA code runs on the CPU)\n");
#endif

  const std::vector<unsigned> in = {5, 3, 9, 1};
  std::vector<unsigned> out(in.size());
  void* device = nullptr;
  const std::size_t bytes = in.size() * sizeof(unsigned);
  if (cudaMalloc(&device, bytes) != cudaSuccess ||
      cudaMemcpy(device, in.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(out.data(), device, bytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaFree(device) != cudaSuccess || out != in) {
    std::printf("device memory round trip failed\n");
    return 1;
  }
  std::printf("device memory round trip: OK\n");
  std::printf("no sort yet: the sort API lands with issue 3\n");
  return 0;
}
