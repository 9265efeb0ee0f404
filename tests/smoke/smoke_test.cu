// Proves the test machinery: one source, built for the SIMT backend and by nvcc, runs the same
// runtime calls the sort tests rely on, and checks the shared test helpers.

#include "test_util.cuh"

#include <bitset>
#include <cstdint>
#include <vector>

using ringsweep_test::device_buffer;

TEST_CASE("device memory round trip", "[smoke]") {
  const auto n = GENERATE(std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{1} << 16);
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, ringsweep_test::catch_seed());

  device_buffer<std::uint32_t> a(keys);
  device_buffer<std::uint32_t> b(n);
  if (n != 0) {
    REQUIRE_CUDA(cudaMemcpy(b.data(), a.data(), a.size_bytes(), cudaMemcpyDeviceToDevice));
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(b.download() == keys);

  b.fill_bytes(0xff);
  REQUIRE(b.download() == std::vector<std::uint32_t>(n, 0xffffffffu));

  device_buffer<std::uint32_t> moved(std::move(b));
  REQUIRE(moved.size() == n);
  REQUIRE(b.empty());
}

TEST_CASE("random keys are reproducible and entropy-reduced", "[smoke][test_util]") {
  constexpr std::size_t n = 1 << 14;
  REQUIRE(ringsweep_test::random_keys<std::uint64_t>(n, 7) == ringsweep_test::random_keys<std::uint64_t>(n, 7));
  REQUIRE(ringsweep_test::random_keys<std::uint64_t>(n, 7) != ringsweep_test::random_keys<std::uint64_t>(n, 8));

  for (int and_count = 0; and_count <= 5; ++and_count) {
    const auto keys = ringsweep_test::random_keys<std::uint64_t>(n, 11, and_count);
    double ones = 0;
    for (auto k : keys) {
      ones += static_cast<double>(std::bitset<64>(k).count());
    }
    const double expected = and_count == 0 ? 0.0 : 1.0 / static_cast<double>(1u << and_count);
    INFO("and_count " << and_count);
    REQUIRE(ones / (64.0 * n) == Approx(expected).margin(0.01));
  }
  REQUIRE(ringsweep_test::bit_entropy(1) == Approx(1.0));
  REQUIRE(ringsweep_test::bit_entropy(3) == Approx(0.544).margin(0.001));
  REQUIRE(ringsweep_test::bit_entropy(0) == 0.0);

  const auto small = ringsweep_test::random_ints<std::int8_t>(n, 3, -5, 5);
  for (auto v : small) {
    REQUIRE((v >= -5 && v <= 5));
  }
}
