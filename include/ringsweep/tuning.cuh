// Sorting with an explicit tuning policy: every sort of sort.cuh, decomposer.cuh,
// segmented_sort.cuh and host_sort.cuh with the policy named by the caller instead of picked for
// the current device (top_k.cuh declares top-k's). For tuning programs, tests and users who ship a
// policy of their own (one derived from ringsweep::policy_defaults, see policy.cuh); arguments,
// results, errors and temporary storage are as in the public form, with the policy's tile, ring
// and portion sizes in the formulas there.
//
//     struct my_policy : ringsweep::policy_sm90 {
//       static constexpr int LOOKBACK_DEPTH = 256;
//     };
//     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, d_in, d_out, n);
//
// The rule: every public sort form `ringsweep::NAME(args)` has the twin
// `ringsweep::tuning::NAME<Policy>(args)` here, and the twin is the form's one body
// (device/tuning.inl): the public form is defined as `tuning::NAME<detail::for_device>(args)`, the
// device's shipped policy. So a public form cannot exist without its twin, and tests/check_api_forms.py
// (the `api_forms` test) fails when a declaration here falls behind the public headers.
//
// A policy other than the shipped ones has kernel bodies for every architecture the program is
// built for; the caller makes sure its shape fits the device (threads, shared memory). Tests and
// the tuning program pass `detail::with_hooks<Policy, Hooks>` to run a policy with test or
// measurement hooks (detail/sort_hooks.cuh).
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "device/key_kind.cuh"
#include "device/stream_resource.cuh"
#include "host_sort_config.cuh"
#include "sort_options.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace tuning {

/// `ringsweep::sort_keys` (in/out form) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, d_in, d_out, n, {}, stream);
template <class Policy, class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (in/out form) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n);
template <class Policy, class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts = {},
                       cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (double-buffer form) with `Policy`.
///
///     ringsweep::double_buffer<float> keys(d_a, d_b);
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, keys, n);
template <class Policy, class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (double-buffer form) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_temp, bytes, keys, values, n);
template <class Policy, class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::argsort` with `Policy`.
///
///     ringsweep::tuning::argsort<my_policy>(d_temp, bytes, d_keys, d_keys_out, d_order, n);
template <class Policy, class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                    Index* d_indices_out, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::argsort` with `Policy`, without the sorted keys.
///
///     ringsweep::tuning::argsort<my_policy>(d_temp, bytes, d_keys, nullptr, d_order, n);
template <class Policy, class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t d_keys_out,
                    Index* d_indices_out, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (in-place form) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_keys, n);
template <class Policy, class Key>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (in-place form) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_keys, d_values, n);
template <class Policy, class Key, class Value>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (in-place form, temporary storage from a memory resource) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_keys, n, {}, stream, mr);
template <class Policy, class Key, class Resource, detail::if_resource<Resource> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream, Resource&& resource);

/// `ringsweep::sort_pairs` (in-place form, temporary storage from a memory resource) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_keys, d_values, n, {}, stream, mr);
template <class Policy, class Key, class Value, class Resource, detail::if_resource<Resource> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream,
                       Resource&& resource);

/// `ringsweep::sort_keys` (in/out form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, d_in, d_out, n, by_cell_depth{});
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (in/out form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, by_cell_depth{});
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                       sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (double-buffer form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, keys, n, by_cell_depth{});
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (double-buffer form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_temp, bytes, keys, values, n, by_cell_depth{});
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (in-place form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_keys, n, by_cell_depth{});
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                      cudaStream_t stream = 0);

/// `ringsweep::sort_pairs` (in-place form, custom keys through a decomposer) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_keys, d_values, n, by_cell_depth{});
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts = {},
                       cudaStream_t stream = 0);

/// `ringsweep::sort_keys` (in-place form, custom keys, memory resource) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_keys, n, by_cell_depth{}, {}, stream, mr);
template <class Policy, class Key, class Decomposer, class Resource, detail::if_decomposer<Decomposer> = 0,
          detail::if_resource<Resource> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream,
                      Resource&& resource);

/// `ringsweep::sort_pairs` (in-place form, custom keys, memory resource) with `Policy`.
///
///     ringsweep::tuning::sort_pairs<my_policy>(d_keys, d_values, n, by_cell_depth{}, {}, stream, mr);
template <class Policy, class Key, class Value, class Decomposer, class Resource, detail::if_decomposer<Decomposer> = 0,
          detail::if_resource<Resource> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                       cudaStream_t stream, Resource&& resource);

/// `ringsweep::segmented_sort_keys` with `Policy`.
///
///     ringsweep::tuning::segmented_sort_keys<my_policy>(d_temp, bytes, d_in, d_out, n, segments, d_begin, d_end);
template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_pairs` with `Policy`.
///
///     ringsweep::tuning::segmented_sort_pairs<my_policy>(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments,
///                                                        d_begin, d_end);
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts = {},
                                 cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_keys` over rows of one length with `Policy`.
///
///     ringsweep::tuning::segmented_sort_keys<my_policy>(d_temp, bytes, d_in, d_out, rows, row_len);
template <class Policy, class Key>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t num_segments, std::size_t segment_size, sort_options opts = {},
                                cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_pairs` over rows of one length with `Policy`.
template <class Policy, class Key, class Value>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t num_segments,
                                 std::size_t segment_size, sort_options opts = {}, cudaStream_t stream = 0);

/// The sorts whose count is on the device (sort.cuh's device_count overloads) with `Policy`.
///
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, d_in, d_out, ringsweep::device_count<int>{d_n, cap});
template <class Policy, class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                      device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);
/// Double-buffer keys, count on the device, with `Policy`.
template <class Policy, class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, device_count<Count> n,
                      sort_options opts = {}, cudaStream_t stream = 0);
/// In/out pairs, count on the device, with `Policy`.
template <class Policy, class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, device_count<Count> n, sort_options opts = {},
                       cudaStream_t stream = 0);
/// Double-buffer pairs, count on the device, with `Policy`.
template <class Policy, class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);
/// argsort, count on the device, with `Policy` (`d_keys_out` may be null).
template <class Policy, class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                    Index* d_indices_out, device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// argsort, count on the device, without the sorted keys, with `Policy`.
template <class Policy, class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t d_keys_out,
                    Index* d_indices_out, device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_keys` (custom keys through a decomposer) with `Policy`.
template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts = {},
                                cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_pairs` (custom keys through a decomposer) with `Policy`.
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_keys` (double-buffer form) with `Policy`.
///
///     ringsweep::tuning::segmented_sort_keys<my_policy>(d_temp, bytes, keys, n, segments, d_begin, d_end);
template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_pairs` (double-buffer form) with `Policy`.
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts = {},
                                 cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_keys` (double-buffer form, custom keys) with `Policy`.
template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::segmented_sort_pairs` (double-buffer form, custom keys) with `Policy`.
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts = {}, cudaStream_t stream = 0);

/// `ringsweep::host_sort_keys` with `Policy` (each chunk's device sort).
///
///     ringsweep::tuning::host_sort_keys<my_policy>(h_keys, n, {}, cfg);
template <class Policy, class Key>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// `ringsweep::host_sort_pairs` with `Policy`.
///
///     ringsweep::tuning::host_sort_pairs<my_policy>(h_keys, h_values, n, {}, cfg);
template <class Policy, class Key, class Value>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, sort_options opts = {},
                            host_sort_config cfg = {});

/// `ringsweep::host_sort_keys` (custom keys through a decomposer) with `Policy`.
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t host_sort_keys(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                           host_sort_config cfg = {});

/// `ringsweep::host_sort_pairs` (custom keys through a decomposer) with `Policy`.
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t host_sort_pairs(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer,
                            sort_options opts = {}, host_sort_config cfg = {});

// Deprecated names (0.1), kept for one release: host_sort.cuh's old names with `Policy`.

/// Deprecated: `tuning::host_sort_keys`.
template <class Policy, class Key>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::tuning::host_sort_keys (sort_keys_host goes in 0.3)") cudaError_t
sort_keys_host(Key* h_keys, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `tuning::host_sort_pairs`.
template <class Policy, class Key, class Value>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::tuning::host_sort_pairs (sort_pairs_host goes in 0.3)") cudaError_t
sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `tuning::host_sort_keys` (custom keys).
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::tuning::host_sort_keys (sort_keys_host goes in 0.3)") cudaError_t
sort_keys_host(Key* h_keys, std::size_t n, Decomposer decomposer, sort_options opts = {}, host_sort_config cfg = {});

/// Deprecated: `tuning::host_sort_pairs` (custom keys).
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
RINGSWEEP_DEPRECATED("ringsweep: use ringsweep::tuning::host_sort_pairs (sort_pairs_host goes in 0.3)") cudaError_t
sort_pairs_host(Key* h_keys, Value* h_values, std::size_t n, Decomposer decomposer, sort_options opts = {},
                host_sort_config cfg = {});

}  // namespace tuning
RINGSWEEP_NAMESPACE_END

#include "device/tuning.inl"
