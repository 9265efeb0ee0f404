// Definitions of the public segmented sorts (declared and documented in segmented_sort.cuh):
// one-line forwards to the entry point, radix_sort, with the current device's shipped policy.
#pragma once

#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key, class Offset>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, const Offset* d_begin_offsets,
                                const Offset* d_end_offsets, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Key, class Value, class Offset>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n,
                                 std::size_t num_segments, const Offset* d_begin_offsets,
                                 const Offset* d_end_offsets, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments,
                        d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

template <class Key>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t num_segments, std::size_t segment_size, sort_options opts,
                                cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<Key>{}, detail::rows(detail::in_out(d_keys_in, d_keys_out), num_segments, segment_size),
      d_temp, temp_bytes, detail::rows_keys(num_segments, segment_size), opts, stream);
}

template <class Key, class Value>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t num_segments,
                                 std::size_t segment_size, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::builtin_keys<Key>{},
      detail::rows(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, segment_size),
      d_temp, temp_bytes, detail::rows_keys(num_segments, segment_size), opts, stream);
}

template <class Key, class Offset, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, const Offset* d_begin_offsets,
                                const Offset* d_end_offsets, Decomposer decomposer, sort_options opts,
                                cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Key, class Value, class Offset, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n,
                                 std::size_t num_segments, const Offset* d_begin_offsets,
                                 const Offset* d_end_offsets, Decomposer decomposer, sort_options opts,
                                 cudaStream_t stream) {
  return detail::radix_sort<detail::for_device>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments,
                        d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

RINGSWEEP_NAMESPACE_END
