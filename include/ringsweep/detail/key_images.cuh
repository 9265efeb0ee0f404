// The order-preserving images behind key_traits (key_traits.cuh): raw-bit conversions, the float
// image, and what an unsupported key type gets instead (one static assertion).
#pragma once

#include <cstring>
#include <type_traits>

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// key_traits<Key> (key_traits.cuh documents and defines it), declared here with its default
/// argument so that the digit extraction key_traits.cuh includes at its end (digit_extractor.cuh,
/// key_context.cuh) names it without including key_traits.cuh back: no include cycle.
template <class Key, class Enable = void>
struct key_traits;

namespace detail {

template <class Key>
struct unsupported_key_type : std::false_type {};

/// What key_traits of an unsupported type is: the one static assertion, plus placeholder members
/// so that the rest of the instantiation compiles and that assertion is the only diagnostic.
template <class Key>
struct rejected_key_traits {
  static_assert(unsupported_key_type<Key>::value,
                "ringsweep: unsupported key type; keys must be 8/16/32/64-bit integers (not bool), float, double, "
                "__half or __nv_bfloat16");
  using bits_type = u32;
  static constexpr int bits = 32;
  static constexpr bits_type high_bit = 0x80000000u;
  static constexpr bool image_is_xor = true;
  static constexpr bits_type image_xor = 0;
  __host__ __device__ static bits_type to_bits(const Key&) { return 0; }
  __host__ __device__ static bits_type to_ordered(bits_type b) { return b; }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return o; }
};

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

  static constexpr bool image_is_xor = false;
  static constexpr bits_type image_xor = 0;

  /// Branch-free: the sign bit spread over the word (arithmetic shift) selects "flip all" for
  /// negatives, `high_bit` for positives; -0.0 becomes +0.0 first.
  __host__ __device__ static bits_type to_ordered(bits_type b) {
    using signed_type = typename std::make_signed<bits_type>::type;
    b = b == high_bit ? bits_type(0) : b;  // -0.0 sorts as +0.0
    const bits_type sign = bits_type(signed_type(b) >> (base::bits - 1));
    return bits_type(b ^ (sign | high_bit));
  }
  __host__ __device__ static bits_type from_ordered(bits_type o) {
    const bits_type mask = (o & high_bit) ? high_bit : bits_type(~bits_type(0));
    return bits_type(o ^ mask);
  }
};

}  // namespace detail

RINGSWEEP_NAMESPACE_END
