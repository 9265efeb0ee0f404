// Host-resident pairs whose values are not 1, 2, 4, 8 or 16 bytes (3, 12, 24 and 64 bytes, an
// over-aligned one): the keys' host argsort with 4-byte positions, then one gather of the values
// on the host (device/host_sort_gather.cuh). Streamed through a 32 KiB budget (many chunks, a
// second partition level for the heavy keys) and whole, both orders, Zipf keys (many equal:
// stability), the caller's scratch of the documented size, and a failed allocation at every point
// leaving keys and values untouched. Reference: std::stable_sort.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
#endif

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "host_sort_test_policy.cuh"
#include "any_size_values.cuh"
#include "sort_test_util.cuh"

namespace {

using policy = host_sort_test::policy;
using ringsweep::sort_order;
using ringsweep_test::sort_options_of;
using u32 = std::uint32_t;

using namespace ringsweep_test::any_size;

/// Keys drawn from 300 distinct ones with weight 1 / rank: the first holds about 16% of them.
std::vector<u32> zipf_keys(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<u32> distinct(300);
  for (auto& d : distinct) d = u32(rng());
  std::vector<double> w(distinct.size());
  for (std::size_t r = 0; r < w.size(); ++r) w[r] = 1.0 / double(r + 1);
  std::discrete_distribution<std::size_t> pick(w.begin(), w.end());
  std::vector<u32> keys(n);
  for (auto& k : keys) k = distinct[pick(rng)];
  return keys;
}

ringsweep::host_sort_config budget(std::size_t bytes) {
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = bytes;
  return cfg;
}

template <class Value>
void check(const std::vector<u32>& keys, const ringsweep::sort_options& opts, const ringsweep::host_sort_config& cfg) {
  const std::size_t n = keys.size();
  INFO("value bytes " << sizeof(Value) << ", n " << n << ", budget " << cfg.device_bytes << ", "
                      << ringsweep_test::order_name(opts) << (cfg.h_scratch != nullptr ? ", caller's scratch" : ""));
  const auto order = ringsweep_test::reference_order(keys, opts);
  std::vector<u32> got = keys;
  auto values = ringsweep_test::index_values<Value>(n);
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(got.data(), values.data(), n, opts, cfg));
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i << " should hold input " << order[i]);
    REQUIRE(ringsweep_test::same_bytes(values[i], ringsweep_test::value_of_index<Value>(order[i])));
  }
}

template <class Value>
void check_both_orders(const std::vector<u32>& keys) {
  for (sort_order o : {sort_order::ascending, sort_order::descending}) {
    check<Value>(keys, sort_options_of(o), budget(32 << 10));  // streamed
  }
  check<Value>(std::vector<u32>(keys.begin(), keys.begin() + 1000), sort_options_of(sort_order::descending),
               budget(1 << 20));  // whole
}

}  // namespace

TEST_CASE("host sort pairs: values of any size", "[sort][host][any_size]") {
  const auto keys = zipf_keys(20000, ringsweep_test::catch_seed());
  check_both_orders<bytes_of<3>>(keys);
  check_both_orders<float3_like>(keys);
  check_both_orders<position_index>(keys);
  check_both_orders<words8x8>(keys);
  check_both_orders<aligned32>(keys);
}

TEST_CASE("host sort pairs of any size: the caller's scratch of the documented size", "[sort][host][any_size]") {
  // host_sort.cuh: round_up(n * sizeof(Key), alignof(Value)) + n * sizeof(Value) bytes.
  const auto keys = zipf_keys(5001, 5);
  const std::size_t n = keys.size();
  const auto scratch_for = [&](std::size_t value_bytes, std::size_t align) {
    return (n * sizeof(u32) + align - 1) / align * align + n * value_bytes;
  };
  {
    std::vector<std::uint64_t> scratch((scratch_for(sizeof(position_index), 8) + 7) / 8);
    ringsweep::host_sort_config cfg = budget(32 << 10);
    cfg.h_scratch = scratch.data();
    check<position_index>(keys, sort_options_of(sort_order::ascending), cfg);
  }
  {
    std::vector<unsigned char> scratch(scratch_for(3, 1));  // too small for the positions: its own
    ringsweep::host_sort_config cfg = budget(32 << 10);
    cfg.h_scratch = scratch.data();
    check<bytes_of<3>>(keys, sort_options_of(sort_order::descending), cfg);
  }
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("host sort pairs of any size: a failed allocation at any point loses nothing", "[sort][host][any_size]") {
  const auto keys = zipf_keys(6000, 9);
  const std::size_t n = keys.size();
  const auto order = ringsweep_test::reference_order(keys, sort_options_of(sort_order::ascending));
  std::vector<u32> probe = keys;
  auto probe_values = ringsweep_test::index_values<float3_like>(n);
  const unsigned long long before = simt::allocation_calls();
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(probe.data(), probe_values.data(), n, {}, budget(32 << 10)));
  const unsigned long long calls = simt::allocation_calls() - before;
  REQUIRE(calls >= 3);
  for (unsigned long long k = 1; k <= calls; ++k) {
    INFO("allocation call " << k << " of " << calls << " fails");
    std::vector<u32> got = keys;
    auto values = ringsweep_test::index_values<float3_like>(n);
    simt::fail_allocation(k);
    const cudaError_t e = ringsweep::tuning::host_sort_pairs<policy>(got.data(), values.data(), n, {}, budget(32 << 10));
    simt::fail_allocation(0);
    cudaGetLastError();
    if (e == cudaSuccess) {  // the scratch fell back to pageable memory
      CHECK(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(ringsweep_test::same_bytes(values[i], ringsweep_test::value_of_index<float3_like>(order[i])));
      }
    } else {
      CHECK(e == cudaErrorMemoryAllocation);
      CHECK(got == keys);  // untouched
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(ringsweep_test::same_bytes(values[i], ringsweep_test::value_of_index<float3_like>(i)));
      }
    }
  }
}
#endif
