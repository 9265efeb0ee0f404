// A user's program: includes ringsweep, runs CUDA runtime calls on the CPU through ringsweep::simt.

#include <ringsweep/version.hpp>
#if __has_include(<ringsweep/ringsweep.cuh>)
#include <ringsweep/ringsweep.cuh>
#endif

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

int main() {
  std::printf("ringsweep %s (%d.%d.%d)\n", ringsweep::version_string, ringsweep::version_major,
              ringsweep::version_minor, ringsweep::version_patch);

  const int host_in[4] = {3, 1, 4, 1};
  int host_out[4] = {};
  void* device = nullptr;
  if (cudaMalloc(&device, sizeof(host_in)) != cudaSuccess ||
      cudaMemcpy(device, host_in, sizeof(host_in), cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(host_out, device, sizeof(host_out), cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaFree(device) != cudaSuccess) {
    std::printf("consumer: CUDA runtime call failed\n");
    return 1;
  }
  if (std::memcmp(host_in, host_out, sizeof(host_in)) != 0) {
    std::printf("consumer: device round trip changed the data\n");
    return 1;
  }
  std::printf("consumer: OK\n");
  return 0;
}
