// The final copy of a segmented sort's large segments: enqueued after their passes, it exits at
// once unless the route says the executed passes (possibly none) left them outside the result's
// buffer. Keys outside every large segment are neither read nor written.
#pragma once

#include "../agent/pass_route.cuh"
#include "../agent/segment_lists.cuh"
#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

constexpr int segment_copy_threads = 256;

/// Arguments of the large segments' final copy (buffers indexed by pass_buffer).
template <class Bits, class ValueRaw>
struct segment_copy_params {
  const u32* route;  // the sort's route word 0
  Bits* keys[3];
  ValueRaw* values[3];  // null: keys only
  const large_segment* large;
  const u64* large_word;
  int tile;             // keys per large tile
};

/// Persistent grid over the large tiles; each thread finds its block's tile itself. `DEPENDENT`:
/// launched as a programmatic dependent of the last onesweep pass (Policy::DEPENDENT_LAUNCH).
template <class Bits, class ValueRaw, bool HAS_VALUES, bool DEPENDENT = false>
__global__ void __launch_bounds__(segment_copy_threads) segment_copy_kernel(segment_copy_params<Bits, ValueRaw> p) {
  if constexpr (DEPENDENT) grid_dependency_wait();  // the last kernel of the sort: no dependent to let in
  const u32 r = *p.route;
  if (!pass_route::runs(r)) return;
  const u32 src = pass_route::src(r);
  const u64 word = *p.large_word;
  for (u64 g = blockIdx.x;; g += gridDim.x) {
    u32 segment = 0;
    u64 first = 0;
    int valid = 0;
    if (!find_large_tile(p.large, word, g, p.tile, segment, first, valid)) return;
    // The source picked by comparisons: indexing the parameter arrays would copy them to local memory.
    const Bits* keys = src == buffer_in ? p.keys[0] : src == buffer_final ? p.keys[1] : p.keys[2];
    const ValueRaw* values = src == buffer_in ? p.values[0] : src == buffer_final ? p.values[1] : p.values[2];
    for (int i = int(threadIdx.x); i < valid; i += segment_copy_threads) {
      const u64 at = first + u64(i);
      store_global(p.keys[1] + at, load_global(keys + at));
      if constexpr (HAS_VALUES) store_global(p.values[1] + at, load_global(values + at));
    }
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
