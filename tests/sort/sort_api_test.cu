// The public API: size queries, argument checking (error code, nothing written), n = 0, empty bit
// windows, in-place forms, streams, and sorts with the device's own policy, one of them large.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

// A decomposer's tuple: libcu++'s where it is available (nvcc), std's on the SIMT backend.
#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define RINGSWEEP_TEST_TUPLE cuda::std::tuple
#endif
#endif
#ifndef RINGSWEEP_TEST_TUPLE
#define RINGSWEEP_TEST_TUPLE std::tuple
#endif

namespace {

using u32 = std::uint32_t;
using tiny = ringsweep_test::policy_tiny;
using ringsweep_test::distribution;

constexpr unsigned char poison = 0xAB;

bool all_poison(const ringsweep_test::device_bytes& b) {
  for (unsigned char c : b.download()) {
    if (c != poison) return false;
  }
  return true;
}

template <class T>
bool all_poison(const ringsweep_test::device_buffer<T>& b) {
  const auto host = b.download();
  const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
  for (std::size_t i = 0; i < host.size() * sizeof(T); ++i) {
    if (bytes[i] != poison) return false;
  }
  return true;
}

ringsweep::sort_options bits(int begin, int end) {
  ringsweep::sort_options o;
  o.begin_bit = begin;
  o.end_bit = end;
  return o;
}

/// Tile of the policy the public API picks on this device, for 4-byte keys and values.
std::size_t device_tile() {
  std::size_t tile = 0;
  REQUIRE_CUDA(ringsweep::detail::with_device_policy([&](auto policy) {
    tile = ringsweep::detail::tile_shape<decltype(policy), 4, 4>::TILE;
    return cudaSuccess;
  }));
  return tile;
}

/// Pair sort of `keys` whose four arrays start `shift` elements into their allocations (so they
/// are not aligned beyond their element size), through the public API (`Policy` void) or a policy.
template <class Policy, class Key>
void check_shifted_pairs(const std::vector<Key>& keys, std::size_t shift, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  INFO("n " << n << ", pointers " << shift << " elements past an allocation");
  std::vector<Key> kpad(n + shift);
  std::vector<u32> vpad(n + shift);
  for (std::size_t i = 0; i < n; ++i) {
    kpad[shift + i] = keys[i];
    vpad[shift + i] = u32(i);
  }
  ringsweep_test::device_buffer<Key> kin(kpad), kout(n + shift);
  ringsweep_test::device_buffer<u32> vin(vpad), vout(n + shift);
  kout.fill_bytes(0xa5);  // the `shift` elements before the outputs must keep this
  vout.fill_bytes(0xa5);
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    if constexpr (std::is_void<Policy>::value) {
      return ringsweep::sort_pairs(temp, bytes, kin.data() + shift, kout.data() + shift, vin.data() + shift,
                                   vout.data() + shift, n, opts);
    } else {
      return ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kin.data() + shift, kout.data() + shift,
                                                   vin.data() + shift, vout.data() + shift, n, opts);
    }
  };
  REQUIRE_CUDA(sort(nullptr));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(sort(temp.data()));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto order = ringsweep_test::reference_order(keys, opts);
  const auto got_keys = kout.download();
  const auto got_values = vout.download();
  const std::vector<Key> sorted(got_keys.begin() + std::ptrdiff_t(shift), got_keys.end());
  REQUIRE(ringsweep_test::first_key_mismatch(sorted, keys, order) == -1);
  for (std::size_t i = 0; i < shift; ++i) {
    INFO("element " << i << " before the outputs");
    const unsigned char* kb = reinterpret_cast<const unsigned char*>(&got_keys[i]);
    const unsigned char* vb = reinterpret_cast<const unsigned char*>(&got_values[i]);
    for (std::size_t b = 0; b < sizeof(Key); ++b) REQUIRE(kb[b] == 0xa5);
    for (std::size_t b = 0; b < sizeof(u32); ++b) REQUIRE(vb[b] == 0xa5);
  }
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i) {
    if (got_values[shift + i] != u32(order[i])) bad = i;
  }
  INFO("first value mismatch at " << bad);
  REQUIRE(bad == n);
}

}  // namespace

TEST_CASE("size queries write only temp_bytes and need no valid pointers", "[sort][api]") {
  auto* bogus = reinterpret_cast<u32*>(std::uintptr_t(0x10));
  std::size_t bytes = 12345;
  REQUIRE_CUDA(ringsweep::sort_keys<u32>(nullptr, bytes, bogus, bogus, 1u << 20));
  REQUIRE(bytes >= (std::size_t(1) << 20) * sizeof(u32));  // in/out: scratch keys included
  // Double-buffer forms stay within 4 MiB for any n, up to 2^32 + a tile.
  for (std::size_t n : {std::size_t(1000), std::size_t(1) << 20, (std::size_t(1) << 32) + 10000}) {
    ringsweep::double_buffer<u32> kb(bogus, bogus);
    ringsweep::double_buffer<double> vb(nullptr, nullptr);
    REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, kb, n));
    CHECK(bytes <= std::size_t(4) << 20);
    REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, kb, vb, n));
    CHECK(bytes <= std::size_t(4) << 20);
    ringsweep::double_buffer<std::uint64_t> kb64(nullptr, nullptr);
    REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, kb64, n));
    CHECK(bytes <= std::size_t(4) << 20);
  }
  // A query with a bad bit window fails and leaves temp_bytes alone.
  bytes = 777;
  REQUIRE(ringsweep::sort_keys<u32>(nullptr, bytes, bogus, bogus, 100, bits(0, 33)) == cudaErrorInvalidValue);
  REQUIRE(bytes == 777);
}

TEST_CASE("bad arguments return cudaErrorInvalidValue and write nothing", "[sort][api]") {
  const std::size_t n = 1000;
  const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<u32> kin(keys), kout(n), vin(n), vout(n), big(2 * n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(
      ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  ringsweep_test::device_bytes temp(bytes);
  const ringsweep::sort_options ok;

  auto reset = [&] {
    kout.fill_bytes(poison);
    vout.fill_bytes(poison);
    temp.fill_bytes(poison);
    big.fill_bytes(poison);
  };
  auto nothing_written = [&] {
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(all_poison(kout));
    CHECK(all_poison(vout));
    CHECK(all_poison(temp));
    CHECK(ringsweep_test::same_keys(kin.download(), keys));
  };
  auto pairs = [&](const u32* ki, u32* ko, const u32* vi, u32* vo, std::size_t b, ringsweep::sort_options o) {
    return ringsweep::tuning::sort_pairs<tiny>(temp.data(), b, ki, ko, vi, vo, n, o);
  };

  SECTION("null pointers") {
    reset();
    CHECK(pairs(nullptr, kout.data(), vin.data(), vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), nullptr, vin.data(), vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), kout.data(), nullptr, vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), kout.data(), vin.data(), nullptr, bytes, ok) == cudaErrorInvalidValue);
    std::size_t b = bytes;
    CHECK(ringsweep::tuning::sort_keys<tiny, u32>(temp.data(), b, nullptr, kout.data(), n) == cudaErrorInvalidValue);
    CHECK(ringsweep::tuning::sort_keys<tiny, u32>(nullptr, n) == cudaErrorInvalidValue);
    nothing_written();
  }
  SECTION("temporary storage too small") {
    reset();
    CHECK(pairs(kin.data(), kout.data(), vin.data(), vout.data(), bytes - 1, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), kout.data(), vin.data(), vout.data(), 0, ok) == cudaErrorInvalidValue);
    nothing_written();
  }
  SECTION("bit windows") {
    reset();
    for (auto o : {bits(-1, 32), bits(0, 33), bits(20, 10), bits(33, 33), bits(0, -2), bits(40, -1)}) {
      INFO("bits [" << o.begin_bit << ", " << o.end_bit << ")");
      CHECK(pairs(kin.data(), kout.data(), vin.data(), vout.data(), bytes, o) == cudaErrorInvalidValue);
      std::size_t b = bytes;
      CHECK(ringsweep::tuning::sort_keys<tiny, u32>(kout.data(), n, o) == cudaErrorInvalidValue);
      ringsweep::double_buffer<u32> db(kout.data(), vout.data());
      CHECK(ringsweep::tuning::sort_keys<tiny>(temp.data(), b, db, n, o) == cudaErrorInvalidValue);
      CHECK(db.selector == 0);
    }
    std::size_t b = bytes;
    CHECK(ringsweep::tuning::sort_keys<tiny, std::uint8_t>(temp.data(), b, reinterpret_cast<std::uint8_t*>(kin.data()),
                                                           reinterpret_cast<std::uint8_t*>(kout.data()), n,
                                                           bits(0, 9)) == cudaErrorInvalidValue);
    nothing_written();
  }
  SECTION("overlapping input and output") {
    reset();
    CHECK(pairs(kin.data(), kin.data(), vin.data(), vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(big.data(), big.data() + n / 2, vin.data(), vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(big.data() + n - 1, big.data(), vin.data(), vout.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), kout.data(), vin.data(), vin.data(), bytes, ok) == cudaErrorInvalidValue);
    CHECK(pairs(kin.data(), kout.data(), big.data() + 1, big.data(), bytes, ok) == cudaErrorInvalidValue);
    ringsweep::double_buffer<u32> db(big.data(), big.data() + n - 1);
    std::size_t b = bytes;
    CHECK(ringsweep::tuning::sort_keys<tiny>(temp.data(), b, db, n) == cudaErrorInvalidValue);
    ringsweep::double_buffer<u32> db_null(kout.data(), nullptr);
    CHECK(ringsweep::tuning::sort_keys<tiny>(temp.data(), b, db_null, n) == cudaErrorInvalidValue);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(all_poison(big));
    nothing_written();
  }
  SECTION("adjacent ranges do not overlap") {
    // big[0, n) -> big[n, 2n): fine.
    REQUIRE_CUDA(cudaMemcpy(big.data(), kin.data(), n * sizeof(u32), cudaMemcpyDeviceToDevice));
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny>(temp.data(), bytes, big.data(), big.data() + n, n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    auto all = big.download();
    std::vector<u32> got(all.begin() + n, all.end());
    const auto order = ringsweep_test::reference_order(keys, ok);
    REQUIRE(ringsweep_test::first_key_mismatch(got, keys, order) == -1);
  }
}

TEST_CASE("n = 0 succeeds without touching anything; empty windows copy", "[sort][api]") {
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny, u32>(nullptr, bytes, nullptr, nullptr, 0));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny, u32>(temp.data(), bytes, nullptr, nullptr, 0));
  REQUIRE_CUDA(ringsweep::sort_keys<u32>(nullptr, 0));
  REQUIRE_CUDA(ringsweep::sort_pairs<float, double>(nullptr, nullptr, 0));
  ringsweep::double_buffer<u32> db(nullptr, nullptr);
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny>(temp.data(), bytes, db, 0));
  REQUIRE(db.selector == 0);

  // begin_bit == end_bit: the in/out forms copy, keys and values.
  for (std::size_t n : {std::size_t(5), std::size_t(1000)}) {
    const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, 5);
    ringsweep::sort_options none;
    none.begin_bit = none.end_bit = 13;
    ringsweep_test::check_sort_pairs<tiny, u32, u32>(keys, none);
    ringsweep_test::check_sort_keys<tiny>(keys, none);
  }
}

TEST_CASE("in-place forms, tiny policy and the device's policy, on a stream", "[sort][api]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreate(&stream));
  for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(977), std::size_t(3845), std::size_t(20000)}) {
    INFO("n " << n);
    for (int variant = 0; variant < 4; ++variant) {
      INFO("variant " << variant);
      ringsweep::sort_options opts;
      if (variant & 1) opts.order = ringsweep::sort_order::descending;
      if (variant & 2) opts.end_bit = 24;  // three passes: the result ends in scratch and is copied back
      const auto keys = ringsweep_test::make_keys<float>(n, distribution::uniform, seed + n);
      std::vector<std::uint64_t> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = i * 3 + 1;
      ringsweep_test::device_buffer<float> dk(keys), dk2(keys);
      ringsweep_test::device_buffer<std::uint64_t> dv(values);
      if (n <= 3845) {
        REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(dk.data(), dv.data(), n, opts, stream));
      } else {
        REQUIRE_CUDA(ringsweep::sort_pairs(dk.data(), dv.data(), n, opts, stream));
      }
      REQUIRE_CUDA(ringsweep::sort_keys(dk2.data(), n, opts, stream));
      REQUIRE_CUDA(cudaStreamSynchronize(stream));
      const auto order = ringsweep_test::reference_order(keys, opts);
      REQUIRE(ringsweep_test::first_key_mismatch(dk.download(), keys, order) == -1);
      REQUIRE(ringsweep_test::first_key_mismatch(dk2.download(), keys, order) == -1);
      const auto got = dv.download();
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == values[order[i]]);
    }
  }
  REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("the device's policy: two-phase forms over tile edges", "[sort][api]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t tile = device_tile();
  for (std::size_t n : {std::size_t(7), tile, tile + 1, std::size_t(50000)}) {
    INFO("n " << n);
    const auto keys = ringsweep_test::make_keys<std::int32_t>(n, distribution::few_distinct, seed + n);
    for (auto o : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
      ringsweep::sort_options opts;
      opts.order = o;
      std::vector<u32> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
      ringsweep_test::device_buffer<std::int32_t> kin(keys), kout(n);
      ringsweep_test::device_buffer<u32> vin(values), vout(n);
      std::size_t bytes = 0;
      REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opts));
      ringsweep_test::device_bytes temp(bytes);
      REQUIRE_CUDA(
          ringsweep::sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opts));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto order = ringsweep_test::reference_order(keys, opts);
      REQUIRE(ringsweep_test::first_key_mismatch(kout.download(), keys, order) == -1);
      const auto got = vout.download();
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == u32(order[i]));
    }
  }
}

TEMPLATE_TEST_CASE("pointers aligned only to their element size", "[sort][api]", std::uint8_t, std::uint16_t,
                   std::uint32_t, std::uint64_t) {
  // The upfront histogram reads whole vectors after a scalar head: shifts that leave the key
  // pointer at different offsets within a vector, the single-block path, and sizes past several
  // histogram tiles with a ragged end (tiny policy: 2-key vectors; the device's: 16 bytes).
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t per_vector = 16 / sizeof(TestType);
  for (std::size_t shift = 0; shift < per_vector; shift += (per_vector > 4 ? 3 : 1)) {
    for (std::size_t n : {std::size_t(3), std::size_t(tiny::HIST_THREADS * tiny::HIST_ITEMS * 7 + 5)}) {
      const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + n + shift);
      check_shifted_pairs<tiny>(keys, shift, {});
    }
    // Vector loads where a segment is aligned, striped loads where not (keys and values can
    // differ: 1- and 2-byte keys shifted, their 4-byte values too, by different byte counts).
    const auto vkeys = ringsweep_test::make_keys<TestType>(9 * 384 + 100, distribution::uniform, seed + shift);
    check_shifted_pairs<ringsweep_test::policy_tiny_vector>(vkeys, shift, {});
    const std::size_t n = 2 * device_tile() + 333;
    const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::uniform, seed + shift);
    check_shifted_pairs<void>(keys, shift, {});
    ringsweep::sort_options desc;
    desc.order = ringsweep::sort_order::descending;
    desc.begin_bit = 1;
    check_shifted_pairs<void>(keys, shift, desc);
  }
}

namespace policy_list_test {
// Three placeholder policies for an architecture list of three entries (external linkage: nvcc
// warns about unread members of types in unnamed namespaces).
struct old_policy : ringsweep::policy_defaults {};
struct mid_policy : ringsweep::policy_defaults {};
struct new_policy : ringsweep::policy_defaults {};
using three = ringsweep::arch_policies<ringsweep::arch_policy<0, old_policy>, ringsweep::arch_policy<700, mid_policy>,
                                       ringsweep::arch_policy<900, new_policy>>;

/// Index (0, 1, 2) of the policy `with_arch_policy` picks from `three` for `arch`.
int pick(int arch) {
  return ringsweep::detail::with_arch_policy(arch, [](auto p) {
    using P = decltype(p);
    return std::is_same<P, old_policy>::value ? 0 : std::is_same<P, mid_policy>::value ? 1 : 2;
  }, three{});
}
}  // namespace policy_list_test

TEST_CASE("architecture policy lists: each boundary once, ranges follow from the order", "[sort][api][policy]") {
  using namespace policy_list_test;
  using ringsweep::detail::arch_range;
  STATIC_REQUIRE(arch_range<old_policy, three>::found);
  STATIC_REQUIRE(arch_range<old_policy, three>::min == 0);
  STATIC_REQUIRE(arch_range<old_policy, three>::max == 700);
  STATIC_REQUIRE(arch_range<mid_policy, three>::min == 700);
  STATIC_REQUIRE(arch_range<mid_policy, three>::max == 900);
  STATIC_REQUIRE(arch_range<new_policy, three>::min == 900);
  STATIC_REQUIRE(arch_range<new_policy, three>::max > 100000);
  STATIC_REQUIRE(!arch_range<tiny, three>::found);
  CHECK(pick(0) == 0);
  CHECK(pick(699) == 0);
  CHECK(pick(700) == 1);
  CHECK(pick(890) == 1);
  CHECK(pick(900) == 2);
  CHECK(pick(1200) == 2);
  // The same choice as a type (what the SIMT backend's dispatch uses: it runs one PTX version).
  using ringsweep::detail::arch_policy_of;
  STATIC_REQUIRE(std::is_same<arch_policy_of<0, three>::type, old_policy>::value);
  STATIC_REQUIRE(std::is_same<arch_policy_of<699, three>::type, old_policy>::value);
  STATIC_REQUIRE(std::is_same<arch_policy_of<700, three>::type, mid_policy>::value);
  STATIC_REQUIRE(std::is_same<arch_policy_of<890, three>::type, mid_policy>::value);
  STATIC_REQUIRE(std::is_same<arch_policy_of<900, three>::type, new_policy>::value);
  STATIC_REQUIRE(std::is_same<arch_policy_of<1200, three>::type, new_policy>::value);

  // The shipped list: policy_sm80 below 9.0, policy_sm90 from it; test policies serve everything.
  STATIC_REQUIRE(ringsweep::detail::policy_serves_arch<ringsweep::policy_sm80>(750));
  STATIC_REQUIRE(ringsweep::detail::policy_serves_arch<ringsweep::policy_sm80>(890));
  STATIC_REQUIRE(!ringsweep::detail::policy_serves_arch<ringsweep::policy_sm80>(900));
  STATIC_REQUIRE(!ringsweep::detail::policy_serves_arch<ringsweep::policy_sm90>(890));
  STATIC_REQUIRE(ringsweep::detail::policy_serves_arch<ringsweep::policy_sm90>(1000));
  STATIC_REQUIRE(ringsweep::detail::policy_serves_arch<tiny>(750));
  STATIC_REQUIRE(ringsweep::detail::policy_serves_arch<tiny>(900));
}

TEST_CASE("shipped shapes: items per thread shrink to fit the exchange", "[sort][api][policy]") {
  using ringsweep::detail::tile_shape;
  using ringsweep::policy_sm80;
  using ringsweep::policy_sm90;
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 0>::TILE == 384 * 24);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 4, true>::TILE == 384 * 24);
  STATIC_REQUIRE(tile_shape<policy_sm90, 8, 0>::ITEMS == 15);
  STATIC_REQUIRE(tile_shape<policy_sm90, 8, 16>::ITEMS == 7);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 16>::ITEMS == 6);
  STATIC_REQUIRE(tile_shape<policy_sm90, 1, 1>::ITEMS == 22);
  STATIC_REQUIRE(tile_shape<policy_sm90, 1, 1>::VECTOR_LOAD_ITEM_BYTES == 2);
  STATIC_REQUIRE(tile_shape<policy_sm90, 8, 1>::VECTOR_LOAD_ITEM_BYTES == 0);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 0>::MIN_BLOCKS == 2);
  // Per-shape look-back window and bin prefetch: keys-only sorts walk 4 words at once.
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 0>::LOOKBACK_WINDOW == 4);
  STATIC_REQUIRE(tile_shape<policy_sm90, 8, 0>::LOOKBACK_WINDOW == 4);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 4>::LOOKBACK_WINDOW == 1);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 4>::PREFETCH_BINS == 1);
  STATIC_REQUIRE(tile_shape<policy_sm90, 4, 0>::PREFETCH_BINS == 0);
  STATIC_REQUIRE(tile_shape<policy_sm90, 1, 0>::LOOKBACK_WINDOW == 4);
  STATIC_REQUIRE(tile_shape<policy_sm90, 2, 0>::PREFETCH_BINS == 1);
  STATIC_REQUIRE(tile_shape<policy_sm90, 2, 4>::LOOKBACK_WINDOW == 1);
  STATIC_REQUIRE(tile_shape<policy_sm80, 4, 0>::LOOKBACK_WINDOW == 1);
  STATIC_REQUIRE(tile_shape<policy_sm80, 4, 0>::ITEMS == 20);
  STATIC_REQUIRE(tile_shape<policy_sm80, 4, 4>::ITEMS == 18);
  STATIC_REQUIRE(tile_shape<policy_sm80, 8, 8>::ITEMS == 10);
  STATIC_REQUIRE(!tile_shape<policy_sm80, 4, 4>::RECOMPUTE_DIGITS);
  // The device's policy on this backend or GPU answers the size query through the same table.
  std::size_t tile = 0;
  REQUIRE_CUDA(ringsweep::detail::with_device_policy([&](auto policy) {
    tile = std::size_t(tile_shape<decltype(policy), 4, 0>::TILE);
    return cudaSuccess;
  }));
  CHECK((tile == 384 * 24 || tile == 384 * 20));
}

namespace temp_size_test {

std::size_t a256(std::size_t x) { return (x + 255) / 256 * 256; }

/// Temporary storage docs/temp_storage.md promises for an input larger than one tile (sort.cuh's
/// formula), written out here independently of the dispatcher: RADIX = 2^RADIX_BITS digits per pass.
template <class Policy>
std::size_t promised_bytes(std::size_t n, std::size_t key_bytes, std::size_t value_bytes, int passes, bool in_out) {
  const std::size_t radix = std::size_t(1) << Policy::RADIX_BITS;
  const std::size_t p = std::size_t(passes);
  std::size_t bytes = 256 + a256(std::size_t(Policy::STATUS_SLOTS) * radix * 8) + a256(p * radix * 8) +
                      a256(2 * p * radix * 8) + 256;
  if (in_out && passes >= 2) bytes += a256(n * key_bytes) + (value_bytes != 0 ? a256(n * value_bytes) : 0);
  return bytes;
}

/// Size queries of every form at n = TILE (one block: 256 bytes) and TILE + 1 (onesweep: the
/// formula), for keys only and pairs of `Policy` (void: the public API, the device's policy).
template <class Policy, class Key, class Value>
void check_tile_edge() {
  using traits = ringsweep::key_traits<Key>;
  constexpr int kb = int(sizeof(Key));
  std::size_t keys_tile = 0, pairs_tile = 0;
  int radix_bits = 8;
  const auto tiles = [&](auto policy) {
    using P = decltype(policy);
    keys_tile = ringsweep::detail::tile_shape<P, kb, 0, !traits::image_is_xor>::TILE;
    pairs_tile = ringsweep::detail::tile_shape<P, kb, int(sizeof(Value)), !traits::image_is_xor>::TILE;
    radix_bits = P::RADIX_BITS;
    return cudaSuccess;
  };
  if constexpr (std::is_void<Policy>::value) {
    REQUIRE_CUDA(ringsweep::detail::with_device_policy(tiles));
  } else {
    tiles(Policy{});
  }
  const int passes = (kb * 8 + radix_bits - 1) / radix_bits;
  const auto keys_query = [&](std::size_t n, bool in_out) {
    std::size_t bytes = 0;
    ringsweep::double_buffer<Key> db(nullptr, nullptr);
    if constexpr (std::is_void<Policy>::value) {
      REQUIRE_CUDA(in_out ? ringsweep::sort_keys<Key>(nullptr, bytes, nullptr, nullptr, n)
                          : ringsweep::sort_keys(nullptr, bytes, db, n));
    } else {
      REQUIRE_CUDA(in_out ? ringsweep::tuning::sort_keys<Policy, Key>(nullptr, bytes, nullptr, nullptr, n)
                          : ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, db, n));
    }
    return bytes;
  };
  const auto pairs_query = [&](std::size_t n, bool in_out) {
    std::size_t bytes = 0;
    ringsweep::double_buffer<Key> db(nullptr, nullptr);
    ringsweep::double_buffer<Value> vb(nullptr, nullptr);
    if constexpr (std::is_void<Policy>::value) {
      REQUIRE_CUDA(in_out ? ringsweep::sort_pairs<Key, Value>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n)
                          : ringsweep::sort_pairs(nullptr, bytes, db, vb, n));
    } else {
      REQUIRE_CUDA(in_out ? ringsweep::tuning::sort_pairs<Policy, Key, Value>(nullptr, bytes, nullptr, nullptr,
                                                                              nullptr, nullptr, n)
                          : ringsweep::tuning::sort_pairs<Policy>(nullptr, bytes, db, vb, n));
    }
    return bytes;
  };
  using P = typename std::conditional<std::is_void<Policy>::value, ringsweep::policy_defaults, Policy>::type;
  for (bool in_out : {true, false}) {
    INFO((in_out ? "in/out" : "double buffer") << " form, key " << kb << " bytes, value " << sizeof(Value)
                                                << " bytes, keys tile " << keys_tile << ", pairs tile " << pairs_tile);
    CHECK(keys_query(1, in_out) == 256);
    CHECK(keys_query(keys_tile, in_out) == 256);
    CHECK(keys_query(keys_tile + 1, in_out) == promised_bytes<P>(keys_tile + 1, kb, 0, passes, in_out));
    CHECK(pairs_query(pairs_tile, in_out) == 256);
    CHECK(pairs_query(pairs_tile + 1, in_out) ==
          promised_bytes<P>(pairs_tile + 1, kb, sizeof(Value), passes, in_out));
  }
}

}  // namespace temp_size_test

TEST_CASE("temporary storage at the tile edge is what docs/temp_storage.md promises", "[sort][api][temp]") {
  // n == TILE is one block's sort and needs 256 bytes; one more key takes the onesweep path and its
  // exact formula. A dispatcher that sent a full tile down the onesweep path would still sort
  // correctly, so only the size shows it.
  using namespace temp_size_test;
  check_tile_edge<tiny, u32, u32>();
  check_tile_edge<tiny, float, std::uint64_t>();
  check_tile_edge<tiny, std::uint64_t, std::uint8_t>();
  check_tile_edge<tiny, std::uint8_t, double>();
  check_tile_edge<ringsweep_test::policy_tiny_radix5, std::uint16_t, u32>();
  check_tile_edge<ringsweep_test::policy_tiny_per_type, double, u32>();
  // The shipped policies (their STATUS_SLOTS and RADIX_BITS are policy_defaults');
  // docs/temp_storage.md names the four-byte-key tiles: 7680 (policy_sm80) or 9216 (policy_sm90).
  check_tile_edge<void, u32, u32>();
  check_tile_edge<void, float, double>();
  check_tile_edge<void, std::uint64_t, u32>();
  check_tile_edge<void, __half, std::uint16_t>();
  STATIC_REQUIRE(ringsweep::detail::tile_shape<ringsweep::policy_sm80, 4, 0>::TILE == 7680);
  STATIC_REQUIRE(ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE == 9216);
  STATIC_REQUIRE(ringsweep::policy_sm80::STATUS_SLOTS == ringsweep::policy_defaults::STATUS_SLOTS);
  STATIC_REQUIRE(ringsweep::policy_sm90::RADIX_BITS == ringsweep::policy_defaults::RADIX_BITS);
}

TEST_CASE("the device's policy follows the PTX version its kernels were built from", "[sort][api][policy]") {
  // gpu_session.sh builds these tests once more with PTX for compute_80 only and sets
  // RINGSWEEP_EXPECT_PTX_ARCH=800: the driver compiles that PTX for a newer GPU, and the
  // dispatcher must then pick policy_sm80 (whose kernels are the only ones with bodies).
  int arch = 0;
  REQUIRE_CUDA(ringsweep::detail::current_ptx_arch(arch));
  bool sm80 = false;
  REQUIRE_CUDA(ringsweep::detail::with_device_policy([&](auto policy) {
    sm80 = std::is_same<decltype(policy), ringsweep::policy_sm80>::value;
    return cudaSuccess;
  }));
  CHECK(sm80 == (arch < 900));
  const char* expect = std::getenv("RINGSWEEP_EXPECT_PTX_ARCH");
  if (expect != nullptr && *expect != 0) {
    CHECK(arch == std::atoi(expect));
    CHECK(sm80 == (std::atoi(expect) < 900));
    CHECK(device_tile() == (sm80 ? std::size_t(384 * 18) : std::size_t(384 * 24)));
  }
}

TEST_CASE("every policy plans sorts of 2^32 keys and more (a policy is tuning only)", "[sort][api][policy]") {
  // Issue #38: no contract switch in the policy; output positions are a 32-bit rank on a per-digit
  // pointer whatever n is, so no policy refuses a count the shipped ones accept.
  const std::size_t many = (std::size_t(1) << 32) + 7;
  std::size_t tiny = 0, shipped = 0;
  CHECK(ringsweep::tuning::sort_keys<ringsweep_test::policy_tiny_window>(
            nullptr, tiny, static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr), many) == cudaSuccess);
  CHECK(ringsweep::sort_keys(nullptr, shipped, static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr), many) ==
        cudaSuccess);
  CHECK(tiny > many * sizeof(u32));  // the in/out scratch of 2^32 + 7 keys
  CHECK(shipped > many * sizeof(u32));
}

namespace {

/// A stream-ordered memory resource (the shape of cuda::mr's and RMM's) that counts its calls and
/// checks that every allocation comes back with its size, on the stream it was made on.
struct counting_resource {
  int allocations = 0;
  int deallocations = 0;
  std::size_t bytes = 0;
  std::size_t alignment = 0;
  cudaStream_t stream = nullptr;
  void* live = nullptr;
  bool mismatch = false;  // a deallocation whose pointer, size or stream differs

  void* allocate_async(std::size_t b, std::size_t align, cudaStream_t s) {
    void* p = nullptr;
    if (cudaMallocAsync(&p, b, s) != cudaSuccess) return nullptr;
    ++allocations;
    bytes = b;
    alignment = align;
    stream = s;
    live = p;
    return p;
  }
  void deallocate_async(void* p, std::size_t b, std::size_t align, cudaStream_t s) {
    ++deallocations;
    if (p != live || b != bytes || align != alignment || s != stream) mismatch = true;
    live = nullptr;
    cudaFreeAsync(p, s);
  }
};

/// A resource that is out of memory: null, or an exception (as RMM's and cuda::mr's throw).
struct failing_resource {
  bool throws = false;
  int deallocations = 0;
  void* allocate_async(std::size_t, std::size_t, cudaStream_t) {
    if (throws) throw std::bad_alloc();
    return nullptr;
  }
  void deallocate_async(void*, std::size_t, std::size_t, cudaStream_t) { ++deallocations; }
};

/// A resource whose allocations succeed but whose deallocate_async throws (after freeing): the
/// sort has been enqueued by then.
struct throwing_free_resource {
  int deallocations = 0;
  void* allocate_async(std::size_t b, std::size_t, cudaStream_t s) {
    void* p = nullptr;
    return cudaMallocAsync(&p, b, s) == cudaSuccess ? p : nullptr;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, cudaStream_t s) {
    ++deallocations;
    cudaFreeAsync(p, s);
    throw std::runtime_error("deallocate_async failed");
  }
};

struct id_key {
  std::uint32_t hi;
  std::uint16_t lo;
  std::uint16_t pad;
};
struct by_hi_lo {
  __host__ __device__ RINGSWEEP_TEST_TUPLE<std::uint32_t&, std::uint16_t&> operator()(id_key& k) const {
    return {k.hi, k.lo};
  }
};

}  // namespace

TEST_CASE("in-place forms take a stream-ordered memory resource", "[sort][api][resource]") {
  static_assert(ringsweep::detail::is_stream_resource<counting_resource>::value, "");
  static_assert(!ringsweep::detail::is_stream_resource<int>::value, "");
  const std::uint64_t seed = ringsweep_test::catch_seed();
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreate(&stream));
  // One tile or less, a few tiles, many portions of the tiny policy; three passes end in scratch.
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(977), std::size_t(3845), std::size_t(20000)}) {
    for (int variant = 0; variant < 2; ++variant) {
      INFO("n " << n << " variant " << variant);
      ringsweep::sort_options opts;
      if (variant == 1) {
        opts.order = ringsweep::sort_order::descending;
        opts.end_bit = 24;
      }
      const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, seed + n);
      std::vector<std::uint16_t> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = std::uint16_t(i * 7 + 1);
      ringsweep_test::device_buffer<u32> dk(keys), dk2(keys);
      ringsweep_test::device_buffer<std::uint16_t> dv(values);
      counting_resource pairs_mr, keys_mr;
      REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(dk.data(), dv.data(), n, opts, stream, pairs_mr));
      REQUIRE_CUDA(ringsweep::sort_keys(dk2.data(), n, opts, stream, keys_mr));
      REQUIRE_CUDA(cudaStreamSynchronize(stream));
      for (const counting_resource* mr : {&pairs_mr, &keys_mr}) {
        CHECK(mr->allocations == (n == 0 ? 0 : 1));
        CHECK(mr->deallocations == mr->allocations);
        CHECK_FALSE(mr->mismatch);
        if (n != 0) {
          CHECK(mr->alignment == 256u);
          CHECK(mr->stream == stream);
        }
      }
      // The pairs' allocation holds scratch for n keys and n values besides the temporary storage.
      if (n != 0) CHECK(pairs_mr.bytes >= n * (sizeof(u32) + sizeof(std::uint16_t)));
      const auto order = ringsweep_test::reference_order(keys, opts);
      REQUIRE(ringsweep_test::first_key_mismatch(dk.download(), keys, order) == -1);
      REQUIRE(ringsweep_test::first_key_mismatch(dk2.download(), keys, order) == -1);
      const auto got = dv.download();
      for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == values[order[i]]);
    }
  }
  REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a memory resource that fails or throws: data untouched, or sorted when freeing throws", "[sort][api][resource]") {
  const auto keys = ringsweep_test::make_keys<u32>(5000, distribution::uniform, ringsweep_test::catch_seed());
  for (bool throws : {false, true}) {
    INFO("throws " << throws);
    ringsweep_test::device_buffer<u32> dk(keys);
    ringsweep_test::device_buffer<u32> dv(keys);
    failing_resource mr;
    mr.throws = throws;
    CHECK(ringsweep::sort_keys(dk.data(), keys.size(), {}, 0, mr) == cudaErrorMemoryAllocation);
    CHECK(ringsweep::tuning::sort_pairs<tiny>(dk.data(), dv.data(), keys.size(), {}, 0, mr) ==
          cudaErrorMemoryAllocation);
    CHECK(mr.deallocations == 0);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(dk.download() == keys);
    CHECK(dv.download() == keys);
    // Bad arguments are refused before anything is allocated.
    CHECK(ringsweep::sort_keys(dk.data(), keys.size(), bits(0, 33), 0, mr) == cudaErrorInvalidValue);
  }
  CHECK(cudaGetLastError() == cudaSuccess);  // nothing sticky
  // deallocate_async throws once the sort is enqueued: cudaErrorUnknown, the data sorted, and the
  // exception does not leave the sort (every path: one tile, onesweep, several portions).
  for (std::size_t n : {std::size_t(150), std::size_t(5000)}) {
    INFO("n " << n << ", deallocate_async throws");
    const std::vector<u32> part(keys.begin(), keys.begin() + std::ptrdiff_t(n));
    const auto order = ringsweep_test::reference_order(part, ringsweep::sort_options{});
    ringsweep_test::device_buffer<u32> dk(part), dk2(part), dv(part);
    throwing_free_resource mr;
    cudaError_t e = cudaSuccess;
    CHECK_NOTHROW(e = ringsweep::sort_keys(dk.data(), n, {}, 0, mr));
    CHECK(e == cudaErrorUnknown);
    CHECK_NOTHROW(e = ringsweep::tuning::sort_pairs<tiny>(dk2.data(), dv.data(), n, {}, 0, mr));
    CHECK(e == cudaErrorUnknown);
    CHECK(mr.deallocations == 2);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(ringsweep_test::first_key_mismatch(dk.download(), part, order) == -1);
    CHECK(ringsweep_test::first_key_mismatch(dk2.download(), part, order) == -1);
    const auto values = dv.download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(values[i] == part[order[i]]);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("custom keys in place with a memory resource", "[sort][api][resource]") {
  const std::size_t n = 3000;
  std::vector<id_key> keys(n);
  std::uint64_t x = ringsweep_test::catch_seed() | 1;
  for (auto& k : keys) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    k = {std::uint32_t(x % 50), std::uint16_t(x >> 40), 0};
  }
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = std::uint32_t(i);
  ringsweep_test::device_buffer<id_key> dk(keys);
  ringsweep_test::device_buffer<std::uint32_t> dv(ids);
  counting_resource mr;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(dk.data(), dv.data(), n, by_hi_lo{}, {}, 0, mr));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(mr.allocations == 1);
  CHECK(mr.deallocations == 1);
  std::vector<std::uint32_t> want = ids;
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) {
    return keys[a].hi != keys[b].hi ? keys[a].hi < keys[b].hi : keys[a].lo < keys[b].lo;
  });
  CHECK(dv.download() == want);
  counting_resource mr2;
  ringsweep_test::device_buffer<id_key> dk2(keys);
  REQUIRE_CUDA(ringsweep::sort_keys(dk2.data(), n, by_hi_lo{}, {}, 0, mr2));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(mr2.allocations == 1);
  const auto got = dk2.download();
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(got[i].hi == keys[want[i]].hi);
    REQUIRE(got[i].lo == keys[want[i]].lo);
  }
}
