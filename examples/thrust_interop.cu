// Sorting the contents of thrust::device_vector with ringsweep, through raw device pointers.
//
// nvcc only: Thrust is a CUDA library and has no SIMT-backend build, so this example is built
// only when CUDA is enabled (example_thrust_interop_gpu; it exits with 77, "skipped", when no CUDA
// device is present). Everything here runs on the default stream, so Thrust's work and the sort
// are ordered without any extra synchronisation.
//
//     double* p = thrust::raw_pointer_cast(v.data());
//     ringsweep::sort_keys(d_temp, bytes, p, p_out, v.size());

#include <ringsweep/ringsweep.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

  const std::size_t n = std::size_t(1) << 20;
  std::vector<double> host(n);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 100.0);
  for (double& v : host) v = normal(rng);

  thrust::device_vector<double> keys(host.begin(), host.end());
  thrust::device_vector<double> keys_sorted(n);
  thrust::device_vector<std::uint32_t> index(n), perm(n);
  thrust::sequence(index.begin(), index.end());  // 0, 1, 2, ...

  const double* d_keys = thrust::raw_pointer_cast(keys.data());
  double* d_keys_sorted = thrust::raw_pointer_cast(keys_sorted.data());
  const std::uint32_t* d_index = thrust::raw_pointer_cast(index.data());
  std::uint32_t* d_perm = thrust::raw_pointer_cast(perm.data());

  // Size query, then the temporary storage as one more device_vector.
  std::size_t bytes = 0;
  CHECK(ringsweep::sort_pairs(nullptr, bytes, d_keys, d_keys_sorted, d_index, d_perm, n));
  thrust::device_vector<unsigned char> temp(bytes);
  CHECK(ringsweep::sort_pairs(thrust::raw_pointer_cast(temp.data()), bytes, d_keys, d_keys_sorted, d_index, d_perm, n));

  // Copying a device_vector to the host waits for the sort (same stream).
  const thrust::host_vector<double> got_keys = keys_sorted;
  const thrust::host_vector<std::uint32_t> got_perm = perm;

  std::vector<std::uint32_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = std::uint32_t(i);
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return host[a] < host[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    if (got_perm[i] != want[i] || got_keys[i] != host[want[i]]) {
      std::printf("WRONG: position %zu holds index %u, expected %u\n", i, unsigned(got_perm[i]), unsigned(want[i]));
      return 1;
    }
  }
  std::printf("sorted %zu doubles held in thrust::device_vector (with their argsort): min %.3f, max %.3f\n", n,
              got_keys[0], got_keys[n - 1]);
  return 0;
}
