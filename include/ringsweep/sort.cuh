// ringsweep's device-wide sort of one array: declarations and documentation. The definitions are
// in device/sort.inl, the machinery in device/; the other sorts have their own headers, and
// ringsweep.cuh is the one header that includes them all.
//
// Every sort is a stable LSD radix sort: an upfront histogram of all digit passes, then one
// onesweep launch per 8-bit digit (decoupled look-back over a fixed-size circular status buffer,
// so temporary storage does not grow with n; inputs of at most one tile are sorted by a single
// block instead).
//
// Keys: unsigned and signed 8/16/32/64/128-bit integers, float, double, __half, __nv_bfloat16; structs
// of those through a decomposer (CUB's custom-key API: the overloads in decomposer.cuh, included
// at the end of this header).
// Floating point: -0.0 and +0.0 compare equal (their input order is kept, and each key keeps its
// own bits); NaNs sort by their bits, negative NaNs before -inf and positive NaNs after +inf
// (ascending). Values: any trivially copyable type; those of 1, 2, 4, 8 or 16 bytes move with their
// keys, any other size is sorted as the keys' positions and moved once by a gather
// (docs/usage.md, "Values of any size").
//
// Two-phase forms: call once with `d_temp == nullptr` to learn `temp_bytes` (only `temp_bytes` is
// written; no pointer is read; nothing is launched), allocate, call again. They never allocate and
// never synchronise the host. Invalid arguments return cudaErrorInvalidValue with nothing written
// and nothing launched: a null data pointer with n > 0, `temp_bytes` smaller than the query's
// answer, `begin_bit < 0`, `end_bit` beyond the key's width, `begin_bit > end_bit`, or (in/out
// forms) an output range overlapping its input range, or an `n` whose byte size overflows
// std::size_t. Errors are returned, never printed. Unsupported key types (e.g. bool) fail to
// compile with one static assertion, "ringsweep: unsupported key type".
//
// In place: the double-buffer and in-place overloads sort in place (the latter allocate on the
// stream, from cudaMallocAsync or a memory resource of the caller's); the in/out overloads reject
// an output that overlaps its input.
//
// Your data on an error: every error a sort finds itself (the invalid arguments above, too little
// temporary storage, a failed allocation, no kernel image for the device) is returned before
// anything is launched or written, so every array is untouched. The in/out forms never write
// their inputs, whatever happens. An error the CUDA runtime reports once kernels are enqueued (a
// launch failure: a context already broken, or a device fault) leaves the outputs, and the
// buffers of the double-buffer and in-place forms, unspecified, as it does for any kernel.
//
// Temporary storage, exactly (P = digit passes = ceil((end_bit - begin_bit) / 8), a(x) = x rounded
// up to 256): inputs of at most one tile (the policy's tile: on sm_90 9216 four-byte keys,
// fewer for wide keys or values), n = 0 and empty bit windows need 256 bytes. Larger inputs need
//     256 + a(STATUS_SLOTS * 256 * 8) + a(P * 256 * 8) + a(2 * P * 256 * 8) + 256
// (STATUS_SLOTS = 1024: at most 2.1 MiB for 64-bit keys), plus, for the in/out forms when P >= 2,
// a(n * sizeof(Key)) + a(n * sizeof(Value)) of scratch. The first 256 lets an unaligned d_temp be
// aligned. All of it is cleared by one cudaMemsetAsync per sort. Values of other sizes: the
// argsort's storage (the in/out formula above with 4-byte values, 8-byte from 2^32 keys) plus
// a(n * 4) (a(n * 8)) for the order, in every form; docs/temp_storage.md.
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "device/stream_resource.cuh"
#include "key_traits.cuh"
#include "sort_options.cuh"
#include "tuning.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Sorts `n` keys from `d_keys_in` into `d_keys_out`; the input is left untouched.
///
///     std::size_t bytes = 0;
///     ringsweep::sort_keys(nullptr, bytes, d_in, d_out, n);      // size query
///     cudaMallocAsync(&d_temp, bytes, stream);
///     ringsweep::sort_keys(d_temp, bytes, d_in, d_out, n, {}, stream);
template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts `n` (key, value) pairs by key, stably; inputs are left untouched.
///
///     ringsweep::sort_options desc;
///     desc.order = ringsweep::sort_order::descending;
///     ringsweep::sort_pairs(d_temp, bytes, d_keys, d_keys_out, d_vals, d_vals_out, n, desc, stream);
template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, sort_options opts = {},
                       cudaStream_t stream = 0);

/// Sorts the keys of a double buffer; on return `keys.current()` holds the result (the other
/// buffer's contents are unspecified). Temporary storage stays small for any n.
///
///     ringsweep::double_buffer<float> keys(d_a, d_b);
///     ringsweep::sort_keys(d_temp, bytes, keys, n);
///     float* sorted = keys.current();
template <class Key>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts (key, value) pairs held in double buffers; both selectors point at the result on return.
///
///     ringsweep::double_buffer<unsigned> keys(d_k, d_k2);
///     ringsweep::double_buffer<int> vals(d_v, d_v2);
///     ringsweep::sort_pairs(d_temp, bytes, keys, vals, n);
template <class Key, class Value>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// Argsort: `d_indices_out[i]` = the input position of the i-th key in sorted (stable) order, and
/// the sorted keys in `d_keys_out` unless it is null. No index array is read: the sort makes each
/// position where it would read a value. `Index`: std::int32_t, std::uint32_t, std::int64_t or
/// std::uint64_t; an `n` whose positions do not fit it returns cudaErrorInvalidValue. Temporary
/// storage: that of `sort_pairs` (in/out) with `Index` values, plus `a(n * sizeof(Key))` for the
/// sorted keys when `d_keys_out` is null. The input is never written; `d_indices_out` must not
/// overlap the keys.
///
///     std::size_t bytes = 0;
///     ringsweep::argsort(nullptr, bytes, d_keys, nullptr, d_order, n);   // size query
///     cudaMallocAsync(&d_temp, bytes, stream);
///     ringsweep::argsort(d_temp, bytes, d_keys, nullptr, d_order, n, {}, stream);
template <class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                    Index* d_indices_out, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// argsort without the sorted keys, `d_keys_out` written as `nullptr`.
///
///     ringsweep::argsort(d_temp, bytes, d_keys, nullptr, d_order, n);
template <class Key, class Index>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t d_keys_out,
                    Index* d_indices_out, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts whose count is on the device (device_count, sort_options.cuh): the in/out, double-buffer
/// and argsort forms above with `n` read from `*n.d_n` when the sort runs, clamped to
/// [0, n.max_n]; no host synchronisation, so a frame that learns its count on the device can be
/// one captured graph, and each replay sorts the count of that moment. Everything the host decides
/// is decided for `max_n`: `temp_bytes` (that of the same form with n = max_n), the grids and the
/// buffer checks (each array must hold `max_n` items). The kernels do the work of the count: the
/// first `*d_n` keys are sorted (`*d_n > max_n`: the first `max_n`; negative: none); positions
/// from the count on are never written, in the outputs and in both buffers of a double buffer.
/// A double buffer's selectors are set on the host from `max_n` (and the bit window) alone, so the
/// result is in `current()` whatever the count. Errors: those of the same form with n = max_n, and
/// a null `d_n` with `max_n > 0`; your data on an error: as there.
///
///     int* d_num;   // written by an earlier kernel on `stream`, at most `capacity`
///     ringsweep::device_count<int> n{d_num, capacity};
///     std::size_t bytes = 0;
///     ringsweep::sort_keys(nullptr, bytes, d_in, d_out, n);        // depends on capacity only
///     ringsweep::sort_keys(d_temp, bytes, d_in, d_out, n, {}, stream);
template <class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                      device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// Double-buffer keys with the count on the device (see above).
///
///     ringsweep::double_buffer<float> keys(d_a, d_b);
///     ringsweep::sort_keys(d_temp, bytes, keys, ringsweep::device_count<std::uint32_t>{d_num, capacity});
template <class Key, class Count>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, device_count<Count> n,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// In/out pairs with the count on the device (see above).
///
///     ringsweep::sort_pairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, ringsweep::device_count<int>{d_num, cap});
template <class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, device_count<Count> n, sort_options opts = {},
                       cudaStream_t stream = 0);

/// Double-buffer pairs with the count on the device (see above).
///
///     ringsweep::sort_pairs(d_temp, bytes, keys, values, ringsweep::device_count<int>{d_num, cap});
template <class Key, class Value, class Count>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// argsort with the count on the device (see above): positions below the count are written.
///
///     ringsweep::argsort(d_temp, bytes, d_keys, d_keys_out, d_order, ringsweep::device_count<int>{d_num, cap});
template <class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                    Index* d_indices_out, device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// argsort with the count on the device, without the sorted keys.
///
///     ringsweep::argsort(d_temp, bytes, d_keys, nullptr, d_order, ringsweep::device_count<int>{d_num, cap});
template <class Key, class Index, class Count>
cudaError_t argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, std::nullptr_t d_keys_out,
                    Index* d_indices_out, device_count<Count> n, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts `d_keys` in place. Allocates its temporary storage with cudaMallocAsync on `stream` and
/// frees it with cudaFreeAsync (no host synchronisation). On an error returned before the sort's
/// first launch (bad arguments, a failed allocation) the keys are untouched.
///
///     ringsweep::sort_keys(d_keys, n);
template <class Key>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts (key, value) pairs in place; temporary storage as for the in-place `sort_keys`.
///
///     ringsweep::sort_pairs(d_keys, d_values, n);
template <class Key, class Value>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts `d_keys` in place with temporary storage from `resource`, a stream-ordered memory
/// resource: any object with `allocate_async(bytes, alignment, stream)` and
/// `deallocate_async(p, bytes, alignment, stream)` (the shape of cuda::mr's resources and RMM's).
/// One allocation per sort (alignment 256), returned on `stream` before the call returns. A null
/// result or an exception from `allocate_async` returns cudaErrorMemoryAllocation with the keys
/// untouched; an exception from `deallocate_async` (the sort is enqueued by then) returns
/// cudaErrorUnknown with the keys sorted in stream order; exceptions never leave the sort.
///
///     rmm::mr::cuda_async_memory_resource mr;
///     ringsweep::sort_keys(d_keys, n, {}, stream, mr);
template <class Key, class Resource, detail::if_resource<Resource> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, sort_options opts, cudaStream_t stream, Resource&& resource);

/// Sorts (key, value) pairs in place with temporary storage from `resource` (see above).
///
///     ringsweep::sort_pairs(d_keys, d_values, n, {}, stream, mr);
template <class Key, class Value, class Resource, detail::if_resource<Resource> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, sort_options opts, cudaStream_t stream,
                       Resource&& resource);

RINGSWEEP_NAMESPACE_END

#include "device/sort.inl"
#include "decomposer.cuh"  // the same sorts of custom keys

// Deprecated (0.1, gone in 0.3): sort.cuh used to double as an umbrella header. A program that
// includes it for the segmented or host-resident sorts keeps compiling for one release; include
// <ringsweep/ringsweep.cuh> (or segmented_sort.cuh, host_sort.cuh) instead. Define
// RINGSWEEP_NO_DEPRECATED_INCLUDES to check that a program no longer relies on it.
#ifndef RINGSWEEP_NO_DEPRECATED_INCLUDES
#include "host_sort.cuh"
#include "segmented_sort.cuh"
#endif
