// ringsweep/cub.cuh's segmented sorts: cub::DeviceSegmentedRadixSort's and
// cub::DeviceSegmentedSort's names, argument orders and defaults. The same calls run through
// ringsweep's classes and, in the GPU build, through CUB's own on the same data (one program built
// against both); each result is checked against std::stable_sort per segment, and positions outside
// every segment must stay unwritten.
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>

#if defined(RINGSWEEP_VARIANT_GPU)
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- the signatures are CUB's ----------------------------------------------------------------------

using radix_keys_fn = cudaError_t (*)(void*, std::size_t&, const u64*, u64*, int, int, const int*, const int*, int,
                                      int, cudaStream_t);
using radix_pairs_db_fn = cudaError_t (*)(void*, std::size_t&, ringsweep::DoubleBuffer<u64>&,
                                          ringsweep::DoubleBuffer<u32>&, int, int, const int*, const int*, int, int,
                                          cudaStream_t);
using sort_keys_fn = cudaError_t (*)(void*, std::size_t&, const u32*, u32*, long long, int, const long long*,
                                     const long long*, cudaStream_t);
[[maybe_unused]] constexpr radix_keys_fn radix_keys =
    &ringsweep::DeviceSegmentedRadixSort::SortKeys<u64, int, int, const int*, const int*>;
[[maybe_unused]] constexpr radix_keys_fn radix_keys_desc =
    &ringsweep::DeviceSegmentedRadixSort::SortKeysDescending<u64, int, int, const int*, const int*>;
[[maybe_unused]] constexpr radix_pairs_db_fn radix_pairs_db =
    &ringsweep::DeviceSegmentedRadixSort::SortPairs<ringsweep::DoubleBuffer, ringsweep::DoubleBuffer, u64, u32, int,
                                                    int, const int*, const int*>;
[[maybe_unused]] constexpr sort_keys_fn stable_keys =
    &ringsweep::DeviceSegmentedSort::StableSortKeys<u32, long long, int, const long long*, const long long*>;

#if defined(RINGSWEEP_VARIANT_GPU)
template <class T>
using buffers_of = cub::DoubleBuffer<T>;
#else
template <class T>
using buffers_of = ringsweep::DoubleBuffer<T>;
#endif

/// Segments over `n` keys: in reverse order, with gaps, empty ones, one of a single key, and
/// sizes on both sides of the shipped policies' tile (a few thousand keys).
struct layout {
  std::size_t n = 0;
  std::vector<int> begin, end;
  layout() {
    const std::size_t sizes[] = {0, 1, 7, 128, 129, 3000, 9216, 9217, 20000, 2};
    for (std::size_t s : sizes) {
      n += 3;
      begin.insert(begin.begin(), int(n));
      end.insert(end.begin(), int(n + s));
      n += s;
    }
    n += 3;
  }
};

/// The expected output of a segmented sort of `keys` with `opts`: per position, the input index
/// whose key (and value) lands there, or ~0 where no segment is.
std::vector<std::size_t> expected(const std::vector<u32>& keys, const layout& l, const ringsweep::sort_options& opts) {
  std::vector<std::size_t> from(keys.size(), ~std::size_t(0));
  for (std::size_t i = 0; i < l.begin.size(); ++i) {
    const std::vector<u32> part(keys.begin() + l.begin[i], keys.begin() + l.end[i]);
    const auto order = ringsweep_test::reference_order(part, opts);
    for (std::size_t j = 0; j < order.size(); ++j) from[l.begin[i] + j] = l.begin[i] + order[j];
  }
  return from;
}

/// Checks keys (and values: the input index) against `from`; 0xAB bytes where no segment is.
void check(const std::vector<u32>& keys, const std::vector<std::size_t>& from, const std::vector<u32>& got_keys,
           const std::vector<u32>* got_values) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    INFO("position " << i);
    const u32 want_key = from[i] == ~std::size_t(0) ? 0xABABABABu : keys[from[i]];
    const u32 want_value = from[i] == ~std::size_t(0) ? 0xABABABABu : u32(from[i]);
    REQUIRE(got_keys[i] == want_key);
    if (got_values != nullptr) REQUIRE((*got_values)[i] == want_value);
  }
}

/// Every pointer-form function of `Api` (DeviceSegmentedRadixSort's or CUB's), with `window`.
template <class Api>
void radix_pointer_forms(const std::vector<u32>& keys, const layout& l, int begin_bit, int end_bit) {
  ringsweep_test::device_buffer<u32> kin(keys), kout(l.n), vout(l.n);
  std::vector<u32> index(l.n);
  for (std::size_t i = 0; i < l.n; ++i) index[i] = u32(i);
  ringsweep_test::device_buffer<u32> vin(index);
  ringsweep_test::device_buffer<int> b(l.begin), e(l.end);
  const int n = int(l.n), s = int(l.begin.size());
  for (bool descending : {false, true}) {
    for (bool pairs : {false, true}) {
      INFO((descending ? "descending" : "ascending") << (pairs ? " pairs" : " keys") << ", bits [" << begin_bit << ", "
                                                     << end_bit << ")");
      kout.fill_bytes(0xAB);
      vout.fill_bytes(0xAB);
      std::size_t bytes = 0;
      const auto sort = [&](void* temp) {
        if (pairs) {
          return descending ? Api::SortPairsDescending(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                       s, b.data(), e.data(), begin_bit, end_bit)
                            : Api::SortPairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, s,
                                             b.data(), e.data(), begin_bit, end_bit);
        }
        return descending ? Api::SortKeysDescending(temp, bytes, kin.data(), kout.data(), n, s, b.data(), e.data(),
                                                    begin_bit, end_bit)
                          : Api::SortKeys(temp, bytes, kin.data(), kout.data(), n, s, b.data(), e.data(), begin_bit,
                                          end_bit);
      };
      REQUIRE_CUDA(sort(nullptr));
      ringsweep_test::device_bytes temp(bytes);
      REQUIRE_CUDA(sort(temp.data()));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      ringsweep::sort_options opts;
      opts.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
      opts.begin_bit = begin_bit;
      opts.end_bit = end_bit;
      const auto values = vout.download();
      check(keys, expected(keys, l, opts), kout.download(), pairs ? &values : nullptr);
    }
  }
}

/// DeviceSegmentedSort's eight pointer forms (no bit window; Sort* and StableSort* both stable).
template <class Api>
void sort_pointer_forms(const std::vector<u32>& keys, const layout& l) {
  ringsweep_test::device_buffer<u32> kin(keys), kout(l.n), vout(l.n);
  std::vector<u32> index(l.n);
  for (std::size_t i = 0; i < l.n; ++i) index[i] = u32(i);
  ringsweep_test::device_buffer<u32> vin(index);
  ringsweep_test::device_buffer<int> b(l.begin), e(l.end);
  const int n = int(l.n), s = int(l.begin.size());
  for (int variant = 0; variant < 8; ++variant) {
    const bool descending = (variant & 1) != 0, pairs = (variant & 2) != 0, stable = (variant & 4) != 0;
    INFO((stable ? "Stable" : "") << (pairs ? "SortPairs" : "SortKeys") << (descending ? "Descending" : ""));
    kout.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
    std::size_t bytes = 0;
    const auto sort = [&](void* temp) {
      u32 *ki = kin.data(), *ko = kout.data(), *vi = vin.data(), *vo = vout.data();
      const int *bb = b.data(), *ee = e.data();
      switch (variant) {
        case 0: return Api::SortKeys(temp, bytes, ki, ko, n, s, bb, ee);
        case 1: return Api::SortKeysDescending(temp, bytes, ki, ko, n, s, bb, ee);
        case 2: return Api::SortPairs(temp, bytes, ki, ko, vi, vo, n, s, bb, ee);
        case 3: return Api::SortPairsDescending(temp, bytes, ki, ko, vi, vo, n, s, bb, ee);
        case 4: return Api::StableSortKeys(temp, bytes, ki, ko, n, s, bb, ee);
        case 5: return Api::StableSortKeysDescending(temp, bytes, ki, ko, n, s, bb, ee);
        case 6: return Api::StableSortPairs(temp, bytes, ki, ko, vi, vo, n, s, bb, ee);
        default: return Api::StableSortPairsDescending(temp, bytes, ki, ko, vi, vo, n, s, bb, ee);
      }
    };
    REQUIRE_CUDA(sort(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(sort(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    ringsweep::sort_options opts;
    opts.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
    const auto values = vout.download();
    // CUB's unstable SortKeys/SortPairs may order equal keys differently: compare values only when
    // the keys are distinct or the sort is stable (ringsweep's always is).
    const bool order_known = stable || std::is_same<Api, ringsweep::DeviceSegmentedSort>::value;
    check(keys, expected(keys, l, opts), kout.download(), pairs && order_known ? &values : nullptr);
  }
}

/// Every double-buffer form of `Api`: SortKeys, SortPairs and their Descending variants, with
/// `SORT_API` (DeviceSegmentedSort's) the StableSort* ones too, and without it (DeviceSegmentedRadixSort's)
/// once more with the bit window [4, 20). The result is in Current() after the call, with the
/// selectors' meaning CUB's (ringsweep's always flip to the alternate buffers).
template <class Api, bool SORT_API>
void double_buffer_forms(const std::vector<u32>& keys, const layout& l) {
  std::vector<u32> index(l.n);
  for (std::size_t i = 0; i < l.n; ++i) index[i] = u32(i);
  ringsweep_test::device_buffer<int> b(l.begin), e(l.end);
  const int n = int(l.n), s = int(l.begin.size());
  constexpr bool ours = std::is_same<Api, ringsweep::DeviceSegmentedRadixSort>::value ||
                        std::is_same<Api, ringsweep::DeviceSegmentedSort>::value;
  for (int variant = 0; variant < 8; ++variant) {
    const bool descending = (variant & 1) != 0, pairs = (variant & 2) != 0;
    const bool stable = SORT_API && (variant & 4) != 0;  // DeviceSegmentedSort: StableSort*
    const bool window = !SORT_API && (variant & 4) != 0;  // DeviceSegmentedRadixSort: bits [4, 20)
    const int begin_bit = window ? 4 : 0, end_bit = window ? 20 : 32;
    INFO((stable ? "Stable" : "") << (pairs ? "SortPairs" : "SortKeys") << (descending ? "Descending" : "")
                                  << " (double buffer), bits [" << begin_bit << ", " << end_bit << ")");
    ringsweep_test::device_buffer<u32> k0(keys), k1(l.n), v0(index), v1(l.n);
    k1.fill_bytes(0xAB);
    v1.fill_bytes(0xAB);
    buffers_of<u32> kb(k0.data(), k1.data()), vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    const auto sort = [&](void* temp) -> cudaError_t {
      const int *bb = b.data(), *ee = e.data();
      if constexpr (SORT_API) {
        switch (variant) {
          case 0: return Api::SortKeys(temp, bytes, kb, n, s, bb, ee);
          case 1: return Api::SortKeysDescending(temp, bytes, kb, n, s, bb, ee);
          case 2: return Api::SortPairs(temp, bytes, kb, vb, n, s, bb, ee);
          case 3: return Api::SortPairsDescending(temp, bytes, kb, vb, n, s, bb, ee);
          case 4: return Api::StableSortKeys(temp, bytes, kb, n, s, bb, ee);
          case 5: return Api::StableSortKeysDescending(temp, bytes, kb, n, s, bb, ee);
          case 6: return Api::StableSortPairs(temp, bytes, kb, vb, n, s, bb, ee);
          default: return Api::StableSortPairsDescending(temp, bytes, kb, vb, n, s, bb, ee);
        }
      } else if (!window) {  // CUB's default window
        switch (variant) {
          case 0: return Api::SortKeys(temp, bytes, kb, n, s, bb, ee);
          case 1: return Api::SortKeysDescending(temp, bytes, kb, n, s, bb, ee);
          case 2: return Api::SortPairs(temp, bytes, kb, vb, n, s, bb, ee);
          default: return Api::SortPairsDescending(temp, bytes, kb, vb, n, s, bb, ee);
        }
      } else {
        switch (variant) {
          case 4: return Api::SortKeys(temp, bytes, kb, n, s, bb, ee, begin_bit, end_bit);
          case 5: return Api::SortKeysDescending(temp, bytes, kb, n, s, bb, ee, begin_bit, end_bit);
          case 6: return Api::SortPairs(temp, bytes, kb, vb, n, s, bb, ee, begin_bit, end_bit);
          default: return Api::SortPairsDescending(temp, bytes, kb, vb, n, s, bb, ee, begin_bit, end_bit);
        }
      }
    };
    REQUIRE_CUDA(sort(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(sort(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    std::vector<u32> got_keys(l.n), got_values(l.n);
    REQUIRE_CUDA(cudaMemcpy(got_keys.data(), kb.Current(), l.n * 4, cudaMemcpyDeviceToHost));
    REQUIRE_CUDA(cudaMemcpy(got_values.data(), vb.Current(), l.n * 4, cudaMemcpyDeviceToHost));
    ringsweep::sort_options opts;
    opts.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
    opts.begin_bit = begin_bit;
    opts.end_bit = end_bit;
    const auto from = expected(keys, l, opts);
    // CUB's unstable DeviceSegmentedSort::SortPairs may order equal keys (or keys equal within the
    // window) differently: values are compared where the order is known.
    const bool order_known = ours || stable || !SORT_API;
    // Positions outside every segment are unspecified in a double buffer (CUB's may hold either
    // buffer's bytes): compare inside the segments only.
    for (std::size_t i = 0; i < l.n; ++i) {
      if (from[i] == ~std::size_t(0)) continue;
      INFO("position " << i);
      REQUIRE(got_keys[i] == keys[from[i]]);
      if (pairs && order_known) REQUIRE(got_values[i] == u32(from[i]));
    }
    if (ours) {
      CHECK(kb.selector == 1);  // ringsweep's: always the alternate buffer
      if (pairs) CHECK(vb.selector == 1);
    }
  }
}

}  // namespace

TEST_CASE("DeviceSegmentedRadixSort: pointer forms, windows, both orders", "[cub][segmented]") {
  const layout l;
  const auto keys = ringsweep_test::make_keys<u32>(l.n, ringsweep_test::distribution::few_distinct, 11);
  radix_pointer_forms<ringsweep::DeviceSegmentedRadixSort>(keys, l, 0, 32);
  radix_pointer_forms<ringsweep::DeviceSegmentedRadixSort>(keys, l, 4, 20);
#if defined(RINGSWEEP_VARIANT_GPU)
  radix_pointer_forms<cub::DeviceSegmentedRadixSort>(keys, l, 0, 32);
  radix_pointer_forms<cub::DeviceSegmentedRadixSort>(keys, l, 4, 20);
#endif
}

TEST_CASE("DeviceSegmentedRadixSort: CUB's default window and stream", "[cub][segmented]") {
  const layout l;
  const auto keys = ringsweep_test::make_keys<u32>(l.n, ringsweep_test::distribution::uniform, 12);
  ringsweep_test::device_buffer<u32> kin(keys), kout(l.n);
  ringsweep_test::device_buffer<int> b(l.begin), e(l.end);
  kout.fill_bytes(0xAB);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, kin.data(), kout.data(), int(l.n),
                                                             int(l.begin.size()), b.data(), e.data()));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::DeviceSegmentedRadixSort::SortKeys(temp.data(), bytes, kin.data(), kout.data(), int(l.n),
                                                             int(l.begin.size()), b.data(), e.data()));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  check(keys, expected(keys, l, ringsweep::sort_options{}), kout.download(), nullptr);
}

TEST_CASE("DeviceSegmentedSort: the eight pointer forms", "[cub][segmented]") {
  const layout l;
  const auto keys = ringsweep_test::make_keys<u32>(l.n, ringsweep_test::distribution::few_distinct, 13);
  sort_pointer_forms<ringsweep::DeviceSegmentedSort>(keys, l);
#if defined(RINGSWEEP_VARIANT_GPU)
  sort_pointer_forms<cub::DeviceSegmentedSort>(keys, l);
#endif
}

TEST_CASE("Segmented double-buffer forms, every one of both classes: Current() holds the result", "[cub][segmented]") {
  const layout l;
  const auto keys = ringsweep_test::make_keys<u32>(l.n, ringsweep_test::distribution::uniform, 14);
  double_buffer_forms<ringsweep::DeviceSegmentedRadixSort, false>(keys, l);
  double_buffer_forms<ringsweep::DeviceSegmentedSort, true>(keys, l);
#if defined(RINGSWEEP_VARIANT_GPU)
  double_buffer_forms<cub::DeviceSegmentedRadixSort, false>(keys, l);
  double_buffer_forms<cub::DeviceSegmentedSort, true>(keys, l);
#endif
}

TEST_CASE("Segmented CUB names: negative counts are invalid, nothing written", "[cub][segmented][errors]") {
  const layout l;
  const auto keys = ringsweep_test::make_keys<u32>(l.n, ringsweep_test::distribution::uniform, 15);
  ringsweep_test::device_buffer<u32> kin(keys), kout(l.n);
  ringsweep_test::device_buffer<int> b(l.begin), e(l.end);
  kout.fill_bytes(0xAB);
  const auto before = kout.download();
  std::size_t bytes = 0;
  REQUIRE(ringsweep::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, kin.data(), kout.data(), -1, 3, b.data(),
                                                        e.data()) == cudaErrorInvalidValue);
  REQUIRE(ringsweep::DeviceSegmentedSort::SortKeys(nullptr, bytes, kin.data(), kout.data(), int(l.n), -2, b.data(),
                                                   e.data()) == cudaErrorInvalidValue);
  REQUIRE(ringsweep::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, kin.data(), kout.data(), int(l.n), 3,
                                                        b.data(), e.data(), 0, -5) == cudaErrorInvalidValue);
  REQUIRE(bytes == 0);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(ringsweep_test::same_keys(kout.download(), before));
}
