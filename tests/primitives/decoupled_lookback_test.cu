// Decoupled look-back alone: tiles publish random per-digit counts into a tiny circular status
// buffer (STATUS_SLOTS = 4, LOOKBACK_DEPTH = 2) and must each get their exclusive prefix, across several launches
// that continue one ticket and alternate the tail counters; random delays shuffle the timing.
#include <catch2/catch.hpp>

#include <ringsweep/lookback/decoupled_lookback.cuh>
#include <ringsweep/lookback/tail_iterator.cuh>

#include <vector>

#include "sort_test_util.cuh"

namespace {

using ringsweep::detail::u32;
using ringsweep::detail::u64;

__device__ u32 mix(u32 x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

/// Fault injection: a pseudo-random number of sleeps (each one yields on the SIMT backend).
__device__ void random_delay(u32 seed, u32 a, u32 b) {
  const u32 n = mix(seed ^ mix(a * 0x9e3779b9u + b)) % 5u;
  for (u32 i = 0; i < n; ++i) __nanosleep(200);
}

template <int RADIX, int STATUS_SLOTS, int LOOKBACK_DEPTH, int TAIL_BITS, int W>
__global__ void lookback_kernel(const u32* counts, u32* exclusive_out, u64* status, u32* ticket, u32* tails,
                                u32 tile_base, u32 launch_index, u32 delay_seed) {
  using lookback_t = ringsweep::detail::decoupled_lookback<RADIX, STATUS_SLOTS, LOOKBACK_DEPTH, W>;
  using tail_t = ringsweep::detail::tail_iterator<STATUS_SLOTS, LOOKBACK_DEPTH, TAIL_BITS>;
  __shared__ u32 s_ticket;
  const tail_t tail(tails, launch_index);
  const lookback_t lookback{{status}, tile_base};
  if (threadIdx.x == 0) {
    const u32 t = atomicAdd(ticket, 1u);
    const u32 u = t - tile_base;
    if (u == 0) tail.clear_next();
    tail.wait_slot_free(u);
    s_ticket = t;
  }
  __syncthreads();
  const u32 u = s_ticket - tile_base;
  for (int d = int(threadIdx.x); d < RADIX; d += int(blockDim.x)) {
    const u32 c = counts[std::size_t(u) * RADIX + d];
    random_delay(delay_seed, u, u32(d));
    lookback.publish_count(u, d, c);
    random_delay(delay_seed + 1, u, u32(d));
    const u32 exclusive = lookback.exclusive_prefix(u, d);
    random_delay(delay_seed + 2, u, u32(d));
    lookback.publish_inclusive(u, d, exclusive + c);
    exclusive_out[std::size_t(u) * RADIX + d] = exclusive;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    random_delay(delay_seed + 3, u, 99);
    tail.retire(u);
  }
}

template <int RADIX, int STATUS_SLOTS, int LOOKBACK_DEPTH, int TAIL_BITS, int W = 1>
void check_lookback(const std::vector<u32>& launch_tiles, u32 max_count, std::uint64_t seed) {
  INFO("RADIX " << RADIX << " STATUS_SLOTS " << STATUS_SLOTS << " LOOKBACK_DEPTH " << LOOKBACK_DEPTH << " TAIL_BITS "
                << TAIL_BITS << " W " << W << " max_count " << max_count << " seed " << seed);
  ringsweep_test::device_buffer<u64> status(static_cast<std::size_t>(STATUS_SLOTS * RADIX));
  ringsweep_test::device_buffer<u32> counters(
      1 + std::size_t(ringsweep::detail::tail_iterator<STATUS_SLOTS, LOOKBACK_DEPTH, TAIL_BITS>::WORDS_PER_SORT));
  status.fill_bytes(0);
  counters.fill_bytes(0);
  u32 tile_base = 0;
  for (std::size_t k = 0; k < launch_tiles.size(); ++k) {
    const u32 tiles = launch_tiles[k];
    INFO("launch " << k << " tiles " << tiles);
    std::vector<u32> counts =
        ringsweep_test::random_ints<u32>(std::size_t(tiles) * RADIX, seed + 17 * k, 0u, max_count);
    ringsweep_test::device_buffer<u32> d_counts(counts), d_exclusive(counts.size());
    REQUIRE_CUDA(ringsweep_test::launch(lookback_kernel<RADIX, STATUS_SLOTS, LOOKBACK_DEPTH, TAIL_BITS, W>, tiles, 32, 0,
                                        ringsweep_test::serial,
                                        d_counts.data(), d_exclusive.data(), status.data(), counters.data(),
                                        counters.data() + 1, tile_base, u32(k), u32(seed + k)));
    REQUIRE_CUDA_LAUNCH();
    std::vector<u32> expected(counts.size());
    for (int d = 0; d < RADIX; ++d) {
      u32 sum = 0;
      for (u32 u = 0; u < tiles; ++u) {
        expected[std::size_t(u) * RADIX + d] = sum;
        sum += counts[std::size_t(u) * RADIX + d];
      }
    }
    REQUIRE(d_exclusive.download() == expected);
    tile_base += tiles;
  }
  // Every ticket was taken exactly once.
  REQUIRE(counters.download()[0] == tile_base);
}

/// The depth rule: tile `u` reads tiles u-1 .. u-DEPTH and, at u-DEPTH, waits for an inclusive
/// word. Block 0 looks back from tile DEPTH + 2 over words written beforehand: aggregates
/// (count 1 each) down to the deepest tile, whose word is an aggregate of 20 until block 1
/// (after a delay) makes it inclusive with 100; one tile deeper lies an inclusive trap of 1000,
/// which only a walk past the depth limit reads. Right: DEPTH - 1 + 100.
template <int DEPTH, int W>
__global__ void depth_rule_kernel(u64* status, u32* exclusive_out) {
  using lookback_t = ringsweep::detail::decoupled_lookback<1, 16, DEPTH, W>;
  const lookback_t lookback{{status}, 0u};
  if (blockIdx.x == 0) {
    exclusive_out[0] = lookback.exclusive_prefix(DEPTH + 2, 0);
  } else {
    for (int i = 0; i < 50; ++i) __nanosleep(1000);
    lookback.publish_inclusive(2, 0, 100);
  }
}

template <int DEPTH, int W>
void check_depth_rule() {
  INFO("LOOKBACK_DEPTH " << DEPTH << " W " << W);
  using word = ringsweep::detail::status_word;
  std::vector<u64> words(16, 0);
  words[1] = word::pack(word::inclusive, 1000, 1);  // the trap, one past the depth limit
  words[2] = word::pack(word::aggregate, 20, 2);    // the deepest tile, inclusive later
  for (u32 t = 3; t < u32(DEPTH) + 2; ++t) words[t] = word::pack(word::aggregate, 1, t);
  ringsweep_test::device_buffer<u64> status(words);
  ringsweep_test::device_buffer<u32> exclusive(1);
  REQUIRE_CUDA(ringsweep_test::launch(depth_rule_kernel<DEPTH, W>, 2, 1, 0, ringsweep_test::serial, status.data(),
                                      exclusive.data()));
  REQUIRE_CUDA_LAUNCH();
  REQUIRE(exclusive.download()[0] == u32(DEPTH - 1 + 100));
}

}  // namespace

TEST_CASE("decoupled look-back over a 4-slot buffer (LOOKBACK_DEPTH = 2)", "[lookback]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  check_lookback<4, 4, 2, 1>({1, 13, 2, 40, 7}, 1000, seed);
  check_lookback<4, 4, 2, 1>({64}, 0, seed + 1);         // all zero counts
  check_lookback<4, 4, 2, 1>({33}, 1u << 24, seed + 2);  // large counts
}

TEST_CASE("decoupled look-back with more digits than threads and deeper look-back", "[lookback]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  check_lookback<40, 8, 4, 2>({5, 30, 1, 17}, 50, seed + 3);
  check_lookback<8, 6, 4, 1>({25, 9}, 3, seed + 4);
  // A free window of 6 tiles over groups of 2: the tail's carry runs over several groups.
  check_lookback<4, 8, 2, 1>({40, 3, 21}, 100, seed + 5);
}

TEST_CASE("decoupled look-back reading a window of predecessors at once", "[lookback]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  check_lookback<4, 8, 5, 1, 3>({1, 13, 40, 7}, 1000, seed + 6);  // windows cut at depth LOOKBACK_DEPTH
  check_lookback<8, 16, 8, 2, 4>({60, 5}, 50, seed + 7);
  check_lookback<4, 4, 2, 1, 2>({30}, 0, seed + 8);               // all zero counts
}

TEST_CASE("decoupled look-back waits for an inclusive word at depth LOOKBACK_DEPTH", "[lookback]") {
  check_depth_rule<1, 1>();
  check_depth_rule<6, 1>();
  check_depth_rule<6, 3>();  // a window, then the words near the depth limit one at a time
  check_depth_rule<9, 4>();
}
