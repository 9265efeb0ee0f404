// Definitions of the host-resident sorts (declared and documented in host_sort.cuh).
#pragma once

#include "host_sort_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key>
cudaError_t sort_keys_host(Key* h_keys, std::size_t n, sort_options opts, host_sort_config cfg) {
  return detail::host_sort<detail::for_device, detail::builtin_keys<Key>, detail::null_value>(
             detail::builtin_keys<Key>{}, h_keys, nullptr, n, opts, cfg)
      .run();
}

template <class Key, class Value>
cudaError_t sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, sort_options opts, host_sort_config cfg) {
  return detail::host_sort<detail::for_device, detail::builtin_keys<Key>, Value>(detail::builtin_keys<Key>{}, h_keys,
                                                                                  h_values, n, opts, cfg)
      .run();
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys_host(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                           host_sort_config cfg) {
  using kind = detail::decomposed_keys<Key, Decomposer>;
  return detail::host_sort<detail::for_device, kind, detail::null_value>(kind{decomposer}, h_keys, nullptr, n, opts,
                                                                          cfg)
      .run();
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer, sort_options opts,
                            host_sort_config cfg) {
  using kind = detail::decomposed_keys<Key, Decomposer>;
  return detail::host_sort<detail::for_device, kind, Value>(kind{decomposer}, h_keys, h_values, n, opts, cfg).run();
}

RINGSWEEP_NAMESPACE_END
