// Definitions of the policy-explicit sorts (declared and documented in tuning.cuh): the one body of
// every sort form, a forward to the entry point (radix_sort, or host_sort for the host-resident
// sorts) with the caller's policy (or detail::with_hooks). The public forms (sort.inl,
// decomposer.inl, segmented_sort.inl, host_sort.inl) are these at detail::for_device.
#pragma once

#include "host_sort_dispatch.cuh"
#include "host_sort_gather.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN

template <class Policy, class Key>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                              std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::in_out(d_keys_in, d_keys_out), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts,
                               cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{},
                                    detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                              sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::buffers<Key>(keys), d_temp, temp_bytes, n,
                                    opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                               double_buffer<Value>& values, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::buffers<Key, Value>(keys, values), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Index>
cudaError_t tuning::argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                            Index* d_indices_out, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{},
                                    detail::argsort_of(d_keys_in, d_keys_out, d_indices_out), d_temp, temp_bytes, n,
                                    opts, stream);
}

template <class Policy, class Key, class Index>
cudaError_t tuning::argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t,
                            Index* d_indices_out, std::size_t n, sort_options opts, cudaStream_t stream) {
  return tuning::argsort<Policy>(d_temp, temp_bytes, d_keys_in, static_cast<Key*>(nullptr), d_indices_out, n, opts,
                                 stream);
}

template <class Policy, class Key>
cudaError_t tuning::sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::in_place(d_keys, detail::stream_allocator{}),
                                    n, opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{},
                                    detail::in_place(d_keys, d_values, detail::stream_allocator{}), n, opts, stream);
}

template <class Policy, class Key, class Resource, detail::if_resource<Resource>>
cudaError_t tuning::sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream, Resource&& resource) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::in_place(d_keys, resource), n, opts, stream);
}

template <class Policy, class Key, class Value, class Resource, detail::if_resource<Resource>>
cudaError_t tuning::sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream,
                               Resource&& resource) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::in_place(d_keys, d_values, resource), n, opts,
                                    stream);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                              std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_out(d_keys_in, d_keys_out), d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                               sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                              Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer}, detail::buffers<Key>(keys),
                                    d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                               double_buffer<Value>& values, std::size_t n, Decomposer decomposer, sort_options opts,
                               cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::buffers<Key, Value>(keys, values), d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                              cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_place(d_keys, detail::stream_allocator{}), n, opts, stream);
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                               cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_place(d_keys, d_values, detail::stream_allocator{}), n, opts, stream);
}

template <class Policy, class Key, class Decomposer, class Resource, detail::if_decomposer<Decomposer>,
          detail::if_resource<Resource>>
cudaError_t tuning::sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream,
                              Resource&& resource) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_place(d_keys, resource), n, opts, stream);
}

template <class Policy, class Key, class Value, class Decomposer, class Resource, detail::if_decomposer<Decomposer>,
          detail::if_resource<Resource>>
cudaError_t tuning::sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                               cudaStream_t stream, Resource&& resource) {
  return detail::radix_sort<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                    detail::in_place(d_keys, d_values, resource), n, opts, stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                        std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                        EndOffsets d_end_offsets, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                         const Value* d_values_in, Value* d_values_out, std::size_t n,
                                         std::size_t num_segments, BeginOffsets d_begin_offsets,
                                         EndOffsets d_end_offsets, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments,
                        d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key>
cudaError_t tuning::segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                        std::size_t num_segments, std::size_t segment_size, sort_options opts,
                                        cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{}, detail::rows(detail::in_out(d_keys_in, d_keys_out), num_segments, segment_size),
      d_temp, temp_bytes, detail::rows_keys(num_segments, segment_size), opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                         const Value* d_values_in, Value* d_values_out, std::size_t num_segments,
                                         std::size_t segment_size, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{},
      detail::rows(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments, segment_size),
      d_temp, temp_bytes, detail::rows_keys(num_segments, segment_size), opts, stream);
}

template <class Policy, class Key, class Count>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                              device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::in_out(d_keys_in, d_keys_out), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Count>
cudaError_t tuning::sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, device_count<Count> n,
                              sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::buffers<Key>(keys), d_temp, temp_bytes, n,
                                    opts, stream);
}

template <class Policy, class Key, class Value, class Count>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, device_count<Count> n,
                               sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{},
                                    detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class Count>
cudaError_t tuning::sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                               double_buffer<Value>& values, device_count<Count> n, sort_options opts,
                               cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{}, detail::buffers<Key, Value>(keys, values), d_temp,
                                    temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Index, class Count>
cudaError_t tuning::argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                            Index* d_indices_out, device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(detail::builtin_keys<Key>{},
                                    detail::argsort_of(d_keys_in, d_keys_out, d_indices_out), d_temp, temp_bytes, n,
                                    opts, stream);
}

template <class Policy, class Key, class Index, class Count>
cudaError_t tuning::argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t,
                            Index* d_indices_out, device_count<Count> n, sort_options opts, cudaStream_t stream) {
  return tuning::argsort<Policy>(d_temp, temp_bytes, d_keys_in, static_cast<Key*>(nullptr), d_indices_out, n, opts,
                                 stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                        std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                        EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts,
                                        cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                         const Value* d_values_in, Value* d_values_out, std::size_t n,
                                         std::size_t num_segments, BeginOffsets d_begin_offsets,
                                         EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts,
                                         cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::in_out(d_keys_in, d_keys_out, d_values_in, d_values_out), num_segments,
                        d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                        std::size_t num_segments, BeginOffsets d_begin_offsets,
                                        EndOffsets d_end_offsets, sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::buffers<Key>(keys), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                         double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                         BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts,
                                         cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::builtin_keys<Key>{},
      detail::segmented(detail::buffers<Key, Value>(keys, values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                        std::size_t num_segments, BeginOffsets d_begin_offsets,
                                        EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts,
                                        cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::buffers<Key>(keys), num_segments, d_begin_offsets, d_end_offsets), d_temp,
      temp_bytes, n, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                         double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                         BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                         sort_options opts, cudaStream_t stream) {
  return detail::radix_sort<Policy>(
      detail::decomposed_keys<Key, Decomposer>{decomposer},
      detail::segmented(detail::buffers<Key, Value>(keys, values), num_segments, d_begin_offsets, d_end_offsets),
      d_temp, temp_bytes, n, opts, stream);
}

template <class Policy, class Key>
cudaError_t tuning::host_sort_keys(Key* h_keys, std::size_t n, sort_options opts, host_sort_config cfg) {
  return detail::host_sort<Policy, detail::builtin_keys<Key>, detail::null_value>(detail::builtin_keys<Key>{}, h_keys,
                                                                                  nullptr, n, opts, cfg)
      .run();
}

template <class Policy, class Key, class Value>
cudaError_t tuning::host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, sort_options opts,
                                    host_sort_config cfg) {
  return detail::host_sort_pairs_of<Policy>(detail::builtin_keys<Key>{}, h_keys, h_values, n, opts, cfg);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::host_sort_keys(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                                   host_sort_config cfg) {
  using kind = detail::decomposed_keys<Key, Decomposer>;
  return detail::host_sort<Policy, kind, detail::null_value>(kind{decomposer}, h_keys, nullptr, n, opts, cfg).run();
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer,
                                    sort_options opts, host_sort_config cfg) {
  using kind = detail::decomposed_keys<Key, Decomposer>;
  return detail::host_sort_pairs_of<Policy>(kind{decomposer}, h_keys, h_values, n, opts, cfg);
}

template <class Policy, class Key>
cudaError_t tuning::sort_keys_host(Key* h_keys, std::size_t n, sort_options opts, host_sort_config cfg) {
  return tuning::host_sort_keys<Policy>(h_keys, n, opts, cfg);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, sort_options opts,
                                    host_sort_config cfg) {
  return tuning::host_sort_pairs<Policy>(h_keys, h_values, n, opts, cfg);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_keys_host(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts,
                                   host_sort_config cfg) {
  return tuning::host_sort_keys<Policy>(h_keys, n, decomposer, opts, cfg);
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer,
                                    sort_options opts, host_sort_config cfg) {
  return tuning::host_sort_pairs<Policy>(h_keys, h_values, n, decomposer, opts, cfg);
}

RINGSWEEP_NAMESPACE_END
