// kernel_arrays: the parameter pieces the plain and the segmented kernels share (their arrays and
// window), so that each kernel's parameter struct adds only what is its own.
#pragma once

#include "../detail/config.cuh"
#include "../detail/key_context.cuh"
#include "../detail/sort_window.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A sort's keys and values in and out (values null: keys only) and its window, with its key
/// context.
/// small_sort_params (one tile) and segment_sort_params (tiny and small segments) derive from it.
template <class Key, class ValueRaw>
struct sort_arrays : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  const bits_type* keys_in;
  bits_type* keys_out;
  const ValueRaw* values_in;  // null: keys only
  ValueRaw* values_out;
  sort_window window;
};

/// What every histogram reads and writes: the keys, the zeroed digit counts and the sort's window.
/// histogram_params (the upfront histogram) and segment_histogram_params (the large segments')
/// derive from it.
template <class Key>
struct histogram_arrays : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  const bits_type* keys;
  u64* counts;  // zeroed; receives the digit counts of every pass
  sort_window window;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
