// ringsweep/cub.cuh: CUB's DeviceRadixSort names, argument orders and defaults; every function
// against std::stable_sort (ringsweep_test::reference_order) with int, long long and unsigned counts,
// bit windows and both orders; DoubleBuffer's Current()/Alternate() and selector; cub::DoubleBuffer
// (GPU build) and any double buffer with its layout; invalid counts (negative, overflowing
// std::size_t) return cudaErrorInvalidValue with nothing written, and the error is not sticky.
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>

#if defined(RINGSWEEP_VARIANT_GPU)
#include <cub/util_type.cuh>  // cub::DoubleBuffer, included after ringsweep/cub.cuh on purpose
#include <cub/device/device_radix_sort.cuh>  // CUB's own decomposer sort beside ringsweep's
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using ringsweep::DeviceRadixSort;
using ringsweep_test::distribution;

// ---- the signatures are CUB's ----------------------------------------------------------------------

using keys_fn = cudaError_t (*)(void*, std::size_t&, const u64*, u64*, int, int, int, cudaStream_t);
using keys_db_fn = cudaError_t (*)(void*, std::size_t&, ringsweep::DoubleBuffer<u64>&, long long, int, int,
                                   cudaStream_t);
using pairs_fn = cudaError_t (*)(void*, std::size_t&, const u64*, u64*, const u32*, u32*, unsigned, int, int,
                                 cudaStream_t);
using pairs_db_fn = cudaError_t (*)(void*, std::size_t&, ringsweep::DoubleBuffer<u64>&, ringsweep::DoubleBuffer<u32>&,
                                    int, int, int, cudaStream_t);
[[maybe_unused]] constexpr keys_fn sort_keys_fn = &DeviceRadixSort::SortKeys<u64, int>;
[[maybe_unused]] constexpr keys_fn sort_keys_desc_fn = &DeviceRadixSort::SortKeysDescending<u64, int>;
[[maybe_unused]] constexpr keys_db_fn sort_keys_db_fn = &DeviceRadixSort::SortKeys<u64, long long>;
[[maybe_unused]] constexpr keys_db_fn sort_keys_db_desc_fn = &DeviceRadixSort::SortKeysDescending<u64, long long>;
[[maybe_unused]] constexpr pairs_fn sort_pairs_fn = &DeviceRadixSort::SortPairs<u64, u32, unsigned>;
[[maybe_unused]] constexpr pairs_fn sort_pairs_desc_fn = &DeviceRadixSort::SortPairsDescending<u64, u32, unsigned>;
[[maybe_unused]] constexpr pairs_db_fn sort_pairs_db_fn = &DeviceRadixSort::SortPairs<u64, u32, int>;
[[maybe_unused]] constexpr pairs_db_fn sort_pairs_db_desc_fn = &DeviceRadixSort::SortPairsDescending<u64, u32, int>;

static_assert(std::is_same<decltype(std::declval<ringsweep::DoubleBuffer<float>&>().d_buffers), float* [2]>::value,
              "DoubleBuffer::d_buffers is CUB's");
static_assert(std::is_same<decltype(std::declval<ringsweep::DoubleBuffer<float>&>().selector), int>::value,
              "DoubleBuffer::selector is CUB's");

/// A double buffer of another library with CUB's layout (what cub::DoubleBuffer is).
template <class T>
struct other_double_buffer {
  T* d_buffers[2];
  int selector;
};

ringsweep::sort_options window(int begin_bit, int end_bit, bool descending) {
  ringsweep::sort_options o;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  o.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  return o;
}

/// Runs `sort(d_temp)` twice, CUB's way: the size query (which must only write the size), then
/// the sort with that much temporary storage.
template <class Sort>
void two_phase(std::size_t& bytes, Sort&& sort) {
  bytes = 0;
  REQUIRE_CUDA(sort(nullptr));
  REQUIRE(bytes > 0);
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(sort(static_cast<void*>(temp.data())));
  REQUIRE_CUDA(cudaDeviceSynchronize());
}

/// SortKeys / SortKeysDescending (pointer form), count of type Count.
template <class Count, class Key>
void check_keys(const std::vector<Key>& keys, int begin_bit, int end_bit, bool descending) {
  const std::size_t n = keys.size();
  INFO("SortKeys" << (descending ? "Descending" : "") << ", n " << n << ", bits [" << begin_bit << ", " << end_bit
                  << "), count " << sizeof(Count) << " bytes " << (std::is_signed<Count>::value ? "signed" : "unsigned"));
  ringsweep_test::device_buffer<Key> in(keys), out(n);
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* temp) {
    return descending ? DeviceRadixSort::SortKeysDescending(temp, bytes, in.data(), out.data(), Count(n), begin_bit,
                                                            end_bit)
                      : DeviceRadixSort::SortKeys(temp, bytes, in.data(), out.data(), Count(n), begin_bit, end_bit);
  });
  const auto order = ringsweep_test::reference_order(keys, window(begin_bit, end_bit, descending));
  REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys, order) == -1);
  REQUIRE(ringsweep_test::same_keys(in.download(), keys));
}

/// SortPairs / SortPairsDescending (pointer form): values are input indices, so stability shows.
template <class Count, class Key>
void check_pairs(const std::vector<Key>& keys, int begin_bit, int end_bit, bool descending) {
  const std::size_t n = keys.size();
  INFO("SortPairs" << (descending ? "Descending" : "") << ", n " << n << ", bits [" << begin_bit << ", " << end_bit
                   << "), count " << sizeof(Count) << " bytes");
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
  ringsweep_test::device_buffer<Key> kin(keys), kout(n);
  ringsweep_test::device_buffer<u32> vin(values), vout(n);
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* temp) {
    return descending ? DeviceRadixSort::SortPairsDescending(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                             vout.data(), Count(n), begin_bit, end_bit)
                      : DeviceRadixSort::SortPairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(),
                                                   Count(n), begin_bit, end_bit);
  });
  const auto order = ringsweep_test::reference_order(keys, window(begin_bit, end_bit, descending));
  REQUIRE(ringsweep_test::first_key_mismatch(kout.download(), keys, order) == -1);
  const auto got = vout.download();
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(got[i] == u32(order[i]));
  }
}

/// The double-buffer forms with a buffer type `Buffers` (ringsweep::DoubleBuffer, cub::DoubleBuffer
/// or another one with CUB's layout), data starting in d_buffers[first].
template <template <class> class Buffers, template <class> class ValueBuffers = Buffers, class Key>
void check_double_buffer(const std::vector<Key>& keys, int first, int begin_bit, int end_bit, bool descending,
                         bool with_values) {
  const std::size_t n = keys.size();
  INFO((with_values ? "SortPairs" : "SortKeys") << (descending ? "Descending" : "") << " (double buffer), n " << n
                                                << ", data in buffer " << first << ", bits [" << begin_bit << ", "
                                                << end_bit << ")");
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
  ringsweep_test::device_buffer<Key> k0(n), k1(n);
  ringsweep_test::device_buffer<u32> v0(n), v1(n);
  (first == 0 ? k0 : k1).upload(keys);
  (first == 0 ? v0 : v1).upload(values);
  Buffers<Key> kb{};
  kb.d_buffers[0] = k0.data();
  kb.d_buffers[1] = k1.data();
  kb.selector = first;
  ValueBuffers<u32> vb{};
  vb.d_buffers[0] = v0.data();
  vb.d_buffers[1] = v1.data();
  vb.selector = first;
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* temp) {
    if (temp == nullptr) {  // the size query leaves the selectors alone
      const cudaError_t e = with_values ? (descending ? DeviceRadixSort::SortPairsDescending(temp, bytes, kb, vb, int(n),
                                                                                             begin_bit, end_bit)
                                                      : DeviceRadixSort::SortPairs(temp, bytes, kb, vb, int(n),
                                                                                   begin_bit, end_bit))
                                        : (descending ? DeviceRadixSort::SortKeysDescending(temp, bytes, kb, int(n),
                                                                                            begin_bit, end_bit)
                                                      : DeviceRadixSort::SortKeys(temp, bytes, kb, int(n), begin_bit,
                                                                                  end_bit));
      CHECK(kb.selector == first);
      CHECK(vb.selector == first);
      return e;
    }
    if (with_values) {
      return descending ? DeviceRadixSort::SortPairsDescending(temp, bytes, kb, vb, (long long)n, begin_bit, end_bit)
                        : DeviceRadixSort::SortPairs(temp, bytes, kb, vb, (long long)n, begin_bit, end_bit);
    }
    return descending ? DeviceRadixSort::SortKeysDescending(temp, bytes, kb, unsigned(n), begin_bit, end_bit)
                      : DeviceRadixSort::SortKeys(temp, bytes, kb, unsigned(n), begin_bit, end_bit);
  });
  REQUIRE((kb.selector == 0 || kb.selector == 1));
  REQUIRE(kb.d_buffers[0] == k0.data());
  REQUIRE(kb.d_buffers[1] == k1.data());
  auto& current_keys = kb.selector == 0 ? k0 : k1;
  const auto order = ringsweep_test::reference_order(keys, window(begin_bit, end_bit, descending));
  REQUIRE(ringsweep_test::first_key_mismatch(current_keys.download(), keys, order) == -1);
  if (with_values) {
    REQUIRE(vb.selector == kb.selector);
    const auto got = (vb.selector == 0 ? v0 : v1).download();
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i);
      REQUIRE(got[i] == u32(order[i]));
    }
  }
}

constexpr std::size_t sizes[] = {0, 1, 1000, 20000};

}  // namespace

TEST_CASE("DoubleBuffer has CUB's members", "[cub]") {
  ringsweep::DoubleBuffer<int> empty;
  CHECK(empty.d_buffers[0] == nullptr);
  CHECK(empty.d_buffers[1] == nullptr);
  CHECK(empty.selector == 0);
  int a = 0, b = 0;
  ringsweep::DoubleBuffer<int> db(&a, &b);
  CHECK(db.selector == 0);
  CHECK(db.Current() == &a);
  CHECK(db.Alternate() == &b);
  db.selector = 1;
  CHECK(db.Current() == &b);
  CHECK(db.Alternate() == &a);
  const ringsweep::DoubleBuffer<int>& view = db;
  CHECK(view.Current() == &b);
}

TEMPLATE_TEST_CASE("DeviceRadixSort::SortKeys and SortKeysDescending (pointer forms)", "[cub]", u32, int,
                   unsigned long long, long long, float, double, __half) {
  const int key_bits = int(sizeof(TestType) * 8);
  const auto seed = ringsweep_test::catch_seed();
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<TestType>(n, n == 20000 ? distribution::few_distinct : distribution::uniform,
                                                     seed + n);
    check_keys<int>(keys, 0, key_bits, false);
    check_keys<long long>(keys, 0, key_bits, true);
    check_keys<unsigned>(keys, 3, key_bits - 2, false);
    check_keys<std::size_t>(keys, 1, 1 + key_bits / 2, true);
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort::SortPairs and SortPairsDescending (pointer forms)", "[cub]", u32, int, u64,
                   float) {
  const int key_bits = int(sizeof(TestType) * 8);
  const auto seed = ringsweep_test::catch_seed();
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::few_distinct, seed + n);
    check_pairs<int>(keys, 0, key_bits, false);
    check_pairs<unsigned>(keys, 0, key_bits, true);
    check_pairs<long long>(keys, 2, key_bits - 5, false);
    check_pairs<short>(keys, 5, 13, true);
  }
}

TEST_CASE("DeviceRadixSort: CUB's default bit window and stream", "[cub]") {
  // 3D Gaussian Splatting tile binning: 64-bit keys, sorted on [0, 45), 32-bit values.
  const auto keys = ringsweep_test::make_keys<u64>(12345, distribution::uniform, ringsweep_test::catch_seed());
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<u64> in(keys), out(n);
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* temp) { return DeviceRadixSort::SortKeys(temp, bytes, in.data(), out.data(), int(n)); });
  REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys, ringsweep_test::reference_order(keys, window(0, 64, false))) ==
          -1);
  two_phase(bytes, [&](void* temp) {
    return DeviceRadixSort::SortKeysDescending(temp, bytes, in.data(), out.data(), int(n), 20);
  });
  REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys, ringsweep_test::reference_order(keys, window(20, 64, true))) ==
          -1);
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreate(&stream));
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
  ringsweep_test::device_buffer<u32> vin(values), vout(n);
  two_phase(bytes, [&](void* temp) {
    return DeviceRadixSort::SortPairs(temp, bytes, in.data(), out.data(), vin.data(), vout.data(), int(n), 0, 45,
                                      stream);
  });
  REQUIRE_CUDA(cudaStreamDestroy(stream));
  const auto order = ringsweep_test::reference_order(keys, window(0, 45, false));
  REQUIRE(ringsweep_test::first_key_mismatch(out.download(), keys, order) == -1);
  const auto got = vout.download();
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == u32(order[i]));
}

TEMPLATE_TEST_CASE("DeviceRadixSort double-buffer forms: Current() holds the result", "[cub]", u32, int, u64, float) {
  const int key_bits = int(sizeof(TestType) * 8);
  const auto seed = ringsweep_test::catch_seed();
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<TestType>(n, distribution::few_distinct, seed + 7 * n);
    for (int first = 0; first < 2; ++first) {
      for (int values = 0; values < 2; ++values) {
        check_double_buffer<ringsweep::DoubleBuffer>(keys, first, 0, key_bits, false, values != 0);
        check_double_buffer<ringsweep::DoubleBuffer>(keys, first, 0, key_bits, true, values != 0);
        check_double_buffer<ringsweep::DoubleBuffer>(keys, first, 4, 12, values != 0, values != 0);  // one pass
        check_double_buffer<ringsweep::DoubleBuffer>(keys, first, 3, 19, values == 0, values != 0);  // two passes
      }
    }
  }
}

TEST_CASE("DeviceRadixSort takes double buffers of CUB's layout (cub::DoubleBuffer)", "[cub]") {
  const auto keys = ringsweep_test::make_keys<u64>(20000, distribution::few_distinct, ringsweep_test::catch_seed());
  for (int values = 0; values < 2; ++values) {
    check_double_buffer<other_double_buffer>(keys, 1, 0, 45, false, values != 0);
    check_double_buffer<other_double_buffer>(keys, 0, 0, 45, true, values != 0);
    check_double_buffer<other_double_buffer>(keys, 0, 8, 40, values != 0, values != 0);
    check_double_buffer<ringsweep::DoubleBuffer, other_double_buffer>(keys, 1, 0, 64, false, values != 0);
    check_double_buffer<other_double_buffer, ringsweep::DoubleBuffer>(keys, 0, 0, 64, true, values != 0);
#if defined(RINGSWEEP_VARIANT_GPU)
    check_double_buffer<cub::DoubleBuffer>(keys, 0, 0, 45, false, values != 0);
    check_double_buffer<cub::DoubleBuffer>(keys, 1, 3, 64, true, values != 0);
#endif
  }
}

TEST_CASE("DeviceRadixSort takes ringsweep::double_buffer too", "[cub]") {
  const auto keys = ringsweep_test::make_keys<int>(9000, distribution::uniform, ringsweep_test::catch_seed());
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<int> a(keys), b(n);
  ringsweep::double_buffer<int> db(a.data(), b.data());
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* temp) { return DeviceRadixSort::SortKeysDescending(temp, bytes, db, n, 0, 24); });
  REQUIRE(db.current() == (db.selector == 0 ? a.data() : b.data()));
  const auto got = (db.selector == 0 ? a : b).download();
  REQUIRE(ringsweep_test::first_key_mismatch(got, keys, ringsweep_test::reference_order(keys, window(0, 24, true))) == -1);
}

TEST_CASE("DeviceRadixSort: negative and overflowing counts are invalid, nothing written", "[cub][errors]") {
  constexpr unsigned char poison = 0xAB;
  const std::vector<u32> keys = {5, 3, 9, 1};
  ringsweep_test::device_buffer<u32> kin(keys), kout(4), vin(keys), vout(4);
  kout.fill_bytes(poison);
  vout.fill_bytes(poison);
  ringsweep_test::device_bytes temp(1 << 22);
  ringsweep::DoubleBuffer<u32> kb(kin.data(), kout.data());
  ringsweep::DoubleBuffer<u32> vb(vin.data(), vout.data());
  const std::size_t untouched = 12345;

  const auto expect_invalid = [&](auto&& sort) {
    for (int query = 0; query < 2; ++query) {
      std::size_t bytes = query ? untouched : temp.size();
      INFO((query ? "size query" : "sort"));
      CHECK(sort(query ? nullptr : static_cast<void*>(temp.data()), bytes) == cudaErrorInvalidValue);
      CHECK(bytes == (query ? untouched : temp.size()));
    }
  };
  const auto check_counts = [&](auto count) {
    INFO("count " << (long double)count);
    expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortKeys(t, b, kin.data(), kout.data(), count); });
    expect_invalid(
        [&](void* t, std::size_t& b) { return DeviceRadixSort::SortKeysDescending(t, b, kin.data(), kout.data(), count); });
    expect_invalid([&](void* t, std::size_t& b) {
      return DeviceRadixSort::SortPairs(t, b, kin.data(), kout.data(), vin.data(), vout.data(), count);
    });
    expect_invalid([&](void* t, std::size_t& b) {
      return DeviceRadixSort::SortPairsDescending(t, b, kin.data(), kout.data(), vin.data(), vout.data(), count, 0, 16);
    });
    expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortKeys(t, b, kb, count); });
    expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortKeysDescending(t, b, kb, count); });
    expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortPairs(t, b, kb, vb, count); });
    expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortPairsDescending(t, b, kb, vb, count); });
  };
  check_counts(-1);
  check_counts(std::numeric_limits<int>::min());
  check_counts(-5LL);
  check_counts((signed char)-3);
  check_counts(std::numeric_limits<std::size_t>::max());
  check_counts(std::numeric_limits<std::size_t>::max() / 4 + 1);  // 4-byte keys: bytes overflow
  check_counts(std::numeric_limits<unsigned long long>::max() / 2);
  // A negative end_bit is not CUB's "whole key" either.
  expect_invalid([&](void* t, std::size_t& b) { return DeviceRadixSort::SortKeys(t, b, kin.data(), kout.data(), 4, 0, -1); });

  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(kb.selector == 0);
  CHECK(vb.selector == 0);
  for (u32 w : kout.download()) CHECK(w == 0xABABABABu);
  for (u32 w : vout.download()) CHECK(w == 0xABABABABu);
  CHECK(kin.download() == keys);

  // The errors are returned, not sticky: nothing is pending, and the next sort works.
  CHECK(cudaGetLastError() == cudaSuccess);
  std::size_t bytes = temp.size();
  REQUIRE_CUDA(DeviceRadixSort::SortKeys(static_cast<void*>(temp.data()), bytes, kin.data(), kout.data(), 4));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(kout.download() == std::vector<u32>{1, 3, 5, 9});
}

TEST_CASE("sort_keys / sort_pairs: counts whose byte sizes overflow std::size_t are invalid", "[errors]") {
  ringsweep_test::device_buffer<u64> kin(4), kout(4);
  ringsweep_test::device_buffer<u32> vin(4), vout(4);
  kout.fill_bytes(0xCD);
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  // n * 8 (keys) overflows for all; n * (8 + 4) (pairs) for the last one only.
  for (std::size_t n : {max, max / 8 + 1, max / 2, max / 12 + 1}) {
    INFO("n " << n);
    const bool keys_overflow = n > max / 8;
    for (int query = 0; query < 2; ++query) {
      std::size_t bytes = query ? 77 : (std::size_t(1) << 22);
      void* temp = query ? nullptr : static_cast<void*>(kout.data());  // never touched
      ringsweep::double_buffer<u64> kb(kin.data(), kout.data());
      ringsweep::double_buffer<u32> vb(vin.data(), vout.data());
      if (keys_overflow) {
        CHECK(ringsweep::sort_keys(temp, bytes, kin.data(), kout.data(), n) == cudaErrorInvalidValue);
        CHECK(ringsweep::sort_keys(temp, bytes, kb, n) == cudaErrorInvalidValue);
      }
      CHECK(ringsweep::sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n) ==
            cudaErrorInvalidValue);
      CHECK(ringsweep::sort_pairs(temp, bytes, kb, vb, n) == cudaErrorInvalidValue);
      CHECK(bytes == (query ? 77u : (std::size_t(1) << 22)));
      CHECK(kb.selector == 0);
    }
    if (keys_overflow) CHECK(ringsweep::sort_keys(kout.data(), n) == cudaErrorInvalidValue);
    CHECK(ringsweep::sort_pairs(kout.data(), vout.data(), n) == cudaErrorInvalidValue);
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (u64 w : kout.download()) CHECK(w == 0xCDCDCDCDCDCDCDCDull);
  CHECK(cudaGetLastError() == cudaSuccess);
}

// ---- custom keys: CUB's decomposer overloads ------------------------------------------------------

namespace {

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#define CUB_API_TEST_CUDA_STD_TUPLE 1
#endif
#endif

struct cell_depth {  // by cell, then depth
  std::int32_t cell;
  float depth;
};
struct by_cell_depth {
#ifdef CUB_API_TEST_CUDA_STD_TUPLE
  __host__ __device__ cuda::std::tuple<std::int32_t&, float&> operator()(cell_depth& k) const {
    return {k.cell, k.depth};
  }
#else
  __host__ __device__ std::tuple<std::int32_t&, float&> operator()(cell_depth& k) const { return {k.cell, k.depth}; }
#endif
};

using dec_keys_fn = cudaError_t (*)(void*, std::size_t&, const cell_depth*, cell_depth*, int, by_cell_depth,
                                    cudaStream_t);
using dec_keys_bits_fn = cudaError_t (*)(void*, std::size_t&, const cell_depth*, cell_depth*, int, by_cell_depth, int,
                                         int, cudaStream_t);
using dec_pairs_db_fn = cudaError_t (*)(void*, std::size_t&, ringsweep::DoubleBuffer<cell_depth>&,
                                        ringsweep::DoubleBuffer<u32>&, long long, by_cell_depth, int, int,
                                        cudaStream_t);
[[maybe_unused]] constexpr dec_keys_fn dec_keys = &DeviceRadixSort::SortKeys<cell_depth, int, by_cell_depth>;
[[maybe_unused]] constexpr dec_keys_bits_fn dec_keys_desc_bits =
    &DeviceRadixSort::SortKeysDescending<cell_depth, int, by_cell_depth>;
[[maybe_unused]] constexpr dec_pairs_db_fn dec_pairs_db =
    &DeviceRadixSort::SortPairs<ringsweep::DoubleBuffer, ringsweep::DoubleBuffer, cell_depth, u32, long long,
                                by_cell_depth>;

/// The key's 64-bit image (the cell's above the depth's): the reference orders by its window.
u64 image_of(const cell_depth& k) {
  using ti = ringsweep::key_traits<std::int32_t>;
  using tf = ringsweep::key_traits<float>;
  return (u64(ti::to_ordered(ti::to_bits(k.cell))) << 32) | u64(tf::to_ordered(tf::to_bits(k.depth)));
}

std::vector<std::size_t> reference(const std::vector<cell_depth>& keys, int begin_bit, int end_bit, bool descending) {
  const auto rank = [&](std::size_t i) {
    const int width = end_bit - begin_bit;
    const u64 w = image_of(keys[i]) >> begin_bit;
    return width >= 64 ? w : w & ((u64(1) << width) - 1);
  };
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return descending ? rank(b) < rank(a) : rank(a) < rank(b); });
  return order;
}

/// Keys whose bits say which key went where: equal cells and depths (-0.0 beside +0.0) repeat.
std::vector<cell_depth> cell_keys(std::size_t n) {
  std::vector<cell_depth> keys(n);
  std::uint64_t x = 88172645463325252ull;
  for (auto& k : keys) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    k.cell = std::int32_t(x % 7) - 3;
    k.depth = (x >> 8) % 5 == 0 ? -0.0f : float((x >> 16) % 9) - 4.0f;
  }
  return keys;
}

void require_order(const std::vector<cell_depth>& got, const std::vector<cell_depth>& keys,
                   const std::vector<std::size_t>& order) {
  REQUIRE(got.size() == order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("position " << i);
    REQUIRE(std::memcmp(&got[i], &keys[order[i]], sizeof(cell_depth)) == 0);
  }
}

/// One of the 16 decomposer overloads (pairs or keys, descending or not, double buffers or
/// pointers, with the window [32, 64) of the cell or without one) on `keys`, checked against the
/// reference (pairs: the positions too).
template <bool PAIRS, bool DESC, bool DB, bool BITS>
void check_decomposer_form(const std::vector<cell_depth>& keys) {
  const std::size_t n = keys.size();
  INFO((PAIRS ? "SortPairs" : "SortKeys") << (DESC ? "Descending" : "") << (DB ? ", double buffers" : ", pointers")
                                          << (BITS ? ", bits [32, 64)" : ""));
  std::vector<u32> positions(n);
  for (std::size_t i = 0; i < n; ++i) positions[i] = u32(i);
  ringsweep_test::device_buffer<cell_depth> k0(keys), k1(n);
  ringsweep_test::device_buffer<u32> v0(positions), v1(n);
  ringsweep::DoubleBuffer<cell_depth> kb(k0.data(), k1.data());
  ringsweep::DoubleBuffer<u32> vb(v0.data(), v1.data());
  const by_cell_depth dec{};
  std::size_t bytes = 0;
  two_phase(bytes, [&](void* t) {
    if constexpr (DB && PAIRS) {
      if constexpr (BITS) {
        return DESC ? DeviceRadixSort::SortPairsDescending(t, bytes, kb, vb, n, dec, 32, 64)
                    : DeviceRadixSort::SortPairs(t, bytes, kb, vb, n, dec, 32, 64);
      } else {
        return DESC ? DeviceRadixSort::SortPairsDescending(t, bytes, kb, vb, n, dec)
                    : DeviceRadixSort::SortPairs(t, bytes, kb, vb, n, dec);
      }
    } else if constexpr (DB) {
      if constexpr (BITS) {
        return DESC ? DeviceRadixSort::SortKeysDescending(t, bytes, kb, n, dec, 32, 64)
                    : DeviceRadixSort::SortKeys(t, bytes, kb, n, dec, 32, 64);
      } else {
        return DESC ? DeviceRadixSort::SortKeysDescending(t, bytes, kb, n, dec)
                    : DeviceRadixSort::SortKeys(t, bytes, kb, n, dec);
      }
    } else if constexpr (PAIRS) {
      if constexpr (BITS) {
        return DESC ? DeviceRadixSort::SortPairsDescending(t, bytes, k0.data(), k1.data(), v0.data(), v1.data(), n,
                                                           dec, 32, 64)
                    : DeviceRadixSort::SortPairs(t, bytes, k0.data(), k1.data(), v0.data(), v1.data(), n, dec, 32, 64);
      } else {
        return DESC ? DeviceRadixSort::SortPairsDescending(t, bytes, k0.data(), k1.data(), v0.data(), v1.data(), n,
                                                           dec)
                    : DeviceRadixSort::SortPairs(t, bytes, k0.data(), k1.data(), v0.data(), v1.data(), n, dec);
      }
    } else {
      if constexpr (BITS) {
        return DESC ? DeviceRadixSort::SortKeysDescending(t, bytes, k0.data(), k1.data(), n, dec, 32, 64)
                    : DeviceRadixSort::SortKeys(t, bytes, k0.data(), k1.data(), n, dec, 32, 64);
      } else {
        return DESC ? DeviceRadixSort::SortKeysDescending(t, bytes, k0.data(), k1.data(), n, dec)
                    : DeviceRadixSort::SortKeys(t, bytes, k0.data(), k1.data(), n, dec);
      }
    }
  });
  const auto order = reference(keys, BITS ? 32 : 0, 64, DESC);
  const bool first = DB ? kb.selector == 0 : false;  // pointers: the output is d_buffers[1]
  require_order((first ? k0 : k1).download(), keys, order);
  if constexpr (PAIRS) {
    REQUIRE((!DB || vb.selector == kb.selector));
    const auto v = (first ? v0 : v1).download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == u32(order[i]));
  }
}

template <bool PAIRS, bool DESC>
void check_decomposer_forms(const std::vector<cell_depth>& keys) {
  check_decomposer_form<PAIRS, DESC, false, false>(keys);
  check_decomposer_form<PAIRS, DESC, false, true>(keys);
  check_decomposer_form<PAIRS, DESC, true, false>(keys);
  check_decomposer_form<PAIRS, DESC, true, true>(keys);
}

}  // namespace

TEST_CASE("DeviceRadixSort: each of the 16 decomposer overloads once", "[cub][decomposer]") {
  const auto keys = cell_keys(1500);
  check_decomposer_forms<false, false>(keys);
  check_decomposer_forms<false, true>(keys);
  check_decomposer_forms<true, false>(keys);
  check_decomposer_forms<true, true>(keys);
}

TEST_CASE("DeviceRadixSort: CUB's decomposer overloads (custom keys), every form", "[cub][decomposer]") {
  const std::size_t n = 5000;
  const auto keys = cell_keys(n);
  std::vector<u32> positions(n);
  for (std::size_t i = 0; i < n; ++i) positions[i] = u32(i);
  std::size_t bytes = 0;
  {  // pointer forms: keys whole, keys descending by the cell only, pairs by the depth only
    ringsweep_test::device_buffer<cell_depth> in(keys), out(n);
    two_phase(bytes,
              [&](void* t) { return DeviceRadixSort::SortKeys(t, bytes, in.data(), out.data(), n, by_cell_depth{}); });
    require_order(out.download(), keys, reference(keys, 0, 64, false));
    two_phase(bytes, [&](void* t) {
      return DeviceRadixSort::SortKeysDescending(t, bytes, in.data(), out.data(), int(n), by_cell_depth{}, 32, 64);
    });
    require_order(out.download(), keys, reference(keys, 32, 64, true));
    ringsweep_test::device_buffer<u32> vin(positions), vout(n);
    two_phase(bytes, [&](void* t) {
      return DeviceRadixSort::SortPairs(t, bytes, in.data(), out.data(), vin.data(), vout.data(), n, by_cell_depth{}, 0,
                                        32, cudaStream_t(0));
    });
    const auto by_depth = reference(keys, 0, 32, false);
    require_order(out.download(), keys, by_depth);
    const auto v = vout.download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == u32(by_depth[i]));
    two_phase(bytes, [&](void* t) {
      return DeviceRadixSort::SortPairsDescending(t, bytes, in.data(), out.data(), vin.data(), vout.data(), n,
                                                  by_cell_depth{});
    });
    require_order(out.download(), keys, reference(keys, 0, 64, true));
    REQUIRE(ringsweep_test::same_bytes(in.download()[n / 2], keys[n / 2]));  // the input is left alone
  }
  {  // double buffers: ringsweep's, ringsweep::double_buffer's layout, and (GPU build) CUB's
    ringsweep_test::device_buffer<cell_depth> k0(keys), k1(n);
    ringsweep_test::device_buffer<u32> v0(positions), v1(n);
    ringsweep::DoubleBuffer<cell_depth> kb(k0.data(), k1.data());
    ringsweep::DoubleBuffer<u32> vb(v0.data(), v1.data());
    two_phase(bytes, [&](void* t) {
      return DeviceRadixSort::SortPairsDescending(t, bytes, kb, vb, n, by_cell_depth{}, 32, 64);
    });
    const auto order = reference(keys, 32, 64, true);
    require_order((kb.selector == 0 ? k0 : k1).download(), keys, order);
    const auto v = (vb.selector == 0 ? v0 : v1).download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == u32(order[i]));
    ringsweep_test::device_buffer<cell_depth> a(keys), b(n);
    ringsweep::double_buffer<cell_depth> db(a.data(), b.data());
    two_phase(bytes, [&](void* t) { return DeviceRadixSort::SortKeys(t, bytes, db, n, by_cell_depth{}); });
    require_order((db.selector == 0 ? a : b).download(), keys, reference(keys, 0, 64, false));
    const auto sorted = (db.selector == 0 ? a : b).download();  // the input of the next sort: the whole order
    two_phase(bytes,
              [&](void* t) { return DeviceRadixSort::SortKeysDescending(t, bytes, db, n, by_cell_depth{}, 0, 32); });
    require_order((db.selector == 0 ? a : b).download(), sorted, reference(sorted, 0, 32, true));
#if defined(RINGSWEEP_VARIANT_GPU)
    // CUB's own decomposer sort of the same keys, through cub::DoubleBuffer: the same bytes.
    ringsweep_test::device_buffer<cell_depth> c0(keys), c1(n);
    ringsweep_test::device_buffer<u32> w0(positions), w1(n);
    cub::DoubleBuffer<cell_depth> ck(c0.data(), c1.data());
    cub::DoubleBuffer<u32> cv(w0.data(), w1.data());
    two_phase(bytes,
              [&](void* t) { return cub::DeviceRadixSort::SortPairs(t, bytes, ck, cv, int(n), by_cell_depth{}); });
    ringsweep_test::device_buffer<cell_depth> r0(keys), r1(n);
    ringsweep_test::device_buffer<u32> x0(positions), x1(n);
    cub::DoubleBuffer<cell_depth> rk(r0.data(), r1.data());
    cub::DoubleBuffer<u32> rv(x0.data(), x1.data());
    two_phase(bytes, [&](void* t) { return DeviceRadixSort::SortPairs(t, bytes, rk, rv, int(n), by_cell_depth{}); });
    const auto cub_keys = (ck.selector == 0 ? c0 : c1).download();
    require_order(cub_keys, keys, reference(keys, 0, 64, false));
    require_order((rk.selector == 0 ? r0 : r1).download(), keys, reference(keys, 0, 64, false));
    REQUIRE((cv.selector == 0 ? w0 : w1).download() == (rv.selector == 0 ? x0 : x1).download());
#endif
  }
  {  // a window past the fields: invalid, nothing written
    ringsweep_test::device_buffer<cell_depth> in(keys), out(n);
    out.fill_bytes(0x3C);
    std::size_t q = 0;
    REQUIRE(DeviceRadixSort::SortKeys(nullptr, q, in.data(), out.data(), n, by_cell_depth{}, 0, 65) ==
            cudaErrorInvalidValue);
    const auto after = out.download();
    std::vector<unsigned char> raw(after.size() * sizeof(cell_depth));
    std::memcpy(raw.data(), after.data(), raw.size());
    REQUIRE(std::all_of(raw.begin(), raw.end(), [](unsigned char c) { return c == 0x3C; }));
  }
}
