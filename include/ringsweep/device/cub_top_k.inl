// Definitions of ringsweep::DeviceTopK (declared and documented in cub.cuh): forwards to the
// top-k entry point with CUB's counts (checked, k capped to num_items) and direction.
#pragma once

#include <cstddef>

#include "radix_sort.cuh"
#include "top_k_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Runs `f(n, k, opts)` with CUB's counts as sizes (k capped to n) and the direction's options;
/// cudaErrorInvalidValue for a negative or oversized count.
template <class NumItemsT, class NumOutItemsT, class F>
__host__ cudaError_t cub_top_k(NumItemsT num_items, NumOutItemsT k, bool largest, F&& f) {
  std::size_t n = 0, kk = 0;
  if (!count_as_size(num_items, n) || !count_as_size(k, kk)) return cudaErrorInvalidValue;
  sort_options opts;
  opts.order = largest ? sort_order::descending : sort_order::ascending;
  return f(n, kk < n ? kk : n, opts);
}

}  // namespace detail

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumOutItemsT>
cudaError_t DeviceTopK::MaxPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                 KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                 NumItemsT num_items, NumOutItemsT k, cudaStream_t stream) {
  return detail::cub_top_k(num_items, k, true, [&](std::size_t n, std::size_t kk, const sort_options& opts) {
    return top_k_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, kk,
                       opts, stream);
  });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumOutItemsT>
cudaError_t DeviceTopK::MinPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                 KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                 NumItemsT num_items, NumOutItemsT k, cudaStream_t stream) {
  return detail::cub_top_k(num_items, k, false, [&](std::size_t n, std::size_t kk, const sort_options& opts) {
    return top_k_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, kk,
                       opts, stream);
  });
}

template <typename KeyT, typename NumItemsT, typename NumOutItemsT>
cudaError_t DeviceTopK::MaxKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                KeyT* d_keys_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream) {
  return detail::cub_top_k(num_items, k, true, [&](std::size_t n, std::size_t kk, const sort_options& opts) {
    return top_k_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, kk, opts, stream);
  });
}

template <typename KeyT, typename NumItemsT, typename NumOutItemsT>
cudaError_t DeviceTopK::MinKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                KeyT* d_keys_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream) {
  return detail::cub_top_k(num_items, k, false, [&](std::size_t n, std::size_t kk, const sort_options& opts) {
    return top_k_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, kk, opts, stream);
  });
}

RINGSWEEP_NAMESPACE_END
