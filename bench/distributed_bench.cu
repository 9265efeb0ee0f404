// The distributed sort's time per phase (ringsweep::mpi::sort_pairs, u32 keys and u32 values):
// the splitter search on the unsorted keys (histogram rounds and their all-reduces, the exclusive
// scan, the count all-to-all), the stable partition into runs (with the staged path's copies to
// the host and the commit agreement), the exchange, and the local sort of what arrived. Run it with
// mpiexec for each rank count; rank 0 prints one Markdown row per size: the slowest rank's time
// of each phase, the median over the repetitions.
//
//     mpiexec -n 4 ./ringsweep_distributed_bench [n_local ...]   (default 2^16 2^18 2^20; RS_REPS=5)
//
// On a GPU machine ranks share the GPUs round-robin (two ranks on one GPU: both sort on it).
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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#if !defined(RINGSWEEP_SIMT_BACKEND)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (rank == 0) std::printf("distributed_bench: no CUDA device\n");
    MPI_Finalize();
    return 77;
  }
  cudaSetDevice(rank % devices);
  const char* backend = "GPU";
#else
  const char* backend = "SIMT backend (CPU)";
#endif
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {std::size_t(1) << 16, std::size_t(1) << 18, std::size_t(1) << 20};
  const int reps = std::getenv("RS_REPS") != nullptr ? std::max(1, std::atoi(std::getenv("RS_REPS"))) : 5;
  const bool staged = ringsweep::mpi::get_exchange_settings().path == ringsweep::mpi::exchange_path::staged;
  if (rank == 0) {
    std::printf("# ringsweep::mpi::sort_pairs<u32, u32>, %d ranks, %s, exchange %s; ms, slowest rank, median of %d\n",
                ranks, backend, staged ? "staged" : "automatic", reps);
    std::printf("| ranks | n_local | splitters | partition | exchange | final sort | total | Mkeys/s (all ranks) |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
  }
  int status = 0;
  for (const std::size_t n : sizes) {
    std::vector<std::uint32_t> keys(n), values(n);
    std::mt19937 rng(99u + unsigned(rank));
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = rng();
      values[i] = std::uint32_t(i);
    }
    std::uint32_t *d_keys = nullptr, *d_values = nullptr;
    cudaMalloc(&d_keys, n * 4 + 4);
    cudaMalloc(&d_values, n * 4 + 4);
    std::vector<double> phase[5];
    for (int r = 0; r <= reps; ++r) {  // the first run warms up
      cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice);
      cudaMemcpy(d_values, values.data(), n * 4, cudaMemcpyHostToDevice);
      MPI_Barrier(MPI_COMM_WORLD);
      if (ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_keys, d_values, n) != cudaSuccess) status = 1;
      const ringsweep::mpi::phase_times t = ringsweep::mpi::last_phase_times();
      const double mine[5] = {t.splitters, t.partition, t.exchange, t.final_sort, t.total};
      double slowest[5];
      MPI_Allreduce(mine, slowest, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (r > 0) {
        for (int k = 0; k < 5; ++k) phase[k].push_back(slowest[k]);
      }
    }
    if (rank == 0) {
      const double total = median(phase[4]);
      std::printf("| %d | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", ranks, n, median(phase[0]) * 1e3,
                  median(phase[1]) * 1e3, median(phase[2]) * 1e3, median(phase[3]) * 1e3, total * 1e3,
                  double(n) * ranks / total / 1e6);
    }
    cudaFree(d_keys);
    cudaFree(d_values);
  }
  MPI_Finalize();
  return status;
}
