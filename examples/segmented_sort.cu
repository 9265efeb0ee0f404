// Segmented sort: many independent sorts in one call.
//
// A sparse matrix in CSR form whose column indices are unordered within each row (as after an
// assembly or a transpose); ringsweep::segmented_sort_pairs sorts every row by column, carrying
// the values, with the row offsets as the segments: row r is [row_offsets[r], row_offsets[r + 1]).
// Rows range from empty to one row holding a fifth of the matrix, so every size class appears
// (one warp, one block, and the onesweep passes shared by all blocks). The host never reads the
// offsets and never waits: the call can be captured in a CUDA graph.
//
//     ringsweep::segmented_sort_pairs(nullptr, bytes, d_cols, d_cols_out, d_vals, d_vals_out, nnz, rows,
//                                     d_row_offsets, d_row_offsets + 1);          // size query
//     cudaMallocAsync(&d_temp, bytes, stream);
//     ringsweep::segmented_sort_pairs(d_temp, bytes, d_cols, d_cols_out, d_vals, d_vals_out, nnz, rows,
//                                     d_row_offsets, d_row_offsets + 1, {}, stream);
//
// Built for the CPU SIMT backend (example_segmented_sort, run by ctest) and by nvcc for a GPU
// (example_segmented_sort_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#define CHECK(...)                                                                        \
  do {                                                                                    \
    const cudaError_t status_ = (__VA_ARGS__);                                            \
    if (status_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(status_)); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (false)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }

  // A 5000 x 1000000 matrix: most rows hold 0 to 40 entries, a few hundreds to thousands, one a
  // fifth of all entries.
  const int rows = 5000;
  const std::uint32_t columns = 1000000;
  std::mt19937 rng(11);
  std::vector<int> row_offsets(rows + 1, 0);
  for (int r = 0; r < rows; ++r) {
    int entries = int(rng() % 41);
    if (r % 997 == 0) entries = 500 + int(rng() % 5000);
    row_offsets[r + 1] = row_offsets[r] + entries;
  }
  const int big_row = rows / 2;
  const int big = row_offsets[rows] / 4;  // one more row's worth: a fifth of the total
  for (int r = big_row + 1; r <= rows; ++r) row_offsets[r] += big;
  const std::size_t nnz = std::size_t(row_offsets[rows]);
  std::vector<std::uint32_t> cols(nnz);
  std::vector<float> vals(nnz);
  for (std::size_t i = 0; i < nnz; ++i) {
    cols[i] = std::uint32_t(rng() % columns);
    vals[i] = float(i);  // the entry's position before sorting: shows that values follow their keys
  }

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::uint32_t *d_cols, *d_cols_out;
  float *d_vals, *d_vals_out;
  int* d_row_offsets;
  CHECK(cudaMalloc(&d_cols, nnz * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_cols_out, nnz * sizeof(std::uint32_t)));
  CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_vals_out, nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_row_offsets, (rows + 1) * sizeof(int)));
  CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_row_offsets, row_offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));

  // Column indices are below 2^20: sorting on bits [0, 20) takes 3 passes instead of 4.
  ringsweep::sort_options by_column;
  by_column.end_bit = 20;
  std::size_t temp_bytes = 0;
  CHECK(ringsweep::segmented_sort_pairs(nullptr, temp_bytes, d_cols, d_cols_out, d_vals, d_vals_out, nnz,
                                        std::size_t(rows), d_row_offsets, d_row_offsets + 1, by_column));
  void* d_temp = nullptr;
  CHECK(cudaMallocAsync(&d_temp, temp_bytes, stream));
  CHECK(ringsweep::segmented_sort_pairs(d_temp, temp_bytes, d_cols, d_cols_out, d_vals, d_vals_out, nnz,
                                        std::size_t(rows), d_row_offsets, d_row_offsets + 1, by_column, stream));
  CHECK(cudaFreeAsync(d_temp, stream));

  std::vector<std::uint32_t> cols_out(nnz);
  std::vector<float> vals_out(nnz);
  CHECK(cudaMemcpyAsync(cols_out.data(), d_cols_out, nnz * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(vals_out.data(), d_vals_out, nnz * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (void* p : {static_cast<void*>(d_cols), static_cast<void*>(d_cols_out), static_cast<void*>(d_vals),
                  static_cast<void*>(d_vals_out), static_cast<void*>(d_row_offsets)}) {
    CHECK(cudaFree(p));
  }
  CHECK(cudaStreamDestroy(stream));

  // Reference: each row sorted stably on the host.
  for (int r = 0; r < rows; ++r) {
    std::vector<std::size_t> order(std::size_t(row_offsets[r + 1] - row_offsets[r]));
    std::iota(order.begin(), order.end(), std::size_t(row_offsets[r]));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cols[a] < cols[b]; });
    for (std::size_t j = 0; j < order.size(); ++j) {
      const std::size_t at = std::size_t(row_offsets[r]) + j;
      if (cols_out[at] != cols[order[j]] || vals_out[at] != vals[order[j]]) {
        std::printf("WRONG: row %d, entry %zu: column %u value %g, expected column %u value %g\n", r, j, cols_out[at],
                    double(vals_out[at]), cols[order[j]], double(vals[order[j]]));
        return 1;
      }
    }
  }
  int longest = 0;
  for (int r = 0; r < rows; ++r) longest = std::max(longest, row_offsets[r + 1] - row_offsets[r]);
  std::printf("segmented sort of %d CSR rows (%zu entries, longest row %d): every row sorted by column\n", rows, nnz,
              longest);
  return 0;
}
