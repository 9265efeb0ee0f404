// Pairs whose values the tiles do not move whole (value_moves_whole: any size but 1, 2, 4, 8 and
// 16 bytes, e.g. a 12-byte float3 or a 24-byte struct): the keys are sorted with their input
// positions as values (argsort: positions made where values would be read; segmented: an index
// array filled first), then one gather moves each value once, values_out[i] = values_in[order[i]].
// The shipped kernels of the whole sizes are not touched; an odd size costs the positions' traffic
// and one read and one write of each value. radix_sort routes the in/out, double-buffer, in-place
// and segmented forms here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "../detail/temp_layout.cuh"
#include "../kernels/route_copy_kernel.cuh"
#include "../kernels/value_gather_kernel.cuh"
#include "launch.cuh"
#include "segmented_forms.cuh"
#include "sort_forms.cuh"
#include "stream_resource.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A runner's count as the gather reads it: the host's (none) or the device's.
__host__ inline count_source gather_count(host_count) { return count_source{}; }
__host__ inline count_source gather_count(const count_source& c) { return c; }

/// Enqueues values_out[i] = values_in[order[i]] for i < n (a count on the device: below it).
/// `SKIP_UNSET`: positions whose order is all ones keep their value.
template <bool SKIP_UNSET, class Value, class Index>
__host__ cudaError_t launch_value_gather(const Value* values_in, Value* values_out, const Index* order, std::size_t n,
                                         const count_source& count, cudaStream_t stream) {
  using raw = value_raw<Value>;
  static_assert(sizeof(raw) == sizeof(Value), "");
  value_gather_params<raw, Index> gp;
  gp.values_in = reinterpret_cast<const raw*>(values_in);
  gp.values_out = reinterpret_cast<raw*>(values_out);
  gp.order = order;
  gp.n = n;
  gp.count = count;
  const std::size_t grid = min_of<std::size_t>(ceil_div<std::size_t>(n, value_gather_threads), 4096);
  return launch(value_gather_kernel<raw, Index, SKIP_UNSET>, unsigned(max_of<std::size_t>(grid, 1)),
                unsigned(value_gather_threads), stream, launch_order::serial, gp);
}

/// Calls `f(Index{})` with the positions' type of a sort of `n` keys: std::uint32_t below 2^32
/// keys (every position and the all-ones mark of an unset one fit), else std::uint64_t.
template <class F>
__host__ cudaError_t with_index_type(std::size_t n, F&& f) {
  if constexpr (sizeof(std::size_t) > 4) {
    if (n >= (std::size_t(1) << 32)) return f(std::uint64_t{});
  }
  return f(std::uint32_t{});
}

/// The runners of the gathered forms, for keys of `SortKey` (the type the kernels sort) sorted
/// with `Policy` and `Hooks`. Temporary storage (the size query's answer, exactly): the argsort's
/// (in/out, sorted keys given) plus `a(n * sizeof(Index))` for the order; segmented: the segmented
/// in/out sort's with `Index` values plus `2 * a(n * sizeof(Index))` (positions in and out).
template <class Policy, class Hooks, class SortKey>
struct gather_runner {
  template <class Index>
  using argsort_config = sort_config<Policy, SortKey, index_values<Index>, Hooks>;
  template <class Index>
  using segmented_config = sort_config<Policy, SortKey, value_raw<Index>, Hooks>;

  template <class Value>
  __host__ static constexpr void check_value() {
    static_assert(std::is_trivially_copyable<Value>::value, "ringsweep: values must be trivially copyable");
  }

  /// The argsort's plan and the bytes it and the order take (`total`); a count whose bytes,
  /// values included, overflow std::size_t is invalid.
  template <class Index, class Value>
  __host__ static cudaError_t plan(std::size_t n, const sort_options& opts, sort_plan<SortKey>& p,
                                   std::size_t& total) {
    if (n > (~std::size_t(0) >> 2) / (sizeof(Value) + sizeof(SortKey) + 2 * sizeof(Index))) {
      return cudaErrorInvalidValue;
    }
    const cudaError_t e = argsort_config<Index>::make_plan(n, opts, true, p);
    if (e != cudaSuccess) return e;
    total = p.layout.bytes + (n != 0 ? align_up(n * sizeof(Index)) : 0);
    return cudaSuccess;
  }

  /// In/out: keys_in -> keys_out with the order in temporary storage, then the gather. Nothing is
  /// launched before every check has passed; the inputs are never written.
  template <class Index, class Key, class Value, class Count>
  __host__ static cudaError_t run(const in_out_form<Key, Value>& f, void* d_temp, std::size_t& temp_bytes,
                                  std::size_t n, const sort_options& opts, cudaStream_t stream,
                                  const key_context<SortKey>& context, const Count& count) {
    check_value<Value>();
    sort_plan<SortKey> p;
    std::size_t total = 0;
    cudaError_t e = plan<Index, Value>(n, opts, p, total);
    if (e != cudaSuccess) return e;
    if (d_temp == nullptr) {
      temp_bytes = total;
      return cudaSuccess;
    }
    if (n == 0) return cudaSuccess;
    const buffer_pair key_pair{f.keys_in, f.keys_out, 0, n * sizeof(Key)};
    const buffer_pair value_pair{f.values_in, f.values_out, 0, n * sizeof(Value)};
    e = check_buffers(temp_bytes, total, key_pair, &value_pair);
    if (e != cudaSuccess) return e;
    Index* const order = temp_piece<Index>(d_temp, p.layout.bytes - temp_alignment);
    e = form_runner<argsort_config<Index>>::run(argsort_form<Key, Index>{f.keys_in, f.keys_out, order}, d_temp,
                                                temp_bytes, n, opts, stream, context, count);
    if (e != cudaSuccess) return e;
    return launch_value_gather<false>(f.values_in, f.values_out, order, n, gather_count(count), stream);
  }

  /// Double buffers: the current buffers are sorted into the alternate ones (the current ones are
  /// never written), and both selectors flip on success. An empty bit window, as for whole
  /// values, leaves everything where it is.
  template <class Index, class Key, class Value, class KeyBuffers, class ValueBuffers, class Count>
  __host__ static cudaError_t run(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f, void* d_temp,
                                  std::size_t& temp_bytes, std::size_t n, const sort_options& opts,
                                  cudaStream_t stream, const key_context<SortKey>& context, const Count& count) {
    check_value<Value>();
    sort_plan<SortKey> p;
    std::size_t total = 0;
    cudaError_t e = plan<Index, Value>(n, opts, p, total);
    if (e != cudaSuccess) return e;
    if (d_temp == nullptr) {
      temp_bytes = total;
      return cudaSuccess;
    }
    if (n == 0 || p.window.passes == 0) return cudaSuccess;
    e = check_double_buffers(f, n, temp_bytes, total);
    if (e != cudaSuccess) return e;
    const in_out_form<Key, Value> io{f.keys->d_buffers[f.keys->selector], f.keys->d_buffers[f.keys->selector ^ 1],
                                     f.values->d_buffers[f.values->selector],
                                     f.values->d_buffers[f.values->selector ^ 1]};
    e = run<Index>(io, d_temp, temp_bytes, n, opts, stream, context, count);
    if (e != cudaSuccess) return e;
    flip_selectors(f);
    return cudaSuccess;
  }

  /// In place: one allocation holds copies of the keys and values and the in/out form's temporary
  /// storage; the copies are sorted back into the caller's arrays.
  template <class Index, class Key, class Value, class Resource>
  __host__ static cudaError_t run(const in_place_form<Key, Value, Resource>& f, std::size_t n,
                                  const sort_options& opts, cudaStream_t stream, const key_context<SortKey>& context) {
    check_value<Value>();
    sort_plan<SortKey> p;
    std::size_t total = 0;
    cudaError_t e = plan<Index, Value>(n, opts, p, total);
    if (e != cudaSuccess) return e;
    if (n == 0 || p.window.passes == 0) return cudaSuccess;
    if (f.keys == nullptr || f.values == nullptr) return cudaErrorInvalidValue;
    const std::size_t key_bytes = align_up(n * sizeof(Key));
    const std::size_t value_bytes = align_up(n * sizeof(Value));
    const std::size_t bytes = key_bytes + value_bytes + total;
    void* block = nullptr;
    e = allocate_from(*f.resource, block, bytes, stream);
    if (e != cudaSuccess) return e;
    char* const mem = static_cast<char*>(block);
    Key* const keys_copy = reinterpret_cast<Key*>(mem);
    Value* const values_copy = reinterpret_cast<Value*>(mem + key_bytes);
    e = cudaMemcpyAsync(keys_copy, f.keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
    if (e == cudaSuccess) {
      e = cudaMemcpyAsync(values_copy, f.values, n * sizeof(Value), cudaMemcpyDeviceToDevice, stream);
    }
    if (e == cudaSuccess) {
      std::size_t temp_bytes = total;
      e = run<Index>(in_out_form<Key, Value>{keys_copy, f.keys, values_copy, f.values}, mem + key_bytes + value_bytes,
                     temp_bytes, n, opts, stream, context, host_count{});
    }
    const cudaError_t freed = deallocate_to(*f.resource, block, bytes, stream);
    return e != cudaSuccess ? e : freed;
  }

  /// Segmented in/out: positions 0..n-1 are filled in, the segments sorted with them as values
  /// (the segmented pairs sort), the positions outside every segment stay all ones, and the
  /// gather moves each value inside a segment once; values outside every segment are not written.
  template <class Index, class Key, class Value, class Segments>
  __host__ static cudaError_t run_segmented(const in_out_form<Key, Value>& f, std::size_t segments,
                                            const Segments& bounds, void* d_temp, std::size_t& temp_bytes,
                                            std::size_t n, const sort_options& opts, cudaStream_t stream,
                                            const key_context<SortKey>& context) {
    check_value<Value>();
    using config = segmented_config<Index>;
    using runner = segmented_runner<config>;
    if (n > (~std::size_t(0) >> 2) / (sizeof(Value) + sizeof(SortKey) + 3 * sizeof(Index))) {
      return cudaErrorInvalidValue;
    }
    segmented_plan<SortKey> p;
    cudaError_t e = segmented_dispatch<config>::make_plan(n, segments, opts, true, p, bounds.sizes(u64(n)));
    if (e != cudaSuccess) return e;
    const std::size_t index_bytes = n != 0 ? align_up(n * sizeof(Index)) : 0;
    const std::size_t total = p.layout.bytes + 2 * index_bytes;
    if (d_temp == nullptr) {
      temp_bytes = total;
      return cudaSuccess;
    }
    // The segmented runner's own checks (offsets given, its storage), then the buffers', before
    // anything is launched.
    bool answered = false;
    e = runner::plan(n, segments, bounds, opts, true, d_temp, temp_bytes, context, p, answered);
    if (e != cudaSuccess || answered) return e;
    const buffer_pair key_pair{f.keys_in, f.keys_out, 0, n * sizeof(Key)};
    const buffer_pair value_pair{f.values_in, f.values_out, 0, n * sizeof(Value)};
    e = check_buffers(temp_bytes, total, key_pair, &value_pair);
    if (e != cudaSuccess) return e;
    Index* const positions = temp_piece<Index>(d_temp, p.layout.bytes - temp_alignment);
    Index* const order = temp_piece<Index>(d_temp, p.layout.bytes - temp_alignment + index_bytes);
    using raw_index = value_raw<Index>;
    const std::size_t grid = min_of<std::size_t>(ceil_div<std::size_t>(n, route_copy_threads), 4096);
    e = launch(index_fill_kernel<raw_index>, unsigned(grid), unsigned(route_copy_threads), stream, launch_order::serial,
               reinterpret_cast<raw_index*>(positions), n);
    if (e == cudaSuccess) e = cudaMemsetAsync(order, 0xff, n * sizeof(Index), stream);
    if (e == cudaSuccess) {
      e = runner::run(in_out_form<Key, Index>{f.keys_in, f.keys_out, positions, order}, segments, bounds, d_temp,
                      temp_bytes, n, opts, stream, context);
    }
    if (e != cudaSuccess) return e;
    return launch_value_gather<true>(f.values_in, f.values_out, order, n, count_source{}, stream);
  }

  /// Segmented double buffers: the current buffers' segments are sorted into the alternate ones
  /// (the current ones are never written), and both selectors flip on success with n and
  /// segments nonzero.
  template <class Index, class Key, class Value, class KeyBuffers, class ValueBuffers, class Segments>
  __host__ static cudaError_t run_segmented(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f,
                                            std::size_t segments, const Segments& bounds, void* d_temp,
                                            std::size_t& temp_bytes, std::size_t n, const sort_options& opts,
                                            cudaStream_t stream, const key_context<SortKey>& context) {
    if (d_temp == nullptr || n == 0 || segments == 0) {
      // The size query, or nothing to sort: the in/out form answers (after its checks of the offsets).
      const in_out_form<Key, Value> none{nullptr, nullptr, nullptr, nullptr};
      return run_segmented<Index>(none, segments, bounds, d_temp, temp_bytes, n, opts, stream, context);
    }
    // The selectors are checked before they pick the buffers (the storage is checked below).
    const buffer_pair key_pair{f.keys->d_buffers[0], f.keys->d_buffers[1], f.keys->selector, n * sizeof(Key)};
    const buffer_pair value_pair{f.values->d_buffers[0], f.values->d_buffers[1], f.values->selector,
                                 n * sizeof(Value)};
    const cudaError_t checked = check_buffers(temp_bytes, 0, key_pair, &value_pair);
    if (checked != cudaSuccess) return checked;
    const in_out_form<Key, Value> io{f.keys->d_buffers[f.keys->selector], f.keys->d_buffers[f.keys->selector ^ 1],
                                     f.values->d_buffers[f.values->selector],
                                     f.values->d_buffers[f.values->selector ^ 1]};
    const cudaError_t e = run_segmented<Index>(io, segments, bounds, d_temp, temp_bytes, n, opts, stream, context);
    if (e != cudaSuccess) return e;
    flip_selectors(f);
    return cudaSuccess;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
