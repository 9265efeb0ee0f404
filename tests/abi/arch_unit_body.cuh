// The body of each unit of arch_namespace_test, compiled once per architecture list (the including
// file names the function, ABI_UNIT_FUNCTION).
#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "arch_unit.cuh"

abi_test::unit_report ABI_UNIT_FUNCTION() {
  abi_test::unit_report r;
  r.error = ringsweep::detail::current_ptx_arch(r.ptx_arch);
  if (r.error != cudaSuccess) return r;
  r.error = ringsweep::detail::with_device_policy([&](auto policy) {
    r.tile = ringsweep::detail::tile_shape<decltype(policy), 4, 0>::TILE;
    return cudaSuccess;
  });
  if (r.error != cudaSuccess) return r;
  // Enough keys for the onesweep path with either shipped policy.
  const std::size_t n = 100000;
  std::vector<std::uint32_t> keys(n);
  std::uint32_t x = 12345u;
  for (auto& k : keys) k = x = x * 1664525u + 1013904223u;
  std::uint32_t* d = nullptr;
  if ((r.error = cudaMalloc(&d, n * sizeof(std::uint32_t))) != cudaSuccess) return r;
  r.error = cudaMemcpy(d, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice);
  if (r.error == cudaSuccess) r.error = ringsweep::sort_keys(d, n);
  if (r.error == cudaSuccess) r.error = cudaMemcpy(keys.data(), d, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d);
  r.sorted = r.error == cudaSuccess && std::is_sorted(keys.begin(), keys.end());
  return r;
}
