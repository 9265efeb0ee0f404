// Fault injection for tests: hooks (sort_hooks.cuh) under which every onesweep tile sleeps a
// pseudo-random while at its synchronisation points, to show that look-back and status-buffer
// reuse hold up under any timing.
#pragma once

#include "config.cuh"
#include "intrinsics.cuh"
#include "sort_hooks.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Sleeps 0..7 short pauses chosen by hashing (tile, site, thread).
///
///     ringsweep::tuning::sort_keys<ringsweep::detail::with_hooks<tiny_policy, fault_injection>>(...);
struct fault_injection : no_hooks {
  __device__ __forceinline__ static void pause(u32 tile, u32 site) {
    u32 x = tile * 0x9e3779b9u ^ (site + 1u) * 0x85ebca6bu ^ threadIdx.x * 0xc2b2ae35u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    u32 pause = backoff_spin_polls;  // past the polls that do not sleep
    for (u32 i = (x >> 5) & 7u; i != 0; --i) backoff(pause);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
