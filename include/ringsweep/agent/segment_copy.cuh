// copy_large_tile: a segmented sort's large segments moved, tile by tile, between two of the
// sort's buffers (the copy that puts them where the executed passes will end in the result's).
#pragma once

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "pass_route.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Copies large tile `g` (if it exists: returns whether) along the route word `r` (its source and
/// destination, pass_buffer indices into `keys_buf` / `values_buf`) with `THREADS` threads. The
/// source is not written by the launch that copies. Buffers are picked by comparisons: indexing
/// the parameter arrays would copy them to local memory.
///
///     if (pass_route::runs(r)) copy_large_tile<128, true>(p.keys_buf, p.values_buf, r, p.large, word, TILE, g);
template <int THREADS, bool HAS_VALUES, class Bits, class ValueRaw>
__device__ __forceinline__ bool copy_large_tile(Bits* const (&keys_buf)[3], ValueRaw* const (&values_buf)[3], u32 r,
                                                const large_segment* large, u64 word, int tile, u64 g) {
  u32 segment = 0;
  u64 first = 0;
  int valid = 0;
  if (!find_large_tile(large, word, g, tile, segment, first, valid)) return false;
  const u32 src = pass_route::src(r), dst = pass_route::dst(r);
  const Bits* keys = src == buffer_in ? keys_buf[0] : src == buffer_final ? keys_buf[1] : keys_buf[2];
  Bits* keys_to = dst == buffer_final ? keys_buf[1] : keys_buf[2];
  const ValueRaw* values = src == buffer_in ? values_buf[0] : src == buffer_final ? values_buf[1] : values_buf[2];
  ValueRaw* values_to = dst == buffer_final ? values_buf[1] : values_buf[2];
  for (int i = int(threadIdx.x); i < valid; i += THREADS) {
    const u64 at = first + u64(i);
    store_global(keys_to + at, load_global(keys + at));
    if constexpr (HAS_VALUES) store_global(values_to + at, load_global(values + at));
  }
  return true;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
