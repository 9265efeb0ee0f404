// Fault injection sweep (SIMT backend): the full sort with status buffers of 2..4 slots and
// look-back depth 1..2 (also with the persistent pipelined kernel), under many schedule seeds, with the backend delaying random fibers before
// atomics and spin-waits and stalling random blocks, and the tiles' own random pauses. Every
// result must be correct; a deadlock would be reported by the backend's watchdog.
//
// RINGSWEEP_FAULT_SEEDS sets the number of seeds (default 40 here; ctest registers the CI run with
// 200 and the long sweep with 2000).
#include <catch2/catch.hpp>

#include <ringsweep_simt/control.hpp>

#include <cstdlib>

#include "robustness_util.cuh"

namespace {

unsigned delay_permille() {
  const char* s = std::getenv("RINGSWEEP_FAULT_DELAY");
  return s == nullptr ? 30u : static_cast<unsigned>(std::strtoul(s, nullptr, 10));
}

unsigned seed_count() {
  const char* s = std::getenv("RINGSWEEP_FAULT_SEEDS");
  return s == nullptr ? 40u : static_cast<unsigned>(std::strtoul(s, nullptr, 10));
}

template <class Policy>
void sweep(const char* name) {
  const unsigned seeds = seed_count();
  const unsigned long long saved_seed = simt::schedule_seed();
  simt::set_delay_permille(delay_permille());
  unsigned failures = 0;
  for (unsigned s = 1; s <= seeds; ++s) {
    simt::set_schedule_seed(0x5eed0000ull + s);
    // Sizes vary with the seed: below a tile, a few tiles, many buffer wraps, across portions.
    const std::size_t sizes[] = {100, 129, 700, 1500 + 37 * (s % 20)};
    const std::size_t n = sizes[s % 4];
    const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 1000 + s, 1 + int(s % 3));
    if (!ringsweep_test::sort_and_check<Policy>(keys, s % 2 == 0)) {
      ++failures;
      UNSCOPED_INFO(name << ": seed " << s << " n " << n);
    }
  }
  simt::set_delay_permille(0);
  simt::set_schedule_seed(saved_seed);
  CHECK(failures == 0u);
}

/// Ring shapes whose free window (STATUS_SLOTS - LOOKBACK_DEPTH tiles) is wider than a tail group, so that later
/// groups can complete before earlier ones, several groups share no counter and a wait reads
/// several groups (8/2/1: three counters, three groups; 6/1/0: five and five); 16-tile portions,
/// so that launches exceed the free window and retire. Caught with one counter fewer (8/2/1 hangs).
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_>
struct chain_tuning : ringsweep_test::ring_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_> {
  static constexpr int PORTION_TILES = 16;
};
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_>
using chain_ring =
    ringsweep::detail::with_hooks<chain_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_>, ringsweep_test::faulty>;

/// chain_ring read through a look-back window of W words, bins prefetched before the look-back.
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_, int W_>
struct window_tuning : chain_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_> {
  static constexpr int LOOKBACK_WINDOW = W_;
  static constexpr int PREFETCH_BINS = 1;
};
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_, int W_>
using window_ring = ringsweep::detail::with_hooks<window_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_, W_>,
                                                  ringsweep_test::faulty>;

/// ring_tuning with the persistent pipelined kernel: one block per SM (four), each holding its
/// tile's ticket and the next one's, with the copy engine (BULK) or per-thread cp.async.
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_, bool BULK>
struct pipelined_tuning : ringsweep_test::ring_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_> {
  static constexpr int PIPELINE_STAGES = 2;
  static constexpr bool PIPELINE_BULK_COPY = BULK;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep_test::ring_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_>::onesweep(t).blocks_per_sm(1);
  }
};
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_, bool BULK>
using pipelined_ring = ringsweep::detail::with_hooks<pipelined_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_, BULK>,
                                                     ringsweep_test::faulty>;

}  // namespace

TEST_CASE("fault sweep: the pipelined kernel, STATUS_SLOTS = 2, LOOKBACK_DEPTH = 1, bulk copies", "[faults]") {
  sweep<pipelined_ring<2, 1, 0, true>>("pipelined 2/1/0 bulk");
}
TEST_CASE("fault sweep: the pipelined kernel, STATUS_SLOTS = 4, LOOKBACK_DEPTH = 2, cp.async", "[faults]") {
  sweep<pipelined_ring<4, 2, 1, false>>("pipelined 4/2/1 cp.async");
}

TEST_CASE("fault sweep: STATUS_SLOTS = 2, LOOKBACK_DEPTH = 1", "[faults]") {
  sweep<ringsweep_test::policy_ring<2, 1, 0>>("2/1/0");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 3, LOOKBACK_DEPTH = 2", "[faults]") {
  sweep<ringsweep_test::policy_ring<3, 2, 0>>("3/2/0");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 4, LOOKBACK_DEPTH = 2, tail groups of 2", "[faults]") {
  sweep<ringsweep_test::policy_ring<4, 2, 1>>("4/2/1");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 4, LOOKBACK_DEPTH = 1, tail groups of 2", "[faults]") {
  sweep<ringsweep_test::policy_ring<4, 1, 1>>("4/1/1");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 8, LOOKBACK_DEPTH = 2, tail groups of 2 (three counters)", "[faults]") {
  sweep<chain_ring<8, 2, 1>>("8/2/1");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 6, LOOKBACK_DEPTH = 1, tail groups of 1 (five counters)", "[faults]") {
  sweep<chain_ring<6, 1, 0>>("6/1/0");
}
TEST_CASE("fault sweep: STATUS_SLOTS = 8, LOOKBACK_DEPTH = 3, look-back window of 2", "[faults]") {
  sweep<window_ring<8, 3, 1, 2>>("8/3/1 W2");
}
