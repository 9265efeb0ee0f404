// Definitions of the public sort overloads (declared and documented in sort.cuh): each is its
// policy-explicit twin (tuning.cuh, device/tuning.inl) at the device's shipped policy.
#pragma once

#include "tuning.inl"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, opts, stream);
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts,
                       cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                opts, stream);
}

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n, sort_options opts,
                      cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, keys, n, opts, stream);
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, sort_options opts, cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, keys, values, n, opts, stream);
}

template <class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, Index* d_indices_out,
                    std::size_t n, sort_options opts, cudaStream_t stream) {
  return tuning::argsort<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_indices_out, n, opts, stream);
}

template <class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t, Index* d_indices_out,
                    std::size_t n, sort_options opts, cudaStream_t stream) {
  return ringsweep::argsort(d_temp, temp_bytes, d_keys_in, static_cast<Key*>(nullptr), d_indices_out, n, opts, stream);
}

template <class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                      device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, opts, stream);
}

template <class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, device_count<Count> n,
                      sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_temp, temp_bytes, keys, n, opts, stream);
}

template <class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, device_count<Count> n, sort_options opts,
                       cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                opts, stream);
}

template <class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_temp, temp_bytes, keys, values, n, opts, stream);
}

template <class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, Index* d_indices_out,
                    device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return tuning::argsort<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_indices_out, n, opts, stream);
}

template <class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t, Index* d_indices_out,
                    device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return ringsweep::argsort(d_temp, temp_bytes, d_keys_in, static_cast<Key*>(nullptr), d_indices_out, n, opts, stream);
}

template <class Key>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream) {
  return tuning::sort_keys<detail::for_device>(d_keys, n, opts, stream);
}

template <class Key, class Value>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream) {
  return tuning::sort_pairs<detail::for_device>(d_keys, d_values, n, opts, stream);
}

template <class Key, class Resource, detail::if_resource<Resource>>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream, Resource&& resource) {
  return tuning::sort_keys<detail::for_device>(d_keys, n, opts, stream, resource);
}

template <class Key, class Value, class Resource, detail::if_resource<Resource>>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream,
                       Resource&& resource) {
  return tuning::sort_pairs<detail::for_device>(d_keys, d_values, n, opts, stream, resource);
}

RINGSWEEP_NAMESPACE_END
