// key_traits<Key>: how ringsweep turns a key into unsigned bits whose unsigned order is the key's
// order (the images themselves are built in detail/key_images.cuh).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "detail/config.cuh"
#include "detail/key_images.cuh"

RINGSWEEP_NAMESPACE_BEGIN

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
/// Any other key type (bool, enums, classes, 128-bit integers, long double) is rejected by one
/// static assertion, "ringsweep: unsupported key type", where a sort is instantiated with it.
template <class Key, class Enable>  // Enable = void (declared in detail/key_images.cuh)
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

template <> struct key_traits<float> : detail::float_key_traits<float> {};
template <> struct key_traits<double> : detail::float_key_traits<double> {};
template <> struct key_traits<__half> : detail::float_key_traits<__half> {};
template <> struct key_traits<__nv_bfloat16> : detail::float_key_traits<__nv_bfloat16> {};

RINGSWEEP_NAMESPACE_END

// How the sort reads digits out of these images (internal; here so that one include gives a key
// type's traits and its digit extraction alike). Those headers do not include this one (they take
// key_traits' declaration from detail/key_images.cuh): the include graph has no cycle.
#include "detail/key_context.cuh"
