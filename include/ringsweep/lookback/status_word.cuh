// status_word: the 64-bit entry one tile publishes per digit for decoupled look-back.
#pragma once

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Layout: bits [0,2) flag, [2,32) count (30 bits), [32,64) the publishing tile's global index.
/// A zero word (the state after the sort's memset) is `invalid`. A reader that finds another
/// tile's index in the word is looking at a stale slot and treats it as not yet published.
///
///     u64 w = status_word::pack(status_word::aggregate, 17, tile);
///     status_word::count(w) == 17;
struct status_word {
  static constexpr u32 invalid = 0;
  static constexpr u32 aggregate = 1;  // count of this tile alone
  static constexpr u32 inclusive = 2;  // count of this tile and every earlier tile of the launch
  static constexpr u32 max_count = (1u << 30) - 1u;

  __host__ __device__ static constexpr u64 pack(u32 flag, u32 count, u32 tile) {
    return (u64(tile) << 32) | (u64(count) << 2) | u64(flag);
  }
  __host__ __device__ static constexpr u32 flag(u64 w) { return u32(w) & 3u; }
  __host__ __device__ static constexpr u32 count(u64 w) { return u32(w) >> 2; }
  __host__ __device__ static constexpr u32 tile(u64 w) { return u32(w >> 32); }
  /// flag and count from the word's low 32 bits.
  __host__ __device__ static constexpr u32 flag_of_low(u32 low) { return low & 3u; }
  __host__ __device__ static constexpr u32 count_of_low(u32 low) { return low >> 2; }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
