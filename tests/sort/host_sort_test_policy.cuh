// The host-resident sort tests' chunk policy (host_sort_test.cu, host_sort_copies_test.cu): 4-bit
// digits, so that its constant temporary storage is a few KiB and budgets of 32-64 KiB make many
// chunks, many buckets and second partition levels out of a few hundred thousand keys.
#pragma once

#include <ringsweep/ringsweep.cuh>

namespace host_sort_test {
/// 4-bit digits, a 4-slot ring, 512-key tiles: a temporary storage of a few KiB.
struct policy : ringsweep::policy_defaults {
  static constexpr int RADIX_BITS = 4;
  static constexpr int STATUS_SLOTS = 4;
  static constexpr int LOOKBACK_DEPTH = 2;
  static constexpr int TAIL_BITS = 1;
  static constexpr int PORTION_TILES = 8;
  static constexpr int HIST_THREADS = 64;
  static constexpr int HIST_ITEMS = 4;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 8, 8, 64 * 8 * 16);
  }
};
}  // namespace host_sort_test
