// CUB's DeviceRadixSort interface over ringsweep: porting a CUB program is a namespace change.
//
//     #include <ringsweep/cub.cuh>              // instead of <cub/device/device_radix_sort.cuh>
//
//     std::size_t temp_storage_bytes = 0;
//     ringsweep::DeviceRadixSort::SortPairs(nullptr, temp_storage_bytes, d_keys_in, d_keys_out,
//                                           d_values_in, d_values_out, num_items, 0, 45, stream);
//     cudaMalloc(&d_temp_storage, temp_storage_bytes);
//     ringsweep::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
//                                           d_values_in, d_values_out, num_items, 0, 45, stream);
//
// Names, argument orders and defaults are CUB's: SortKeys, SortKeysDescending, SortPairs and
// SortPairsDescending, each in a pointer form (input left untouched) and a DoubleBuffer form
// (sorts in place through two buffers; `selector` says which one holds the result), with
// `begin_bit = 0`, `end_bit = sizeof(KeyT) * 8` and `stream = 0` trailing, and the count type
// `NumItemsT` a template parameter (any integer type but bool). Each forwards to the public
// ringsweep::sort_keys / ringsweep::sort_pairs (sort.cuh), whose documentation holds for them:
// the key types, the bit window of the key's order-preserving image, stability, and the
// two-phase use (`d_temp_storage == nullptr`: only `temp_storage_bytes` is written, cudaSuccess).
//
// Where it differs from CUB:
// - Temporary storage: the DoubleBuffer forms need a constant amount (about 2 MiB for 64-bit
//   keys) whatever `num_items` is; the pointer forms add scratch of `num_items` keys (and values).
//   Values of a size other than 1, 2, 4, 8 or 16 bytes (a float3) are sorted as positions and
//   gathered once, in every form, with the storage of docs/temp_storage.md.
// - A DoubleBuffer form leaves the result in either buffer, as CUB's may: read it through
//   `Current()` (after a ringsweep sort the selector is the pass count's parity, not CUB's).
// - Invalid arguments return cudaErrorInvalidValue with nothing written and nothing launched: a
//   negative `num_items`, one whose byte size overflows std::size_t, a bit window outside the key,
//   overlapping input and output ranges, null pointers with `num_items > 0`, too little temporary
//   storage. Errors are returned, never sticky: the CUDA context stays usable.
// - Custom keys: CUB's decomposer overloads (the decomposer after `num_items`, with or without a
//   bit window over the fields' concatenated bits) forward to decomposer.cuh's sorts; unsupported
//   key types (bool, ...) fail with one static assertion, "ringsweep: unsupported key type".
//
// cub::DoubleBuffer is accepted as well as ringsweep::DoubleBuffer (the DoubleBuffer forms take any
// class template instance with CUB's `d_buffers[2]` and `int selector` members), in either include
// order; this header never includes CUB.
#pragma once

#include <cstddef>

#include "device/cub_options.cuh"
#include "device/double_buffer_layout.cuh"
#include "sort.cuh"
#include "top_k.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// CUB's DoubleBuffer: two device buffers of equal size and a selector naming the one that holds
/// the data. A DoubleBuffer sort uses the other one as scratch and updates `selector`.
///
///     ringsweep::DoubleBuffer<unsigned> keys(d_keys, d_keys_alt);
///     ringsweep::DeviceRadixSort::SortKeys(d_temp, temp_bytes, keys, n);
///     unsigned* sorted = keys.Current();
template <class T>
struct DoubleBuffer {
  /// The two buffers.
  T* d_buffers[2]{};
  /// Index into `d_buffers` of the buffer holding the data.
  int selector = 0;

  DoubleBuffer() = default;
  __host__ __device__ DoubleBuffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate} {}

  /// The buffer holding the data.
  __host__ __device__ T* Current() const { return d_buffers[selector]; }
  /// The other buffer.
  __host__ __device__ T* Alternate() const { return d_buffers[selector ^ 1]; }
};


/// CUB's cub::DeviceRadixSort, sorting with ringsweep. Every function returns cudaSuccess or the
/// error; with `d_temp_storage == nullptr` it only writes `temp_storage_bytes`.
///
///     std::size_t bytes = 0;
///     ringsweep::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n);   // size query
///     cudaMalloc(&d_temp, bytes);
///     ringsweep::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n);
struct DeviceRadixSort {
  // ---- pairs ------------------------------------------------------------------------------------

  /// Sorts (key, value) pairs ascending by the bits `[begin_bit, end_bit)` of the keys, stably;
  /// the inputs are left untouched.
  ///
  ///     ringsweep::DeviceRadixSort::SortPairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, 0, 45);
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// Sorts (key, value) pairs held in double buffers ascending; on return both selectors name the
  /// buffers holding the result.
  ///
  ///     ringsweep::DoubleBuffer<std::uint64_t> keys(d_k, d_k_alt);
  ///     ringsweep::DoubleBuffer<unsigned> values(d_v, d_v_alt);
  ///     ringsweep::DeviceRadixSort::SortPairs(d_temp, bytes, keys, values, n);
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortPairs through cub::DoubleBuffer (or another double buffer with its layout).
  ///
  ///     cub::DoubleBuffer<int> keys(d_k, d_k_alt);
  ///     cub::DoubleBuffer<float> values(d_v, d_v_alt);
  ///     ringsweep::DeviceRadixSort::SortPairs(d_temp, bytes, keys, values, n);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT,
            typename = detail::enable_if_foreign_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                               ValueBuffers<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortPairs, descending.
  ///
  ///     ringsweep::DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n);
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0);

  /// SortPairs through double buffers, descending.
  ///
  ///     ringsweep::DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys, values, n);
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0);

  /// SortPairsDescending through cub::DoubleBuffer.
  ///
  ///     ringsweep::DeviceRadixSort::SortPairsDescending(d_temp, bytes, cub_keys, cub_values, n);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT,
            typename = detail::enable_if_foreign_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0);

  // ---- keys only --------------------------------------------------------------------------------

  /// Sorts keys ascending by their bits `[begin_bit, end_bit)`; the input is left untouched.
  ///
  ///     ringsweep::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, 0, 16, stream);
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);

  /// Sorts the keys of a double buffer ascending; on return `d_keys.Current()` holds the result.
  ///
  ///     ringsweep::DoubleBuffer<float> keys(d_a, d_b);
  ///     ringsweep::DeviceRadixSort::SortKeys(d_temp, bytes, keys, n);
  ///     float* sorted = keys.Current();
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);

  /// SortKeys through cub::DoubleBuffer.
  ///
  ///     cub::DoubleBuffer<float> keys(d_a, d_b);
  ///     ringsweep::DeviceRadixSort::SortKeys(d_temp, bytes, keys, n);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT,
            typename = detail::enable_if_foreign_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);

  /// SortKeys, descending.
  ///
  ///     ringsweep::DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_in, d_out, n);
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortKeys through a double buffer, descending.
  ///
  ///     ringsweep::DeviceRadixSort::SortKeysDescending(d_temp, bytes, keys, n);
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  /// SortKeysDescending through cub::DoubleBuffer.
  ///
  ///     ringsweep::DeviceRadixSort::SortKeysDescending(d_temp, bytes, cub_keys, n);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT,
            typename = detail::enable_if_foreign_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeyBuffers<KeyT>& d_keys, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);

  // ---- custom keys through a decomposer (CUB's overloads: the decomposer after the count) --------
  //
  // A trivially copyable functor returning a tuple of references to the key's fields, most
  // significant first (decomposer.cuh); `begin_bit` / `end_bit` index the fields' concatenated
  // bits, bit 0 the last field's least significant; without them, every field's bit. The double
  // buffers are ringsweep's or CUB's.
  //
  //     ringsweep::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, by_cell_depth{});
  //     ringsweep::DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys, values, n, by_cell_depth{}, 32, 64);

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               DecomposerT decomposer, cudaStream_t stream = 0);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                               ValueBuffers<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
                               cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                               ValueBuffers<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
                               int begin_bit, int end_bit, cudaStream_t stream = 0);

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
                                         cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                         NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, template <class> class ValueBuffers, typename KeyT, typename ValueT,
            typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT, ValueBuffers<ValueT>, ValueT>>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         KeyBuffers<KeyT>& d_keys, ValueBuffers<ValueT>& d_values,
                                         NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
                                         cudaStream_t stream = 0);

  template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0);
  template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
                              int end_bit, cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                              NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyBuffers<KeyT>& d_keys,
                              NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
                              cudaStream_t stream = 0);

  template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer,
                                        cudaStream_t stream = 0);
  template <typename KeyT, typename NumItemsT, typename DecomposerT, detail::if_cub_decomposer<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
                                        int end_bit, cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeyBuffers<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer,
                                        cudaStream_t stream = 0);
  template <template <class> class KeyBuffers, typename KeyT, typename NumItemsT, typename DecomposerT,
            detail::if_cub_decomposer<DecomposerT> = 0,
            typename = detail::enable_if_double_buffers<KeyBuffers<KeyT>, KeyT>>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeyBuffers<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer,
                                        int begin_bit, int end_bit, cudaStream_t stream = 0);
};

/// CUB's DeviceTopK (CCCL 3.2) over ringsweep's top-k (top_k.cuh), pointer forms, CUB's argument
/// order, with a stream where CUB takes an execution environment. Stronger than CUB's: the k keys
/// come out sorted (Max: largest first; Min: smallest first) and deterministic (among equal keys
/// the earliest positions, in input order), so any use of CUB's unsorted, non-deterministic
/// result is served. As CUB, `k` is capped to `num_items`; a negative count or k returns
/// cudaErrorInvalidValue. Temporary storage and errors: as top_k_keys / top_k_pairs.
///
///     std::size_t bytes = 0;
///     ringsweep::DeviceTopK::MaxPairs(nullptr, bytes, d_scores, d_top, d_ids, d_top_ids, n, 10, stream);
struct DeviceTopK {
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumOutItemsT>
  static cudaError_t MaxPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                              NumOutItemsT k, cudaStream_t stream = 0);
  template <typename KeyT, typename ValueT, typename NumItemsT, typename NumOutItemsT>
  static cudaError_t MinPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                              NumOutItemsT k, cudaStream_t stream = 0);
  template <typename KeyT, typename NumItemsT, typename NumOutItemsT>
  static cudaError_t MaxKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                             KeyT* d_keys_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = 0);
  template <typename KeyT, typename NumItemsT, typename NumOutItemsT>
  static cudaError_t MinKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                             KeyT* d_keys_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = 0);
};

RINGSWEEP_NAMESPACE_END

#include "device/cub.inl"
#include "device/cub_top_k.inl"
#include "cub_segmented.cuh"
