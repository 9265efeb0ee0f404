// Top-k: the k smallest (or, descending, largest) keys of an array or of each segment, sorted and
// deterministic. Declarations and documentation; definitions in device/top_k.inl, the machinery
// in device/top_k_dispatch.cuh (docs/design.md section 15). Included by ringsweep.cuh.
//
//     std::size_t bytes = 0;
//     ringsweep::top_k_keys(nullptr, bytes, d_logits, d_best, n, 32, {ringsweep::sort_order::descending});
//     cudaMallocAsync(&d_temp, bytes, stream);
//     ringsweep::top_k_keys(d_temp, bytes, d_logits, d_best, n, 32, {ringsweep::sort_order::descending}, stream);
//
// **Result.** `out[0, k)` holds the k smallest keys of `in[0, n)` (descending: the k largest) in
// sorted order, as `sort_keys` would order them (the options' order and bit window; -0.0 equals
// +0.0; NaNs by their bits, see key_traits). Among keys that compare equal the earliest input
// positions are taken and keep their input order, so the result is exactly the first k keys of a
// stable sort, the same on every run. Pairs carry each key's value; indices give each key's input
// position (no index array is read). Values: any trivially copyable type (a 12-byte float3, a
// 24-byte struct): the candidates carry their 8-byte input positions, and one gather moves the k
// winners' values, each once (batched: the indices form, then one gather; see below).
//
// **How** (design.md 15): a radix select. One read of the keys counts every pass's digits; then
// per level (a digit pass from the most significant down, passes in which all keys agree skipped)
// the keys below the bucket holding the k-th key become candidates and the bucket's keys are
// filtered into a buffer (when they fit) for the next level, all in input order; finally the k
// candidates are sorted stably (one block; above its tile one cooperative launch of a block per
// tile, which also writes the values or indices). Random keys cost about one read of the input
// plus O(candidates) (the count writes each range's likely candidates as it reads); skewed keys (all
// equal, one dominant key) two or three: a bucket too large for the buffer is counted along a
// guessed key (each pass's most frequent digit), so one more read ends the select whenever the
// k-th key is that key or its bucket fits (design.md 15); no host synchronisation.
//
// **Temporary storage** (`a(x)` = x rounded up to 256; P = passes of the window, at least 1;
// R = min(ceil(n / (HIST_THREADS x HIST_ITEMS)), TOP_K_MAX_RANGES = 1024) ranges (2048 keys per range tile in the
// shipped policies); C = min(n, max(n / 64, 65536)) candidate-buffer keys; K = sizeof(Key)):
//     256 + a(state) + a(8 P 256) + a(16 P 256) + a(8) + a(4 R P 256) + a(48 R) + a(k K) + a(8 k) + 2 (a(C K) + a(8 C))
//         + [pairs, indices: a(8 k)] + [indices without keys_out: a(k K)] + a(2048 B) + the in/out sort
//         of k keys (pairs and indices: with 8-byte values), see sort.cuh; B = ceil(k / T) blocks of the
//         candidates' one-launch sort (T: the keys-only sort tile) when k is above the small sort's tile
//         (pairs, indices: that of 8-byte values), B <= TOP_K_SORT_BLOCKS = 1024 and k <= C, else 0.
// k = n: the stable sort of the whole input runs instead, with its own storage (sort.cuh, argsort
// for indices; pairs whose values are not 1, 2, 4, 8 or 16 bytes: the gathered sort's, see
// docs/temp_storage.md). The size query returns it exactly. The formula above holds for values of
// any size (they are gathered by position, never stored in it).
//
// **Errors.** cudaErrorInvalidValue with nothing written and nothing launched for k > n, a bad bit
// window or order, null input or output pointers (k > 0), misaligned custom keys, an output
// overlapping an input, indices that cannot hold n - 1, or too little temporary storage. k = 0
// writes nothing. Your data on an error: untouched (inputs are never written; outputs are written
// only by kernels launched after every check passed).
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "device/key_kind.cuh"
#include "sort_options.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// The k smallest keys of `in[0, n)` (descending: the k largest), sorted, into `out[0, k)`; among
/// equal keys the earliest positions win and keep their order. k <= n.
///
///     ringsweep::top_k_keys(d_temp, bytes, d_scores, d_top, n, 100, {ringsweep::sort_order::descending}, stream);
template <class Key>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       sort_options opts = {}, cudaStream_t stream = 0);

/// The top k (key, value) pairs by key, sorted, into `keys_out[0, k)` and `values_out[0, k)`.
///
///     ringsweep::top_k_pairs(d_temp, bytes, d_dist, d_dist_top, d_ids, d_ids_top, n, 10);
template <class Key, class Value>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                        sort_options opts = {}, cudaStream_t stream = 0);

/// Positions of the top k in the input (no index array is read), in the keys' sorted order, and
/// the keys themselves unless `keys_out` is null. `Index`: std::int32_t, std::uint32_t,
/// std::int64_t or std::uint64_t, able to hold n - 1.
///
///     ringsweep::top_k_indices(d_temp, bytes, d_logits, nullptr, d_token_ids, vocab, 50, desc, stream);
template <class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts = {},
                          cudaStream_t stream = 0);
/// The same without the keys (`keys_out` = nullptr).
template <class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts = {},
                          cudaStream_t stream = 0);

/// Custom keys (decomposer.cuh): the top k by the fields `decomposer` names.
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                        Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                          sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                          sort_options opts = {}, cudaStream_t stream = 0);

/// Batched: the top k of each segment `[d_begin[i], d_end[i])` into `out[i * k, (i + 1) * k)`,
/// sorted, earliest positions first among equal keys; a segment shorter than k yields all its keys,
/// sorted, and the rest of its k slots untouched. Segments as in segmented_sort.cuh (any order,
/// gaps; empty or outside `[0, n)`: nothing written; overlapping: undefined). The device decides
/// each segment's class (no host read of the offsets, no limit on a segment's length): one of at
/// most one sort tile is sorted by the segmented sort (a warp or a block) and writes its first
/// min(k, size) straight to `out`; a longer one gets a radix select of its own (one block, about
/// one read of its keys for random data), whose min(k, size) candidates a second segmented sort
/// orders into `out`. Temporary storage (V = sizeof(Value or Index), pairs and indices only;
/// T = the sort tile of the key and value; L = min(num_segments, n / (T + 1))): the segmented
/// in/out sort's of n keys (and values: pairs the caller's, indices the Index positions; see
/// segmented_sort.cuh) + 3 a(n sizeof(Key)) + a(8 n) + [pairs, indices: 2 a(n V)]
/// + a(4 num_segments) + a(32 (L + n / m)) + a(4) + 256, m = max(TOP_K_ROW_PART_MIN, k,
/// n / (TOP_K_ROW_PARTS_PER_SM x the device's SMs)) the fewest keys of a long row's part (a long
/// row is split among up to min(size / m, T / k) blocks, each selecting k candidates).
/// Pairs whose values are not 1, 2, 4, 8 or 16 bytes (a float3, a 24-byte struct): the batched
/// indices form runs with I-byte positions (I = 4 for n < 2^32, else 8) into an order of
/// num_segments x k slots (filled with all ones first), and one gather moves each winner's value
/// to its slot (slots past a short segment's size stay untouched). Temporary storage: the
/// indices form's above (V = I) + a(num_segments k I).
/// Errors as for top_k_keys (k may exceed a segment's size), and as segmented_sort_keys for the
/// offsets; segments x k must fit in half of std::size_t.
///
///     // 4096 rows of 50,000 logits: the 8 largest of each row
///     ringsweep::segmented_top_k_keys(d_temp, bytes, d_logits, d_best, 4096 * 50000, 4096, d_row_begin,
///                                     d_row_begin + 1, 8, {ringsweep::sort_order::descending}, stream);
template <class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 sort_options opts = {}, cudaStream_t stream = 0);
/// Batched pairs: the values of each segment's top k follow their keys.
template <class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, sort_options opts = {},
                                  cudaStream_t stream = 0);
/// Batched indices: each segment's top k as positions in the input (not within the segment:
/// subtract `d_begin[i]` for those), with the keys unless `keys_out` is null.
template <class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
/// Batched over rows of one length, no offset arrays (LLM sampling's batch x vocabulary logits):
/// `num_segments` rows of `segment_size` keys each, row i being keys
/// `[i * segment_size, (i + 1) * segment_size)` of `n = num_segments * segment_size`; the top k of
/// row i into `out[i * k, (i + 1) * k)`, as the forms above with those offsets (the same results,
/// errors and temporary storage; an `n` whose product overflows is invalid). Knowing every row's
/// length, the host launches only what such rows need: rows of at most one sort tile are sorted
/// by a warp or a block each (the classification and one class's kernel), longer ones each split
/// among blocks as above and their candidates sorted in one class.
///
///     // 8 rows of 128,000 logits: the 50 largest of each, with their token ids
///     ringsweep::segmented_top_k_indices(d_temp, bytes, d_logits, d_best, d_ids, 8, 128000, 50,
///                                        {ringsweep::sort_order::descending}, stream);
template <class Key>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out,
                                 std::size_t num_segments, std::size_t segment_size, std::size_t k,
                                 sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Value>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t num_segments,
                                  std::size_t segment_size, std::size_t k, sort_options opts = {},
                                  cudaStream_t stream = 0);
/// Rows' indices: positions in the whole input (row i's start is `i * segment_size`).
template <class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
/// Batched custom keys (decomposer.cuh).
template <class Key, class BeginOffsets, class EndOffsets, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, Decomposer decomposer,
                                  sort_options opts = {}, cudaStream_t stream = 0);
template <class Key, class Index, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, Decomposer decomposer, sort_options opts = {},
                                    cudaStream_t stream = 0);

namespace tuning {
/// The top-k forms above with the caller's policy `Policy` (see tuning.cuh): the select's blocks
/// are `HIST_THREADS` threads over tiles of `HIST_THREADS x HIST_ITEMS` keys.
template <class Policy, class Key>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Value>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                        sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts = {},
                          cudaStream_t stream = 0);
template <class Policy, class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n, std::size_t k,
                       Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, sort_options opts = {},
                                  cudaStream_t stream = 0);
template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out,
                                 std::size_t num_segments, std::size_t segment_size, std::size_t k,
                                 sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Value>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t num_segments,
                                  std::size_t segment_size, std::size_t k, sort_options opts = {},
                                  cudaStream_t stream = 0);
template <class Policy, class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                                    Index* indices_out, std::size_t num_segments, std::size_t segment_size,
                                    std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
// The remaining top-k forms with `Policy` (keys_out null, custom keys), so that every public
// top-k form has its twin (tests/check_api_forms.py).
template <class Policy, class Key, class Index>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, sort_options opts = {},
                          cudaStream_t stream = 0);
template <class Policy, class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t n, std::size_t k,
                        Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                          sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                          Index* indices_out, std::size_t n, std::size_t k, Decomposer decomposer,
                          sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, std::nullptr_t keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_keys(void* d_temp, std::size_t& temp_bytes, const Key* in, Key* out, std::size_t n,
                                 std::size_t num_segments, BeginOffsets d_begin, EndOffsets d_end, std::size_t k,
                                 Decomposer decomposer, sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Value, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_pairs(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                  const Value* values_in, Value* values_out, std::size_t n, std::size_t num_segments,
                                  BeginOffsets d_begin, EndOffsets d_end, std::size_t k, Decomposer decomposer,
                                  sort_options opts = {}, cudaStream_t stream = 0);
template <class Policy, class Key, class Index, class BeginOffsets, class EndOffsets, class Decomposer,
          detail::if_decomposer<Decomposer> = 0>
cudaError_t segmented_top_k_indices(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                    Index* indices_out, std::size_t n, std::size_t num_segments, BeginOffsets d_begin,
                                    EndOffsets d_end, std::size_t k, Decomposer decomposer, sort_options opts = {},
                                    cudaStream_t stream = 0);
}  // namespace tuning

RINGSWEEP_NAMESPACE_END

#include "device/top_k.inl"
