// Definitions of ringsweep::DeviceRadixSort (declared and documented in cub.cuh): one-line
// forwards to the entry point, radix_sort, with CUB's count (checked there) and bit window.
#pragma once

#include <cstddef>

#include "cub_options.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN

// ---- pairs --------------------------------------------------------------------------------------

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                       KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                       NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                       DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,
                                       int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage, temp_storage_bytes,
      num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                       ValueBuffers<ValueT>& d_values, NumItemsT num_items, int begin_bit, int end_bit,
                                       cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage, temp_storage_bytes,
      num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, int begin_bit, int end_bit,
                                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                                 NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage, temp_storage_bytes,
      num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<KeyT>{}, detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage, temp_storage_bytes,
      num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

// ---- keys only ----------------------------------------------------------------------------------

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                      KeyT* d_keys_out, NumItemsT num_items, int begin_bit, int end_bit,
                                      cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::in_out(d_keys_in, d_keys_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                      NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::buffers<KeyT>(d_keys),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                      NumItemsT num_items, int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::buffers<KeyT>(d_keys),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::in_out(d_keys_in, d_keys_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, true), stream);
}

template <typename KeyT, typename NumItemsT>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit,
                                                int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::buffers<KeyT>(d_keys),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items, int begin_bit,
                                                int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::builtin_keys<KeyT>{}, detail::buffers<KeyT>(d_keys),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, true), stream);
}

// ---- custom keys through a decomposer -------------------------------------------------------

template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                       KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                       NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                       KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                       NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
                                       cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                       ValueBuffers<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
                                       cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage,
                                                temp_storage_bytes, num_items, detail::cub_options(false), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                       ValueBuffers<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
                                       int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<KeyT, DecomposerT>{decomposer}, detail::buffers<KeyT, ValueT>(d_keys, d_values),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
                                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(true), stream);
}

template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
                                                 int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out),
                                                d_temp_storage, temp_storage_bytes, num_items,
                                                detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT, ValueT>(d_keys, d_values), d_temp_storage,
                                                temp_storage_bytes, num_items, detail::cub_options(true), stream);
}

template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
          typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                 KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                                 NumItemsT num_items, DecomposerT decomposer, int begin_bit,
                                                 int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<KeyT, DecomposerT>{decomposer}, detail::buffers<KeyT, ValueT>(d_keys, d_values),
      d_temp_storage, temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                      KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer,
                                      cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out), d_temp_storage,
                                                temp_storage_bytes, num_items, detail::cub_options(false), stream);
}

template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                      KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
                                      int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<KeyT, DecomposerT>{decomposer}, detail::in_out(d_keys_in, d_keys_out), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                      NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT>(d_keys), d_temp_storage, temp_storage_bytes,
                                                num_items, detail::cub_options(false), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                                      NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
                                      cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT>(d_keys), d_temp_storage, temp_storage_bytes,
                                                num_items, detail::cub_options(begin_bit, end_bit, false), stream);
}

template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                DecomposerT decomposer, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::in_out(d_keys_in, d_keys_out), d_temp_storage,
                                                temp_storage_bytes, num_items, detail::cub_options(true), stream);
}

template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT>>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                                                DecomposerT decomposer, int begin_bit, int end_bit,
                                                cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<KeyT, DecomposerT>{decomposer}, detail::in_out(d_keys_in, d_keys_out), d_temp_storage,
      temp_storage_bytes, num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer,
                                                cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT>(d_keys), d_temp_storage, temp_storage_bytes,
                                                num_items, detail::cub_options(true), stream);
}

template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
          detail::if_cub_decomposer<DecomposerT>, typename>
cudaError_t DeviceRadixSort::SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                                KeyBuffers<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer,
                                                int begin_bit, int end_bit, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(detail::decomposed_keys<KeyT, DecomposerT>{decomposer},
                                                detail::buffers<KeyT>(d_keys), d_temp_storage, temp_storage_bytes,
                                                num_items, detail::cub_options(begin_bit, end_bit, true), stream);
}

RINGSWEEP_NAMESPACE_END
