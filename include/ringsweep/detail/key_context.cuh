// key_context: what a key type's digit extractors are built from besides the window and order.
#pragma once

#include "config.cuh"
#include "digit_extractor.cuh"
#include "digit_window.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// What a key's digit extractors are built from besides the bit window and the order: nothing
/// for the built-in keys; a key sorted through a decomposer carries the decomposer here
/// (detail/decomposed_key.cuh). The host keeps one in the sort's plan, and the histogram and
/// single-tile kernels' parameters derive from it (an empty base: no bytes for built-in keys).
///
///     const key_context<float> c;
///     const digit_extractor<float> digit_of = c.extractor(false, digit_window{8, 8});   // bits [8, 16)
template <class Key>
struct key_context {
  static constexpr bool custom_key = false;  // true: a key sorted through a decomposer
  __host__ __device__ digit_extractor<Key> extractor(bool descending, digit_window w) const {
    return digit_extractor<Key>(descending, w.shift, w.width);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
