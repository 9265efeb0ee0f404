// Tuning variant with the values of a pairs sort loaded before the look-back (issue #35 item 6:
// onesweep_shape::early_values), shared by ringsweep_tune and its spill check
// (tests/spill/tune_spill_check.cu).
#pragma once

#include <ringsweep/policy.cuh>

namespace tune {

/// `Base`'s shapes, pairs with their values loaded before the look-back: the keys go to shared
/// memory first and the values' loads are in flight while the look-back waits. ptxas (CUDA 13.0,
/// 2026-11-27) with policy_sm90 on sm_90: no spills for u32/u32, u64/u32 and segmented u32/u32
/// pairs, 69.0 and 78.0 SASS instructions per key (the shipped order: 69.3 and 76.3).
template <class Base>
struct early_values : Base {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.value_bytes > 0 ? Base::onesweep(t).early_values() : Base::onesweep(t);
  }
};

}  // namespace tune
