// Custom key types (CUB's decomposer API): every sort form of sort.cuh, with a decomposer after
// `n`. Included by sort.cuh.
//
// A decomposer is a copyable (trivially copyable: it travels in kernel parameters) functor whose
// `__host__ __device__` call operator takes `Key&` and returns a `cuda::std::tuple` (or, for code
// built against the SIMT backend without libcu++, a `std::tuple`) of references to the fields to
// sort by, most significant first:
//
//     struct particle { int cell; float depth; };
//     struct by_cell_depth {
//       __host__ __device__ cuda::std::tuple<int&, float&> operator()(particle& p) const { return {p.cell, p.depth}; }
//     };
//     ringsweep::sort_keys(d_particles, n, by_cell_depth{});
//
// Fields may be any built-in key type (8-64-bit integers, __half, __nv_bfloat16, float, double);
// each gets its own order-preserving image (-0.0 equals +0.0, NaNs by their bits) and the sort
// orders keys by the concatenation of the images. The key must be trivially copyable and at most
// 16 bytes; it moves as its raw bytes (padding included, its bits not sorted on).
//
// `opts.begin_bit` / `opts.end_bit` index the concatenated image, bit 0 being the least
// significant bit of the last field (CUB's convention); `end_bit = -1` means all the fields' bits.
// Descending reverses the whole order. Passes = ceil((end_bit - begin_bit) / 8), and a digit may
// straddle two fields; as for built-in keys, sorts are stable, size queries take null pointers,
// and a bad window returns cudaErrorInvalidValue with nothing written.
//
// Keys of 2, 4, 8 or 16 bytes move as one word (so a {u32, u32} key costs what a u64 key costs):
// their arrays must be aligned to the key's size, as cudaMalloc's are; others return
// cudaErrorInvalidValue. Other sizes (3, 12 ... bytes) need only the key's own alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "detail/decomposed_key.cuh"
#include "device/dispatch_sort.cuh"
#include "sort_options.cuh"

namespace ringsweep {
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

/// `ringsweep::sort_keys` (in/out form, decomposer) with an explicit policy.
template <class Policy, class Key, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               std::size_t n, Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !decomposed_aligned<Key, Decomposer>(d_keys_in, d_keys_out)) {
    return cudaErrorInvalidValue;
  }
  return sort_in_out<Policy, K, null_value, false>(d_temp, temp_bytes, reinterpret_cast<const K*>(d_keys_in),
                                                   reinterpret_cast<K*>(d_keys_out), nullptr, nullptr, n, opts,
                                                   stream, key_context<K>(decomposer));
}

/// `ringsweep::sort_pairs` (in/out form, decomposer) with an explicit policy.
template <class Policy, class Key, class Value, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                                sort_options opts = {}, cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !decomposed_aligned<Key, Decomposer>(d_keys_in, d_keys_out)) {
    return cudaErrorInvalidValue;
  }
  return sort_in_out<Policy, K, Value, true>(d_temp, temp_bytes, reinterpret_cast<const K*>(d_keys_in),
                                             reinterpret_cast<K*>(d_keys_out), d_values_in, d_values_out, n, opts,
                                             stream, key_context<K>(decomposer));
}

/// The double buffer of a decomposed key over a caller's `double_buffer<Key>`.
template <class K, class Key>
__host__ double_buffer<K> as_decomposed(const double_buffer<Key>& keys) {
  double_buffer<K> kb(reinterpret_cast<K*>(keys.d_buffers[0]), reinterpret_cast<K*>(keys.d_buffers[1]));
  kb.selector = keys.selector;
  return kb;
}

/// `ringsweep::sort_keys` (double-buffer form, decomposer) with an explicit policy.
template <class Policy, class Key, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                               Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !decomposed_aligned<Key, Decomposer>(keys.d_buffers[0], keys.d_buffers[1])) {
    return cudaErrorInvalidValue;
  }
  double_buffer<K> kb = as_decomposed<K>(keys);
  const cudaError_t e = sort_double_buffer<Policy, K, null_value, false>(d_temp, temp_bytes, kb, nullptr, n, opts,
                                                                          stream, key_context<K>(decomposer));
  keys.selector = kb.selector;
  return e;
}

/// `ringsweep::sort_pairs` (double-buffer form, decomposer) with an explicit policy.
template <class Policy, class Key, class Value, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                double_buffer<Value>& values, std::size_t n, Decomposer decomposer,
                                sort_options opts = {}, cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !decomposed_aligned<Key, Decomposer>(keys.d_buffers[0], keys.d_buffers[1])) {
    return cudaErrorInvalidValue;
  }
  double_buffer<K> kb = as_decomposed<K>(keys);
  const cudaError_t e = sort_double_buffer<Policy, K, Value, true>(d_temp, temp_bytes, kb, &values, n, opts, stream,
                                                                   key_context<K>(decomposer));
  keys.selector = kb.selector;
  return e;
}

/// `ringsweep::sort_keys` (in-place form, decomposer) with an explicit policy.
template <class Policy, class Key, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                               cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (n != 0 && !decomposed_aligned<Key, Decomposer>(d_keys)) return cudaErrorInvalidValue;
  return sort_in_place<Policy, K, null_value, false>(reinterpret_cast<K*>(d_keys), static_cast<null_value*>(nullptr),
                                                     n, opts, stream, key_context<K>(decomposer));
}

/// `ringsweep::sort_pairs` (in-place form, decomposer) with an explicit policy.
template <class Policy, class Key, class Value, class Decomposer, if_decomposer<Decomposer> = 0>
__host__ cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer,
                                sort_options opts = {}, cudaStream_t stream = 0) {
  using K = decomposed_key<Key, Decomposer>;
  if (n != 0 && !decomposed_aligned<Key, Decomposer>(d_keys)) return cudaErrorInvalidValue;
  return sort_in_place<Policy, K, Value, true>(reinterpret_cast<K*>(d_keys), d_values, n, opts, stream,
                                               key_context<K>(decomposer));
}

}  // namespace detail

/// Sorts `n` custom keys by the fields `decomposer` names (see the top of decomposer.cuh).
///
///     std::size_t bytes = 0;
///     ringsweep::sort_keys(nullptr, bytes, d_in, d_out, n, by_cell_depth{});   // size query
///     ringsweep::sort_keys(d_temp, bytes, d_in, d_out, n, by_cell_depth{}, {}, stream);
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_keys<decltype(policy)>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, decomposer, opts, stream);
  });
}

/// Sorts `n` (custom key, value) pairs by the key's fields, stably.
///
///     ringsweep::sort_pairs(d_temp, bytes, d_keys, d_keys_out, d_vals, d_vals_out, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                       sort_options opts = {}, cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_pairs<decltype(policy)>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                                n, decomposer, opts, stream);
  });
}

/// Sorts the custom keys of a double buffer; `keys.current()` holds the result on return.
///
///     ringsweep::double_buffer<particle> keys(d_a, d_b);
///     ringsweep::sort_keys(d_temp, bytes, keys, n, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_keys<decltype(policy)>(d_temp, temp_bytes, keys, n, decomposer, opts, stream);
  });
}

/// Sorts (custom key, value) pairs held in double buffers; both selectors point at the result.
///
///     ringsweep::sort_pairs(d_temp, bytes, keys, vals, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_pairs<decltype(policy)>(d_temp, temp_bytes, keys, values, n, decomposer, opts, stream);
  });
}

/// Sorts custom keys in place (temporary storage from cudaMallocAsync on `stream`).
///
///     ringsweep::sort_keys(d_particles, n, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                      cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_keys<decltype(policy)>(d_keys, n, decomposer, opts, stream);
  });
}

/// Sorts (custom key, value) pairs in place.
///
///     ringsweep::sort_pairs(d_particles, d_ids, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts = {},
                       cudaStream_t stream = 0) {
  return detail::with_device_policy([&](auto policy) {
    return detail::sort_pairs<decltype(policy)>(d_keys, d_values, n, decomposer, opts, stream);
  });
}

}  // namespace ringsweep
