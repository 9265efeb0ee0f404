// warp_match: the lanes of a full warp that hold the same small value (match_any on BITS bits).
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// match_any built from one ballot per bit: lane `l` is in the result when its value agrees with
/// this lane's on every one of the low `BITS` bits. Every lane of the warp must call it. On GPUs
/// this beats `__match_any_sync`, a multi-pass instruction whose result the next instruction waits
/// for (measured on an H100: the onesweep ranking spent most of its stalls there).
///
///     const u32 peers = match_any_by_ballot<8>(digit);   // digit < 256
template <int BITS>
__device__ __forceinline__ u32 match_any_by_ballot(u32 value) {
  u32 peers = 0xffffffffu;
RINGSWEEP_UNROLL
  for (int b = 0; b < BITS; ++b) peers = match_bit(peers, value, 1u << b);
  return peers;
}

/// The lanes of the full warp whose low `BITS` bits of `value` equal this lane's. On the GPU the
/// ballot form; on the host compilers (the CPU SIMT backend) one `__match_any_sync`, which costs
/// one warp rendezvous instead of BITS (tests check that both forms agree).
///
///     const u32 peers = warp_match_any<8>(digit);
template <int BITS>
__device__ __forceinline__ u32 warp_match_any(u32 value) {
#ifdef __CUDA_ARCH__
  return match_any_by_ballot<BITS>(value);
#else
  return __match_any_sync(0xffffffffu, value & ((1u << BITS) - 1u));
#endif
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
