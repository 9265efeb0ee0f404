// Fault injection for tests: a policy with `static constexpr int FAULT_INJECTION = 1` makes every
// onesweep tile sleep a pseudo-random while at its synchronisation points, to show that look-back
// and status-buffer reuse hold up under any timing. Other policies compile it away.
#pragma once

#include "config.cuh"
#include "intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Sleeps 0..7 short pauses chosen by hashing (tile, site, thread) when `Policy` asks for it.
///
///     inject_delay<Policy>(ticket, 2);
template <class Policy>
__device__ __forceinline__ void inject_delay(u32 tile, u32 site) {
  if constexpr (Policy::FAULT_INJECTION != 0) {
    u32 x = tile * 0x9e3779b9u ^ (site + 1u) * 0x85ebca6bu ^ threadIdx.x * 0xc2b2ae35u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    u32 pause = backoff_spin_polls;  // past the polls that do not sleep
    for (u32 i = (x >> 5) & 7u; i != 0; --i) backoff(pause);
  } else {
    (void)tile;
    (void)site;
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
