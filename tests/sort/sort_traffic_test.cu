// Global traffic of a sort, counted by the SIMT backend: the histogram reads every key once, and
// every pass reads and writes every key and value exactly once; key loads are fully coalesced.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>
#include <ringsweep_simt/control.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

struct totals {
  unsigned long long load_bytes = 0, store_bytes = 0, load_sectors = 0, store_sectors = 0, load_accesses = 0;
};

totals sum(const std::vector<simt::kernel_traffic>& traffic) {
  totals t;
  for (const auto& k : traffic) {
    t.load_bytes += k.load_bytes;
    t.store_bytes += k.store_bytes;
    t.load_sectors += k.load_sectors;
    t.store_sectors += k.store_sectors;
    t.load_accesses += k.load_accesses;
  }
  return t;
}

/// Traffic of a whole-tile double-buffer sort (pairs when `Value` is not void) under `Policy`.
template <class Policy, class Key, class Value>
totals sort_traffic(std::size_t n) {
  const auto keys = ringsweep_test::make_keys<Key>(n, ringsweep_test::distribution::uniform, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<Key> k0(keys), k1(n);
  ringsweep_test::device_buffer<std::uint8_t> v0(n), v1(n);
  ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
  ringsweep::double_buffer<std::uint8_t> vb(v0.data(), v1.data());
  const auto sort = [&](void* temp, std::size_t& bytes) {
    if constexpr (std::is_void<Value>::value) {
      return ringsweep::tuning::sort_keys<Policy>(temp, bytes, kb, n);
    } else {
      return ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kb, vb, n);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(sort(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(sort(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return sum(simt::traffic_end());
}

}  // namespace

TEST_CASE("vector loads: fewer load requests for the same bytes and sectors", "[sort][traffic]") {
  // 384-key tiles of 64 threads x 6 items: a warp loads its 192 keys with one 4-item vector and
  // two striped items per lane (3 requests) instead of 6 striped items (6 requests).
  const std::size_t tiles = 12, n = tiles * 384, warps = 2, saved_per_warp = 6 - 3;
  SECTION("u32 keys, 4 passes") {
    const totals s = sort_traffic<ringsweep_test::policy_tiny_striped, std::uint32_t, void>(n);
    const totals v = sort_traffic<ringsweep_test::policy_tiny_vector, std::uint32_t, void>(n);
    CHECK(v.load_bytes == s.load_bytes);
    CHECK(v.load_sectors == s.load_sectors);
    CHECK(v.load_sectors == v.load_bytes / 32);
    CHECK(s.load_accesses - v.load_accesses == 4 * tiles * warps * saved_per_warp);
  }
  SECTION("u8 keys and u8 values, 1 pass") {
    const totals s = sort_traffic<ringsweep_test::policy_tiny_striped, std::uint8_t, std::uint8_t>(n);
    const totals v = sort_traffic<ringsweep_test::policy_tiny_vector, std::uint8_t, std::uint8_t>(n);
    CHECK(v.load_bytes == s.load_bytes);
    CHECK(v.load_sectors == s.load_sectors);
    CHECK(s.load_accesses - v.load_accesses == 2 * tiles * warps * saved_per_warp);  // keys and values
  }
}

TEST_CASE("a sort moves each key and value once per pass", "[sort][traffic]") {
  using u32 = std::uint32_t;
  const std::size_t n = 20 * 192;  // whole tiles of the tiny policy: no ragged tile
  const auto keys = ringsweep_test::make_keys<u32>(n, ringsweep_test::distribution::uniform, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<u32> k0(keys), k1(n), v0(n), v1(n);
  std::size_t bytes = 0;
  ringsweep::double_buffer<u32> kb(k0.data(), k1.data()), vb(v0.data(), v1.data());
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<ringsweep_test::policy_tiny>(nullptr, bytes, kb, vb, n));
  ringsweep_test::device_bytes temp(bytes);

  simt::traffic_begin();
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<ringsweep_test::policy_tiny>(temp.data(), bytes, kb, vb, n));
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

namespace {

struct u32_pair {
  std::uint32_t hi, lo;  // hi is the more significant field, as a u64's high half
};
struct u32_pair_decomposer {
  std::tuple<std::uint32_t&, std::uint32_t&> operator()(u32_pair& k) const { return {k.hi, k.lo}; }
};

/// Traffic of a double-buffer sort (pairs with u32 values when `PAIRS`) of keys whose images are `bits`.
template <class Policy, class Key, bool PAIRS, class... Decomposer>
totals bits_sort_traffic(const std::vector<std::uint64_t>& bits, Decomposer... decomposer) {
  const std::size_t n = bits.size();
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {  // the same image, so the same digits and the same scatter
    if constexpr (std::is_same<Key, u32_pair>::value) {
      keys[i] = u32_pair{std::uint32_t(bits[i] >> 32), std::uint32_t(bits[i])};
    } else {
      keys[i] = bits[i];
    }
  }
  ringsweep_test::device_buffer<Key> k0(keys), k1(n);
  ringsweep_test::device_buffer<std::uint32_t> v0(n), v1(n);
  ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
  ringsweep::double_buffer<std::uint32_t> vb(v0.data(), v1.data());
  const auto sort = [&](void* temp, std::size_t& bytes) {
    if constexpr (PAIRS) {
      return ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kb, vb, n, decomposer...);
    } else {
      return ringsweep::tuning::sort_keys<Policy>(temp, bytes, kb, n, decomposer...);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(sort(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(sort(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return sum(simt::traffic_end());
}

}  // namespace

TEST_CASE("a {u32, u32} key through a decomposer costs what a u64 key costs", "[sort][traffic][decomposer]") {
  const std::size_t n = 20 * 192 + 77;  // whole tiles and a ragged one
  const auto bits =
      ringsweep_test::make_keys<std::uint64_t>(n, ringsweep_test::distribution::uniform, ringsweep_test::catch_seed());
  const auto check = [](const totals& a, const totals& b) {
    CHECK(a.load_bytes == b.load_bytes);
    CHECK(a.store_bytes == b.store_bytes);
    CHECK(a.load_sectors == b.load_sectors);
    CHECK(a.store_sectors == b.store_sectors);
    CHECK(a.load_accesses == b.load_accesses);
  };
  SECTION("keys, tiny policy") {
    check(bits_sort_traffic<ringsweep_test::policy_tiny, u32_pair, false>(bits, u32_pair_decomposer{}),
          bits_sort_traffic<ringsweep_test::policy_tiny, std::uint64_t, false>(bits));
  }
  SECTION("pairs, vector loads") {
    check(bits_sort_traffic<ringsweep_test::policy_tiny_vector, u32_pair, true>(bits, u32_pair_decomposer{}),
          bits_sort_traffic<ringsweep_test::policy_tiny_vector, std::uint64_t, true>(bits));
  }
}

namespace {

/// Bytes loaded plus stored per key by a sort of `keys` with the tiny policy: in/out (pairs with
/// u32 values when `PAIRS`) or, with `DOUBLE_BUFFER`, the double-buffer form.
template <bool PAIRS, bool DOUBLE_BUFFER = false>
double bytes_per_key(const std::vector<std::uint32_t>& keys) {
  using tiny = ringsweep_test::policy_tiny;
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<std::uint32_t> kin(keys), kout(n), vin(n), vout(n);
  ringsweep::double_buffer<std::uint32_t> kb(kin.data(), kout.data()), vb(vin.data(), vout.data());
  const auto sort = [&](void* temp, std::size_t& bytes) {
    if constexpr (DOUBLE_BUFFER) {
      return PAIRS ? ringsweep::tuning::sort_pairs<tiny>(temp, bytes, kb, vb, n)
                   : ringsweep::tuning::sort_keys<tiny>(temp, bytes, kb, n);
    } else {
      return PAIRS ? ringsweep::tuning::sort_pairs<tiny>(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n)
                   : ringsweep::tuning::sort_keys<tiny>(temp, bytes, kin.data(), kout.data(), n);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(sort(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(sort(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const totals t = sum(simt::traffic_end());
  return double(t.load_bytes + t.store_bytes) / double(n);
}

}  // namespace

TEST_CASE("skipped passes move nothing: the traffic of uniform digits is gone", "[sort][traffic][skip]") {
  using u32 = std::uint32_t;
  const std::size_t n = 20 * 192;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto full = ringsweep_test::random_ints<u32>(n, seed, 0u, ~0u);
  const auto below16 = ringsweep_test::random_ints<u32>(n, seed + 1, 0u, 0xFFFFu);
  const auto below24 = ringsweep_test::random_ints<u32>(n, seed + 2, 0u, 0xFFFFFFu);
  const std::vector<u32> constant(n, 0x12345678u);
  // Histogram 4 bytes per key; each executed pass reads and writes the key (8) and value (8).
  SECTION("in/out keys: 36 bytes per key, 20 below 2^16, 28 below 2^24, 12 (one copy) for constant keys") {
    CHECK(bytes_per_key<false>(full) == 36.0);
    CHECK(bytes_per_key<false>(below16) == 20.0);
    CHECK(bytes_per_key<false>(below24) == 28.0);
    CHECK(bytes_per_key<false>(constant) == 12.0);
  }
  SECTION("in/out pairs: 68 bytes per key, 36 below 2^16, 20 (one copy) for constant keys") {
    CHECK(bytes_per_key<true>(full) == 68.0);
    CHECK(bytes_per_key<true>(below16) == 36.0);
    CHECK(bytes_per_key<true>(constant) == 20.0);
  }
  SECTION("double buffer: an odd count of executed passes adds one copy to the selected buffer") {
    CHECK(bytes_per_key<false, true>(below16) == 20.0);      // 2 passes: no copy
    CHECK(bytes_per_key<false, true>(below24) == 4.0 + 3 * 8 + 8);  // 3 passes and a copy
    CHECK(bytes_per_key<false, true>(constant) == 4.0);      // no pass, result already in place
    CHECK(bytes_per_key<true, true>(below24) == 4.0 + 3 * 16 + 16);
  }
}

namespace {

/// Traffic of top_k_keys (shipped policy) of `keys`, in bytes per input key: loads, stores; and
/// into `first_read` the loads of the first read (top_k_count_kernel) alone.
template <class Key>
std::pair<double, double> top_k_traffic(const std::vector<Key>& keys, std::size_t k, ringsweep::sort_order order,
                                        double* first_read = nullptr) {
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<Key> in(keys), out(k);
  ringsweep::sort_options opts;
  opts.order = order;
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::top_k_keys(nullptr, bytes, in.data(), out.data(), n, k, opts));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(ringsweep::top_k_keys(temp.data(), bytes, in.data(), out.data(), n, k, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto per_kernel = simt::traffic_end();
  const totals t = sum(per_kernel);
  if (first_read != nullptr) {
    const auto count = std::find_if(per_kernel.begin(), per_kernel.end(), [](const simt::kernel_traffic& kt) {
      return kt.kernel.find("top_k_count_kernel") != std::string::npos;
    });
    REQUIRE(count != per_kernel.end());
    *first_read = double(count->load_bytes) / double(n);
  }
  // The result, once: the k-th key of a stable sort.
  const auto order_ref = ringsweep_test::reference_order(keys, opts);
  const auto got = out.download();
  REQUIRE(ringsweep_test::raw_bits(got[k - 1]) == ringsweep_test::raw_bits(keys[order_ref[k - 1]]));
  return {double(t.load_bytes) / double(n), double(t.store_bytes) / double(n)};
}

}  // namespace

TEST_CASE("top-k reads random keys about once, skewed ones at most three times", "[sort][traffic][top_k]") {
  // 2^18 keys with the shipped policy: 2048-key range tiles, candidate buffers of 65536 keys, so
  // 512 speculative candidates per range.
  const std::size_t n = std::size_t(1) << 18;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  using ringsweep::sort_order;
  using ringsweep_test::distribution;
  const auto report = [](const char* what, std::size_t k, std::pair<double, double> t, double key_bytes) {
    std::printf("top-k traffic, %-26s k %6zu: %5.2f B/key loaded (%4.2f reads), %5.3f B/key stored\n", what, k, t.first,
                t.first / key_bytes, t.second);
  };
  // Skewed keys: the select reads the input at most three times; the final sort then reads the k
  // candidates (a small sort below its tile: once), which is no read of the input.
  const auto three_reads = [n](double key_bytes, std::size_t k) {
    return key_bytes * 3.0 + key_bytes * double(k) / double(n);
  };
  const auto u32 = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
  for (std::size_t k : {std::size_t(32)}) {
    double first = 0;
    const auto t = top_k_traffic(u32, k, sort_order::descending, &first);
    report("u32 uniform", k, t, 4);
    // The count's read, which also writes the keys at or below each range's guessed top digit
    // (about 3 / 256 of them: it loads them once more, from the cache on a GPU, to write them,
    // 0.01 reads here where nothing is cached); the first step reads those instead of the input
    // (1.04-1.05 reads).
    CHECK(t.first <= 4 * 1.10);
    // The first read loads the input once, and its candidates again: no key per thread or range
    // (a reference key loaded by every thread was 1/16 of a read, 2048-key ranges).
    CHECK(first >= 4.0);
    CHECK(first <= 4 * 1.02);
  }
  // Floats in [0, 1): the largest share one top digit with half of the keys, which overflow the
  // speculative candidates and the candidate buffer; the second level's bucket fits: three reads
  // of the input, and the 1/256 of the keys that share the top two digits of the k-th from a
  // candidate buffer (keys and their 8-byte positions, 0.012 reads).
  std::vector<float> unit(n);
  std::mt19937_64 rng(seed);
  for (auto& f : unit) f = float(rng() >> 40) / float(1 << 24);
  {
    const auto t = top_k_traffic(unit, 32, sort_order::descending);
    report("f32 [0, 1) largest", 32, t, 4);
    CHECK(t.first <= three_reads(4, 32) + 12.0 / 256 * 1.1);
  }
  const auto equal = ringsweep_test::make_keys<std::uint32_t>(n, distribution::all_equal, seed);
  {
    double first = 0;
    const auto t = top_k_traffic(equal, 1024, sort_order::ascending, &first);
    report("u32 all equal", 1024, t, 4);
    CHECK(t.first <= 4 * 2.05);  // every pass uniform (no speculation): the count and the last step
    CHECK(first == 4.0);         // the first read: each key once, nothing else (no candidates)
  }
  {
    // k = n: the stable sort alone, whose passes are all skipped (its histogram and one copy).
    const auto t = top_k_traffic(equal, n, sort_order::descending);
    report("u32 all equal", n, t, 4);
    CHECK(t.first <= 4 * 2.05);
  }
  // One key holding 90% of the input. Its bucket overflows the candidate buffer at every level:
  // the step of the top level counts the levels below along the guessed key (each pass's most
  // frequent digit), so the next pick walks down to it at once and one more read ends the select
  // (before issue #36's second round: a read per level, P + 1).
  std::vector<std::uint32_t> dominant = u32;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 10 != 0) dominant[i] = 0x12345678u;
  }
  {
    // The 1024 smallest lie below the dominant key, which every range's guess includes (its
    // candidates overflow): two reads.
    const auto t = top_k_traffic(dominant, 1024, sort_order::ascending);
    report("u32 one key 90%, below it", 1024, t, 4);
    CHECK(t.first <= 4 * 2.05);
  }
  {
    // The k-th key is the dominant one: about 0.7% of the keys lie below it.
    double first = 0;
    const auto t = top_k_traffic(dominant, 4096, sort_order::ascending, &first);
    report("u32 one key 90%, inside it", 4096, t, 4);
    CHECK(t.first <= three_reads(4, 4096));
    CHECK(first == 4.0);
  }
  {
    // Floats: 0.05 holds 90% (0.5% of the keys lie below it).
    std::vector<float> dominant_f(unit);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 10 != 0) dominant_f[i] = 0.05f;
    }
    const auto t = top_k_traffic(dominant_f, 2048, sort_order::ascending);
    report("f32 one key 90%, inside it", 2048, t, 4);
    CHECK(t.first <= three_reads(4, 2048));
  }
  const auto u64 = ringsweep_test::make_keys<std::uint64_t>(n, distribution::uniform, seed);
  {
    const auto t = top_k_traffic(u64, 32, sort_order::ascending);
    report("u64 uniform", 32, t, 8);
    CHECK(t.first <= 8 * 1.10);
  }
  {
    // Eight levels, each overflowing before: 9 reads then, 3 now.
    std::vector<std::uint64_t> dominant64 = u64;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 10 != 0) dominant64[i] = 0x0123456789abcdefull;
    }
    double first = 0;
    const auto t = top_k_traffic(dominant64, 4096, sort_order::ascending, &first);
    report("u64 one key 90%, inside it", 4096, t, 8);
    CHECK(t.first <= three_reads(8, 4096));
    CHECK(first == 8.0);
  }
}

namespace {

enum class batched { keys, pairs, indices };

/// Traffic of a segmented top-k (shipped policy) of `rows` rows of one length over u32 `keys`, k
/// per row, in sector bytes per input key (loads, stores); the result is checked against a stable sort
/// of each row.
template <batched What>
std::pair<double, double> segmented_top_k_traffic(const std::vector<std::uint32_t>& keys, std::size_t rows,
                                                  std::size_t k) {
  const std::size_t n = keys.size(), len = n / rows;
  std::vector<std::uint32_t> begin(rows), end(rows), values(n);
  for (std::size_t i = 0; i < rows; ++i) {
    begin[i] = std::uint32_t(i * len);
    end[i] = std::uint32_t((i + 1) * len);
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i * 2654435761u);
  ringsweep_test::device_buffer<std::uint32_t> in(keys), vin(values), d_begin(begin), d_end(end), out(rows * k),
      vout(rows * k);
  const auto call = [&](void* temp, std::size_t& bytes) {
    if constexpr (What == batched::keys) {
      return ringsweep::segmented_top_k_keys(temp, bytes, in.data(), out.data(), n, rows, d_begin.data(),
                                             d_end.data(), k);
    } else if constexpr (What == batched::pairs) {
      return ringsweep::segmented_top_k_pairs(temp, bytes, in.data(), out.data(), vin.data(), vout.data(), n, rows,
                                              d_begin.data(), d_end.data(), k);
    } else {
      return ringsweep::segmented_top_k_indices(temp, bytes, in.data(), out.data(), vout.data(), n, rows,
                                                d_begin.data(), d_end.data(), k);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const totals t = sum(simt::traffic_end());
  const auto got = out.download(), got_values = vout.download();
  std::vector<std::size_t> order(len);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t i = 0; i < len; ++i) order[i] = r * len + i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    for (std::size_t i = 0; i < std::min(k, len); ++i) {
      REQUIRE(got[r * k + i] == keys[order[i]]);
      if (What == batched::pairs) REQUIRE(got_values[r * k + i] == values[order[i]]);
      if (What == batched::indices) REQUIRE(got_values[r * k + i] == order[i]);
    }
  }
  // Sectors (32 bytes per warp-wide access), not requested bytes: a warp's or a block's broadcast
  // load of its segment's offsets or list item is one sector, not a load per thread.
  return {32.0 * double(t.load_sectors) / double(n), 32.0 * double(t.store_sectors) / double(n)};
}

}  // namespace

TEST_CASE("batched top-k writes only each row's k keys for rows a warp or a block sorts",
          "[sort][traffic][top_k][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto report = [](const char* what, std::size_t len, std::size_t k, std::pair<double, double> t) {
    std::printf("batched top-k traffic, %-7s rows of %5zu, k %3zu: %6.3f B/key loaded, %6.3f B/key stored\n", what,
                len, k, t.first, t.second);
  };
  // 16 rows of 4096 u32 keys (one block each: below every shipped tile) and 200 of 100 (one warp
  // each). Before #36's change every key went to scratch and back (4 B/key stored, 8.1 for pairs,
  // 12.1 for indices with their index array; pairs and indices gathered every value: 35 B/key
  // loaded; rows of 100: 5.0 and 7.3 B/key stored).
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(std::size_t(1) << 16, ringsweep_test::distribution::uniform,
                                                             seed);
  for (std::size_t k : {std::size_t(8), std::size_t(64)}) {
    const auto t = segmented_top_k_traffic<batched::keys>(keys, 16, k);
    report("keys", 4096, k, t);
    CHECK(t.first <= 4 * 1.1);  // the keys once, and a few sectors per row
    CHECK(t.second <= 4.0 * double(k) / 4096 * 1.05 + 0.01);  // the k results per row
  }
  {
    const auto t = segmented_top_k_traffic<batched::pairs>(keys, 16, 64);
    report("pairs", 4096, 64, t);
    // The values of the k results gathered, one sector each.
    CHECK(t.first <= 4 * 1.1 + 32.0 * 64 / 4096);
    CHECK(t.second <= 8.0 * 64 / 4096 * 1.05 + 0.01);
  }
  {
    const auto t = segmented_top_k_traffic<batched::indices>(keys, 16, 64);
    report("indices", 4096, 64, t);
    // No index array written or read: positions are made where the results are stored.
    CHECK(t.first <= 4 * 1.1);
    CHECK(t.second <= 8.0 * 64 / 4096 * 1.05 + 0.01);
  }
  std::vector<std::uint32_t> tiny(keys.begin(), keys.begin() + 100 * 200);
  for (std::size_t k : {std::size_t(8), std::size_t(64)}) {
    const auto t = segmented_top_k_traffic<batched::keys>(tiny, 200, k);
    report("keys", 100, k, t);
    // The keys once, counted per warp-wide access: a row of 100 keys is sorted by a sub-warp of 8
    // lanes (the network, since 2026-11-28), whose striped loads read 32 bytes a sub-warp per
    // access, two sectors where the row is not 32-byte aligned (on a GPU the second half is an L1
    // hit; the model has no L1): at most twice the keys' bytes. Per row a few sectors of offsets
    // and list words, read and written (how many list sectors a row's stores touch depends on the
    // classification's order: one more per row with RINGSWEEP_SIMT_SEED=1 and 2 workers than in a
    // plain run). A blocked load (lane j: keys 16 j ...) counted 32.2 here.
    CHECK(t.first <= 2 * 4 * 1.02 + 6 * 32.0 / 100);
    CHECK(t.second <= 4.0 * double(k) / 100 * 1.05 + 2 * 32.0 / 100);
  }
}

TEST_CASE("batched top-k selects in each row longer than a tile instead of sorting it",
          "[sort][traffic][top_k][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // 4 rows of 65536 u32 keys (many shipped tiles each). Sorting them whole (before #36's second
  // round) loaded 20.0 B/key for k = 8 and 64 and stored 22.9 (the segment histogram's read, four
  // passes of keys, the copy), indices 36.0 and 49.8 (positions through every pass). The select
  // reads a row once (its counts, writing the keys at or below the top digit guessed from its
  // first tile, about 3 / 256 of them, with positions), then only those: 4.16 B/key loaded; the
  // stores are those candidates' sectors (a few keys per warp-wide store): 0.66 to 0.78 with a
  // block a row. Since 2026-11-29 a row is split among blocks (4 parts of 16384 keys here: n over
  // 4 parts per SM of the 4 simulated SMs), each part speculating from its own first tile and
  // writing its own k candidates: 0.57 (k = 8) and 1.08-1.25 (k = 64, Catch seeds 1 to 6)
  // stored, indices 1.15-1.33; the loads unchanged.
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(std::size_t(1) << 18, ringsweep_test::distribution::uniform,
                                                             seed);
  for (std::size_t k : {std::size_t(8), std::size_t(64)}) {
    const auto t = segmented_top_k_traffic<batched::keys>(keys, 4, k);
    std::printf("batched top-k traffic, keys    rows of 65536, k %3zu: %6.3f B/key loaded, %6.3f B/key stored\n", k,
                t.first, t.second);
    CHECK(t.first <= 4 * 1.1);
    CHECK(t.second <= 1.4);
  }
  {
    const auto t = segmented_top_k_traffic<batched::indices>(keys, 4, 64);
    std::printf("batched top-k traffic, indices rows of 65536, k  64: %6.3f B/key loaded, %6.3f B/key stored\n",
                t.first, t.second);
    CHECK(t.first <= 4 * 1.1);
    CHECK(t.second <= 1.4);
  }
  {
    // One key of 90% in every row, the k-th inside it: the row's buckets are too large for the
    // buffer (an eighth of the row), so they stay in the row, counted along the guessed key, and
    // the next split walks down to it: three reads of each row (five when sorted whole, 20.0
    // B/key; about ten if every bucket went through the buffer with its 8-byte positions).
    std::vector<std::uint32_t> dominant(keys);
    for (std::size_t i = 0; i < dominant.size(); ++i) {
      if (i % 10 != 0) dominant[i] = 0x00001234u;
    }
    const auto t = segmented_top_k_traffic<batched::indices>(dominant, 4, 64);
    std::printf("batched top-k traffic, indices rows of 65536, one key 90%%, k 64: %6.3f B/key loaded, %6.3f B/key "
                "stored\n", t.first, t.second);
    CHECK(t.first <= 4 * 3.05);
  }
}

