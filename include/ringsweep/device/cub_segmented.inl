// Definitions of ringsweep::DeviceSegmentedRadixSort and ringsweep::DeviceSegmentedSort (declared
// and documented in cub_segmented.cuh): the pointer forms are one-line forwards to the entry point,
// radix_sort; the double-buffer forms forward to segmented_sort.cuh's double_buffer forms.
#pragma once

#include <cstddef>

#include "cub_options.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The CUB names' segmented double-buffer forms are the native ones (segmented_sort.cuh's
/// double_buffer forms): CUB's counts (any integer type but bool) checked as radix_sort checks them,
/// its double buffers (any with CUB's layout) seen as ringsweep::double_buffer for the call
/// `sort(keys[, values], n, segments)`, and the selectors written back.
template <class T, class Buffers>
__host__ double_buffer<T> as_double_buffer(const Buffers& b) {
  double_buffer<T> d(b.d_buffers[0], b.d_buffers[1]);
  d.selector = b.selector;
  return d;
}

template <class KeyT, class KeyBuffers, class NumItemsT, class NumSegmentsT, class Sort>
__host__ cudaError_t cub_segmented_buffers(KeyBuffers& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                           Sort sort) {
  std::size_t n = 0, segments = 0;
  if (!count_as_size(num_items, n) || !count_as_size(num_segments, segments)) return cudaErrorInvalidValue;
  double_buffer<KeyT> keys = as_double_buffer<KeyT>(d_keys);
  const cudaError_t e = sort(keys, n, segments);
  d_keys.selector = keys.selector;
  return e;
}

template <class KeyT, class ValueT, class KeyBuffers, class ValueBuffers, class NumItemsT, class NumSegmentsT,
          class Sort>
__host__ cudaError_t cub_segmented_buffers(KeyBuffers& d_keys, ValueBuffers& d_values, NumItemsT num_items,
                                           NumSegmentsT num_segments, Sort sort) {
  std::size_t n = 0, segments = 0;
  if (!count_as_size(num_items, n) || !count_as_size(num_segments, segments)) return cudaErrorInvalidValue;
  double_buffer<KeyT> keys = as_double_buffer<KeyT>(d_keys);
  double_buffer<ValueT> values = as_double_buffer<ValueT>(d_values);
  const cudaError_t e = sort(keys, values, n, segments);
  d_keys.selector = keys.selector;
  d_values.selector = values.selector;
  return e;
}

}  // namespace detail

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                                                BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                NumItemsT num_items, NumSegmentsT num_segments,
                                                BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(begin_bit, end_bit, false), stream);
      });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          const KeyT* d_keys_in, KeyT* d_keys_out,
                                                          const ValueT* d_values_in, ValueT* d_values_out,
                                                          NumItemsT num_items, NumSegmentsT num_segments,
                                                          BeginOffsetIteratorT d_begin_offsets,
                                                          EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                                          cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                          NumItemsT num_items, NumSegmentsT num_segments,
                                                          BeginOffsetIteratorT d_begin_offsets,
                                                          EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                                          cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(begin_bit, end_bit, true), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                               NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                               EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                               cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               KeyBuffers<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                               int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(begin_bit, end_bit, false), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                         const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                         NumSegmentsT num_segments,
                                                         BeginOffsetIteratorT d_begin_offsets,
                                                         EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                                         cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                         KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                         NumSegmentsT num_segments,
                                                         BeginOffsetIteratorT d_begin_offsets,
                                                         EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                                         cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(begin_bit, end_bit, true), stream);
      });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                           KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                           NumItemsT num_items, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                           cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                           KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                           NumItemsT num_items, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                           cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
      });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                     const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                     ValueT* d_values_out, NumItemsT num_items,
                                                     NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                     EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                     KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                     NumItemsT num_items, NumSegmentsT num_segments,
                                                     BeginOffsetIteratorT d_begin_offsets,
                                                     EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                          KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                          cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                          KeyBuffers<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                          cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                    const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                    NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                    EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                    KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                    NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                    EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
      });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedSort::StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, NumSegmentsT num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
      });
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                           const KeyT* d_keys_in, KeyT* d_keys_out,
                                                           const ValueT* d_values_in, ValueT* d_values_out,
                                                           NumItemsT num_items, NumSegmentsT num_segments,
                                                           BeginOffsetIteratorT d_begin_offsets,
                                                           EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename>
cudaError_t DeviceSegmentedSort::StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                           KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                           NumItemsT num_items, NumSegmentsT num_segments,
                                                           BeginOffsetIteratorT d_begin_offsets,
                                                           EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT, ValueT>(
      d_keys, d_values, num_items, num_segments, [&](double_buffer<KeyT>& keys, double_buffer<ValueT>& values,
                                                     std::size_t n, std::size_t segments) {
        return segmented_sort_pairs(d_temp_storage, temp_storage_bytes, keys, values, n, segments, d_begin_offsets,
                                    d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedSort::StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
      });
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
cudaError_t DeviceSegmentedSort::StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                          NumSegmentsT num_segments,
                                                          BeginOffsetIteratorT d_begin_offsets,
                                                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename>
cudaError_t DeviceSegmentedSort::StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                          NumSegmentsT num_segments,
                                                          BeginOffsetIteratorT d_begin_offsets,
                                                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream) {
  return detail::cub_segmented_buffers<KeyT>(
      d_keys, num_items, num_segments, [&](double_buffer<KeyT>& keys, std::size_t n, std::size_t segments) {
        return segmented_sort_keys(d_temp_storage, temp_storage_bytes, keys, n, segments, d_begin_offsets,
                                   d_end_offsets, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
      });
}

RINGSWEEP_NAMESPACE_END
