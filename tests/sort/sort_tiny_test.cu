// The whole sort with the tiny test policy (192-key tiles, 4-slot status buffer, 8-tile portions):
// every key type, sizes around the warp and tile edges, many buffer wraps and portion boundaries,
// both orders, keys only and pairs (stability through index values).
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"
#include "sort_tiny_common.cuh"

namespace {

using tiny = ringsweep_test::policy_tiny;
using ringsweep_test::distribution;
using ringsweep_test::sizes;
using ringsweep_test::tile;
using ringsweep_test::value16a;
using ringsweep_test::value16u;
using ringsweep_test::value8u;
using ringsweep_test::with_order;

}  // namespace

TEMPLATE_TEST_CASE("tiny policy: every key type over every size, both orders", "[sort][tiny]", std::uint32_t,
                   std::int32_t, float, std::uint64_t, std::uint8_t, std::uint16_t, std::int8_t, std::int16_t,
                   std::int64_t, double, __half, __nv_bfloat16) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    for (std::size_t n : sizes) {
      const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n);
      ringsweep_test::check_sort_keys<tiny>(keys, with_order(o));
      ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(keys, with_order(o));
    }
  }
}

TEMPLATE_TEST_CASE("tiny policy: key distributions", "[sort][tiny]", std::uint32_t, std::int32_t, float,
                   std::uint64_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (distribution d : {distribution::uniform, distribution::all_equal, distribution::few_distinct,
                         distribution::sorted, distribution::reversed, distribution::high_bits_only,
                         distribution::small_range}) {
    INFO("distribution " << ringsweep_test::name(d));
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      for (std::size_t n : {std::size_t(150), std::size_t(977), std::size_t(3845)}) {
        const auto keys = ringsweep_test::make_keys<TestType>(n, d, seed + 3 * n);
        ringsweep_test::check_sort_pairs<tiny, TestType, std::uint64_t>(keys, with_order(o));
      }
    }
  }
}

TEMPLATE_TEST_CASE("tiny policy: bit windows", "[sort][tiny]", std::uint32_t, float, std::uint64_t, std::int16_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const int width = int(8 * sizeof(TestType));
  const int k = width / 2 - 3;
  struct window {
    int begin, end;
  };
  const std::vector<window> windows{{0, -1}, {0, k}, {k, width}, {k, k}, {3, 3 + 11}, {width - 1, width}, {0, 1}};
  for (auto w : windows) {
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      for (std::size_t n : {std::size_t(100), std::size_t(3845)}) {
        ringsweep::sort_options opts = with_order(o);
        opts.begin_bit = w.begin;
        opts.end_bit = w.end;
        const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n + std::uint64_t(w.begin));
        ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(keys, opts);
        ringsweep_test::check_sort_keys<tiny>(keys, opts);
      }
    }
  }
}

namespace {

template <class Key>
std::vector<Key> special_floats(std::size_t n, std::uint64_t seed) {
  using T = ringsweep::key_traits<Key>;
  using bits = typename T::bits_type;
  constexpr int B = T::bits;
  // Layout-independent special values: exponent all ones (inf/NaN), zero exponent (0/denormals).
  const bits sign = T::high_bit;
  const int mant_bits = B == 32 ? 23 : B == 64 ? 52 : std::is_same<Key, __half>::value ? 10 : 7;
  const bits exp_mask = bits(bits(~bits(0)) >> 1 >> mant_bits << mant_bits);
  const bits one_bits = bits(bits(exp_mask >> 1) & exp_mask);  // exponent bias: 1.0
  const std::vector<bits> specials{0,
                                   sign,                                  // -0.0
                                   exp_mask,                              // +inf
                                   bits(sign | exp_mask),                 // -inf
                                   bits(exp_mask | 1),                    // signalling NaN
                                   bits(exp_mask | (bits(1) << (mant_bits - 1))),          // quiet NaN
                                   bits(sign | exp_mask | (bits(1) << (mant_bits - 1))),   // -NaN
                                   bits(sign | exp_mask | 5),             // -NaN, payload
                                   1,                                     // smallest denormal
                                   bits(sign | 1),                        // its negative
                                   bits((bits(1) << mant_bits) - 1),      // largest denormal
                                   one_bits,
                                   bits(sign | one_bits)};
  std::mt19937_64 rng(seed);
  auto random = ringsweep_test::random_keys<Key>(n, seed + 1, 1);
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = rng() % 3 == 0 ? random[i] : T::from_bits(specials[rng() % specials.size()]);
  }
  return keys;
}

}  // namespace

TEMPLATE_TEST_CASE("tiny policy: floats with zeros of both signs, infinities, NaNs, denormals", "[sort][tiny]",
                   float, double, __half, __nv_bfloat16) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(150), std::size_t(2000)}) {
    const auto keys = special_floats<TestType>(n, seed + n);
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(keys, with_order(o));
      ringsweep_test::check_sort_keys<tiny>(keys, with_order(o));
    }
  }
  // -0.0 and +0.0 are equal: input order kept, and each keeps its own bits.
  using T = ringsweep::key_traits<TestType>;
  std::vector<TestType> zeros;
  for (int i = 0; i < 300; ++i) zeros.push_back(T::from_bits(i % 3 == 0 ? T::high_bit : 0));
  ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(zeros, ringsweep::sort_options{});
}

namespace {

/// Raw bits of 1.0 in each floating-point key type.
template <class Key>
std::uint64_t one_bits() {
  return sizeof(Key) == 8 ? 0x3FF0000000000000ull
         : sizeof(Key) == 4 ? 0x3F800000ull
         : std::is_same<Key, __half>::value ? 0x3C00ull
                                             : 0x3F80ull;  // __nv_bfloat16
}

/// Sorts `n` keys drawn from {-1.0, -0.0, +0.0, +1.0} as pairs with their input indices, through
/// `Policy` (void: the public API and the device's policy), and checks the result against an order
/// derived here from the bits alone, not from key_traits (which the sort's digits come from too):
/// the two zeros are one key, so they leave in input order, each with its own sign bit.
template <class Policy, class Key>
void check_signed_zeros(std::size_t n, ringsweep::sort_order o, std::uint64_t seed) {
  using T = ringsweep::key_traits<Key>;
  using bits = typename T::bits_type;
  const bits one = bits(one_bits<Key>());
  const bits candidates[4] = {bits(T::high_bit | one), T::high_bit, bits(0), one};  // -1, -0, +0, +1
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  std::vector<std::uint32_t> values(n);
  std::vector<int> rank(n);  // -1.0: 0, either zero: 1, +1.0: 2
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned c = rng() % 8 < 6 ? 1u + unsigned(rng() % 2) : unsigned(rng() % 2) * 3u;  // mostly zeros
    keys[i] = T::from_bits(candidates[c]);
    values[i] = std::uint32_t(i);
    rank[i] = c == 0 ? 0 : c == 3 ? 2 : 1;
    if (o == ringsweep::sort_order::descending) rank[i] = 2 - rank[i];
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  ringsweep::sort_options opts;
  opts.order = o;
  INFO("signed zeros, n " << n << ", " << ringsweep_test::order_name(opts) << ", key " << sizeof(Key) << " bytes");
  ringsweep_test::device_buffer<Key> kin(keys), kout(n);
  ringsweep_test::device_buffer<std::uint32_t> vin(values), vout(n);
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    if constexpr (std::is_void<Policy>::value) {
      return ringsweep::sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opts);
    } else {
      return ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                   opts);
    }
  };
  REQUIRE_CUDA(sort(nullptr));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(sort(temp.data()));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got_keys = kout.download();
  const auto got_values = vout.download();
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i) {
    if (got_values[i] != order[i] || T::to_bits(got_keys[i]) != T::to_bits(keys[order[i]])) bad = i;
  }
  INFO("first mismatch at " << bad);
  REQUIRE(bad == n);
}

}  // namespace

TEMPLATE_TEST_CASE("-0.0 and +0.0 keep their input order through a whole sort", "[sort][tiny][zeros]", float, double,
                   __half, __nv_bfloat16) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    check_signed_zeros<tiny, TestType>(150, o, seed);           // one block
    check_signed_zeros<tiny, TestType>(20 * tile + 5, o, seed);  // onesweep, several portions
    check_signed_zeros<void, TestType>(3000, o, seed + 1);
    check_signed_zeros<void, TestType>(40000, o, seed + 2);      // onesweep with the device's policy
  }
}

TEST_CASE("tiny policy: value types of 1, 2, 4, 8 and 16 bytes", "[sort][tiny]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(150), std::size_t(3845)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::few_distinct, seed + n);
    const ringsweep::sort_options opts;
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, std::uint8_t>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, std::uint16_t>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, float>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, double>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, value8u>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, value16a>(keys, opts);
    ringsweep_test::check_sort_pairs<tiny, std::uint32_t, value16u>(keys, opts);
    const auto keys64 = ringsweep_test::make_keys<std::uint64_t>(n, distribution::few_distinct, seed + n);
    ringsweep_test::check_sort_pairs<tiny, std::uint64_t, value16a>(keys64, opts);
    const auto keys8 = ringsweep_test::make_keys<std::uint8_t>(n, distribution::uniform, seed + n);
    ringsweep_test::check_sort_pairs<tiny, std::uint8_t, value16u>(keys8, opts);
  }
}

TEST_CASE("tiny policy: double buffers and their selectors", "[sort][tiny]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  using u32 = std::uint32_t;
  const auto big = ringsweep_test::make_keys<u32>(977, distribution::uniform, seed);
  const auto small = ringsweep_test::make_keys<u32>(100, distribution::uniform, seed + 1);
  ringsweep::sort_options full, three_passes, empty;
  three_passes.end_bit = 20;
  empty.begin_bit = empty.end_bit = 7;
  // Onesweep: 4 passes end where they started, 3 passes in the alternate buffer.
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, true>(big, full, 0);
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, false>(big, full, 0);
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, true>(big, three_passes, 1);
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, false>(big, three_passes, 1);
  // The single-block sort writes the alternate buffer.
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, true>(small, full, 1);
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, false>(small, three_passes, 1);
  // An empty bit window sorts nothing and leaves the selector.
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, true>(big, empty, 0);
  ringsweep_test::check_sort_double_buffer<tiny, u32, u32, true>(std::vector<u32>{}, full, 0);
  const auto big64 = ringsweep_test::make_keys<std::uint64_t>(3845, distribution::uniform, seed + 2);
  ringsweep_test::check_sort_double_buffer<tiny, std::uint64_t, double, true>(big64, full, 0);
}

TEST_CASE("narrow-radix policy (5-bit digits, fewer digits than threads)", "[sort][tiny]") {
  using r5 = ringsweep_test::policy_tiny_radix5;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(1), std::size_t(60), std::size_t(127), std::size_t(128), std::size_t(129),
                        std::size_t(1000), std::size_t(2100)}) {
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      ringsweep_test::check_sort_pairs<r5, std::uint32_t, std::uint32_t>(
          ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + n), with_order(o));
      ringsweep_test::check_sort_pairs<r5, std::uint64_t, std::uint32_t>(
          ringsweep_test::make_keys<std::uint64_t>(n, distribution::few_distinct, seed + n), with_order(o));
      ringsweep_test::check_sort_keys<r5>(ringsweep_test::make_keys<std::int8_t>(n, distribution::uniform, seed + n),
                                     with_order(o));
    }
  }
}

// Issue #35: a partial tile is padded at load with the key whose every digit is the pass's largest
// (no bounds check per key in counting, ranking and the exchange). Sizes one key past a tile and a
// portion, one short of a tile and of a portion; windows whose last pass is narrow (its largest
// digit below RADIX - 1); keys that are themselves the pad's bits (the largest key of the order:
// all ones ascending, all zeros descending) sort as ordinary keys.
TEMPLATE_TEST_CASE("tiny policy: partial tiles padded at load, at every residue that matters", "[sort][tiny][pad]",
                   std::uint32_t, float, std::uint64_t, std::uint8_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  using bits = typename ringsweep::key_traits<TestType>::bits_type;
  const std::size_t t = std::size_t(tile), portion = 8 * t;
  const int width = int(8 * sizeof(TestType));
  for (std::size_t n : {std::size_t(1), t - 1, t + 1, portion - 1, portion + 1, 2 * portion + t - 1}) {
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n);
      // a third of the keys carry the pad's bits of either direction
      for (std::size_t i = 0; i < n; i += 3) {
        const bits b = (i / 3) % 2 == 0 ? bits(~bits(0)) : bits(0);
        std::memcpy(static_cast<void*>(&keys[i]), &b, sizeof(b));
      }
      ringsweep_test::check_sort_keys<tiny>(keys, with_order(o));
      ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(keys, with_order(o));
      for (int end : {3, width - 5, width - 1}) {  // last passes of 3, 3 or 5, and 7 bits
        if (end < 1) continue;
        ringsweep::sort_options opts = with_order(o);
        opts.end_bit = end;
        ringsweep_test::check_sort_pairs<tiny, TestType, std::uint32_t>(keys, opts);
      }
    }
  }
}

namespace {
/// The tiny shape with a 64-slot status ring, so that a small sort's tickets reach only some slots.
struct policy_tiny_slots64 : ringsweep_test::policy_tiny {
  static constexpr int STATUS_SLOTS = 64;
};
/// Holds every fifth ticket (the first tile of each launch of a 5-tile sort) before it publishes,
/// so that the next tile reads that slot first: a stale word there is taken, not overwritten.
struct hold_launch_heads : ringsweep::detail::no_hooks {
  __device__ static void pause(std::uint32_t tile, std::uint32_t site) {
    if (site != 1 || tile % 5 != 0) return;
    std::uint32_t p = ringsweep::detail::backoff_spin_polls;
    for (int i = 0; i < 40; ++i) ringsweep::detail::backoff(p);
  }
};
}  // namespace

// Issue #35: a sort zeroes only the status slots its tickets reach. A first sort in the same temporary
// storage leaves, in slots 0..47, published words of tickets 0..47, which the second sort's tiles
// of the same tickets would take for their own if any of its slots (0..19) were not zeroed.
TEST_CASE("tiny policy: a sort after a larger one in the same temporary storage zeroes every slot it uses",
          "[sort][tiny][pad]") {
  using p64 = ringsweep::detail::with_hooks<policy_tiny_slots64, hold_launch_heads>;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t t = std::size_t(tile), big = 12 * t;  // 4 passes x 12 tiles = 48 tickets
  for (std::size_t small : {5 * t, 3 * t + 7, t + 1}) {
    const auto big_keys = ringsweep_test::make_keys<std::uint32_t>(big, distribution::uniform, seed);
    const auto small_keys = ringsweep_test::make_keys<std::uint32_t>(small, distribution::uniform, seed + small);
    ringsweep_test::device_buffer<std::uint32_t> bin(big_keys), bout(big), sin(small_keys), sout(small);
    std::size_t bytes = 0, small_bytes = 0;
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<p64>(nullptr, bytes, bin.data(), bout.data(), big));
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<p64>(nullptr, small_bytes, sin.data(), sout.data(), small));
    REQUIRE(small_bytes <= bytes);
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<p64>(temp.data(), bytes, bin.data(), bout.data(), big));
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<p64>(temp.data(), small_bytes, sin.data(), sout.data(), small));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    auto expect = small_keys;
    std::stable_sort(expect.begin(), expect.end());
    REQUIRE(sout.download() == expect);
    auto expect_big = big_keys;
    std::stable_sort(expect_big.begin(), expect_big.end());
    REQUIRE(bout.download() == expect_big);
  }
}
