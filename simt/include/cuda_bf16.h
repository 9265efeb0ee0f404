// Shadow of cuda_bf16.h for the ringsweep SIMT backend: the __nv_bfloat16 storage type, its bit
// reinterpretations and float conversions (round to nearest even). No bfloat16 arithmetic.
#pragma once
#include <cstdint>
#include <cstring>

#include "cuda_runtime.h"

struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
      __x = static_cast<unsigned short>((x >> 16) | 0x40u);  // quiet NaN keeps its sign
    } else {
      __x = static_cast<unsigned short>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    }
  }
  operator float() const {
    const std::uint32_t x = static_cast<std::uint32_t>(__x) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
};
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { __nv_bfloat16 h; h.__x = u; return h; }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(h.__x); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return static_cast<float>(h); }
