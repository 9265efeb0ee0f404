// Definitions of the custom-key sorts (declared and documented in decomposer.cuh): each is its
// policy-explicit twin (tuning.cuh, device/tuning.inl) at the device's shipped policy.
#pragma once

#include "tuning.inl"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, decomposer, opts, stream);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                       sort_options opts, cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                decomposer, opts, stream);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, keys, n, decomposer, opts, stream);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, keys, values, n, decomposer, opts, stream);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_keys, n, decomposer, opts, stream);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                       cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_keys, d_values, n, decomposer, opts, stream);
}

template <class Key, class Decomposer, class Resource, detail::if_decomposer<Decomposer>, detail::if_resource<Resource>>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream,
                      Resource&& resource) {
  return tuning::sort_keys<detail::for_device>(d_keys, n, decomposer, opts, stream, resource);
}

template <class Key, class Value, class Decomposer, class Resource, detail::if_decomposer<Decomposer>,
          detail::if_resource<Resource>>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                       cudaStream_t stream, Resource&& resource) {
  return tuning::sort_pairs<detail::for_device>(d_keys, d_values, n, decomposer, opts, stream, resource);
}

RINGSWEEP_NAMESPACE_END
