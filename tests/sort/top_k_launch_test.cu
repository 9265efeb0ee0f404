// Launches of one top-k call, counted by the SIMT backend (simt::kernel_launches): on random u32
// keys with the shipped policy, the first read, the levels and the candidates' sort (3, at most 4):
// one block while the k candidates fit the small sort's tile, one cooperative launch of a block per
// tile above it (k = 65536), values and indices written by that launch or by one gather after the
// small sort (docs/design.md section 15). The result still the first k of std::stable_sort.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>
#include <ringsweep_simt/control.hpp>

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "sort_test_util.cuh"

namespace {

struct counted {
  unsigned long long launches = 0, memsets = 0;
};

/// One top_k_keys call of `keys` (shipped policy): its launches and memsets; checks the result.
counted top_k_launches(const std::vector<std::uint32_t>& keys, std::size_t k, ringsweep::sort_order order) {
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<std::uint32_t> in(keys), out(k);
  ringsweep::sort_options opts;
  opts.order = order;
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::top_k_keys(nullptr, bytes, in.data(), out.data(), n, k, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const unsigned long long l0 = simt::kernel_launches(), m0 = simt::memset_calls();
  REQUIRE_CUDA(ringsweep::top_k_keys(temp.data(), bytes, in.data(), out.data(), n, k, opts));
  const counted c{simt::kernel_launches() - l0, simt::memset_calls() - m0};
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto ref = ringsweep_test::reference_order(keys, opts);
  const auto got = out.download();
  for (std::size_t i = 0; i < k; ++i) {
    INFO("k " << k << ", i " << i);
    REQUIRE(got[i] == keys[ref[i]]);
  }
  return c;
}

/// One top_k_indices call (keys and 4-byte positions) and one top_k_pairs call: their launches;
/// checks every output.
std::pair<unsigned long long, unsigned long long> top_k_value_launches(const std::vector<std::uint32_t>& keys,
                                                                       std::size_t k) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i * 2654435761u);
  ringsweep_test::device_buffer<std::uint32_t> in(keys), vin(values), out(k), idx(k);
  const auto count = [&](auto call) {
    std::size_t bytes = 0;
    REQUIRE_CUDA(call(nullptr, bytes));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const unsigned long long l0 = simt::kernel_launches();
    REQUIRE_CUDA(call(temp.data(), bytes));
    const unsigned long long launches = simt::kernel_launches() - l0;
    REQUIRE_CUDA(cudaDeviceSynchronize());
    return launches;
  };
  const auto ref = ringsweep_test::reference_order(keys, ringsweep::sort_options{});
  const unsigned long long indices = count([&](void* t, std::size_t& b) {
    return ringsweep::top_k_indices(t, b, in.data(), out.data(), idx.data(), n, k);
  });
  auto got = out.download();
  auto pos = idx.download();
  for (std::size_t i = 0; i < k; ++i) {
    INFO("indices, k " << k << ", i " << i);
    REQUIRE(got[i] == keys[ref[i]]);
    REQUIRE(pos[i] == ref[i]);
  }
  const unsigned long long pairs = count([&](void* t, std::size_t& b) {
    return ringsweep::top_k_pairs(t, b, in.data(), out.data(), vin.data(), idx.data(), n, k);
  });
  got = out.download();
  pos = idx.download();
  for (std::size_t i = 0; i < k; ++i) {
    INFO("pairs, k " << k << ", i " << i);
    REQUIRE(got[i] == keys[ref[i]]);
    REQUIRE(pos[i] == values[ref[i]]);
  }
  return {indices, pairs};
}

/// policy_tiny (192-key sort tiles of 64 threads) with candidate buffers of at least 2^15 keys.
struct policy_tiny_resident : ringsweep_test::policy_tiny {
  static constexpr int TOP_K_MIN_CAPACITY = 1 << 15;
};

__global__ void probe_kernel() {}

}  // namespace

TEST_CASE("top-k's one-launch sort only while every block is resident", "[sort][top_k]") {
  // The backend holds SMs x (blocks of 64 threads an SM) at once; k up to that many 192-key tiles
  // is sorted in one cooperative launch (3 launches in all), one key more by the onesweep sort.
  int device = 0, sms = 0, per_sm = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  REQUIRE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe_kernel, 64, 0));
  const std::size_t edge = std::size_t(sms) * std::size_t(per_sm) * 192;
  REQUIRE(edge < std::size_t(policy_tiny_resident::TOP_K_MIN_CAPACITY));
  const std::size_t n = edge + 500;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform,
                                                             ringsweep_test::catch_seed());
  const auto ref = ringsweep_test::reference_order(keys, ringsweep::sort_options{});
  ringsweep_test::device_buffer<std::uint32_t> in(keys), out(edge + 1);
  for (const std::size_t k : {edge, edge + 1}) {
    INFO("k " << k << " (" << sms << " SMs x " << per_sm << " blocks of 192 keys: " << edge << ")");
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::top_k_keys<policy_tiny_resident>(nullptr, bytes, in.data(), out.data(), n, k));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const unsigned long long l0 = simt::kernel_launches();
    REQUIRE_CUDA(ringsweep::tuning::top_k_keys<policy_tiny_resident>(temp.data(), bytes, in.data(), out.data(), n, k));
    const unsigned long long launches = simt::kernel_launches() - l0;
    REQUIRE_CUDA(cudaDeviceSynchronize());
    std::printf("top-k launches, policy_tiny, n %zu, k %zu: %llu launches\n", n, k, launches);
    if (k == edge) {
      CHECK(launches == 3);
    } else {
      CHECK(launches > 4);
    }
    const auto got = out.download();
    for (std::size_t i = 0; i < k; ++i) {
      INFO("i " << i);
      REQUIRE(got[i] == keys[ref[i]]);
    }
  }
}

TEST_CASE("top-k of random keys takes at most 4 launches", "[sort][top_k]") {
  // 2^18 keys: 128 ranges of 2048 keys (the shipped policy's select tile), candidate buffers of
  // 65536 keys; k up to 4096, the small sort's tile of the default policy (sm_80's and sm_90's
  // are larger), and k = 65536 above it.
  const std::size_t n = std::size_t(1) << 18;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform,
                                                             ringsweep_test::catch_seed());
  for (const auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    for (const std::size_t k : {std::size_t(1), std::size_t(64), std::size_t(1024), std::size_t(4096)}) {
      const counted c = top_k_launches(keys, k, order);
      std::printf("top-k launches, n %zu, k %6zu: %llu launches, %llu memsets\n", n, k, c.launches, c.memsets);
      INFO("k " << k);
      CHECK(c.launches <= 4);
      CHECK(c.memsets <= 1);
    }
    // Above the small sort's tile: one cooperative launch of a block per tile sorts the candidates.
    const counted c = top_k_launches(keys, 65536, order);
    std::printf("top-k launches, n %zu, k %6d: %llu launches, %llu memsets\n", n, 65536, c.launches, c.memsets);
    CHECK(c.launches <= 4);
    CHECK(c.memsets <= 1);
  }
  // Indices and pairs: the small sort and a gather (4 launches); above its tile, the sort's one
  // launch writes them (3).
  for (const std::size_t k : {std::size_t(1024), std::size_t(65536)}) {
    const auto [indices, pairs] = top_k_value_launches(keys, k);
    std::printf("top-k launches, n %zu, k %6zu: indices %llu, pairs %llu launches\n", n, k, indices, pairs);
    INFO("k " << k);
    CHECK(indices <= (k <= 4096 ? 4u : 3u));
    CHECK(pairs <= (k <= 4096 ? 4u : 3u));
  }
}
