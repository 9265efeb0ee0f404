// Tuning variants with the persistent pipelined onesweep kernel (policy PIPELINE_STAGES = 2; see
// docs/design.md section 3), shared by ringsweep_tune and its spill check (tests/spill/tune_spill_check.cu).
#pragma once

#include <ringsweep/policy.cuh>

namespace tune {

/// `Base` with the pipelined kernel where it compiles without spills, and a ring sized for two
/// tickets per resident block (`RESIDENT_BLOCKS`: blocks per SM x SMs; a block holds its tile and
/// the next one's ticket). 1- and 2-byte keys-only kernels keep one tile per block: pipelined at
/// policy_sm90's 384 x 22 they spill 28-36 B on sm_90 (ptxas, CUDA 13). Groups of 2^`TAIL_BITS_`.
template <class Base, int RESIDENT_BLOCKS, int TAIL_BITS_ = Base::TAIL_BITS>
struct pipelined : Base {
  static constexpr int PIPELINE_STAGES = 2;
  static constexpr int TAIL_BITS = TAIL_BITS_;
  static constexpr int STATUS_SLOTS = ringsweep::ring_slots(2 * RESIDENT_BLOCKS, Base::LOOKBACK_DEPTH, TAIL_BITS_);
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes < 4 && t.value_bytes == 0 ? Base::onesweep(t).pipeline_stages(1) : Base::onesweep(t);
  }
};

/// policy_sm90 pipelined on an H100 (2 blocks per SM x 132 SMs).
using sm90_pipelined = pipelined<ringsweep::policy_sm90, 2 * 132>;

/// `Base` with the copy engine's bulk copies (PIPELINE_BULK_COPY) instead of cp.async.
template <class Base>
struct bulk : Base {
  static constexpr bool PIPELINE_BULK_COPY = true;
};

/// policy_sm90's shapes with 22 keys per thread for 4-byte keys, 18 with values (pipelined with
/// bulk copies 24 spill 48 B keys-only and 8 B with values on sm_90, 22 or 20 with values 8-12 B).
struct sm90_22 : ringsweep::policy_sm90 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes == 4 ? ringsweep::onesweep_shape::fit(t, 384, 22, 18, 384 * 22 * 4)
                                  .blocks_per_sm(2)
                                  .vector_loads(2)
                                  .lookback_window(t.value_bytes == 0 ? 4 : 1)
                                  .prefetch_bins(t.value_bytes == 0 ? 0 : 1)
                            : ringsweep::policy_sm90::onesweep(t);
  }
};

/// sm90_22 pipelined with bulk copies on an H100.
using sm90_22_pipelined_bulk = bulk<pipelined<sm90_22, 2 * 132>>;

/// policy_sm90 pipelined with its ring as shipped (1024 slots for 256 tiles in flight): how much
/// the larger ring matters.
struct sm90_pipelined_ring1024 : ringsweep::policy_sm90 {
  static constexpr int PIPELINE_STAGES = 2;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return sm90_pipelined::onesweep(t);
  }
};

/// Three blocks per SM pipelined: 384 x 16 keys, 14 with values (digits recomputed, 56
/// registers). Spill-free on sm_90; 18 keys spill 56 B (u32 keys only), 20 keys 8-80 B.
struct min3_16 : ringsweep::policy_sm90 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 384, 16, 14, 384 * 16 * 4).blocks_per_sm(3).recompute().vector_loads(2);
  }
};

/// min3_16 pipelined on an H100, a ring for 792 tickets in groups of 64 (1408 slots, 2.75 MiB).
using min3_16_pipelined = pipelined<min3_16, 3 * 132, 6>;

/// min3_16_pipelined with bulk copies.
using min3_16_pipelined_bulk = bulk<min3_16_pipelined>;

/// policy_sm80 pipelined on an A100 (2 blocks per SM x 108 SMs): spill-free on sm_80.
using sm80_pipelined = pipelined<ringsweep::policy_sm80, 2 * 108>;

}  // namespace tune
