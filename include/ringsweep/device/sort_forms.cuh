// The three forms of a sort (in/out, double buffer, in place) over sort_dispatch: each checks its
// buffers, lays them out as sort_buffers and runs the plan.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sort_dispatch.cuh"
#include "temp_layout.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// True when the byte ranges `[a, a + bytes)` and `[b, b + bytes)` share a byte.
__host__ inline bool ranges_overlap(const void* a, const void* b, std::size_t bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return bytes != 0 && x < y + bytes && y < x + bytes;
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
template <class Policy, class Key, class Value, bool HAS_VALUES>
__host__ cudaError_t sort_in_out(void* d_temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                                 const Value* values_in, Value* values_out, std::size_t n, const sort_options& opts,
                                 cudaStream_t stream, const key_context<Key>& context = {}) {
  using dispatch = sort_dispatch<Policy, Key, Value, HAS_VALUES>;
  using bits_type = typename dispatch::bits_type;
  using value_raw_t = typename dispatch::value_raw_t;
  typename dispatch::plan p;
  cudaError_t e = dispatch::make_plan(n, opts, true, p);
  if (e != cudaSuccess) return e;
  p.context = context;
  if (d_temp == nullptr) {
    temp_bytes = p.layout.bytes;
    return cudaSuccess;
  }
  if (n == 0) return cudaSuccess;
  const buffer_pair key_pair{keys_in, keys_out, 0, n * sizeof(Key)};
  const buffer_pair value_pair{values_in, values_out, 0, n * sizeof(Value)};
  e = check_buffers(temp_bytes, p.layout.bytes, key_pair, HAS_VALUES ? &value_pair : nullptr);
  if (e != cudaSuccess) return e;
  typename dispatch::buffers b;
  b.keys_in = reinterpret_cast<const bits_type*>(keys_in);
  b.keys_final = reinterpret_cast<bits_type*>(keys_out);
  b.keys_other = p.layout.keys_alt != 0 ? temp_piece<bits_type>(d_temp, p.layout.keys_alt) : nullptr;
  b.values_in = reinterpret_cast<const value_raw_t*>(values_in);
  b.values_final = reinterpret_cast<value_raw_t*>(values_out);
  b.values_other = p.layout.values_alt != 0 ? temp_piece<value_raw_t>(d_temp, p.layout.values_alt) : nullptr;
  return dispatch::run(p, d_temp, b, stream);
}

/// Double-buffer form: the result lands in the buffer the pass count (skipped passes included)
/// names, and the selectors say which; the device copies it there when the executed passes leave
/// it in the other buffer.
template <class Policy, class Key, class Value, bool HAS_VALUES>
__host__ cudaError_t sort_double_buffer(void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                                        double_buffer<Value>* values, std::size_t n, const sort_options& opts,
                                        cudaStream_t stream, const key_context<Key>& context = {}) {
  using dispatch = sort_dispatch<Policy, Key, Value, HAS_VALUES>;
  using bits_type = typename dispatch::bits_type;
  using value_raw_t = typename dispatch::value_raw_t;
  typename dispatch::plan p;
  cudaError_t e = dispatch::make_plan(n, opts, false, p);
  if (e != cudaSuccess) return e;
  p.context = context;
  if (d_temp == nullptr) {
    temp_bytes = p.layout.bytes;
    return cudaSuccess;
  }
  if (n == 0 || p.passes == 0) return cudaSuccess;
  // Both buffers by index, not current()/alternate(), which index by a selector not yet checked.
  const buffer_pair key_pair{keys.d_buffers[0], keys.d_buffers[1], keys.selector, n * sizeof(Key)};
  buffer_pair value_pair;
  if (HAS_VALUES) value_pair = {values->d_buffers[0], values->d_buffers[1], values->selector, n * sizeof(Value)};
  e = check_buffers(temp_bytes, p.layout.bytes, key_pair, HAS_VALUES ? &value_pair : nullptr);
  if (e != cudaSuccess) return e;
  // The single-tile sort writes the alternate buffer; onesweep ends in the alternate one after an
  // odd number of passes.
  const bool flip = p.path == sort_path::single_tile || (p.passes & 1) != 0;
  typename dispatch::buffers b;
  b.mode = flip ? input_is_other : input_is_final;
  b.keys_in = reinterpret_cast<const bits_type*>(keys.current());
  b.keys_final = reinterpret_cast<bits_type*>(flip ? keys.alternate() : keys.current());
  b.keys_other = reinterpret_cast<bits_type*>(flip ? keys.current() : keys.alternate());
  b.values_in = nullptr;
  b.values_final = nullptr;
  b.values_other = nullptr;
  if (HAS_VALUES) {
    b.values_in = reinterpret_cast<const value_raw_t*>(values->current());
    b.values_final = reinterpret_cast<value_raw_t*>(flip ? values->alternate() : values->current());
    b.values_other = reinterpret_cast<value_raw_t*>(flip ? values->current() : values->alternate());
  }
  e = dispatch::run(p, d_temp, b, stream);
  if (e != cudaSuccess) return e;
  if (flip) {
    keys.selector ^= 1;
    if (HAS_VALUES) values->selector ^= 1;
  }
  return cudaSuccess;
}

/// In-place form: allocates its temporary storage (and scratch buffers) on `stream` with
/// cudaMallocAsync, frees it with cudaFreeAsync. Onesweep: the caller's buffers are the final ones
/// (the device copies the result back when the executed passes leave it in scratch); a single
/// tile is sorted into scratch and copied back.
template <class Policy, class Key, class Value, bool HAS_VALUES>
__host__ cudaError_t sort_in_place(Key* keys, Value* values, std::size_t n, const sort_options& opts,
                                   cudaStream_t stream, const key_context<Key>& context = {}) {
  using dispatch = sort_dispatch<Policy, Key, Value, HAS_VALUES>;
  typename dispatch::plan p;
  cudaError_t e = dispatch::make_plan(n, opts, false, p);
  if (e != cudaSuccess) return e;
  p.context = context;
  if (n == 0 || p.passes == 0) return cudaSuccess;
  if (keys == nullptr || (HAS_VALUES && values == nullptr)) return cudaErrorInvalidValue;
  const std::size_t key_bytes = align_up(n * sizeof(Key));
  const std::size_t value_bytes = HAS_VALUES ? align_up(n * sizeof(Value)) : 0;
  char* mem = nullptr;
  e = cudaMallocAsync(reinterpret_cast<void**>(&mem), key_bytes + value_bytes + p.layout.bytes, stream);
  if (e != cudaSuccess) return e;
  if (p.path == sort_path::onesweep) {
    using bits_type = typename dispatch::bits_type;
    using value_raw_t = typename dispatch::value_raw_t;
    typename dispatch::buffers b;
    b.keys_in = reinterpret_cast<const bits_type*>(keys);
    b.keys_final = reinterpret_cast<bits_type*>(keys);
    b.keys_other = reinterpret_cast<bits_type*>(mem);
    b.values_in = HAS_VALUES ? reinterpret_cast<const value_raw_t*>(values) : nullptr;
    b.values_final = HAS_VALUES ? reinterpret_cast<value_raw_t*>(values) : nullptr;
    b.values_other = HAS_VALUES ? reinterpret_cast<value_raw_t*>(mem + key_bytes) : nullptr;
    b.mode = input_is_final;
    e = dispatch::run(p, mem + key_bytes + value_bytes, b, stream);
    const cudaError_t f = cudaFreeAsync(mem, stream);
    return e != cudaSuccess ? e : f;
  }
  double_buffer<Key> kb(keys, reinterpret_cast<Key*>(mem));
  double_buffer<Value> vb(values, HAS_VALUES ? reinterpret_cast<Value*>(mem + key_bytes) : nullptr);
  std::size_t temp_bytes = p.layout.bytes;
  e = sort_double_buffer<Policy, Key, Value, HAS_VALUES>(mem + key_bytes + value_bytes, temp_bytes, kb, &vb, n,
                                                         opts, stream, context);
  if (e == cudaSuccess && kb.selector != 0) {
    e = cudaMemcpyAsync(keys, kb.current(), n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
    if (e == cudaSuccess && HAS_VALUES) {
      e = cudaMemcpyAsync(values, vb.current(), n * sizeof(Value), cudaMemcpyDeviceToDevice, stream);
    }
  }
  const cudaError_t f = cudaFreeAsync(mem, stream);
  return e != cudaSuccess ? e : f;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
