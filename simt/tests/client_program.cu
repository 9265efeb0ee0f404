// An ordinary CUDA program, written for nvcc and built unchanged for the SIMT backend (test
// simt_client_program): <<<>>> launches (template kernels, dim3, shared memory and a stream, a
// lambda argument, a launch inside a macro), dynamic shared memory (`extern __shared__` in a kernel
// and at file scope, sized by the launch), cudaLaunchKernel through (void*),
// cudaLaunchCooperativeKernel, fast-math and conversion intrinsics, cooperative groups' reduce
// and scan. Prints "client program: ok" and exits 0 when every result is right.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      std::printf("client program: %s failed at line %d\n", #cond, __LINE__); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

template <typename T, int Scale>
__global__ void gaussian(const T* d2, T* w, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = static_cast<T>(Scale) * __expf(-0.5f * d2[i]);
}

// Dynamic shared memory at file scope, as older CUDA code declares it.
extern __shared__ int block_values[];

template <typename F>
__global__ void apply(F f, int* out, int n) {
  extern __shared__ int staged[];  // blockDim.x ints, from the launch
  const int i = threadIdx.x + blockDim.x * (blockIdx.x + gridDim.x * blockIdx.y);
  staged[threadIdx.x] = i;
  __syncthreads();
  if (i < n) out[i] = f(staged[threadIdx.x]);
}

__global__ void tile_sums(const int* in, int* sums, int* prefix) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  block_values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const int v = block_values[threadIdx.x];
  const int s = cg::reduce(tile, v, cg::plus<int>());
  prefix[threadIdx.x] = cg::exclusive_scan(tile, v);
  if (tile.thread_rank() == 0) sums[threadIdx.x / 16] = s;
}

__global__ void to_pixels(const float* x, int* px, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) px[i] = __float2int_rd(__fdividef(x[i], 0.25f)) + __popc(static_cast<unsigned>(i));
}

__global__ void grid_total(const int* in, int* partial, int* total) {
  cg::grid_group grid = cg::this_grid();
  const int s = cg::reduce(cg::tiled_partition<32>(cg::this_thread_block()), in[grid.thread_rank()], cg::plus<int>());
  if (threadIdx.x % 32 == 0) atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

#define LAUNCH_PIXELS(x, px, n) \
  to_pixels<<<((n) + 63) / 64,  \
               64>>>(x, px, n)

int main() {
  const int n = 1000;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  float *d2, *w, *x;
  int *out, *px;
  cudaMalloc(&d2, n * sizeof(float));
  cudaMalloc(&w, n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&px, n * sizeof(int));
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.01f * i;
  cudaMemcpy(d2, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  gaussian<float, 3><<<(n + 127) / 128, 128, 0, stream>>>(d2, w, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  const int offset = 5;
  apply<<<dim3(4, 2), dim3(128), 128 * sizeof(int), stream>>>(
      [=] __device__(int i) { return i * 2 + offset; }, out, n);
  LAUNCH_PIXELS(x, px, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<float> hw(n);
  std::vector<int> ho(n), hp(n);
  cudaMemcpy(hw.data(), w, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(ho.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hp.data(), px, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    CHECK(std::fabs(hw[i] - 3.0f * std::exp(-0.5f * h[i])) <= 1e-5f * (1 + i / 100));
    CHECK(ho[i] == i * 2 + offset);
    CHECK(hp[i] == static_cast<int>(std::floor(h[i] / 0.25f)) + __builtin_popcount(i));
  }

  // A bad launch returns nothing: its error is the next cudaGetLastError's, then cleared.
  gaussian<float, 1><<<1, 4096>>>(d2, w, n);
  CHECK(cudaPeekAtLastError() != cudaSuccess);
  CHECK(cudaGetLastError() != cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);

  // The C API: arguments by address, kernel through void*.
  int *in, *sums, *prefix, *partial, *total;
  cudaMalloc(&in, 256 * sizeof(int));
  cudaMalloc(&sums, 16 * sizeof(int));
  cudaMalloc(&prefix, 256 * sizeof(int));
  cudaMalloc(&partial, 4 * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  std::vector<int> hin(256);
  for (int i = 0; i < 256; ++i) hin[i] = i % 7;
  cudaMemcpy(in, hin.data(), 256 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(partial, 0, 4 * sizeof(int));
  void* args[] = {&in, &sums, &prefix};
  CHECK(cudaLaunchKernel((void*)tile_sums, dim3(1), dim3(256), args, 256 * sizeof(int), stream) == cudaSuccess);
  void* coop_args[] = {&in, &partial, &total};
  CHECK(cudaLaunchCooperativeKernel((void*)grid_total, dim3(4), dim3(64), coop_args) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> hs(16), hpre(256);
  int htotal = 0;
  cudaMemcpy(hs.data(), sums, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hpre.data(), prefix, 256 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&htotal, total, sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 16; ++t) {
    int s = 0;
    for (int i = 0; i < 16; ++i) {
      CHECK(hpre[t * 16 + i] == s);
      s += hin[t * 16 + i];
    }
    CHECK(hs[t] == s);
  }
  int expected = 0;
  for (int i = 0; i < 256; ++i) expected += hin[i];
  CHECK(htotal == expected);

  cudaFree(d2), cudaFree(w), cudaFree(x), cudaFree(out), cudaFree(px);
  cudaFree(in), cudaFree(sums), cudaFree(prefix), cudaFree(partial), cudaFree(total);
  cudaStreamDestroy(stream);
  std::printf("client program: ok\n");
  return 0;
}
