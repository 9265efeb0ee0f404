// top-k (top_k.cuh): the k smallest / largest keys, sorted, earliest positions first among equal
// keys, checked against std::stable_sort on the host and taking k. Keys, pairs and indices; k at
// every edge (0, 1, 2, warp, the sort's tile, n - 1, n); n across the select's range tiles and
// the sort's tiles; float specials; bit windows; custom keys; skewed data (all keys equal, one
// dominant key, sorted, reversed) with candidate buffers small enough to overflow; bad arguments.
// The segmented (batched) forms: segmented_top_k_test.cu.
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>
#include <ringsweep/ringsweep.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sort_test_util.cuh"
#include "top_k_test_policy.cuh"

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define TOP_K_TEST_CUDA_STD_TUPLE 1
#endif
#endif
#include <tuple>

namespace {

using ringsweep::sort_order;
using ringsweep_test::distribution;
using ringsweep_test::sort_options_of;

using top_k_test::policy_tiny_top_k;  // top_k_test_policy.cuh
using tiny = policy_tiny_top_k;

/// policy_tiny with at most 64 ranges and candidate buffers of at least 4096 keys: at n = 3 x 64 x
/// 128 each range is three 128-key tiles and gets 64 keys of the count's speculative candidates.
struct policy_tiny_top_k_spec : ringsweep_test::policy_tiny {
  static constexpr int TOP_K_MIN_CAPACITY = 4096;
  static constexpr int TOP_K_MAX_RANGES = 64;
};
/// policy_tiny_top_k_spec with 4 keys a thread (the first read loads 16-byte vectors of 4-byte
/// keys) and candidate buffers of at least 8192 keys: 128 speculative candidates a range.
struct policy_tiny_top_k_vec : policy_tiny_top_k_spec {
  static constexpr int HIST_ITEMS = 4;
  static constexpr int TOP_K_MIN_CAPACITY = 8192;
};
constexpr std::size_t SORT_TILE = 192;  // policy_tiny's onesweep tile for 4-byte keys
/// policy_tiny whose candidates' one-launch sort takes at most 4 blocks (k from SORT_TILE + 1 to
/// 4 x SORT_TILE for 4-byte keys), with candidate buffers (its second array) of at least 4096 keys.
struct policy_tiny_top_k_sort : ringsweep_test::policy_tiny {
  static constexpr int TOP_K_MIN_CAPACITY = 4096;
  static constexpr int TOP_K_SORT_BLOCKS = 4;
};

/// The first k of the stable sort, and what top-k returned for keys, pairs and indices. `offset`:
/// the input starts that many keys past an allocation's start (unaligned to a vector load).
template <class Policy, class Key, class Index = std::uint32_t>
void check_top_k(const std::vector<Key>& keys, std::size_t k, const ringsweep::sort_options& opts,
                 bool pairs_and_indices = true, std::size_t offset = 0) {
  const std::size_t n = keys.size();
  INFO("n " << n << ", k " << k << ", offset " << offset << ", " << ringsweep_test::order_name(opts) << ", bits [" << opts.begin_bit << ", "
            << opts.end_bit << ")");
  const auto order = ringsweep_test::reference_order(keys, opts);
  std::vector<Key> padded(offset, keys.empty() ? Key{} : keys[0]);
  padded.insert(padded.end(), keys.begin(), keys.end());
  ringsweep_test::device_buffer<Key> in(padded), out(k + 1);
  const Key* const src = in.data() + offset;
  const auto run = [&](auto call) {
    std::size_t bytes = 0;
    REQUIRE_CUDA(call(nullptr, bytes));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data(), bytes));
    REQUIRE_CUDA(cudaDeviceSynchronize());
  };
  const auto check_keys = [&](const std::vector<Key>& got) {
    for (std::size_t i = 0; i < k; ++i) {
      INFO("output " << i << " should be input position " << order[i]);
      REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(keys[order[i]]));
    }
    Key guard;
    std::memset(static_cast<void*>(&guard), 0xAB, sizeof(Key));
    CHECK(ringsweep_test::raw_bits(got[k]) == ringsweep_test::raw_bits(guard));  // nothing past k
  };
  {
    INFO("top_k_keys");
    out.fill_bytes(0xAB);
    run([&](void* t, std::size_t& b) {
      if constexpr (std::is_void<Policy>::value) {
        return ringsweep::top_k_keys(t, b, src, out.data(), n, k, opts);
      } else {
        return ringsweep::tuning::top_k_keys<Policy>(t, b, src, out.data(), n, k, opts);
      }
    });
    check_keys(out.download());
  }
  if (!pairs_and_indices) return;
  {
    INFO("top_k_pairs");
    std::vector<std::uint32_t> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i * 2654435761u);
    ringsweep_test::device_buffer<std::uint32_t> vin(values), vout(k + 1);
    out.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
    run([&](void* t, std::size_t& b) {
      if constexpr (std::is_void<Policy>::value) {
        return ringsweep::top_k_pairs(t, b, src, out.data(), vin.data(), vout.data(), n, k, opts);
      } else {
        return ringsweep::tuning::top_k_pairs<Policy>(t, b, src, out.data(), vin.data(), vout.data(), n, k, opts);
      }
    });
    check_keys(out.download());
    const auto got = vout.download();
    for (std::size_t i = 0; i < k; ++i) {
      INFO("value " << i);
      REQUIRE(got[i] == values[order[i]]);
    }
    CHECK(got[k] == 0xABABABABu);
  }
  for (bool with_keys : {true, false}) {
    INFO("top_k_indices" << (with_keys ? " with keys" : " without keys"));
    ringsweep_test::device_buffer<Index> idx(k + 1);
    idx.fill_bytes(0xAB);
    out.fill_bytes(0xAB);
    Key* keys_out = with_keys ? out.data() : nullptr;
    run([&](void* t, std::size_t& b) {
      if constexpr (std::is_void<Policy>::value) {
        return ringsweep::top_k_indices(t, b, src, keys_out, idx.data(), n, k, opts);
      } else {
        return ringsweep::tuning::top_k_indices<Policy>(t, b, src, keys_out, idx.data(), n, k, opts);
      }
    });
    const auto got = idx.download();
    for (std::size_t i = 0; i < k; ++i) {
      INFO("index " << i);
      REQUIRE(std::uint64_t(got[i]) == std::uint64_t(order[i]));
    }
    Index poisoned;
    std::memset(&poisoned, 0xAB, sizeof(Index));
    CHECK(got[k] == poisoned);
    if (with_keys) check_keys(out.download());
  }
  CHECK(ringsweep_test::same_keys(in.download(), padded));  // the input is never written
}

/// k at every edge of n keys: 0, 1, 2, 31, 32, 33, the sort's tile and its neighbours, n - 1, n.
std::vector<std::size_t> ks_for(std::size_t n) {
  std::vector<std::size_t> ks;
  for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(32),
                        std::size_t(33), SORT_TILE - 1, SORT_TILE, SORT_TILE + 1, n - 1, n}) {
    if (k <= n) ks.push_back(k);
  }
  return ks;
}

}  // namespace

TEST_CASE("top_k: every k edge over range and tile edges, both orders", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // The select's range tile is 128 keys; 4097 keys make 33 ranges, the last of one key.
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(127), std::size_t(129), std::size_t(500),
                        std::size_t(4097)}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + n);
    for (std::size_t k : ks_for(n)) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny>(keys, k, sort_options_of(o), n == 4097);  // pairs, indices: one n
      }
    }
  }
}

TEST_CASE("top_k: the candidates' sort in one cooperative launch, at its edges", "[sort][top_k]") {
  // 192-key tiles, at most 4 blocks: k = 192 is the single block's, 193 two blocks (the second of
  // one key), 385 three, 768 four full ones, 769 the onesweep sort's. Random keys (ties among
  // them), then many ties: every pass moves nothing (all equal), or the high passes do (a small
  // range: the last pass is one digit, the sorted keys are copied out); bit windows; 8-byte keys.
  using policy = policy_tiny_top_k_sort;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 2000;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
  for (std::size_t k : {SORT_TILE, SORT_TILE + 1, 2 * SORT_TILE + 1, 4 * SORT_TILE, 4 * SORT_TILE + 1}) {
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      check_top_k<policy>(keys, k, sort_options_of(o), o == sort_order::descending);
    }
  }
  for (distribution d : {distribution::all_equal, distribution::few_distinct, distribution::small_range}) {
    INFO(ringsweep_test::name(d));
    const auto ties = ringsweep_test::make_keys<std::uint32_t>(n, d, seed + 1);
    check_top_k<policy>(ties, 3 * SORT_TILE + 5, sort_options_of(sort_order::ascending), d == distribution::few_distinct);
    check_top_k<policy>(ties, 4 * SORT_TILE, sort_options_of(sort_order::descending), false);
  }
  {
    // Random low bytes: the candidates (in input order within a level) move in the first pass
    // only; the three passes above it hold one digit, so the keys are copied out of the other array.
    auto low = keys;
    for (auto& key : low) key &= 0xffu;
    check_top_k<policy>(low, 3 * SORT_TILE + 5, sort_options_of(sort_order::ascending));
  }
  for (auto w : {std::pair<int, int>{4, 20}, {24, 32}}) {
    check_top_k<policy, std::uint32_t, std::int32_t>(keys, 700, sort_options_of(sort_order::descending, w.first, w.second),
                                                     w.first == 4);
  }
  // 8-byte keys: policy_tiny's tile is 192 keys too (3 a thread); pairs and 64-bit indices.
  const auto wide = ringsweep_test::make_keys<std::int64_t>(n, distribution::uniform, seed + 2);
  check_top_k<policy, std::int64_t, std::uint64_t>(wide, 500, sort_options_of(sort_order::ascending));
  check_top_k<policy, std::int64_t, std::uint64_t>(wide, 500, sort_options_of(sort_order::descending, 3, 50), false);
}

TEST_CASE("top_k: skewed keys keep the earliest positions", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3001;
  for (distribution d : {distribution::all_equal, distribution::few_distinct, distribution::sorted,
                         distribution::reversed, distribution::high_bits_only, distribution::small_range}) {
    INFO(ringsweep_test::name(d));
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, d, seed);
    for (std::size_t k : {std::size_t(1), std::size_t(33), std::size_t(700), n - 1, n}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny>(keys, k, sort_options_of(o), k == n - 1);  // pairs, indices: one k
      }
    }
  }
  // One dominant key (90%), the top k inside it, below it and above it.
  std::vector<std::uint32_t> keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + 1);
  std::mt19937_64 rng(seed);
  for (auto& key : keys) {
    if (rng() % 10 != 0) key = 0x80000000u;
  }
  for (std::size_t k : {std::size_t(1), std::size_t(100), std::size_t(200), std::size_t(2000), n}) {
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      check_top_k<tiny>(keys, k, sort_options_of(o));
    }
  }
}

TEST_CASE("top_k: heavy keys walked down along the guessed key, or not", "[sort][top_k]") {
  // Candidate buffers of 46 keys (n / 64): a bucket of a heavy key overflows them at every level.
  // The step of such a level counts the levels below along the guessed key (each pass's most
  // frequent digit) and the next pick walks down as far as its buckets are the guessed digits
  // (design.md section 15). Where the k-th key is not the guessed one, the walk stops early, and
  // where that bucket overflows too, the input is read again, one walk per read.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3001;
  std::mt19937_64 rng(seed);
  SECTION("u32: the guessed key (50%) and another heavy key of the same top digit (30%)") {
    auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
    for (auto& key : keys) {
      const auto x = rng() % 10;
      if (x < 5) key = 0x11223344u;
      else if (x < 8) key = 0x11aa5566u;
      else if (x == 8) key = 0x11220000u | std::uint32_t(rng() & 0xffffu);  // shares two digits with the guess
    }
    for (std::size_t k : {std::size_t(1), std::size_t(40), std::size_t(400), std::size_t(1200), std::size_t(1700),
                          std::size_t(2500), n - 1}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny>(keys, k, sort_options_of(o), k == 1700 || k == 2500);
      }
    }
  }
  SECTION("u32: the heavy key of the k-th's top digit is not each pass's most frequent digit") {
    // 40% share the top digit 0x22 and the lower digits 0x33 0x44 0x55; 45% are 0x66 then the
    // digits 0x77 0x88 0x99, which the guess takes; the k-th lies in the 0x22 run.
    auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + 1);
    for (auto& key : keys) {
      const auto x = rng() % 20;
      if (x < 8) key = 0x22334455u;
      else if (x < 17) key = 0x66778899u;
    }
    for (std::size_t k : {std::size_t(200), std::size_t(900), std::size_t(1500)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) check_top_k<tiny>(keys, k, sort_options_of(o));
    }
  }
  SECTION("i64: one key of 90%, eight levels") {
    auto keys = ringsweep_test::make_keys<std::int64_t>(n, distribution::uniform, seed + 2);
    for (auto& key : keys) {
      if (rng() % 10 != 0) key = std::int64_t(0x0123456789abcdefll);
    }
    for (std::size_t k : {std::size_t(1), std::size_t(150), std::size_t(2000), n - 1}) {
      check_top_k<tiny, std::int64_t, std::uint64_t>(keys, k, sort_options_of(sort_order::ascending), k == 2000);
      check_top_k<tiny, std::int64_t, std::uint64_t>(keys, k, sort_options_of(sort_order::descending, 3, 50), false);
    }
  }
  SECTION("u32 in a bit window: 90% equal in bits [4, 20) only") {
    auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed + 3);
    for (auto& key : keys) {
      if (rng() % 10 != 0) key = (key & 0xfff0000fu) | 0x000abcd0u;
    }
    for (std::size_t k : {std::size_t(100), std::size_t(1500)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny, std::uint32_t, std::int32_t>(keys, k, sort_options_of(o, 4, 20), k == 1500);
      }
    }
  }
  SECTION("float: 90% zeros of either sign (one key)") {
    auto keys = ringsweep_test::make_keys<float>(n, distribution::uniform, seed + 4);
    for (auto& key : keys) {
      if (rng() % 10 != 0) key = rng() % 2 == 0 ? 0.0f : -0.0f;
    }
    for (std::size_t k : {std::size_t(10), std::size_t(1000), std::size_t(2900)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny, float, std::int64_t>(keys, k, sort_options_of(o), k == 1000);
      }
    }
  }
}

TEST_CASE("top_k: speculative candidates taken, overflowing midway, guessed too low", "[sort][top_k]") {
  // Each of the 64 ranges guesses a top digit from its first 128-key tile and writes the keys at
  // or below it while counting (design.md section 15); the result must be the same whichever way.
  using spec = policy_tiny_top_k_spec;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3 * 64 * 128, span = 384, tile = 128;
  auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
  SECTION("random keys: the guesses hold") {
    for (std::size_t k : {std::size_t(1), std::size_t(33), std::size_t(500)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<spec>(keys, k, sort_options_of(o), k == 33);
      }
    }
  }
  SECTION("a range's later tiles overflow its part of the buffer (ascending), or hold none (descending)") {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % span >= tile) keys[i] = std::uint32_t(rng() & 0x00ffffffu);  // top digit 0
    }
    for (sort_order o : {sort_order::ascending, sort_order::descending}) check_top_k<spec>(keys, 33, sort_options_of(o));
  }
  SECTION("the first tiles crowd the lowest digit: the bucket lies above every guess") {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % span < 56) keys[i] = std::uint32_t(rng() & 0x00ffffffu);  // 56 of a first tile: D_r = 0
    }
    // About 64 x 56 + 84 keys have top digit 0: the 3800th lies above it, and every range's
    // candidates (56 and about 1.3 more) fit its 64.
    check_top_k<spec>(keys, 3800, sort_options_of(sort_order::ascending), false);
  }
  SECTION("the bucket is one digit above the lowest guess: the input is read again") {
    // Top digit 0 for the first 56 keys of every range (D_r = 0), 1 for 24 keys of its second
    // tile, 2-255 elsewhere; the k-th key (k just past the 64 x 56 digit-0 keys) has digit 1,
    // which no range's candidates hold. Descending: the same keys inverted.
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = i % span;
      const std::uint32_t top = at < 56 ? 0u : at >= tile && at < tile + 24 ? 1u : 2u + std::uint32_t(rng() % 254u);
      keys[i] = top << 24 | std::uint32_t(rng() & 0x00ffffffu);
    }
    const std::size_t k = 64 * 56 + 10;
    check_top_k<spec>(keys, k, sort_options_of(sort_order::ascending), false);
    for (auto& key : keys) key = ~key;
    check_top_k<spec>(keys, k, sort_options_of(sort_order::descending), false);
  }
}

TEST_CASE("top_k: the first read's vector loads, unaligned inputs and range heads", "[sort][top_k]") {
  // 64 threads x 4 keys: the first read loads 16-byte vectors of u32 (8-byte ones of u64). The
  // input starts 0-3 keys past an aligned address, and n = 64 ranges of 769 keys (3 tiles and 1
  // key) puts most ranges' starts off a vector: each reads its head (1-3 keys) one by one, first
  // among its speculative candidates, then whole vector tiles and a partial last one.
  using vec = policy_tiny_top_k_vec;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 64 * 769, span = 769, tile = 256;
  const auto random = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, seed);
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3)}) {
    SECTION("random keys: the guesses hold, offset " + std::to_string(offset)) {
      for (std::size_t k : {std::size_t(1), std::size_t(33), std::size_t(700)}) {
        for (sort_order o : {sort_order::ascending, sort_order::descending}) {
          check_top_k<vec>(random, k, sort_options_of(o), k == 33, offset);
        }
      }
      const auto wide = ringsweep_test::make_keys<std::uint64_t>(n, distribution::uniform, seed);
      check_top_k<vec>(wide, 33, sort_options_of(sort_order::ascending), true, offset);
      // Fewer keys than a tile, and a range of a few keys (heads only).
      check_top_k<vec>(std::vector<std::uint32_t>(random.begin(), random.begin() + 255), 7,
                       sort_options_of(sort_order::ascending), true, offset);
      check_top_k<vec>(std::vector<std::uint32_t>(random.begin(), random.begin() + 3), 2,
                       sort_options_of(sort_order::descending), true, offset);
    }
    SECTION("every range's first keys among the smallest: its head's candidates, offset " + std::to_string(offset)) {
      // The first 3 keys of every range have top digit 0 and lie in the top k: a range off a
      // vector reads them as its head, whose candidates come first in its part of the buffer.
      // The others' top digits are 128-255: every range guesses a digit near 135 and writes about
      // 50 candidates of its 128, so that the guesses hold.
      auto keys = random;
      for (auto& key : keys) key |= 0x80000000u;
      for (std::size_t r = 0; r < 64; ++r) {
        for (std::size_t i = 0; i < 3; ++i) keys[r * span + i] = std::uint32_t(r * 3 + i);
      }
      check_top_k<vec>(keys, 64 * 3 + 33, sort_options_of(sort_order::ascending), true, offset);
      for (auto& key : keys) key = ~key;
      check_top_k<vec>(keys, 64 * 3 + 33, sort_options_of(sort_order::descending), false, offset);
    }
    SECTION("a range's later tiles overflow its candidates, offset " + std::to_string(offset)) {
      auto keys = random;
      std::mt19937_64 rng(seed);
      for (std::size_t i = 0; i < n; ++i) {
        if (i % span >= tile + 4) keys[i] = std::uint32_t(rng() & 0x00ffffffu);  // top digit 0
      }
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<vec>(keys, 33, sort_options_of(o), true, offset);
      }
    }
    SECTION("the guesses are too low: the bucket lies above them, offset " + std::to_string(offset)) {
      // Top digit 0 for the first 60 keys of every range (D_r = 0: the k-th key's share of a tile
      // is 56 keys; the 60 fit a range's 128 candidates), 1 for 30 keys of its second tile, 2-255
      // elsewhere; the k-th key has digit 1, which no range's candidates hold.
      auto keys = random;
      std::mt19937_64 rng(seed);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = i % span;
        const std::uint32_t top = at < 60 ? 0u : at >= tile + 8 && at < tile + 38 ? 1u : 2u + std::uint32_t(rng() % 254u);
        keys[i] = top << 24 | std::uint32_t(rng() & 0x00ffffffu);
      }
      const std::size_t k = 64 * 60 + 10;
      check_top_k<vec>(keys, k, sort_options_of(sort_order::ascending), true, offset);
      for (auto& key : keys) key = ~key;
      check_top_k<vec>(keys, k, sort_options_of(sort_order::descending), false, offset);
    }
  }
  SECTION("keys that differ only between threads, or only between ranges") {
    // 64 ranges of 768 keys, aligned: a thread's vector is 4 keys of a tile. Each thread of the
    // first read ORs its keys XOR its own first key; here that is 0 everywhere, so the passes that
    // hold more than one digit are seen only in the threads' first keys (a pass taken as holding
    // one digit leaves its keys in input order).
    const std::size_t m = 64 * 768;
    std::vector<std::uint32_t> by_thread(m), by_range(m);
    for (std::size_t i = 0; i < m; ++i) {
      by_thread[i] = std::uint32_t((i / 4) % 64);
      by_range[i] = std::uint32_t(63 - i / 768) << 16;
    }
    check_top_k<vec>(by_thread, 100, sort_options_of(sort_order::ascending), true);
    check_top_k<vec>(by_range, 1000, sort_options_of(sort_order::ascending), false);
  }
}

TEST_CASE("top_k: float specials, equal zeros stable", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::mt19937_64 rng(seed);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f,
                            std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max()};
  std::vector<float> keys = ringsweep_test::make_keys<float>(2000, distribution::uniform, seed);
  for (auto& key : keys) {
    if (rng() % 2 == 0) key = specials[rng() % 10];
  }
  for (std::size_t k : {std::size_t(1), std::size_t(32), std::size_t(300), std::size_t(1000), std::size_t(2000)}) {
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      check_top_k<tiny, float, std::int64_t>(keys, k, sort_options_of(o));
    }
  }
}

TEST_CASE("top_k: bit windows and an empty window", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(2500, distribution::uniform, seed);
  for (auto w : {std::pair<int, int>{4, 20}, {0, 7}, {13, 32}, {24, 32}, {9, 9}}) {
    for (std::size_t k : {std::size_t(1), std::size_t(64), std::size_t(1250), std::size_t(2499)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_top_k<tiny, std::uint32_t, std::int32_t>(keys, k, sort_options_of(o, w.first, w.second), k == 64);
      }
    }
  }
}

TEST_CASE("top_k: other key widths and index types", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  {
    const auto keys = ringsweep_test::make_keys<std::int64_t>(1500, distribution::uniform, seed);
    for (std::size_t k : {std::size_t(1), std::size_t(95), std::size_t(97), std::size_t(1499)}) {
      check_top_k<tiny, std::int64_t, std::uint64_t>(keys, k, sort_options_of(sort_order::ascending));
      check_top_k<tiny, std::int64_t, std::uint64_t>(keys, k, sort_options_of(sort_order::descending, 3, 50));
    }
  }
  for (distribution d : {distribution::uniform, distribution::small_range}) {
    const auto keys = ringsweep_test::make_keys<std::uint8_t>(1200, d, seed);
    for (std::size_t k : {std::size_t(1), std::size_t(300), std::size_t(1200)}) {
      check_top_k<tiny, std::uint8_t>(keys, k, sort_options_of(sort_order::descending), false);
    }
  }
  {
    const auto keys = ringsweep_test::make_keys<__half>(900, distribution::uniform, seed);
    check_top_k<tiny, __half>(keys, 50, sort_options_of(sort_order::ascending), false);
    check_top_k<tiny, __half>(keys, 899, sort_options_of(sort_order::descending), false);
    const auto bkeys = ringsweep_test::make_keys<__nv_bfloat16>(900, distribution::few_distinct, seed);
    check_top_k<tiny, __nv_bfloat16>(bkeys, 50, sort_options_of(sort_order::descending), false);
  }
}

TEST_CASE("top_k: the device's policy", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(20000, distribution::uniform, seed);
  for (std::size_t k : {std::size_t(1), std::size_t(100), std::size_t(12000)}) {
    check_top_k<void>(keys, k, sort_options_of(sort_order::descending));
  }
  const auto equal = ringsweep_test::make_keys<std::uint32_t>(5000, distribution::all_equal, seed);
  check_top_k<void>(equal, 77, sort_options_of(sort_order::ascending));
}

namespace {
// CUB's tuple where libcu++ is available (nvcc), std::tuple where it is not (the SIMT backend).
#ifdef TOP_K_TEST_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif
struct pair_key {
  std::int32_t group;
  float score;
};
struct by_group_score {
  __host__ __device__ tup::tuple<std::int32_t&, float&> operator()(pair_key& k) const {
    return {k.group, k.score};
  }
};
}  // namespace

TEST_CASE("top_k: custom keys through a decomposer", "[sort][top_k]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1800;
  std::vector<pair_key> keys(n);
  for (auto& key : keys) key = {std::int32_t(rng() % 5) - 2, float(int(rng() % 50)) - 25.0f};
  // Reference: the stable order of (group, score) by their images.
  using ti = ringsweep::key_traits<std::int32_t>;
  using tf = ringsweep::key_traits<float>;
  std::vector<std::uint64_t> img(n);
  for (std::size_t i = 0; i < n; ++i) {
    img[i] = std::uint64_t(ti::to_ordered(ti::to_bits(keys[i].group))) << 32 | tf::to_ordered(tf::to_bits(keys[i].score));
  }
  for (bool desc : {false, true}) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return desc ? img[a] > img[b] : img[a] < img[b];
    });
    for (std::size_t k : {std::size_t(1), std::size_t(40), std::size_t(1000)}) {
      INFO("k " << k << (desc ? " descending" : " ascending"));
      ringsweep_test::device_buffer<pair_key> in(keys), out(k);
      const auto opts = sort_options_of(desc ? sort_order::descending : sort_order::ascending);
      std::size_t bytes = 0;
      REQUIRE_CUDA(ringsweep::tuning::top_k_keys<tiny>(nullptr, bytes, in.data(), out.data(), n, k, by_group_score{},
                                                       opts));
      ringsweep_test::device_bytes temp(bytes);
      REQUIRE_CUDA(ringsweep::tuning::top_k_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, k,
                                                       by_group_score{}, opts));
      ringsweep_test::device_buffer<std::uint32_t> idx(k);
      bytes = 0;
      REQUIRE_CUDA(ringsweep::top_k_indices(nullptr, bytes, in.data(), nullptr, idx.data(), n, k, by_group_score{},
                                            opts));
      ringsweep_test::device_bytes temp2(bytes);
      REQUIRE_CUDA(ringsweep::top_k_indices(temp2.data(), bytes, in.data(), nullptr, idx.data(), n, k,
                                            by_group_score{}, opts));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto got = out.download();
      const auto got_idx = idx.download();
      for (std::size_t i = 0; i < k; ++i) {
        INFO("output " << i);
        REQUIRE(std::memcmp(&got[i], &keys[order[i]], sizeof(pair_key)) == 0);
        REQUIRE(got_idx[i] == order[i]);
      }
    }
  }
}

TEST_CASE("segmented_top_k: custom keys through a decomposer", "[sort][top_k][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 900, k = 20;
  std::vector<pair_key> keys(n);
  for (auto& key : keys) key = {std::int32_t(rng() % 3) - 1, float(int(rng() % 9)) - 4.0f};
  const std::vector<std::int64_t> begin = {0, 10, 15, 600}, end = {10, 15, 600, 900};
  using ti = ringsweep::key_traits<std::int32_t>;
  using tf = ringsweep::key_traits<float>;
  const auto img = [&](std::size_t i) {
    return std::uint64_t(ti::to_ordered(ti::to_bits(keys[i].group))) << 32 | tf::to_ordered(tf::to_bits(keys[i].score));
  };
  ringsweep_test::device_buffer<pair_key> in(keys), out(begin.size() * k);
  ringsweep_test::device_buffer<std::int64_t> d_begin(begin), d_end(end);
  out.fill_bytes(0xAB);
  const auto opts = sort_options_of(sort_order::descending);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::segmented_top_k_keys(nullptr, bytes, in.data(), out.data(), n, begin.size(), d_begin.data(),
                                               d_end.data(), k, by_group_score{}, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::segmented_top_k_keys(temp.data(), bytes, in.data(), out.data(), n, begin.size(),
                                               d_begin.data(), d_end.data(), k, by_group_score{}, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got = out.download();
  for (std::size_t s = 0; s < begin.size(); ++s) {
    std::vector<std::size_t> order;
    for (std::int64_t i = begin[s]; i < end[s]; ++i) order.push_back(std::size_t(i));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return img(a) > img(b); });
    for (std::size_t j = 0; j < k; ++j) {
      INFO("segment " << s << " slot " << j);
      if (j < order.size()) {
        REQUIRE(std::memcmp(&got[s * k + j], &keys[order[j]], sizeof(pair_key)) == 0);
      } else {
        unsigned char poison[sizeof(pair_key)];
        std::memset(poison, 0xAB, sizeof(poison));
        REQUIRE(std::memcmp(&got[s * k + j], poison, sizeof(pair_key)) == 0);
      }
    }
  }
}

TEST_CASE("top_k: bad arguments write nothing", "[sort][top_k]") {
  const std::size_t n = 300;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, distribution::uniform, 5);
  ringsweep_test::device_buffer<std::uint32_t> in(keys), out(n);
  ringsweep_test::device_buffer<std::int32_t> idx(n);
  out.fill_bytes(0xAB);
  idx.fill_bytes(0xAB);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::top_k_keys(nullptr, bytes, in.data(), out.data(), n, n));
  ringsweep_test::device_bytes temp(bytes);
  std::size_t b = bytes;
  // k > n, in the query and in the call.
  CHECK(ringsweep::top_k_keys(nullptr, b, in.data(), out.data(), n, n + 1) == cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), out.data(), n, n + 1) == cudaErrorInvalidValue);
  // Null pointers.
  CHECK(ringsweep::top_k_keys(temp.data(), b, static_cast<const std::uint32_t*>(nullptr), out.data(), n, 5) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), static_cast<std::uint32_t*>(nullptr), n, 5) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_indices(temp.data(), b, in.data(), nullptr, static_cast<std::int32_t*>(nullptr), n, 5) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_pairs(temp.data(), b, in.data(), out.data(), static_cast<const std::int32_t*>(nullptr),
                               idx.data(), n, 5) == cudaErrorInvalidValue);
  // Bad windows and order.
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), out.data(), n, 5, sort_options_of(sort_order::ascending, 4,
                                                                                           33)) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), out.data(), n, 5, sort_options_of(sort_order::ascending, 9,
                                                                                           8)) ==
        cudaErrorInvalidValue);
  // Too little temporary storage; output overlapping the input.
  std::size_t small = 0;
  REQUIRE_CUDA(ringsweep::top_k_keys(nullptr, small, in.data(), out.data(), n, 5));
  small -= 1;
  CHECK(ringsweep::top_k_keys(temp.data(), small, in.data(), out.data(), n, 5) == cudaErrorInvalidValue);
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), in.data() + 10, n, 5) == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (std::uint32_t v : out.download()) REQUIRE(v == 0xABABABABu);
  for (std::int32_t v : idx.download()) REQUIRE(std::uint32_t(v) == 0xABABABABu);
  CHECK(ringsweep_test::same_keys(in.download(), keys));
  // k = 0 writes nothing and succeeds.
  CHECK(ringsweep::top_k_keys(temp.data(), b, in.data(), out.data(), n, 0) == cudaSuccess);
}

TEST_CASE("top_k: CUB's DeviceTopK names, sorted and deterministic", "[sort][top_k][cub]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const int n = 3000;
  const auto keys = ringsweep_test::make_keys<float>(std::size_t(n), distribution::few_distinct, seed);
  std::vector<std::uint32_t> values(n);
  for (int i = 0; i < n; ++i) values[std::size_t(i)] = std::uint32_t(i) * 7u + 1u;
  ringsweep_test::device_buffer<float> in(keys);
  ringsweep_test::device_buffer<std::uint32_t> vin(values);
  for (long long k : {1LL, 17LL, 1000LL, 3000LL, 5000LL}) {
    for (bool largest : {true, false}) {
      for (bool pairs : {false, true}) {
        INFO("k " << k << (largest ? " Max" : " Min") << (pairs ? "Pairs" : "Keys"));
        const std::size_t kk = std::size_t(k < n ? k : n);  // CUB caps k to num_items
        ringsweep_test::device_buffer<float> out(kk + 1);
        ringsweep_test::device_buffer<std::uint32_t> vout(kk + 1);
        out.fill_bytes(0xAB);
        vout.fill_bytes(0xAB);
        const auto call = [&](void* t, std::size_t& b) {
          if (pairs) {
            return largest ? ringsweep::DeviceTopK::MaxPairs(t, b, in.data(), out.data(), vin.data(), vout.data(), n, k)
                           : ringsweep::DeviceTopK::MinPairs(t, b, in.data(), out.data(), vin.data(), vout.data(), n, k);
          }
          return largest ? ringsweep::DeviceTopK::MaxKeys(t, b, in.data(), out.data(), n, k)
                         : ringsweep::DeviceTopK::MinKeys(t, b, in.data(), out.data(), n, k);
        };
        std::size_t bytes = 0;
        REQUIRE_CUDA(call(nullptr, bytes));
        ringsweep_test::device_bytes temp(bytes);
        REQUIRE_CUDA(call(temp.data(), bytes));
        REQUIRE_CUDA(cudaDeviceSynchronize());
        const auto order =
            ringsweep_test::reference_order(keys, sort_options_of(largest ? sort_order::descending : sort_order::ascending));
        const auto got = out.download();
        const auto got_v = vout.download();
        for (std::size_t i = 0; i < kk; ++i) {
          INFO("output " << i);
          REQUIRE(ringsweep_test::raw_bits(got[i]) == ringsweep_test::raw_bits(keys[order[i]]));
          if (pairs) REQUIRE(got_v[i] == values[order[i]]);
        }
        CHECK(ringsweep_test::raw_bits(got[kk]) == 0xABABABABu);
      }
    }
  }
  std::size_t bytes = 0;
  CHECK(ringsweep::DeviceTopK::MaxKeys(nullptr, bytes, in.data(), in.data(), -1, 5) == cudaErrorInvalidValue);
  CHECK(ringsweep::DeviceTopK::MinKeys(nullptr, bytes, in.data(), in.data(), n, -5) == cudaErrorInvalidValue);
}

TEST_CASE("top_k: no host synchronisation, a captured graph replays with new keys", "[sort][top_k][graph]") {
  // Global capture mode: a synchronising call (the SIMT backend refuses them as a GPU does)
  // invalidates the capture. Replays see new keys in the same buffers (skewed, then uniform), so
  // levels and buffer use differ between replays of one graph.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t n = 3000, k = 40;
  ringsweep_test::device_buffer<std::uint32_t> in(n), out(k), idx(k);
  const auto opts = sort_options_of(sort_order::descending);
  std::size_t bytes = 0, bytes_i = 0;
  REQUIRE_CUDA(ringsweep::tuning::top_k_keys<tiny>(nullptr, bytes, in.data(), out.data(), n, k, opts));
  REQUIRE_CUDA(ringsweep::tuning::top_k_indices<tiny>(nullptr, bytes_i, in.data(), static_cast<std::uint32_t*>(nullptr),
                                                      idx.data(), n, k, opts));
  ringsweep_test::device_bytes temp(bytes), temp_i(bytes_i);
  ringsweep_test::stream_guard sg;
  const cudaStream_t stream = sg.s;
  // Both calls in one capture: the second's launches follow the first's in the graph.
  cudaGraphExec_t exec = ringsweep_test::capture(stream, [&](cudaStream_t s) {
    const cudaError_t e =
        ringsweep::tuning::top_k_keys<tiny>(temp.data(), bytes, in.data(), out.data(), n, k, opts, s);
    return e != cudaSuccess ? e
                            : ringsweep::tuning::top_k_indices<tiny>(temp_i.data(), bytes_i, in.data(),
                                                                     static_cast<std::uint32_t*>(nullptr),
                                                                     idx.data(), n, k, opts, s);
  });
  for (distribution d : {distribution::high_bits_only, distribution::uniform, distribution::all_equal}) {
    INFO(ringsweep_test::name(d));
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, d, seed + 9);
    in.upload(keys);
    REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    const auto order = ringsweep_test::reference_order(keys, opts);
    const auto got = out.download();
    const auto got_i = idx.download();
    for (std::size_t i = 0; i < k; ++i) {
      INFO("output " << i);
      REQUIRE(got[i] == keys[order[i]]);
      REQUIRE(got_i[i] == order[i]);
    }
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}
