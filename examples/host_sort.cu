// Data larger than the GPU: ringsweep::host_sort_pairs sorts host arrays in place, streaming them
// through the GPU (or several) in chunks that fit its memory.
//
// An event log of 1.5 million (timestamp, event id) pairs in host memory is sorted by timestamp
// with the device budget capped at 8 MiB, so the data (18 MiB) does not fit and takes the streamed
// path: partition by the top digit, then groups of buckets sorted chunk by chunk. A progress
// callback reports from the calling thread. The result is the same as a device sort's: stable.
//
//     ringsweep::host_sort_config cfg;
//     cfg.device_bytes = 8 << 20;           // 0 (default): 80% of the free device memory
//     ringsweep::host_sort_pairs(h_time, h_event, n, {}, cfg);
//
// Built for the CPU SIMT backend (example_host_sort, run by ctest) and by nvcc for a GPU
// (example_host_sort_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }

  // Timestamps: an almost sorted stream with late arrivals, and duplicates.
  const std::size_t n = 1500000;
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> time(n);
  std::vector<std::uint32_t> event(n);
  for (std::size_t i = 0; i < n; ++i) {
    time[i] = 1700000000000ull + i * 3 - (rng() % 16 == 0 ? rng() % 100000 : 0);
    event[i] = std::uint32_t(i);
  }
  const std::vector<std::uint64_t> original = time;

  ringsweep::host_sort_config cfg;
  cfg.device_bytes = 8 << 20;
  double last = 0;
  cfg.progress_user = &last;
  cfg.progress = [](double fraction, void* user) {
    double& previous = *static_cast<double*>(user);
    if (fraction < previous) std::printf("progress went back: %f after %f\n", fraction, previous);
    previous = fraction;
  };
  const cudaError_t e = ringsweep::host_sort_pairs(time.data(), event.data(), n, {}, cfg);
  if (e != cudaSuccess) {
    std::printf("host_sort_pairs failed: %s\n", cudaGetErrorString(e));
    return 2;
  }

  // Reference: the host's stable sort of the event ids by timestamp.
  std::vector<std::uint32_t> want(n);
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return original[a] < original[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    if (event[i] != want[i] || time[i] != original[want[i]]) {
      std::printf("WRONG at %zu: event %u time %llu, expected event %u\n", i, event[i],
                  static_cast<unsigned long long>(time[i]), want[i]);
      return 1;
    }
  }
  if (last != 1.0) {
    std::printf("WRONG: progress ended at %f\n", last);
    return 1;
  }
  std::printf("sorted %zu host (timestamp, event) pairs through an 8 MiB device budget\n", n);
  return 0;
}
