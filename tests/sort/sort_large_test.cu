// One large sort (2^20 keys) with the device's own policy: many tiles per pass, the full-size
// status buffer, and the persistent histogram grid.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <vector>

#include "sort_test_util.cuh"

TEST_CASE("2^20 random 32-bit keys with the device's policy", "[sort][large]") {
  using u32 = std::uint32_t;
  const std::size_t n = std::size_t(1) << 20;
  const auto keys = sort_test::make_keys<u32>(n, sort_test::distribution::uniform, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<u32> k0(keys), k1(n);
  ringsweep::double_buffer<u32> db(k0.data(), k1.data());
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, db, n));
  REQUIRE(bytes <= std::size_t(4) << 20);
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::sort_keys(temp.data(), bytes, db, n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(db.selector == 0);
  const auto got = k0.download();
  const auto order = sort_test::reference_order(keys, ringsweep::sort_options{});
  REQUIRE(sort_test::first_key_mismatch(got, keys, order) == -1);
}
