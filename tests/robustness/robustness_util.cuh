// Helpers of the robustness tests: a checked sort of random keys under any (test) policy.
#pragma once

#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "test_policies.cuh"
#include "test_util.cuh"

namespace ringsweep_test {

/// Sorts `keys` (with their indices as values when `pairs`) under `Policy` in the in/out form and
/// checks keys and values against std::stable_sort. Returns false (and records why) on a mismatch.
template <class Policy>
bool sort_and_check(const std::vector<std::uint32_t>& keys, bool pairs) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  device_buffer<std::uint32_t> k_in(keys), k_out(n), v_in(index), v_out(n);
  std::size_t temp_bytes = 0;
  cudaError_t e = pairs ? ringsweep::tuning::sort_pairs<Policy>(nullptr, temp_bytes, k_in.data(), k_out.data(),
                                                              v_in.data(), v_out.data(), n)
                        : ringsweep::tuning::sort_keys<Policy>(nullptr, temp_bytes, k_in.data(), k_out.data(), n);
  REQUIRE(e == cudaSuccess);
  device_buffer<unsigned char> temp(temp_bytes);
  e = pairs ? ringsweep::tuning::sort_pairs<Policy>(temp.data(), temp_bytes, k_in.data(), k_out.data(), v_in.data(),
                                                   v_out.data(), n)
            : ringsweep::tuning::sort_keys<Policy>(temp.data(), temp_bytes, k_in.data(), k_out.data(), n);
  REQUIRE(e == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<std::uint32_t> order = index;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  const std::vector<std::uint32_t> got_keys = k_out.download();
  for (std::size_t i = 0; i < n; ++i) {
    if (got_keys[i] != keys[order[i]]) {
      UNSCOPED_INFO("key mismatch at " << i << " of " << n);
      return false;
    }
  }
  if (pairs && v_out.download() != order) {
    UNSCOPED_INFO("value (stability) mismatch, n = " << n);
    return false;
  }
  return true;
}

}  // namespace ringsweep_test
