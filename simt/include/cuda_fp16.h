// Shadow of cuda_fp16.h for the ringsweep SIMT backend: the __half storage type, its bit
// reinterpretations and float conversions (round to nearest even). No half arithmetic.
#pragma once
#include <cstdint>
#include <cstring>

#include "cuda_runtime.h"

namespace simt {
namespace detail {
inline unsigned short float_to_half_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<unsigned short>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0u));
  if (abs >= 0x477ff000u) return static_cast<unsigned short>(sign | 0x7c00u);  // rounds to infinity
  if (abs < 0x38800000u) {                                                    // subnormal or zero
    const std::uint32_t shift = 113u - (abs >> 23);
    if (shift > 24) return static_cast<unsigned short>(sign);
    const std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    std::uint32_t h = mant >> (shift + 13);
    const std::uint32_t rem = mant & ((1u << (shift + 13)) - 1), half = 1u << (shift + 12);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<unsigned short>(sign | h);
  }
  std::uint32_t h = ((abs - 0x38000000u) >> 13);
  const std::uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<unsigned short>(sign | h);
}
inline float half_bits_to_float(unsigned short h) {
  const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  std::uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    x = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    x = sign;
  } else {  // subnormal: normalise
    int e = -1;
    std::uint32_t m = mant;
    do { ++e; m <<= 1; } while ((m & 0x400u) == 0);
    x = sign | ((112u - e) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
}  // namespace detail
}  // namespace simt

struct __half {
  unsigned short __x;
  __half() = default;
  __half(float f) : __x(simt::detail::float_to_half_bits(f)) {}
  operator float() const { return simt::detail::half_bits_to_float(__x); }
};
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __short_as_half(short s) { return __ushort_as_half(static_cast<unsigned short>(s)); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return static_cast<float>(h); }
