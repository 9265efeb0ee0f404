// Sort floats on the device, in place, with the one-line convenience call:
//
//     ringsweep::sort_keys(d_keys, n);
//
// That overload allocates its temporary storage on the stream (cudaMallocAsync, here the default
// stream) and frees it there (cudaFreeAsync); it does not wait for the sort. Reading the result
// through cudaMemcpy on the same stream waits for it. The sort is stable and ascending; -0.0 and
// +0.0 compare equal and keep their input order.
//
// Built for the CPU SIMT backend (example_sort_keys, run by ctest) and by nvcc for a GPU
// (example_sort_keys_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#define CHECK(...)                                                                             \
  do {                                                                                         \
    const cudaError_t status_ = (__VA_ARGS__);                                                 \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(status_));      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (false)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }

  // Random floats, plus the values people ask about: both zeros, infinities, a denormal.
  const std::size_t n = std::size_t(1) << 18;
  std::vector<float> keys(n);
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> uniform(-1000.0f, 1000.0f);
  for (float& k : keys) k = uniform(rng);
  keys[10] = -0.0f;
  keys[20] = 0.0f;
  keys[30] = -0.0f;
  keys[40] = std::numeric_limits<float>::infinity();
  keys[50] = -std::numeric_limits<float>::infinity();
  keys[60] = std::numeric_limits<float>::denorm_min();

  float* d_keys = nullptr;
  CHECK(cudaMalloc(&d_keys, n * sizeof(float)));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  CHECK(ringsweep::sort_keys(d_keys, n));  // the whole sort

  std::vector<float> sorted(n);
  CHECK(cudaMemcpy(sorted.data(), d_keys, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_keys));

  // The host's stable sort is the reference; compare bits, so that the zeros' order counts too.
  std::vector<float> want(keys);
  std::stable_sort(want.begin(), want.end());
  if (std::memcmp(sorted.data(), want.data(), n * sizeof(float)) != 0) {
    std::size_t i = 0;
    while (std::memcmp(&sorted[i], &want[i], sizeof(float)) == 0) ++i;
    std::printf("WRONG: position %zu holds %g, expected %g\n", i, double(sorted[i]), double(want[i]));
    return 1;
  }
  std::printf("sorted %zu floats in place: first %g, median %g, last %g\n", n, double(sorted.front()),
              double(sorted[n / 2]), double(sorted.back()));
  return 0;
}
