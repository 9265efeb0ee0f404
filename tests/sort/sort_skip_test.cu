// Pass skipping: a pass in which every key has the same digit is skipped on the device, and the
// executed passes are routed so that every form's result is where the API says. Keys whose digits
// are constant in chosen passes reach every combination (skipped first, middle, last pass, all
// passes, odd and even counts of executed passes) with several portions per pass, both orders and
// bit windows; the route words the bins scan leaves in the temporary storage are checked against
// the uniform passes found on the host, and every launch checks that its tail words start clear.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <random>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using ringsweep::detail::pass_route;
// policy_tiny whose launches check that their tail words start clear: a skipped launch that did not
// clear its successor's words fails at that launch's first ticket, by name, within seconds (instead
// of a look-back that waits forever until the backend's watchdog).
using tiny = ringsweep_test::policy_tiny_tail_checked;
using tiny_r5 = ringsweep_test::policy_tiny_radix5;

/// Random keys whose digit `p` (of `radix_bits` bits, from bit 0 of the raw bits) varies only when
/// bit `p` of `varying` is set; the other digits hold a random constant.
template <class Key>
std::vector<Key> masked_keys(std::size_t n, std::uint64_t varying, int radix_bits, std::uint64_t seed) {
  using T = ringsweep::key_traits<Key>;
  using bits = typename T::bits_type;
  bits vary_mask = 0;
  for (int p = 0; p * radix_bits < T::bits; ++p) {
    if ((varying >> p) & 1u) {
      for (int b = p * radix_bits; b < (p + 1) * radix_bits && b < T::bits; ++b) vary_mask = bits(vary_mask | (bits(1) << b));
    }
  }
  std::mt19937_64 rng(seed);
  const bits constant = bits(rng());
  std::vector<Key> keys(n);
  for (auto& k : keys) k = T::from_bits(bits((bits(rng()) & vary_mask) | (constant & bits(~vary_mask))));
  return keys;
}

/// Per pass of `opts` with `radix_bits`-bit digits: whether every key has the same digit.
template <class Key>
std::vector<bool> uniform_passes(const std::vector<Key>& keys, const ringsweep::sort_options& opts, int radix_bits) {
  const int end = opts.end_bit < 0 ? ringsweep::key_traits<Key>::bits : opts.end_bit;
  const int passes = (end - opts.begin_bit + radix_bits - 1) / radix_bits;
  std::vector<bool> uniform(std::size_t(passes), true);
  for (int p = 0; p < passes; ++p) {
    const std::uint64_t mask = (std::uint64_t(1) << radix_bits) - 1;
    const std::uint64_t first = (ringsweep_test::sort_key(keys[0], opts) >> (p * radix_bits)) & mask;
    for (const Key& k : keys) {
      if (((ringsweep_test::sort_key(k, opts) >> (p * radix_bits)) & mask) != first) {
        uniform[std::size_t(p)] = false;
        break;
      }
    }
  }
  return uniform;
}

/// In/out keys-only sort (checked as check_sort_keys does) whose route words are then read from the
/// temporary storage: the skipped passes must be the uniform ones, the last executed pass must
/// write the output and the final copy must run exactly when no pass does.
template <class Policy, class Key>
void check_routes(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  using dispatch = ringsweep::detail::sort_dispatch<ringsweep::detail::sort_config<Policy, Key, ringsweep::detail::null_value>>;
  const std::size_t n = keys.size();
  typename dispatch::plan plan;
  REQUIRE_CUDA(dispatch::make_plan(n, opts, true, plan));
  REQUIRE(plan.path == ringsweep::detail::sort_path::onesweep);
  ringsweep_test::check_sort_keys<Policy>(keys, opts);  // correctness, with its own temporary storage

  ringsweep_test::device_buffer<Key> in(keys), out(n);
  std::size_t bytes = plan.layout.bytes;
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, in.data(), out.data(), n, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::size_t words = std::size_t(ringsweep::detail::route_words(plan.window.passes));
  std::vector<std::uint32_t> routes(words);
  const std::size_t base = ringsweep::detail::align_up(reinterpret_cast<std::uintptr_t>(temp.data())) -
                           reinterpret_cast<std::uintptr_t>(temp.data());
  const std::size_t at = base + plan.layout.counters + sizeof(std::uint32_t) * std::size_t(32 + dispatch::tail_words);
  REQUIRE_CUDA(cudaMemcpy(routes.data(), temp.data() + at, words * sizeof(std::uint32_t),
                          cudaMemcpyDeviceToHost));
  const auto uniform = uniform_passes(keys, opts, Policy::RADIX_BITS);
  int executed = 0;
  std::uint32_t at_buffer = ringsweep::detail::buffer_in;
  for (int p = 0; p < plan.window.passes; ++p) {
    const std::uint32_t r = routes[1 + std::size_t(p)];
    INFO("pass " << p << " route " << r);
    CHECK(pass_route::runs(r) == !uniform[std::size_t(p)]);
    if (pass_route::runs(r)) {
      CHECK(pass_route::src(r) == at_buffer);
      CHECK(pass_route::dst(r) != ringsweep::detail::buffer_in);
      CHECK(pass_route::dst(r) != pass_route::src(r));
      at_buffer = pass_route::dst(r);
      ++executed;
    }
  }
  CHECK(at_buffer == (executed == 0 ? ringsweep::detail::buffer_in : ringsweep::detail::buffer_final));
  CHECK(pass_route::runs(routes[0]) == (executed == 0));
}

/// Every form, keys only and pairs, for one key set and options.
template <class Policy, class Key>
void check_every_form(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  ringsweep_test::check_sort_pairs<Policy, Key, std::uint32_t>(keys, opts);
  ringsweep_test::check_sort_double_buffer<Policy, Key, std::uint32_t, true>(keys, opts);
  ringsweep_test::check_sort_double_buffer<Policy, Key, std::uint32_t, false>(keys, opts);
  ringsweep_test::check_sort_in_place<Policy, Key, std::uint64_t, true>(keys, opts);
  ringsweep_test::check_sort_in_place<Policy, Key, std::uint64_t, false>(keys, opts);
}

ringsweep::sort_options options(ringsweep::sort_order o, int begin = 0, int end = -1) {
  ringsweep::sort_options opts;
  opts.order = o;
  opts.begin_bit = begin;
  opts.end_bit = end;
  return opts;
}

const ringsweep::sort_order both_orders[] = {ringsweep::sort_order::ascending, ringsweep::sort_order::descending};

}  // namespace

TEST_CASE("pass skipping: every subset of uniform passes of u32 keys, every form", "[sort][skip]") {
  // 977 keys: 6 tiles in one portion; 3845: 21 tiles, three portions per pass.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::uint64_t varying = 0; varying < 16; ++varying) {
    for (auto o : both_orders) {
      for (std::size_t n : {std::size_t(977), std::size_t(3845)}) {
        INFO("varying digits " << varying);
        const auto keys = masked_keys<std::uint32_t>(n, varying, 8, seed + varying * 31 + n);
        check_routes<tiny>(keys, options(o));
        check_every_form<tiny>(keys, options(o));
      }
    }
  }
}

TEST_CASE("pass skipping: u64 keys, 8 passes", "[sort][skip]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::uint64_t varying : {0x00ull, 0x0Full, 0xF0ull, 0x81ull, 0x7Eull, 0x55ull, 0xAAull, 0x01ull, 0x80ull,
                                0xFEull}) {
    INFO("varying digits " << varying);
    for (auto o : both_orders) {
      const auto keys = masked_keys<std::uint64_t>(3845, varying, 8, seed + varying);
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
    }
  }
}

TEST_CASE("pass skipping: 5-bit digits, 7 passes of u32 keys", "[sort][skip]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::uint64_t varying : {0x00ull, 0x7Full, 0x01ull, 0x40ull, 0x3Full, 0x2Aull, 0x55ull, 0x0Cull}) {
    INFO("varying digits " << varying);
    for (auto o : both_orders) {
      const auto keys = masked_keys<std::uint32_t>(2100, varying, 5, seed + varying);
      check_routes<tiny_r5>(keys, options(o));
      check_every_form<tiny_r5>(keys, options(o));
    }
  }
}

TEST_CASE("pass skipping: bit windows that cut the uniform digits", "[sort][skip]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  struct window {
    int begin, end;
  };
  // Keys whose bits 16..31 are one constant: [4, 28) skips its last digit [20, 28) and runs
  // [4, 12) and [12, 20), which straddles the constant bits; [16, 32) and [20, 24) skip every
  // digit; [3, 13) runs [3, 11) and its narrow last digit [11, 13); [0, 17) skips [16, 17).
  for (window w : {window{4, 28}, window{12, 20}, window{16, 32}, window{20, 24}, window{3, 13}, window{0, 17}}) {
    INFO("bits [" << w.begin << ", " << w.end << ")");
    for (auto o : both_orders) {
      const auto keys = masked_keys<std::uint32_t>(3845, 0x3, 8, seed + std::uint64_t(w.begin));
      check_routes<tiny>(keys, options(o, w.begin, w.end));
      check_every_form<tiny>(keys, options(o, w.begin, w.end));
    }
  }
}

TEST_CASE("pass skipping: narrow key ranges in every form", "[sort][skip]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3845;
  for (auto o : both_orders) {
    for (int bits : {8, 16, 24}) {
      INFO("u32 below 2^" << bits);
      const auto keys = ringsweep_test::random_ints<std::uint32_t>(n, seed + bits, 0u, (1u << bits) - 1u);
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
    }
    {
      INFO("u64 below 2^32");
      const auto keys = ringsweep_test::random_ints<std::uint64_t>(n, seed + 32, 0, 0xFFFFFFFFull);
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
    }
    {
      INFO("i32 in [0, 1000]");
      const auto keys = ringsweep_test::random_ints<std::int32_t>(n, seed + 1000, 0, 1000);
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
    }
    {
      INFO("constant middle byte");
      auto keys = ringsweep_test::random_keys<std::uint32_t>(n, seed + 5, 1);
      for (auto& k : keys) k = (k & 0xFF00FFFFu) | 0x005A0000u;
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
    }
    {
      INFO("constant keys");
      const std::vector<std::uint32_t> keys(n, 0xC0FFEE11u);
      check_routes<tiny>(keys, options(o));
      check_every_form<tiny>(keys, options(o));
      const std::vector<std::int64_t> keys64(n, -12345);
      check_routes<tiny>(keys64, options(o));
      check_every_form<tiny>(keys64, options(o));
    }
  }
}

TEST_CASE("pass skipping with the shipped policy (public API)", "[sort][skip]") {
  // Three tiles of the device policy: onesweep with 4-byte keys below 2^16 (two passes skipped)
  // and constant keys (every pass skipped), in/out and in place.
  const std::size_t n = 3 * std::size_t(ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE) + 77;
  for (std::uint32_t range : {1u << 16, 1u}) {
    INFO("keys below " << range);
    const auto keys = ringsweep_test::random_ints<std::uint32_t>(n, 77 + range, 0u, range - 1u);
    std::vector<std::uint32_t> want = keys;
    std::stable_sort(want.begin(), want.end());
    ringsweep_test::device_buffer<std::uint32_t> in(keys), out(n), inplace(keys);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, n));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::sort_keys(temp.data(), bytes, in.data(), out.data(), n));
    REQUIRE_CUDA(ringsweep::sort_keys(inplace.data(), n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(out.download() == want);
    CHECK(inplace.download() == want);
  }
}
