// The persistent pipelined onesweep kernel (PIPELINE_STAGES = 2) on the tiny test policy: blocks
// that take tiles in a loop, holding the next ticket while the current tile works, with its keys and
// values arriving by asynchronous copies (the copy engine's bulk copies on mbarriers, as on sm_90,
// and per-thread cp.async as on sm_80). Sizes cross tile, portion (three launches per pass, whose
// tickets include each block's last, tile-less one) and ring-wrap edges; every form, argsort,
// skipped passes, windows, and inputs not 16-byte aligned (copied without the asynchronous path).
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sort_test_util.cuh"
#include "sort_tiny_common.cuh"

namespace {

using ringsweep_test::distribution;
using ringsweep_test::sizes;
using ringsweep_test::tile;
using ringsweep_test::value16a;
using ringsweep_test::with_order;
using pipelined = ringsweep_test::policy_tiny_pipelined;
using pipelined_faulty = ringsweep_test::policy_tiny_pipelined_faulty;
using pipelined_cp_async = ringsweep_test::policy_tiny_pipelined_cp_async;

}  // namespace

TEST_CASE("pipelined onesweep: the tile's storage is dynamic shared memory, the grid one block per SM",
          "[sort][pipelined]") {
  using config = ringsweep::detail::sort_config<pipelined, std::uint32_t, ringsweep::detail::null_value>;
  STATIC_REQUIRE(config::PIPELINED);
#if defined(RINGSWEEP_VARIANT_SIMT)
  STATIC_REQUIRE(ringsweep::detail::has_bulk_copy());  // the SIMT backend models sm_90's copy engine
#endif
  STATIC_REQUIRE(config::TILE == tile);
  STATIC_REQUIRE(ringsweep::detail::onesweep_dynamic_shared_bytes<config>() >=
                 std::size_t(tile) * 4);
  using plain = ringsweep::detail::sort_config<ringsweep_test::policy_tiny, std::uint32_t,
                                               ringsweep::detail::null_value>;
  STATIC_REQUIRE(ringsweep::detail::onesweep_dynamic_shared_bytes<plain>() == 0);
}

TEST_CASE("pipelined onesweep: each block loops over tiles and takes one ticket past the last", "[sort][pipelined]") {
  // The sort's ticket counter ends at every pass's tiles plus one tile-less ticket per block of
  // every launch: proof that the persistent grid (one block per SM) ran, not one block per tile.
  using config = ringsweep::detail::sort_config<pipelined, std::uint32_t, ringsweep::detail::null_value>;
  int device = 0, sms = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(5 * tile + 17), std::size_t(20 * tile + 5)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + n);
    ringsweep_test::device_buffer<std::uint32_t> in(keys), out(n);
    ringsweep::detail::sort_plan<std::uint32_t> plan;
    REQUIRE_CUDA(config::make_plan(n, ringsweep::sort_options{}, true, plan));
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<pipelined>(nullptr, bytes, in.data(), out.data(), n));
    REQUIRE(bytes == plan.layout.bytes);
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<pipelined>(temp.data(), bytes, in.data(), out.data(), n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    std::uint32_t ticket = 0;
    REQUIRE_CUDA(cudaMemcpy(&ticket, ringsweep::detail::temp_piece<std::uint32_t>(temp.data(), plan.layout.counters) +
                                         config::COUNTER_TICKET,
                            sizeof ticket, cudaMemcpyDeviceToHost));
    std::size_t expected = 0;
    const std::size_t tiles = (n + tile - 1) / tile;
    for (std::size_t first = 0; first < tiles; first += pipelined::PORTION_TILES) {
      const std::size_t portion = std::min<std::size_t>(pipelined::PORTION_TILES, tiles - first);
      expected += portion + std::min<std::size_t>(portion, std::size_t(sms));
    }
    expected *= std::size_t(plan.window.passes);
    INFO("n " << n << ", " << sms << " SMs");
    REQUIRE(ticket == expected);
    REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys,
                                               ringsweep_test::reference_order(keys, ringsweep::sort_options{})) == -1);
  }
}

TEMPLATE_TEST_CASE("pipelined onesweep: keys and pairs over tile, portion and ring edges", "[sort][pipelined]",
                   std::uint32_t, std::uint64_t, std::uint8_t) {
  // 4-byte keys: tiles of whole 16-byte copies; 8-byte keys: another tile (fewer keys per thread);
  // 1-byte keys: ragged tiles whose last bytes are copied by plain loads.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    for (std::size_t n : sizes) {
      const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n);
      ringsweep_test::check_sort_keys<pipelined>(keys, with_order(o));
      ringsweep_test::check_sort_pairs<pipelined, TestType, std::uint32_t>(keys, with_order(o));
    }
  }
}

TEMPLATE_TEST_CASE("pipelined onesweep with per-thread cp.async copies instead of the copy engine",
                   "[sort][pipelined][cp_async]", std::uint32_t, std::uint8_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    for (std::size_t n : sizes) {
      const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n);
      ringsweep_test::check_sort_keys<pipelined_cp_async>(keys, with_order(o));
      ringsweep_test::check_sort_pairs<pipelined_cp_async, TestType, std::uint32_t>(keys, with_order(o));
    }
  }
}

TEST_CASE("pipelined onesweep: values of 1 and 16 bytes, uniform-digit tiles", "[sort][pipelined]") {
  // One digit per tile in most passes: the uniform-digit scatter with staged values.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto few = ringsweep_test::make_keys<std::uint32_t>(20 * tile + 5, distribution::few_distinct, seed);
  for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    ringsweep_test::check_sort_pairs<pipelined, std::uint32_t, std::uint8_t>(few, with_order(o));
    ringsweep_test::check_sort_pairs<pipelined, std::uint32_t, value16a>(few, with_order(o));
  }
}

TEST_CASE("pipelined onesweep: double buffer, in place, windows and skipped passes", "[sort][pipelined]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(5 * tile + 17), std::size_t(20 * tile + 5), std::size_t(45 * tile + 3)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + n);
    const auto high = ringsweep_test::make_keys<std::uint32_t>(n, distribution::high_bits_only, seed + n);
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      ringsweep_test::check_sort_double_buffer<pipelined, std::uint32_t, std::uint64_t, true>(keys, with_order(o));
      ringsweep_test::check_sort_double_buffer<pipelined, std::uint32_t, std::uint64_t, false>(high, with_order(o));
      ringsweep_test::check_sort_in_place<pipelined, std::uint32_t, std::uint64_t, true>(high, with_order(o));
      ringsweep_test::check_sort_pairs<pipelined, std::uint32_t, std::uint32_t>(
          keys, ringsweep_test::sort_options_of(o, 3, 21));
    }
  }
}

TEST_CASE("pipelined onesweep: argsort makes the indices of the staged tile", "[sort][pipelined]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(tile + 1), std::size_t(20 * tile + 5)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::few_distinct, seed + n);
    std::vector<std::uint32_t> idx(n);
    ringsweep_test::device_buffer<std::uint32_t> in(keys), out(n), d_idx(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::argsort<pipelined>(nullptr, bytes, in.data(), out.data(), d_idx.data(), n));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::argsort<pipelined>(temp.data(), bytes, in.data(), out.data(), d_idx.data(), n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto order = ringsweep_test::reference_order(keys, ringsweep::sort_options{});
    const auto got = d_idx.download();
    for (std::size_t i = 0; i < n; ++i) {
      INFO("n " << n << " position " << i);
      REQUIRE(got[i] == order[i]);
    }
    REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys, order) == -1);
  }
}

TEMPLATE_TEST_CASE("pipelined onesweep: keys and values not 16-byte aligned", "[sort][pipelined]", pipelined,
                   pipelined_cp_async) {
  using policy = TestType;
  // One element past a 256-byte aligned allocation: every tile is copied by plain loads.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 20 * tile + 5;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
  std::vector<std::uint32_t> padded(n + 1, 0u), values(n + 1, 0u);
  for (std::size_t i = 0; i < n; ++i) {
    padded[i + 1] = keys[i];
    values[i + 1] = std::uint32_t(i);
  }
  ringsweep_test::device_buffer<std::uint32_t> kin(padded), kout(n + 1), vin(values), vout(n + 1);
  kout.fill_bytes(0xAB);  // element 0 lies before the sort's output and must stay so
  vout.fill_bytes(0xAB);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<policy>(nullptr, bytes, kin.data() + 1, kout.data() + 1,
                                                     vin.data() + 1, vout.data() + 1, n));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<policy>(temp.data(), bytes, kin.data() + 1, kout.data() + 1,
                                                     vin.data() + 1, vout.data() + 1, n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto order = ringsweep_test::reference_order(keys, ringsweep::sort_options{});
  const auto got_keys = kout.download();
  const auto got_values = vout.download();
  REQUIRE(got_keys[0] == 0xABABABABu);
  REQUIRE(got_values[0] == 0xABABABABu);
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(got_keys[i + 1] == keys[order[i]]);
    REQUIRE(got_values[i + 1] == std::uint32_t(order[i]));
  }
}

TEST_CASE("pipelined onesweep under injected delays", "[sort][pipelined][faulty]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(5 * tile + 17), std::size_t(20 * tile + 5), std::size_t(33 * tile + 1)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + n);
    ringsweep_test::check_sort_keys<pipelined_faulty>(keys, with_order(ringsweep::sort_order::ascending));
    ringsweep_test::check_sort_pairs<pipelined_faulty, std::uint32_t, std::uint64_t>(
        keys, with_order(ringsweep::sort_order::descending));
  }
}
