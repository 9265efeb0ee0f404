// CUB's segmented sorts over ringsweep's (segmented_sort.cuh): cub::DeviceSegmentedRadixSort and
// cub::DeviceSegmentedSort with CUB's names, argument orders and defaults. Included by cub.cuh.
//
//     ringsweep::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in,
//                                                    d_values_out, num_items, num_segments, d_offsets,
//                                                    d_offsets + 1, 0, 32, stream);
//
// Every function forwards to ringsweep::segmented_sort_keys / segmented_sort_pairs, whose
// documentation holds (segments may be empty, in any order, with gaps; positions outside every
// segment are not written; the host never reads the offsets). Where they differ from CUB:
// - The offsets are any random-access iterators, as CUB's (pointers, counting or transform
//   iterators, your own), over any integer type other than bool; unlike CUB's their copy
//   constructor and destructor must be trivial (a static assertion says so): they travel as bytes
//   in a kernel's parameters.
// - Every sort is stable, DeviceSegmentedSort's SortKeys/SortPairs included.
// - The DoubleBuffer forms (ringsweep::DoubleBuffer, cub::DoubleBuffer or any double buffer with
//   CUB's layout) always leave the result in the alternate buffers and flip the selectors; the
//   current buffers' keys inside segments of more than one onesweep tile are overwritten. Positions
//   outside every segment of the result buffers are not written.
// - Temporary storage grows with num_segments (plus num_items keys and values of scratch for the
//   pointer forms when some segment is larger than a tile), see segmented_sort.cuh; invalid
//   arguments return cudaErrorInvalidValue with nothing written, as DeviceRadixSort's.
#pragma once

#include <cstddef>

#include "device/double_buffer_layout.cuh"
#include "segmented_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// CUB's cub::DeviceSegmentedRadixSort: the segments' keys (and values) sorted by the bits
/// `[begin_bit, end_bit)` of the keys. With `d_temp_storage == nullptr` only `temp_storage_bytes`
/// is written.
///
///     std::size_t bytes = 0;
///     ringsweep::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n, segments, d_b, d_e);
struct DeviceSegmentedRadixSort {
  /// Sorts each segment's (key, value) pairs ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments, d_b, d_e);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                               cudaStream_t stream = 0);

  /// SortPairs through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, keys, values, n, segments, d_b, d_e);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                               ValueBuffers<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                               int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// Sorts each segment's (key, value) pairs descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortPairsDescending(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n,
  ///     segments, d_b, d_e);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, NumSegmentsT num_segments,
                                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                         int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortPairsDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortPairsDescending(d_temp, bytes, keys, values, n, segments, d_b, d_e);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values, NumItemsT num_items,
                                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// Sorts each segment's keys ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, segments, d_b, d_e);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortKeys through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortKeys(d_temp, bytes, keys, n, segments, d_b, d_e);   //
  ///     keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                              NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);

  /// Sorts each segment's keys descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortKeysDescending(d_temp, bytes, d_in, d_out, n, segments, d_off, d_off
  ///     + 1);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortKeysDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedRadixSort::SortKeysDescending(d_temp, bytes, keys, n, segments, d_b, d_e);
  ///     // keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                        NumItemsT num_items, NumSegmentsT num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);
};

/// CUB's cub::DeviceSegmentedSort: every key bit, no bit window; Sort* and StableSort* are the same
/// stable sort.
///
///     ringsweep::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments,
///                                                     d_b, d_e, stream);
struct DeviceSegmentedSort {
  /// Sorts each segment's (key, value) pairs ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortPairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments, d_off, d_off
  ///     + 1);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0);

  /// SortPairs through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortPairs(d_temp, bytes, keys, values, n, segments, d_b, d_e);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                               ValueBuffers<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                               cudaStream_t stream = 0);

  /// Sorts each segment's (key, value) pairs descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortPairsDescending(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments,
  ///     d_b, d_e);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, NumSegmentsT num_segments,
                                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                         cudaStream_t stream = 0);

  /// SortPairsDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortPairsDescending(d_temp, bytes, keys, values, n, segments, d_off, d_off +
  ///     1);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values, NumItemsT num_items,
                                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0);

  /// Sorts each segment's keys ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortKeys(d_temp, bytes, d_in, d_out, n, segments, d_b, d_e);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                              cudaStream_t stream = 0);

  /// SortKeys through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortKeys(d_temp, bytes, keys, n, segments, d_b, d_e);   //
  ///     keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                              NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0);

  /// Sorts each segment's keys descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortKeysDescending(d_temp, bytes, d_in, d_out, n, segments, d_b, d_e);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        cudaStream_t stream = 0);

  /// SortKeysDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::SortKeysDescending(d_temp, bytes, keys, n, segments, d_b, d_e);   //
  ///     keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                        NumItemsT num_items, NumSegmentsT num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        cudaStream_t stream = 0);

  /// Sorts each segment's (key, value) pairs ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments, d_b, d_e);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                     KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                     NumItemsT num_items, NumSegmentsT num_segments,
                                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                     cudaStream_t stream = 0);

  /// StableSortPairs through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, keys, values, n, segments, d_b, d_e);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                     ValueBuffers<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                     cudaStream_t stream = 0);

  /// Sorts each segment's (key, value) pairs descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortPairsDescending(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n,
  ///     segments, d_b, d_e);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                               ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                               cudaStream_t stream = 0);

  /// StableSortPairsDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortPairsDescending(d_temp, bytes, keys, values, n, segments, d_b, d_e);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t StableSortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                               KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                               NumItemsT num_items, NumSegmentsT num_segments,
                                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                               cudaStream_t stream = 0);

  /// Sorts each segment's keys ascending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortKeys(d_temp, bytes, d_in, d_out, n, segments, d_b, d_e);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                    KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                    BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                    cudaStream_t stream = 0);

  /// StableSortKeys through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortKeys(d_temp, bytes, keys, n, segments, d_b, d_e);   //
  ///     keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                    NumItemsT num_items, NumSegmentsT num_segments,
                                    BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                    cudaStream_t stream = 0);

  /// Sorts each segment's keys descending, stably; the inputs are left untouched.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortKeysDescending(d_temp, bytes, d_in, d_out, n, segments, d_off, d_off
  ///     + 1);
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                              const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                              NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                                              EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0);

  /// StableSortKeysDescending through double buffers (ringsweep::DoubleBuffer, cub::DoubleBuffer): the result lands
  /// in the alternate buffers and the selectors flip.
  ///
  ///     ringsweep::DeviceSegmentedSort::StableSortKeysDescending(d_temp, bytes, keys, n, segments, d_b, d_e);
  ///     // keys.Current(): result
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                              KeyBuffers<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,
                                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                              cudaStream_t stream = 0);
};

RINGSWEEP_NAMESPACE_END

#include "device/cub_segmented.inl"
