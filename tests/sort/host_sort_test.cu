// Host-resident sorts (host_sort_keys / host_sort_pairs): data 8-64x the device budget streamed
// through one or four (simulated) GPUs, against std::stable_sort. The chunk sorts use a test policy
// with 4-bit digits, so their constant temporary storage is a few KiB and budgets of 32-64 KiB
// make many chunks, many buckets and second partition levels out of a few hundred thousand keys.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
#endif

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#endif
#endif

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "host_sort_test_policy.cuh"
#include "sort_test_util.cuh"
#include "sort_tiny_common.cuh"

namespace {

using policy = host_sort_test::policy;
using ringsweep::sort_order;
using ringsweep_test::sort_options_of;

enum class shape { uniform, all_equal, dominant, zipf, sorted, reversed };

template <class Key>
std::vector<Key> make(std::size_t n, shape s, std::uint64_t seed) {
  using ringsweep_test::distribution;
  switch (s) {
    case shape::uniform: return ringsweep_test::make_keys<Key>(n, distribution::uniform, seed);
    case shape::all_equal: return ringsweep_test::make_keys<Key>(n, distribution::all_equal, seed);
    case shape::sorted: return ringsweep_test::make_keys<Key>(n, distribution::sorted, seed);
    case shape::reversed: return ringsweep_test::make_keys<Key>(n, distribution::reversed, seed);
    case shape::dominant: {  // 90% one key, whose bucket is far larger than a chunk
      auto keys = ringsweep_test::make_keys<Key>(n, distribution::uniform, seed);
      std::mt19937_64 rng(seed);
      for (auto& k : keys) {
        if (rng() % 10 != 0) k = keys[0];
      }
      return keys;
    }
    case shape::zipf: {  // key rank r drawn with weight 1 / r
      auto distinct = ringsweep_test::make_keys<Key>(4096, distribution::uniform, seed);
      std::vector<double> weights(distinct.size());
      for (std::size_t r = 0; r < weights.size(); ++r) weights[r] = 1.0 / double(r + 1);
      std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
      std::mt19937_64 rng(seed);
      std::vector<Key> keys(n);
      for (auto& k : keys) k = distinct[pick(rng)];
      return keys;
    }
  }
  return {};
}

ringsweep::host_sort_config budget(std::size_t bytes) {
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = bytes;
  return cfg;
}

/// Sorts `keys` (and index values when `Value` is not void) on the host through `Policy`, checks
/// the result against std::stable_sort.
template <class Key, class Value = void>
void check_host_sort(const std::vector<Key>& keys, const ringsweep::sort_options& opts,
                     const ringsweep::host_sort_config& cfg) {
  const std::size_t n = keys.size();
  INFO("n " << n << ", budget " << cfg.device_bytes << ", " << cfg.num_devices << " devices, "
            << ringsweep_test::order_name(opts) << ", bits [" << opts.begin_bit << ", " << opts.end_bit << ")");
  const auto order = ringsweep_test::reference_order(keys, opts);
  std::vector<Key> got = keys;
  if constexpr (std::is_void<Value>::value) {
    REQUIRE_CUDA(ringsweep::tuning::host_sort_keys<policy>(got.data(), n, opts, cfg));
  } else {
    std::vector<Value> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<Value>(i);
    REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(got.data(), values.data(), n, opts, cfg));
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i);
      REQUIRE(ringsweep_test::same_bytes(values[i], ringsweep_test::value_of_index<Value>(order[i])));
    }
  }
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
}

int device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

}  // namespace

TEST_CASE("host sort: 8-64x the budget, every shape of data", "[sort][host]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // 256 KiB of keys: 8x a 32 KiB budget, whose slots hold ~600 keys (three slots of a double
  // buffer and the few KiB of temporary storage each), so ~110 chunks; the dominant key's bucket
  // (90%) and Zipf's first (11%, 7300 keys) are still several slots: partitioned again. (Budgets
  // where three slots would hold fewer than 256 keys, 8-byte keys or values here, run two.)
  const std::size_t n = 1 << 16;
  for (shape s : {shape::uniform, shape::all_equal, shape::dominant, shape::zipf, shape::sorted, shape::reversed}) {
    INFO("shape " << int(s));
    const auto keys = make<std::uint32_t>(n, s, seed);
    check_host_sort(keys, sort_options_of(sort_order::ascending), budget(32 << 10));
  }
  // 64x: 2 MiB of 8-byte keys through 32 KiB, descending.
  check_host_sort(make<std::uint64_t>(1 << 18, shape::zipf, seed), sort_options_of(sort_order::descending),
                  budget(32 << 10));
  // The final copy into the caller's arrays cut among 7 host threads (parts cross bucket extents).
  ringsweep::host_sort_config threads = budget(32 << 10);
  threads.host_threads = 7;
  check_host_sort<std::uint32_t, std::uint32_t>(make<std::uint32_t>(n + 3, shape::zipf, seed), sort_options_of(sort_order::ascending),
                                                threads);
}

TEST_CASE("host sort: narrow keys, bit windows, descending, pairs of 1 to 16 bytes", "[sort][host]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // One-byte keys: at most 256 buckets, each far larger than a chunk and with no digit left.
  check_host_sort(make<std::uint8_t>(100000, shape::uniform, seed), sort_options_of(sort_order::ascending),
                  budget(32 << 10));
  const auto keys = make<std::uint32_t>(60000, shape::zipf, seed);
  check_host_sort(keys, sort_options_of(sort_order::descending, 4, 23), budget(32 << 10));
  check_host_sort(keys, sort_options_of(sort_order::ascending, 7, 7), budget(32 << 10));  // nothing to do
  check_host_sort<std::uint32_t, std::uint8_t>(keys, sort_options_of(sort_order::ascending), budget(32 << 10));
  check_host_sort<std::uint32_t, std::uint16_t>(keys, sort_options_of(sort_order::descending), budget(32 << 10));
  check_host_sort<std::uint32_t, std::uint32_t>(keys, sort_options_of(sort_order::ascending, 0, 20), budget(48 << 10));
  check_host_sort<std::uint32_t, double>(keys, sort_options_of(sort_order::ascending), budget(48 << 10));
  check_host_sort<std::uint32_t, ringsweep_test::value16a>(keys, sort_options_of(sort_order::ascending),
                                                           budget(64 << 10));
}

TEMPLATE_TEST_CASE("host sort: every key type", "[sort][host]", std::uint8_t, std::int8_t, std::uint16_t, std::int16_t,
                   std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, __half, __nv_bfloat16, float, double) {
  const auto keys = make<TestType>(30000, shape::uniform, ringsweep_test::catch_seed());
  check_host_sort(keys, sort_options_of(sort_order::ascending), budget(40 << 10));
  check_host_sort(keys, sort_options_of(sort_order::descending), budget(1 << 20));  // fits: one copy in and out
}

TEST_CASE("host sort: several devices give the same bytes", "[sort][host][devices]") {
  const int devices = device_count();
  if (devices < 4) {
    WARN("fewer than 4 devices (RINGSWEEP_SIMT_DEVICES=4 on the SIMT backend): skipped");
    return;
  }
  const auto keys = make<std::uint32_t>(1 << 17, shape::zipf, ringsweep_test::catch_seed());
  const int ids[] = {3, 0, 2, 1};
  ringsweep::host_sort_config cfg = budget(32 << 10);
  cfg.devices = ids;
  cfg.num_devices = 4;
  check_host_sort(keys, sort_options_of(sort_order::ascending), cfg);
  check_host_sort<std::uint32_t, std::uint64_t>(keys, sort_options_of(sort_order::descending), cfg);
  // The budget from the free memory (80%): RINGSWEEP_SIMT_DEVICE_BYTES caps each device.
  cfg.device_bytes = 0;
  check_host_sort(keys, sort_options_of(sort_order::ascending), cfg);
  int current = -1;
  REQUIRE_CUDA(cudaGetDevice(&current));
  CHECK(current == 0);  // the caller's device is left as it was
}

TEST_CASE("host sort: devices of unequal memory share the smallest one's budget", "[sort][host][unequal]") {
  // ctest runs this with RINGSWEEP_SIMT_DEVICES=4 and RINGSWEEP_SIMT_DEVICE_BYTES=4194304,1048576,2097152,3145728
  // (host_sort_test_simt_unequal_devices). The default budget is 80% of the free memory of the
  // device that has least: a chunk sized for a roomier device would not fit device 1's 1 MiB.
  const int devices = device_count();
  std::vector<std::size_t> free_bytes;
  for (int d = 0; d < devices; ++d) {
    std::size_t f = 0, total = 0;
    REQUIRE_CUDA(cudaSetDevice(d));
    REQUIRE_CUDA(cudaMemGetInfo(&f, &total));
    free_bytes.push_back(f);
  }
  REQUIRE_CUDA(cudaSetDevice(0));
  if (devices < 4 || *std::min_element(free_bytes.begin(), free_bytes.end()) ==
                         *std::max_element(free_bytes.begin(), free_bytes.end())) {
    // Given a list of sizes, the simulated devices must differ (a backend that took one size for all
    // would pass this case unseen).
    const char* sizes = std::getenv("RINGSWEEP_SIMT_DEVICE_BYTES");
    INFO("RINGSWEEP_SIMT_DEVICE_BYTES=" << (sizes != nullptr ? sizes : "(unset)") << ", " << devices << " devices");
    REQUIRE_FALSE((sizes != nullptr && std::strchr(sizes, ',') != nullptr));
    WARN("needs 4 devices of unequal memory (RINGSWEEP_SIMT_DEVICES=4, RINGSWEEP_SIMT_DEVICE_BYTES=a,b,c,d): skipped");
    return;
  }
  const std::size_t budget_bytes = *std::min_element(free_bytes.begin(), free_bytes.end()) / 10 * 8;
  const auto keys = make<std::uint32_t>(1 << 17, shape::zipf, ringsweep_test::catch_seed());
  // The roomiest device first (the data would fit its budget whole), then the smallest first.
  const int roomy_first[] = {0, 1, 2, 3}, small_first[] = {1, 3, 0, 2};
  for (const int* ids : {roomy_first, small_first}) {
    INFO("devices " << ids[0] << ", " << ids[1] << ", " << ids[2] << ", " << ids[3]);
    ringsweep::host_sort_config cfg;  // device_bytes 0: 80% of the free memory
    cfg.devices = ids;
    cfg.num_devices = 4;
#if defined(RINGSWEEP_VARIANT_SIMT)
    simt::reset_peak_device_bytes();
#endif
    check_host_sort(keys, sort_options_of(sort_order::ascending), cfg);
    check_host_sort<std::uint32_t, std::uint64_t>(keys, sort_options_of(sort_order::descending), cfg);
#if defined(RINGSWEEP_VARIANT_SIMT)
    // No device ever held more than the common budget.
    for (int d = 0; d < 4; ++d) {
      INFO("device " << d << " (" << free_bytes[std::size_t(d)] << " bytes free), budget " << budget_bytes);
      CHECK(simt::peak_device_bytes(d) <= budget_bytes);
    }
#endif
  }
}

TEST_CASE("host sort: page-locked input, the caller's scratch, progress", "[sort][host]") {
  const std::size_t n = 50000;
  const auto keys = make<std::uint32_t>(n, shape::uniform, ringsweep_test::catch_seed());
  const auto order = ringsweep_test::reference_order(keys, sort_options_of(sort_order::ascending));
  std::uint32_t* pinned = nullptr;
  REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), n * sizeof(std::uint32_t)));
  std::memcpy(pinned, keys.data(), n * sizeof(std::uint32_t));
  std::vector<std::uint32_t> scratch(n);
  std::vector<double> seen;
  ringsweep::host_sort_config cfg = budget(32 << 10);
  cfg.h_scratch = scratch.data();
  cfg.progress = [](double f, void* user) { static_cast<std::vector<double>*>(user)->push_back(f); };
  cfg.progress_user = &seen;
  REQUIRE_CUDA(ringsweep::tuning::host_sort_keys<policy>(pinned, n, {}, cfg));
  const std::vector<std::uint32_t> got(pinned, pinned + n);
  REQUIRE_CUDA(cudaFreeHost(pinned));
  CHECK(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
  REQUIRE(seen.size() >= 3);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.front() >= 0.0);
  CHECK(seen.back() == 1.0);
  CHECK(std::count(seen.begin(), seen.end(), 1.0) == 1);
}

namespace host_sort_test {
#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#define HOST_SORT_TEST_CUDA_STD_TUPLE 1
#endif
#endif
#ifdef HOST_SORT_TEST_CUDA_STD_TUPLE
template <class... T>
using tuple_t = cuda::std::tuple<T...>;
#else
template <class... T>
using tuple_t = std::tuple<T...>;
#endif
struct cell_depth {
  std::uint16_t cell;
  float depth;
};
struct by_cell_depth {
  __host__ __device__ tuple_t<std::uint16_t&, float&> operator()(cell_depth& k) const { return {k.cell, k.depth}; }
};
}  // namespace host_sort_test

TEST_CASE("host sort: custom keys through a decomposer", "[sort][host][decomposer]") {
  using host_sort_test::by_cell_depth;
  using host_sort_test::cell_depth;
  const std::size_t n = 40000;
  std::mt19937 rng(5);
  std::vector<cell_depth> keys(n);
  for (auto& k : keys) {
    std::memset(static_cast<void*>(&k), 0, sizeof k);
    k.cell = std::uint16_t(rng() % 300);
    k.depth = float(rng() % 1000);
  }
  std::vector<cell_depth> got = keys;
  REQUIRE_CUDA(ringsweep::host_sort_keys(got.data(), n, by_cell_depth{}, {}, budget(16 << 20)));
  std::vector<cell_depth> want = keys;
  std::stable_sort(want.begin(), want.end(), [](const cell_depth& a, const cell_depth& b) {
    return a.cell != b.cell ? a.cell < b.cell : a.depth < b.depth;
  });
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(got[i].cell == want[i].cell);
    REQUIRE(got[i].depth == want[i].depth);
  }
}

TEST_CASE("host sort: refused arguments change nothing", "[sort][host][errors]") {
  auto keys = make<std::uint32_t>(1000, shape::uniform, 3);
  const auto before = keys;
  ringsweep::host_sort_config cfg = budget(32 << 10);
  using ringsweep::tuning::host_sort_keys;
  CHECK(host_sort_keys<policy>(keys.data(), 1000, sort_options_of(sort_order::ascending, 0, 40), cfg) ==
        cudaErrorInvalidValue);
  CHECK(host_sort_keys<policy>(static_cast<std::uint32_t*>(nullptr), 1000, {}, cfg) == cudaErrorInvalidValue);
  cfg.num_devices = -1;
  CHECK(host_sort_keys<policy>(keys.data(), 1000, {}, cfg) == cudaErrorInvalidValue);
  const int missing[] = {7000};
  cfg.devices = missing;
  cfg.num_devices = 1;
  CHECK(host_sort_keys<policy>(keys.data(), 1000, {}, cfg) == cudaErrorInvalidDevice);
  ringsweep::host_sort_config tiny_budget = budget(4096);
  CHECK(host_sort_keys<policy>(keys.data(), 1000, {}, tiny_budget) == cudaErrorInvalidValue);
  CHECK(keys == before);
  cudaGetLastError();  // errors are returned; clear the one a refused device recorded
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("host sort: a failed allocation at any point loses nothing", "[sort][host][alloc]") {
  const std::size_t n = 20000;
  const auto keys = make<std::uint32_t>(n, shape::zipf, 9);
  const auto order = ringsweep_test::reference_order(keys, sort_options_of(sort_order::ascending));
  // Count the allocation calls of one sort, then fail each of them in turn.
  std::vector<std::uint32_t> probe = keys;
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  const unsigned long long before = simt::allocation_calls();
  REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<policy>(probe.data(), values.data(), n, {}, budget(32 << 10)));
  const unsigned long long calls = simt::allocation_calls() - before;
  REQUIRE(calls >= 3);  // the scratch, one device block for every slot, the page-locked digit counts
  for (unsigned long long k = 1; k <= calls; ++k) {
    INFO("allocation call " << k << " of " << calls << " fails");
    std::vector<std::uint32_t> got = keys, got_values(n);
    std::iota(got_values.begin(), got_values.end(), 0u);
    simt::fail_allocation(k);
    const cudaError_t e =
        ringsweep::tuning::host_sort_pairs<policy>(got.data(), got_values.data(), n, {}, budget(32 << 10));
    simt::fail_allocation(0);
    cudaGetLastError();
    if (e == cudaSuccess) {  // the scratch fell back to pageable memory
      CHECK(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
    } else {
      CHECK(e == cudaErrorMemoryAllocation);
      CHECK(got == keys);  // untouched
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got_values[i] == std::uint32_t(i));
    }
  }
}
#endif

// The names before the one naming pattern (sort_keys_host -> host_sort_keys, 0.1): deprecated for one
// release, still compiling (silently by default: this file builds with -Werror and no suppression;
// with RINGSWEEP_DEPRECATION_WARNINGS the compiler names each call, deprecated_names_warn) and
// still the same sorts.
TEST_CASE("host sort: the deprecated names sort as the new ones", "[sort][host][deprecated]") {
  using host_sort_test::by_cell_depth;
  using host_sort_test::cell_depth;
  const std::size_t n = 5000;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 7);
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
  const auto small = budget(32 << 10);  // the test policy: 5000 keys stream through it in chunks
  const auto whole = budget(16 << 20);  // the device's policy: its temporary storage alone is 2 MiB
  const auto opts = sort_options_of(sort_order::descending, 0, 32);
  const auto order = ringsweep_test::reference_order(keys, opts);

  // Each old name sorts as std::stable_sort does (keys and, for pairs, the values that follow them).
  const auto sorted_keys = [&](const std::vector<std::uint32_t>& got) {
    return ringsweep_test::first_key_mismatch(got, keys, order) == -1;
  };
  const auto sorted_values = [&](const std::vector<std::uint32_t>& got_values) {
    for (std::size_t i = 0; i < n; ++i) {
      if (got_values[i] != std::uint32_t(order[i])) return false;
    }
    return true;
  };
  std::vector<std::uint32_t> got = keys, got_v = values;
  REQUIRE_CUDA(ringsweep::sort_keys_host(got.data(), n, opts, whole));
  CHECK(sorted_keys(got));
  got = keys;
  REQUIRE_CUDA(ringsweep::sort_pairs_host(got.data(), got_v.data(), n, opts, whole));
  CHECK(sorted_keys(got));
  CHECK(sorted_values(got_v));
  got = keys;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys_host<policy>(got.data(), n, opts, small));
  CHECK(sorted_keys(got));
  got = keys;
  got_v = values;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs_host<policy>(got.data(), got_v.data(), n, opts, small));
  CHECK(sorted_keys(got));
  CHECK(sorted_values(got_v));
  // Arguments the new names refuse, the old ones refuse too.
  CHECK(ringsweep::sort_keys_host(static_cast<std::uint32_t*>(nullptr), n, {}, whole) == cudaErrorInvalidValue);

  // Custom keys, old names against the new ones: the same bytes.
  std::vector<cell_depth> cells(n);
  std::mt19937 rng(11);
  for (auto& k : cells) {
    std::memset(static_cast<void*>(&k), 0, sizeof k);
    k.cell = std::uint16_t(rng() % 50);
    k.depth = float(rng() % 100);
  }
  std::vector<cell_depth> want = cells, got_cells = cells;
  REQUIRE_CUDA(ringsweep::host_sort_keys(want.data(), n, by_cell_depth{}, {}, whole));
  REQUIRE_CUDA(ringsweep::sort_keys_host(got_cells.data(), n, by_cell_depth{}, {}, whole));
  REQUIRE(std::memcmp(got_cells.data(), want.data(), n * sizeof(cell_depth)) == 0);
  got_cells = cells;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys_host<policy>(got_cells.data(), n, by_cell_depth{}, {}, small));
  REQUIRE(std::memcmp(got_cells.data(), want.data(), n * sizeof(cell_depth)) == 0);
  // (The custom-key pairs names are not called: each is one line forwarding to the new name, which
  // tests/check_api_forms.py checks, and their kernels would add 10-20 s of compile to this file.)
}
