// Top-k pairs whose values are not 1, 2, 4, 8 or 16 bytes (3, 12, 24 and 64 bytes, an over-aligned
// one): the select with positions as values and one gather of the winners' values
// (device/top_k_dispatch.cuh), k = n through the gathered sort, and the segmented form's indices
// plus one gather (device/segmented_top_k_dispatch.cuh). Each value carries its input position,
// the keys are few and repeated (stability), both orders; the reference is the first k of
// std::stable_sort. n crosses policy_tiny's select tile (128) and sort tile (192); rows cross the
// segmented sort's tile, k the long rows' copy; the segmented size query against top_k.cuh.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <cstring>
#include <vector>

#include "any_size_values.cuh"
#include "sort_test_util.cuh"

namespace {

using tiny = ringsweep_test::policy_tiny;
using ringsweep::sort_order;
using u32 = std::uint32_t;

using namespace ringsweep_test::any_size;

/// Value `i`'s bytes: its position spread over every byte (distinct for i < 2^24 at 3 bytes).
template <class Value>
Value value_of(std::size_t i) {
  Value v;
  unsigned char* b = reinterpret_cast<unsigned char*>(&v);
  for (std::size_t j = 0; j < sizeof(Value); ++j) b[j] = (unsigned char)((i >> (8 * (j % 3))) + 7 * (j / 3));
  return v;
}
using ringsweep_test::same_bytes;

std::vector<u32> repeated_keys(std::size_t n, u32 distinct) {
  std::vector<u32> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = u32((i * 2654435761u) >> 7) % distinct;
  return keys;
}

template <class Value>
void check_top_k_pairs(std::size_t n, std::size_t k, sort_order order) {
  INFO("value bytes " << sizeof(Value) << ", n " << n << ", k " << k << ", " << (order == sort_order::descending ? "descending" : "ascending"));
  const ringsweep::sort_options opts{order};
  const auto keys = repeated_keys(n, 23);
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of<Value>(i);
  const auto ref = ringsweep_test::reference_order(keys, opts);
  ringsweep_test::device_buffer<u32> kin(keys), kout(k + 1);
  ringsweep_test::device_buffer<Value> vin(values), vout(k + 1);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const auto call = [&](void* t, std::size_t& b) {
    return ringsweep::tuning::top_k_pairs<tiny>(t, b, kin.data(), kout.data(), vin.data(), vout.data(), n, k, opts);
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got_k = kout.download();
  const auto got_v = vout.download();
  for (std::size_t i = 0; i < k; ++i) {
    INFO("output " << i << " should be input position " << ref[i]);
    REQUIRE(got_k[i] == keys[ref[i]]);
    REQUIRE(same_bytes(got_v[i], values[ref[i]]));
  }
  Value poison;
  std::memset(static_cast<void*>(&poison), 0xAB, sizeof(Value));
  CHECK(same_bytes(got_v[k], poison));  // nothing past k
  REQUIRE(vin.download().size() == n);
}

template <class Value>
void check_top_k_pairs_all() {
  for (sort_order order : {sort_order::ascending, sort_order::descending}) {
    check_top_k_pairs<Value>(1000, 1, order);
    check_top_k_pairs<Value>(1000, 193, order);
    check_top_k_pairs<Value>(1000, 1000, order);  // k = n: the gathered sort
  }
}

/// Rows: empty, short, at and past the segmented sort's tile, long; a gap before the last.
template <class Value>
void check_segmented(std::size_t k, sort_order order) {
  INFO("segmented, value bytes " << sizeof(Value) << ", k " << k << ", "
                                 << (order == sort_order::descending ? "descending" : "ascending"));
  const ringsweep::sort_options opts{order};
  const std::vector<std::size_t> begin{0, 0, 5, 196, 390, 1100}, end{0, 5, 196, 390, 1090, 1500};
  const std::size_t n = 1500, segments = begin.size();
  const auto keys = repeated_keys(n, 11);
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of<Value>(i);
  std::vector<int> b32(begin.begin(), begin.end()), e32(end.begin(), end.end());
  ringsweep_test::device_buffer<int> d_begin(b32), d_end(e32);
  ringsweep_test::device_buffer<u32> kin(keys), kout(segments * k);
  ringsweep_test::device_buffer<Value> vin(values), vout(segments * k);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const auto call = [&](void* t, std::size_t& b) {
    return ringsweep::tuning::segmented_top_k_pairs<tiny>(t, b, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                          segments, d_begin.data(), d_end.data(), k, opts);
  };
  std::size_t bytes = 0, indices_bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  REQUIRE_CUDA(ringsweep::tuning::segmented_top_k_indices<tiny>(nullptr, indices_bytes, kin.data(), kout.data(),
                                                                static_cast<u32*>(nullptr), n, segments,
                                                                d_begin.data(), d_end.data(), k, opts));
  // top_k.cuh: the indices form's storage (std::uint32_t positions) + a(4 segments k).
  CHECK(bytes == indices_bytes + (segments * k * 4 + 255) / 256 * 256);
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got_k = kout.download();
  const auto got_v = vout.download();
  Value poison;
  std::memset(static_cast<void*>(&poison), 0xAB, sizeof(Value));
  for (std::size_t s = 0; s < segments; ++s) {
    const std::vector<u32> row(keys.begin() + std::ptrdiff_t(begin[s]), keys.begin() + std::ptrdiff_t(end[s]));
    const auto ref = ringsweep_test::reference_order(row, opts);
    for (std::size_t j = 0; j < k; ++j) {
      INFO("segment " << s << ", slot " << j);
      if (j < row.size()) {
        REQUIRE(got_k[s * k + j] == row[ref[j]]);
        REQUIRE(same_bytes(got_v[s * k + j], values[begin[s] + ref[j]]));
      } else {
        REQUIRE(same_bytes(got_v[s * k + j], poison));  // past the row: untouched
      }
    }
  }
}

template <class Value>
void check_segmented_all() {
  for (sort_order order : {sort_order::ascending, sort_order::descending}) {
    check_segmented<Value>(3, order);
    check_segmented<Value>(250, order);  // more than a sort tile: the long rows' copy
  }
}

}  // namespace

TEST_CASE("top_k_pairs moves values of any size", "[top_k][any_size]") {
  check_top_k_pairs_all<bytes_of<3>>();
  check_top_k_pairs_all<float3_like>();
  check_top_k_pairs_all<position_index>();
  check_top_k_pairs_all<words8x8>();
  check_top_k_pairs_all<aligned32>();
}

TEST_CASE("segmented_top_k_pairs moves values of any size", "[top_k][any_size][segmented]") {
  check_segmented_all<bytes_of<3>>();
  check_segmented_all<float3_like>();
  check_segmented_all<position_index>();
  check_segmented_all<words8x8>();
  check_segmented_all<aligned32>();
}
