// segmented_top_k: the entry of the segmented top-k overloads. Rows of at most one tile go through
// the segmented sort (a warp or a block each, classified on the device), which writes the first
// min(k, size) of each straight to its k slots; longer rows get a radix select each (one block a
// row), whose min(k, size) candidates a second segmented sort orders into their slots.
// docs/design.md section 15.
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/temp_layout.cuh"
#include "../kernels/top_k_kernel.cuh"
#include "top_k_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Segmented top-k with `Policy` and `Hooks` for keys of `Kind`.
template <class Policy, class Hooks, class Kind>
struct segmented_top_k_dispatch {
  using sort_key = typename Kind::sort_key;
  using bits_type = typename key_traits<sort_key>::bits_type;

  /// The value type the segmented sort moves: none, the caller's values, or positions.
  template <class Value, top_k_output What>
  using sort_value = typename std::conditional<What == top_k_output::keys, null_value, Value>::type;
  template <class Value, top_k_output What>
  using config = sort_config<Policy, sort_key, typename kernel_value<sort_value<Value, What>>::type, Hooks>;

  /// `Rows`: where the segments are, segment_offsets (the caller's offsets) or fixed_rows.
  template <class Key, class Value, top_k_output What, class Rows>
  __host__ static cudaError_t run(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                  std::size_t& temp_bytes, std::size_t n, std::size_t segments, const Rows& bounds,
                                  std::size_t k, const sort_options& opts, cudaStream_t stream) {
    if constexpr (What == top_k_output::pairs && !value_moves_whole<Value>::value) {
      return with_index_type(n, [&](auto index) {
        return run_gathered<decltype(index)>(kind, f, d_temp, temp_bytes, n, segments, bounds, k, opts, stream);
      });
    } else {
      return run_moved(kind, f, d_temp, temp_bytes, n, segments, bounds, k, opts, stream);
    }
  }

  /// Pairs whose values the sorts do not move whole (value_gather.cuh): the indices form with
  /// `Index` positions into an order array of segments x k slots (all ones first: a slot past a
  /// short segment's size stays unset), then one gather of the winners' values into their slots
  /// (unset slots keep theirs). Temporary storage: the indices form's, then a(segments k
  /// sizeof(Index)) of order. Every check of the values is made before the first launch.
  template <class Index, class Key, class Value, class Rows>
  __host__ static cudaError_t run_gathered(const Kind& kind, const top_k_form<Key, Value, top_k_output::pairs>& f,
                                           void* d_temp, std::size_t& temp_bytes, std::size_t n, std::size_t segments,
                                           const Rows& bounds, std::size_t k, const sort_options& opts,
                                           cudaStream_t stream) {
    static_assert(std::is_trivially_copyable<Value>::value, "ringsweep: values must be trivially copyable");
    using indices_form = top_k_form<Key, Index, top_k_output::indices>;
    std::size_t inner_bytes = 0;
    cudaError_t e = run_moved(kind, indices_form{nullptr, nullptr, nullptr, nullptr}, nullptr, inner_bytes, n,
                              segments, bounds, k, opts, stream);
    if (e != cudaSuccess) return e;  // the window, the counts, segments x k against half of size_t
    const std::size_t slots = segments * k;
    if (slots > (~std::size_t(0) >> 2) / (sizeof(Index) + sizeof(Value))) return cudaErrorInvalidValue;
    const std::size_t order_at = align_up(inner_bytes);
    const std::size_t bytes = order_at + align_up(slots * sizeof(Index));
    if (d_temp == nullptr) {
      temp_bytes = bytes;
      return cudaSuccess;
    }
    if (k == 0 || n == 0 || segments == 0) return cudaSuccess;
    if (temp_bytes < bytes) return cudaErrorInvalidValue;
    // The indices form's checks (made again there), then the values', before the order's fill.
    if (!bounds.given(segments) || f.keys_in == nullptr || f.keys_out == nullptr || f.values_in == nullptr ||
        f.values_out == nullptr || !kind.aligned(f.keys_in, f.keys_out)) {
      return cudaErrorInvalidValue;
    }
    const std::size_t in_bytes = n * sizeof(Key), v_out = slots * sizeof(Value);
    if (ranges_overlap(f.keys_in, in_bytes, f.keys_out, slots * sizeof(Key)) ||
        ranges_overlap(f.values_out, v_out, f.keys_in, in_bytes) ||
        ranges_overlap(f.values_out, v_out, f.keys_out, slots * sizeof(Key)) ||
        ranges_overlap(f.values_out, v_out, f.values_in, n * sizeof(Value))) {
      return cudaErrorInvalidValue;
    }
    Index* const order = temp_piece<Index>(d_temp, order_at - temp_alignment);
    e = cudaMemsetAsync(order, 0xff, slots * sizeof(Index), stream);
    if (e != cudaSuccess) return e;
    std::size_t left = inner_bytes;
    e = run_moved(kind, indices_form{f.keys_in, f.keys_out, nullptr, order}, d_temp, left, n, segments, bounds, k, opts,
                  stream);
    if (e != cudaSuccess) return e;
    return launch_value_gather<true>(f.values_in, f.values_out, order, slots, count_source{}, stream);
  }

  /// How long rows split among the per-row select's blocks (top_k_row_parts): parts of at least
  /// max(TOP_K_ROW_PART_MIN, k) keys and of the call's n over TOP_K_ROW_PARTS_PER_SM parts an SM
  /// (so that a few long rows fill the device: about two waves where the kernel holds two blocks an
  /// SM), at most `tile / k` parts a row (its candidates are one sort tile at most), at most 2^31
  /// parts in all (the list's count is 32-bit).
  __host__ static cudaError_t row_parts(std::size_t n, std::size_t k, u64 tile, top_k_row_parts& split) {
    int sms = 0;
    const cudaError_t e = device_sms(sms);
    if (e != cudaSuccess) return e;
    const u64 blocks = u64(max_of(sms, 1)) * u64(Policy::TOP_K_ROW_PARTS_PER_SM);
    split.part_min = max_of<u64>(max_of<u64>(u64(max_of(Policy::TOP_K_ROW_PART_MIN, 1)), u64(k)),
                                 max_of<u64>(ceil_div<u64>(u64(n), blocks), (u64(n) >> 31) + 1));
    split.max_parts = k == 0 ? 1 : max_of<u64>(1, tile / u64(k));
    return cudaSuccess;
  }

  template <class Key, class Value, top_k_output What, class Rows>
  __host__ static cudaError_t run_moved(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                        std::size_t& temp_bytes, std::size_t n, std::size_t segments,
                                        const Rows& bounds, std::size_t k, const sort_options& opts,
                                        cudaStream_t stream) {
    using V = sort_value<Value, What>;
    using cfg = config<Value, What>;
    using runner = segmented_runner<cfg>;
    using raw = typename cfg::value_raw_t;
    constexpr bool VALUES = What != top_k_output::keys;
    constexpr bool INDICES = What == top_k_output::indices;
    using row_raw = typename std::conditional<VALUES, raw, u32>::type;  // the candidates' values
    // Rows of more than one sort tile are long (the classification's test), and get a select each.
    constexpr u64 LARGE_ABOVE = u64(cfg::TILE);
    using offsets = Rows;
    const top_k_short_rows<offsets> short_rows{bounds, LARGE_ABOVE};
    top_k_row_parts split;
    cudaError_t e = row_parts(n, k, u64(cfg::TILE), split);
    if (e != cudaSuccess) return e;
    const top_k_candidate_rows<offsets> candidate_rows{bounds, LARGE_ABOVE, u64(k), split};
    // The sorts' storage (size queries: they check the window, n and the segment count); both
    // sorts are of n keys and `segments` segments, and run one after the other in it.
    std::size_t sort_bytes = 0, cand_sort_bytes = 0;
    e = runner::run(in_out_form<Key, V>{nullptr, nullptr, nullptr, nullptr}, segments, short_rows, nullptr,
                    sort_bytes, n, opts, stream, kind.context());
    if (e == cudaSuccess) {
      e = runner::run(in_out_form<Key, V>{nullptr, nullptr, nullptr, nullptr}, segments, candidate_rows, nullptr,
                      cand_sort_bytes, n, opts, stream, kind.context());
    }
    if (e != cudaSuccess) return e;
    sort_bytes = max_of(sort_bytes, cand_sort_bytes);
    if (segments != 0 && k > (~std::size_t(0) >> 1) / segments) return cudaErrorInvalidValue;
    // Long rows, and their parts beyond the first, at most.
    const std::size_t long_max = bounds.sizes(u64(n)).hi > LARGE_ABOVE
                                     ? min_of<std::size_t>(segments, n / std::size_t(LARGE_ABOVE + 1))
                                     : 0;
    const std::size_t parts_max = long_max == 0 ? 0 : long_max + std::size_t(n / split.part_min);
    std::size_t at = align_up(sort_bytes);
    const auto piece = [&](std::size_t bytes) {
      const std::size_t here = at;
      at += align_up(bytes);
      return here;
    };
    const std::size_t keys_at = piece(n * sizeof(Key));            // the second sort's long candidate rows
    const std::size_t values_at = VALUES ? piece(n * sizeof(raw)) : 0;
    const std::size_t buf_keys_at = piece(n * sizeof(bits_type));  // a long row's bucket, in its own range
    const std::size_t buf_pos_at = piece(n * 8);
    const std::size_t cand_keys_at = piece(n * sizeof(bits_type));  // its candidates, at the start of its range
    const std::size_t cand_values_at = VALUES ? piece(n * sizeof(raw)) : 0;
    const std::size_t segs_at = piece(segments * sizeof(u32));
    const std::size_t rows_at = piece(parts_max * sizeof(top_k_row));
    const std::size_t count_at = piece(sizeof(u32));
    const std::size_t bytes = at + temp_alignment;
    if (d_temp == nullptr) {
      temp_bytes = bytes;
      return cudaSuccess;
    }
    if (k == 0 || n == 0 || segments == 0) return cudaSuccess;
    if (temp_bytes < bytes) return cudaErrorInvalidValue;
    if (!bounds.given(segments) || f.keys_in == nullptr) return cudaErrorInvalidValue;
    if (What != top_k_output::indices && f.keys_out == nullptr) return cudaErrorInvalidValue;
    if (VALUES && f.values_out == nullptr) return cudaErrorInvalidValue;
    if (What == top_k_output::pairs && f.values_in == nullptr) return cudaErrorInvalidValue;
    if (!kind.aligned(f.keys_in, f.keys_out)) return cudaErrorInvalidValue;
    if constexpr (What == top_k_output::indices) {
      if (n - 1 > std::size_t(std::numeric_limits<Value>::max())) return cudaErrorInvalidValue;
    }
    const std::size_t in_bytes = n * sizeof(Key), out_keys = segments * k * sizeof(Key);
    if (f.keys_out != nullptr && ranges_overlap(f.keys_in, in_bytes, f.keys_out, out_keys)) return cudaErrorInvalidValue;
    if (VALUES) {
      const std::size_t v_out = segments * k * sizeof(Value);
      if (ranges_overlap(f.values_out, v_out, f.keys_in, in_bytes) ||
          (f.keys_out != nullptr && ranges_overlap(f.values_out, v_out, f.keys_out, out_keys)) ||
          (What == top_k_output::pairs && ranges_overlap(f.values_out, v_out, f.values_in, n * sizeof(Value)))) {
        return cudaErrorInvalidValue;
      }
    }

    Key* const keys_sorted = temp_piece<Key>(d_temp, keys_at);
    V* const values_sorted = VALUES ? temp_piece<V>(d_temp, values_at) : nullptr;
    V* const cand_values = VALUES ? temp_piece<V>(d_temp, cand_values_at) : nullptr;
    Key* const cand_keys = temp_piece<Key>(d_temp, cand_keys_at);
    void* const sort_temp = temp_piece<char>(d_temp, 0);
    u32* const row_count = temp_piece<u32>(d_temp, count_at);
    top_k_row* const rows = temp_piece<top_k_row>(d_temp, rows_at);
    // 1. The long rows, listed on the device, and each one's select to its candidates.
    if (long_max != 0) {
      e = cudaMemsetAsync(row_count, 0, sizeof(u32), stream);
      if (e != cudaSuccess) return e;
      const unsigned list_grid = unsigned(max_of<std::size_t>(
          1, min_of<std::size_t>(ceil_div<std::size_t>(segments, top_k_gather_threads), 4096)));
      e = launch(top_k_rows_list_kernel<offsets>, list_grid, unsigned(top_k_gather_threads), stream,
                 launch_order::serial, bounds, u64(segments), u64(n), LARGE_ABOVE, split, u64(k), rows,
                 u64(parts_max), row_count);
      if (e != cudaSuccess) return e;
      top_k_rows_params<sort_key, row_raw> rp;
      static_cast<key_context<sort_key>&>(rp) = kind.context();
      rp.keys = reinterpret_cast<const bits_type*>(f.keys_in);
      rp.values = nullptr;
      if constexpr (What == top_k_output::pairs) rp.values = reinterpret_cast<const row_raw*>(f.values_in);
      rp.rows = rows;
      rp.row_count = row_count;
      rp.row_capacity = u64(parts_max);
      rp.k = u64(k);
      // The window was checked by the sorts' size queries above.
      if (!sort_window::resolve(opts, key_traits<sort_key>::bits, cfg::RADIX_BITS, rp.window)) {
        return cudaErrorInvalidValue;
      }
      rp.buf_keys = temp_piece<bits_type>(d_temp, buf_keys_at);
      rp.buf_pos = temp_piece<u64>(d_temp, buf_pos_at);
      rp.cand_keys = reinterpret_cast<bits_type*>(cand_keys);
      rp.cand_values = VALUES ? reinterpret_cast<row_raw*>(cand_values) : nullptr;
      using select_config = sort_config<Policy, sort_key, null_value>;  // keys only, no hooks
      using select = top_k_row_select<select_config>;
      e = launch(top_k_rows_kernel<select_config, row_raw, What == top_k_output::pairs, INDICES>,
                 unsigned(min_of<std::size_t>(parts_max, 8192)), unsigned(select::THREADS), stream,
                 launch_order::serial, rp);
      if (e != cudaSuccess) return e;
    }
    // 2. The short rows, sorted by a warp or a block each, their first min(k, size) to their slots.
    using first_k = segment_first_k<bits_type, raw, INDICES>;
    first_k out;
    out.keys_out = reinterpret_cast<bits_type*>(f.keys_out);
    out.values_out = VALUES ? reinterpret_cast<raw*>(f.values_out) : nullptr;
    out.item_segments = temp_piece<u32>(d_temp, segs_at);
    out.k = u64(k);
    // (Indices: the warp and block classes make positions; the pointer is only checked.)
    const V* values_in = INDICES ? cand_values : nullptr;
    if constexpr (What == top_k_output::pairs) values_in = f.values_in;
    std::size_t bytes_left = sort_bytes;
    e = runner::run(in_out_form<Key, V>{f.keys_in, keys_sorted, values_in, values_sorted}, segments, short_rows,
                    sort_temp, bytes_left, n, opts, stream, kind.context(), out);
    if (e != cudaSuccess || long_max == 0) return e;
    // 3. The long rows' candidates, sorted the same way (their values are the candidates' own:
    // positions for indices), then those of more than one tile (k > TILE) copied from scratch.
    segment_first_k<bits_type, raw, false> cand_out;
    cand_out.keys_out = out.keys_out;
    cand_out.values_out = out.values_out;
    cand_out.item_segments = out.item_segments;
    cand_out.k = out.k;
    e = runner::run(in_out_form<Key, V>{cand_keys, keys_sorted, VALUES ? cand_values : nullptr, values_sorted}, segments,
                    candidate_rows, sort_temp, bytes_left, n, opts, stream, kind.context(), cand_out);
    if (e != cudaSuccess || k <= std::size_t(LARGE_ABOVE)) return e;
    top_k_segment_copy_params<top_k_candidate_rows<offsets>, bits_type, raw> c;
    c.segments = candidate_rows;
    c.num_segments = segments;
    c.n = n;
    c.k = k;
    c.large_above = LARGE_ABOVE;
    c.keys_sorted = reinterpret_cast<const bits_type*>(keys_sorted);
    c.keys_out = reinterpret_cast<bits_type*>(f.keys_out);
    c.values_sorted = reinterpret_cast<const raw*>(values_sorted);
    c.values_out = VALUES ? reinterpret_cast<raw*>(f.values_out) : nullptr;
    constexpr std::size_t warps = top_k_gather_threads / warp_threads;
    const unsigned segment_grid =
        unsigned(max_of<std::size_t>(1, min_of<std::size_t>(ceil_div<std::size_t>(segments, warps), 4096)));
    return launch(top_k_segment_copy_kernel<top_k_candidate_rows<offsets>, bits_type, raw>, segment_grid,
                  unsigned(top_k_gather_threads), stream, launch_order::serial, c);
  }
};

/// The entry of every segmented top-k overload with offsets.
template <class Choice, class Kind, class Key, class Value, top_k_output What, class BeginOffsets, class EndOffsets>
__host__ cudaError_t segmented_top_k(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                     std::size_t& temp_bytes, std::size_t n, std::size_t segments,
                                     BeginOffsets begin_offsets, EndOffsets end_offsets, std::size_t k,
                                     const sort_options& opts, cudaStream_t stream) {
  const segment_offsets_of<BeginOffsets, EndOffsets> bounds{begin_offsets, end_offsets};
  return with_policy<Choice>([&](auto policy, auto hooks) {
    return segmented_top_k_dispatch<decltype(policy), decltype(hooks), Kind>::run(kind, f, d_temp, temp_bytes, n,
                                                                                 segments, bounds, k, opts, stream);
  });
}

/// The entry of every batched top-k overload over rows of one length (fixed_rows): n is
/// `rows * row_keys` (rows_keys: a product that overflows is a count every plan rejects).
template <class Choice, class Kind, class Key, class Value, top_k_output What>
__host__ cudaError_t batched_top_k(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                   std::size_t& temp_bytes, std::size_t rows, std::size_t row_keys, std::size_t k,
                                   const sort_options& opts, cudaStream_t stream) {
  const fixed_rows bounds{u64(row_keys)};
  return with_policy<Choice>([&](auto policy, auto hooks) {
    return segmented_top_k_dispatch<decltype(policy), decltype(hooks), Kind>::run(
        kind, f, d_temp, temp_bytes, rows_keys(rows, row_keys), rows, bounds, k, opts, stream);
  });
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
