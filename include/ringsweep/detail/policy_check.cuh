// policy_check: a policy's own invariants, asserted once where a sort is configured (sort_config).
// The ring's deadlock-freedom invariant is tail_iterator's, asserted there.
#pragma once

#include <type_traits>

#include "config.cuh"
#include "policy_vocabulary.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Checks a policy's invariants once, where it is used.
template <class Policy>
struct policy_check {
  static_assert(std::is_base_of<policy_defaults, Policy>::value, "a policy derives from ringsweep::policy_defaults");
  static_assert(Policy::HIST_THREADS % warp_threads == 0, "HIST_THREADS must be a multiple of 32");
  static_assert(Policy::RADIX_BITS >= 1 && Policy::RADIX_BITS <= 12, "RADIX_BITS out of range");
  static_assert(Policy::LOOKBACK_DEPTH >= 1, "LOOKBACK_DEPTH must be at least 1");
  static_assert(static_cast<long long>(Policy::STATUS_SLOTS) * (8 << Policy::RADIX_BITS) <= (7ll << 19),
                "the status ring must stay within 3.5 MiB (temporary storage at most 4 MiB for every n)");
  static_assert(Policy::LOOKBACK_WINDOW >= 1 && Policy::LOOKBACK_WINDOW <= 32, "LOOKBACK_WINDOW: 1 to 32");
  static_assert(Policy::PREFETCH_BINS >= 0 && Policy::PREFETCH_BINS <= 2, "PREFETCH_BINS: 0, 1 or 2");
  static_assert(Policy::CACHE_HINTS_L2_PERCENT >= 1, "CACHE_HINTS_L2_PERCENT must be at least 1");
  static_assert(Policy::SEGMENT_TINY_KEYS >= 2 && Policy::SEGMENT_TINY_KEYS <= 65536, "SEGMENT_TINY_KEYS: 2 to 65536");
  static_assert(Policy::SEGMENT_SMALL_THREADS % warp_threads == 0 && Policy::SEGMENT_SMALL_THREADS >= warp_threads &&
                    Policy::SEGMENT_SMALL_THREADS <= 1024,
                "SEGMENT_SMALL_THREADS: whole warps, at most 1024");
  static_assert(Policy::PIPELINE_STAGES == 1 || Policy::PIPELINE_STAGES == 2, "PIPELINE_STAGES: 1 or 2");
  static constexpr bool ok = true;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
