// Which double buffers the CUB-named sorts (cub.cuh) take: any class template instance with CUB's
// `T* d_buffers[2]` and `int selector`, so cub::DoubleBuffer works without this library including CUB.
#pragma once

#include <type_traits>
#include <utility>

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
template <class T>
struct DoubleBuffer;

namespace detail {

/// True for a double-buffer type with CUB's layout: `T* d_buffers[2]` and `int selector`
/// (ringsweep::DoubleBuffer, cub::DoubleBuffer, ringsweep::double_buffer).
template <class Buffers, class T, class = void>
struct has_double_buffer_layout : std::false_type {};

template <class Buffers, class T>
struct has_double_buffer_layout<Buffers, T,
                                std::void_t<decltype(std::declval<Buffers&>().d_buffers),
                                            decltype(std::declval<Buffers&>().selector)>>
    : std::bool_constant<std::is_same<decltype(std::declval<Buffers&>().d_buffers), T* [2]>::value &&
                         std::is_same<decltype(std::declval<Buffers&>().selector), int>::value> {};

/// Enables the overloads for double buffers of another library (cub::DoubleBuffer): both have
/// CUB's layout, and not both are ringsweep::DoubleBuffer (those have their own overloads).
template <class KeyBuffers, class KeyT, class ValueBuffers = KeyBuffers, class ValueT = KeyT>
using enable_if_foreign_double_buffers = typename std::enable_if<
    has_double_buffer_layout<KeyBuffers, KeyT>::value && has_double_buffer_layout<ValueBuffers, ValueT>::value &&
    !(std::is_same<KeyBuffers, DoubleBuffer<KeyT>>::value &&
      std::is_same<ValueBuffers, DoubleBuffer<ValueT>>::value)>::type;

/// Enables the segmented sorts' double-buffer overloads (cub_segmented.cuh) for any double buffers
/// with CUB's layout, ringsweep's and CUB's alike (one overload each).
template <class KeyBuffers, class KeyT, class ValueBuffers = KeyBuffers, class ValueT = KeyT>
using enable_if_double_buffers = typename std::enable_if<has_double_buffer_layout<KeyBuffers, KeyT>::value &&
                                                         has_double_buffer_layout<ValueBuffers, ValueT>::value>::type;

}  // namespace detail
RINGSWEEP_NAMESPACE_END
