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

TEMPLATE_TEST_CASE("sort kernels run race-free: the pipelined kernel's staged keys and values", "[race][pipelined]",
                   ringsweep_test::policy_tiny_pipelined, ringsweep_test::policy_tiny_pipelined_cp_async) {
  // Four persistent blocks (one per SM) loop over 13 tiles of 192 keys, wrapping the 4-slot ring;
  // each tile's keys and values arrive by asynchronous copies (bulk copies on mbarriers, or
  // per-thread cp.async), whose landing TSan sees as a waiting thread's write.
  using policy = TestType;
  const std::size_t n = 2400;
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 7 + n);
  CHECK(ringsweep_test::sort_and_check<policy>(keys, false));
  CHECK(ringsweep_test::sort_and_check<policy>(keys, true));
}

TEST_CASE("sort kernels run race-free: the cache-hinted pass kernel", "[race][hints]") {
  // policy_tiny_hints above its threshold (1% of the 1 MiB L2 ctest sets: 1,310 u32 keys), so
  // every pass launches the hinted kernel (counted by its hooks).
  using policy = ringsweep_test::policy_tiny_hints;
  policy::hinted = policy::plain = 0;
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(2400, 9);
  CHECK(ringsweep_test::sort_and_check<policy>(keys, false));
  CHECK(ringsweep_test::sort_and_check<policy>(keys, true));
  CHECK(policy::hinted > 0);
  CHECK(policy::plain == 0);
}

TEST_CASE("sort kernels run race-free: the exchange fused into the ranking", "[race][fused]") {
  // Each warp stores its keys at their ranks while other warps still rank: the counters and the
  // keys must not share bytes, and the scatter reads the keys only after the look-back's barrier.
  using policy = ringsweep_test::policy_tiny_fused;
  const std::size_t n = GENERATE(std::size_t(1000), std::size_t(3000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 9 + n);
  CHECK(ringsweep_test::sort_and_check<policy>(keys, false));
}

TEST_CASE("sort kernels run race-free: programmatic dependent launches", "[race][dependent]") {
  // Every kernel after the histogram starts while its predecessor still runs (the backend overlaps
  // them as sm_90 does); a read of the predecessor's output before griddepcontrol.wait has no
  // order with its write and is a reported race (simt_race_canary_dependent_reported).
  using policy = ringsweep_test::policy_tiny_dependent_launch;
  const std::size_t n = GENERATE(std::size_t(1000), std::size_t(3000));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 3 + n);
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

TEST_CASE("segmented sort kernels run race-free: every segment class", "[race][segmented]") {
  // policy_ring<4, 2, 1>: 192-key tiles, tiny segments up to 128 keys (one warp), small up to one
  // tile (one block), large over a 4-slot ring; keys and pairs.
  using policy = ringsweep_test::policy_ring<4, 2, 1>;
  const std::vector<int> begin = {0, 3, 100, 250, 1300}, end = {3, 100, 250, 1300, 1310};
  const std::size_t n = 1310;
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 23, 2);
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = std::uint32_t(i);
  ringsweep_test::device_buffer<std::uint32_t> kin(keys), kout(n), vin(index), vout(n);
  ringsweep_test::device_buffer<int> b(begin), e(end);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::segmented_sort_pairs<policy>(nullptr, bytes, kin.data(), kout.data(), vin.data(),
                                                               vout.data(), n, begin.size(), b.data(), e.data()));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::segmented_sort_pairs<policy>(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                               vout.data(), n, begin.size(), b.data(), e.data()));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got = kout.download();
  const auto got_index = vout.download();
  for (std::size_t s = 0; s < begin.size(); ++s) {
    std::vector<std::uint32_t> order(std::size_t(end[s] - begin[s]));
    for (std::size_t j = 0; j < order.size(); ++j) order[j] = std::uint32_t(begin[s] + int(j));
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    for (std::size_t j = 0; j < order.size(); ++j) {
      INFO("segment " << s << ", position " << j);
      REQUIRE(got_index[std::size_t(begin[s]) + j] == order[j]);
      REQUIRE(got[std::size_t(begin[s]) + j] == keys[order[j]]);
    }
  }
}

TEST_CASE("host-resident sort: worker threads and streams race-free", "[race][host]") {
  // Two workers on device 0 (a device listed twice), two slots each: the chunks' copies and sorts
  // from three host threads, counted and gathered on the host.
  using policy = ringsweep_test::policy_ring<4, 2, 1>;
  const std::size_t n = 6000;  // 7 chunks of 875 pairs: slot = (100 KiB / 2 - temp) / 16 bytes
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 31, 2);
  std::vector<std::uint32_t> got = keys, values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
  const int devices[] = {0, 0};
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = 100 << 10;
  cfg.devices = devices;
  cfg.num_devices = 2;
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(got.data(), values.data(), n, {}, cfg));
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(values[i] == order[i]);
    REQUIRE(got[i] == keys[order[i]]);
  }
}

namespace race_sort_test {
/// policy_ring<4, 2, 1> with candidate buffers of at least 8 keys: a top-k of a few thousand keys
/// takes several ranges and several levels (external linkage, as vector_ring).
struct top_k_ring : ringsweep_test::policy_ring<4, 2, 1> {
  static constexpr int TOP_K_MIN_CAPACITY = 8;
};
/// policy_ring<4, 2, 1> with candidate buffers of at least 4096 keys: k from 129 to 512 are sorted
/// in one cooperative launch of 2 to 4 blocks of 128 keys.
struct top_k_ring_sort : ringsweep_test::policy_ring<4, 2, 1> {
  static constexpr int TOP_K_MIN_CAPACITY = 4096;
  static constexpr int TOP_K_SORT_BLOCKS = 4;
};
}  // namespace race_sort_test

/// The top k of `keys` by top_k_indices with `Policy`: keys and positions checked.
template <class Policy>
void race_top_k(const std::vector<std::uint32_t>& keys, std::size_t k) {
  const std::size_t n = keys.size();
  INFO("k " << k);
  ringsweep_test::device_buffer<std::uint32_t> in(keys), out(k), idx(k);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::top_k_indices<Policy>(nullptr, bytes, in.data(), out.data(), idx.data(), n, k));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::top_k_indices<Policy>(temp.data(), bytes, in.data(), out.data(), idx.data(), n, k));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
  const auto got = out.download();
  const auto got_idx = idx.download();
  for (std::size_t j = 0; j < k; ++j) {
    INFO("rank " << j);
    REQUIRE(got_idx[j] == order[j]);
    REQUIRE(got[j] == keys[order[j]]);
  }
}

TEST_CASE("top-k kernels run race-free: the first read, the levels' grid barriers, the final sort",
          "[race][top_k]") {
  // Random keys (two words AND-ed: some repeat) take the select down its levels, each a round of
  // the levels kernel (the pick and the moves between grid barriers); indices gather positions
  // after the small sort and the onesweep sort (k = 700: more than a candidate buffer), or come
  // with the keys from the candidates' one-launch sort (its grid barriers: 2 and 4 blocks).
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(3000, 31, 2);
  for (std::size_t k : {std::size_t(1), std::size_t(40), std::size_t(700)}) race_top_k<race_sort_test::top_k_ring>(keys, k);
  for (std::size_t k : {std::size_t(129), std::size_t(500)}) race_top_k<race_sort_test::top_k_ring_sort>(keys, k);
}
