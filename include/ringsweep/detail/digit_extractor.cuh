// digit_extractor: one pass's digit of a key, read from its raw bits.
#pragma once

#include "config.cuh"
#include "key_images.cuh"  // key_traits

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Reads the digit of one pass out of a key's raw bits: the ordered image, complemented for a
/// descending sort, shifted right by `shift`, masked to the pass's width (the last pass of a bit
/// window may be narrower than the radix). For integer keys the image and the complement fold
/// into one XOR constant, so a digit costs an XOR, a shift and an AND. Built on the host, it can
/// travel in kernel parameters, whose members the GPU reads straight from the constant bank.
///
///     const digit_extractor<std::int32_t> digit_of(false, 24, 8);
///     u32 top = digit_of(key_traits<std::int32_t>::to_bits(-5));   // 0x7f
template <class Key>
struct digit_extractor {
  using traits = key_traits<Key>;
  using bits_type = typename traits::bits_type;

  bits_type flip = 0;  // the complement of a descending sort, with the integer image folded in
  int shift = 0;
  u32 mask = 0;
  u32 digit_flip = 0;  // flip's bits of this digit: (x ^ flip) >> shift & mask == (x >> shift ^ digit_flip) & mask
  bits_type pad = 0;   // the key whose every digit is `mask`, in either direction: it pads a partial tile

  digit_extractor() = default;
  __host__ __device__ digit_extractor(bool descending, int shift_, int width)
      : flip(bits_type((descending ? bits_type(~bits_type(0)) : bits_type(0)) ^ traits::image_xor)),
        shift(shift_),
        mask((1u << width) - 1u),
        digit_flip(u32(flip >> shift_) & ((1u << width) - 1u)),
        pad(traits::from_ordered(descending ? bits_type(0) : bits_type(~bits_type(0)))) {}

  /// The key's ordered image XOR the descending complement: the bits the digits are read from.
  __host__ __device__ bits_type image(bits_type raw) const {
    if constexpr (traits::image_is_xor) {
      return bits_type(raw ^ flip);
    } else {
      return bits_type(traits::to_ordered(raw) ^ flip);
    }
  }

  /// The digit: a shift and one three-input logic operation ((x ^ digit_flip) & mask) for integer
  /// keys, whatever the direction; float keys take their ordered image first.
  __host__ __device__ u32 operator()(bits_type raw) const {
    if constexpr (traits::image_is_xor) {
      return (u32(raw >> shift) ^ digit_flip) & mask;
    } else {
      return (u32(traits::to_ordered(raw) >> shift) ^ digit_flip) & mask;
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
