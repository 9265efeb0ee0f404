// Definitions of the host-resident sorts (declared and documented in host_sort.cuh): each is its
// policy-explicit twin (tuning.cuh, device/tuning.inl) at the device's shipped policy.
#pragma once

#include "tuning.inl"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, sort_options opts, host_sort_config cfg) {
  return tuning::host_sort_keys<detail::for_device>(h_keys, n, opts, cfg);
}

template <class Key, class Value>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, sort_options opts, host_sort_config cfg) {
  return tuning::host_sort_pairs<detail::for_device>(h_keys, h_values, n, opts, cfg);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                           host_sort_config cfg) {
  return tuning::host_sort_keys<detail::for_device>(h_keys, n, decomposer, opts, cfg);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer, sort_options opts,
                            host_sort_config cfg) {
  return tuning::host_sort_pairs<detail::for_device>(h_keys, h_values, n, decomposer, opts, cfg);
}

template <class Key>
cudaError_t sort_keys_host(Key* h_keys, std::size_t n, sort_options opts, host_sort_config cfg) {
  return host_sort_keys(h_keys, n, opts, cfg);
}

template <class Key, class Value>
cudaError_t sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, sort_options opts, host_sort_config cfg) {
  return host_sort_pairs(h_keys, h_values, n, opts, cfg);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys_host(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                           host_sort_config cfg) {
  return host_sort_keys(h_keys, n, decomposer, opts, cfg);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer, sort_options opts,
                            host_sort_config cfg) {
  return host_sort_pairs(h_keys, h_values, n, decomposer, opts, cfg);
}

RINGSWEEP_NAMESPACE_END
