// Tuning policies: what a sort's kernels look like on one GPU architecture. Every policy derives
// from `policy_defaults` and replaces only what it changes; the shipped ones are listed once, by
// architecture, in `shipped_policies`. Test-only policies live under tests/. The vocabulary
// (`sort_types`, `onesweep_shape`, `ring_slots`, `policy_defaults`, `arch_policy`,
// `arch_policies`, `shipped_policies`) is defined in detail/policy_vocabulary.cuh, which the
// internals include; this header adds the shipped policies' definitions.
#pragma once

#include <type_traits>

#include "detail/config.cuh"
#include "detail/policy_vocabulary.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Volta to Ampere and Ada (compute capability 7.0 to 8.9).
struct policy_sm80 : policy_defaults {
  // A striped warp load of 1- or 2-byte items is a request for just 32 or 64 bytes; vectors take a
  // warp's requests from 20 to 7 (u8) or 8 (u16), the items past the last whole vector still
  // striped. 4- and 8-byte items stay striped until timed.
  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) {
    return onesweep_shape::fit(t, 384, 20, 18, 30720).blocks_per_sm(2).vector_loads(2);
  }
};

/// Hopper and newer (compute capability 9.0 on). Chosen on an H100 (2026-11-24, 2^24 and 2^28
/// keys, two runs each; bench/results/gpu/h100-2026-11-24): a look-back window of 4 words for
/// keys-only sorts (+9-12% on 4-byte keys over the window of 1), 24 keys per thread for 4-byte
/// keys (+3-4% over 22), CUB's 15 per thread for 8-byte keys in a 46,080-byte exchange (+19%),
/// offsets read before the look-back where values move (+1%), and for 1- and 2-byte keys a window of
/// 4 with early offsets in keys-only sorts (+7-9%). Every kernel spill-free: three blocks
/// per SM was faster still for 4-byte keys but spills 4-24 bytes.
struct policy_sm90 : policy_defaults {
  // The kernels after the histogram start as programmatic dependents: 5-15% off sorts of 2^14 to
  // 2^20 keys, no change at 2^24 and 2^28.
  static constexpr bool DEPENDENT_LAUNCH = true;
  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) {
    // 8-byte keys: no vector loads (a 1- or 2-byte value's stage would not fit beside the
    // exchange in 48 KiB of static shared memory).
    return t.key_bytes == 8 ? onesweep_shape::fit(t, 384, 15, 15, 46080)
                                  .blocks_per_sm(2)
                                  .lookback_window(t.value_bytes == 0 ? 4 : 1)
                                  .prefetch_bins(1)
           : t.key_bytes == 4 ? onesweep_shape::fit(t, 384, 24, 24, 36864)
                                    .blocks_per_sm(2)
                                    .vector_loads(2)
                                    .lookback_window(t.value_bytes == 0 ? 4 : 1)
                                    .prefetch_bins(t.value_bytes == 0 ? 0 : 1)
                              // 1- and 2-byte keys: vector loads take a warp's requests from 22 to
                              // 7 (u8) or 8 (u16); keys only, a window of 4 and early offsets (+7-9%).
                              : onesweep_shape::fit(t, 384, 22, 22, 33792)
                                    .blocks_per_sm(2)
                                    .vector_loads(2)
                                    .lookback_window(t.value_bytes == 0 ? 4 : 1)
                                    .prefetch_bins(t.value_bytes == 0 ? 1 : 0);
  }
};

RINGSWEEP_NAMESPACE_END
