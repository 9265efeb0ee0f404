// The distributed sort (ringsweep::mpi) from an outside project, on the CPU through the SIMT
// backend: keys spread over the ranks (run it alone or under mpiexec), sorted across them, checked.
#include <mpi.h>

#include <cuda_runtime.h>
#include <ringsweep/distributed.cuh>

#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::size_t n = 5000;
  std::vector<unsigned> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = unsigned((i * 2654435761u + unsigned(rank)) % 100000u);
  unsigned* d_keys = nullptr;
  cudaMalloc(&d_keys, n * sizeof(unsigned));
  cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  const cudaError_t e = ringsweep::mpi::sort_keys(MPI_COMM_WORLD, d_keys, n);
  cudaMemcpy(keys.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaFree(d_keys);
  int bad = e != cudaSuccess ? 1 : 0;
  for (std::size_t i = 1; i < n; ++i) bad |= keys[i - 1] > keys[i] ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf("sort_distributed_cpu: %s\n", any == 0 ? "sorted" : "WRONG");
  MPI_Finalize();
  return any;
}
