// Common definitions for every ringsweep header: the CUDA runtime, fixed-width word types and the
// small compile-time helpers the primitives share. Nothing here is part of the public API.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

/// Full unrolling of the next loop under nvcc (items per thread live in registers); nothing for a
/// host compiler, where the loop runs as written.
#if defined(__CUDACC__)
#define RINGSWEEP_UNROLL _Pragma("unroll")
#else
#define RINGSWEEP_UNROLL
#endif

namespace ringsweep {
namespace detail {

using u32 = unsigned int;
/// 64-bit word: `unsigned long long`, the type CUDA's 64-bit atomics and shuffles take.
using u64 = unsigned long long;

/// Warp width; every ringsweep kernel runs blocks of whole warps.
constexpr int warp_threads = 32;

/// `ceil(a / b)` for non-negative integers, usable in constant expressions.
template <class T>
__host__ __device__ constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }

template <class T>
__host__ __device__ constexpr T min_of(T a, T b) { return a < b ? a : b; }

template <class T>
__host__ __device__ constexpr T max_of(T a, T b) { return a < b ? b : a; }

/// The unsigned integer type of exactly `Bytes` bytes.
template <int Bytes> struct uint_of_size;
template <> struct uint_of_size<1> { using type = unsigned char; };
template <> struct uint_of_size<2> { using type = unsigned short; };
template <> struct uint_of_size<4> { using type = unsigned int; };
template <> struct uint_of_size<8> { using type = unsigned long long; };

}  // namespace detail
}  // namespace ringsweep
