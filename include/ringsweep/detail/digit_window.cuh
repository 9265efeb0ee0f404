// digit_window: the key bits one digit pass of a sort reads.
#pragma once

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The bits one digit pass of a sort reads: a sort over key bits [begin_bit, end_bit) with
/// `radix_bits`-bit digits runs `passes(...)` passes, pass `p` reading `width` bits from `shift`
/// (the last pass of a window may be narrower than the radix). The one place a pass's window is
/// computed: the plan, the histogram, the onesweep launches and the single-tile sort all ask here.
///
///     const digit_window w = digit_window::of_pass(0, 20, 8, 2);   // shift 16, width 4
///     u32 d = u32(image >> w.shift) & w.mask();
struct digit_window {
  int shift = 0;
  int width = 0;

  __host__ __device__ static constexpr int passes(int begin_bit, int end_bit, int radix_bits) {
    return (end_bit - begin_bit + radix_bits - 1) / radix_bits;
  }
  __host__ __device__ static constexpr digit_window of_pass(int begin_bit, int end_bit, int radix_bits, int pass) {
    const int first = begin_bit + pass * radix_bits;
    return digit_window{first, end_bit - first < radix_bits ? end_bit - first : radix_bits};
  }
  __host__ __device__ constexpr u32 mask() const { return (1u << width) - 1u; }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
