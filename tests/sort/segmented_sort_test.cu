// Segmented sorts: each segment sorted on its own, against std::stable_sort per segment. The tiny
// policies put the class edges at small sizes (tiny: at most SEGMENT_TINY_KEYS = 96 keys, by the
// sub-warp network; compact: at most one 128-key segment_compact_block tile, a group of 32 threads;
// medium: at most one 160-key segment_block tile, a group of 32, the two sharing one list; small:
// at most one 192-key tile, a whole block of 64 threads; large: onesweep passes over a 4-slot ring
// and portions of 8 tiles), so segments of a few thousand keys cross every one of them. Keys outside every segment must stay
// unwritten, the inputs untouched.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"
#include "sort_tiny_common.cuh"

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define SEGMENTED_TEST_CUDA_STD_TUPLE 1
#endif
#endif
#include <tuple>

namespace {

using tiny = ringsweep_test::policy_tiny;
using ringsweep::sort_order;
using ringsweep_test::sort_options_of;

/// Segments as the API takes them, plus the reference's view.
template <class Offset>
struct segments {
  std::vector<Offset> begin, end;
  std::size_t size() const { return begin.size(); }
};

/// Segments of `sizes` laid out in order with `gap` unused keys before each, then listed in
/// reverse order when `reverse`; `n` is set to the keys they span (plus a trailing gap).
template <class Offset>
segments<Offset> lay_out(const std::vector<std::size_t>& sizes, std::size_t gap, bool reverse, std::size_t& n) {
  segments<Offset> s;
  std::size_t at = 0;
  for (std::size_t size : sizes) {
    at += gap;
    s.begin.push_back(Offset(at));
    s.end.push_back(Offset(at + size));
    at += size;
  }
  n = at + gap;
  if (reverse) {
    std::reverse(s.begin.begin(), s.begin.end());
    std::reverse(s.end.begin(), s.end.end());
  }
  return s;
}

/// The expected output: each valid segment stably sorted; `fill` where no segment is.
template <class Key, class Offset>
std::vector<std::size_t> expected_sources(const std::vector<Key>& keys, const segments<Offset>& s,
                                          const ringsweep::sort_options& opts) {
  constexpr std::size_t none = ~std::size_t(0);
  std::vector<std::size_t> from(keys.size(), none);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const long long b = static_cast<long long>(s.begin[i]), e = static_cast<long long>(s.end[i]);
    if (!(b < e) || b < 0 || static_cast<unsigned long long>(e) > keys.size()) continue;
    const std::vector<Key> part(keys.begin() + b, keys.begin() + e);
    const auto order = ringsweep_test::reference_order(part, opts);
    for (std::size_t j = 0; j < order.size(); ++j) from[std::size_t(b) + j] = std::size_t(b) + order[j];
  }
  return from;
}

/// A segmented sort of `keys` (pairs when `Value` is not void) with `Policy` (the device's when
/// void), checked position by position; outputs start as 0xAB bytes, which must remain outside the
/// segments. `before` (optional): keys of the same count sorted first into the same temporary
/// storage, whose leftovers the checked call must not read.
template <class Policy, class Key, class Value, class Offset>
void check_segmented(const std::vector<Key>& keys, const segments<Offset>& s, const ringsweep::sort_options& opts,
                     const std::vector<Key>* before = nullptr) {
  const std::size_t n = keys.size();
  constexpr bool pairs = !std::is_void<Value>::value;
  using V = typename std::conditional<pairs, Value, char>::type;
  INFO("n " << n << ", " << s.size() << " segments, " << ringsweep_test::order_name(opts) << ", bits ["
            << opts.begin_bit << ", " << opts.end_bit << ")" << (pairs ? ", pairs" : ", keys only"));
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<V>(i);
  ringsweep_test::device_buffer<Key> kin(keys), kout(n);
  ringsweep_test::device_buffer<V> vin(values), vout(n);
  ringsweep_test::device_buffer<Offset> begin(s.begin), end(s.end);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const auto call = [&](void* temp, std::size_t& bytes) {
    if constexpr (pairs && std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                             s.size(), begin.data(), end.data(), opts);
    } else if constexpr (pairs) {
      return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                             vout.data(), n, s.size(), begin.data(), end.data(), opts);
    } else if constexpr (std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), n, s.size(), begin.data(),
                                            end.data(), opts);
    } else {
      return ringsweep::tuning::segmented_sort_keys<Policy>(temp, bytes, kin.data(), kout.data(), n, s.size(),
                                                            begin.data(), end.data(), opts);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  // Garbage in the temporary storage (as a previous call leaves it): whatever the sort reads
  // before writing, it must zero itself (the counters by the host, the ring and bins by the large
  // segments' histogram, their digit counts by the classification).
  REQUIRE_CUDA(cudaMemset(temp.data(), 0xA5, bytes));
  if (before != nullptr) {
    kin.upload(*before);
    REQUIRE_CUDA(call(temp.data(), bytes));
    kin.upload(keys);
    kout.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
  }
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());

  const auto from = expected_sources(keys, s, opts);
  const auto got = kout.download();
  const auto got_values = vout.download();
  Key poisoned_key;
  V poisoned_value;
  std::memset(static_cast<void*>(&poisoned_key), 0xAB, sizeof(Key));
  std::memset(static_cast<void*>(&poisoned_value), 0xAB, sizeof(V));
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    if (from[i] == ~std::size_t(0)) {
      REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(poisoned_key));
      if (pairs) REQUIRE(ringsweep_test::same_bytes(got_values[i], poisoned_value));
    } else {
      REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(keys[from[i]]));
      if (pairs) REQUIRE(ringsweep_test::same_bytes(got_values[i], values[from[i]]));  // stable
    }
  }
  REQUIRE(ringsweep_test::same_keys(kin.download(), keys));
}

/// The double-buffer forms (segmented_sort.cuh): the keys (and values) start in the current
/// buffers, the alternate ones hold 0xAB bytes; afterwards the selectors point at the alternate
/// buffers, which hold the sorted segments and still 0xAB outside every segment.
template <class Policy, class Key, class Value, class Offset>
void check_segmented_buffers(const std::vector<Key>& keys, const segments<Offset>& s,
                             const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  constexpr bool pairs = !std::is_void<Value>::value;
  using V = typename std::conditional<pairs, Value, char>::type;
  INFO("double buffers, n " << n << ", " << s.size() << " segments, " << ringsweep_test::order_name(opts)
                            << (pairs ? ", pairs" : ", keys only"));
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<V>(i);
  ringsweep_test::device_buffer<Key> k0(keys), k1(n);
  ringsweep_test::device_buffer<V> v0(values), v1(n);
  ringsweep_test::device_buffer<Offset> begin(s.begin), end(s.end);
  k1.fill_bytes(0xAB);
  v1.fill_bytes(0xAB);
  ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
  ringsweep::double_buffer<V> vb(v0.data(), v1.data());
  const auto call = [&](void* temp, std::size_t& bytes) {
    if constexpr (pairs && std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_pairs(temp, bytes, kb, vb, n, s.size(), begin.data(), end.data(), opts);
    } else if constexpr (pairs) {
      return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, kb, vb, n, s.size(), begin.data(),
                                                             end.data(), opts);
    } else if constexpr (std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_keys(temp, bytes, kb, n, s.size(), begin.data(), end.data(), opts);
    } else {
      return ringsweep::tuning::segmented_sort_keys<Policy>(temp, bytes, kb, n, s.size(), begin.data(), end.data(),
                                                            opts);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  REQUIRE(kb.selector == 0);  // a size query changes nothing
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(kb.current() == k1.data());
  if (pairs) REQUIRE(vb.current() == v1.data());

  const auto from = expected_sources(keys, s, opts);
  const auto got = k1.download();
  const auto got_values = v1.download();
  Key poisoned_key;
  V poisoned_value;
  std::memset(static_cast<void*>(&poisoned_key), 0xAB, sizeof(Key));
  std::memset(static_cast<void*>(&poisoned_value), 0xAB, sizeof(V));
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    if (from[i] == ~std::size_t(0)) {
      REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(poisoned_key));
      if (pairs) REQUIRE(ringsweep_test::same_bytes(got_values[i], poisoned_value));
    } else {
      REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(keys[from[i]]));
      if (pairs) REQUIRE(ringsweep_test::same_bytes(got_values[i], values[from[i]]));  // stable
    }
  }
}

/// Sizes at every class edge of the tiny policy: empty, one key, tiny (2 .. 96), compact (97 ..
/// 128), medium (129 .. 160), small (161 .. 192), large (193 on: one tile and a key, a ring of 4
/// slots wrapped, 8-tile portions crossed).
const std::vector<std::size_t> edge_sizes = {0,   1,   2,   3,   31,  33,  95,  96,  97,  127, 128, 129,
                                             159, 160, 161, 191, 192, 193, 384, 385, 977, 2000};

}  // namespace

TEST_CASE("segmented: every class edge, in order, reversed, with gaps", "[sort][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (bool reverse : {false, true}) {
    for (std::size_t gap : {std::size_t(0), std::size_t(5)}) {
      std::size_t n = 0;
      const auto s = lay_out<int>(edge_sizes, gap, reverse, n);
      const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + n);
      for (auto o : {sort_order::ascending, sort_order::descending}) {
        check_segmented<tiny, std::uint32_t, void>(keys, s, sort_options_of(o));
        check_segmented<tiny, std::uint32_t, std::uint64_t>(keys, s, sort_options_of(o));
      }
    }
  }
}

TEST_CASE("segmented: temporary storage left by a call with other keys", "[sort][segmented]") {
  // Large segments of many tiles (the 4-slot ring wraps, each looping block takes several tiles)
  // among small ones: the ring and bins a previous call left hold its tiles' statuses under the
  // same ticket numbers, and must be zeroed again (by the histogram kernel) before the passes.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  const auto s = lay_out<int>({3000, 5, 1900, 70, 4100, 193}, 1, false, n);
  const auto first = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + 7);
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::few_distinct, seed);
  for (auto o : {sort_order::ascending, sort_order::descending})
    check_segmented<tiny, std::uint32_t, std::uint32_t>(keys, s, sort_options_of(o), &first);
}

TEST_CASE("segmented: 0, 1 and 2^16 segments, one holding everything, offsets of other types",
          "[sort][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto asc = sort_options_of(sort_order::ascending);
  // No segment: nothing is written.
  {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(500, ringsweep_test::distribution::uniform, seed);
    check_segmented<tiny, std::uint32_t, void>(keys, segments<std::int64_t>{}, asc);
  }
  // One segment holding everything, of every size class.
  for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(192), std::size_t(193), std::size_t(3845)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + n);
    segments<std::uint64_t> one;
    one.begin = {0};
    one.end = {std::uint64_t(n)};
    check_segmented<tiny, std::uint32_t, std::uint32_t>(keys, one, asc);
  }
  // 2^16 segments of 0 to 6 keys, some with a large one among them, listed in random order.
  {
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> sizes(1 << 16);
    for (auto& size : sizes) size = rng() % 7;
    sizes[12345] = 1000;
    std::size_t n = 0;
    auto s = lay_out<std::uint32_t>(sizes, 0, false, n);
    std::vector<std::size_t> perm(s.size());
    std::iota(perm.begin(), perm.end(), std::size_t(0));
    std::shuffle(perm.begin(), perm.end(), rng);
    segments<std::uint32_t> shuffled;
    for (std::size_t i : perm) {
      shuffled.begin.push_back(s.begin[i]);
      shuffled.end.push_back(s.end[i]);
    }
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::few_distinct, seed);
    check_segmented<tiny, std::uint32_t, std::uint32_t>(keys, shuffled, asc);
  }
  // Empty segments written as end < begin, and segments outside the input (ignored).
  {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(1000, ringsweep_test::distribution::uniform, seed);
    segments<std::int16_t> odd;
    odd.begin = {10, 500, -5, 990, 410};
    odd.end = {400, 450, 20, 1010, 420};
    check_segmented<tiny, std::uint32_t, void>(keys, odd, asc);
  }
}

TEMPLATE_TEST_CASE("segmented: every key type", "[sort][segmented]", std::uint8_t, std::int8_t, std::uint16_t,
                   std::int16_t, std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, __half, __nv_bfloat16, float,
                   double) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  const auto s = lay_out<int>({3, 100, 150, 700, 1}, 2, true, n);
  const auto keys = ringsweep_test::make_keys<TestType>(n, ringsweep_test::distribution::uniform, seed);
  check_segmented<tiny, TestType, void>(keys, s, sort_options_of(sort_order::ascending));
  check_segmented<tiny, TestType, void>(keys, s, sort_options_of(sort_order::descending));
}

TEST_CASE("segmented: bit windows, empty windows, skipped passes, few distinct keys", "[sort][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  const auto s = lay_out<long>({50, 180, 600, 2500}, 3, false, n);
  for (auto d : {ringsweep_test::distribution::uniform, ringsweep_test::distribution::few_distinct,
                 ringsweep_test::distribution::all_equal, ringsweep_test::distribution::high_bits_only}) {
    const auto keys = ringsweep_test::make_keys<float>(n, d, seed);
    for (auto o : {sort_order::ascending, sort_order::descending}) {
      check_segmented<tiny, float, std::uint32_t>(keys, s, sort_options_of(o, 3, 17));
      check_segmented<tiny, float, std::uint32_t>(keys, s, sort_options_of(o, 9, 9));  // no pass: copies
      check_segmented<tiny, float, std::uint32_t>(keys, s, sort_options_of(o, 24, 32));
    }
  }
}

TEST_CASE("segmented: a pass is skipped only when every large segment has one digit in it",
          "[sort][segmented][skip]") {
  // Large segments (over one 192-key tile) of u32 keys: some below 256 (one digit value in passes
  // 1-3), others full-range (no pass uniform) or with a constant high half (passes 2-3 uniform),
  // listed in every order, with small and tiny segments between them (which never vote). A pass
  // may be skipped only when it is uniform in every large segment; skipped on one segment's word
  // alone, the others keep their digits of that pass unsorted.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  enum kind { low, full, high_const };
  const std::vector<std::vector<kind>> lists = {
      {low, full}, {full, low}, {low, full, low}, {high_const, low, high_const, full}, {low, low}};
  for (const auto& list : lists) {
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < list.size(); ++i) {
      sizes.push_back(700 + 211 * i);  // large: 4-6 tiles each
      sizes.push_back(i % 2 == 0 ? 150 : 20);  // small, tiny
    }
    std::size_t n = 0;
    const auto s = lay_out<int>(sizes, 3, false, n);
    std::mt19937_64 rng(seed + list.size() * 7 + std::size_t(list[0]));
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = std::uint32_t(rng());
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::size_t b = std::size_t(s.begin[2 * i]), e = std::size_t(s.end[2 * i]);
      for (std::size_t j = b; j < e; ++j) {
        if (list[i] == low) keys[j] &= 0xFFu;
        if (list[i] == high_const) keys[j] = (keys[j] & 0xFFFFu) | 0x12340000u;
      }
    }
    for (auto o : {sort_order::ascending, sort_order::descending}) {
      INFO("large segments (0 low, 1 full, 2 constant high half):" << [&] {
        std::string t;
        for (kind k : list) t += " " + std::to_string(int(k));
        return t;
      }());
      check_segmented<tiny, std::uint32_t, void>(keys, s, sort_options_of(o));
      check_segmented<tiny, std::uint32_t, std::uint64_t>(keys, s, sort_options_of(o));
    }
  }
}

TEMPLATE_TEST_CASE("segmented: pairs with values of 1 to 16 bytes", "[sort][segmented]", std::uint8_t, std::uint16_t,
                   std::uint32_t, double, ringsweep_test::value16a) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  const auto s = lay_out<int>(edge_sizes, 1, true, n);
  const auto keys = ringsweep_test::make_keys<std::uint16_t>(n, ringsweep_test::distribution::few_distinct, seed);
  check_segmented<tiny, std::uint16_t, TestType>(keys, s, sort_options_of(sort_order::ascending));
  if constexpr (sizeof(TestType) < 4) {
    // 4-byte keys with 1- or 2-byte values: the large segments' passes move the keys to shared
    // memory before the look-back. The segments in the first half hold one key value (every tile
    // of theirs takes the one-digit path), the others keep every pass running.
    auto keys32 = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + 1);
    for (std::size_t i = 0; i < n / 2; ++i) keys32[i] = 7u;
    check_segmented<tiny, std::uint32_t, TestType>(keys32, s, sort_options_of(sort_order::ascending));
    check_segmented<tiny, std::uint32_t, TestType>(keys32, s, sort_options_of(sort_order::descending));
  }
}

TEST_CASE("segmented: the chained passes keep the tail words' rule, with pauses", "[sort][segmented][chain]") {
  // The large segments' passes run as chains of launches in one kernel (onesweep_chain). Each
  // launch's first ticket must find its tail words clear (tail_checked traps on a stale one),
  // whether the launch before it ran, had no tile (its pass skipped) or lay past every large tile,
  // and whatever the tiles' timing (the faulty hooks pause them at random). policy_tiny: a 4-slot
  // ring (every launch of more than 2 tiles retires tiles), 8-tile portions (several portions and
  // chains of 4 launches for u32 keys).
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto asc = sort_options_of(sort_order::ascending);
  std::mt19937_64 rng(seed ^ 0xC4A1u);
  const auto run = [&](const std::vector<std::uint32_t>& keys, const segments<int>& s) {
    check_segmented<ringsweep_test::policy_tiny_tail_checked, std::uint32_t, void>(keys, s, asc);
    check_segmented<ringsweep_test::policy_tiny_faulty, std::uint32_t, std::uint32_t>(keys, s, asc);
  };
  std::size_t n = 0;
  // Large segments of keys below 256: passes 1 to 3 skipped, empty launches after a run one.
  {
    const auto s = lay_out<int>({700, 20, 1500, 150}, 3, false, n);
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = std::uint32_t(rng()) & 0xFFu;
    run(keys, s);
  }
  // No large segment: every launch of every chain without a tile.
  {
    const auto s = lay_out<int>({90, 150, 3, 180, 64}, 5, true, n);
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = std::uint32_t(rng());
    run(keys, s);
  }
  // Large segments over several portions (36 and more tiles of 192 keys), full-range keys.
  {
    const auto s = lay_out<int>({6000, 100, 1000, 7}, 2, false, n);
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = std::uint32_t(rng());
    run(keys, s);
  }
}

TEST_CASE("segmented: groups of one block sort compact and medium segments side by side", "[sort][segmented][groups]") {
  // policy_tiny_groups: a block of 128 threads takes the front list (compact and medium segments
  // mixed) 4 items at a time into a queue per class; its 4 compact groups sort queued compact ones
  // while 4 wait, then its 2 medium groups the medium ones while 2 wait; after the last chunk the
  // rest, a group without a segment sorting none.
  // Runs of one class, alternations and random mixes put every count of each class in a chunk
  // (and chunks cut short by the list's end); few distinct keys check stability, pairs the values.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::mt19937_64 rng(seed ^ 0x6A0Bu);
  using groups = ringsweep_test::policy_tiny_groups;
  const std::vector<std::size_t> compact = {49, 50, 63, 64}, medium = {65, 66, 100, 127, 128};
  std::vector<std::vector<std::size_t>> layouts = {
      {64, 64, 64, 64, 64, 64, 64},             // compact only, a chunk cut short
      {128, 65, 100, 127, 66, 128, 65, 99, 70},  // medium only: two rounds a chunk
      {64, 128, 49, 65, 50, 127, 63, 66},       // alternating
      {128, 128, 128, 49, 3, 1, 0, 192, 193, 20},  // with every other class between
  };
  for (int l = 0; l < 6; ++l) {
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 37; ++i) {
      const auto r = rng() % 8;
      sizes.push_back(r < 3 ? compact[rng() % compact.size()] : r < 6 ? medium[rng() % medium.size()] : rng() % 300);
    }
    layouts.push_back(sizes);
  }
  // Many chunks a block (the grid is a few blocks an SM): a class's segments left in its queue
  // after a chunk's rounds wait there for the next chunk's, the queue wraps, the last ones drain.
  for (const int compact_in_8 : {5, 2}) {
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 700; ++i) {
      sizes.push_back(int(rng() % 8) < compact_in_8 ? compact[rng() % compact.size()] : medium[rng() % medium.size()]);
    }
    layouts.push_back(sizes);
  }
  for (const auto& sizes : layouts) {
    std::size_t n = 0;
    const auto s = lay_out<int>(sizes, 2, false, n);
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::few_distinct, seed + n);
    check_segmented<groups, std::uint32_t, void>(keys, s, sort_options_of(sort_order::descending));
    check_segmented<groups, std::uint32_t, std::uint32_t>(keys, s, sort_options_of(sort_order::ascending));
  }
}

TEST_CASE("segmented with the device's policy", "[sort][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  // Every class for the shipped policies (tiles of thousands of keys): the medium groups' edge
  // (4,096 4-byte keys, 2,048 8-byte ones), the small block's whole-tile edge (one onesweep tile:
  // 7,680 u32 keys on sm_80, 9,216 on sm_90; 3,840 and 5,760 u64 keys, whose block holds 4,096
  // and 6,144) and large segments past it.
  const auto s = lay_out<int>({5, 128, 129, 3000, 4096, 4097, 7679, 7680, 7681, 9215, 9216, 9217, 30000}, 7, true, n);
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed);
  check_segmented<void, std::uint32_t, void>(keys, s, sort_options_of(sort_order::ascending));
  check_segmented<void, std::uint32_t, std::uint32_t>(keys, s, sort_options_of(sort_order::descending));
  const auto s64 = lay_out<int>({2048, 2049, 3839, 3840, 3841, 4097, 5759, 5760, 5761, 6145}, 3, false, n);
  const auto keys64 = ringsweep_test::make_keys<std::uint64_t>(n, ringsweep_test::distribution::few_distinct, seed);
  check_segmented<void, std::uint64_t, std::uint32_t>(keys64, s64, sort_options_of(sort_order::ascending));
}

TEST_CASE("segmented: the double-buffer forms leave the result in current()", "[sort][segmented][buffers]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::size_t n = 0;
  // The tiny policy: every class edge, reversed, with gaps (positions outside every segment).
  const auto s = lay_out<int>(edge_sizes, 3, true, n);
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed);
  check_segmented_buffers<tiny, std::uint32_t, void>(keys, s, sort_options_of(sort_order::ascending));
  check_segmented_buffers<tiny, std::uint32_t, std::uint32_t>(keys, s, sort_options_of(sort_order::descending, 3, 29));
  // The large segments start in the alternate buffers' twins: an even count of executed passes
  // (4 above, none here: one key value, or an empty window) is preceded by their copy into the
  // alternate buffers, an odd count (3 here, or 1: only the low byte differs) ends there alone.
  // Copied at the wrong end, or not at all, they read 0xAB or stay unsorted.
  const auto equal = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::all_equal, seed);
  auto low_byte = keys;
  for (auto& k : low_byte) k = (k & 0xFFu) | 0x5A5A5A00u;
  check_segmented_buffers<tiny, std::uint32_t, std::uint32_t>(equal, s, sort_options_of(sort_order::ascending));
  check_segmented_buffers<tiny, std::uint32_t, void>(keys, s, sort_options_of(sort_order::ascending, 5, 5));
  check_segmented_buffers<tiny, std::uint32_t, std::uint32_t>(keys, s, sort_options_of(sort_order::ascending, 0, 24));
  check_segmented_buffers<tiny, std::uint32_t, void>(low_byte, s, sort_options_of(sort_order::descending));
  // The device's policy: tiny, small and large segments of the shipped tiles.
  std::size_t n_device = 0;
  const auto s_device = lay_out<int>({5, 129, 3000, 9217}, 7, false, n_device);
  const auto keys_device =
      ringsweep_test::make_keys<std::uint32_t>(n_device, ringsweep_test::distribution::uniform, seed + 1);
  check_segmented_buffers<void, std::uint32_t, void>(keys_device, s_device, sort_options_of(sort_order::ascending));
}

TEST_CASE("segmented: refused arguments write nothing", "[sort][segmented]") {
  const std::size_t n = 1000;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, 7);
  ringsweep_test::device_buffer<std::uint32_t> in(keys), out(n);
  std::size_t dummy_n = 0;
  const auto s = lay_out<int>({400, 300}, 10, false, dummy_n);
  ringsweep_test::device_buffer<int> begin(s.begin), end(s.end);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::segmented_sort_keys<tiny>(nullptr, bytes, in.data(), out.data(), n, 2, begin.data(),
                                                            end.data()));
  ringsweep_test::device_bytes temp(bytes);
  out.fill_bytes(0xAB);
  const auto untouched = out.download();
  const auto refused = [&](cudaError_t e) {
    REQUIRE(e == cudaErrorInvalidValue);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(ringsweep_test::same_keys(out.download(), untouched));
    REQUIRE(ringsweep_test::same_keys(in.download(), keys));
  };
  using ringsweep::tuning::segmented_sort_keys;
  SECTION("null offsets with segments") {
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, 2, (const int*)nullptr,
                                      end.data()));
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, 2, begin.data(),
                                      (const int*)nullptr));
  }
  SECTION("too little temporary storage") {
    std::size_t less = bytes - 1;
    refused(segmented_sort_keys<tiny>(temp.data(), less, in.data(), out.data(), n, 2, begin.data(), end.data()));
  }
  SECTION("null keys, overlapping input and output") {
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), (std::uint32_t*)nullptr, n, 2, begin.data(),
                                      end.data()));
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, out.data(), out.data() + 1, n - 1, 2, begin.data(),
                                      end.data()));
  }
  SECTION("bit window out of range") {
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, 2, begin.data(), end.data(),
                                      sort_options_of(sort_order::ascending, 0, 33)));
    refused(segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, 2, begin.data(), end.data(),
                                      sort_options_of(sort_order::ascending, 9, 8)));
  }
  SECTION("counts whose sizes overflow") {
    std::size_t query = 0;
    REQUIRE(segmented_sort_keys<tiny>(nullptr, query, in.data(), out.data(), std::size_t(1) << 48, 2, begin.data(),
                                      end.data()) == cudaErrorInvalidValue);
    REQUIRE(segmented_sort_keys<tiny>(nullptr, query, in.data(), out.data(), n, std::size_t(1) << 32, begin.data(),
                                      end.data()) == cudaErrorInvalidValue);
    REQUIRE(segmented_sort_keys<tiny>(nullptr, query, in.data(), out.data(), ~std::size_t(0) / 2, 2, begin.data(),
                                      end.data()) == cudaErrorInvalidValue);
    REQUIRE(query == 0);
  }
}

namespace {
#ifdef SEGMENTED_TEST_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif
struct cell_depth {  // a custom key: cell ascending, then depth
  std::uint16_t cell;
  float depth;
};
struct by_cell_depth {
  __host__ __device__ tup::tuple<std::uint16_t&, float&> operator()(cell_depth& k) const { return {k.cell, k.depth}; }
};
}  // namespace

TEST_CASE("segmented: custom keys through a decomposer, keys and pairs", "[sort][segmented][decomposer]") {
  std::size_t n = 0;
  const auto s = lay_out<int>({2, 120, 300, 9000, 30000, 1}, 4, true, n);
  std::mt19937 rng(ringsweep_test::catch_seed());
  std::vector<cell_depth> keys(n);
  for (auto& k : keys) {
    std::memset(static_cast<void*>(&k), 0, sizeof k);
    k.cell = std::uint16_t(rng() % 50);
    k.depth = float(rng() % 1000) / 8.0f;
  }
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  ringsweep_test::device_buffer<cell_depth> kin(keys), kout(n);
  ringsweep_test::device_buffer<std::uint32_t> vin(index), vout(n);
  ringsweep_test::device_buffer<int> begin(s.begin), end(s.end);
  std::vector<bool> covered(n, false);  // positions in no segment (the gaps) stay as they were
  for (std::size_t i = 0; i < s.size(); ++i)
    for (int at = s.begin[i]; at < s.end[i]; ++at) covered[std::size_t(at)] = true;
  // In/out forms, then double buffers (keys from a copy of the input, the result in kout/vout).
  for (int form = 0; form < 4; ++form) {
    const bool pairs = form % 2 == 1, buffers = form >= 2;
    INFO((pairs ? "pairs" : "keys") << (buffers ? ", double buffers" : ", in/out"));
    kout.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
    ringsweep_test::device_buffer<cell_depth> kcopy(keys);
    ringsweep_test::device_buffer<std::uint32_t> vcopy(index);
    ringsweep::double_buffer<cell_depth> kb(kcopy.data(), kout.data());
    ringsweep::double_buffer<std::uint32_t> vb(vcopy.data(), vout.data());
    std::size_t bytes = 0;
    const auto call = [&](void* temp) {
      if (buffers) {
        return pairs ? ringsweep::segmented_sort_pairs(temp, bytes, kb, vb, n, s.size(), begin.data(), end.data(),
                                                       by_cell_depth{})
                     : ringsweep::segmented_sort_keys(temp, bytes, kb, n, s.size(), begin.data(), end.data(),
                                                      by_cell_depth{});
      }
      return pairs ? ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                     s.size(), begin.data(), end.data(), by_cell_depth{})
                   : ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), n, s.size(), begin.data(),
                                                    end.data(), by_cell_depth{});
    };
    REQUIRE_CUDA(call(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    if (buffers) {
      REQUIRE(kb.current() == kout.data());
      if (pairs) REQUIRE(vb.current() == vout.data());
    }
    const auto got = kout.download();
    const auto got_index = vout.download();
    std::size_t gaps = 0;
    for (std::size_t at = 0; at < n; ++at) {
      if (covered[at]) continue;
      ++gaps;
      const auto* bytes_at = reinterpret_cast<const unsigned char*>(&got[at]);
      INFO("gap position " << at);
      REQUIRE(std::all_of(bytes_at, bytes_at + sizeof(cell_depth), [](unsigned char b) { return b == 0xAB; }));
      REQUIRE(got_index[at] == 0xABABABABu);
    }
    REQUIRE(gaps > 0);
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::vector<std::uint32_t> order(std::size_t(s.end[i] - s.begin[i]));
      std::iota(order.begin(), order.end(), std::uint32_t(s.begin[i]));
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return keys[a].cell != keys[b].cell ? keys[a].cell < keys[b].cell : keys[a].depth < keys[b].depth;
      });
      for (std::size_t j = 0; j < order.size(); ++j) {
        const std::size_t at = std::size_t(s.begin[i]) + j;
        INFO("segment " << i << ", position " << j);
        REQUIRE(got[at].cell == keys[order[j]].cell);
        REQUIRE(got[at].depth == keys[order[j]].depth);
        if (pairs) REQUIRE(got_index[at] == order[j]);
      }
    }
  }
}

TEST_CASE("segmented: temporary storage is the documented formula", "[sort][segmented][temp]") {
  // segmented_sort.cuh: 256 + a(4 (33 + TAIL_WORDS + P)) + a(8 S) + [L > 0: a(ring) + a(8 L P RADIX)
  // + a(16 P RADIX) + a(24 L) + [P >= 2: a(n sizeof(Key)) + a(n sizeof(Value))]], L = min(S, n / (TILE + 1)).
  using config = ringsweep::detail::sort_config<tiny, std::uint32_t, std::uint64_t>;
  const auto a = [](std::size_t x) { return (x + 255) / 256 * 256; };
  const auto formula = [&](std::size_t n, std::size_t s, int passes) {
    if (n == 0 || s == 0) return std::size_t(256);
    const std::size_t l = std::min<std::size_t>(s, n / std::size_t(config::TILE + 1));
    std::size_t bytes = 256 + a(4 * std::size_t(33 + config::tail_t::WORDS_PER_SORT + passes)) + a(8 * s);
    if (l > 0) {
      bytes += a(config::status_ring::bytes) + a(8 * l * std::size_t(passes) * config::RADIX) +
               a(16 * std::size_t(passes) * config::RADIX) + a(24 * l);
      if (passes >= 2) bytes += a(n * 4) + a(n * 8);
    }
    return bytes;
  };
  const int* none = nullptr;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(192), std::size_t(193), std::size_t(5000)}) {
    for (std::size_t s : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(100000)}) {
      for (int end_bit : {32, 8, 0}) {
        INFO("n " << n << ", " << s << " segments, end_bit " << end_bit);
        std::size_t bytes = 0;
        REQUIRE_CUDA(ringsweep::tuning::segmented_sort_pairs<tiny>(
            nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
            static_cast<const std::uint64_t*>(nullptr), static_cast<std::uint64_t*>(nullptr), n, s, none, none,
            sort_options_of(sort_order::ascending, 0, end_bit)));
        CHECK(bytes == formula(n, s, (end_bit + 7) / 8));
      }
    }
  }
}
