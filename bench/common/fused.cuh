// Tuning variants with the fused exchange (issue #35 item 4: each key goes to shared memory at its
// rank inside the ranking), shared by ringsweep_tune and its spill check (tune_spill_check.cu).
#pragma once

#include <ringsweep/policy.cuh>

namespace tune {

/// policy_sm90 with three blocks per SM for 4-byte keys-only sorts: 384 x `K` keys (float keys
/// too), recomputed digits, the fused exchange, a look-back window of `W` words, and a ring for 396
/// tiles in flight (3 x 132 SMs) in groups of 64; every other sort keeps policy_sm90's shape.
/// ptxas (CUDA 13.0, sm_90, 2026-11-26): 56 registers and no spills for K = 20, 21, 22 (u32 and
/// f32 keys; 48,192 bytes of static shared memory at 22); 58.3 SASS instructions per key at 22
/// against the shipped 384 x 24's 57.0 (bench/report/sass_phases.py). K = 24: the tile's storage
/// is above 48 KiB and lives in dynamic shared memory (onesweep_tile::DYNAMIC_SHARED).
template <int K, int W>
struct min3_fused : ringsweep::policy_sm90 {
  static constexpr int LOOKBACK_DEPTH = 512;
  static constexpr int TAIL_BITS = 6;
  static constexpr int STATUS_SLOTS = ringsweep::ring_slots(3 * 132, LOOKBACK_DEPTH, TAIL_BITS);
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes == 4 && t.value_bytes == 0 ? ringsweep::onesweep_shape::fit(t, 384, K, K, 384 * K * 4)
                                                        .blocks_per_sm(3)
                                                        .recompute()
                                                        .vector_loads(2)
                                                        .lookback_window(W)
                                                        .prefetch_bins(0)
                                                        .fused_exchange()
                                                  : ringsweep::policy_sm90::onesweep(t);
  }
};

}  // namespace tune
