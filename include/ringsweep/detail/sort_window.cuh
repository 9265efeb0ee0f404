// sort_window: a sort's bit window, direction and pass count, resolved once from its options.
#pragma once

#include "config.cuh"
#include "digit_window.cuh"
#include "sort_order.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Which key bits a sort orders by, in which direction and in how many digit passes: made once
/// from the caller's sort_options (`resolve`), held by the plan, and carried as it is by every
/// kernel parameter struct that needs it (the histograms, the small and segment sorts, top-k,
/// the host-resident sort), so no layer re-derives a window or a pass count.
///
///     sort_window w;
///     if (!sort_window::resolve(opts, 32, 8, w)) return cudaErrorInvalidValue;
///     for (int p = 0; p < w.passes; ++p) { digit_extractor<Key> d = w.extractor<8>(context, p); ... }
struct sort_window {
  int begin_bit = 0;
  int end_bit = 0;
  int passes = 0;  // digit passes of `radix_bits` bits (resolve)
  bool descending = false;

  /// The window of `opts` over keys of `key_bits` bits, with `radix_bits`-bit digits (end_bit -1:
  /// the whole key). False for a window outside the key or an unknown order.
  __host__ static bool resolve(const sort_options& opts, int key_bits, int radix_bits, sort_window& w) {
    const int end = opts.end_bit == -1 ? key_bits : opts.end_bit;
    if (opts.begin_bit < 0 || end < 0 || end > key_bits || opts.begin_bit > end) return false;
    if (opts.order != sort_order::ascending && opts.order != sort_order::descending) return false;
    w.begin_bit = opts.begin_bit;
    w.end_bit = end;
    w.passes = digit_window::passes(opts.begin_bit, end, radix_bits);
    w.descending = opts.order == sort_order::descending;
    return true;
  }
  /// The bits pass `pass` reads (RADIX_BITS: the digit width the window was resolved with).
  template <int RADIX_BITS>
  __host__ __device__ digit_window pass(int pass) const {
    return digit_window::of_pass(begin_bit, end_bit, RADIX_BITS, pass);
  }
  /// Pass `pass`'s digit extractor, from the sort's key context (custom keys: their decomposer).
  template <int RADIX_BITS, class Context>
  __host__ __device__ auto extractor(const Context& context, int pass) const {
    return context.extractor(descending, this->pass<RADIX_BITS>(pass));
  }
  /// The order-preserving image of the whole key in the sort's direction (no digit).
  template <class Context>
  __host__ __device__ auto image(const Context& context) const {
    return context.extractor(descending, digit_window{});
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
