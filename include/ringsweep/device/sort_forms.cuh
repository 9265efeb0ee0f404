// The three forms of a sort (in/out, double buffer, in place): what each holds, the one check of
// its buffers, and how it lays them out as sort_buffers for sort_dispatch. radix_sort.cuh is the
// one entry point that runs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "../detail/temp_layout.cuh"
#include "sort_dispatch.cuh"
#include "stream_resource.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// True when the byte ranges `[a, a + a_bytes)` and `[b, b + b_bytes)` share a byte.
__host__ inline bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && x < y + b_bytes && y < x + a_bytes;
}

/// True when two ranges of `bytes` bytes each, at `a` and `b`, share a byte.
__host__ inline bool ranges_overlap(const void* a, const void* b, std::size_t bytes) {
  return ranges_overlap(a, bytes, b, bytes);
}

/// The two buffers of one array of a two-phase sort: an in/out form's input and output, or a
/// double buffer's two (with its selector), each of `bytes` bytes.
struct buffer_pair {
  const void* first = nullptr;
  const void* second = nullptr;
  int selector = 0;
  std::size_t bytes = 0;
};

/// The checks of every two-phase form before it writes anything: temporary storage of at least
/// `needed` bytes, and for the keys and the values (when `values` is not null) two non-null,
/// non-overlapping buffers and a selector of 0 or 1.
///
///     buffer_pair keys{d_in, d_out, 0, n * sizeof(Key)};
///     if (cudaError_t e = check_buffers(temp_bytes, plan.layout.bytes, keys, nullptr)) return e;
__host__ inline cudaError_t check_buffers(std::size_t temp_bytes, std::size_t needed, const buffer_pair& keys,
                                          const buffer_pair* values) {
  if (temp_bytes < needed) return cudaErrorInvalidValue;
  for (const buffer_pair* b : {&keys, values}) {
    if (b == nullptr) continue;
    if (b->selector != 0 && b->selector != 1) return cudaErrorInvalidValue;
    if (b->first == nullptr || b->second == nullptr) return cudaErrorInvalidValue;
    if (ranges_overlap(b->first, b->second, b->bytes)) return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

/// In/out form: reads `keys_in`/`values_in` (never written), writes `keys_out`/`values_out`.
/// `Value` is null_value for keys only.
template <class Key, class Value>
struct in_out_form {
  using key_type = Key;
  using value_type = Value;
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;

  template <class Kind>
  __host__ bool aligned(const Kind& kind) const {
    return kind.aligned(keys_in, keys_out);
  }
};

/// The buffers of an in/out form's sort: the input (read only), the output as the final buffer,
/// and the scratch pieces of the temporary storage at `keys_alt` / `values_alt` (0: none).
template <class Bits, class ValueRaw, class Key, class Value>
__host__ sort_buffers<Bits, ValueRaw> in_out_buffers(const in_out_form<Key, Value>& f, void* d_temp,
                                                     std::size_t keys_alt, std::size_t values_alt) {
  sort_buffers<Bits, ValueRaw> b;
  b.keys_in = reinterpret_cast<const Bits*>(f.keys_in);
  b.keys_final = reinterpret_cast<Bits*>(f.keys_out);
  b.keys_other = keys_alt != 0 ? temp_piece<Bits>(d_temp, keys_alt) : nullptr;
  b.values_in = reinterpret_cast<const ValueRaw*>(f.values_in);
  b.values_final = reinterpret_cast<ValueRaw*>(f.values_out);
  b.values_other = values_alt != 0 ? temp_piece<ValueRaw>(d_temp, values_alt) : nullptr;
  b.mode = input_separate;
  return b;
}

/// Double-buffer form over any double buffer with CUB's layout (`T* d_buffers[2]`, `int
/// selector`): ringsweep::double_buffer, ringsweep::DoubleBuffer, cub::DoubleBuffer. `values` is
/// null for keys only. The selectors are written only when the sort succeeds.
template <class Key, class Value, class KeyBuffers, class ValueBuffers>
struct double_buffer_form {
  using key_type = Key;
  using value_type = Value;
  KeyBuffers* keys;
  ValueBuffers* values;

  template <class Kind>
  __host__ bool aligned(const Kind& kind) const {
    return kind.aligned(keys->d_buffers[0], keys->d_buffers[1]);
  }
};

/// A double-buffer form's arrays checked against temporary storage of `temp_bytes` that must hold
/// `needed` bytes (check_buffers): both buffers by index, not through the selector, which is not
/// checked yet.
template <class Key, class Value, class KeyBuffers, class ValueBuffers>
__host__ cudaError_t check_double_buffers(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f,
                                          std::size_t n, std::size_t temp_bytes, std::size_t needed) {
  const buffer_pair key_pair{f.keys->d_buffers[0], f.keys->d_buffers[1], f.keys->selector, n * sizeof(Key)};
  buffer_pair value_pair;
  constexpr bool VALUES = !std::is_same<Value, null_value>::value;
  if constexpr (VALUES) value_pair = {f.values->d_buffers[0], f.values->d_buffers[1], f.values->selector, n * sizeof(Value)};
  return check_buffers(temp_bytes, needed, key_pair, VALUES ? &value_pair : nullptr);
}

/// A double-buffer form's buffers for sort_dispatch (plain or segmented): the current ones are
/// the input; the result lands in the alternate ones when `flip` (then the input is the other
/// buffer), else back in the current ones (then the alternate ones are the other buffer).
template <class Bits, class ValueRaw, class Key, class Value, class KeyBuffers, class ValueBuffers>
__host__ sort_buffers<Bits, ValueRaw> double_buffers(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f,
                                                     bool flip) {
  sort_buffers<Bits, ValueRaw> b;
  Key* const key_current = f.keys->d_buffers[f.keys->selector];
  Key* const key_alternate = f.keys->d_buffers[f.keys->selector ^ 1];
  b.mode = flip ? input_is_other : input_is_final;
  b.keys_in = reinterpret_cast<const Bits*>(key_current);
  b.keys_final = reinterpret_cast<Bits*>(flip ? key_alternate : key_current);
  b.keys_other = reinterpret_cast<Bits*>(flip ? key_current : key_alternate);
  b.values_in = nullptr;
  b.values_final = nullptr;
  b.values_other = nullptr;
  if constexpr (!std::is_same<Value, null_value>::value) {
    Value* const value_current = f.values->d_buffers[f.values->selector];
    Value* const value_alternate = f.values->d_buffers[f.values->selector ^ 1];
    b.values_in = reinterpret_cast<const ValueRaw*>(value_current);
    b.values_final = reinterpret_cast<ValueRaw*>(flip ? value_alternate : value_current);
    b.values_other = reinterpret_cast<ValueRaw*>(flip ? value_current : value_alternate);
  }
  return b;
}

/// After a sort whose result landed in the alternate buffers: the selectors say so.
template <class Key, class Value, class KeyBuffers, class ValueBuffers>
__host__ void flip_selectors(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f) {
  f.keys->selector ^= 1;
  if constexpr (!std::is_same<Value, null_value>::value) f.values->selector ^= 1;
}

/// In-place form: sorts the caller's arrays, allocating its temporary storage from `resource`
/// (stream_allocator: cudaMallocAsync / cudaFreeAsync) on the sort's stream.
template <class Key, class Value, class Resource>
struct in_place_form {
  using key_type = Key;
  using value_type = Value;
  Key* keys;
  Value* values;
  Resource* resource;

  template <class Kind>
  __host__ bool aligned(const Kind& kind) const {
    return kind.aligned(keys);
  }
};

/// Argsort form: reads `keys_in`, writes each key's input position, in sorted order, to `indices`
/// and the sorted keys to `keys_out`, or where that is null to scratch in the temporary storage.
template <class Key, class Index>
struct argsort_form {
  static_assert(std::is_same<Index, std::int32_t>::value || std::is_same<Index, std::uint32_t>::value ||
                    std::is_same<Index, std::int64_t>::value || std::is_same<Index, std::uint64_t>::value,
                "ringsweep: argsort indices are std::int32_t, std::uint32_t, std::int64_t or std::uint64_t");
  using key_type = Key;
  using value_type = index_values<Index>;
  const Key* keys_in;
  Key* keys_out;
  Index* indices;

  template <class Kind>
  __host__ bool aligned(const Kind& kind) const {
    return kind.aligned(keys_in, keys_out);
  }
};

/// The form runners: each takes the sort's configuration `Config` (of the key type the kernels
/// sort, with its hooks) and the caller's arguments.
template <class Config>
struct form_runner {
  using dispatch = sort_dispatch<Config>;
  using K = typename Config::key_type;
  using bits_type = typename Config::bits_type;
  using value_raw_t = typename Config::value_raw_t;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;

  /// Runs the plan's launches; `count`: the host's count (`p.n`), or a count on the device of
  /// which `p.n` is the bound (sort_dispatch::run).
  __host__ static cudaError_t launch_plan(const sort_plan<K>& p, void* d_temp, const typename dispatch::buffers& b,
                                          cudaStream_t stream, host_count) {
    return dispatch::run(p, d_temp, b, stream);
  }
  __host__ static cudaError_t launch_plan(const sort_plan<K>& p, void* d_temp, const typename dispatch::buffers& b,
                                          cudaStream_t stream, const count_source& count) {
    return dispatch::run(p, d_temp, b, stream, count);
  }

  /// The plan of a two-phase form; a size query (`d_temp` null) is answered here (`answered`).
  __host__ static cudaError_t plan_two_phase(std::size_t n, const sort_options& opts, bool in_out, void* d_temp,
                                             std::size_t& temp_bytes, const key_context<K>& context, sort_plan<K>& p,
                                             bool& answered) {
    const cudaError_t e = dispatch::make_plan(n, opts, in_out, p);
    if (e != cudaSuccess) return e;
    p.context = context;
    if (d_temp == nullptr) {
      temp_bytes = p.layout.bytes;
      answered = true;
    }
    return cudaSuccess;
  }

  /// The two-phase runners take `n`, or with a count_source (`Count`) the bound max_n of a count
  /// the kernels read on the device.
  template <class Key, class Value, class Count = host_count>
  __host__ static cudaError_t run(const in_out_form<Key, Value>& f, void* d_temp, std::size_t& temp_bytes,
                                  std::size_t n, const sort_options& opts, cudaStream_t stream,
                                  const key_context<K>& context, const Count& count = {}) {
    sort_plan<K> p;
    bool answered = false;
    cudaError_t e = plan_two_phase(n, opts, true, d_temp, temp_bytes, context, p, answered);
    if (e != cudaSuccess || answered || n == 0) return e;
    const buffer_pair key_pair{f.keys_in, f.keys_out, 0, n * sizeof(Key)};
    const buffer_pair value_pair{f.values_in, f.values_out, 0, n * sizeof(Value)};
    e = check_buffers(temp_bytes, p.layout.bytes, key_pair, HAS_VALUES ? &value_pair : nullptr);
    if (e != cudaSuccess) return e;
    return launch_plan(p, d_temp,
                       in_out_buffers<bits_type, value_raw_t>(f, d_temp, p.layout.keys_alt, p.layout.values_alt),
                       stream, count);
  }

  /// Argsort: the in/out form whose values are made, not read; without `keys_out` the sorted keys
  /// go to scratch after the plan's pieces (`a(n * sizeof(Key))` more bytes).
  template <class Key, class Index, class Count = host_count>
  __host__ static cudaError_t run(const argsort_form<Key, Index>& f, void* d_temp, std::size_t& temp_bytes,
                                  std::size_t n, const sort_options& opts, cudaStream_t stream,
                                  const key_context<K>& context, const Count& count = {}) {
    // Every position, up to n - 1, must be an Index.
    if (n != 0 && n - 1 > std::size_t(std::numeric_limits<Index>::max())) return cudaErrorInvalidValue;
    sort_plan<K> p;
    std::size_t plan_bytes = 0;
    bool answered = false;
    cudaError_t e = plan_two_phase(n, opts, true, d_temp, plan_bytes, context, p, answered);
    if (e != cudaSuccess) return e;
    const std::size_t keys_scratch = f.keys_out == nullptr && n != 0 ? align_up(n * sizeof(Key)) : 0;
    const std::size_t needed = p.layout.bytes + keys_scratch;
    if (answered) {
      temp_bytes = needed;
      return cudaSuccess;
    }
    if (n == 0) return cudaSuccess;
    if (temp_bytes < needed || f.keys_in == nullptr || f.indices == nullptr) return cudaErrorInvalidValue;
    const std::size_t key_bytes = n * sizeof(Key), index_bytes = n * sizeof(Index);
    if ((f.keys_out != nullptr && ranges_overlap(f.keys_in, f.keys_out, key_bytes)) ||
        ranges_overlap(f.indices, index_bytes, f.keys_in, key_bytes) ||
        (f.keys_out != nullptr && ranges_overlap(f.indices, index_bytes, f.keys_out, key_bytes))) {
      return cudaErrorInvalidValue;
    }
    typename dispatch::buffers b;
    b.keys_in = reinterpret_cast<const bits_type*>(f.keys_in);
    b.keys_final = f.keys_out != nullptr ? reinterpret_cast<bits_type*>(f.keys_out)
                                         : temp_piece<bits_type>(d_temp, p.layout.bytes - temp_alignment);
    b.keys_other = p.layout.keys_alt != 0 ? temp_piece<bits_type>(d_temp, p.layout.keys_alt) : nullptr;
    b.values_in = nullptr;  // made by the kernels
    b.values_final = reinterpret_cast<value_raw_t*>(f.indices);
    b.values_other = p.layout.values_alt != 0 ? temp_piece<value_raw_t>(d_temp, p.layout.values_alt) : nullptr;
    return launch_plan(p, d_temp, b, stream, count);
  }

  /// The result lands in the buffer the pass count (skipped passes included) names, and the
  /// selectors say which; the device copies it there when the executed passes leave it in the
  /// other buffer.
  template <class Key, class Value, class KeyBuffers, class ValueBuffers, class Count = host_count>
  __host__ static cudaError_t run(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f, void* d_temp,
                                  std::size_t& temp_bytes, std::size_t n, const sort_options& opts, cudaStream_t stream,
                                  const key_context<K>& context, const Count& count = {}) {
    sort_plan<K> p;
    bool answered = false;
    cudaError_t e = plan_two_phase(n, opts, false, d_temp, temp_bytes, context, p, answered);
    if (e != cudaSuccess || answered || n == 0 || p.window.passes == 0) return e;
    e = check_double_buffers(f, n, temp_bytes, p.layout.bytes);
    if (e != cudaSuccess) return e;
    // The single-tile sort writes the alternate buffer; onesweep ends in the alternate one after an
    // odd number of passes.
    const bool flip = p.path == sort_path::single_tile || (p.window.passes & 1) != 0;
    const typename dispatch::buffers b = double_buffers<bits_type, value_raw_t>(f, flip);
    e = launch_plan(p, d_temp, b, stream, count);
    if (e != cudaSuccess) return e;
    if (flip) flip_selectors(f);
    return cudaSuccess;
  }

  /// One allocation from the form's resource holds scratch arrays and temporary storage.
  /// Onesweep: the caller's arrays are the final buffers (the device copies the result back when
  /// the executed passes leave it in scratch); a single tile is sorted into scratch and copied back.
  template <class Key, class Value, class Resource>
  __host__ static cudaError_t run(const in_place_form<Key, Value, Resource>& f, std::size_t n, const sort_options& opts,
                                  cudaStream_t stream, const key_context<K>& context) {
    sort_plan<K> p;
    cudaError_t e = dispatch::make_plan(n, opts, false, p);
    if (e != cudaSuccess) return e;
    p.context = context;
    if (n == 0 || p.window.passes == 0) return cudaSuccess;
    if (f.keys == nullptr || (HAS_VALUES && f.values == nullptr)) return cudaErrorInvalidValue;
    const std::size_t key_bytes = align_up(n * sizeof(Key));
    const std::size_t value_bytes = HAS_VALUES ? align_up(n * sizeof(Value)) : 0;
    const std::size_t bytes = key_bytes + value_bytes + p.layout.bytes;
    void* block = nullptr;
    e = allocate_from(*f.resource, block, bytes, stream);
    if (e != cudaSuccess) return e;
    char* const mem = static_cast<char*>(block);
    char* const temp = mem + key_bytes + value_bytes;
    if (p.path == sort_path::onesweep) {
      typename dispatch::buffers b;
      b.keys_in = reinterpret_cast<const bits_type*>(f.keys);
      b.keys_final = reinterpret_cast<bits_type*>(f.keys);
      b.keys_other = reinterpret_cast<bits_type*>(mem);
      b.values_in = HAS_VALUES ? reinterpret_cast<const value_raw_t*>(f.values) : nullptr;
      b.values_final = HAS_VALUES ? reinterpret_cast<value_raw_t*>(f.values) : nullptr;
      b.values_other = HAS_VALUES ? reinterpret_cast<value_raw_t*>(mem + key_bytes) : nullptr;
      b.mode = input_is_final;
      e = dispatch::run(p, temp, b, stream);
    } else {
      double_buffer<Key> kb(f.keys, reinterpret_cast<Key*>(mem));
      double_buffer<Value> vb(f.values, HAS_VALUES ? reinterpret_cast<Value*>(mem + key_bytes) : nullptr);
      std::size_t temp_bytes = p.layout.bytes;
      const double_buffer_form<Key, Value, double_buffer<Key>, double_buffer<Value>> db{&kb,
                                                                                        HAS_VALUES ? &vb : nullptr};
      e = run(db, temp, temp_bytes, n, opts, stream, context);
      if (e == cudaSuccess && kb.selector != 0) {
        e = cudaMemcpyAsync(f.keys, kb.current(), n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
        if (e == cudaSuccess && HAS_VALUES) {
          e = cudaMemcpyAsync(f.values, vb.current(), n * sizeof(Value), cudaMemcpyDeviceToDevice, stream);
        }
      }
    }
    const cudaError_t freed = deallocate_to(*f.resource, block, bytes, stream);
    return e != cudaSuccess ? e : freed;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
