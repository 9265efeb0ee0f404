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
  const auto keys = ringsweep_test::make_keys<u32>(n, ringsweep_test::distribution::uniform, ringsweep_test::catch_seed());
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
  const auto order = ringsweep_test::reference_order(keys, ringsweep::sort_options{});
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
}

TEST_CASE("2^21 float pairs, descending, in/out form with the device's policy", "[sort][large]") {
  using u32 = std::uint32_t;
  const std::size_t n = std::size_t(1) << 21;
  const auto keys = ringsweep_test::make_keys<float>(n, ringsweep_test::distribution::few_distinct, ringsweep_test::catch_seed());
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
  ringsweep_test::device_buffer<float> kin(keys), kout(n);
  ringsweep_test::device_buffer<u32> vin(values), vout(n);
  ringsweep::sort_options opts;
  opts.order = ringsweep::sort_order::descending;
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto order = ringsweep_test::reference_order(keys, opts);
  REQUIRE(ringsweep_test::first_key_mismatch(kout.download(), keys, order) == -1);
  const auto got = vout.download();
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i) {
    if (got[i] != u32(order[i])) bad = i;
  }
  INFO("first value mismatch at " << bad);
  REQUIRE(bad == n);
}
