// Test and measurement hooks of a sort: a second parameter beside the tuning policy, which
// compiles to nothing by default. The shipped sorts always run with `no_hooks`; tests pause tiles
// at random (tests/common/fault_injection.cuh, not shipped) and the tuning program records tile
// timelines (tile_trace.cuh).
#pragma once

#include "config.cuh"
#include "tile_trace.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The hooks of every shipped sort: each member is empty or constant, so nothing is compiled in.
/// Hooks of one's own derive from it and hide what they change:
///
///     struct my_hooks : ringsweep::detail::no_hooks {
///       __device__ static void pause(u32 tile, u32 site) { /* delay the tile */ }
///     };
///     ringsweep::tuning::sort_keys<ringsweep::detail::with_hooks<my_policy, my_hooks>>(...);
///
/// - `pause(tile, site)`: called by one onesweep tile's threads at its synchronisation points
///   (site 0: ticket taken, 1: before ranking, 2: before a digit's look-back, 3: after it,
///   4: before retiring).
/// - `TRACE`, `trace_sink()`: every onesweep tile writes its timeline (`tile_trace`) to
///   `trace_sink()[ticket]`, a device array with a record per ticket of the sort.
/// - `onesweep_launched(cache_hints)`: the host dispatch calls it after each onesweep launch it
///   enqueues (one per pass and portion), saying whether it launched the kernel with cache hints
///   (the policy's CACHE_HINTS).
/// - `first_ticket(tail_words, count)`: called by the thread that takes a onesweep launch's first
///   ticket, before it clears the next launch's tail words, with this launch's `count` tail words
///   (tail_iterator), which the launch before it (run or skipped) must have cleared: no tile of
///   the launch can have retired yet, since every look-back waits on the first tile's counts.
/// - `tail<S, L, TAIL_BITS>` (a member alias template, none in no_hooks): the tail iterator the
///   onesweep tiles wait and retire through instead of `tail_iterator` (sort_config's
///   `hooks_tail`), with the same interface.
struct no_hooks {
  static constexpr bool TRACE = false;
  __device__ __forceinline__ static void pause(u32, u32) {}
  __device__ __forceinline__ static void first_ticket(const u32*, int) {}
  __host__ static tile_trace* trace_sink() { return nullptr; }
  __host__ static void onesweep_launched(bool) {}
};

/// A tuning policy run with test or measurement hooks: passed where a policy is expected
/// (`tuning::sort_keys<with_hooks<P, H>>`), it sorts with `Policy`'s kernels and `Hooks` inside.
/// It derives from both, so the policy's constants and the hooks' own state read through it
/// (`with_hooks<P, H>::PORTION_TILES`, `with_hooks<P, H>::sink`); the sort itself takes the two apart.
template <class Policy, class Hooks>
struct with_hooks : Policy, Hooks {
  using policy = Policy;
  using hooks = Hooks;
};

/// The tuning policy and the hooks a policy argument names: `P` and no_hooks, or the two halves
/// of a `with_hooks`.
template <class P>
struct policy_and_hooks {
  using policy = P;
  using hooks = no_hooks;
};
template <class Policy, class Hooks>
struct policy_and_hooks<with_hooks<Policy, Hooks>> {
  using policy = Policy;
  using hooks = Hooks;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
