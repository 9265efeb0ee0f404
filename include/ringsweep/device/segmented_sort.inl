// Definitions of the public segmented sorts (declared and documented in segmented_sort.cuh): each is its
// policy-explicit twin (tuning.cuh, device/tuning.inl) at the device's shipped policy.
#pragma once

#include "tuning.inl"

RINGSWEEP_NAMESPACE_BEGIN

template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, num_segments,
                                                         d_begin_offsets, d_end_offsets, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts,
                                 cudaStream_t stream) {
  return tuning::segmented_sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, n, num_segments, d_begin_offsets, d_end_offsets,
                                                          opts, stream);
}

template <class Key>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t num_segments, std::size_t segment_size, sort_options opts,
                                cudaStream_t stream) {
  return tuning::segmented_sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, num_segments,
                                                         segment_size, opts, stream);
}

template <class Key, class Value>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t num_segments,
                                 std::size_t segment_size, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, num_segments, segment_size, opts, stream);
}

template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts,
                                cudaStream_t stream) {
  return tuning::segmented_sort_keys<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, n, num_segments,
                                                         d_begin_offsets, d_end_offsets, decomposer, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_pairs<detail::for_device>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, n, num_segments, d_begin_offsets, d_end_offsets,
                                                          decomposer, opts, stream);
}

template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_keys<detail::for_device>(d_temp, temp_bytes, keys, n, num_segments, d_begin_offsets,
                                                         d_end_offsets, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts,
                                 cudaStream_t stream) {
  return tuning::segmented_sort_pairs<detail::for_device>(d_temp, temp_bytes, keys, values, n, num_segments,
                                                          d_begin_offsets, d_end_offsets, opts, stream);
}

template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_keys<detail::for_device>(d_temp, temp_bytes, keys, n, num_segments, d_begin_offsets,
                                                         d_end_offsets, decomposer, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts, cudaStream_t stream) {
  return tuning::segmented_sort_pairs<detail::for_device>(d_temp, temp_bytes, keys, values, n, num_segments,
                                                          d_begin_offsets, d_end_offsets, decomposer, opts, stream);
}

RINGSWEEP_NAMESPACE_END
