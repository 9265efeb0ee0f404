// Host-resident sorts, how they move data: a group of buckets is one copy in and one out per chunk
// it touches (pack_groups), the slots are allocated once per call, a pageable input goes through
// the page-locked scratch chunk by chunk, a caller's scratch serves call after call, and a failed
// copy leaves the caller's arrays untouched. The counts come from the SIMT backend.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "host_sort_test_policy.cuh"
#include "sort_test_util.cuh"

namespace {

using policy = host_sort_test::policy;
using ringsweep::detail::host_bucket;
using ringsweep::detail::host_extents;

ringsweep::host_sort_config budget(std::size_t bytes) {
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = bytes;
  return cfg;
}

bool same(const host_extents& a, const std::vector<std::pair<std::size_t, std::size_t>>& want) {
  if (a.list.size() != want.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (a.list[i].first != want[i].first || a.list[i].count != want[i].second) return false;
  }
  return true;
}

/// Sorts `keys` with index values through the test policy (`pinned`: from page-locked arrays),
/// checks keys and values against std::stable_sort.
void check_pairs(const std::vector<std::uint32_t>& keys, const ringsweep::host_sort_config& cfg, bool pinned) {
  const std::size_t n = keys.size();
  INFO("n " << n << ", budget " << cfg.device_bytes << (pinned ? ", page-locked input" : ", pageable input"));
  const auto order = ringsweep_test::reference_order(keys, {});
  std::vector<std::uint32_t> got = keys, values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
  std::uint32_t *k = got.data(), *v = values.data();
  if (pinned) {
    REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&k), n * sizeof(std::uint32_t)));
    REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&v), n * sizeof(std::uint32_t)));
    std::copy(got.begin(), got.end(), k);
    std::copy(values.begin(), values.end(), v);
  }
  const cudaError_t e = ringsweep::tuning::host_sort_pairs<policy>(k, v, n, {}, cfg);
  if (pinned) {
    std::copy(k, k + n, got.begin());
    std::copy(v, v + n, values.begin());
    cudaFreeHost(k);
    cudaFreeHost(v);
  }
  REQUIRE_CUDA(e);
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(values[i] == std::uint32_t(order[i]));
  }
}

}  // namespace

TEST_CASE("host sort: a group is one extent per chunk it touches", "[sort][host][groups]") {
  // Three chunks of 10 keys, [0, 10), [10, 20), [20, 30), partitioned by one digit (runs of 0 and 1
  // keys among them), then a fourth chunk's [30, 36).
  std::vector<host_bucket> buckets = {
      {host_extents{{{0, 3}, {20, 1}}}, 1},            // digit 0: 3 keys in chunk 0, none in 1, 1 in 2
      {host_extents{{{3, 1}, {10, 5}}}, 1},            // digit 1: 1, 5, none
      {host_extents{{{15, 1}, {21, 2}}}, 1},           // digit 2: none, 1, 2
      {host_extents{{{4, 6}, {16, 4}, {23, 7}}}, 2},   // no digit left (equal keys), larger than a group's room
      {host_extents{{{30, 1}}}, 1},                    // one key: no sort, and no group open
      {host_extents{{{31, 2}}}, 1},
      {host_extents{{{33, 2}, {35, 1}}}, 2},           // no digit left, fits the open group: joins it
  };
  std::vector<host_extents> order;
  const auto groups = ringsweep::detail::pack_groups(buckets, 12, 2, order);
  REQUIRE(groups.size() == 3);
  // Digits 0 and 1 (10 keys; digit 2 would make 13): their runs merged chunk by chunk, in address
  // order, which is each bucket's stable order.
  CHECK(same(groups[0], {{0, 4}, {10, 5}, {20, 1}}));
  CHECK(same(groups[1], {{15, 1}, {21, 2}}));
  CHECK(same(groups[2], {{31, 5}}));
  // The sorted data's runs: each group's extents (its sorted keys go back there in that order),
  // and the buckets left where they are.
  REQUIRE(order.size() == 5);
  CHECK(same(order[0], {{0, 4}, {10, 5}, {20, 1}}));
  CHECK(same(order[1], {{15, 1}, {21, 2}}));
  CHECK(same(order[2], {{4, 6}, {16, 4}, {23, 7}}));
  CHECK(same(order[3], {{30, 1}}));
  CHECK(same(order[4], {{31, 5}}));
}

TEST_CASE("host sort: runs of 0 and 1 keys across chunks, pageable and page-locked input", "[sort][host][groups]") {
  // Slots of a few hundred pairs: 40000 pairs are ~90 chunks. Eight dense digits (larger than a
  // slot: partitioned again by the next digit) and six sparse ones with a key every ~600 positions,
  // so a chunk holds 0, 1 or 2 keys of each; few distinct low bits, so ties test stability.
  const std::size_t n = 40000;
  std::mt19937 rng(ringsweep_test::catch_seed());
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t top = i % 101 == 0 ? 0x80u + std::uint32_t(i / 101 % 6) : std::uint32_t(rng() % 8) * 3;
    keys[i] = top << 24 | std::uint32_t(rng() % 16) << 16 | std::uint32_t(rng() % 4);
  }
  check_pairs(keys, budget(32 << 10), false);
  check_pairs(keys, budget(32 << 10), true);
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("host sort: copies per chunk and group, allocations once per call", "[sort][host][copies]") {
  // The shape measured on an H100 (2^27 keys, a budget of 1/8 of the data), scaled down: 2^15 and
  // 2^16 uniform keys through 32 KiB. Every top-digit bucket fits a slot: round 0 partitions each
  // chunk, then each group of consecutive buckets is sorted; every op is one batch in (its extents)
  // and one out (its extents and a partition's digit runs): 2 copy calls. Per extent and array
  // (until 2026-11-29) it was 3 per chunk (in, the runs, out) and 2 per (group, chunk it touches).
  for (const std::size_t n : {std::size_t(1) << 15, std::size_t(1) << 16}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 4);
    const ringsweep::host_sort_config cfg = budget(32 << 10);
    ringsweep::double_buffer<std::uint32_t> none(nullptr, nullptr);
    std::size_t temp = 0;
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<policy>(nullptr, temp, none, n));
    const std::size_t cap = ringsweep::detail::host_slot_capacity(cfg.device_bytes, 3, temp, sizeof(std::uint32_t));
    REQUIRE(cap >= 256);
    const std::size_t chunks = (n + cap - 1) / cap;
    // The groups as pack_groups makes them, and the chunks each touches.
    std::vector<std::size_t> digit_count(256, 0);
    for (std::uint32_t k : keys) ++digit_count[k >> 24];
    REQUIRE(*std::max_element(digit_count.begin(), digit_count.end()) <= cap);  // no second level
    std::vector<std::vector<bool>> has(chunks, std::vector<bool>(256, false));
    for (std::size_t i = 0; i < n; ++i) has[i / cap][keys[i] >> 24] = true;
    std::size_t groups = 0, group_chunks = 0;
    for (int lo = 0; lo < 256;) {
      int hi = lo;
      std::size_t size = 0;
      while (hi < 256 && size + digit_count[std::size_t(hi)] <= cap) size += digit_count[std::size_t(hi++)];
      ++groups;
      for (std::size_t c = 0; c < chunks; ++c) {
        group_chunks += std::any_of(has[c].begin() + lo, has[c].begin() + hi, [](bool b) { return b; }) ? 1 : 0;
      }
      lo = hi;
    }
    INFO("n " << n << ", slot " << cap << " keys, " << chunks << " chunks, " << groups << " groups");
#if RINGSWEEP_HOST_COPY_BATCH
    const unsigned long long want = 2 * chunks + 2 * groups;
    REQUIRE(want < 3 * chunks + 2 * group_chunks);  // the per-extent count: the shape tells them apart
#else
    const unsigned long long want = 3 * chunks + 2 * group_chunks;  // before CUDA 12.8: per extent
#endif
    for (const bool pinned : {false, true}) {
      if (pinned && n != (std::size_t(1) << 15)) continue;  // the larger size: pageable input only
      INFO((pinned ? "page-locked input" : "pageable input"));
      std::vector<std::uint32_t> got = keys;
      std::uint32_t* k = got.data();
      if (pinned) {
        REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&k), n * sizeof(std::uint32_t)));
        std::copy(keys.begin(), keys.end(), k);
      }
      simt::reset_peak_device_bytes();
      const unsigned long long copies = simt::copy_calls(), allocations = simt::allocation_calls();
      REQUIRE_CUDA(ringsweep::tuning::host_sort_keys<policy>(k, n, {}, cfg));
      const unsigned long long copied = simt::copy_calls() - copies, allocated = simt::allocation_calls() - allocations;
      if (pinned) {
        std::copy(k, k + n, got.begin());
        REQUIRE_CUDA(cudaFreeHost(k));
      }
      std::vector<std::uint32_t> want_keys = keys;
      std::sort(want_keys.begin(), want_keys.end());
      REQUIRE(got == want_keys);
      CHECK(copied == want);
      // The scratch, one device block for every slot, the digit counts' page-locked words.
      CHECK(allocated == 3);
      CHECK(simt::peak_device_bytes(0) <= cfg.device_bytes);
    }
  }
}

TEST_CASE("host sort: partition rounds after the first allocate nothing", "[sort][host][copies]") {
  // 90% one key: its bucket is partitioned again on every digit (4 rounds, then groups), still 3
  // allocation calls in all.
  const std::size_t n = std::size_t(1) << 15;
  auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 6);
  std::mt19937 rng(6);
  for (auto& k : keys) {
    if (rng() % 10 != 0) k = keys[0];
  }
  std::vector<std::uint32_t> got = keys, want = keys;
  std::sort(want.begin(), want.end());
  const unsigned long long allocations = simt::allocation_calls();
  REQUIRE_CUDA(ringsweep::tuning::host_sort_keys<policy>(got.data(), n, {}, budget(32 << 10)));
  CHECK(simt::allocation_calls() - allocations == 3);
  REQUIRE(got == want);
}

TEST_CASE("host sort: a caller's scratch, call after call, holds nothing after", "[sort][host][copies]") {
  // Repeated calls with one config and its page-locked scratch: two allocations per call (the
  // slots' device block and the digit counts), none of them kept.
  const std::size_t n = 30000;
  struct page_locked {
    void* p = nullptr;
    ~page_locked() { cudaFreeHost(p); }
  } scratch;
  REQUIRE_CUDA(cudaMallocHost(&scratch.p, 2 * n * sizeof(std::uint32_t)));
  ringsweep::host_sort_config cfg = budget(32 << 10);
  cfg.h_scratch = scratch.p;
  cfg.host_threads = 3;  // the pageable input's chunks into the scratch, and the gather, in 3 parts
  for (int call = 0; call < 3; ++call) {
    INFO("call " << call);
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 20 + call);
    const unsigned long long allocations = simt::allocation_calls();
    simt::reset_peak_device_bytes();
    check_pairs(keys, cfg, call == 1);
    const unsigned long long pinned_input = call == 1 ? 2 : 0;  // check_pairs' own
    CHECK(simt::allocation_calls() - allocations == 2 + pinned_input);
    CHECK(simt::peak_device_bytes(0) <= cfg.device_bytes);
    simt::reset_peak_device_bytes();  // from what is held now: nothing
    CHECK(simt::peak_device_bytes(0) == 0);
  }
}

TEST_CASE("host sort: a failed copy at any point loses nothing", "[sort][host][copies]") {
  // Every copy of a streamed sort comes before the final host copies into the caller's arrays: a
  // copy that fails (writing garbage over its destination) leaves them untouched.
  const std::size_t n = 20000;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 9);
  std::vector<std::uint32_t> probe = keys, values(n);
  const unsigned long long before = simt::copy_calls();
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(probe.data(), values.data(), n, {}, budget(32 << 10)));
  const unsigned long long calls = simt::copy_calls() - before;
  REQUIRE(calls >= 100);
  // The first copies (round 0's first chunk in, its counts, out), then every 1/9 of the way, the last.
  std::vector<unsigned long long> picks = {1, 2, 3, 4, 5, calls};
  for (unsigned long long k = calls / 9; k < calls; k += calls / 9) picks.push_back(k);
  for (const unsigned long long k : picks) {
    INFO("copy call " << k << " of " << calls << " fails");
    std::vector<std::uint32_t> got = keys, got_values(n);
    for (std::size_t i = 0; i < n; ++i) got_values[i] = std::uint32_t(i);
    simt::fail_copy(k);
    const cudaError_t e =
        ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, budget(32 << 10));
    simt::fail_copy(0);
    cudaGetLastError();
    CHECK(e == cudaErrorLaunchFailure);
    CHECK(got == keys);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(i));
  }
}

TEST_CASE("host sort: data that fits the device, a failed copy out loses nothing", "[sort][host][copies]") {
  // One batch in and one out (keys and values each); the copies out go to the scratch, not to the
  // caller's arrays: a failed one (garbage over all its destinations) leaves both untouched;
  // so does a failed allocation.
  // 3000 pairs cross the test policy's 512-key tiles (a onesweep sort, not the one-tile one).
  const std::size_t n = 3000;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 11);
  const auto order = ringsweep_test::reference_order(keys, {});
  const ringsweep::host_sort_config cfg = budget(8 << 20);
  std::vector<std::uint32_t> probe = keys, values(n);
  const unsigned long long before = simt::copy_calls();
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(probe.data(), values.data(), n, {}, cfg));
  const unsigned long long calls = simt::copy_calls() - before;
  // Keys and values in, keys and values out: the path of data that fits (2 calls per array before
  // CUDA 12.8).
  REQUIRE(calls == (RINGSWEEP_HOST_COPY_BATCH ? 2 : 4));
  for (unsigned long long k = 1; k <= calls; ++k) {
    INFO("copy call " << k << " of " << calls << " fails");
    std::vector<std::uint32_t> got = keys, got_values(n);
    for (std::size_t i = 0; i < n; ++i) got_values[i] = std::uint32_t(i);
    simt::fail_copy(k);
    const cudaError_t e = ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, cfg);
    simt::fail_copy(0);
    cudaGetLastError();
    CHECK(e == cudaErrorLaunchFailure);
    CHECK(got == keys);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(i));
  }
  // Its allocations: the slot and the scratch (page-locked; failing, pageable memory instead).
  const unsigned long long allocations = simt::allocation_calls();
  probe = keys;
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(probe.data(), values.data(), n, {}, cfg));
  const unsigned long long allocation_calls = simt::allocation_calls() - allocations;
  CHECK(allocation_calls == 2);
  for (unsigned long long k = 1; k <= allocation_calls; ++k) {
    INFO("allocation call " << k << " of " << allocation_calls << " fails");
    std::vector<std::uint32_t> got = keys, got_values(n);
    for (std::size_t i = 0; i < n; ++i) got_values[i] = std::uint32_t(i);
    simt::fail_allocation(k);
    const cudaError_t e = ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, cfg);
    simt::fail_allocation(0);
    cudaGetLastError();
    if (e == cudaSuccess) {  // the scratch fell back to pageable memory
      REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(order[i]));
    } else {
      CHECK(e == cudaErrorMemoryAllocation);
      CHECK(got == keys);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(i));
    }
  }
  // And without a failure: sorted, stably.
  std::vector<std::uint32_t> got = keys, got_values(n);
  for (std::size_t i = 0; i < n; ++i) got_values[i] = std::uint32_t(i);
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, cfg));
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(order[i]));
}

namespace {

/// The test policy with 8-bit digits: a partition op is one onesweep pass, whose histogram has the
/// digit runs.
struct policy8 : host_sort_test::policy {
  static constexpr int RADIX_BITS = 8;
};

/// Pairs of u32 a slot of a host sort of `n` pairs holds with policy8 and `cfg` (the slot holds the
/// sort's temporary storage for `n` keys, which grows with n up to the status ring's size).
std::size_t slot_pairs8(const ringsweep::host_sort_config& cfg, std::size_t n = std::size_t(1) << 20) {
  std::size_t temp = 0;
  ringsweep::double_buffer<std::uint32_t> none(nullptr, nullptr), none_values(nullptr, nullptr);
  if (ringsweep::tuning::sort_pairs<policy8>(nullptr, temp, none, none_values, n) != cudaSuccess) return 0;
  return ringsweep::detail::host_slot_capacity(cfg.device_bytes, 3, temp, 2 * sizeof(std::uint32_t));
}

/// Launches of each kernel (by name) while `f` runs.
template <class F>
std::vector<simt::kernel_traffic> kernels_of(F&& f) {
  simt::traffic_begin();
  f();
  return simt::traffic_end();
}

unsigned long long launches_of(const std::vector<simt::kernel_traffic>& kernels, const char* name) {
  unsigned long long launches = 0;
  for (const simt::kernel_traffic& k : kernels) {
    if (k.kernel.find(name) != std::string::npos) launches += k.launches;
  }
  return launches;
}

}  // namespace

TEST_CASE("host sort: partition runs from the sort's own histogram, no counting kernel", "[sort][host][copies]") {
  // With 8-bit digits a partition op of more than one tile is one onesweep pass: its runs are the
  // offsets the upfront histogram left in the temp, and digit_count_kernel does not run. Round 0
  // is 8 chunks of a slot each (no one-tile chunk); the 4-bit test policy still counts its runs.
  const ringsweep::host_sort_config cfg = budget(256 << 10);
  const std::size_t cap = slot_pairs8(cfg);
  REQUIRE(cap >= 2048);  // several tiles
  const std::size_t n = 8 * cap;
  REQUIRE(slot_pairs8(cfg, n) == cap);
  INFO("n " << n << ", slot " << cap << " pairs");
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 12);
  const auto values = ringsweep_test::index_values<std::uint32_t>(n);
  std::vector<std::uint32_t> got = keys, got_values = values;
  cudaError_t e = cudaSuccess;
  const auto kernels = kernels_of([&] {
    e = ringsweep::tuning::host_sort_pairs<policy8>(got.data(), got_values.data(), n, {}, cfg);
  });
  REQUIRE_CUDA(e);
  ringsweep_test::require_sorted(keys, got, {}, &values, &got_values);
  CHECK(launches_of(kernels, "histogram_kernel") >= 8);  // the names resolve: the check below means something
  CHECK(launches_of(kernels, "digit_count_kernel") == 0);
  // The 4-bit policy's partition is two passes: its histogram has no 8-bit runs, so it counts them.
  got = keys;
  got_values = values;
  const auto counted = kernels_of([&] {
    e = ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, cfg);
  });
  REQUIRE_CUDA(e);
  ringsweep_test::require_sorted(keys, got, {}, &values, &got_values);
  CHECK(launches_of(counted, "digit_count_kernel") > 0);
}

TEST_CASE("host sort: runs from the histogram, descending, bit windows, skew, one-tile chunks", "[sort][host][copies]") {
  // 8-bit digits, 5 slots and 300 pairs: round 0's last chunk is one tile, whose runs the kernel
  // counts, so both sources of runs meet in one sort. 90% one key makes its bucket partitioned
  // again on every digit; windows move the digits off byte bounds.
  const ringsweep::host_sort_config cfg = budget(256 << 10);
  const std::size_t n = 5 * slot_pairs8(cfg) + 300;
  REQUIRE(slot_pairs8(cfg, n) == slot_pairs8(cfg));
  auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 13);
  std::mt19937 rng(13);
  for (auto& k : keys) {
    if (rng() % 10 != 0) k = keys[0];
  }
  const auto values = ringsweep_test::index_values<std::uint32_t>(n);
  for (const auto& opts : {ringsweep_test::sort_options_of(ringsweep::sort_order::ascending),
                           ringsweep_test::sort_options_of(ringsweep::sort_order::descending),
                           ringsweep_test::sort_options_of(ringsweep::sort_order::ascending, 3, 29),
                           ringsweep_test::sort_options_of(ringsweep::sort_order::descending, 5, 17)}) {
    INFO(ringsweep_test::sort_case("u32/u32", n, opts));
    std::vector<std::uint32_t> got = keys, got_values = values;
    cudaError_t e = cudaSuccess;
    const auto kernels = kernels_of([&] {
      e = ringsweep::tuning::host_sort_pairs<policy8>(got.data(), got_values.data(), n, opts, cfg);
    });
    REQUIRE_CUDA(e);
    ringsweep_test::require_sorted(keys, got, opts, &values, &got_values);
    CHECK(launches_of(kernels, "histogram_kernel") > 0);
    CHECK(launches_of(kernels, "digit_count_kernel") > 0);
  }
}
#endif
