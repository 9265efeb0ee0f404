// Definitions of the top-k overloads (declared and documented in top_k.cuh): one-line forwards to
// the entry point, detail::top_k, with the current device's shipped policy or the caller's.
#pragma once

#include "segmented_top_k_dispatch.cuh"
#include "top_k_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

template <class Key>
__host__ top_k_form<Key, null_value, top_k_output::keys> top_k_of(const Key* in, Key* out) {
  return {in, out, nullptr, nullptr};
}
template <class Key, class Value>
__host__ top_k_form<Key, Value, top_k_output::pairs> top_k_of(const Key* in, Key* out, const Value* values_in,
                                                               Value* values_out) {
  return {in, out, values_in, values_out};
}
template <class Key, class Index>
__host__ top_k_form<Key, Index, top_k_output::indices> top_k_indices_of(const Key* in, Key* out, Index* indices) {
  static_assert(std::is_same<Index, std::int32_t>::value || std::is_same<Index, std::uint32_t>::value ||
                    std::is_same<Index, std::int64_t>::value || std::is_same<Index, std::uint64_t>::value,
                "ringsweep: top-k indices are std::int32_t, std::uint32_t, std::int64_t or std::uint64_t");
  return {in, out, nullptr, indices};
}

}  // namespace detail

template <class Key>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       sort_options opts, cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::builtin_keys<Key>{}, detail::top_k_of(in, out), d_temp, temp_bytes,
                                           n, k, opts, stream);
}

template <class Key, class Value>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k, sort_options opts,
                        cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::builtin_keys<Key>{},
                                           detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp,
                                           temp_bytes, n, k, opts, stream);
}

template <class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::builtin_keys<Key>{},
                                           detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp,
                                           temp_bytes, n, k, opts, stream);
}

template <class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts, cudaStream_t stream) {
  return top_k_indices(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, n, k, opts, stream);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                           detail::top_k_of(in, out), d_temp, temp_bytes, n, k, opts, stream);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                        Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                           detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp,
                                           temp_bytes, n, k, opts, stream);
}

template <class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer, sort_options opts,
                          cudaStream_t stream) {
  return detail::top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                           detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp,
                                           temp_bytes, n, k, opts, stream);
}

template <class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer, sort_options opts,
                          cudaStream_t stream) {
  return top_k_indices(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, n, k, decomposer, opts,
                       stream);
}

template <class Policy, class Key>
cudaError_t tuning::top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                               std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::top_k<Policy>(detail::builtin_keys<Key>{}, detail::top_k_of(in, out), d_temp, temp_bytes, n, k, opts,
                               stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                                sort_options opts, cudaStream_t stream) {
  return detail::top_k<Policy>(detail::builtin_keys<Key>{}, detail::top_k_of(keys_in, keys_out, values_in, values_out),
                               d_temp, temp_bytes, n, k, opts, stream);
}

template <class Policy, class Key, class Index>
cudaError_t tuning::top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  Index* indices_out, std::size_t n, std::size_t k, sort_options opts,
                                  cudaStream_t stream) {
  return detail::top_k<Policy>(detail::builtin_keys<Key>{}, detail::top_k_indices_of(keys_in, keys_out, indices_out),
                               d_temp, temp_bytes, n, k, opts, stream);
}

template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                               std::size_t k, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer}, detail::top_k_of(in, out), d_temp,
                               temp_bytes, n, k, opts, stream);
}

template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::builtin_keys<Key>{}, detail::top_k_of(in, out), d_temp,
                                                     temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, sort_options opts,
                                  cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::builtin_keys<Key>{},
                                                     detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp,
                                                     temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::builtin_keys<Key>{},
                                                     detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp,
                                                     temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts, cudaStream_t stream) {
  return segmented_top_k_indices(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, n,
                                 num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                                     detail::top_k_of(in, out), d_temp, temp_bytes, n, num_segments,
                                                     d_begin, d_end, k, opts, stream);
}

template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, Decomposer decomposer,
                                  sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                                     detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp,
                                                     temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key, class Index, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, Decomposer decomposer, sort_options opts,
                                    cudaStream_t stream) {
  return detail::segmented_top_k<detail::for_device>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                                     detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp,
                                                     temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                         std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end,
                                         std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::builtin_keys<Key>{}, detail::top_k_of(in, out), d_temp, temp_bytes, n,
                                         num_segments, d_begin, d_end, k, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                          const Value* values_in, Value* values_out, std::size_t n,
                                          std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end,
                                          std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::builtin_keys<Key>{},
                                         detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp, temp_bytes,
                                         n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                            Index* indices_out, std::size_t n, std::size_t num_segments,
                                            BeginOffsets d_begin, EndOffsets d_end, std::size_t k, sort_options opts,
                                            cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::builtin_keys<Key>{},
                                         detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp, temp_bytes,
                                         n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Key>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out,
                                 std::size_t num_segments, std::size_t segment_size, std::size_t k,
                                 sort_options opts, cudaStream_t stream) {
  return tuning::segmented_top_k_keys<detail::for_device>(d_temp, temp_bytes, in, out, num_segments, segment_size, k,
                                                          opts, stream);
}

template <class Key, class Value>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t num_segments,
                                  std::size_t segment_size, std::size_t k, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_top_k_pairs<detail::for_device>(d_temp, temp_bytes, keys_in, keys_out, values_in,
                                                           values_out, num_segments, segment_size, k, opts, stream);
}

template <class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_top_k_indices<detail::for_device>(d_temp, temp_bytes, keys_in, keys_out, indices_out,
                                                             num_segments, segment_size, k, opts, stream);
}

template <class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts, cudaStream_t stream) {
  return segmented_top_k_indices(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, num_segments,
                                 segment_size, k, opts, stream);
}

template <class Policy, class Key>
cudaError_t tuning::segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out,
                                         std::size_t num_segments, std::size_t segment_size, std::size_t k,
                                         sort_options opts, cudaStream_t stream) {
  return detail::batched_top_k<Policy>(detail::builtin_keys<Key>{}, detail::top_k_of(in, out), d_temp, temp_bytes,
                                       num_segments, segment_size, k, opts, stream);
}

template <class Policy, class Key, class Value>
cudaError_t tuning::segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                          const Value* values_in, Value* values_out, std::size_t num_segments,
                                          std::size_t segment_size, std::size_t k, sort_options opts,
                                          cudaStream_t stream) {
  return detail::batched_top_k<Policy>(detail::builtin_keys<Key>{},
                                       detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp, temp_bytes,
                                       num_segments, segment_size, k, opts, stream);
}

template <class Policy, class Key, class Index>
cudaError_t tuning::segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                            Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                            std::size_t k, sort_options opts, cudaStream_t stream) {
  return detail::batched_top_k<Policy>(detail::builtin_keys<Key>{},
                                       detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp, temp_bytes,
                                       num_segments, segment_size, k, opts, stream);
}

template <class Policy, class Key, class Index>
cudaError_t tuning::segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                            Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                            std::size_t k, sort_options opts, cudaStream_t stream) {
  return tuning::segmented_top_k_indices<Policy>(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out,
                                                 num_segments, segment_size, k, opts, stream);
}

// The remaining twins (top_k.cuh): the same bodies as the public forms above, with `Policy`.

template <class Policy, class Key, class Index>
cudaError_t tuning::top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                  Index* indices_out, std::size_t n, std::size_t k, sort_options opts,
                                  cudaStream_t stream) {
  return tuning::top_k_indices<Policy>(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, n, k,
                                       opts, stream);
}

template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                                Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                               detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp, temp_bytes, n, k,
                               opts, stream);
}

template <class Policy, class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                                  sort_options opts, cudaStream_t stream) {
  return detail::top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                               detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp, temp_bytes, n, k,
                               opts, stream);
}

template <class Policy, class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t tuning::top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                  Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                                  sort_options opts, cudaStream_t stream) {
  return tuning::top_k_indices<Policy>(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr), indices_out, n, k,
                                       decomposer, opts, stream);
}

template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t tuning::segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t,
                                            Index* indices_out, std::size_t n, std::size_t num_segments,
                                            BeginOffsets d_begin, EndOffsets d_end, std::size_t k, sort_options opts,
                                            cudaStream_t stream) {
  return tuning::segmented_top_k_indices<Policy>(d_temp, temp_bytes, keys_in, static_cast<Key*>(nullptr),
                                                 indices_out, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                         std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end,
                                         std::size_t k, Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                         detail::top_k_of(in, out), d_temp, temp_bytes, n, num_segments, d_begin,
                                         d_end, k, opts, stream);
}

template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                          const Value* values_in, Value* values_out, std::size_t n,
                                          std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end,
                                          std::size_t k, Decomposer decomposer, sort_options opts,
                                          cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                         detail::top_k_of(keys_in, keys_out, values_in, values_out), d_temp,
                                         temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer>>
cudaError_t tuning::segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                            Index* indices_out, std::size_t n, std::size_t num_segments,
                                            BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                            Decomposer decomposer, sort_options opts, cudaStream_t stream) {
  return detail::segmented_top_k<Policy>(detail::decomposed_keys<Key, Decomposer>{decomposer},
                                         detail::top_k_indices_of(keys_in, keys_out, indices_out), d_temp,
                                         temp_bytes, n, num_segments, d_begin, d_end, k, opts, stream);
}

RINGSWEEP_NAMESPACE_END
