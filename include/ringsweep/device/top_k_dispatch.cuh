// top_k: the one internal entry point of top_k_keys / top_k_pairs / top_k_indices and their
// segmented and CUB forms: the checks, the temporary-storage layout, the select's two launches (the
// first read, then every level in one cooperative launch) and the stable sort of the k candidates
// (one block, one cooperative launch, or the onesweep sort; docs/design.md section 15).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "../detail/temp_layout.cuh"
#include "../kernels/top_k_kernel.cuh"
#include "launch.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// What a top-k call writes besides the keys.
enum class top_k_output { keys, pairs, indices };

/// The caller's arrays of one top-k call. Keys: `Value` is null_value. Pairs: `values_in` /
/// `values_out`. Indices: `Value` is the index type, `values_out` the indices, `keys_out` may be
/// null.
template <class Key, class Value, top_k_output What>
struct top_k_form {
  using key_type = Key;
  using value_type = Value;
  static constexpr top_k_output what = What;
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
};

/// The select's ranges for `n` keys in tiles of `tile`: at most `max_ranges` (the policy's
/// TOP_K_MAX_RANGES), each at most 2^31 keys (per-range counts are 32-bit).
__host__ inline std::size_t top_k_ranges(std::size_t n, std::size_t tile, std::size_t max_ranges) {
  std::size_t g = min_of<std::size_t>(ceil_div<std::size_t>(n, tile), max_ranges);
  g = max_of<std::size_t>(g, ceil_div<std::size_t>(n, std::size_t(1) << 31));
  return max_of<std::size_t>(g, 1);
}
/// Keys a candidate buffer holds: n / 64, at least the policy's TOP_K_MIN_CAPACITY, at most n.
__host__ inline std::size_t top_k_capacity(std::size_t n, std::size_t min_capacity) {
  return min_of<std::size_t>(n, max_of<std::size_t>(n / 64, min_capacity));
}

/// Top-k of one array with `Policy` and `Hooks` for keys of `Kind`.
template <class Policy, class Hooks, class Kind>
struct top_k_dispatch {
  using sort_key = typename Kind::sort_key;
  using bits_type = typename key_traits<sort_key>::bits_type;
  using params_t = top_k_params<sort_key>;
  using keys_config = sort_config<Policy, sort_key, null_value, Hooks>;
  /// The select's kernels: the keys-only config without hooks.
  using select_config = typename keys_config::keys_only;
  using select = top_k_select<select_config>;
  using pairs_config = sort_config<Policy, sort_key, value_raw<u64>, Hooks>;
  static constexpr int RADIX = select::RADIX;

  /// Byte offsets of the pieces (from the aligned base) and the size a query reports.
  struct layout {
    std::size_t state = 0, input_counts = 0, level_counts = 0, spec_flags = 0, input_bits = 0, cleared = 0,
                range_counts = 0, ranges_at = 0, samples = 0,
                out_keys = 0, out_pos = 0, buf_keys[2] = {0, 0}, buf_pos[2] = {0, 0}, sorted_pos = 0,
                keys_scratch = 0, sort_counts = 0, sort_temp = 0, sort_bytes = 0, bytes = temp_alignment;
    std::size_t sort_blocks = 0;  // the candidates' one-launch sort's grid (0: not that sort)
    std::size_t ranges = 1, capacity = 0;
    int passes = 0;
    sort_window window;  // the final sort's (keys_config::make_plan)
  };

  template <class Key, class Value, top_k_output What>
  __host__ static cudaError_t make_layout(const Kind& kind, const top_k_form<Key, Value, What>& f, std::size_t n,
                                          std::size_t k, const sort_options& opts, layout& l) {
    // The window and order are the final sort's (sort_config::make_plan checks them).
    sort_plan<sort_key> plan;
    const cudaError_t e = keys_config::make_plan(k, opts, true, plan);
    if (e != cudaSuccess) return e;
    if (k > n) return cudaErrorInvalidValue;
    constexpr std::size_t kb = sizeof(bits_type);
    if (n > (~std::size_t(0) >> 8) / (kb + 8)) return cudaErrorInvalidValue;  // bytes overflow
    l.passes = plan.window.passes;
    l.window = plan.window;
    const std::size_t p = std::size_t(max_of(plan.window.passes, 1));
    l.ranges = top_k_ranges(n, std::size_t(select::TILE), std::size_t(Policy::TOP_K_MAX_RANGES));
    l.capacity = top_k_capacity(n, std::size_t(Policy::TOP_K_MIN_CAPACITY));
    std::size_t at = 0;
    const auto piece = [&](std::size_t bytes) {
      const std::size_t here = at;
      at += align_up(bytes);
      return here;
    };
    l.state = piece(2 * sizeof(typename select::state_t));
    l.input_counts = piece(p * RADIX * 8);
    l.level_counts = piece(2 * p * RADIX * 8);  // by round parity
    l.spec_flags = piece(4 * 4);  // [2], [3]: the grid barriers of the levels and the candidates' sort
    l.input_bits = piece(3 * 8);
    l.cleared = at;
    l.range_counts = piece(l.ranges * p * RADIX * 4);
    l.ranges_at = piece(6 * l.ranges * 8);
    l.samples = piece(l.ranges * kb);
    l.out_keys = piece(k * kb);
    l.out_pos = piece(k * 8);
    for (int b = 0; b < 2; ++b) {
      l.buf_keys[b] = piece(l.capacity * kb);
      l.buf_pos[b] = piece(l.capacity * 8);
    }
    constexpr bool with_pos = What != top_k_output::keys;
    l.sorted_pos = with_pos ? piece(k * 8) : 0;
    l.keys_scratch = f.keys_out == nullptr ? piece(k * kb) : 0;
    l.sort_blocks = one_launch_blocks(k, l.capacity, l.passes, with_pos);
    l.sort_counts = piece(l.sort_blocks * 2 * RADIX * 4);
    // The final sort's own storage (a size query of the in/out sort of k candidates).
    std::size_t sort_bytes = 0;
    cudaError_t q;
    if constexpr (with_pos) {
      q = form_runner<pairs_config>::run(in_out_form<Key, u64>{nullptr, nullptr, nullptr, nullptr}, nullptr,
                                                sort_bytes, k, opts, 0, kind.context());
    } else {
      q = form_runner<keys_config>::run(in_out_form<Key, null_value>{nullptr, nullptr, nullptr, nullptr},
                                               nullptr, sort_bytes, k, opts, 0, kind.context());
    }
    if (q != cudaSuccess) return q;
    l.sort_bytes = sort_bytes;
    l.sort_temp = piece(sort_bytes);
    l.bytes = temp_alignment + at;
    return cudaSuccess;
  }

  /// Tiles of the candidates' one-launch sort (a block each) for `k` candidates, or 0 where
  /// another sort runs: the small sort's single tile holds them (keys_config's, pairs_config's
  /// with positions), no pass, more than the policy's TOP_K_SORT_BLOCKS tiles, or more than a
  /// candidate buffer (the sort's second array).
  __host__ static std::size_t one_launch_blocks(std::size_t k, std::size_t capacity, int passes, bool with_pos) {
    const std::size_t single = std::size_t(with_pos ? pairs_config::TILE : keys_config::TILE);
    if (passes <= 0 || k <= single || k > capacity) return 0;
    const std::size_t blocks = ceil_div<std::size_t>(k, std::size_t(keys_config::TILE));
    return blocks <= std::size_t(Policy::TOP_K_SORT_BLOCKS) ? blocks : 0;
  }

  /// The levels kernel's grid for `ranges` ranges: at most one block a range, and no more than the
  /// current device holds at once (attribute queries: no sync).
  __host__ static cudaError_t levels_blocks(std::size_t ranges, unsigned& grid) {
    std::size_t resident = 0;
    const cudaError_t e = resident_blocks(top_k_levels_kernel<select_config>, int(select::THREADS), 0, resident);
    if (e != cudaSuccess) return e;
    grid = unsigned(max_of<std::size_t>(min_of<std::size_t>(ranges, max_of<std::size_t>(resident, 1)), 1));
    return cudaSuccess;
  }

  /// k = n: the stable sort of the whole input is the answer (its own size query when `d_temp`
  /// is null); pairs and indices through the in/out pair sort and argsort.
  template <class Key, class Value, top_k_output What>
  __host__ static cudaError_t sort_all(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                       std::size_t& temp_bytes, std::size_t n, const sort_options& opts,
                                       cudaStream_t stream) {
    if constexpr (What == top_k_output::keys) {
      return form_runner<keys_config>::run(in_out_form<Key, null_value>{f.keys_in, f.keys_out, nullptr, nullptr},
                                                  d_temp, temp_bytes, n, opts, stream, kind.context());
    } else if constexpr (What == top_k_output::pairs && !value_moves_whole<Value>::value) {
      // Values of another size: the gathered in/out sort (value_gather.cuh).
      return with_index_type(n, [&](auto index) {
        return gather_runner<Policy, Hooks, sort_key>::template run<decltype(index)>(
            in_out_form<Key, Value>{f.keys_in, f.keys_out, f.values_in, f.values_out}, d_temp, temp_bytes, n, opts,
            stream, kind.context(), host_count{});
      });
    } else if constexpr (What == top_k_output::pairs) {
      using config = sort_config<Policy, sort_key, typename kernel_value<Value>::type, Hooks>;
      return form_runner<config>::run(in_out_form<Key, Value>{f.keys_in, f.keys_out, f.values_in, f.values_out},
                                             d_temp, temp_bytes, n, opts, stream, kind.context());
    } else {
      using config = sort_config<Policy, sort_key, index_values<Value>, Hooks>;
      return form_runner<config>::run(argsort_form<Key, Value>{f.keys_in, f.keys_out, f.values_out}, d_temp,
                                             temp_bytes, n, opts, stream, kind.context());
    }
  }

  template <class Key, class Value, top_k_output What>
  __host__ static cudaError_t run(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp,
                                  std::size_t& temp_bytes, std::size_t n, std::size_t k, const sort_options& opts,
                                  cudaStream_t stream) {
    if (k == n && n != 0 && d_temp == nullptr) return sort_all(kind, f, d_temp, temp_bytes, n, opts, stream);
    layout l;
    cudaError_t e = make_layout(kind, f, n, k, opts, l);
    if (e != cudaSuccess) return e;
    if (d_temp == nullptr) {
      temp_bytes = l.bytes;
      return cudaSuccess;
    }
    if (k == 0) return cudaSuccess;
    if (k == n) {
      // Checked here as below (the sorts check their own buffers too), then the sort alone.
      if (!kind.aligned(f.keys_in, f.keys_out)) return cudaErrorInvalidValue;
      return sort_all(kind, f, d_temp, temp_bytes, n, opts, stream);
    }
    if (temp_bytes < l.bytes) return cudaErrorInvalidValue;
    if (f.keys_in == nullptr || (f.what != top_k_output::indices && f.keys_out == nullptr)) return cudaErrorInvalidValue;
    if (What != top_k_output::keys && f.values_out == nullptr) return cudaErrorInvalidValue;
    if (What == top_k_output::pairs && f.values_in == nullptr) return cudaErrorInvalidValue;
    if (!kind.aligned(f.keys_in, f.keys_out)) return cudaErrorInvalidValue;
    if constexpr (What == top_k_output::indices) {
      if (n - 1 > std::size_t(std::numeric_limits<Value>::max())) {
        return cudaErrorInvalidValue;  // every position must be an Index
      }
    }
    const std::size_t in_bytes = n * sizeof(Key), out_bytes = k * sizeof(Key);
    if (f.keys_out != nullptr && ranges_overlap(f.keys_in, in_bytes, f.keys_out, out_bytes)) return cudaErrorInvalidValue;
    if (What != top_k_output::keys) {
      const std::size_t v_out = k * sizeof(Value);
      if (ranges_overlap(f.values_out, v_out, f.keys_in, in_bytes) ||
          (f.keys_out != nullptr && ranges_overlap(f.values_out, v_out, f.keys_out, out_bytes)) ||
          (What == top_k_output::pairs && ranges_overlap(f.values_out, v_out, f.values_in, n * sizeof(Value)))) {
        return cudaErrorInvalidValue;
      }
    }

    params_t p;
    static_cast<key_context<sort_key>&>(p) = kind.context();
    p.keys = reinterpret_cast<const bits_type*>(f.keys_in);
    p.n = n;
    p.k = k;
    p.ranges = u32(l.ranges);
    p.span = ceil_div<std::size_t>(n, l.ranges);
    p.capacity = l.capacity;
    p.window = l.window;
    p.state = temp_piece<void>(d_temp, l.state);
    p.input_counts = temp_piece<u64>(d_temp, l.input_counts);
    p.level_counts = temp_piece<u64>(d_temp, l.level_counts);
    p.range_counts = temp_piece<u32>(d_temp, l.range_counts);
    u64* const ranges = temp_piece<u64>(d_temp, l.ranges_at);
    p.src_off = ranges;
    p.src_cnt = ranges + l.ranges;
    p.range_less = ranges + 2 * l.ranges;
    p.range_in = ranges + 3 * l.ranges;
    p.bucket_before = ranges + 4 * l.ranges;
    // Speculation (design.md section 15): each range guesses, from its first tile, a top digit
    // at or above the bucket's: twice the keys the k-th key's share of a tile predicts, plus 16.
    p.spec_cnt = ranges + 5 * l.ranges;
    p.spec_flags = temp_piece<u32>(d_temp, l.spec_flags);
    p.arrived = p.spec_flags + 2;
    p.input_bits = temp_piece<u64>(d_temp, l.input_bits);
    p.samples = temp_piece<bits_type>(d_temp, l.samples);
    p.spec_pass = l.passes - 1;
    p.spec_cap = l.passes > 0 && l.capacity / l.ranges >= 16 ? l.capacity / l.ranges : 0;
    {
      const long double share = (long double)(k) / (long double)(n) * 2.0L * (long double)(select::TILE);
      p.spec_need = u32(min_of<long double>((long double)(select::TILE), share + 16.0L));
    }
    p.out_keys = temp_piece<bits_type>(d_temp, l.out_keys);
    p.out_pos = temp_piece<u64>(d_temp, l.out_pos);
    for (int b = 0; b < 2; ++b) {
      p.buf_keys[b] = temp_piece<bits_type>(d_temp, l.buf_keys[b]);
      p.buf_pos[b] = temp_piece<u64>(d_temp, l.buf_pos[b]);
    }

    // The levels' grid: every block resident at once (they wait on each other), at most one a range.
    unsigned levels_grid = 0;
    e = levels_blocks(l.ranges, levels_grid);
    if (e != cudaSuccess) return e;
    e = cudaMemsetAsync(temp_piece<char>(d_temp, 0), 0, l.cleared, stream);
    if (e != cudaSuccess) return e;
    const unsigned grid = unsigned(l.ranges);
    e = launch(top_k_count_kernel<select_config>, grid, unsigned(select::THREADS), stream, launch_order::serial, p);
    if (e != cudaSuccess) return e;
    // Every level after the first read; the device ends at the round the select needs last.
    e = launch(top_k_levels_kernel<select_config>, levels_grid, unsigned(select::THREADS), stream,
               launch_order::cooperative, p);
    if (e != cudaSuccess) return e;

    // The k candidates, grouped by level and in input order within a group, sorted stably: in one
    // block when they fit its tile (a programmatic dependent of the levels where the sort's are).
    Key* const cand = reinterpret_cast<Key*>(p.out_keys);
    Key* const keys_dst = f.keys_out != nullptr ? f.keys_out : temp_piece<Key>(d_temp, l.keys_scratch);
    void* const sort_temp = temp_piece<char>(d_temp, l.sort_temp);
    std::size_t sort_bytes = l.sort_bytes;
    // More than a tile and at most a tile per resident block: one cooperative launch writes the
    // outputs (values and indices by position on the way).
    bool sorted = false;
    e = sort_in_one_launch(kind, f, p, l, d_temp, reinterpret_cast<bits_type*>(keys_dst), k, stream, sorted);
    if (e != cudaSuccess || sorted) return e;
    if constexpr (What == top_k_output::keys) {
      if (l.passes > 0 && k <= std::size_t(keys_config::TILE)) {
        return small_sort_candidates<keys_config>(kind, p.out_keys, reinterpret_cast<bits_type*>(keys_dst),
                                                  (const null_value*)nullptr, (null_value*)nullptr, k, l.window,
                                                  stream);
      }
      return form_runner<keys_config>::run(in_out_form<Key, null_value>{cand, keys_dst, nullptr, nullptr},
                                                  sort_temp, sort_bytes, k, opts, stream, kind.context());
    } else {
      u64* const sorted_pos = temp_piece<u64>(d_temp, l.sorted_pos);
      if (l.passes > 0 && k <= std::size_t(pairs_config::TILE)) {
        using pos_raw = typename pairs_config::value_raw_t;
        e = small_sort_candidates<pairs_config>(kind, p.out_keys, reinterpret_cast<bits_type*>(keys_dst),
                                                reinterpret_cast<const pos_raw*>(p.out_pos),
                                                reinterpret_cast<pos_raw*>(sorted_pos), k, l.window, stream);
      } else {
        e = form_runner<pairs_config>::run(in_out_form<Key, u64>{cand, keys_dst, p.out_pos, sorted_pos},
                                                  sort_temp, sort_bytes, k, opts, stream, kind.context());
      }
      if (e != cudaSuccess) return e;
      // The gathers wait for the sort on the device (top_k_gather_kernel): dependents where it may.
      launch_order later = launch_order::serial;
      e = later_order<Policy::DEPENDENT_LAUNCH>(small_sort_kernel<typename pairs_config::unhooked>, later);
      if (e != cudaSuccess) return e;
      const unsigned gather_grid =
          unsigned(min_of<std::size_t>(ceil_div<std::size_t>(k, top_k_gather_threads), 4096));
      if constexpr (What == top_k_output::pairs) {
        using raw = value_raw<Value>;
        return launch(top_k_gather_kernel<raw>, gather_grid, unsigned(top_k_gather_threads), stream, later,
                      reinterpret_cast<const raw*>(f.values_in), (const u64*)sorted_pos,
                      reinterpret_cast<raw*>(f.values_out), u64(k));
      } else {
        return launch(top_k_index_kernel<Value>, gather_grid, unsigned(top_k_gather_threads), stream, later,
                      (const u64*)sorted_pos, f.values_out, u64(k));
      }
    }
  }


  /// The candidates' sort in one cooperative launch (top_k_sort_kernel) where the layout made room
  /// for it (`l.sort_blocks`) and every block is resident at once (attribute queries: no sync);
  /// `sorted` says whether it was launched.
  template <class Key, class Value, top_k_output What>
  __host__ static cudaError_t sort_in_one_launch(const Kind& kind, const top_k_form<Key, Value, What>& f,
                                                 const params_t& p, const layout& l, void* d_temp,
                                                 bits_type* keys_dst, std::size_t k, cudaStream_t stream,
                                                 bool& sorted) {
    sorted = false;
    if (l.sort_blocks == 0) return cudaSuccess;
    using config = typename keys_config::unhooked;
    using output = std::conditional_t<
        What == top_k_output::keys, top_k_no_values,
        std::conditional_t<What == top_k_output::pairs, top_k_value_gather<value_raw<Value>>, top_k_index_out<Value>>>;
    std::size_t resident = 0;
    cudaError_t e = resident_blocks(top_k_sort_kernel<config, output>, int(config::THREADS), 0, resident);
    if (e != cudaSuccess) return e;
    if (resident < l.sort_blocks) return cudaSuccess;
    top_k_sort_params<sort_key, output> s;
    static_cast<key_context<sort_key>&>(s) = kind.context();
    s.keys[0] = p.out_keys;
    s.keys[1] = p.buf_keys[0];
    s.pos[0] = p.out_pos;
    s.pos[1] = p.buf_pos[0];
    s.keys_out = keys_dst;
    if constexpr (What == top_k_output::pairs) {
      s.out = output{reinterpret_cast<const value_raw<Value>*>(f.values_in), reinterpret_cast<value_raw<Value>*>(f.values_out)};
    } else if constexpr (What == top_k_output::indices) {
      s.out = output{f.values_out};
    }
    s.counts = temp_piece<u32>(d_temp, l.sort_counts);
    s.arrived = p.spec_flags + 3;
    s.k = u32(k);
    s.window = l.window;
    sorted = true;
    return launch(top_k_sort_kernel<config, output>, unsigned(l.sort_blocks), unsigned(config::THREADS), stream,
                  launch_order::cooperative, s);
  }

  /// The stable sort of the k candidates (`keys`, with `values` unless null) in one block of
  /// `Config`'s small sort: k at most its tile, at least one pass (the plain sort's single-tile path,
  /// launched here so that it can follow the levels as a programmatic dependent).
  template <class Config, class ValueRaw>
  __host__ static cudaError_t small_sort_candidates(const Kind& kind, const bits_type* keys, bits_type* keys_out,
                                                    const ValueRaw* values, ValueRaw* values_out, std::size_t k,
                                                    const sort_window& window, cudaStream_t stream) {
    launch_order order = launch_order::serial;
    const cudaError_t e = later_order<Policy::DEPENDENT_LAUNCH>(small_sort_kernel<typename Config::unhooked>, order);
    if (e != cudaSuccess) return e;
    small_sort_params<sort_key, typename Config::value_raw_t> params;
    static_cast<key_context<sort_key>&>(params) = kind.context();
    params.keys_in = keys;
    params.keys_out = keys_out;
    params.values_in = reinterpret_cast<const typename Config::value_raw_t*>(values);
    params.values_out = reinterpret_cast<typename Config::value_raw_t*>(values_out);
    params.keys = int(k);
    params.count = count_source{};
    params.window = window;
    return launch(small_sort_kernel<typename Config::unhooked>, 1u, unsigned(Config::THREADS), stream, order, params);
  }
};

/// The entry of every single-array top-k overload: the policy `Choice` names (for_device, a
/// tuning policy, or with_hooks), keys of `Kind`, the arrays of `f`.
template <class Choice, class Kind, class Key, class Value, top_k_output What>
__host__ cudaError_t top_k(const Kind& kind, const top_k_form<Key, Value, What>& f, void* d_temp, std::size_t& temp_bytes,
                           std::size_t n, std::size_t k, const sort_options& opts, cudaStream_t stream) {
  return with_policy<Choice>([&](auto policy, auto hooks) {
    return top_k_dispatch<decltype(policy), decltype(hooks), Kind>::run(kind, f, d_temp, temp_bytes, n, k, opts,
                                                                       stream);
  });
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
