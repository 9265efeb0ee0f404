// Particles spread over MPI ranks, sorted by grid cell across all ranks with
// ringsweep::mpi::sort_pairs: afterwards rank 0 holds the particles of the lowest cells, rank 1 the
// next ones, and so on, each rank keeping as many particles as it had. Checked on every rank and
// across neighbouring ranks; exits non-zero when anything is wrong.
//
//     mpiexec -n 4 ./example_distributed_sort [particles per rank]
#include <mpi.h>

#include <cuda_runtime.h>
#include <ringsweep/distributed.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct particle {
  float x, y, z;
  std::uint32_t id;  // global index before the sort: equal cells must keep increasing ids
};

constexpr int grid = 16;  // cells per axis of the unit cube

std::uint32_t cell_of(const particle& q) {
  auto axis = [](float v) { return std::uint32_t(std::min(grid - 1, std::max(0, int(v * grid)))); };
  return axis(q.x) + grid * (axis(q.y) + grid * axis(q.z));
}

#define CHECK_CUDA(call)                                                                 \
  do {                                                                                   \
    const cudaError_t e = (call);                                                        \
    if (e != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));             \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                      \
    }                                                                                    \
  } while (false)

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#if !defined(RINGSWEEP_SIMT_BACKEND)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (rank == 0) std::printf("distributed_sort: SKIPPED, no CUDA device\n");
    MPI_Finalize();
    return 77;
  }
  cudaSetDevice(rank % devices);
#endif
  const std::size_t base = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20000;
  const std::size_t n = base + std::size_t(rank) * base / 3;  // ranks hold different counts

  // Particles of this rank: clustered in the low corner on rank 0, spread elsewhere.
  std::uint64_t first = 0;
  const std::uint64_t n64 = n;
  MPI_Exscan(&n64, &first, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) first = 0;
  std::mt19937 rng(1234u + unsigned(rank));
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<particle> parts(n);
  std::vector<std::uint32_t> cells(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float s = rank == 0 ? 0.3f : 1.0f;
    parts[i] = {u(rng) * s, u(rng) * s, u(rng) * s, std::uint32_t(first + i)};
    cells[i] = cell_of(parts[i]);
  }

  std::uint32_t* d_cells = nullptr;
  particle* d_parts = nullptr;
  CHECK_CUDA(cudaMalloc(&d_cells, n * sizeof(std::uint32_t) + 1));
  CHECK_CUDA(cudaMalloc(&d_parts, n * sizeof(particle) + 1));
  CHECK_CUDA(cudaMemcpy(d_cells, cells.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_parts, parts.data(), n * sizeof(particle), cudaMemcpyHostToDevice));

  // Only the cell's 12 bits are sorted on: 2 digit passes instead of 4.
  ringsweep::sort_options opts;
  opts.end_bit = 12;
  CHECK_CUDA(ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_cells, d_parts, n, opts));
  const ringsweep::mpi::phase_times t = ringsweep::mpi::last_phase_times();

  std::vector<std::uint32_t> out_cells(n);
  std::vector<particle> out_parts(n);
  CHECK_CUDA(cudaMemcpy(out_cells.data(), d_cells, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out_parts.data(), d_parts, n * sizeof(particle), cudaMemcpyDeviceToHost));

  // Checks: each particle still with its cell; cells in order, and equal cells by increasing id;
  // the same across the boundary to the next rank; the ids' sum unchanged over all ranks.
  long bad = 0;
  std::uint64_t id_sum = 0, id_sum_before = 0;
  for (std::size_t i = 0; i < n; ++i) {
    id_sum += out_parts[i].id;
    id_sum_before += parts[i].id;
    if (cell_of(out_parts[i]) != out_cells[i]) ++bad;
    if (i > 0 && (out_cells[i - 1] > out_cells[i] ||
                  (out_cells[i - 1] == out_cells[i] && out_parts[i - 1].id >= out_parts[i].id))) {
      ++bad;
    }
  }
  // The last (cell, id) of each rank against the first of the next.
  std::uint64_t last[2] = {0, 0}, next_first[2] = {~0ull, ~0ull};
  if (n > 0) {
    last[0] = out_cells[n - 1];
    last[1] = out_parts[n - 1].id;
  }
  const std::uint64_t my_first[2] = {n > 0 ? out_cells[0] : ~0ull, n > 0 ? out_parts[0].id : ~0ull};
  MPI_Sendrecv(my_first, 2, MPI_UINT64_T, rank == 0 ? MPI_PROC_NULL : rank - 1, 0, next_first, 2, MPI_UINT64_T,
               rank == ranks - 1 ? MPI_PROC_NULL : rank + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (n > 0 && rank + 1 < ranks &&
      (last[0] > next_first[0] || (last[0] == next_first[0] && last[1] >= next_first[1]))) {
    ++bad;
  }
  std::uint64_t sums[2] = {id_sum, id_sum_before}, total[2] = {0, 0};
  MPI_Allreduce(sums, total, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (total[0] != total[1]) ++bad;
  long all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  if (rank == 0) {
    std::printf("distributed_sort: %d ranks, %zu particles on rank 0, sorted by cell: %s\n", ranks, n,
                all_bad == 0 ? "checked, right" : "WRONG");
    std::printf("  rank 0 phases (ms): splitters %.2f, partition %.2f, exchange %.2f, final sort %.2f, total %.2f\n",
                t.splitters * 1e3, t.partition * 1e3, t.exchange * 1e3, t.final_sort * 1e3, t.total * 1e3);
    std::printf("  rank 0 now holds cells %u..%u\n", n > 0 ? out_cells[0] : 0u, n > 0 ? out_cells[n - 1] : 0u);
  }
  cudaFree(d_cells);
  cudaFree(d_parts);
  // The sort keeps its buffers for the communicator's next call; give them back before the end.
  CHECK_CUDA(ringsweep::mpi::release_buffers(MPI_COMM_WORLD));
  MPI_Finalize();
  return all_bad == 0 ? 0 : 1;
}
