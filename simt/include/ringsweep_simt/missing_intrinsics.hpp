// ringsweep SIMT backend: CUDA intrinsics it does not implement, declared deleted, so that a call
// fails to compile ("use of deleted function '__fadd_ru'") instead of failing to link or, for a
// name glibc's libm also declares, binding to something else. Every CUDA intrinsic that glibc
// declares (__expf, __logf, __sinf, __cosf, __tanf, __sincosf, __powf, __exp10f, __log2f, __log10f,
// __tanhf) is implemented in fast_math.hpp; what is left here is the directed-rounding arithmetic.
//
//   float s = __fadd_ru(a, b);   // error: use of deleted function 'float __fadd_ru(float, float)'
#pragma once

#define RINGSWEEP_SIMT_MISSING_ROUNDED(mode)                                                       \
  float __fadd_##mode(float, float) = delete;                                                      \
  float __fsub_##mode(float, float) = delete;                                                      \
  float __fmul_##mode(float, float) = delete;                                                      \
  float __fdiv_##mode(float, float) = delete;                                                      \
  float __fmaf_##mode(float, float, float) = delete;                                               \
  float __frcp_##mode(float) = delete;                                                             \
  float __fsqrt_##mode(float) = delete;                                                            \
  double __dadd_##mode(double, double) = delete;                                                   \
  double __dsub_##mode(double, double) = delete;                                                   \
  double __dmul_##mode(double, double) = delete;                                                   \
  double __ddiv_##mode(double, double) = delete;                                                   \
  double __fma_##mode(double, double, double) = delete;                                            \
  double __drcp_##mode(double) = delete;                                                           \
  double __dsqrt_##mode(double) = delete;                                                          \
  float __int2float_##mode(int) = delete;                                                          \
  float __uint2float_##mode(unsigned int) = delete;                                                \
  float __ll2float_##mode(long long) = delete;                                                     \
  float __ull2float_##mode(unsigned long long) = delete;                                           \
  float __double2float_##mode(double) = delete;
RINGSWEEP_SIMT_MISSING_ROUNDED(rz)
RINGSWEEP_SIMT_MISSING_ROUNDED(ru)
RINGSWEEP_SIMT_MISSING_ROUNDED(rd)
#undef RINGSWEEP_SIMT_MISSING_ROUNDED
