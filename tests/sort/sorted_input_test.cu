// Sorted input: the upfront histogram notices keys already in order for the sort (bit window and
// direction included) and every pass is skipped, so such an input costs the histogram's read and,
// in the in/out form, one copy. One key out of place anywhere (first or last key, a warp, vector
// or tile edge, the middle) must still be sorted, and a digit that all keys but one share must not
// be taken for uniform. Counted traffic shows what a sorted input moves.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>
#if defined(RINGSWEEP_SIMT_BACKEND)
#include <ringsweep_simt/control.hpp>  // traffic counts: the SIMT backend only
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using u32 = std::uint32_t;
using tiny = ringsweep_test::policy_tiny;
using tiny_vector = ringsweep_test::policy_tiny_vector;
using ringsweep::sort_order;

using ringsweep_test::sort_options_of;

/// Every form, keys only and pairs, checked against std::stable_sort.
template <class Policy, class Key>
void check_every_form(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  ringsweep_test::check_sort_keys<Policy>(keys, opts);
  ringsweep_test::check_sort_pairs<Policy, Key, std::uint32_t>(keys, opts);
  ringsweep_test::check_sort_double_buffer<Policy, Key, std::uint32_t, true>(keys, opts);
  ringsweep_test::check_sort_double_buffer<Policy, Key, std::uint32_t, false>(keys, opts);
  ringsweep_test::check_sort_in_place<Policy, Key, std::uint32_t, true>(keys, opts);
  ringsweep_test::check_sort_in_place<Policy, Key, std::uint32_t, false>(keys, opts);
}

/// `keys` in the order the sort wants (stable, so equal keys keep their order).
template <class Key>
std::vector<Key> sorted_for(std::vector<Key> keys, const ringsweep::sort_options& opts) {
  const auto order = ringsweep_test::reference_order(keys, opts);
  std::vector<Key> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = keys[order[i]];
  return out;
}

/// Keys of the sorts below: 9 onesweep tiles of 192 keys (two portions of the tiny policies'
/// 8 tiles), 14 histogram tiles of 128 keys.
constexpr std::size_t n_keys = 1700;

/// Positions where one key out of place must be found: the ends, lane, warp, vector and
/// histogram-tile edges of the tiny policies (64-thread histogram blocks of 2 keys: 128-key tiles),
/// onesweep tile and portion edges (192 and 1536 keys) and the middle; `few`: one of each kind.
std::vector<std::size_t> edge_positions(std::size_t n, bool few = false) {
  std::vector<std::size_t> at = few ? std::vector<std::size_t>{0, 31, 127, 128, 192, n / 2, n - 1}
                                    : std::vector<std::size_t>{0,   1,   2,   3,   31,   32,  33,    63,    64,   127,
                                                               128, 129, 191, 192, 1535, 1536, n / 2, n - 2, n - 1};
  at.erase(std::remove_if(at.begin(), at.end(), [&](std::size_t i) { return i >= n; }), at.end());
  return at;
}

/// Keys sorted for `opts` but for one inversion: the pair (at, at + 1) out of order, every other
/// neighbour in order (distinct ranks at the pair: rank(at) = rank(at + 1) + 1).
template <class Key>
std::vector<Key> one_inversion(std::size_t n, std::size_t at, ringsweep::sort_order o) {
  using T = ringsweep::key_traits<Key>;
  using bits = typename T::bits_type;
  // Non-decreasing ranks below the key's largest value, with repeats for narrow keys.
  const std::uint64_t top = std::uint64_t(bits(~bits(0))) - 1;
  std::vector<std::uint64_t> rank(n);
  for (std::size_t i = 0; i < n; ++i) rank[i] = std::uint64_t(i) * std::min<std::uint64_t>(top, 3 * n) / n;
  if (at + 1 < n) rank[at] = rank[at + 1] + 1;  // above rank[at - 1] too: the one pair out of order
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bits r = bits(o == sort_order::ascending ? rank[i] : std::uint64_t(bits(~bits(0))) - rank[i]);
    keys[i] = T::from_bits(r);
  }
  return keys;
}

/// In/out keys-only sort of `keys` read from `offset` keys past a 256-byte aligned address,
/// checked against std::stable_sort.
template <class Policy, class Key>
void check_sort_at_offset(const std::vector<Key>& keys, std::size_t offset, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  std::vector<Key> padded(n + offset);
  std::copy(keys.begin(), keys.end(), padded.begin() + std::ptrdiff_t(offset));
  ringsweep_test::device_buffer<Key> in(padded), out(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, in.data() + offset, out.data(), n, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, in.data() + offset, out.data(), n, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto order = ringsweep_test::reference_order(keys, opts);
  const auto got = out.download();
  INFO("first mismatch at " << ringsweep_test::first_key_mismatch(got, keys, order));
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
}

#if defined(RINGSWEEP_SIMT_BACKEND)
/// Bytes loaded plus stored per key by one sort of `keys` with `Policy`: the in/out form, the
/// double-buffer form or the in-place form.
enum class form { in_out, double_buffer, in_place };
template <class Policy>
double bytes_per_key(const std::vector<u32>& keys, form f, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<u32> kin(keys), kout(n);
  ringsweep::double_buffer<u32> kb(kin.data(), kout.data());
  std::size_t bytes = 0;
  if (f == form::in_out) {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, kin.data(), kout.data(), n, opts));
  } else {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, kb, n, opts));
  }
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  if (f == form::in_out) {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, kin.data(), kout.data(), n, opts));
  } else if (f == form::double_buffer) {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, kb, n, opts));
  } else {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(kin.data(), n, opts));
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto traffic = simt::traffic_end();
  unsigned long long moved = 0;
  for (const auto& k : traffic) moved += k.load_bytes + k.store_bytes;
  // The result is right too.
  const std::vector<u32> want = sorted_for(keys, opts);
  const u32* result = f == form::in_out ? kout.data() : f == form::double_buffer ? kb.current() : kin.data();
  std::vector<u32> got(n);
  REQUIRE_CUDA(cudaMemcpy(got.data(), result, n * sizeof(u32), cudaMemcpyDeviceToHost));
  CHECK(got == want);
  return double(moved) / double(n);
}
#endif  // RINGSWEEP_SIMT_BACKEND

}  // namespace

TEMPLATE_TEST_CASE("sorted input of every key type is sorted, with one key out of place anywhere",
                   "[sort][sorted]", std::uint8_t, std::uint32_t, float, std::int64_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = n_keys;
  // Every position and form for 4-byte keys; the other widths at one position of each kind.
  const bool few = sizeof(TestType) != 4;
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    const auto opts = sort_options_of(o);
    INFO(ringsweep_test::order_name(opts));
    const auto sorted = sorted_for(ringsweep_test::make_keys<TestType>(n, ringsweep_test::distribution::uniform, seed), opts);
    check_every_form<tiny>(sorted, opts);
    if constexpr (std::is_same<TestType, std::uint32_t>::value) check_every_form<tiny_vector>(sorted, opts);
    for (std::size_t at : edge_positions(n, few)) {
      INFO("key out of place at " << at);
      std::vector<TestType> keys = sorted;
      // The last (largest for the sort) key moves to `at`, the rest of the tail one place on: out
      // of order unless every key from `at` on is equal to it (then the test sorts a sorted input).
      // At the last position, the first key moves there instead.
      if (at + 1 < n) {
        std::rotate(keys.begin() + std::ptrdiff_t(at), keys.end() - 1, keys.end());
      } else {
        std::rotate(keys.begin(), keys.begin() + 1, keys.end());
      }
      if (few) {
        ringsweep_test::check_sort_keys<tiny>(keys, opts);
        ringsweep_test::check_sort_double_buffer<tiny, TestType, std::uint32_t, true>(keys, opts);
      } else {
        check_every_form<tiny>(keys, opts);
      }
      if constexpr (std::is_same<TestType, std::uint32_t>::value) {
        ringsweep_test::check_sort_keys<tiny_vector>(keys, opts);
      }
    }
  }
}

TEST_CASE("sorted within the bit window only, and unsorted only outside it", "[sort][sorted]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = n_keys;
  auto keys = ringsweep_test::random_ints<u32>(n, seed, 0u, ~0u);
  // Sorted by bits [8, 24): bits outside the window stay random.
  const auto opts = sort_options_of(sort_order::ascending, 8, 24);
  keys = sorted_for(keys, opts);
  check_every_form<tiny>(keys, opts);
  for (std::size_t at : edge_positions(n, true)) {
    INFO("window digit out of place at " << at);
    auto k = keys;
    k[at] ^= 0x00FF0000u;  // another value in the window's high digit
    check_every_form<tiny>(k, opts);
  }
  // Descending over the window, ascending over the whole key: not sorted.
  check_every_form<tiny>(keys, sort_options_of(sort_order::descending, 8, 24));
}

TEST_CASE("a digit that every key but one shares is not uniform, in every pass and form", "[sort][skip][sorted]") {
  const std::size_t n = n_keys;
  for (int pass = 0; pass < 4; ++pass) {
    for (std::size_t at : edge_positions(n, true)) {
      INFO("pass " << pass << ", the one differing key at " << at);
      std::vector<u32> keys(n, 0x5A5A5A5Au);
      keys[at] ^= 0x11u << (8 * pass);  // below the others in this digit only (0x5A ^ 0x11 = 0x4B)
      check_every_form<tiny>(keys, sort_options_of(sort_order::ascending));
      ringsweep_test::check_sort_keys<tiny>(keys, sort_options_of(sort_order::descending));
      std::vector<u32> above(n, 0x5A5A5A5Au);
      above[at] = 0x5A5A5A5Au + (0x11u << (8 * pass));
      check_every_form<tiny>(above, sort_options_of(sort_order::descending));
    }
  }
}

TEMPLATE_TEST_CASE("an unaligned sorted input with one inversion at its head, the head's end or a histogram "
                   "tile's last load group is not sorted", "[sort][sorted][unaligned]", std::uint8_t, std::uint32_t) {
  // policy_tiny_hist16: 512-key histogram tiles in 16-byte vectors (VEC keys), so an input starting
  // `offset` keys past a 16-byte boundary has a head of VEC - offset keys checked one by one, whose
  // last key's successor is the vector body's first; each thread's last vector of a tile (the
  // block's last one: the tile's last VEC keys) is checked within itself and against the next
  // tile's first key. policy_tiny (two-key vectors, 128-key tiles) for the same edges of its own.
  using hist16 = ringsweep_test::policy_tiny_hist16;
  constexpr std::size_t VEC = 16 / sizeof(TestType);
  constexpr std::size_t HIST_TILE = std::size_t(hist16::HIST_THREADS) * hist16::HIST_ITEMS;
  const std::size_t n = 1300;  // 7 onesweep tiles (the onesweep path, which alone checks order), 3 histogram tiles
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    const auto opts = sort_options_of(o);
    for (std::size_t offset : {std::size_t(0), std::size_t(1), VEC / 2, VEC - 1}) {
      const std::size_t head = offset == 0 ? 0 : VEC - offset;
      // The first keys, the head's last key against the body's first, and every pair of the first
      // tile's last vector and the pair across into the next tile (the body starts after the head).
      std::vector<std::size_t> at = {0, 1};
      if (head > 0) at.push_back(head - 1);
      for (std::size_t v = 0; v < VEC; ++v) at.push_back(head + HIST_TILE - VEC + v);
      for (std::size_t p : at) {
        INFO(ringsweep_test::order_name(opts) << ", input " << offset << " keys past 16-byte alignment (head of "
                                              << head << "), keys " << p << " and " << p + 1 << " out of order");
        const auto keys = one_inversion<TestType>(n, p, o);
        check_sort_at_offset<hist16>(keys, offset, opts);
      }
      // The same input without the inversion is sorted (and taken as such).
      check_sort_at_offset<hist16>(one_inversion<TestType>(n, n, o), offset, opts);
    }
    // policy_tiny: 2-key vectors (one key of head at an odd offset), 128-key tiles.
    for (std::size_t offset : {std::size_t(0), std::size_t(1)}) {
      for (std::size_t p : {std::size_t(0), std::size_t(1), offset + 126, offset + 127}) {
        INFO(ringsweep_test::order_name(opts) << ", policy_tiny, offset " << offset << ", keys " << p << " and "
                                              << p + 1 << " out of order");
        check_sort_at_offset<tiny>(one_inversion<TestType>(n, p, o), offset, opts);
      }
    }
  }
}

#if defined(RINGSWEEP_SIMT_BACKEND)
TEST_CASE("sorted input moves the histogram's read and at most one copy", "[sort][sorted][traffic]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = std::size_t(1) << 20;
  const auto random = ringsweep_test::random_ints<u32>(n, seed, 0u, ~0u);
  const auto asc = sort_options_of(sort_order::ascending);
  const auto desc = sort_options_of(sort_order::descending);
  const auto window = sort_options_of(sort_order::ascending, 0, 16);
  const auto sorted_asc = sorted_for(random, asc);
  // Descending, and sorted within the window only: 2^18 keys.
  const std::vector<u32> quarter(random.begin(), random.begin() + std::ptrdiff_t(n / 4));
  const auto sorted_desc = sorted_for(quarter, desc);
  const auto sorted_window = sorted_for(quarter, window);
  for (form f : {form::in_out, form::double_buffer, form::in_place}) {
    INFO("form " << int(f));
    const double copy = f == form::in_out ? 8.0 : 0.0;  // the in/out form copies input to output
    CHECK(bytes_per_key<tiny_vector>(sorted_asc, f, asc) == 4.0 + copy);
    CHECK(bytes_per_key<tiny_vector>(sorted_desc, f, desc) == 4.0 + copy);
    CHECK(bytes_per_key<tiny_vector>(sorted_window, f, window) == 4.0 + copy);
  }
  // Sorted the other way round is not sorted: every pass runs.
  CHECK(bytes_per_key<tiny_vector>(sorted_desc, form::in_out, asc) == 36.0);
  // Random keys: unchanged (histogram 4, four passes of 8).
  const std::vector<u32> small(random.begin(), random.begin() + 20000);
  CHECK(bytes_per_key<tiny_vector>(small, form::in_out, asc) == 36.0);
  CHECK(bytes_per_key<tiny_vector>(small, form::double_buffer, asc) == 36.0);
}
#endif  // RINGSWEEP_SIMT_BACKEND
