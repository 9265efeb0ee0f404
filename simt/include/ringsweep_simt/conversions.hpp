// ringsweep SIMT backend: CUDA's conversion intrinsics, __float2int_rn and friends. Rounding as
// named (rn: nearest even, rz: toward zero, ru: up, rd: down); out-of-range values saturate to the
// destination's limits and NaN converts to 0, as PTX's cvt does. Also the integer-to-float _rn
// forms and the double halves (__double2hiint, __double2loint, __hiloint2double).
//
//   const int px = __float2int_rd(x / tile_size);     // floor, saturating
//   const unsigned char c = __float2uint_rn(255.0f * __saturatef(v));
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace simt {
namespace detail {
/// `v` rounded (already) and clamped into I's range; NaN gives 0.
template <class I, class F>
I saturating_convert(F v) {
  if (v != v) return 0;
  const F upper = std::ldexp(F(1), std::numeric_limits<I>::digits);  // 2^31, 2^32, 2^63, 2^64
  if (v >= upper) return std::numeric_limits<I>::max();
  if (v <= F(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}
}  // namespace detail
}  // namespace simt

#define RINGSWEEP_SIMT_CONVERT(F, from, I, to)                                                     \
  inline I __##from##2##to##_rn(F v) { return simt::detail::saturating_convert<I>(std::nearbyint(v)); } \
  inline I __##from##2##to##_rz(F v) { return simt::detail::saturating_convert<I>(std::trunc(v)); }     \
  inline I __##from##2##to##_ru(F v) { return simt::detail::saturating_convert<I>(std::ceil(v)); }      \
  inline I __##from##2##to##_rd(F v) { return simt::detail::saturating_convert<I>(std::floor(v)); }
RINGSWEEP_SIMT_CONVERT(float, float, int, int)
RINGSWEEP_SIMT_CONVERT(float, float, unsigned int, uint)
RINGSWEEP_SIMT_CONVERT(float, float, long long, ll)
RINGSWEEP_SIMT_CONVERT(float, float, unsigned long long, ull)
RINGSWEEP_SIMT_CONVERT(double, double, int, int)
RINGSWEEP_SIMT_CONVERT(double, double, unsigned int, uint)
RINGSWEEP_SIMT_CONVERT(double, double, long long, ll)
RINGSWEEP_SIMT_CONVERT(double, double, unsigned long long, ull)
#undef RINGSWEEP_SIMT_CONVERT

inline float __int2float_rn(int v) { return static_cast<float>(v); }
inline float __uint2float_rn(unsigned int v) { return static_cast<float>(v); }
inline float __ll2float_rn(long long v) { return static_cast<float>(v); }
inline float __ull2float_rn(unsigned long long v) { return static_cast<float>(v); }
inline double __int2double_rn(int v) { return v; }
inline double __uint2double_rn(unsigned int v) { return v; }
inline double __ll2double_rn(long long v) { return static_cast<double>(v); }
inline double __ull2double_rn(unsigned long long v) { return static_cast<double>(v); }
inline float __double2float_rn(double v) { return static_cast<float>(v); }
inline int __float2int_rn_sat(float v) { return __float2int_rn(v); }

inline int __double2hiint(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return static_cast<int>(static_cast<std::uint32_t>(b >> 32));
}
inline int __double2loint(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return static_cast<int>(static_cast<std::uint32_t>(b));
}
inline double __hiloint2double(int hi, int lo) {
  const std::uint64_t b = (std::uint64_t{static_cast<std::uint32_t>(hi)} << 32) | static_cast<std::uint32_t>(lo);
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// ---- integer arithmetic intrinsics ------------------------------------------------------------
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1); }
inline unsigned __sad(int a, int b, unsigned c) { return c + static_cast<unsigned>(a > b ? static_cast<long long>(a) - b : static_cast<long long>(b) - a); }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
