// Sort structs by their fields: particles ordered by (cell, depth), nearest first within a cell,
// through a decomposer, as with CUB's DeviceRadixSort. The decomposer names the fields to sort by,
// most significant first; the particle moves as its raw bytes (its other fields and padding come
// along untouched), and its index rides along as the value:
//
//     struct by_cell_depth {
//       __host__ __device__ tuple<std::uint32_t&, float&> operator()(particle& p) const {
//         return {p.cell, p.depth};
//       }
//     };
//     ringsweep::sort_pairs(d_particles, d_ids, n, by_cell_depth{});
//
// With libcu++ (nvcc) the tuple is cuda::std::tuple, as CUB requires; the CPU SIMT backend has no
// libcu++, and std::tuple works there. A {u32, float} key of 8 bytes costs what a u64 key costs.
//
// Built for the CPU SIMT backend (example_custom_keys, run by ctest) and by nvcc for a GPU
// (example_custom_keys_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define EXAMPLE_HAS_CUDA_STD_TUPLE 1
#endif
#endif

#ifdef EXAMPLE_HAS_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif

#define CHECK(...)                                                                             \
  do {                                                                                         \
    const cudaError_t status_ = (__VA_ARGS__);                                                 \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(status_));      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (false)

/// A particle: the grid cell it is in, its depth along the view direction, and what is not
/// sorted on.
struct particle {
  std::uint32_t cell;
  float depth;
};

/// Sort by cell, then by depth (floats order as numbers: negative depths first, -0.0 == +0.0).
struct by_cell_depth {
  __host__ __device__ tup::tuple<std::uint32_t&, float&> operator()(particle& p) const { return {p.cell, p.depth}; }
};

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }

  const std::size_t n = std::size_t(1) << 17;
  const std::uint32_t cells = 64;
  std::vector<particle> particles(n);
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> depth(-10.0f, 100.0f);
  for (particle& p : particles) {
    p.cell = std::uint32_t(rng() % cells);
    p.depth = depth(rng);
  }
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);

  particle* d_particles = nullptr;
  std::uint32_t* d_ids = nullptr;
  CHECK(cudaMalloc(&d_particles, n * sizeof(particle)));
  CHECK(cudaMalloc(&d_ids, n * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(d_particles, particles.data(), n * sizeof(particle), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ids, ids.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));

  CHECK(ringsweep::sort_pairs(d_particles, d_ids, n, by_cell_depth{}));  // in place, stable

  std::vector<particle> sorted(n);
  std::vector<std::uint32_t> sorted_ids(n);
  CHECK(cudaMemcpy(sorted.data(), d_particles, n * sizeof(particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sorted_ids.data(), d_ids, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_particles));
  CHECK(cudaFree(d_ids));

  // The host's stable sort of the indices by (cell, depth) is the reference.
  std::vector<std::uint32_t> want(ids);
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) {
    const particle& x = particles[a];
    const particle& y = particles[b];
    return x.cell != y.cell ? x.cell < y.cell : x.depth < y.depth;
  });
  for (std::size_t i = 0; i < n; ++i) {
    if (sorted_ids[i] != want[i] || std::memcmp(&sorted[i], &particles[want[i]], sizeof(particle)) != 0) {
      std::printf("WRONG: position %zu holds particle %u, expected %u\n", i, sorted_ids[i], want[i]);
      return 1;
    }
  }
  // Where each cell starts: the first particle of each cell is its nearest.
  std::size_t starts = 0;
  for (std::size_t i = 0; i < n; ++i) starts += (i == 0 || sorted[i].cell != sorted[i - 1].cell);
  std::printf("sorted %zu particles by (cell, depth): %zu cells, cell 0 nearest depth %g, last %u at depth %g\n", n,
              starts, double(sorted.front().depth), sorted.back().cell, double(sorted.back().depth));
  return 0;
}
