// The two kinds of key a sort takes: built-in keys, and custom keys through a decomposer. The
// entry point (radix_sort.cuh) asks a kind for the key type the kernels sort, the digit
// extractors' context and the alignment check of the caller's arrays.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../detail/decomposed_key.cuh"
#include "../key_traits.cuh"
#include "../sort_options.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Enables the decomposer overloads for anything but `sort_options` (which selects the built-in
/// overloads, `sort_keys(..., n, opts)`).
template <class Decomposer>
using if_decomposer = typename std::enable_if<!std::is_same<typename std::decay<Decomposer>::type, sort_options>::value,
                                              int>::type;

/// Built-in keys (key_traits): sorted as they are, any alignment of their own.
///
///     radix_sort<for_device>(builtin_keys<float>{}, in_out(d_in, d_out), ...);
template <class Key>
struct builtin_keys {
  using key_type = Key;   // the caller's element type
  using sort_key = Key;   // the type the kernels are instantiated with
  __host__ key_context<Key> context() const { return {}; }
  template <class... Ptrs>
  __host__ bool aligned(Ptrs...) const {
    return true;
  }
};

/// Custom keys sorted by the fields `decomposer` names: the kernels see `decomposed_key<Key,
/// Decomposer>` (same size), whose words need arrays aligned to them (see decomposer.cuh).
///
///     radix_sort<for_device>(decomposed_keys<particle, by_cell>{by_cell{}}, in_place(d_p), ...);
template <class Key, class Decomposer>
struct decomposed_keys {
  using key_type = Key;
  using sort_key = decomposed_key<Key, Decomposer>;
  static_assert(sizeof(sort_key) == sizeof(Key), "");
  Decomposer decomposer;

  __host__ key_context<sort_key> context() const { return key_context<sort_key>(decomposer); }
  /// Whether every pointer is aligned for the words a decomposed key moves as (null passes).
  template <class... Ptrs>
  __host__ bool aligned(Ptrs... ptrs) const {
    using bits_type = typename key_traits<sort_key>::bits_type;
    return (true && ... && (reinterpret_cast<std::uintptr_t>(ptrs) % alignof(bits_type) == 0));
  }
};

#if defined(__SIZEOF_INT128__)
/// A 128-bit integer as the kernels see it: its two 64-bit halves, low first (the byte order of
/// every target), the high one signed for `__int128`.
template <bool SIGNED>
struct int128_halves {
  u64 lo;
  typename std::conditional<SIGNED, std::int64_t, u64>::type hi;
};

/// The halves as two fields, the high one most significant: their concatenated image is the
/// integer's order (a signed high half flips its sign bit, key_traits of std::int64_t).
template <bool SIGNED>
struct int128_decomposer {
  using hi_t = decltype(int128_halves<SIGNED>::hi);
#ifdef RINGSWEEP_HAS_CUDA_STD_TUPLE
  using fields = cuda::std::tuple<hi_t&, u64&>;
#else
  using fields = std::tuple<hi_t&, u64&>;
#endif
  __host__ __device__ fields operator()(int128_halves<SIGNED>& k) const { return {k.hi, k.lo}; }
};

/// 128-bit integers (`__int128`, `unsigned __int128`, CUB's `__int128_t` / `__uint128_t`) are
/// built-in keys to the caller and custom keys to the kernels: the halves above through their
/// decomposer, 16 passes of the 128-bit image, arrays aligned to 16 bytes as the type is.
template <class Int, bool SIGNED>
struct int128_keys : decomposed_keys<int128_halves<SIGNED>, int128_decomposer<SIGNED>> {
  using key_type = Int;
  static_assert(sizeof(Int) == sizeof(int128_halves<SIGNED>), "a 128-bit integer is its two halves");
};
template <>
struct builtin_keys<__int128> : int128_keys<__int128, true> {};
template <>
struct builtin_keys<unsigned __int128> : int128_keys<unsigned __int128, false> {};
#endif

}  // namespace detail
RINGSWEEP_NAMESPACE_END
