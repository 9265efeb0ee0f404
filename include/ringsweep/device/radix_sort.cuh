// radix_sort: the one internal entry point of every sort. Each public overload (sort.cuh,
// decomposer.cuh, tuning.cuh, cub.cuh) is a one-line forward here, naming the policy, the kind of
// key (built-in or decomposed), the form (in/out, double buffer, in place) and the options; every
// precondition is checked here or in the form's runner, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "../detail/sort_hooks.cuh"
#include "../sort_options.cuh"
#include "device_policy.cuh"
#include "key_kind.cuh"
#include "segmented_forms.cuh"
#include "sort_forms.cuh"
#include "value_gather.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The policy argument of the public sorts: the shipped policy for the current device.
struct for_device {};

/// A caller's count as a std::size_t: false (an invalid count) when it is negative or does not
/// fit (CUB's counts are any integer type but bool).
template <class Count>
__host__ bool count_as_size(Count count, std::size_t& n) {
  static_assert(std::is_integral<Count>::value && !std::is_same<typename std::remove_cv<Count>::type, bool>::value,
                "ringsweep: num_items must be an integer type other than bool");
  if constexpr (std::is_signed<Count>::value) {
    if (count < 0) return false;
  }
  using unsigned_t = typename std::make_unsigned<Count>::type;
  if constexpr (sizeof(Count) > sizeof(std::size_t)) {
    if (unsigned_t(count) > unsigned_t(~std::size_t(0))) return false;
  }
  n = std::size_t(unsigned_t(count));
  return true;
}

/// Calls `f(Policy{}, Hooks{})` with the policy and hooks `Choice` names: the current device's
/// shipped policy for `for_device` (no hooks), else `Choice` itself or the halves of a `with_hooks`.
template <class Choice, class F>
__host__ cudaError_t with_policy(F&& f) {
  if constexpr (std::is_same<Choice, for_device>::value) {
    return with_device_policy([&](auto policy) { return f(policy, no_hooks{}); });
  } else {
    using split = policy_and_hooks<Choice>;
    return f(typename split::policy{}, typename split::hooks{});
  }
}

/// The value type a sort's kernels are instantiated with: values are moved, never read, so values
/// of one size and alignment (u32, int, float ...) share their kernels (value_raw); keys only
/// (null_value) and argsort's made positions (index_values) stay what they are.
template <class Value>
struct kernel_value {
  using type = value_raw<Value>;
};
template <>
struct kernel_value<null_value> {
  using type = null_value;
};
template <class Index>
struct kernel_value<index_values<Index>> {
  using type = index_values<Index>;
};

/// The configuration a sort of `Form`'s arrays with keys of `Kind` runs with `Policy` and `Hooks`:
/// made here, once, and the only template argument of everything below.
template <class Policy, class Hooks, class Kind, class Form>
using config_of =
    sort_config<Policy, typename Kind::sort_key, typename kernel_value<typename Form::value_type>::type, Hooks>;

/// Whether a form's values take the gather path (value_gather.cuh) instead of riding the tiles.
template <class Form>
struct gathers_values : std::integral_constant<bool, !value_moves_whole<typename Form::value_type>::value> {};

/// The gather runner of a sort of keys of `Kind` with `Policy` and `Hooks`.
template <class Policy, class Hooks, class Kind>
using gather_runner_of = gather_runner<Policy, Hooks, typename Kind::sort_key>;

/// Two-phase forms (in/out, double buffer): `d_temp == nullptr` is a size query (only
/// `*temp_bytes` is written). Errors: see sort.cuh; the caller's arrays are untouched on any
/// error returned before the first launch, and every later error is the CUDA runtime's.
///
///     radix_sort<for_device>(builtin_keys<float>{}, in_out_form<float, null_value>{in, out, nullptr, nullptr},
///                            d_temp, temp_bytes, n, opts, stream);
template <class Choice, class Kind, class Form, class Count>
__host__ cudaError_t radix_sort(const Kind& kind, const Form& form, void* d_temp, std::size_t& temp_bytes, Count count,
                                const sort_options& opts, cudaStream_t stream) {
  std::size_t n = 0;
  if (!count_as_size(count, n)) return cudaErrorInvalidValue;
  if (d_temp != nullptr && n != 0 && !form.aligned(kind)) return cudaErrorInvalidValue;
  return with_policy<Choice>([&](auto policy, auto hooks) {
    if constexpr (gathers_values<Form>::value) {
      return with_index_type(n, [&](auto index) {
        using runner = gather_runner_of<decltype(policy), decltype(hooks), Kind>;
        return runner::template run<decltype(index)>(form, d_temp, temp_bytes, n, opts, stream, kind.context(),
                                                     host_count{});
      });
    } else {
      using config = config_of<decltype(policy), decltype(hooks), Kind, Form>;
      return form_runner<config>::run(form, d_temp, temp_bytes, n, opts, stream, kind.context());
    }
  });
}

/// Where a double-buffer sort leaves the digit offsets of its one pass (one_pass_offsets).
struct pass_offsets {
  bool found = false;      // false: no such offsets (a path but onesweep, or more than one pass)
  std::size_t offset = 0;  // bytes from the temporary storage aligned up to temp_alignment
  int radix = 0;           // 8-byte words: digit d's first position in the pass's output
};

/// Where a double-buffer sort of `n` keys of `Kind` (and `Value`s) with `opts` and `Choice` leaves
/// the upfront histogram's counts of its pass, scanned in place (bins_scan: digit d's first output
/// position; no pass writes them): found only when the plan is onesweep in one pass, i.e. a window
/// no wider than the policy's digits and more keys than one tile. The host-resident sort reads a
/// partition's digit runs there (host_sort_dispatch.cuh).
///
///     pass_offsets at;
///     e = one_pass_offsets<for_device, builtin_keys<std::uint32_t>, null_value>(n, opts, at);
template <class Choice, class Kind, class Value>
__host__ cudaError_t one_pass_offsets(std::size_t n, const sort_options& opts, pass_offsets& at) {
  at = pass_offsets{};
  return with_policy<Choice>([&](auto policy, auto hooks) {
    using config =
        sort_config<decltype(policy), typename Kind::sort_key, typename kernel_value<Value>::type, decltype(hooks)>;
    sort_plan<typename config::key_type> p;
    const cudaError_t e = sort_dispatch<config>::make_plan(n, opts, false, p);
    if (e != cudaSuccess) return e;
    if (p.path == sort_path::onesweep && p.window.passes == 1) {
      at.found = true;
      at.offset = p.layout.counts;
      at.radix = config::RADIX;
    }
    return cudaSuccess;
  });
}

/// The count of a device_count: where it is and its bound (max_n).
template <class Count>
__host__ count_source count_source_of(const device_count<Count>& n) {
  static_assert(std::is_integral<Count>::value && !std::is_same<typename std::remove_cv<Count>::type, bool>::value &&
                    (sizeof(Count) == 4 || sizeof(Count) == 8),
                "ringsweep: a device count is a 4- or 8-byte integer (std::int32_t, std::uint32_t, std::int64_t, "
                "std::uint64_t)");
  count_source c;
  c.ptr = n.d_n;
  c.bound = n.max_n;
  c.bytes = u32(sizeof(Count));
  c.is_signed = std::is_signed<Count>::value;
  return c;
}

/// Two-phase forms whose count is on the device (device_count): planned, checked and sized for
/// `max_n` keys as a sort of that many; the kernels read `*d_n` when they run. A null `d_n` with
/// `max_n > 0` is invalid (only the size query reads no pointer).
///
///     radix_sort<for_device>(builtin_keys<float>{}, in_out(in, out), d_temp, temp_bytes,
///                            device_count<int>{d_n, max_n}, opts, stream);
template <class Choice, class Kind, class Form, class Count>
__host__ cudaError_t radix_sort(const Kind& kind, const Form& form, void* d_temp, std::size_t& temp_bytes,
                                const device_count<Count>& count, const sort_options& opts, cudaStream_t stream) {
  const count_source source = count_source_of(count);
  const std::size_t n = count.max_n;
  if (d_temp != nullptr && n != 0 && (count.d_n == nullptr || !form.aligned(kind))) return cudaErrorInvalidValue;
  return with_policy<Choice>([&](auto policy, auto hooks) {
    if constexpr (gathers_values<Form>::value) {
      return with_index_type(n, [&](auto index) {
        using runner = gather_runner_of<decltype(policy), decltype(hooks), Kind>;
        return runner::template run<decltype(index)>(form, d_temp, temp_bytes, n, opts, stream, kind.context(),
                                                     source);
      });
    } else {
      using config = config_of<decltype(policy), decltype(hooks), Kind, Form>;
      return form_runner<config>::run(form, d_temp, temp_bytes, n, opts, stream, kind.context(), source);
    }
  });
}

/// Segmented forms: as the two-phase forms, each segment sorted on its own (segmented_forms.cuh).
///
///     radix_sort<for_device>(builtin_keys<float>{}, segmented(in_out(in, out), segments, begin, end),
///                            d_temp, temp_bytes, n, opts, stream);
template <class Choice, class Kind, class Form, class Segments, class SegmentCount, class Count>
__host__ cudaError_t radix_sort(const Kind& kind, const segmented_form<Form, Segments, SegmentCount>& form,
                                void* d_temp, std::size_t& temp_bytes, Count count, const sort_options& opts,
                                cudaStream_t stream) {
  std::size_t n = 0, segments = 0;
  if (!count_as_size(count, n) || !count_as_size(form.segments, segments)) return cudaErrorInvalidValue;
  if (d_temp != nullptr && n != 0 && !form.aligned(kind)) return cudaErrorInvalidValue;
  return with_policy<Choice>([&](auto policy, auto hooks) {
    if constexpr (gathers_values<Form>::value) {
      return with_index_type(n, [&](auto index) {
        using runner = gather_runner_of<decltype(policy), decltype(hooks), Kind>;
        return runner::template run_segmented<decltype(index)>(form.form, segments, form.bounds, d_temp, temp_bytes,
                                                               n, opts, stream, kind.context());
      });
    } else {
      using config = config_of<decltype(policy), decltype(hooks), Kind, Form>;
      return segmented_runner<config>::run(form.form, segments, form.bounds, d_temp, temp_bytes, n, opts, stream,
                                           kind.context());
    }
  });
}

/// In-place forms: allocate from the form's resource on `stream`, free there (no host sync).
template <class Choice, class Kind, class Key, class Value, class Resource, class Count>
__host__ cudaError_t radix_sort(const Kind& kind, const in_place_form<Key, Value, Resource>& form, Count count,
                                const sort_options& opts, cudaStream_t stream) {
  std::size_t n = 0;
  if (!count_as_size(count, n)) return cudaErrorInvalidValue;
  if (n != 0 && !form.aligned(kind)) return cudaErrorInvalidValue;
  return with_policy<Choice>([&](auto policy, auto hooks) {
    if constexpr (!value_moves_whole<Value>::value) {
      return with_index_type(n, [&](auto index) {
        using runner = gather_runner_of<decltype(policy), decltype(hooks), Kind>;
        return runner::template run<decltype(index)>(form, n, opts, stream, kind.context());
      });
    } else {
      using config = sort_config<decltype(policy), typename Kind::sort_key, typename kernel_value<Value>::type,
                                 decltype(hooks)>;
      return form_runner<config>::run(form, n, opts, stream, kind.context());
    }
  });
}

// ---- the forms, built from a public overload's arguments ------------------------------------------

/// In/out keys.
template <class Key>
__host__ in_out_form<Key, null_value> in_out(const Key* in, Key* out) {
  return {in, out, nullptr, nullptr};
}
/// In/out pairs.
template <class Key, class Value>
__host__ in_out_form<Key, Value> in_out(const Key* in, Key* out, const Value* values_in, Value* values_out) {
  return {in, out, values_in, values_out};
}
/// Keys in a double buffer of `Key` (any type with CUB's layout).
template <class Key, class KeyBuffers>
__host__ double_buffer_form<Key, null_value, KeyBuffers, double_buffer<null_value>> buffers(KeyBuffers& keys) {
  return {&keys, nullptr};
}
/// Pairs in double buffers.
template <class Key, class Value, class KeyBuffers, class ValueBuffers>
__host__ double_buffer_form<Key, Value, KeyBuffers, ValueBuffers> buffers(KeyBuffers& keys, ValueBuffers& values) {
  return {&keys, &values};
}
/// Argsort: positions of the keys in sorted order (and the sorted keys, unless `keys_out` is null).
template <class Key, class Index>
__host__ argsort_form<Key, Index> argsort_of(const Key* keys_in, Key* keys_out, Index* indices) {
  return {keys_in, keys_out, indices};
}
/// A two-phase form sorted segment by segment.
template <class Form, class BeginOffsets, class EndOffsets, class SegmentCount>
__host__ segmented_form<Form, segment_offsets_of<BeginOffsets, EndOffsets>, SegmentCount> segmented(
    const Form& form, SegmentCount segments, BeginOffsets begin_offsets, EndOffsets end_offsets) {
  return {form, segments, segment_offsets_of<BeginOffsets, EndOffsets>{begin_offsets, end_offsets}};
}
/// A two-phase form sorted row by row: `rows` rows of `row_keys` keys each, no offset arrays.
template <class Form>
__host__ segmented_form<Form, fixed_rows, std::size_t> rows(const Form& form, std::size_t row_count,
                                                            std::size_t row_keys) {
  return {form, row_count, fixed_rows{row_keys}};
}
/// The keys of `rows` rows of `row_keys`: their product, or (when it overflows) a count every
/// sort rejects as too large.
__host__ inline std::size_t rows_keys(std::size_t row_count, std::size_t row_keys) {
  if (row_keys != 0 && row_count > ~std::size_t(0) / row_keys) return ~std::size_t(0);
  return row_count * row_keys;
}
/// Keys in place, allocating from `resource` (which outlives the call's full expression).
template <class Key, class Resource>
__host__ in_place_form<Key, null_value, std::remove_reference_t<Resource>> in_place(Key* keys, Resource&& resource) {
  return {keys, nullptr, &resource};
}
/// Pairs in place, allocating from `resource`.
template <class Key, class Value, class Resource>
__host__ in_place_form<Key, Value, std::remove_reference_t<Resource>> in_place(Key* keys, Value* values,
                                                                               Resource&& resource) {
  return {keys, values, &resource};
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
