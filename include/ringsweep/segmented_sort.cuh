// Segmented sorts: many independent sorts in one call. Declarations and documentation; the
// definitions are in device/segmented_sort.inl, the machinery in device/segmented_dispatch.cuh.
// Included by ringsweep.cuh.
//
// Segment i is the keys `[d_begin_offsets[i], d_end_offsets[i])`; each is sorted stably on its
// own, with the options of sort_keys (order, bit window). Segments may be empty (`end <= begin`),
// come in any order and leave gaps: output positions outside every segment are not written.
// Overlapping segments are undefined behaviour. A segment that does not lie within `[0, n)` is
// ignored (nothing of it is read or written). The offsets are any random-access iterators, as
// CUB's: pointers, counting or transform iterators, a functor iterator of your own (`begin + i * K`
// rows); begin and end may be of different types. Their value type is the offset type: any
// integer type other than bool (signed or unsigned, 32 or 64 bits). They are copied as bytes into
// the kernels' parameters (so their copy constructor and destructor must be trivial, as thrust's
// counting and transform iterators' are: a static assertion says so) and dereferenced there only,
// never on the host.
//
// The host never reads the offsets and never synchronises (graph capture works): the device
// sorts *tiny* segments (at most SEGMENT_TINY_KEYS keys: 512 in the shipped policies, 256 for keys
// wider than 32 bits, 128 for custom keys wider than 64) in registers in the launch that classifies
// the segments, each by the fewest lanes of a warp that hold it (16 keys a lane, 8 for 64-bit keys,
// 4 above; a bitonic network across the lanes), those of at most the policy's segment_block tile
// (4,096 4-byte keys shipped) by a group of that shape's threads (or of the smaller
// segment_compact_block shape's) within a block of SEGMENT_SMALL_THREADS, those of at most one
// onesweep tile by such a block whole (the three classes in one launch), and larger ones by
// onesweep passes that all blocks share (decoupled look-back over the same constant-size ring;
// every pass in one kernel), so one segment of 2^28 keys costs about what a plain sort of 2^28
// keys costs. A call launches at most 3 kernels whatever the segments' sizes while n is
// below one portion of PORTION_TILES onesweep tiles (about 3 x 10^8 4-byte keys), at most one
// more per further portion; rows of one length launch only their class's.
//
// Temporary storage grows with the number of segments, not with n (beyond the scratch half of the
// in/out form): with S segments, P passes, L = min(S, floor(n / (TILE + 1))) (the most segments
// larger than one tile) and a(x) = x rounded up to 256,
//     256 + a(4 * (33 + TAIL_WORDS + P)) + a(8 * S)  + [L > 0:  a(STATUS_SLOTS * 256 * 8)
//         + a(L * P * 256 * 8) + a(2 * P * 256 * 8) + a(24 * L) + [P >= 2: a(n * sizeof(Key))
//         + a(n * sizeof(Value))]]
// where TAIL_WORDS is the tail iterator's (at most a few hundred words). The size query returns it
// exactly; n = 0 or no segment needs 256 bytes. Values of a size other than 1, 2, 4, 8 or 16 bytes:
// the in/out formula with 4-byte values (8-byte from 2^32 keys) plus 2 * a(n * 4) (a(n * 8)) for
// the positions in and out, in both forms (the double-buffer form sorts into the alternate buffers
// and never writes the current ones).
//
// Errors: as sort_keys (cudaErrorInvalidValue with nothing written and nothing launched for a bad
// window or order, null data pointers, overlapping input and output, too little temporary
// storage), and for null offset pointers with segments (an iterator that is not a pointer has
// nothing to check), n of 2^48 or more, or 2^32 segments or more. Your data on an error: untouched
// for every error the sort finds itself; inputs never written.
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "device/key_kind.cuh"
#include "sort_options.cuh"
#include "tuning.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Sorts each segment of `d_keys_in` into the same positions of `d_keys_out`.
///
///     // rows of a CSR matrix: row r is [row_offsets[r], row_offsets[r + 1])
///     std::size_t bytes = 0;
///     ringsweep::segmented_sort_keys(nullptr, bytes, d_cols, d_cols_out, nnz, rows, d_row_offsets,
///                                    d_row_offsets + 1);                          // size query
///     cudaMallocAsync(&d_temp, bytes, stream);
///     ringsweep::segmented_sort_keys(d_temp, bytes, d_cols, d_cols_out, nnz, rows, d_row_offsets,
///                                    d_row_offsets + 1, {}, stream);
template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts the (key, value) pairs of each segment by key, stably.
///
///     ringsweep::segmented_sort_pairs(d_temp, bytes, d_keys, d_keys_out, d_vals, d_vals_out, n, segments,
///                                     d_begin, d_end, {}, stream);
template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts = {},
                                 cudaStream_t stream = 0);

/// Rows of one length, no offset arrays (a matrix sorted row by row): `num_segments` rows of
/// `segment_size` keys each, row i being keys `[i * segment_size, (i + 1) * segment_size)` of
/// `n = num_segments * segment_size`. Sorted as the segmented sort above with those offsets (the
/// same classes, temporary storage with S = num_segments, errors, and an `n` whose product
/// overflows is invalid); nothing is read to find a row. Zero rows or rows of length 0 sort
/// nothing; rows of length 1 are copied.
///
///     // a 1024 x 256 matrix of scores, each row sorted descending
///     ringsweep::sort_options desc;
///     desc.order = ringsweep::sort_order::descending;
///     ringsweep::segmented_sort_keys(nullptr, bytes, d_scores, d_sorted, 1024, 256, desc);   // size query
///     ringsweep::segmented_sort_keys(d_temp, bytes, d_scores, d_sorted, 1024, 256, desc, stream);
template <class Key>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t num_segments, std::size_t segment_size, sort_options opts = {},
                                cudaStream_t stream = 0);

/// The (key, value) pairs of each row of one length sorted by key, stably (see above).
///
///     ringsweep::segmented_sort_pairs(d_temp, bytes, d_scores, d_scores_out, d_ids, d_ids_out, rows, row_len);
template <class Key, class Value>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t num_segments,
                                 std::size_t segment_size, sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts each segment of custom keys by the fields `decomposer` names (see decomposer.cuh).
///
///     ringsweep::segmented_sort_keys(d_temp, bytes, d_in, d_out, n, segments, d_begin, d_end, by_cell_depth{});
template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::size_t n, std::size_t num_segments, BeginOffsets d_begin_offsets,
                                EndOffsets d_end_offsets, Decomposer decomposer, sort_options opts = {},
                                cudaStream_t stream = 0);

/// Sorts the (custom key, value) pairs of each segment by the key's fields, stably.
///
///     ringsweep::segmented_sort_pairs(d_temp, bytes, d_k, d_k_out, d_v, d_v_out, n, segments, d_begin, d_end,
///                                     by_cell_depth{});
template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts each segment of a double buffer's keys: on return `keys.current()` holds the sorted
/// segments (the result always lands in the alternate buffer and the selector flips, as in CUB's
/// segmented DoubleBuffer forms: positions outside every segment are not written there, and the
/// other buffer's keys inside segments larger than one onesweep tile are overwritten). No scratch
/// of n keys: temporary storage is the formula above without the `[P >= 2: ...]` term.
///
///     ringsweep::double_buffer<float> keys(d_a, d_b);
///     ringsweep::segmented_sort_keys(d_temp, bytes, keys, n, segments, d_begin, d_end);
///     float* sorted = keys.current();
template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts each segment's (key, value) pairs held in double buffers; both selectors point at the
/// result on return (see above).
///
///     ringsweep::segmented_sort_pairs(d_temp, bytes, keys, values, n, segments, d_begin, d_end, {}, stream);
template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, sort_options opts = {},
                                 cudaStream_t stream = 0);

/// Double-buffer segments of custom keys (see decomposer.cuh).
///
///     ringsweep::segmented_sort_keys(d_temp, bytes, keys, n, segments, d_begin, d_end, by_cell_depth{});
template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys, std::size_t n,
                                std::size_t num_segments, BeginOffsets d_begin_offsets, EndOffsets d_end_offsets,
                                Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);

/// Double-buffer segments of (custom key, value) pairs.
///
///     ringsweep::segmented_sort_pairs(d_temp, bytes, keys, values, n, segments, d_begin, d_end, by_cell_depth{});
template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                 double_buffer<Value>& values, std::size_t n, std::size_t num_segments,
                                 BeginOffsets d_begin_offsets, EndOffsets d_end_offsets, Decomposer decomposer,
                                 sort_options opts = {}, cudaStream_t stream = 0);

RINGSWEEP_NAMESPACE_END

#include "device/segmented_sort.inl"
