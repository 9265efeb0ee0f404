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

// ---- the library's namespace ------------------------------------------------------------------
// Everything ringsweep declares lives in an inline namespace of `ringsweep` named after the
// architectures the translation unit builds device code for (`__CUDA_ARCH_LIST__`, e.g.
// `ringsweep::arch_800_900::`; `host_only` for a host compiler). Two translation units of one
// program built for different architecture lists then share no template instance: without it the
// linker keeps one copy of each weak kernel stub and probe, and a sort compiled for sm_80 could
// launch the sm_90 unit's kernels with the sm_80 policy's shapes. Users keep writing `ringsweep::`.
// The names kept one release after a rename (sort_keys_host -> host_sort_keys, ...). They forward
// to the new names and compile silently by default, so a program built with -Werror keeps building;
// define RINGSWEEP_DEPRECATION_WARNINGS to have the compiler name every call of an old name.
#if defined(RINGSWEEP_DEPRECATION_WARNINGS)
#define RINGSWEEP_DEPRECATED(message) [[deprecated(message)]]
#else
#define RINGSWEEP_DEPRECATED(message)
#endif

#define RINGSWEEP_PP_CAT_(a, b) a##b
#define RINGSWEEP_PP_CAT(a, b) RINGSWEEP_PP_CAT_(a, b)
#define RINGSWEEP_PP_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, n, ...) n
#define RINGSWEEP_PP_COUNT(...) RINGSWEEP_PP_COUNT_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define RINGSWEEP_PP_JOIN_1(a) a
#define RINGSWEEP_PP_JOIN_2(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_1(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_3(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_2(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_4(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_3(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_5(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_4(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_6(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_5(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_7(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_6(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_8(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_7(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_9(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_8(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_10(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_9(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_11(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_10(__VA_ARGS__))
#define RINGSWEEP_PP_JOIN_12(a, ...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_CAT(a, _), RINGSWEEP_PP_JOIN_11(__VA_ARGS__))
/// `a_b_c` from the list `a, b, c` (1 to 12 entries).
#define RINGSWEEP_PP_JOIN(...) RINGSWEEP_PP_CAT(RINGSWEEP_PP_JOIN_, RINGSWEEP_PP_COUNT(__VA_ARGS__))(__VA_ARGS__)

#if defined(__CUDA_ARCH_LIST__)
#define RINGSWEEP_ABI_NAMESPACE RINGSWEEP_PP_CAT(arch_, RINGSWEEP_PP_JOIN(__CUDA_ARCH_LIST__))
#else
#define RINGSWEEP_ABI_NAMESPACE host_only
#endif

/// Opens and closes `ringsweep` and its architecture namespace (every ringsweep header uses them).
/// A program that passes ringsweep types between units built by nvcc and by a host compiler (whose
/// namespaces differ) defines RINGSWEEP_DISABLE_ARCH_NAMESPACE everywhere, and then builds every
/// unit that launches ringsweep kernels for the same architectures.
#if defined(RINGSWEEP_DISABLE_ARCH_NAMESPACE)
#define RINGSWEEP_NAMESPACE_BEGIN namespace ringsweep {
#define RINGSWEEP_NAMESPACE_END }
#else
#define RINGSWEEP_NAMESPACE_BEGIN \
  namespace ringsweep {           \
  inline namespace RINGSWEEP_ABI_NAMESPACE {
#define RINGSWEEP_NAMESPACE_END \
  }                             \
  }
#endif

RINGSWEEP_NAMESPACE_BEGIN
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
RINGSWEEP_NAMESPACE_END
