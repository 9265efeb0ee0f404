// key_traits<Key>: how ringsweep turns a key into unsigned bits whose unsigned order is the key's
// order, and how a pass reads one radix digit out of those bits.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <type_traits>

#include "detail/config.cuh"

namespace ringsweep {

/// Order-preserving bit image of a key type.
///
/// `bits_type` is the unsigned integer of the key's size. `to_bits`/`from_bits` reinterpret a key
/// (no conversion); `to_ordered` maps raw bits to an image whose unsigned order is the key order;
/// `from_ordered` maps back. Signed integers flip the sign bit. Floating point keys flip every bit
/// of negatives and only the sign bit of positives, after mapping -0.0 to +0.0 (so the two compare
/// equal and keep their input order); NaNs then order by their bits: negative NaNs before -inf,
/// positive NaNs after +inf. The sort never writes an image: it moves the raw bits of each key.
///
///     using T = ringsweep::key_traits<float>;
///     T::bits_type b = T::to_ordered(T::to_bits(-1.5f));  // b < T::to_ordered(T::to_bits(2.0f))
template <class Key, class Enable = void>
struct key_traits;

namespace detail {

/// Raw-bit conversions shared by every key_traits specialisation.
template <class Key>
struct key_bits_base {
  static_assert(std::is_trivially_copyable<Key>::value, "ringsweep keys must be trivially copyable");
  using bits_type = typename uint_of_size<sizeof(Key)>::type;
  static constexpr int bits = int(sizeof(Key) * 8);
  static constexpr bits_type high_bit = bits_type(bits_type(1) << (bits - 1));

  __host__ __device__ static bits_type to_bits(Key key) {
    bits_type b;
    memcpy(static_cast<void*>(&b), static_cast<const void*>(&key), sizeof(Key));
    return b;
  }
  __host__ __device__ static Key from_bits(bits_type b) {
    Key key;
    memcpy(static_cast<void*>(&key), static_cast<const void*>(&b), sizeof(Key));
    return key;
  }
};

/// IEEE-style layout (sign, exponent, mantissa) of any width: float, double, __half, bfloat16.
template <class Key>
struct float_key_traits : key_bits_base<Key> {
  using base = key_bits_base<Key>;
  using typename base::bits_type;
  using base::high_bit;

  __host__ __device__ static bits_type to_ordered(bits_type b) {
    if (b == high_bit) b = 0;  // -0.0 sorts as +0.0
    const bits_type mask = (b & high_bit) ? bits_type(~bits_type(0)) : high_bit;
    return bits_type(b ^ mask);
  }
  __host__ __device__ static bits_type from_ordered(bits_type o) {
    const bits_type mask = (o & high_bit) ? high_bit : bits_type(~bits_type(0));
    return bits_type(o ^ mask);
  }
};

}  // namespace detail

/// Unsigned integers are their own image.
template <class Key>
struct key_traits<Key, typename std::enable_if<std::is_integral<Key>::value && std::is_unsigned<Key>::value &&
                                               !std::is_same<Key, bool>::value>::type>
    : detail::key_bits_base<Key> {
  using typename detail::key_bits_base<Key>::bits_type;
  __host__ __device__ static bits_type to_ordered(bits_type b) { return b; }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return o; }
};

/// Signed integers: flipping the sign bit turns two's complement order into unsigned order.
template <class Key>
struct key_traits<Key, typename std::enable_if<std::is_integral<Key>::value && std::is_signed<Key>::value>::type>
    : detail::key_bits_base<Key> {
  using base = detail::key_bits_base<Key>;
  using typename base::bits_type;
  __host__ __device__ static bits_type to_ordered(bits_type b) { return bits_type(b ^ base::high_bit); }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return bits_type(o ^ base::high_bit); }
};

template <> struct key_traits<float> : detail::float_key_traits<float> {};
template <> struct key_traits<double> : detail::float_key_traits<double> {};
template <> struct key_traits<__half> : detail::float_key_traits<__half> {};
template <> struct key_traits<__nv_bfloat16> : detail::float_key_traits<__nv_bfloat16> {};

namespace detail {

/// Reads the digit of one pass out of a key's raw bits: the ordered image, complemented for a
/// descending sort (`flip` is all ones then, else zero), shifted right by `shift`, masked to the
/// pass's width (the last pass of a bit window may be narrower than the radix).
template <class Key>
struct digit_extractor {
  using traits = key_traits<Key>;
  using bits_type = typename traits::bits_type;

  bits_type flip;
  int shift;
  u32 mask;

  __host__ __device__ digit_extractor(bool descending, int shift_, int width)
      : flip(descending ? bits_type(~bits_type(0)) : bits_type(0)), shift(shift_), mask((1u << width) - 1u) {}

  __host__ __device__ u32 operator()(bits_type raw) const {
    const bits_type o = bits_type(traits::to_ordered(raw) ^ flip);
    return u32(o >> shift) & mask;
  }
};

}  // namespace detail
}  // namespace ringsweep
