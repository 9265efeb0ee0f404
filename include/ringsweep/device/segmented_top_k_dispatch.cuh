// segmented_top_k: the entry of the segmented top-k overloads. The segmented sort (tiny segments by
// a warp, small ones by a block, large ones by onesweep passes, classified on the device) writes
// the first min(k, size) of each tiny and small segment straight to its k slots; the large ones
// are sorted into scratch and a copy kernel takes their first min(k, size). docs/design.md
// section 15.
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

  template <class Key, class Value, top_k_output What, class Offset>
  __host__ static cudaError_t run(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                  std::size_t& temp_bytes, std::size_t n, std::size_t segments,
                                  const Offset* begin_offsets, const Offset* end_offsets, std::size_t k,
                                  const sort_options& opts, cudaStream_t stream) {
    using V = sort_value<Value, What>;
    using runner = segmented_runner<config<Value, What>>;
    constexpr bool VALUES = What != top_k_output::keys;
    // The sort's storage (a size query: checks the window, n and the segment count).
    std::size_t sort_bytes = 0;
    const segment_offsets<Offset> bounds{begin_offsets, end_offsets};
    cudaError_t e = runner::run(in_out_form<Key, V>{nullptr, nullptr, nullptr, nullptr}, segments, bounds, nullptr,
                                sort_bytes, n, opts, stream, kind.context());
    if (e != cudaSuccess) return e;
    if (segments != 0 && k > (~std::size_t(0) >> 1) / segments) return cudaErrorInvalidValue;
    const std::size_t keys_at = align_up(sort_bytes);
    const std::size_t values_at = keys_at + align_up(n * sizeof(Key));
    const std::size_t iota_at = values_at + (VALUES ? align_up(n * sizeof(Value)) : 0);
    const std::size_t segs_at = iota_at + (What == top_k_output::indices ? align_up(n * sizeof(Value)) : 0);
    const std::size_t bytes = segs_at + align_up(segments * sizeof(u32)) + temp_alignment;
    if (d_temp == nullptr) {
      temp_bytes = bytes;
      return cudaSuccess;
    }
    if (k == 0 || n == 0 || segments == 0) return cudaSuccess;
    if (temp_bytes < bytes) return cudaErrorInvalidValue;
    if (begin_offsets == nullptr || end_offsets == nullptr || f.keys_in == nullptr) return cudaErrorInvalidValue;
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
    const V* values_in = nullptr;
    if constexpr (What == top_k_output::pairs) values_in = f.values_in;
    // Segments of more than one tile are large (the classification's test): only they go
    // through scratch.
    constexpr u64 LARGE_ABOVE = u64(config<Value, What>::TILE);
    constexpr std::size_t warps = top_k_gather_threads / warp_threads;
    const unsigned segment_grid = unsigned(min_of<std::size_t>(ceil_div<std::size_t>(segments, warps), 4096));
    if constexpr (What == top_k_output::indices) {
      // Positions as values for the large segments only; the warp and block classes make theirs.
      Value* const iota = temp_piece<Value>(d_temp, iota_at);
      e = launch(top_k_segment_iota_kernel<Offset, Value>, segment_grid, unsigned(top_k_gather_threads), stream,
                 launch_order::serial, begin_offsets, end_offsets, u64(segments), u64(n), LARGE_ABOVE, iota);
      if (e != cudaSuccess) return e;
      values_in = iota;
    }
    using raw = value_raw<V>;
    segment_first_k<bits_type, raw, What == top_k_output::indices> out;
    out.keys_out = reinterpret_cast<bits_type*>(f.keys_out);
    out.values_out = VALUES ? reinterpret_cast<raw*>(f.values_out) : nullptr;
    out.item_segments = temp_piece<u32>(d_temp, segs_at);
    out.k = u64(k);
    void* const sort_temp = temp_piece<char>(d_temp, 0);
    e = runner::run(in_out_form<Key, V>{f.keys_in, keys_sorted, values_in, values_sorted}, segments, bounds,
                    sort_temp, sort_bytes, n, opts, stream, kind.context(), out);
    if (e != cudaSuccess) return e;
    top_k_segment_copy_params<Offset, bits_type, raw> c;
    c.begin_offsets = begin_offsets;
    c.end_offsets = end_offsets;
    c.segments = segments;
    c.n = n;
    c.k = k;
    c.large_above = LARGE_ABOVE;
    c.keys_sorted = reinterpret_cast<const bits_type*>(keys_sorted);
    c.keys_out = reinterpret_cast<bits_type*>(f.keys_out);
    c.values_sorted = reinterpret_cast<const raw*>(values_sorted);
    c.values_out = VALUES ? reinterpret_cast<raw*>(f.values_out) : nullptr;
    return launch(top_k_segment_copy_kernel<Offset, bits_type, raw>, segment_grid, unsigned(top_k_gather_threads),
                  stream, launch_order::serial, c);
  }
};

/// The entry of every segmented top-k overload.
template <class Choice, class Kind, class Key, class Value, top_k_output What, class Offset>
__host__ cudaError_t segmented_top_k(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                     std::size_t& temp_bytes, std::size_t n, std::size_t segments,
                                     const Offset* begin_offsets, const Offset* end_offsets, std::size_t k,
                                     const sort_options& opts, cudaStream_t stream) {
  return with_policy<Choice>([&](auto policy, auto hooks) {
    return segmented_top_k_dispatch<decltype(policy), decltype(hooks), Kind>::run(
        kind, f, d_temp, temp_bytes, n, segments, begin_offsets, end_offsets, k, opts, stream);
  });
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
