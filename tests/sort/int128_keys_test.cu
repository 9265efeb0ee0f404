// 128-bit integer keys (`__int128`, `unsigned __int128`: CUB's `__int128_t` / `__uint128_t`), which
// CUB's radix sorts take: the plain sorts (in/out, double buffer, in place; keys and pairs; both
// orders; bit windows within and across the 64-bit halves and over the sign bit), CUB's names, a
// segmented sort with segments of every class, top-k, argsort, a host-resident sort, key_traits, the
// constant temporary storage, and arrays not aligned to the type (invalid, nothing written). References from std::stable_sort on the host, comparing the integers
// themselves (or, for a window, their order-preserving image's bits); the GPU build also runs
// CUB's DeviceRadixSort on the same keys.
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>
#include <ringsweep/ringsweep.cuh>

#if defined(RINGSWEEP_VARIANT_GPU)
#include <cub/device/device_radix_sort.cuh>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#if defined(RINGSWEEP_SIMT_BACKEND)
#include <ringsweep_simt/control.hpp>  // traffic counts: the SIMT backend only
#endif

#include "host_sort_test_policy.cuh"
#include "sort_test_util.cuh"
#include "test_policies.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i128 = __int128;
using u128 = unsigned __int128;

static_assert(std::is_same<__int128_t, i128>::value && std::is_same<__uint128_t, u128>::value,
              "CUB's names for the 128-bit integers are these types");

/// The key's order-preserving image: the sign bit flipped for signed keys.
template <class Key>
u128 image_of(Key k) {
  u128 b;
  std::memcpy(&b, &k, sizeof(b));
  if constexpr (std::is_same<Key, i128>::value) b ^= u128(1) << 127;  // not is_signed: strict modes say no
  return b;
}

template <class Key>
Key key_of(u64 hi, u64 lo) {
  const u128 b = (u128(hi) << 64) | lo;
  Key k;
  std::memcpy(&k, &b, sizeof(k));
  return k;
}

/// Keys that take every half apart: random 128-bit words, small values around 0 (the signed
/// keys' negatives: all ones in the high half), the extremes, keys equal in one half, repeats.
template <class Key>
std::vector<Key> make_keys(std::size_t n, u64 seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  const u64 pool[] = {0, 1, ~u64(0), u64(1) << 63, (u64(1) << 63) - 1, 0x0123456789abcdefull};
  for (std::size_t i = 0; i < n; ++i) {
    switch (rng() % 6) {
      case 0: keys[i] = key_of<Key>(rng(), rng()); break;
      case 1: keys[i] = Key(std::int64_t(rng() % 2001) - 1000); break;              // around 0
      case 2: keys[i] = key_of<Key>(pool[rng() % 6], pool[rng() % 6]); break;       // extremes
      case 3: keys[i] = key_of<Key>(0x5555, rng()); break;                          // one high half
      case 4: keys[i] = key_of<Key>(rng(), 42); break;                              // one low half
      default: keys[i] = keys[rng() % (i + 1)]; break;                              // a repeat
    }
  }
  return keys;
}

/// The stable order of `keys` by the sort: the key itself, or with a window [begin, end) the
/// image's bits there; descending reverses the comparison, never the equal keys' order.
template <class Key>
std::vector<std::size_t> reference(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const int end = opts.end_bit < 0 ? 128 : opts.end_bit;
  const u128 mask = end - opts.begin_bit >= 128 ? ~u128(0) : ((u128(1) << (end - opts.begin_bit)) - 1);
  const auto rank = [&](std::size_t i) { return (image_of(keys[i]) >> opts.begin_bit) & mask; };
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  const bool down = opts.order == ringsweep::sort_order::descending;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return down ? rank(b) < rank(a) : rank(a) < rank(b); });
  return order;
}

template <class Key>
void require_sorted(const std::vector<Key>& keys, const std::vector<Key>& got, const ringsweep::sort_options& opts,
                    const std::vector<u32>* values = nullptr) {
  const auto order = reference(keys, opts);
  REQUIRE(got.size() == keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    INFO("position " << i << " of " << keys.size() << ", window [" << opts.begin_bit << ", " << opts.end_bit << ")");
    REQUIRE(image_of(got[i]) == image_of(keys[order[i]]));
    if (values != nullptr) REQUIRE((*values)[i] == u32(order[i]));
  }
}

template <class Key>
bool same_images(const std::vector<Key>& a, const std::vector<Key>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](Key x, Key y) { return x == y; });
}

/// Every form of the plain sort with `Policy` on `keys` (pairs: the positions as values).
template <class Policy, class Key>
void check_plain(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  std::vector<u32> positions(n);
  std::iota(positions.begin(), positions.end(), u32(0));
  {  // keys, in/out
    ringsweep_test::device_buffer<Key> in(keys), out(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, in.data(), out.data(), n, opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, in.data(), out.data(), n, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    require_sorted(keys, out.download(), opts);
    REQUIRE(same_images(in.download(), keys));  // the input is left alone
  }
  {  // pairs, double buffer
    ringsweep_test::device_buffer<Key> k0(keys), k1(n);
    ringsweep_test::device_buffer<u32> v0(positions), v1(n);
    ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
    ringsweep::double_buffer<u32> vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(nullptr, bytes, kb, vb, n, opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(temp.data(), bytes, kb, vb, n, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const bool first = kb.current() == k0.data();
    REQUIRE((vb.current() == v0.data()) == first);
    const auto values = (first ? v0 : v1).download();
    require_sorted(keys, (first ? k0 : k1).download(), opts, &values);
  }
  {  // keys, in place
    ringsweep_test::device_buffer<Key> d(keys);
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(d.data(), n, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    require_sorted(keys, d.download(), opts);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("128-bit integer keys: every plain form, both orders, windows across the halves",
                   "[sort][int128]", i128, u128) {
  using Key = TestType;
  using tiny = ringsweep_test::policy_tiny;
  // Multi-tile, multi-portion and ring-wrapping sizes under the tiny policy; the device's policy
  // once above one of its tiles.
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(97), std::size_t(1500)}) {
    const auto keys = make_keys<Key>(n, 1 + n);
    for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      check_plain<tiny>(keys, ringsweep_test::sort_options_of(order));
    }
  }
  const auto keys = make_keys<Key>(1200, 7);
  // One digit inside the low half, one across the halves, the top digit (the sign bit), and the
  // high half alone.
  for (auto window : {std::pair<int, int>{3, 11}, {60, 70}, {120, 128}, {64, 128}}) {
    check_plain<tiny>(keys, ringsweep_test::sort_options_of(ringsweep::sort_order::ascending, window.first,
                                                             window.second));
  }
  check_plain<tiny>(keys, ringsweep_test::sort_options_of(ringsweep::sort_order::descending, 60, 70));
  check_plain<ringsweep::detail::for_device>(make_keys<Key>(20000, 11), {});
}

TEST_CASE("128-bit integer keys: CUB's names (signed ascending, unsigned descending over a window)",
          "[sort][int128][cub]") {
  const std::size_t n = 3000;
  const auto skeys = make_keys<i128>(n, 21);
  const auto ukeys = make_keys<u128>(n, 22);
  std::vector<u32> positions(n);
  std::iota(positions.begin(), positions.end(), u32(0));
  {
    ringsweep_test::device_buffer<i128> in(skeys), out(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortKeys(nullptr, bytes, in.data(), out.data(), int(n)));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortKeys(temp.data(), bytes, in.data(), out.data(), int(n)));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = out.download();
    require_sorted(skeys, got, {});
#if defined(RINGSWEEP_VARIANT_GPU)
    ringsweep_test::device_buffer<i128> cub_out(n);
    std::size_t cub_bytes = 0;
    REQUIRE_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.data(), cub_out.data(), int(n)));
    ringsweep_test::device_bytes cub_temp(cub_bytes);
    REQUIRE_CUDA(cub::DeviceRadixSort::SortKeys(cub_temp.data(), cub_bytes, in.data(), cub_out.data(), int(n)));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(same_images(cub_out.download(), got));
#endif
  }
  {
    ringsweep_test::device_buffer<u128> k0(ukeys), k1(n);
    ringsweep_test::device_buffer<u32> v0(positions), v1(n);
    ringsweep::DoubleBuffer<u128> kb(k0.data(), k1.data());
    ringsweep::DoubleBuffer<u32> vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairsDescending(nullptr, bytes, kb, vb, n, 56, 72));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairsDescending(temp.data(), bytes, kb, vb, n, 56, 72));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const bool first = kb.Current() == k0.data();
    const auto values = (first ? v0 : v1).download();
    require_sorted(ukeys, (first ? k0 : k1).download(),
                   ringsweep_test::sort_options_of(ringsweep::sort_order::descending, 56, 72), &values);
  }
}

TEMPLATE_TEST_CASE("128-bit integer keys: a segmented sort over every segment class, and top-k",
                   "[sort][int128][segmented][top_k]", i128, u128) {
  using Key = TestType;
  using tiny = ringsweep_test::policy_tiny;
  // Empty, one key, every class edge of the tiny policy for 16-byte keys (the network's 4 keys a
  // lane and its 96-key limit, compact blocks of 32 x 4, medium of 32 x 5, the 64 x 3 tile), one
  // and several tiles, with a gap nothing may write.
  const std::vector<std::size_t> sizes = {0, 1, 2, 3, 4, 5, 31, 33, 64, 65, 96, 97, 128, 129, 160, 161, 192, 193, 200, 700, 1300};
  std::vector<long long> begins, ends;
  std::size_t n = 0;
  for (std::size_t s : sizes) {
    begins.push_back((long long)n);
    ends.push_back((long long)(n + s));
    n += s + (s == 200 ? 5 : 0);  // five keys after the 200-key segment belong to none
  }
  const auto keys = make_keys<Key>(n, 31);
  std::vector<u32> positions(n);
  std::iota(positions.begin(), positions.end(), u32(0));
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    const auto opts = ringsweep_test::sort_options_of(order);
    ringsweep_test::device_buffer<Key> kin(keys), kout(n);
    ringsweep_test::device_buffer<u32> vin(positions), vout(n);
    ringsweep_test::device_buffer<long long> db(begins), de(ends);
    kout.fill_bytes(0xA5);
    vout.fill_bytes(0xA5);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::segmented_sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(),
                                                               vout.data(), n, sizes.size(), db.data(), de.data(),
                                                               opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::segmented_sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(),
                                                               vin.data(), vout.data(), n, sizes.size(), db.data(),
                                                               de.data(), opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = kout.download();
    const auto got_v = vout.download();
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      const std::size_t b = std::size_t(begins[s]), e = std::size_t(ends[s]);
      INFO("segment " << s << " of " << sizes[s] << " keys");
      const std::vector<Key> seg(keys.begin() + b, keys.begin() + e);
      const auto order_s = reference(seg, opts);
      for (std::size_t i = 0; i < seg.size(); ++i) {
        REQUIRE(image_of(got[b + i]) == image_of(seg[order_s[i]]));
        REQUIRE(got_v[b + i] == u32(b + order_s[i]));
      }
    }
    const std::size_t gap = std::size_t(ends[std::find(sizes.begin(), sizes.end(), std::size_t(200)) - sizes.begin()]);
    for (std::size_t i = gap; i < gap + 5; ++i) REQUIRE(got_v[i] == 0xA5A5A5A5u);  // the gap: unwritten
  }
  // Top-k: the k first keys of the stable order, in both directions.
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    const auto opts = ringsweep_test::sort_options_of(order);
    const std::size_t k = 100;
    ringsweep_test::device_buffer<Key> in(keys), out(k);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::top_k_keys<tiny>(nullptr, bytes, in.data(), out.data(), n, k, opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::top_k_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, k, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = out.download();
    const auto order_all = reference(keys, opts);
    for (std::size_t i = 0; i < k; ++i) REQUIRE(image_of(got[i]) == image_of(keys[order_all[i]]));
  }
}

TEMPLATE_TEST_CASE("128-bit integer keys: sorted input skips every pass", "[sort][int128][sorted]", i128, u128) {
  // The histogram checks the order on the two image words: keys already in the sort's order
  // (whole keys, a window across the halves, a window over the sign bit) need no pass; one key
  // out of place is still sorted.
  using Key = TestType;
  using tiny = ringsweep_test::policy_tiny;
  const std::size_t n = 1700;
  const auto keys = make_keys<Key>(n, 81);
  for (const auto& w : {std::pair<int, int>{0, -1}, {40, 100}, {120, 128}}) {
    for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      ringsweep::sort_options opts = ringsweep_test::sort_options_of(order);
      opts.begin_bit = w.first;
      opts.end_bit = w.second;
      const auto order_all = reference(keys, opts);
      std::vector<Key> sorted(n);
      for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order_all[i]];
      check_plain<tiny>(sorted, opts);
      for (std::size_t at : {std::size_t(0), std::size_t(191), n / 2}) {
        INFO("key out of place at " << at);
        std::vector<Key> off = sorted;
        std::rotate(off.begin() + std::ptrdiff_t(at), off.end() - 1, off.end());
        check_plain<tiny>(off, opts);
      }
#if defined(RINGSWEEP_SIMT_BACKEND)
      // Sorted, the in/out form moves the histogram's read and one copy: 16 + 32 bytes a key.
      ringsweep_test::device_buffer<Key> in(sorted), out(n);
      std::size_t bytes = 0;
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny>(nullptr, bytes, in.data(), out.data(), n, opts));
      ringsweep_test::device_bytes temp(bytes);
      simt::traffic_begin();
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, opts));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      unsigned long long moved = 0;
      for (const auto& k : simt::traffic_end()) moved += k.load_bytes + k.store_bytes;
      CHECK(moved == 48ull * n);
      require_sorted(sorted, out.download(), opts);
#endif
    }
  }
}

TEST_CASE("128-bit integer keys: batched top-k of tiny rows (the network's positions)", "[sort][int128][top_k]") {
  // The device's policy: rows of 0 to 128 keys are sorted by the network (4 keys a lane), their
  // first k written with their input positions; 300 keys take a block. A window across the halves.
  using Key = u128;
  const std::vector<std::size_t> sizes = {0, 1, 2, 3, 5, 8, 17, 64, 97, 128, 129, 300};
  std::vector<long long> begins, ends;
  std::size_t n = 0;
  for (std::size_t s : sizes) {
    begins.push_back((long long)n);
    ends.push_back((long long)(n + s));
    n += s;
  }
  const auto keys = make_keys<Key>(n, 71);
  const std::size_t k = 6;
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    ringsweep::sort_options opts = ringsweep_test::sort_options_of(order);
    opts.begin_bit = 40;
    opts.end_bit = 100;
    ringsweep_test::device_buffer<Key> in(keys), out(sizes.size() * k);
    ringsweep_test::device_buffer<u64> idx(sizes.size() * k);
    ringsweep_test::device_buffer<long long> db(begins), de(ends);
    out.fill_bytes(0xA5);
    idx.fill_bytes(0xA5);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::segmented_top_k_indices(nullptr, bytes, in.data(), out.data(), idx.data(), n, sizes.size(),
                                                    db.data(), de.data(), k, opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::segmented_top_k_indices(temp.data(), bytes, in.data(), out.data(), idx.data(), n,
                                                    sizes.size(), db.data(), de.data(), k, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = out.download();
    const auto got_i = idx.download();
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      INFO("row " << s << " of " << sizes[s] << " keys");
      const std::vector<Key> row(keys.begin() + begins[s], keys.begin() + ends[s]);
      const auto order_s = reference(row, opts);
      for (std::size_t j = 0; j < k; ++j) {
        if (j < row.size()) {
          REQUIRE(got_i[s * k + j] == u64(begins[s]) + order_s[j]);
          REQUIRE(image_of(got[s * k + j]) == image_of(row[order_s[j]]));
        } else {
          REQUIRE(got_i[s * k + j] == 0xA5A5A5A5A5A5A5A5ull);  // past a short row: unwritten
        }
      }
    }
  }
}

TEST_CASE("128-bit integer keys: a host-resident sort through a budget of 1/5 of the data", "[sort][int128][host]") {
  const std::size_t n = 16000;  // 320 KB of pairs through 64 KiB of device memory: chunks and partition levels
  const auto keys = make_keys<i128>(n, 51);
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = 64 << 10;
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    const auto opts = ringsweep_test::sort_options_of(order);
    std::vector<i128> got = keys;
    std::vector<u32> values(n);
    std::iota(values.begin(), values.end(), u32(0));
    REQUIRE_CUDA(ringsweep::tuning::host_sort_pairs<host_sort_test::policy>(got.data(), values.data(), n, opts, cfg));
    require_sorted(keys, got, opts, &values);
  }
}

TEST_CASE("128-bit integer keys: key_traits is the integer's order", "[sort][int128][traits]") {
  using ts = ringsweep::key_traits<i128>;
  using tu = ringsweep::key_traits<u128>;
  static_assert(ts::bits == 128 && tu::bits == 128, "");
  const auto keys = make_keys<i128>(500, 61);
  const auto ukeys = make_keys<u128>(500, 62);
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    const auto a = ts::to_ordered(ts::to_bits(keys[i])), b = ts::to_ordered(ts::to_bits(keys[i + 1]));
    REQUIRE((a < b) == (keys[i] < keys[i + 1]));
    REQUIRE(ts::from_bits(ts::from_ordered(a)) == keys[i]);
    const auto c = tu::to_ordered(tu::to_bits(ukeys[i])), d = tu::to_ordered(tu::to_bits(ukeys[i + 1]));
    REQUIRE((c < d) == (ukeys[i] < ukeys[i + 1]));
  }
}

TEST_CASE("128-bit integer keys: argsort, with and without the sorted keys", "[sort][int128][argsort]") {
  using tiny = ringsweep_test::policy_tiny;
  const std::size_t n = 1700;
  const auto keys = make_keys<i128>(n, 71);
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    const auto opts = ringsweep_test::sort_options_of(order);
    const auto want = reference(keys, opts);
    ringsweep_test::device_buffer<i128> in(keys), out(n);
    ringsweep_test::device_buffer<std::int64_t> idx(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(nullptr, bytes, in.data(), out.data(), idx.data(), n, opts));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(temp.data(), bytes, in.data(), out.data(), idx.data(), n, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = out.download();
    auto got_idx = idx.download();
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(got_idx[i] == std::int64_t(want[i]));
      REQUIRE(image_of(got[i]) == image_of(keys[want[i]]));
    }
    // Positions only: the sorted keys go to the temporary storage.
    idx.fill_bytes(0);
    REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(nullptr, bytes, in.data(), nullptr, idx.data(), n, opts));
    ringsweep_test::device_bytes temp2(bytes);
    REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(temp2.data(), bytes, in.data(), nullptr, idx.data(), n, opts));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    got_idx = idx.download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(got_idx[i] == std::int64_t(want[i]));
  }
}

TEST_CASE("128-bit integer keys: the double-buffer form's constant temporary storage (16 passes)",
          "[sort][int128][temp]") {
  // docs/temp_storage.md: 2,097,664 + 6,144 x P bytes above one tile, P = 16 for a 128-bit image.
  for (std::size_t n : {std::size_t(1) << 16, std::size_t(1) << 24, std::size_t(1) << 34}) {
    ringsweep::double_buffer<i128> db(nullptr, nullptr);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, db, n));
    REQUIRE(bytes == 2097664u + 6144u * 16u);
  }
}

TEST_CASE("128-bit integer keys: arrays not aligned to 16 bytes are invalid, nothing written",
          "[sort][int128][errors]") {
  const std::size_t n = 64;
  const auto keys = make_keys<i128>(n, 41);
  ringsweep_test::device_buffer<i128> in(keys), out(n + 1);
  out.fill_bytes(0x5A);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, in.data(), out.data(), n));
  ringsweep_test::device_bytes temp(bytes);
  // An output shifted by 8 bytes: the halves would straddle the 16-byte words the kernels move.
  auto* shifted = reinterpret_cast<i128*>(reinterpret_cast<char*>(out.data()) + 8);
  REQUIRE(ringsweep::sort_keys(temp.data(), bytes, in.data(), shifted, n) == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto after = out.download();
  std::vector<unsigned char> raw(after.size() * sizeof(i128));
  std::memcpy(raw.data(), after.data(), raw.size());
  REQUIRE(std::all_of(raw.begin(), raw.end(), [](unsigned char c) { return c == 0x5A; }));
}
