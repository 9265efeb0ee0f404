// ringsweep SIMT backend: CUDA's global min/max overloads (crt/math_functions.hpp), which device and
// host code call unqualified. The overload set is CUDA's, so a mixed call resolves as under nvcc:
// min(int, unsigned) compares as unsigned, min(float, double) as double, and a call that is
// ambiguous there (min(size_t, int), say) is ambiguous here too.
//
//   const unsigned last = min(n - 1, grid_cells);   // unsigned, as with nvcc
//   const float r = max(0.0f, 3.0f * sigma);         // fmaxf
#pragma once

#include <cmath>

inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline long long int llmin(long long int a, long long int b) { return a < b ? a : b; }
inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long int llmax(long long int a, long long int b) { return a > b ? a : b; }
inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b) { return a > b ? a : b; }

// Signed with unsigned of one width compares as unsigned (the signed operand is converted).
#define RINGSWEEP_SIMT_MINMAX_INT(S, U)                                                            \
  inline U min(U a, U b) { return a < b ? a : b; }                                                 \
  inline U min(S a, U b) { return min(static_cast<U>(a), b); }                                     \
  inline U min(U a, S b) { return min(a, static_cast<U>(b)); }                                     \
  inline U max(U a, U b) { return a > b ? a : b; }                                                 \
  inline U max(S a, U b) { return max(static_cast<U>(a), b); }                                     \
  inline U max(U a, S b) { return max(a, static_cast<U>(b)); }
RINGSWEEP_SIMT_MINMAX_INT(int, unsigned int)
RINGSWEEP_SIMT_MINMAX_INT(long int, unsigned long int)
RINGSWEEP_SIMT_MINMAX_INT(long long int, unsigned long long int)
#undef RINGSWEEP_SIMT_MINMAX_INT
inline long int min(long int a, long int b) { return a < b ? a : b; }
inline long int max(long int a, long int b) { return a > b ? a : b; }
inline long long int min(long long int a, long long int b) { return a < b ? a : b; }
inline long long int max(long long int a, long long int b) { return a > b ? a : b; }

// Floating point: fmin/fmax (a NaN operand yields the other operand); mixed widths as double.
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
