// Definitions of ringsweep::DeviceSegmentedRadixSort and ringsweep::DeviceSegmentedSort (declared
// and documented in cub_segmented.cuh): one-line forwards to the entry point, radix_sort.
#pragma once

#include <cstddef>

#include "cub_options.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                                                const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                NumItemsT num_items, NumSegmentsT num_segments,
                                                const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          const KeyT* d_keys_in, KeyT* d_keys_out,
                                                          const ValueT* d_values_in, ValueT* d_values_out,
                                                          NumItemsT num_items, NumSegmentsT num_segments,
                                                          const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                          int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                          NumItemsT num_items, NumSegmentsT num_segments,
                                                          const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                          int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                               NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                               const OffsetT* d_end_offsets, int begin_bit, int end_bit,
                                               cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               KeyBuffers<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                               const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                               int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                         const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                         NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                         const OffsetT* d_end_offsets, int begin_bit, int end_bit,
                                                         cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                         KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                         NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                         const OffsetT* d_end_offsets, int begin_bit, int end_bit,
                                                         cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                           KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                           NumItemsT num_items, NumSegmentsT num_segments,
                                           const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                           cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                           KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                           NumItemsT num_items, NumSegmentsT num_segments,
                                           const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                           cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                     const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                     ValueT* d_values_out, NumItemsT num_items,
                                                     NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                     const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                     KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                     NumItemsT num_items, NumSegmentsT num_segments,
                                                     const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                     cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                          KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                          const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                          cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                          KeyBuffers<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                          const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                          cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                    const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                    NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                    const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                    KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                    NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                    const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                                                 const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedSort::StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, NumSegmentsT num_segments,
                                                 const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                           const KeyT* d_keys_in, KeyT* d_keys_out,
                                                           const ValueT* d_values_in, ValueT* d_values_out,
                                                           NumItemsT num_items, NumSegmentsT num_segments,
                                                           const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                           cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, d_begin_offsets,
                        d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename NumSegmentsT, typename OffsetT, typename>
cudaError_t DeviceSegmentedSort::StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                           KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                           NumItemsT num_items, NumSegmentsT num_segments,
                                                           const OffsetT* d_begin_offsets, const OffsetT* d_end_offsets,
                                                           cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT, ValueT>(d_keys, d_values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedSort::StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), false), stream);
}

template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT>
cudaError_t DeviceSegmentedSort::StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                          NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                          const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename OffsetT,
          typename>
cudaError_t DeviceSegmentedSort::StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                          KeyBuffers<KeyT>& d_keys, NumItemsT num_items,
                                                          NumSegmentsT num_segments, const OffsetT* d_begin_offsets,
                                                          const OffsetT* d_end_offsets, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{},
      detail::segmented(detail::buffers<KeyT>(d_keys), num_segments, d_begin_offsets, d_end_offsets), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(0, int(sizeof(KeyT) * 8), true), stream);
}

RINGSWEEP_NAMESPACE_END
