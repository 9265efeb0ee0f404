// Host-side helpers of the decomposer (custom key) overloads: which arguments select them, the
// alignment their words need, and a caller's double buffer viewed as one of decomposed keys.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../detail/decomposed_key.cuh"
#include "../sort_options.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Enables the decomposer overloads for anything but `sort_options` (which selects the built-in
/// overloads, `sort_keys(..., n, opts)`).
template <class Decomposer>
using if_decomposer = typename std::enable_if<!std::is_same<typename std::decay<Decomposer>::type, sort_options>::value,
                                              int>::type;

/// Whether every pointer is aligned for the words a decomposed key moves as (null passes).
template <class Key, class Decomposer, class... Ptrs>
__host__ bool decomposed_aligned(Ptrs... ptrs) {
  using bits_type = typename key_traits<decomposed_key<Key, Decomposer>>::bits_type;
  static_assert(sizeof(decomposed_key<Key, Decomposer>) == sizeof(Key), "");
  return (true && ... && (reinterpret_cast<std::uintptr_t>(ptrs) % alignof(bits_type) == 0));
}

/// The double buffer of a decomposed key over a caller's `double_buffer<Key>`.
template <class K, class Key>
__host__ double_buffer<K> as_decomposed(const double_buffer<Key>& keys) {
  double_buffer<K> kb(reinterpret_cast<K*>(keys.d_buffers[0]), reinterpret_cast<K*>(keys.d_buffers[1]));
  kb.selector = keys.selector;
  return kb;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
