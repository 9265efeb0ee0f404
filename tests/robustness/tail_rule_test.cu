// The tail rule, through one harness: tiles publish random per-digit counts into a tiny circular
// status buffer and look back for their exclusive prefixes, under the backend's fault injection.
// With the library's tail_iterator every seed gives the right prefixes. With a deliberately broken
// tail the same harness must fail: a reader then finds a newer tile's word in the slot it waits
// on and never sees its predecessor again, which the watchdog reports (or a prefix comes out
// wrong). Two broken tails: one that never waits before reusing a slot, and one that waits for
// the latest of the groups the rule reads only (the library reads CHECKS groups). Those runs
// happen in a forked child. SIMT backend only.
#include <catch2/catch.hpp>

#include <ringsweep/lookback/decoupled_lookback.cuh>
#include <ringsweep/lookback/tail_iterator.cuh>
#include <ringsweep_simt/control.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "test_util.cuh"

namespace {

using ringsweep::detail::u32;
using ringsweep::detail::u64;

constexpr int RADIX = 4;

/// A ring: STATUS_SLOTS slots, LOOKBACK_DEPTH, tail groups of 2^TAIL_BITS.
template <int S, int D, int TB>
struct ring {
  static constexpr int STATUS_SLOTS = S, LOOKBACK_DEPTH = D, TAIL_BITS = TB;
  using library_tail = ringsweep::detail::tail_iterator<S, D, TB>;
};
/// One group per tile; the slot of tile u - 2 is read by its successor only.
using ring_2_1_0 = ring<2, 1, 0>;
/// Groups of two tiles, two counters, and a wait reads two groups: tile u reuses the slot of tile
/// u - 6, which tiles u - 5 and u - 4 read, and the group of tile u - 4 may not hold u - 5.
using ring_6_2_1 = ring<6, 2, 1>;
static_assert(ring_6_2_1::library_tail::CHECKS == 2 && ring_6_2_1::library_tail::GROUPS == 2);

/// The broken rule: no wait before reusing a slot; retiring is bookkeeping only.
struct no_wait_tail {
  u32* tail;
  __device__ no_wait_tail(u32* words, u32) : tail(words) {}
  __device__ void wait_slot_free(u32) const {}
  __device__ void retire(u32) const { atomicAdd(tail, 1u); }
};

/// The library's counters and retire, with a wait that reads the latest of the CHECKS groups only:
/// a reader of the slot in the group below may still be reading it.
template <class Ring>
struct latest_group_only_tail : Ring::library_tail {
  using base = typename Ring::library_tail;
  using base::base;
  __device__ void wait_slot_free(u32 u) const {
    if (u < base::FREE_TILES) return;
    const u32 g = (u - base::FREE_TILES) >> Ring::TAIL_BITS;
    u32 pause = 0;
    while (ringsweep::detail::load_acquire(this->words + g % base::GROUPS) < (g / base::GROUPS + 1u) * base::GROUP) {
      ringsweep::detail::backoff(pause);
    }
  }
};

template <class Ring, class Tail>
__global__ void harness_kernel(const u32* counts, u32* exclusive_out, u64* status, u32* ticket, u32* tail_counter) {
  using lookback_t = ringsweep::detail::decoupled_lookback<RADIX, Ring::STATUS_SLOTS, Ring::LOOKBACK_DEPTH>;
  __shared__ u32 s_tile;
  const Tail tail(tail_counter, 0u);
  const lookback_t lookback{{status}, 0u};
  if (threadIdx.x == 0) {
    s_tile = atomicAdd(ticket, 1u);
    tail.wait_slot_free(s_tile);
  }
  __syncthreads();
  const u32 u = s_tile;
  if (threadIdx.x < RADIX) {
    const int d = int(threadIdx.x);
    const u32 c = counts[u * RADIX + d];
    lookback.publish_count(u, d, c);
    const u32 exclusive = lookback.exclusive_prefix(u, d);
    lookback.publish_inclusive(u, d, exclusive + c);
    exclusive_out[u * RADIX + d] = exclusive;
  }
  __syncthreads();
  if (threadIdx.x == 0) tail.retire(u);
}

/// Runs the harness for `tiles` tiles under schedule `seed`; true when every prefix is right.
template <class Ring, class Tail>
bool run_harness(u32 tiles, unsigned long long seed) {
  simt::set_schedule_seed(seed);
  const std::vector<u32> counts = ringsweep_test::random_ints<u32>(std::size_t(tiles) * RADIX, seed, 0u, 100u);
  ringsweep_test::device_buffer<u32> d_counts(counts), d_exclusive(counts.size());
  ringsweep_test::device_buffer<u32> counters(1 + std::size_t(Ring::library_tail::WORDS_PER_SORT));
  ringsweep_test::device_buffer<u64> status(std::size_t(Ring::STATUS_SLOTS) * RADIX);
  counters.fill_bytes(0);
  status.fill_bytes(0);
  if (ringsweep_test::launch(harness_kernel<Ring, Tail>, tiles, 32, 0, ringsweep_test::serial,
                             d_counts.data(), d_exclusive.data(), status.data(), counters.data(), counters.data() + 1) !=
      cudaSuccess)
    return false;
  const std::vector<u32> got = d_exclusive.download();
  for (int d = 0; d < RADIX; ++d) {
    u32 sum = 0;
    for (u32 u = 0; u < tiles; ++u) {
      if (got[u * RADIX + d] != sum) return false;
      sum += counts[u * RADIX + d];
    }
  }
  return true;
}

constexpr unsigned k_seeds = 200;
constexpr u32 k_tiles = 48;
constexpr unsigned k_workers = 4;  // more blocks in flight: more chances to overwrite a slot early
constexpr unsigned k_delay = 250;

/// Every seed of the harness under `Ring` with `Tail`: the seeds that gave a wrong prefix.
template <class Ring, class Tail>
unsigned wrong_seeds() {
  unsigned wrong = 0;
  for (unsigned s = 1; s <= k_seeds; ++s) wrong += run_harness<Ring, Tail>(k_tiles, s) ? 0 : 1;
  return wrong;
}

/// Rounds of every seed a broken rule gets in `caught_in_child`. Whether a broken rule hangs depends
/// on how the OS interleaves the workers as well as on the seed: with the backend not instrumented
/// by the sanitizers (2026-11-29), one round of 200 seeds missed the latest-group-only tail in about
/// one run of four, so the child runs the seeds again, up to 10 rounds (a round of a rule that never
/// fails takes about 0.4 s; a caught rule ends at its first wrong prefix or watchdog).
constexpr unsigned k_child_rounds = 10;

/// Runs `Ring` with `Tail` over every seed, round after round, in a forked child (a broken rule may
/// hang: the watchdog ends it); true when the child failed.
template <class Ring, class Tail>
bool caught_in_child(const char* name) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    signal(SIGABRT, SIG_DFL);
    simt::set_watchdog_seconds(2.0);
    simt::set_workers(k_workers);
    simt::set_delay_permille(k_delay);
    for (unsigned round = 0; round < k_child_rounds; ++round) {
      for (unsigned s = 1; s <= k_seeds; ++s) {
        if (!run_harness<Ring, Tail>(k_tiles, s)) {
          std::fprintf(stderr, "%s: wrong prefix under seed %u (round %u)\n", name, s, round + 1);
          _exit(3);
        }
      }
    }
    _exit(0);  // not caught
  }
  int status = 0;
  waitpid(pid, &status, 0);
  INFO(name << ": child status " << status);
  return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

}  // namespace

TEST_CASE("the library's tail rule survives every seed of the fault-injection harness", "[faults][tail]") {
  const unsigned long long saved = simt::schedule_seed();
  const unsigned saved_workers = simt::workers();
  simt::set_workers(k_workers);
  simt::set_delay_permille(k_delay);
  const unsigned wrong_2_1_0 = wrong_seeds<ring_2_1_0, ring_2_1_0::library_tail>();
  const unsigned wrong_6_2_1 = wrong_seeds<ring_6_2_1, ring_6_2_1::library_tail>();
  simt::set_delay_permille(0);
  simt::set_workers(saved_workers);
  simt::set_schedule_seed(saved);
  CHECK(wrong_2_1_0 == 0u);
  CHECK(wrong_6_2_1 == 0u);
}

TEST_CASE("a broken tail rule is caught by the same harness", "[faults][tail]") {
  CHECK(caught_in_child<ring_2_1_0, no_wait_tail>("no wait"));
}

TEST_CASE("a wait that reads fewer groups than the rule's CHECKS is caught by the same harness", "[faults][tail]") {
  CHECK(caught_in_child<ring_6_2_1, latest_group_only_tail<ring_6_2_1>>("latest group only"));
}
