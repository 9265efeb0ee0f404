// ringsweep SIMT backend: CUDA's single-precision intrinsics (__expf, __logf, __sinf, __fdividef,
// __frcp_rn, __saturatef, ...). Each stays within the error CUDA documents for it (CUDA C++
// Programming Guide, "Intrinsic Functions"); where the GPU derives one from another (__expf from
// ex2.approx of x * log2(e), __powf from exp2(y * log2(x)), __fdividef as x * (1/y) with 1/y
// flushed to 0 for |y| > 2^126) the same formula is used, so errors grow where they grow on a GPU.
// The _rn operations are correctly rounded (IEEE round to nearest even).
//
//   const float w = __expf(-0.5f * d2) * __fdividef(1.0f, sigma);   // as in a 3DGS rasteriser
//   float s, c;
//   __sincosf(angle, &s, &c);
//
// glibc declares __expf, __logf, __sinf, ... as internal extern "C" functions of libm: the
// definitions below are those declarations' definitions (extern "C", noexcept), so a call binds to
// them. The directed-rounding forms (_rz, _ru, _rd) are declared deleted in missing_intrinsics.hpp.
#pragma once

#include <cmath>

extern "C" {
inline float __expf(float x) noexcept { return std::exp2(x * 1.44269504088896341f); }
inline float __exp10f(float x) noexcept { return std::exp2(x * 3.32192809488736235f); }
inline float __log2f(float x) noexcept { return std::log2(x); }
inline float __logf(float x) noexcept { return std::log2(x) * 0.693147180559945309f; }
inline float __log10f(float x) noexcept { return std::log2(x) * 0.301029995663981195f; }
inline float __powf(float x, float y) noexcept { return std::exp2(y * std::log2(x)); }
inline float __sinf(float x) noexcept { return static_cast<float>(std::sin(static_cast<double>(x))); }
inline float __cosf(float x) noexcept { return static_cast<float>(std::cos(static_cast<double>(x))); }
inline void __sincosf(float x, float* s, float* c) noexcept {
  *s = __sinf(x);
  *c = __cosf(x);
}
inline float __tanhf(float x) noexcept { return static_cast<float>(std::tanh(static_cast<double>(x))); }
}

/// x * (1 / y): within 2 ulp for 2^-126 <= |y| <= 2^126; 0 (NaN for infinite x) for larger |y|.
inline float __fdividef(float x, float y) {
  const float r = std::fabs(y) > 0x1p126f && std::isfinite(y) ? std::copysign(0.0f, y) : 1.0f / y;
  return x * r;
}
extern "C" inline float __tanf(float x) noexcept { return __fdividef(__sinf(x), __cosf(x)); }
inline float fdividef(float x, float y) { return __fdividef(x, y); }

/// Clamped to [0, 1]; NaN gives 0.
inline float __saturatef(float x) { return std::fmin(std::fmax(x, 0.0f), 1.0f); }

// ---- correctly rounded (round to nearest even) ------------------------------------------------
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frsqrt_rn(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
