// Argsort: the permutation that sorts an array, without an index array.
//
// Particles are binned into the cells of a 64 x 64 grid; ringsweep::argsort by cell id gives
// `perm`, the particle indices grouped by cell. The sort makes each index itself where a pair sort
// would read a value, so nothing fills or reads a 0, 1, 2, ... array. It is stable, so within a
// cell the indices stay ascending. The key array is left untouched; the sorted keys come too (pass
// nullptr instead of d_cell_sorted when only the permutation is wanted). Two-phase temporary
// storage (size query, allocate, sort) on a stream.
//
//     ringsweep::argsort(nullptr, bytes, d_cell, d_cell_sorted, d_perm, n);   // size query
//     cudaMallocAsync(&d_temp, bytes, stream);
//     ringsweep::argsort(d_temp, bytes, d_cell, d_cell_sorted, d_perm, n, {}, stream);
//
// Built for the CPU SIMT backend (example_argsort, run by ctest) and by nvcc for a GPU
// (example_argsort_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
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

  // Random particles in the unit square; the key is the cell.
  const std::size_t n = 200000;
  const int grid = 64;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> x(n), y(n);
  std::vector<std::uint32_t> cell(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = unit(rng);
    y[i] = unit(rng);
    const int cx = std::min(int(x[i] * grid), grid - 1);
    const int cy = std::min(int(y[i] * grid), grid - 1);
    cell[i] = std::uint32_t(cy * grid + cx);
  }

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::uint32_t *d_cell, *d_cell_sorted, *d_perm;
  CHECK(cudaMalloc(&d_cell, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_cell_sorted, n * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_perm, n * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(d_cell, cell.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));

  // Cell ids are below 2^12: sorting on bits [0, 12) gives the same order in 2 passes instead of 4.
  ringsweep::sort_options by_cell;
  by_cell.end_bit = 12;

  std::size_t temp_bytes = 0;
  CHECK(ringsweep::argsort(nullptr, temp_bytes, d_cell, d_cell_sorted, d_perm, n, by_cell));
  void* d_temp = nullptr;
  CHECK(cudaMallocAsync(&d_temp, temp_bytes, stream));
  CHECK(ringsweep::argsort(d_temp, temp_bytes, d_cell, d_cell_sorted, d_perm, n, by_cell, stream));
  CHECK(cudaFreeAsync(d_temp, stream));

  std::vector<std::uint32_t> perm(n), cell_sorted(n), cell_after(n);
  CHECK(cudaMemcpyAsync(perm.data(), d_perm, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(cell_sorted.data(), d_cell_sorted, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(cell_after.data(), d_cell, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (std::uint32_t* p : {d_cell, d_cell_sorted, d_perm}) CHECK(cudaFree(p));
  CHECK(cudaStreamDestroy(stream));

  // Reference: the host's stable argsort.
  std::vector<std::uint32_t> want(n);
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return cell[a] < cell[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    if (perm[i] != want[i] || cell_sorted[i] != cell[want[i]]) {
      std::printf("WRONG: position %zu: particle %u in cell %u, expected particle %u in cell %u\n", i, perm[i],
                  cell_sorted[i], want[i], cell[want[i]]);
      return 1;
    }
  }
  if (cell_after != cell) {
    std::printf("WRONG: the input keys were modified\n");
    return 1;
  }

  // Use the permutation: the particles of one cell are now a contiguous run of `perm`.
  const std::uint32_t probe = cell[0];
  const auto run = std::equal_range(cell_sorted.begin(), cell_sorted.end(), probe);
  double sum_x = 0;
  for (auto it = run.first; it != run.second; ++it) sum_x += x[perm[std::size_t(it - cell_sorted.begin())]];
  std::printf("argsort of %zu particles by cell: cell %u holds %td particles, mean x %.4f\n", n, probe,
              run.second - run.first, sum_x / double(run.second - run.first));
  return 0;
}
