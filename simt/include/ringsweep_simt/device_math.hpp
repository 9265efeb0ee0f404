// ringsweep SIMT backend: CUDA device math functions that the C and C++ libraries lack (rsqrtf,
// normcdff, erfinvf, sinpif, norm3df, ...), float and double. Computed in double (long double for
// the double forms) and rounded once, so each is within CUDA's documented ulp bound (CUDA C++
// Programming Guide, "Mathematical Functions": rsqrtf 2, rcbrtf 1, normcdff 5, normcdfinvf 5,
// erfinvf 2, erfcinvf 4, sinpif/cospif 1, rhypotf 2, norm3df 3, rnorm3df 2).
//
//   const float inv_len = rsqrtf(x * x + y * y + z * z);
//   const float p = normcdff(z_score);
#pragma once

#include <cmath>

namespace simt {
namespace detail {
/// erfc^-1(y) for y in (0, 2): Newton's method on erfc from a rational first guess.
inline long double erfc_inverse(long double y) {
  if (!(y > 0 && y < 2)) return y == 0 ? INFINITY : y == 2 ? -INFINITY : NAN;
  const long double p = y < 1 ? y : 2 - y;  // erfc^-1(2 - y) = -erfc^-1(y)
  const long double t = std::sqrt(-2 * std::log(p / 2));
  long double x = 0.70710678118654752440L * (t - (2.515517L + 0.802853L * t + 0.010328L * t * t) /
                                                      (1 + 1.432788L * t + 0.189269L * t * t + 0.001308L * t * t * t));
  for (int i = 0; i < 8; ++i) {  // f(x) = erfc(x) - p, f'(x) = -2/sqrt(pi) exp(-x^2)
    const long double step = (std::erfc(x) - p) / (-1.12837916709551257390L * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-19L * std::fabs(x)) break;
  }
  return y < 1 ? x : -x;
}
constexpr long double k_pi = 3.14159265358979323846264338327950288L;
}  // namespace detail
}  // namespace simt

#define RINGSWEEP_SIMT_MATH(name_f, name_d, expr)                                                  \
  inline float name_f(float a) { const long double x = a; return static_cast<float>(expr); }    \
  inline double name_d(double a) { const long double x = a; return static_cast<double>(expr); }
RINGSWEEP_SIMT_MATH(rsqrtf, rsqrt, 1 / std::sqrt(x))
RINGSWEEP_SIMT_MATH(rcbrtf, rcbrt, 1 / std::cbrt(x))
RINGSWEEP_SIMT_MATH(normcdff, normcdf, std::erfc(-x * 0.70710678118654752440L) / 2)
RINGSWEEP_SIMT_MATH(normcdfinvf, normcdfinv, -1.41421356237309504880L * simt::detail::erfc_inverse(2 * x))
RINGSWEEP_SIMT_MATH(erfcinvf, erfcinv, simt::detail::erfc_inverse(x))
RINGSWEEP_SIMT_MATH(erfinvf, erfinv, -simt::detail::erfc_inverse(1 + x))
// sin(pi x) and cos(pi x) with exact zeros: integers and half-integers reduce exactly.
RINGSWEEP_SIMT_MATH(sinpif, sinpi, std::remainder(x, 1.0L) == 0 ? std::copysign(0.0L, x) : std::sin(simt::detail::k_pi * std::remainder(x, 2.0L)))
RINGSWEEP_SIMT_MATH(cospif, cospi, std::remainder(x + 0.5L, 1.0L) == 0 ? 0.0L : std::cos(simt::detail::k_pi * std::remainder(x, 2.0L)))
#undef RINGSWEEP_SIMT_MATH
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline float rhypotf(float a, float b) { return static_cast<float>(1 / std::hypot(static_cast<long double>(a), b)); }
inline double rhypot(double a, double b) { return static_cast<double>(1 / std::hypot(static_cast<long double>(a), b)); }
inline float norm3df(float a, float b, float c) {
  return static_cast<float>(std::sqrt(static_cast<long double>(a) * a + static_cast<long double>(b) * b + static_cast<long double>(c) * c));
}
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(1 / static_cast<long double>(norm3df(a, b, c))); }
inline float norm4df(float a, float b, float c, float d) {
  return static_cast<float>(std::sqrt(static_cast<long double>(a) * a + static_cast<long double>(b) * b +
                                      static_cast<long double>(c) * c + static_cast<long double>(d) * d));
}
inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(1 / static_cast<long double>(norm4df(a, b, c, d))); }
