// Definitions of the policy-explicit sorts (declared and documented in tuning.cuh): each forwards
// to its form in sort_forms.cuh; the decomposer ones view the keys as decomposed keys first.
#pragma once

#include <cstddef>

#include "decomposed_arguments.cuh"
#include "sort_forms.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace tuning {

template <class Policy, class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      sort_options opts, cudaStream_t stream) {
  return detail::sort_in_out<Policy, Key, detail::null_value, false>(d_temp, temp_bytes, d_keys_in, d_keys_out, nullptr,
                                                                     nullptr, n, opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts,
                       cudaStream_t stream) {
  return detail::sort_in_out<Policy, Key, Value, true>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                       d_values_out, n, opts, stream);
}

template <class Policy, class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n, sort_options opts,
                      cudaStream_t stream) {
  return detail::sort_double_buffer<Policy, Key, detail::null_value, false>(d_temp, temp_bytes, keys, nullptr, n, opts,
                                                                            stream);
}

template <class Policy, class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::sort_double_buffer<Policy, Key, Value, true>(d_temp, temp_bytes, keys, &values, n, opts, stream);
}

template <class Policy, class Key>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::sort_in_place<Policy, Key, detail::null_value, false>(
      d_keys, static_cast<detail::null_value*>(nullptr), n, opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::sort_in_place<Policy, Key, Value, true>(d_keys, d_values, n, opts, stream);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !detail::decomposed_aligned<Key, Decomposer>(d_keys_in, d_keys_out)) {
    return cudaErrorInvalidValue;
  }
  return detail::sort_in_out<Policy, K, detail::null_value, false>(
      d_temp, temp_bytes, reinterpret_cast<const K*>(d_keys_in), reinterpret_cast<K*>(d_keys_out), nullptr, nullptr, n,
      opts, stream, detail::key_context<K>(decomposer));
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                       sort_options opts, cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 && !detail::decomposed_aligned<Key, Decomposer>(d_keys_in, d_keys_out)) {
    return cudaErrorInvalidValue;
  }
  return detail::sort_in_out<Policy, K, Value, true>(d_temp, temp_bytes, reinterpret_cast<const K*>(d_keys_in),
                                                     reinterpret_cast<K*>(d_keys_out), d_values_in, d_values_out, n,
                                                     opts, stream, detail::key_context<K>(decomposer));
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 &&
      !detail::decomposed_aligned<Key, Decomposer>(keys.d_buffers[0], keys.d_buffers[1])) {
    return cudaErrorInvalidValue;
  }
  double_buffer<K> kb = detail::as_decomposed<K>(keys);
  const cudaError_t e = detail::sort_double_buffer<Policy, K, detail::null_value, false>(
      d_temp, temp_bytes, kb, nullptr, n, opts, stream, detail::key_context<K>(decomposer));
  keys.selector = kb.selector;
  return e;
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (d_temp != nullptr && n != 0 &&
      !detail::decomposed_aligned<Key, Decomposer>(keys.d_buffers[0], keys.d_buffers[1])) {
    return cudaErrorInvalidValue;
  }
  double_buffer<K> kb = detail::as_decomposed<K>(keys);
  const cudaError_t e = detail::sort_double_buffer<Policy, K, Value, true>(d_temp, temp_bytes, kb, &values, n, opts,
                                                                           stream, detail::key_context<K>(decomposer));
  keys.selector = kb.selector;
  return e;
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (n != 0 && !detail::decomposed_aligned<Key, Decomposer>(d_keys)) return cudaErrorInvalidValue;
  return detail::sort_in_place<Policy, K, detail::null_value, false>(reinterpret_cast<K*>(d_keys),
                                                                     static_cast<detail::null_value*>(nullptr), n, opts,
                                                                     stream, detail::key_context<K>(decomposer));
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                       cudaStream_t stream) {
  using K = detail::decomposed_key<Key, Decomposer>;
  if (n != 0 && !detail::decomposed_aligned<Key, Decomposer>(d_keys)) return cudaErrorInvalidValue;
  return detail::sort_in_place<Policy, K, Value, true>(reinterpret_cast<K*>(d_keys), d_values, n, opts, stream,
                                                       detail::key_context<K>(decomposer));
}

}  // namespace tuning
RINGSWEEP_NAMESPACE_END
