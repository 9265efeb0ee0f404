// The sort kernels under race detection (RINGSWEEP_SANITIZE=thread): a few small sorts that go
// through every kernel (histogram, scan, onesweep with several tiles and portions, the one-block
// small sort), keys and pairs. ThreadSanitizer reports any shared-memory access pair without a
// barrier between; the sorted output is checked as well. Sizes stay small: TSan is slow.
#include <catch2/catch.hpp>

#include "robustness_util.cuh"

TEST_CASE("sort kernels run race-free: tiny policy, keys and pairs", "[race]") {
  using policy = ringsweep_test::policy_ring<4, 2, 1>;
  const std::size_t n = GENERATE(std::size_t(50), std::size_t(128), std::size_t(1000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 11 + n, 2);
  CHECK(ringsweep_test::sort_and_check<policy>(keys, false));
  CHECK(ringsweep_test::sort_and_check<policy>(keys, true));
}

namespace race_sort_test {
/// policy_ring with 8 keys per thread loaded through vectors: two 4-key chunks per lane pass
/// through each warp's stage (external linkage: nvcc warns about unread members otherwise).
struct vector_ring : ringsweep_test::policy_ring<4, 2, 1> {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 8, 8, 64 * 8 * 4).vector_loads(4);
  }
};
}  // namespace race_sort_test

TEST_CASE("sort kernels run race-free: vector loads through the warps' stages", "[race]") {
  using policy = race_sort_test::vector_ring;
  STATIC_REQUIRE(ringsweep::detail::warp_vector_load<std::uint32_t, 8>::CHUNKS == 2);
  const std::size_t n = GENERATE(std::size_t(1000), std::size_t(3000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 5 + n);
  CHECK(ringsweep_test::sort_and_check<policy>(keys, false));
  CHECK(ringsweep_test::sort_and_check<policy>(keys, true));
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
  CHECK(ringsweep_test::sort_and_check<ringsweep::policy_sm80>(keys, false));
  CHECK(ringsweep_test::sort_and_check<ringsweep::policy_sm80>(keys, true));
}
