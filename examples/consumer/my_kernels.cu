// A CUDA file of the consumer's own, written for nvcc and built unchanged for the CPU by
// ringsweep_add_simt_executable (CMakeLists.txt): the SIMT wrap step turns its <<<>>> launch into a
// backend launch and its `extern __shared__` array into the block's dynamic shared memory. Each
// block stages its inputs in shared memory and weighs each with its neighbour's through the
// fast-math __expf; the host checks every weight. Prints "my_kernels: ok" and exits 0 when right.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

// w[i] = exp(-(x[i] + x[j]) / 2), j the next element of i's block (wrapping within the block).
__global__ void weigh_pairs(const float* x, float* w, int n) {
  extern __shared__ float staged[];  // blockDim.x floats, sized by the launch
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  const unsigned next = (threadIdx.x + 1) % blockDim.x;
  if (i < n) w[i] = __expf(-0.5f * (staged[threadIdx.x] + staged[next]));
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n), w(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 97) / 24.0f;
  float *d_x = nullptr, *d_w = nullptr;
  if (cudaMalloc(&d_x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&d_w, n * sizeof(float)) != cudaSuccess) {
    std::printf("my_kernels: no device memory\n");
    return 1;
  }
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  weigh_pairs<<<blocks, threads, threads * sizeof(float)>>>(d_x, d_w, n);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("my_kernels: the launch failed\n");
    return 1;
  }
  cudaMemcpy(w.data(), d_w, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_w);
  for (int i = 0; i < n; ++i) {
    const int block_first = i / threads * threads;
    const int j = block_first + (i - block_first + 1) % threads;  // the neighbour; 0 past the end
    const float want = std::exp(-0.5f * (x[i] + (j < n ? x[j] : 0.0f)));
    if (std::fabs(w[i] - want) > 1e-5f * want) {  // __expf: a few ulp here
      std::printf("my_kernels: w[%d] = %g, want %g\n", i, double(w[i]), double(want));
      return 1;
    }
  }
  std::printf("my_kernels: ok\n");
  return 0;
}
