// The segmented forms of a sort: an in/out or double-buffer form (sort_forms.cuh) and the
// caller's segments; the one check of their arguments, and how they become a segmented_dispatch.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/temp_layout.cuh"
#include "segmented_dispatch.cuh"
#include "sort_forms.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A form (in_out_form or double_buffer_form) sorted segment by segment: `Segments` says where
/// each is, segment_offsets (segment i is `[begin_offsets[i], end_offsets[i])`, any iterators
/// over an integer type) or fixed_rows (rows of one length, no arrays); `SegmentCount` is the type of the
/// caller's segment count (CUB's is signed).
template <class Form, class Segments, class SegmentCount>
struct segmented_form {
  using key_type = typename Form::key_type;
  using value_type = typename Form::value_type;
  Form form;
  SegmentCount segments;
  Segments bounds;

  template <class Kind>
  __host__ bool aligned(const Kind& kind) const {
    return form.aligned(kind);
  }
};

/// The runners of the segmented forms, with the configuration `Config` (hooks included).
template <class Config>
struct segmented_runner {
  using dispatch = segmented_dispatch<Config>;
  using K = typename Config::key_type;

  /// The plan; a size query (`d_temp` null: only `temp_bytes` is written, no pointer is read) is
  /// answered here (`answered`), and so is a sort with nothing to do (`answered`, after the
  /// checks of its pointers).
  template <class Segments>
  __host__ static cudaError_t plan(std::size_t n, std::size_t segments, const Segments& bounds,
                                   const sort_options& opts, bool in_out, void* d_temp, std::size_t& temp_bytes,
                                   const key_context<K>& context, segmented_plan<K>& p, bool& answered) {
    const cudaError_t e = dispatch::make_plan(n, segments, opts, in_out, p, bounds.sizes(u64(n)));
    if (e != cudaSuccess) return e;
    p.sort.context = context;
    answered = true;
    if (d_temp == nullptr) {
      temp_bytes = p.layout.bytes;
      return cudaSuccess;
    }
    if (!bounds.given(segments)) return cudaErrorInvalidValue;
    if (temp_bytes < p.layout.bytes) return cudaErrorInvalidValue;
    answered = n == 0 || segments == 0;
    return cudaSuccess;
  }

  /// In/out: keys outside every segment are not written; the inputs never are. `out`: where the
  /// segments a warp or a block sorts go (segmented_dispatch::run).
  template <class Key, class Value, class Segments, class Output = segment_in_place>
  __host__ static cudaError_t run(const in_out_form<Key, Value>& f, std::size_t segments, const Segments& bounds,
                                  void* d_temp, std::size_t& temp_bytes, std::size_t n, const sort_options& opts,
                                  cudaStream_t stream, const key_context<K>& context, const Output& out = Output{}) {
    segmented_plan<K> p;
    bool answered = false;
    cudaError_t e = plan(n, segments, bounds, opts, true, d_temp, temp_bytes, context, p, answered);
    if (e != cudaSuccess || answered) return e;
    const buffer_pair key_pair{f.keys_in, f.keys_out, 0, n * sizeof(Key)};
    const buffer_pair value_pair{f.values_in, f.values_out, 0, n * sizeof(Value)};
    e = check_buffers(temp_bytes, p.layout.bytes, key_pair, Config::HAS_VALUES ? &value_pair : nullptr);
    if (e != cudaSuccess) return e;
    using bits_type = typename Config::bits_type;
    using value_raw_t = typename Config::value_raw_t;
    return dispatch::run(p, d_temp, in_out_buffers<bits_type, value_raw_t>(f, d_temp, p.layout.keys_alt, p.layout.values_alt),
                         bounds, stream, out);
  }

  /// Double buffers: the segments are sorted into the alternate buffers, whose keys outside every
  /// segment are not written, and the selectors flip on success (n and segments nonzero). The
  /// current buffers' keys inside the large segments are overwritten.
  template <class Key, class Value, class KeyBuffers, class ValueBuffers, class Segments>
  __host__ static cudaError_t run(const double_buffer_form<Key, Value, KeyBuffers, ValueBuffers>& f,
                                  std::size_t segments, const Segments& bounds, void* d_temp, std::size_t& temp_bytes,
                                  std::size_t n, const sort_options& opts, cudaStream_t stream,
                                  const key_context<K>& context) {
    segmented_plan<K> p;
    bool answered = false;
    cudaError_t e = plan(n, segments, bounds, opts, false, d_temp, temp_bytes, context, p, answered);
    if (e != cudaSuccess || answered) return e;
    e = check_double_buffers(f, n, temp_bytes, p.layout.bytes);
    if (e != cudaSuccess) return e;
    // Every segment's result lands in the alternate buffers (a large segment's passes end there
    // by the final copy, a tiny or small one is written there).
    const typename dispatch::buffers b =
        double_buffers<typename Config::bits_type, typename Config::value_raw_t>(f, true);
    e = dispatch::run(p, d_temp, b, bounds, stream);
    if (e != cudaSuccess) return e;
    flip_selectors(f);
    return cudaSuccess;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
