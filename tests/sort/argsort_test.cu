// argsort: the positions of the keys in stable sorted order, made by the sort itself (no index
// array is read), with or without the sorted keys; every index type, every path (copy, single
// tile, onesweep over several portions, passes skipped, sorted input) and the argument checks.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using tiny = ringsweep_test::policy_tiny;
using tiny_vector = ringsweep_test::policy_tiny_vector;
using ringsweep::sort_order;

using ringsweep_test::sort_options_of;

/// argsort of `keys` with `Policy` (the device's when void), with and without sorted keys, checked
/// against std::stable_sort; the input must stay and nothing past the outputs may be written.
template <class Policy, class Key, class Index>
void check_argsort(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  const auto order = ringsweep_test::reference_order(keys, opts);
  for (bool with_keys : {true, false}) {
    INFO("n " << n << (with_keys ? ", sorted keys too" : ", indices only") << ", " << ringsweep_test::order_name(opts));
    ringsweep_test::device_buffer<Key> in(keys), out(n + 1);
    ringsweep_test::device_buffer<Index> idx(n + 1);
    out.fill_bytes(0xAB);
    idx.fill_bytes(0xAB);
    Key* keys_out = with_keys ? out.data() : nullptr;
    std::size_t bytes = 0;
    const auto call = [&](void* temp, std::size_t& b) {
      if constexpr (std::is_void<Policy>::value) {
        return ringsweep::argsort(temp, b, in.data(), keys_out, idx.data(), n, opts);
      } else {
        return ringsweep::tuning::argsort<Policy>(temp, b, in.data(), keys_out, idx.data(), n, opts);
      }
    };
    REQUIRE_CUDA(call(nullptr, bytes));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data(), bytes));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = idx.download();
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i);
      REQUIRE(std::uint64_t(got[i]) == std::uint64_t(order[i]));
    }
    const auto guard = got[n];
    Index poisoned;
    std::memset(&poisoned, 0xAB, sizeof(Index));
    CHECK(guard == poisoned);  // nothing written past the indices
    if (with_keys) {
      std::vector<Key> sorted = out.download();
      sorted.resize(n);
      REQUIRE(ringsweep_test::first_key_mismatch(sorted, keys, order) == -1);
    }
    CHECK(ringsweep_test::same_keys(in.download(), keys));
  }
}

/// Sizes at the tiny policies' edges: one key, one tile (192 keys, fewer for 8-byte items), just
/// over, 21 tiles (three portions per pass).
const std::size_t sizes[] = {1, 2, 191, 192, 193, 977, 3845};

}  // namespace

TEMPLATE_TEST_CASE("argsort: every index type over tile and portion edges", "[sort][argsort]", std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + n);
    check_argsort<tiny, std::uint32_t, TestType>(keys, sort_options_of(sort_order::ascending));
    check_argsort<tiny, std::uint32_t, TestType>(keys, sort_options_of(sort_order::descending));
  }
  // Vector loads of the keys (the positions are made, never loaded).
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, ringsweep_test::distribution::uniform, seed + n);
    if constexpr (std::is_same<TestType, std::uint32_t>::value) {
      check_argsort<tiny_vector, std::uint32_t, TestType>(keys, sort_options_of(sort_order::descending));
    }
  }
}

TEMPLATE_TEST_CASE("argsort: key types, duplicates, bit windows, skipped passes, sorted input", "[sort][argsort]",
                   std::uint8_t, float, std::int64_t) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3845;
  for (auto d : {ringsweep_test::distribution::uniform, ringsweep_test::distribution::few_distinct}) {
    const auto keys = ringsweep_test::make_keys<TestType>(n, d, seed);
    for (auto o : {sort_order::ascending, sort_order::descending}) {
      check_argsort<tiny, TestType, std::uint32_t>(keys, sort_options_of(o));
      check_argsort<tiny, TestType, std::int64_t>(keys, sort_options_of(o, 3, 7));  // one narrow pass
      check_argsort<tiny, TestType, std::uint32_t>(keys, sort_options_of(o, 5, 5));  // no pass: positions in order
    }
  }
  // Every pass skipped: constant keys, and keys already in order (the histogram's detection).
  const std::vector<TestType> constant(n, TestType(3));
  check_argsort<tiny, TestType, std::uint32_t>(constant, sort_options_of(sort_order::ascending));
  auto sorted = ringsweep_test::make_keys<TestType>(n, ringsweep_test::distribution::uniform, seed + 1);
  const auto order = ringsweep_test::reference_order(sorted, sort_options_of(sort_order::ascending));
  std::vector<TestType> in_order(n);
  for (std::size_t i = 0; i < n; ++i) in_order[i] = sorted[order[i]];
  check_argsort<tiny, TestType, std::int64_t>(in_order, sort_options_of(sort_order::ascending));
  check_argsort<tiny, TestType, std::int64_t>(in_order, sort_options_of(sort_order::descending));
}

TEST_CASE("argsort with the device's policy", "[sort][argsort]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(100), std::size_t(30000)}) {
    const auto keys = ringsweep_test::make_keys<float>(n, ringsweep_test::distribution::uniform, seed + n);
    check_argsort<void, float, std::int32_t>(keys, sort_options_of(sort_order::ascending));
  }
}

TEST_CASE("argsort: temporary storage and bad arguments", "[sort][argsort]") {
  using u32 = std::uint32_t;
  const std::size_t n = 3845;
  std::size_t with_keys = 0, without_keys = 0, pairs = 0;
  REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(nullptr, with_keys, static_cast<const u32*>(nullptr),
                                                reinterpret_cast<u32*>(std::uintptr_t(256)), static_cast<u32*>(nullptr), n));
  REQUIRE_CUDA(ringsweep::tuning::argsort<tiny>(nullptr, without_keys, static_cast<const u32*>(nullptr), nullptr,
                                                static_cast<u32*>(nullptr), n));
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, pairs, static_cast<const u32*>(nullptr),
                                                   static_cast<u32*>(nullptr), static_cast<const u32*>(nullptr),
                                                   static_cast<u32*>(nullptr), n));
  CHECK(with_keys == pairs);                                   // the in/out pair sort's storage
  CHECK(without_keys == pairs + (n * 4 + 255) / 256 * 256);   // plus room for the sorted keys

  // Positions that do not fit the index type: refused, even as a size query.
  std::size_t bytes = 7;
  const std::size_t too_many = std::size_t(std::numeric_limits<std::int32_t>::max()) + 2;
  CHECK(ringsweep::tuning::argsort<tiny>(nullptr, bytes, static_cast<const u32*>(nullptr), nullptr,
                                         static_cast<std::int32_t*>(nullptr), too_many) == cudaErrorInvalidValue);
  CHECK(bytes == 7u);
  CHECK(ringsweep::tuning::argsort<tiny>(nullptr, bytes, static_cast<const u32*>(nullptr), nullptr,
                                         static_cast<std::int32_t*>(nullptr), too_many - 1) == cudaSuccess);

  const auto keys = ringsweep_test::random_ints<u32>(n, 5, 0u, ~0u);
  ringsweep_test::device_buffer<u32> in(keys), out(n);
  ringsweep_test::device_buffer<u32> idx(n);
  idx.fill_bytes(0xAB);
  out.fill_bytes(0xAB);
  ringsweep_test::device_bytes temp(without_keys);
  std::size_t have = without_keys;
  // Null indices, null keys, too little storage, indices over the keys, an output over the input.
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), have, in.data(), out.data(), static_cast<u32*>(nullptr), n) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), have, static_cast<const u32*>(nullptr), out.data(), idx.data(),
                                         n) == cudaErrorInvalidValue);
  std::size_t short_bytes = without_keys - 1;
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), short_bytes, in.data(), nullptr, idx.data(), n) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), have, in.data(), out.data(), in.data(), n) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), have, in.data(), in.data() + 1, idx.data(), n) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::argsort<tiny>(temp.data(), have, in.data(), out.data(), idx.data(), n,
                                         sort_options_of(sort_order::ascending, 0, 33)) == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (u32 v : idx.download()) REQUIRE(v == 0xABABABABu);
  for (u32 v : out.download()) REQUIRE(v == 0xABABABABu);
  CHECK(in.download() == keys);
  // n = 0: nothing to do, nothing read.
  std::size_t zero = 0;
  CHECK(ringsweep::argsort(nullptr, zero, static_cast<const u32*>(nullptr), nullptr, static_cast<u32*>(nullptr), 0) ==
        cudaSuccess);
}

TEST_CASE("argsort: a position above 2^32 becomes that index (the conversion, on the host)", "[sort][argsort][large]") {
  // Every kernel that makes an argsort's indices (the onesweep pass reading the input, the
  // single tile, the final copy, the index fill) turns a 64-bit input position into the index
  // type's bytes through index_value; a sort of 2^32 keys does not fit a CPU test
  // (large_n_test_gpu runs one on a GPU), so the conversion is checked here on its own.
  using ringsweep::detail::index_value;
  using ringsweep::detail::index_values;
  const std::uint64_t two32 = std::uint64_t(1) << 32;
  for (std::uint64_t p : {two32 - 1, two32, two32 + 1, two32 + 12345, (two32 << 1) + 7, std::uint64_t(1) << 40,
                          (std::uint64_t(1) << 48) + 3, (std::uint64_t(1) << 62) + 5}) {
    INFO("position " << p);
    CHECK(index_value<index_values<std::uint64_t>>(p).index == p);
    CHECK(index_value<index_values<std::int64_t>>(p).index == std::int64_t(p));
    // 4-byte indices serve sorts below 2^32 keys (argsort refuses larger n): the low word.
    CHECK(index_value<index_values<std::uint32_t>>(p).index == std::uint32_t(p));
  }
  CHECK(index_value<index_values<std::uint64_t>>(~std::uint64_t(0)).index == ~std::uint64_t(0));
  CHECK(index_value<index_values<std::int32_t>>(0x7FFFFFFFull).index == 0x7FFFFFFF);
}
