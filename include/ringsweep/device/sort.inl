// Definitions of the public sort overloads (declared and documented in sort.cuh): each picks the
// current device's shipped policy (detail::with_device_policy) and forwards to the policy-explicit
// sorts of tuning.cuh.
#pragma once

#include "../tuning.cuh"
#include "device_policy.cuh"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      sort_options opts, cudaStream_t stream) {
  return detail::with_device_policy([&](auto policy) {
    return tuning::sort_keys<decltype(policy), Key>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, opts, stream);
  });
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts,
                       cudaStream_t stream) {
  return detail::with_device_policy([&](auto policy) {
    return tuning::sort_pairs<decltype(policy), Key, Value>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                            d_values_out, n, opts, stream);
  });
}

template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      sort_options opts, cudaStream_t stream) {
  return detail::with_device_policy([&](auto policy) {
    return tuning::sort_keys<decltype(policy), Key>(d_temp, temp_bytes, keys, n, opts, stream);
  });
}

template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::with_device_policy([&](auto policy) {
    return tuning::sort_pairs<decltype(policy), Key, Value>(d_temp, temp_bytes, keys, values, n, opts, stream);
  });
}

template <class Key>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::with_device_policy(
      [&](auto policy) { return tuning::sort_keys<decltype(policy), Key>(d_keys, n, opts, stream); });
}

template <class Key, class Value>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::with_device_policy(
      [&](auto policy) { return tuning::sort_pairs<decltype(policy), Key, Value>(d_keys, d_values, n, opts, stream); });
}

RINGSWEEP_NAMESPACE_END
