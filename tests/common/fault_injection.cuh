// Fault injection for tests: hooks (ringsweep/detail/sort_hooks.cuh) under which every onesweep
// tile sleeps a pseudo-random while at its synchronisation points, to show that look-back and
// status-buffer reuse hold up under any timing. Test-only: the library never includes it (it
// ships only the hook points, no_hooks and with_hooks).
#pragma once

#include <ringsweep/detail/config.cuh>
#include <ringsweep/detail/intrinsics.cuh>
#include <ringsweep/detail/sort_hooks.cuh>

namespace ringsweep_test {

/// Sleeps 0..7 short pauses chosen by hashing (tile, site, thread).
///
///     ringsweep::tuning::sort_keys<ringsweep::detail::with_hooks<policy_tiny, fault_injection>>(...);
struct fault_injection : ringsweep::detail::no_hooks {
  using u32 = ringsweep::detail::u32;
  __device__ __forceinline__ static void pause(u32 tile, u32 site) {
    u32 x = tile * 0x9e3779b9u ^ (site + 1u) * 0x85ebca6bu ^ threadIdx.x * 0xc2b2ae35u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    u32 pause = ringsweep::detail::backoff_spin_polls;  // past the polls that do not sleep
    for (u32 i = (x >> 5) & 7u; i != 0; --i) ringsweep::detail::backoff(pause);
  }
};

}  // namespace ringsweep_test
