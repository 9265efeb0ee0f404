// Global traffic of a sort, counted by the SIMT backend: the histogram reads every key once, and
// every pass reads and writes every key and value exactly once; key loads are fully coalesced.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>
#include <ringsweep_simt/control.hpp>

#include <cstdint>
#include <vector>

#include "sort_test_util.cuh"

namespace {

struct totals {
  unsigned long long load_bytes = 0, store_bytes = 0, load_sectors = 0, store_sectors = 0;
};

totals sum(const std::vector<simt::kernel_traffic>& traffic) {
  totals t;
  for (const auto& k : traffic) {
    t.load_bytes += k.load_bytes;
    t.store_bytes += k.store_bytes;
    t.load_sectors += k.load_sectors;
    t.store_sectors += k.store_sectors;
  }
  return t;
}

}  // namespace

TEST_CASE("a sort moves each key and value once per pass", "[sort][traffic]") {
  using u32 = std::uint32_t;
  const std::size_t n = 20 * 192;  // whole tiles of the tiny policy: no ragged tile
  const auto keys = sort_test::make_keys<u32>(n, sort_test::distribution::uniform, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<u32> k0(keys), k1(n), v0(n), v1(n);
  std::size_t bytes = 0;
  ringsweep::double_buffer<u32> kb(k0.data(), k1.data()), vb(v0.data(), v1.data());
  REQUIRE_CUDA(ringsweep::detail::sort_pairs<ringsweep::policy_tiny>(nullptr, bytes, kb, vb, n));
  ringsweep_test::device_bytes temp(bytes);

  simt::traffic_begin();
  REQUIRE_CUDA(ringsweep::detail::sort_pairs<ringsweep::policy_tiny>(temp.data(), bytes, kb, vb, n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const totals t = sum(simt::traffic_end());

  const unsigned long long passes = 4, pair_bytes = 8;
  CHECK(t.load_bytes == n * sizeof(u32) + passes * n * pair_bytes);  // histogram + passes
  CHECK(t.store_bytes == passes * n * pair_bytes);
  // Loads are warp-contiguous: one 32-byte sector per 32 bytes loaded.
  CHECK(t.load_sectors == t.load_bytes / 32);
  // Scattered stores touch more sectors, but runs of one digit stay contiguous.
  CHECK(t.store_sectors >= t.store_bytes / 32);
  CHECK(t.store_sectors <= t.store_bytes / 4);
}
