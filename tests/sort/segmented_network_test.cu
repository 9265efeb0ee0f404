// Tiny segments sorted by the sub-warp network (agent/subwarp_sort.cuh) with the device's policy:
// sizes at every edge of its classes (1 to 32 lanes of 16 keys for images of at most 32 bits, of
// 8 keys for 64-bit ones, of 4 for wider custom keys, the tiny limit, the medium and small classes above it), every key type, both orders,
// bit windows, -0.0 / +0.0 and NaNs, many equal keys (stability through the values), mixed
// layouts with gaps that must stay unwritten. Reference: std::stable_sort per segment.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
#endif

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define NETWORK_TEST_CUDA_STD_TUPLE 1
#endif
#endif
#include <tuple>

namespace {

using ringsweep::sort_order;
using ringsweep_test::sort_options_of;

/// Keys per lane of the network for an image of `BITS` bits (16 up to 32, 8 up to 64, 4 above).
template <int BITS>
constexpr std::size_t lane_keys() {
  return BITS <= 32 ? 16 : BITS <= 64 ? 8 : 4;
}
/// Keys per thread of policy_defaults' compact and medium blocks (64 x 16 and 256 x 16 4-byte keys
/// in 4,096 and 16,384 bytes: onesweep_shape::fit) for keys of `bytes` bytes.
constexpr std::size_t block_keys(std::size_t bytes) { return bytes <= 4 ? 16 : 64 / bytes < 16 ? 64 / bytes : 16; }

/// Sizes at the network's edges for `Key` (an image of `BITS` bits): 0, 1, 2, 3, half a lane's
/// keys -1, +0, +1 (the one-lane class), each class's size -1, +0, +1 (lanes x keys per lane), a
/// lane's keys +-1, past the tiny limit (the compact class: policy_defaults'
/// segment_compact_block tile of 64 x 16 4-byte, 64 x 8 8-byte, 64 x 5 12-byte or 64 x 4 16-byte
/// keys +-1, and 600 keys; the medium class: its segment_block tile of 256 x 16, 8, 5 or 4 keys,
/// and one past it: the small class).
template <class Key, int BITS = ringsweep::key_traits<Key>::bits>
std::vector<std::size_t> network_edges() {
  const std::size_t items = lane_keys<BITS>();
  // Half a lane's keys -1, +0, +1: the one-lane class (32 segments at once by the smaller network).
  std::vector<std::size_t> sizes = {0, 1, 2, 3, items / 2 - 1, items / 2, items / 2 + 1};
  for (std::size_t lanes = 1; lanes <= 32; lanes *= 2) {
    sizes.push_back(lanes * items - 1);
    sizes.push_back(lanes * items);
    sizes.push_back(lanes * items + 1);
  }
  const std::size_t compact = 64 * block_keys(sizeof(Key));
  const std::size_t medium = 256 * block_keys(sizeof(Key));
  for (std::size_t s : {std::size_t(600), compact - 1, compact, compact + 1, medium - 1, medium, medium + 1})
    sizes.push_back(s);
  return sizes;
}

struct layout {
  std::vector<long long> begin, end;
  std::size_t n = 0;
};

/// `sizes` in order with `gap` unused keys before each, listed in reverse when `reverse`.
layout lay_out(const std::vector<std::size_t>& sizes, std::size_t gap, bool reverse) {
  layout l;
  for (std::size_t size : sizes) {
    l.n += gap;
    l.begin.push_back((long long)l.n);
    l.end.push_back((long long)(l.n + size));
    l.n += size;
  }
  l.n += gap;
  if (reverse) {
    std::reverse(l.begin.begin(), l.begin.end());
    std::reverse(l.end.begin(), l.end.end());
  }
  return l;
}

/// What one sort call cost on the SIMT backend: kernel launches, their blocks, bytes memset.
struct call_cost {
  unsigned long long launches = 0, blocks = 0, memset_bytes = 0;
};

/// The segmented sort of `keys` (pairs with each key's index, an `Index`, as its value when
/// `pairs`) with the device's policy, checked key by key and value by value (stable); positions in
/// no segment keep the output's 0xAB bytes. `cost` (SIMT only, optional): what the sort call itself cost.
/// `one_length`: the segments are rows of one length from position 0, sorted through the rows
/// overloads (no offsets).
template <class Key, bool pairs, class Index = std::uint32_t>
void check(const std::vector<Key>& keys, const layout& l, const ringsweep::sort_options& opts,
           call_cost* cost = nullptr, bool one_length = false) {
  const std::size_t n = keys.size();
  INFO(l.begin.size() << " segments, n " << n << ", " << ringsweep_test::order_name(opts) << ", bits ["
                      << opts.begin_bit << ", " << opts.end_bit << ")" << (pairs ? ", pairs" : ", keys"));
  std::vector<Index> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = Index(i);
  ringsweep_test::device_buffer<Key> kin(keys), kout(n);
  ringsweep_test::device_buffer<Index> vin(index), vout(n);
  ringsweep_test::device_buffer<long long> begin(l.begin), end(l.end);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const std::size_t row = l.begin.empty() ? 0 : std::size_t(l.end[0] - l.begin[0]);
  const auto call = [&](void* temp, std::size_t& bytes) {
    if (one_length) {
      if constexpr (pairs) {
        return ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(),
                                               l.begin.size(), row, opts);
      } else {
        return ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), l.begin.size(), row, opts);
      }
    }
    if constexpr (pairs) {
      return ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                             l.begin.size(), begin.data(), end.data(), opts);
    } else {
      return ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), n, l.begin.size(), begin.data(),
                                            end.data(), opts);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
#if defined(RINGSWEEP_VARIANT_SIMT)
  const call_cost before{simt::kernel_launches(), simt::kernel_blocks_launched(), simt::memset_bytes()};
#endif
  REQUIRE_CUDA(call(temp.data(), bytes));
#if defined(RINGSWEEP_VARIANT_SIMT)
  if (cost != nullptr) {
    cost->launches = simt::kernel_launches() - before.launches;
    cost->blocks = simt::kernel_blocks_launched() - before.blocks;
    cost->memset_bytes = simt::memset_bytes() - before.memset_bytes;
  }
#else
  (void)cost;
#endif
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got = kout.download();
  const auto got_index = vout.download();
  std::vector<bool> covered(n, false);
  for (std::size_t s = 0; s < l.begin.size(); ++s) {
    const std::size_t b = std::size_t(l.begin[s]), e = std::size_t(l.end[s]);
    const std::vector<Key> part(keys.begin() + long(b), keys.begin() + long(e));
    const auto order = ringsweep_test::reference_order(part, opts);
    for (std::size_t j = 0; j < order.size(); ++j) {
      INFO("segment of " << e - b << " keys, position " << j);
      covered[b + j] = true;
      REQUIRE(ringsweep_test::raw_bits(got[b + j]) == ringsweep_test::raw_bits(keys[b + order[j]]));
      if (pairs) REQUIRE(got_index[b + j] == Index(b + order[j]));
    }
  }
  unsigned char poison[sizeof(Key) > sizeof(Index) ? sizeof(Key) : sizeof(Index)];
  std::memset(poison, 0xAB, sizeof poison);
  for (std::size_t i = 0; i < n; ++i) {
    if (covered[i]) continue;
    INFO("gap position " << i);
    REQUIRE(std::memcmp(&got[i], poison, sizeof(Key)) == 0);
    if (pairs) REQUIRE(std::memcmp(&got_index[i], poison, sizeof(Index)) == 0);
  }
  REQUIRE(ringsweep_test::same_keys(kin.download(), keys));
}

}  // namespace

// Every key type keys only (each type's network word), one of each width and kind with values
// (stability: few distinct keys, long runs of equal keys whose order only the values show). Pairs
// of every type would add seven more sorts to compile for no path the ones here miss.
TEMPLATE_TEST_CASE("segmented network: every class edge, every key type, both orders", "[sort][segmented][network]",
                   std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t, std::int32_t, std::uint64_t,
                   std::int64_t, __half, __nv_bfloat16, float, double) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const layout l = lay_out(network_edges<TestType>(), 3, true);
  const auto uniform = ringsweep_test::make_keys<TestType>(l.n, ringsweep_test::distribution::uniform, seed + 1);
  const auto few = ringsweep_test::make_keys<TestType>(l.n, ringsweep_test::distribution::few_distinct, seed);
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    check<TestType, false>(uniform, l, sort_options_of(o));
    check<TestType, false>(few, l, sort_options_of(o));
  }
}

TEMPLATE_TEST_CASE("segmented network: pairs, stable", "[sort][segmented][network]", std::uint8_t, std::int16_t,
                   std::uint32_t, float, std::uint64_t, double) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const layout l = lay_out(network_edges<TestType>(), 3, true);
  const auto keys = ringsweep_test::make_keys<TestType>(l.n, ringsweep_test::distribution::few_distinct, seed);
  for (auto o : {sort_order::ascending, sort_order::descending}) check<TestType, true>(keys, l, sort_options_of(o));
}

/// A 16-byte value made from an index (both halves), for the classification's two-warp blocks.
struct alignas(16) wide_index {
  std::uint64_t lo = 0, hi = 0;
  wide_index() = default;
  explicit wide_index(std::size_t i) : lo(i), hi(~std::uint64_t(i)) {}
  bool operator==(const wide_index& o) const { return lo == o.lo && hi == o.hi; }
};

// Values wider than the key (a float key's 8-byte index, as torch.sort returns): the one-lane
// class copies them to the warp's buffer after its network, the other classes before theirs.
// 16-byte values of 4-byte keys: no one-lane class (the kernel's registers), and blocks of two
// warps (four warps' buffers pass 48 KiB of shared memory).
TEMPLATE_TEST_CASE("segmented network: pairs with values wider than the key", "[sort][segmented][network]",
                   std::uint32_t, float) {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const layout l = lay_out(network_edges<TestType>(), 3, true);
  const auto keys = ringsweep_test::make_keys<TestType>(l.n, ringsweep_test::distribution::few_distinct, seed);
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    check<TestType, true, std::int64_t>(keys, l, sort_options_of(o));
  }
  if constexpr (std::is_same<TestType, std::uint32_t>::value) {
    check<TestType, true, wide_index>(keys, l, sort_options_of(sort_order::ascending));
  }
}

TEST_CASE("segmented network: bit windows", "[sort][segmented][network]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const layout l32 = lay_out(network_edges<std::uint32_t>(), 0, false);
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(l32.n, ringsweep_test::distribution::uniform, seed);
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    check<std::uint32_t, true>(keys, l32, sort_options_of(o, 0, 20));
    check<std::uint32_t, true>(keys, l32, sort_options_of(o, 3, 17));
    check<std::uint32_t, true>(keys, l32, sort_options_of(o, 24, 32));
  }
  const layout l64 = lay_out(network_edges<std::uint64_t>(), 1, false);
  const auto keys64 = ringsweep_test::make_keys<std::uint64_t>(l64.n, ringsweep_test::distribution::uniform, seed);
  check<std::uint64_t, true>(keys64, l64, sort_options_of(sort_order::ascending, 5, 61));
  check<std::uint64_t, true>(keys64, l64, sort_options_of(sort_order::descending, 30, 64));
}

TEMPLATE_TEST_CASE("segmented network: -0.0 ranks with +0.0, NaNs by their bits", "[sort][segmented][network]",
                   float, double) {
  using bits = ringsweep_test::bits_of<TestType>;
  const layout l = lay_out(network_edges<TestType>(), 2, false);
  std::mt19937_64 rng(ringsweep_test::catch_seed());
  const bits sign = bits(bits(1) << (sizeof(bits) * 8 - 1));
  const bits quiet_nan = sizeof(bits) == 4 ? bits(0x7fc00000u) : bits(0x7ff8000000000000ull);
  const TestType specials[] = {TestType(0), -TestType(0), TestType(1.5), -TestType(2.25),
                               std::numeric_limits<TestType>::infinity(), -std::numeric_limits<TestType>::infinity()};
  std::vector<TestType> keys(l.n);
  for (auto& k : keys) {
    const unsigned pick = unsigned(rng() % 9);
    if (pick < 6) {
      k = specials[pick];
    } else {
      bits b = bits(quiet_nan | bits(rng() % 4));  // NaNs of a few payloads, both signs
      if (pick == 7) b = bits(b | sign);
      std::memcpy(&k, &b, sizeof k);
    }
  }
  for (auto o : {sort_order::ascending, sort_order::descending}) check<TestType, true>(keys, l, sort_options_of(o));
}

TEST_CASE("segmented network: many segments of mixed classes in one call", "[sort][segmented][network]") {
  // 3000 segments of 0 to 600 keys (every class, some small), gaps of 0 to 2 keys, listed in a
  // random order: sub-warps of every width share warps and several rounds per class.
  std::mt19937_64 rng(ringsweep_test::catch_seed());
  std::vector<std::size_t> sizes(3000);
  for (auto& s : sizes) {
    const unsigned r = unsigned(rng() % 16);
    s = r < 8 ? rng() % 20 : r < 14 ? rng() % 130 : rng() % 600;
  }
  layout l;
  for (std::size_t s : sizes) {
    l.n += rng() % 3;
    l.begin.push_back((long long)l.n);
    l.end.push_back((long long)(l.n + s));
    l.n += s;
  }
  std::vector<std::size_t> perm(sizes.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  layout shuffled = l;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    shuffled.begin[i] = l.begin[perm[i]];
    shuffled.end[i] = l.end[perm[i]];
  }
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(l.n, ringsweep_test::distribution::few_distinct, 5);
  check<std::uint32_t, true>(keys, shuffled, sort_options_of(sort_order::ascending));
  const auto keys64 = ringsweep_test::make_keys<double>(l.n, ringsweep_test::distribution::uniform, 6);
  check<double, true>(keys64, shuffled, sort_options_of(sort_order::descending));
}

namespace {
#ifdef NETWORK_TEST_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif
/// A custom key of 96 bits (an f32, then an i64) in 16 bytes: its network items hold two image
/// words (4 keys a lane, tiny segments of up to 128 keys).
struct score_id {
  float score;
  std::int64_t id;
};
struct by_score_id {
  __host__ __device__ tup::tuple<float&, std::int64_t&> operator()(score_id& k) const { return {k.score, k.id}; }
};

/// score_id's order-preserving image: the score's ordered bits above the id's, 96 bits.
unsigned __int128 wide_image(const score_id& k) {
  std::uint32_t f = 0;
  std::memcpy(&f, &k.score, sizeof f);
  f = (f & 0x80000000u) != 0 ? ~f : f | 0x80000000u;
  return (unsigned __int128)f << 64 | (std::uint64_t(k.id) ^ (std::uint64_t(1) << 63));
}
/// Few distinct scores, ties broken by ids that differ in their high bits and their low ones.
void wide_fill(score_id& k, std::mt19937_64& rng) {
  k.score = float(int(rng() % 7)) - 3.0f;
  k.id = (std::int64_t(rng() % 5) - 2) * (std::int64_t(1) << 40) + std::int64_t(rng() % 3);
}

/// A custom key of 96 bits in 12 bytes (4-byte aligned: moved as three 32-bit words).
struct cell_depth_id {
  std::uint32_t cell;
  float depth;
  std::uint32_t id;
};
struct by_cell_depth_id {
  __host__ __device__ tup::tuple<std::uint32_t&, float&, std::uint32_t&> operator()(cell_depth_id& k) const {
    return {k.cell, k.depth, k.id};
  }
};
unsigned __int128 wide_image(const cell_depth_id& k) {
  std::uint32_t f = 0;
  std::memcpy(&f, &k.depth, sizeof f);
  f = (f & 0x80000000u) != 0 ? ~f : f | 0x80000000u;
  return (unsigned __int128)k.cell << 64 | std::uint64_t(f) << 32 | k.id;
}
void wide_fill(cell_depth_id& k, std::mt19937_64& rng) {
  k.cell = std::uint32_t(rng() % 3) << 30 | std::uint32_t(rng() % 2);
  k.depth = float(int(rng() % 5)) - 2.0f;
  k.id = std::uint32_t(rng() % 4) << 28 | std::uint32_t(rng() % 3);
}

/// The segmented pairs sort (input positions as values) of keys of `Key` (96-bit images) through
/// `Dec`, in segments of `sizes` with gaps, in both orders and each window of `windows`, against a
/// stable sort of the images' window bits; positions in no segment stay unwritten.
template <class Key, class Dec>
void check_wide(const std::vector<std::size_t>& sizes, const std::vector<std::pair<int, int>>& windows) {
  const layout l = lay_out(sizes, 3, true);
  std::mt19937_64 rng(ringsweep_test::catch_seed());
  std::vector<Key> keys(l.n);
  for (auto& k : keys) {
    std::memset(static_cast<void*>(&k), 0, sizeof k);
    wide_fill(k, rng);
  }
  std::vector<std::uint32_t> index(l.n);
  for (std::size_t i = 0; i < l.n; ++i) index[i] = std::uint32_t(i);
  ringsweep_test::device_buffer<Key> kin(keys), kout(l.n);
  ringsweep_test::device_buffer<std::uint32_t> vin(index), vout(l.n);
  ringsweep_test::device_buffer<long long> begin(l.begin), end(l.end);
  for (auto o : {sort_order::ascending, sort_order::descending}) {
    for (const auto& w : windows) {
      ringsweep::sort_options opts = sort_options_of(o);
      opts.begin_bit = w.first;
      opts.end_bit = w.second;
      INFO(sizeof(Key) << "-byte keys, " << ringsweep_test::order_name(opts) << ", bits [" << w.first << ", "
                       << w.second << ")");
      kout.fill_bytes(0xAB);
      vout.fill_bytes(0xAB);
      std::size_t bytes = 0;
      REQUIRE_CUDA(ringsweep::segmented_sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(),
                                                   l.n, l.begin.size(), begin.data(), end.data(), Dec{}, opts));
      ringsweep_test::device_bytes temp(bytes);
      REQUIRE_CUDA(ringsweep::segmented_sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                   vout.data(), l.n, l.begin.size(), begin.data(), end.data(), Dec{},
                                                   opts));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto got = kout.download();
      const auto got_index = vout.download();
      const unsigned __int128 mask = (((unsigned __int128)1) << (w.second - w.first)) - 1;
      const auto place = [&](std::uint32_t i) { return wide_image(keys[i]) >> w.first & mask; };
      std::vector<bool> inside(l.n, false);
      for (std::size_t s = 0; s < l.begin.size(); ++s) {
        std::vector<std::uint32_t> order;
        for (long long i = l.begin[s]; i < l.end[s]; ++i) {
          order.push_back(std::uint32_t(i));
          inside[std::size_t(i)] = true;
        }
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
          return o == sort_order::ascending ? place(a) < place(b) : place(b) < place(a);
        });
        for (std::size_t j = 0; j < order.size(); ++j) {
          INFO("segment of " << order.size() << " keys, position " << j);
          const std::size_t at = std::size_t(l.begin[s]) + j;
          REQUIRE(got_index[at] == order[j]);
          REQUIRE(std::memcmp(&got[at], &keys[order[j]], sizeof(Key)) == 0);
        }
      }
      for (std::size_t i = 0; i < l.n; ++i) {
        if (!inside[i]) REQUIRE(got_index[i] == 0xABABABABu);
      }
    }
  }
}
}  // namespace

TEST_CASE("segmented network: custom keys wider than 64 bits", "[sort][segmented][network]") {
  // Every class edge for 16-byte keys: the network's (4 keys a lane, up to 128), the compact and
  // medium blocks' (256 and 1,024), the onesweep tile's (384 x 5 = 1,920 in both shipped
  // policies), then onesweep passes; the whole key and windows within the low image word, across
  // both and within the high one.
  std::vector<std::size_t> sizes = network_edges<score_id, 96>();
  for (std::size_t s : {std::size_t(1919), std::size_t(1920), std::size_t(1921), std::size_t(4000)}) sizes.push_back(s);
  check_wide<score_id, by_score_id>(sizes, {{0, 96}, {32, 80}, {60, 70}, {64, 96}});
  // 12-byte keys (three 32-bit words; the image's high word is 32 bits): the compact and medium
  // blocks hold 320 and 1,280 of them, the onesweep tile 2,304 (policy_sm80) or 2,688
  // (policy_sm90).
  std::vector<std::size_t> sizes12 = network_edges<cell_depth_id, 96>();
  for (std::size_t s : {2303, 2304, 2305, 2687, 2688, 2689}) sizes12.push_back(s);
  check_wide<cell_depth_id, by_cell_depth_id>(sizes12, {{0, 96}, {20, 70}, {64, 96}});
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("segmented network: an all-tiny call pays nothing for the classes it lacks", "[sort][segmented][network]") {
  // 2^14 segments of 64 keys (u32 and u64 pairs): every one tiny. Beyond them, the call (the
  // backend's counters around it) clears only its counters, and launches 3 kernels whose grids
  // are the blocks that fit (at most 64 per SM in all): the classification with the tiny sorts,
  // the block classes' kernel (compact, medium and small segments, then the large segments'
  // offsets: histogram, scan and copy) and the large segments' passes, every pass chained in one
  // kernel, the last two empty and left in one wave; the host cannot skip them without reading the
  // classes. Before the status ring was zeroed on the device and the onesweep grids looped over
  // the tiles: 2,113,792 bytes cleared, 1036 blocks on 4 SMs (one per bound tile), which grew with
  // n; until 2026-11-29 the histogram, scan and copy were three launches of their own (11 in all),
  // then each pass was a launch of its own (8 for u32 keys, 12 for u64 ones), and until 2026-11-30
  // the compact, medium and small classes were three launches (5).
  const std::size_t segments = std::size_t(1) << 14, size = 64;
  layout l;
  for (std::size_t s = 0; s < segments; ++s) {
    l.begin.push_back((long long)(s * size));
    l.end.push_back((long long)((s + 1) * size));
  }
  l.n = segments * size;
  int device = 0, sms = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const auto run = [&](auto key) {
    using Key = decltype(key);
    const auto keys = ringsweep_test::make_keys<Key>(l.n, ringsweep_test::distribution::few_distinct, 9);
    call_cost cost;
    check<Key, true>(keys, l, sort_options_of(sort_order::ascending), &cost);
    INFO(sizeof(Key) << "-byte keys: launches " << cost.launches << ", blocks " << cost.blocks << ", memset bytes "
                     << cost.memset_bytes);
    CHECK(cost.memset_bytes <= 1024);  // the counters: nothing that grows with S or n
    CHECK(cost.launches == 3);
    CHECK(cost.blocks <= 64ull * unsigned(sms));
  };
  run(std::uint32_t{});
  run(std::uint64_t{});
}

TEST_CASE("segmented network: rows of one length launch only their class", "[sort][segmented][network]") {
  // The rows overloads tell the host every segment's size: a call launches the classification
  // (with the tiny sorts) and the one class its rows are in. u32 keys with the device's policy:
  // tiny up to 512 keys, compact up to 1024, medium up to 4096, small up to one onesweep tile (the
  // three in one launch), then large (its offsets, in the block classes' launch, and its passes, one
  // kernel). Each launch count fails where a class the rows are not in is launched.
  int device = 0, sms = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const struct {
    std::size_t rows, size;
    unsigned long long launches;
  } cases[] = {{1024, 64, 1}, {8, 1000, 2}, {4, 4000, 2}, {3, 5000, 2}, {2, 1, 1}, {2, 20000, 3}};
  for (const auto& c : cases) {
    layout l;
    for (std::size_t s = 0; s < c.rows; ++s) {
      l.begin.push_back((long long)(s * c.size));
      l.end.push_back((long long)((s + 1) * c.size));
    }
    l.n = c.rows * c.size;
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(l.n, ringsweep_test::distribution::uniform, c.size);
    call_cost cost;
    check<std::uint32_t, true>(keys, l, sort_options_of(sort_order::descending), &cost, true);
    INFO(c.rows << " rows of " << c.size << ": launches " << cost.launches << ", memset bytes " << cost.memset_bytes);
    CHECK(cost.launches == c.launches);
    CHECK(cost.memset_bytes <= 1024);
  }
}
#endif
