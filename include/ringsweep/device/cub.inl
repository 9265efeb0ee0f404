// Definitions of ringsweep::DeviceRadixSort (declared and documented in cub.cuh): each turns CUB's
// arguments into the public sort API's (count, sort_options, double_buffer) and forwards.
#pragma once

#include <cstddef>
#include <type_traits>

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// CUB's templated count as a std::size_t; false (an invalid count) when it is negative or too
/// large for std::size_t.
template <class NumItemsT>
__host__ bool cub_count(NumItemsT num_items, std::size_t& n) {
  static_assert(std::is_integral<NumItemsT>::value && !std::is_same<typename std::remove_cv<NumItemsT>::type, bool>::value,
                "ringsweep: num_items must be an integer type other than bool");
  if constexpr (std::is_signed<NumItemsT>::value) {
    if (num_items < 0) return false;
  }
  using unsigned_t = typename std::make_unsigned<NumItemsT>::type;
  if constexpr (sizeof(NumItemsT) > sizeof(std::size_t)) {
    if (unsigned_t(num_items) > unsigned_t(~std::size_t(0))) return false;
  }
  n = std::size_t(unsigned_t(num_items));
  return true;
}

/// CUB's bit window and order as sort_options; false when `end_bit` is negative (sort_options
/// would read -1 as "the key's width").
__host__ inline bool cub_options(int begin_bit, int end_bit, bool descending, sort_options& opts) {
  if (end_bit < 0) return false;
  opts.order = descending ? sort_order::descending : sort_order::ascending;
  opts.begin_bit = begin_bit;
  opts.end_bit = end_bit;
  return true;
}

/// A double_buffer viewing the buffers and selector of a CUB-style double buffer.
template <class T, class Buffers>
__host__ double_buffer<T> cub_view(const Buffers& b) {
  double_buffer<T> view(b.d_buffers[0], b.d_buffers[1]);
  view.selector = b.selector;
  return view;
}

template <class KeyT, class NumItemsT>
__host__ cudaError_t cub_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                   KeyT* d_keys_out, NumItemsT num_items, int begin_bit, int end_bit, bool descending,
                                   cudaStream_t stream) {
  std::size_t n = 0;
  sort_options opts;
  if (!cub_count(num_items, n) || !cub_options(begin_bit, end_bit, descending, opts)) return cudaErrorInvalidValue;
  return ringsweep::sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, opts, stream);
}

template <class KeyT, class ValueT, class NumItemsT>
__host__ cudaError_t cub_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                    KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                    NumItemsT num_items, int begin_bit, int end_bit, bool descending,
                                    cudaStream_t stream) {
  std::size_t n = 0;
  sort_options opts;
  if (!cub_count(num_items, n) || !cub_options(begin_bit, end_bit, descending, opts)) return cudaErrorInvalidValue;
  return ringsweep::sort_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                               n, opts, stream);
}

/// Double-buffer keys: the selector is copied back only when the sort succeeded.
template <class KeyT, class KeyBuffers, class NumItemsT>
__host__ cudaError_t cub_sort_keys_buffers(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers& d_keys,
                                           NumItemsT num_items, int begin_bit, int end_bit, bool descending,
                                           cudaStream_t stream) {
  std::size_t n = 0;
  sort_options opts;
  if (!cub_count(num_items, n) || !cub_options(begin_bit, end_bit, descending, opts)) return cudaErrorInvalidValue;
  double_buffer<KeyT> keys = cub_view<KeyT>(d_keys);
  const cudaError_t e = ringsweep::sort_keys(d_temp_storage, temp_storage_bytes, keys, n, opts, stream);
  if (e == cudaSuccess) d_keys.selector = keys.selector;
  return e;
}

template <class KeyT, class ValueT, class KeyBuffers, class ValueBuffers, class NumItemsT>
__host__ cudaError_t cub_sort_pairs_buffers(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers& d_keys,
                                            ValueBuffers& d_values, NumItemsT num_items, int begin_bit, int end_bit,
                                            bool descending, cudaStream_t stream) {
  std::size_t n = 0;
  sort_options opts;
  if (!cub_count(num_items, n) || !cub_options(begin_bit, end_bit, descending, opts)) return cudaErrorInvalidValue;
  double_buffer<KeyT> keys = cub_view<KeyT>(d_keys);
  double_buffer<ValueT> values = cub_view<ValueT>(d_values);
  const cudaError_t e = ringsweep::sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, opts, stream);
  if (e == cudaSuccess) {
    d_keys.selector = keys.selector;
    d_values.selector = values.selector;
  }
  return e;
}

}  // namespace detail

// ---- pairs --------------------------------------------------------------------------------------

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                       KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                       NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                num_items, begin_bit, end_bit, false, stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                       DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                       NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_pairs_buffers<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                                      begin_bit, end_bit, false, stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                       KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                       NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_pairs_buffers<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                                      begin_bit, end_bit, false, stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, int begin_bit,
                                                 int end_bit, cudaStream_t stream) {
  return detail::cub_sort_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                num_items, begin_bit, end_bit, true, stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                                 NumItemsT num_items, int begin_bit, int end_bit,
                                                 cudaStream_t stream) {
  return detail::cub_sort_pairs_buffers<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                                      begin_bit, end_bit, true, stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, int begin_bit, int end_bit,
                                                 cudaStream_t stream) {
  return detail::cub_sort_pairs_buffers<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                                      begin_bit, end_bit, true, stream);
}

// ---- keys only ----------------------------------------------------------------------------------

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                      KeyT* d_keys_out, NumItemsT num_items, int begin_bit, int end_bit,
                                      cudaStream_t stream) {
  return detail::cub_sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, begin_bit,
                               end_bit, false, stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                      NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_keys_buffers<KeyT>(d_temp_storage, temp_storage_bytes, d_keys, num_items, begin_bit, end_bit,
                                             false, stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                      NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_keys_buffers<KeyT>(d_temp_storage, temp_storage_bytes, d_keys, num_items, begin_bit, end_bit,
                                             false, stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, begin_bit,
                               end_bit, true, stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit,
                                                int end_bit, cudaStream_t stream) {
  return detail::cub_sort_keys_buffers<KeyT>(d_temp_storage, temp_storage_bytes, d_keys, num_items, begin_bit, end_bit,
                                             true, stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items, int begin_bit,
                                                int end_bit, cudaStream_t stream) {
  return detail::cub_sort_keys_buffers<KeyT>(d_temp_storage, temp_storage_bytes, d_keys, num_items, begin_bit, end_bit,
                                             true, stream);
}

RINGSWEEP_NAMESPACE_END
