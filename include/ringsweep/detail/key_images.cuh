// key_traits and the order-preserving images behind it: raw-bit conversions, the float image, and
// what an unsupported key type gets instead (one static assertion). key_traits is public (users
// name and specialise it, key_traits.cuh is the header they include); it is defined here, below
// the public headers, so that the internals that need it (digit extraction, custom keys) include
// no public header.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <type_traits>

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN

namespace detail {

template <class Key>
struct unsupported_key_type : std::false_type {};

/// What key_traits of an unsupported type is: the one static assertion, plus placeholder members
/// so that the rest of the instantiation compiles and that assertion is the only diagnostic.
template <class Key>
struct rejected_key_traits {
  static_assert(unsupported_key_type<Key>::value,
                "ringsweep: unsupported key type; keys must be 8/16/32/64/128-bit integers (not bool), float, double, "
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

/// Order-preserving bit image of a key type.
///
/// `bits_type` is the unsigned integer of the key's size. `to_bits`/`from_bits` reinterpret a key
/// (no conversion); `to_ordered` maps raw bits to an image whose unsigned order is the key order;
/// `from_ordered` maps back. Signed integers flip the sign bit. Floating point keys flip every bit
/// of negatives and only the sign bit of positives, after mapping -0.0 to +0.0 (so the two compare
/// equal and keep their input order); NaNs then order by their bits: negative NaNs before -inf,
/// positive NaNs after +inf. The sort never writes an image: it moves the raw bits of each key.
/// Where the image is the raw bits XOR a constant (integers), `image_is_xor` is true and
/// `image_xor` is that constant, so a digit needs one XOR however the sort is ordered.
///
///     using T = ringsweep::key_traits<float>;
///     T::bits_type b = T::to_ordered(T::to_bits(-1.5f));  // b < T::to_ordered(T::to_bits(2.0f))
///
/// Any other key type (bool, enums, classes, long double) is rejected by one
/// static assertion, "ringsweep: unsupported key type", where a sort is instantiated with it.
template <class Key, class Enable = void>
struct key_traits;

/// Unsigned integers are their own image.
template <class Key>
struct key_traits<Key, typename std::enable_if<std::is_integral<Key>::value && std::is_unsigned<Key>::value &&
                                               !std::is_same<Key, bool>::value && sizeof(Key) <= 8>::type>
    : detail::key_bits_base<Key> {
  using typename detail::key_bits_base<Key>::bits_type;
  static constexpr bool image_is_xor = true;
  static constexpr bits_type image_xor = 0;
  __host__ __device__ static bits_type to_ordered(bits_type b) { return b; }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return o; }
};

/// Signed integers: flipping the sign bit turns two's complement order into unsigned order.
template <class Key>
struct key_traits<Key, typename std::enable_if<std::is_integral<Key>::value && std::is_signed<Key>::value &&
                                               sizeof(Key) <= 8>::type>
    : detail::key_bits_base<Key> {
  using base = detail::key_bits_base<Key>;
  using typename base::bits_type;
  static constexpr bool image_is_xor = true;
  static constexpr bits_type image_xor = base::high_bit;
  __host__ __device__ static bits_type to_ordered(bits_type b) { return bits_type(b ^ base::high_bit); }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return bits_type(o ^ base::high_bit); }
};

/// Everything else: one static assertion (see detail::rejected_key_traits).
template <class Key, class Enable>
struct key_traits : detail::rejected_key_traits<Key> {};

#if defined(__SIZEOF_INT128__)
/// 128-bit integers (`__int128`, `unsigned __int128`; CUB's `__int128_t`, `__uint128_t`): the
/// unsigned 128-bit word, the sign bit flipped for signed keys. The sorts move them as two 64-bit
/// fields of a custom key (device/key_kind.cuh), so no kernel computes on 128-bit words.
template <class Key>
struct key_traits<Key, typename std::enable_if<std::is_same<Key, __int128>::value ||
                                               std::is_same<Key, unsigned __int128>::value>::type> {
  using bits_type = unsigned __int128;
  static constexpr int bits = 128;
  static constexpr bits_type high_bit = bits_type(1) << 127;
  static constexpr bool image_is_xor = true;
  static constexpr bits_type image_xor = std::is_same<Key, __int128>::value ? high_bit : bits_type(0);
  __host__ __device__ static bits_type to_bits(Key key) { return bits_type(key); }
  __host__ __device__ static Key from_bits(bits_type b) { return Key(b); }
  __host__ __device__ static bits_type to_ordered(bits_type b) { return b ^ image_xor; }
  __host__ __device__ static bits_type from_ordered(bits_type o) { return o ^ image_xor; }
};
#endif

template <> struct key_traits<float> : detail::float_key_traits<float> {};
template <> struct key_traits<double> : detail::float_key_traits<double> {};
template <> struct key_traits<__half> : detail::float_key_traits<__half> {};
template <> struct key_traits<__nv_bfloat16> : detail::float_key_traits<__nv_bfloat16> {};

RINGSWEEP_NAMESPACE_END
