// The sort kernels under race detection (RINGSWEEP_SANITIZE=thread): a few small sorts that go
// through every kernel (histogram, scan, onesweep with several tiles and portions, the one-block
// small sort), keys and pairs. ThreadSanitizer reports any shared-memory access pair without a
// barrier between; the sorted output is checked as well. Sizes stay small: TSan is slow.
#include <catch2/catch.hpp>

#include "robustness_util.cuh"

TEST_CASE("sort kernels run race-free: tiny policy, keys and pairs", "[race]") {
  using policy = robustness::ring_policy<4, 2, 1>;
  const std::size_t n = GENERATE(std::size_t(50), std::size_t(128), std::size_t(1000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 11 + n, 2);
  CHECK(robustness::sort_and_check<policy>(keys, false));
  CHECK(robustness::sort_and_check<policy>(keys, true));
}

TEST_CASE("sort kernels run race-free: the device's policy", "[race]") {
  const std::size_t n = GENERATE(std::size_t(3000), std::size_t(20000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 7 + n);
  ringsweep_test::device_buffer<std::uint32_t> d(keys);
  REQUIRE_CUDA(ringsweep::sort_keys(d.data(), n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  CHECK(d.download() == expected);
}

// The backend reports compute capability 9.0, so the public API picks policy_sm90 there; this runs
// the sm_80 policy's kernels (tile shapes, items per thread) on the backend too.
TEST_CASE("sort kernels run race-free: the sm_80 policy", "[race]") {
  const std::size_t n = GENERATE(std::size_t(5000), std::size_t(20000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 3 + n);
  CHECK(robustness::sort_and_check<ringsweep::policy_sm80>(keys, false));
  CHECK(robustness::sort_and_check<ringsweep::policy_sm80>(keys, true));
}
