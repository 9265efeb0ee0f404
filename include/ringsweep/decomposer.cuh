// Custom key types (CUB's decomposer API): every sort form of sort.cuh, with a decomposer after
// `n`. Included by sort.cuh (and ringsweep.cuh).
//
// A decomposer is a copyable (trivially copyable: it travels in kernel parameters) functor whose
// `__host__ __device__` call operator takes `Key&` and returns a `cuda::std::tuple` (or, for code
// built against the SIMT backend without libcu++, a `std::tuple`) of references to the fields to
// sort by, most significant first:
//
//     struct particle { int cell; float depth; };
//     struct by_cell_depth {
//       __host__ __device__ cuda::std::tuple<int&, float&> operator()(particle& p) const { return {p.cell, p.depth}; }
//     };
//     ringsweep::sort_keys(d_particles, n, by_cell_depth{});
//
// Fields may be any built-in key type (8-64-bit integers, __half, __nv_bfloat16, float, double);
// each gets its own order-preserving image (-0.0 equals +0.0, NaNs by their bits) and the sort
// orders keys by the concatenation of the images. The key must be trivially copyable and at most
// 16 bytes; it moves as its raw bytes (padding included, its bits not sorted on).
//
// `opts.begin_bit` / `opts.end_bit` index the concatenated image, bit 0 being the least
// significant bit of the last field (CUB's convention); `end_bit = -1` means all the fields' bits.
// Descending reverses the whole order. Passes = ceil((end_bit - begin_bit) / 8), and a digit may
// straddle two fields; as for built-in keys, sorts are stable, size queries take null pointers,
// and a bad window returns cudaErrorInvalidValue with nothing written.
//
// Keys of 2, 4, 8 or 16 bytes move as one word (so a {u32, u32} key costs what a u64 key costs):
// their arrays must be aligned to the key's size, as cudaMalloc's are; others return
// cudaErrorInvalidValue. Other sizes (3, 12 ... bytes) need only the key's own alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "detail/config.cuh"
#include "device/key_kind.cuh"
#include "device/stream_resource.cuh"
#include "sort_options.cuh"
#include "tuning.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Sorts `n` custom keys by the fields `decomposer` names (see the top of decomposer.cuh).
///
///     std::size_t bytes = 0;
///     ringsweep::sort_keys(nullptr, bytes, d_in, d_out, n, by_cell_depth{});   // size query
///     ringsweep::sort_keys(d_temp, bytes, d_in, d_out, n, by_cell_depth{}, {}, stream);
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts `n` (custom key, value) pairs by the key's fields, stably.
///
///     ringsweep::sort_pairs(d_temp, bytes, d_keys, d_keys_out, d_vals, d_vals_out, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::size_t n, Decomposer decomposer,
                       sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts the custom keys of a double buffer; `keys.current()` holds the result on return.
///
///     ringsweep::double_buffer<particle> keys(d_a, d_b);
///     ringsweep::sort_keys(d_temp, bytes, keys, n, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                      Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts (custom key, value) pairs held in double buffers; both selectors point at the result.
///
///     ringsweep::sort_pairs(d_temp, bytes, keys, vals, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, double_buffer<Value>& values,
                       std::size_t n, Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts custom keys in place (temporary storage from cudaMallocAsync on `stream`; on an error
/// returned before the first launch the keys are untouched).
///
///     ringsweep::sort_keys(d_particles, n, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts = {},
                      cudaStream_t stream = 0);

/// Sorts (custom key, value) pairs in place.
///
///     ringsweep::sort_pairs(d_particles, d_ids, n, by_cell_depth{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts = {},
                       cudaStream_t stream = 0);

/// Sorts custom keys in place with temporary storage from a stream-ordered memory `resource` (see
/// the in-place `sort_keys` of sort.cuh).
///
///     ringsweep::sort_keys(d_particles, n, by_cell_depth{}, {}, stream, mr);
template <class Key, class Decomposer, class Resource, detail::if_decomposer<Decomposer> = 0,
          detail::if_resource<Resource> = 0>
cudaError_t sort_keys(Key* d_keys, std::size_t n, Decomposer decomposer, sort_options opts, cudaStream_t stream,
                      Resource&& resource);

/// Sorts (custom key, value) pairs in place with temporary storage from `resource`.
///
///     ringsweep::sort_pairs(d_particles, d_ids, n, by_cell_depth{}, {}, stream, mr);
template <class Key, class Value, class Decomposer, class Resource, detail::if_decomposer<Decomposer> = 0,
          detail::if_resource<Resource> = 0>
cudaError_t sort_pairs(Key* d_keys, Value* d_values, std::size_t n, Decomposer decomposer, sort_options opts,
                       cudaStream_t stream, Resource&& resource);

RINGSWEEP_NAMESPACE_END

#include "device/decomposer.inl"
