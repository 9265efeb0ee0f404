// Pairs whose values are not 1, 2, 4, 8 or 16 bytes (3 to 64 bytes, an over-aligned one): sorted
// as positions and gathered once (device/value_gather.cuh). Every form (in/out, double buffer, in
// place), both orders, a bit window, stability (values carry their input index), sizes over the
// tiny policy's tile (192) and portion edges and the device policy's tile, segmented sorts with
// gaps, the CUB names with a float3-like value, and the size query against docs/temp_storage.md.
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>
#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <cstring>
#include <vector>

#if __has_include(<cuda/std/tuple>) && defined(__CUDACC__)
#include <cuda/std/tuple>
namespace tup = cuda::std;
#else
#include <tuple>
namespace tup = std;
#endif

#include "any_size_values.cuh"
#include "sort_test_util.cuh"

namespace {

using tiny = ringsweep_test::policy_tiny;
using ringsweep::sort_order;
using ringsweep_test::distribution;
using ringsweep_test::sort_options_of;
using u32 = std::uint32_t;

using namespace ringsweep_test::any_size;
static_assert(!ringsweep::detail::value_moves_whole<float3_like>::value, "a 12-byte value is gathered");
static_assert(ringsweep::detail::value_moves_whole<std::uint64_t>::value, "an 8-byte value rides the tiles");

/// Sizes over the tiny policy's edges: one key, a tile of argsort's u32 keys (192), one more, and
/// 21 tiles (three portions per pass).
const std::size_t sizes[] = {1, 191, 192, 193, 977, 3845};

/// The bytes docs/temp_storage.md promises the in/out, double-buffer and in-place (beside the
/// copies) forms of a gathered sort of `n` keys: the argsort's storage, then a(n * 4) of order.
/// `tile`: argsort's tile, `slots`: the policy's status slots, `passes`: the bit window's.
std::size_t promised_bytes(std::size_t n, std::size_t key_bytes, std::size_t tile, std::size_t slots, int passes) {
  const auto a = [](std::size_t x) { return (x + 255) / 256 * 256; };
  std::size_t sort = 256;
  if (n > tile && passes > 0) {
    sort = 256 + a(slots * 256 * 8) + a(passes * 256 * 8) + a(2 * passes * 256 * 8) + 256;
    if (passes >= 2) sort += a(n * key_bytes) + a(n * 4);
  }
  return sort + (n != 0 ? a(n * 4) : 0);
}

}  // namespace

TEMPLATE_TEST_CASE("pairs of any size: every form over tile and portion edges, u32 keys", "[sort][values]",
                   bytes_of<3>, bytes_of<5>, half3, float3_like, words5, position_index, words8x4, words12, words8x8,
                   aligned32) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : sizes) {
    const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, seed + n);
    ringsweep_test::check_sort_pairs<tiny, u32, TestType>(keys, sort_options_of(sort_order::ascending));
  }
  const auto keys = ringsweep_test::make_keys<u32>(977, distribution::few_distinct, seed);
  ringsweep_test::check_sort_pairs<tiny, u32, TestType>(keys, sort_options_of(sort_order::descending));
  ringsweep_test::check_sort_double_buffer<tiny, u32, TestType, true>(keys, sort_options_of(sort_order::ascending),
                                                                      1);
  ringsweep_test::check_sort_in_place<tiny, u32, TestType, true>(keys, sort_options_of(sort_order::descending));
}

TEMPLATE_TEST_CASE("pairs of any size: u8, u64 and float keys with a 12-byte value", "[sort][values]", std::uint8_t,
                   std::uint64_t, float) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (auto d : {distribution::uniform, distribution::few_distinct, distribution::all_equal}) {
    const auto keys = ringsweep_test::make_keys<TestType>(3845, d, seed);
    for (auto o : {sort_order::ascending, sort_order::descending}) {
      ringsweep_test::check_sort_pairs<tiny, TestType, float3_like>(keys, sort_options_of(o));
      ringsweep_test::check_sort_pairs<tiny, TestType, float3_like>(keys, sort_options_of(o, 3, 7));  // one pass
    }
    ringsweep_test::check_sort_double_buffer<tiny, TestType, float3_like, true>(keys, sort_options_of(sort_order::ascending, 2, 2 + 8 * sizeof(TestType) - 3));
    ringsweep_test::check_sort_in_place<tiny, TestType, float3_like, true>(keys, sort_options_of(sort_order::ascending));
  }
  // No pass (an empty window): the in/out form copies the pairs, the others leave them where they are.
  const auto keys = ringsweep_test::make_keys<TestType>(977, distribution::uniform, seed + 1);
  ringsweep_test::check_sort_pairs<tiny, TestType, float3_like>(keys, sort_options_of(sort_order::ascending, 4, 4));
  ringsweep_test::check_sort_double_buffer<tiny, TestType, float3_like, true>(
      keys, sort_options_of(sort_order::ascending, 4, 4), 0);
}

TEST_CASE("pairs of any size: the device's policy over its tile edge", "[sort][values]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (std::size_t n : {std::size_t(9216), std::size_t(9217), std::size_t(30000)}) {
    const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, seed + n);
    ringsweep_test::check_sort_pairs<ringsweep::detail::for_device, u32, position_index>(
        keys, sort_options_of(sort_order::ascending));
  }
  const auto keys = ringsweep_test::make_keys<u32>(30000, distribution::few_distinct, seed);
  ringsweep_test::check_sort_double_buffer<ringsweep::detail::for_device, u32, position_index, true>(
      keys, sort_options_of(sort_order::descending), 1);
  ringsweep_test::check_sort_in_place<ringsweep::detail::for_device, u32, position_index, true>(
      keys, sort_options_of(sort_order::ascending));
}

TEST_CASE("pairs of any size: the size query is docs/temp_storage.md's formula", "[sort][values][temp]") {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(192), std::size_t(193), std::size_t(3845)}) {
    for (int window : {32, 8, 0}) {
      INFO("n " << n << ", bits [0, " << window << ")");
      const auto opts = sort_options_of(sort_order::ascending, 0, window);
      const int passes = (window + 7) / 8;
      std::size_t bytes = 1;
      REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, static_cast<const u32*>(nullptr),
                                                       static_cast<u32*>(nullptr),
                                                       static_cast<const float3_like*>(nullptr),
                                                       static_cast<float3_like*>(nullptr), n, opts));
      CHECK(bytes == promised_bytes(n, 4, 192, std::size_t(tiny::STATUS_SLOTS), passes));
      ringsweep::double_buffer<u32> kb(nullptr, nullptr);
      ringsweep::double_buffer<float3_like> vb(nullptr, nullptr);
      bytes = 1;
      REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kb, vb, n, opts));
      CHECK(bytes == promised_bytes(n, 4, 192, std::size_t(tiny::STATUS_SLOTS), passes));
    }
  }
  // Too little storage, a null or overlapping value array: cudaErrorInvalidValue, nothing written.
  const std::size_t n = 977;
  const auto keys = ringsweep_test::make_keys<u32>(n, distribution::uniform, 5);
  ringsweep_test::device_buffer<u32> kin(keys), kout(n);
  ringsweep_test::device_buffer<float3_like> vin(n), vout(n);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  ringsweep_test::device_bytes temp(bytes);
  std::size_t less = bytes - 1;
  CHECK(ringsweep::tuning::sort_pairs<tiny>(temp.data(), less, kin.data(), kout.data(), vin.data(), vout.data(), n) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                            static_cast<float3_like*>(nullptr), n) == cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vin.data() + 1,
                                            n) == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (u32 k : kout.download()) REQUIRE(k == 0xABABABABu);
  for (const float3_like& v : vout.download()) {
    unsigned char b[sizeof(v)];
    std::memcpy(b, &v, sizeof(v));
    for (unsigned char c : b) REQUIRE(c == 0xAB);
  }
}

namespace {

/// Segmented sorts of `position_index` / `bytes_of<3>` values with `Policy`: tiny, small and large
/// segments (the tiny policy: up to 128, up to 192, more), an empty one and gaps, in/out and double
/// buffer; positions outside every segment are never written, the inputs never.
template <class Policy, class Value>
void check_segmented(const std::vector<u32>& keys, const std::vector<int>& begins, const std::vector<int>& ends,
                     const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<Value>(i);
  // The reference: each segment's stable order; outside, the poison.
  std::vector<long long> from(n, -1);
  for (std::size_t s = 0; s < begins.size(); ++s) {
    const std::vector<u32> seg(keys.begin() + begins[s], keys.begin() + ends[s]);
    const auto order = ringsweep_test::reference_order(seg, opts);
    for (std::size_t i = 0; i < order.size(); ++i) from[std::size_t(begins[s]) + i] = begins[s] + static_cast<long long>(order[i]);
  }
  ringsweep_test::device_buffer<int> d_begin(begins), d_end(ends);
  const int segments = int(begins.size());
  for (bool double_buffer : {false, true}) {
    INFO((double_buffer ? "double buffer" : "in/out") << ", value of " << sizeof(Value) << " bytes, "
                                                      << ringsweep_test::order_name(opts));
    ringsweep_test::device_buffer<u32> k0(keys), k1(n);
    ringsweep_test::device_buffer<Value> v0(values), v1(n);
    k1.fill_bytes(0xAB);
    v1.fill_bytes(0xAB);
    ringsweep::double_buffer<u32> kb(k0.data(), k1.data());
    ringsweep::double_buffer<Value> vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    const auto call = [&](void* temp) {
      if (double_buffer) {
        return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, kb, vb, n, std::size_t(segments),
                                                               d_begin.data(), d_end.data(), opts);
      }
      return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, k0.data(), k1.data(), v0.data(), v1.data(),
                                                             n, std::size_t(segments), d_begin.data(), d_end.data(),
                                                             opts);
    };
    REQUIRE_CUDA(call(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    if (double_buffer) {
      REQUIRE(kb.selector == 1);
      REQUIRE(vb.selector == 1);
    }
    const auto got_keys = k1.download();
    const auto got_values = v1.download();
    Value poison;
    std::memset(&poison, 0xAB, sizeof(Value));
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i << ", from " << from[i]);
      if (from[i] < 0) {
        REQUIRE(got_keys[i] == 0xABABABABu);
        REQUIRE(ringsweep_test::same_bytes(got_values[i], poison));
      } else {
        REQUIRE(got_keys[i] == keys[std::size_t(from[i])]);
        REQUIRE(ringsweep_test::same_bytes(got_values[i], values[std::size_t(from[i])]));
      }
    }
    REQUIRE(ringsweep_test::same_keys(k0.download(), keys));
    const auto inputs = v0.download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(ringsweep_test::same_bytes(inputs[i], values[i]));
  }
}

}  // namespace

TEST_CASE("pairs of any size: segmented, every segment class, gaps untouched", "[sort][values][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 2600;
  const auto keys = ringsweep_test::make_keys<u32>(n, distribution::few_distinct, seed);
  // tiny [0, 5), gap, tiny [10, 140), small [150, 340), gap, large [400, 1400), empty, large
  // [1400, 2500) next to it, gap to n.
  const std::vector<int> begins = {0, 10, 150, 400, 1400, 1400};
  const std::vector<int> ends = {5, 140, 340, 1400, 1400, 2500};
  check_segmented<tiny, position_index>(keys, begins, ends, sort_options_of(sort_order::ascending));
  check_segmented<tiny, bytes_of<3>>(keys, begins, ends, sort_options_of(sort_order::descending, 2, 19));
}

TEST_CASE("pairs of any size: CUB's names with a float3-like value", "[sort][values][cub]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 9300;  // over the device policy's tile
  const auto keys = ringsweep_test::make_keys<u32>(n, distribution::few_distinct, seed);
  std::vector<float3_like> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<float3_like>(i);
  const auto check = [&](const std::vector<u32>& got_keys, const std::vector<float3_like>& got_values,
                         const ringsweep::sort_options& opts) {
    const auto order = ringsweep_test::reference_order(keys, opts);
    REQUIRE(ringsweep_test::first_key_mismatch(got_keys, keys, order) == -1);
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i);
      REQUIRE(ringsweep_test::same_bytes(got_values[i], values[order[i]]));
    }
  };
  {  // DeviceRadixSort::SortPairs, pointers, a bit window.
    ringsweep_test::device_buffer<u32> kin(keys), kout(n);
    ringsweep_test::device_buffer<float3_like> vin(values), vout(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(),
                                                       int(n), 3, 29));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                       vout.data(), int(n), 3, 29));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    check(kout.download(), vout.download(), sort_options_of(sort_order::ascending, 3, 29));
  }
  {  // SortPairsDescending, DoubleBuffer.
    ringsweep_test::device_buffer<u32> k0(keys), k1(n);
    ringsweep_test::device_buffer<float3_like> v0(values), v1(n);
    ringsweep::DoubleBuffer<u32> kb(k0.data(), k1.data());
    ringsweep::DoubleBuffer<float3_like> vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairsDescending(nullptr, bytes, kb, vb, n));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(ringsweep::DeviceRadixSort::SortPairsDescending(temp.data(), bytes, kb, vb, n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(kb.selector == vb.selector);
    check((kb.selector == 0 ? k0 : k1).download(), (vb.selector == 0 ? v0 : v1).download(),
          sort_options_of(sort_order::descending));
  }
  // The segmented names: two segments covering all keys, each checked against its own order.
  const std::vector<int> offsets = {0, 100, int(n)};
  ringsweep_test::device_buffer<int> d_offsets(offsets);
  for (int which : {0, 1}) {
    INFO((which == 0 ? "DeviceSegmentedRadixSort::SortPairs" : "DeviceSegmentedSort::StableSortPairsDescending"));
    ringsweep_test::device_buffer<u32> kin(keys), kout(n);
    ringsweep_test::device_buffer<float3_like> vin(values), vout(n);
    std::size_t bytes = 0;
    const auto call = [&](void* temp) {
      if (which == 0) {
        return ringsweep::DeviceSegmentedRadixSort::SortPairs(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                              vout.data(), int(n), 2, d_offsets.data(),
                                                              d_offsets.data() + 1);
      }
      return ringsweep::DeviceSegmentedSort::StableSortPairsDescending(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                                       vout.data(), int(n), 2, d_offsets.data(),
                                                                       d_offsets.data() + 1);
    };
    REQUIRE_CUDA(call(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto opts = sort_options_of(which == 0 ? sort_order::ascending : sort_order::descending);
    const auto got_keys = kout.download();
    const auto got_values = vout.download();
    for (int s = 0; s < 2; ++s) {
      const std::vector<u32> seg(keys.begin() + offsets[s], keys.begin() + offsets[s + 1]);
      const auto order = ringsweep_test::reference_order(seg, opts);
      for (std::size_t i = 0; i < order.size(); ++i) {
        INFO("segment " << s << ", position " << i);
        REQUIRE(got_keys[std::size_t(offsets[s]) + i] == seg[order[i]]);
        REQUIRE(ringsweep_test::same_bytes(got_values[std::size_t(offsets[s]) + i],
                                           values[std::size_t(offsets[s]) + order[i]]));
      }
    }
  }
}

TEST_CASE("pairs of any size: a count on the device", "[sort][values][count]") {
  // max_n 977 (several tiles of the tiny policy), the device's count 900: the first 900 pairs are
  // sorted, positions from 900 on are never written.
  const std::size_t max_n = 977, count = 900;
  const auto keys = ringsweep_test::make_keys<u32>(max_n, distribution::few_distinct, ringsweep_test::catch_seed());
  std::vector<words5> values(max_n);
  for (std::size_t i = 0; i < max_n; ++i) values[i] = ringsweep_test::value_of_index<words5>(i);
  ringsweep_test::device_buffer<u32> kin(keys), kout(max_n);
  ringsweep_test::device_buffer<words5> vin(values), vout(max_n);
  ringsweep_test::device_buffer<int> d_n(std::vector<int>{int(count)});
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const ringsweep::device_count<int> n{d_n.data(), max_n};
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  CHECK(bytes == promised_bytes(max_n, 4, 192, std::size_t(tiny::STATUS_SLOTS), 4));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(
      ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<u32> head(keys.begin(), keys.begin() + long(count));
  const auto order = ringsweep_test::reference_order(head, sort_options_of(sort_order::ascending));
  const auto got_keys = kout.download();
  const auto got_values = vout.download();
  words5 poison;
  std::memset(&poison, 0xAB, sizeof(poison));
  for (std::size_t i = 0; i < max_n; ++i) {
    INFO("position " << i);
    if (i < count) {
      REQUIRE(got_keys[i] == head[order[i]]);
      REQUIRE(ringsweep_test::same_bytes(got_values[i], values[order[i]]));
    } else {
      REQUIRE(got_keys[i] == 0xABABABABu);
      REQUIRE(ringsweep_test::same_bytes(got_values[i], poison));
    }
  }
}

namespace {

struct cell_key {  // sorted by its cell; the depth rides along as part of the key's bytes
  std::uint32_t cell;
  float depth;
};
struct by_cell {
  __host__ __device__ tup::tuple<std::uint32_t&> operator()(cell_key& k) const { return {k.cell}; }
};

}  // namespace

TEST_CASE("pairs of any size: custom keys through a decomposer", "[sort][values][decomposer]") {
  const std::size_t n = 977;
  const auto cells = ringsweep_test::make_keys<u32>(n, distribution::few_distinct, ringsweep_test::catch_seed());
  std::vector<cell_key> keys(n);
  std::vector<float3_like> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = {cells[i], float(i)};
    values[i] = ringsweep_test::value_of_index<float3_like>(i);
  }
  const auto order = ringsweep_test::reference_order(cells, sort_options_of(sort_order::descending));
  ringsweep_test::device_buffer<cell_key> kin(keys), kout(n);
  ringsweep_test::device_buffer<float3_like> vin(values), vout(n);
  ringsweep::sort_options desc;
  desc.order = sort_order::descending;
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                   by_cell{}, desc));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                   vout.data(), n, by_cell{}, desc));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got_keys = kout.download();
  const auto got_values = vout.download();
  for (std::size_t i = 0; i < n; ++i) {
    INFO("position " << i);
    REQUIRE(ringsweep_test::same_bytes(got_keys[i], keys[order[i]]));
    REQUIRE(ringsweep_test::same_bytes(got_values[i], values[order[i]]));
  }
}
