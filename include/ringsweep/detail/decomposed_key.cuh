// Keys sorted through a decomposer (CUB's custom-key API): a trivially copyable struct whose
// fields, named by the decomposer as a tuple of references, are sorted lexicographically, the
// first field most significant. The sort moves such a key as its raw bytes; a pass's digit is read
// from the concatenation of the fields' order-preserving images, bit 0 being the least
// significant bit of the last field (CUB's convention). Everything here plugs into the machinery
// the built-in keys use: key_traits, digit_extractor and key_context are specialised for the tag
// type decomposed_key<Key, Decomposer>, so the kernels are unchanged.
#pragma once

#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define RINGSWEEP_HAS_CUDA_STD_TUPLE 1
#endif
#endif

#include "config.cuh"
#include "key_context.cuh"
#include "key_images.cuh"  // key_traits

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Tag type standing for `Key` sorted through `Decomposer`: the sort's kernels are instantiated
/// with it instead of `Key`. Same size and alignment as `Key` (arrays of `Key` are passed as arrays
/// of it, never read on the host).
///
///     using K = decomposed_key<particle, by_cell_depth>;
///     static_assert(key_traits<K>::bits == 64, "");
template <class Key, class Decomposer>
struct decomposed_key {
  Key key;
};

/// `Bytes` bytes of a custom key, as `Bytes / Align` unsigned words of `Align` bytes: how a key
/// whose size is not 1, 2, 4 or 8 bytes is moved. It is also a little-endian integer when the
/// upfront histogram stores a key's image in it: `x >> s` gives the low 64 bits of that integer
/// shifted right by `s` (0 <= s < 8 * Bytes; `x >> 64` is 0 for keys of at most 8 bytes), so
/// `x >> 0` and `x >> 64` are its two 64-bit words.
///
///     key_words<12, 4> w = ...;   // a 12-byte key of 4-byte alignment: three 32-bit loads
///     u32 digit = u32(w >> 40) & 0xff;
template <int Bytes, int Align>
struct alignas(Align) key_words {
  static constexpr int WORD = Align < 8 ? Align : 8;
  using word_type = typename uint_of_size<WORD>::type;
  word_type w[Bytes / WORD];

  __host__ __device__ friend u64 operator>>(const key_words& x, int s) {
    u64 v[2] = {0, 0};
    memcpy(static_cast<void*>(v), static_cast<const void*>(&x), Bytes);
    if (s >= 64) return v[1] >> (s - 64);
    return (v[0] >> s) | ((v[1] << 1) << (63 - s));
  }
};

/// No register pinning for custom keys (see intrinsics.cuh's `opaque`; only 1- and 2-byte
/// built-in words need it).
template <int Bytes, int Align>
__host__ __device__ __forceinline__ key_words<Bytes, Align> opaque(key_words<Bytes, Align> v) {
  return v;
}

/// The largest power of two (at most 8) that divides `bytes` and `align`.
__host__ __device__ constexpr int key_word_bytes(int bytes, int align) {
  int a = 8;
  while (a > 1 && (bytes % a != 0 || align % a != 0)) a /= 2;
  return a;
}

/// How a custom key of `Bytes` bytes and alignment `Align` moves: one unsigned word for 1, 2, 4
/// and 8 bytes, a 16-byte-aligned pair of words for 16 (one vector access each), words of the
/// key's alignment otherwise. The first two need arrays aligned to the key's size (the sort
/// checks); the last needs nothing beyond the key's own alignment.
template <int Bytes, int Align, class Enable = void>
struct key_storage {
  using type = key_words<Bytes, key_word_bytes(Bytes, Align)>;
};
template <int Bytes, int Align>
struct key_storage<Bytes, Align, typename std::enable_if<Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8>::type> {
  using type = typename uint_of_size<Bytes>::type;
};
template <int Align>
struct key_storage<16, Align> {
  using type = key_words<16, 16>;
};

/// Field types a decomposer may name: the built-in keys.
template <class T>
struct is_sortable_field
    : std::integral_constant<bool, (std::is_integral<T>::value && !std::is_same<T, bool>::value && sizeof(T) <= 8) ||
                                       std::is_same<T, float>::value || std::is_same<T, double>::value ||
                                       std::is_same<T, __half>::value || std::is_same<T, __nv_bfloat16>::value> {};

/// A decomposer's result: which tuple (0: none, 1: std::tuple, 2: cuda::std::tuple) and its
/// element types.
template <class T>
struct tuple_of_fields {
  static constexpr int kind = 0;
  template <template <class...> class F>
  using apply = F<>;
};
template <class... Fs>
struct tuple_of_fields<std::tuple<Fs...>> {
  static constexpr int kind = 1;
  template <template <class...> class F>
  using apply = F<Fs...>;
};
#ifdef RINGSWEEP_HAS_CUDA_STD_TUPLE
template <class... Fs>
struct tuple_of_fields<cuda::std::tuple<Fs...>> {
  static constexpr int kind = 2;
  template <template <class...> class F>
  using apply = F<Fs...>;
};
#endif

template <int I, class... Ts>
struct nth_type;
template <class T, class... Ts>
struct nth_type<0, T, Ts...> {
  using type = T;
};
template <int I, class T, class... Ts>
struct nth_type<I, T, Ts...> : nth_type<I - 1, Ts...> {};

/// The fields' types (references stripped), their widths and where each sits in the image.
template <class T>
using bare_t = typename std::remove_cv<typename std::remove_reference<T>::type>::type;

template <class... Refs>
struct field_list {
  static constexpr int count = int(sizeof...(Refs));
  static constexpr bool all_references = (true && ... && std::is_lvalue_reference<Refs>::value);
  static constexpr bool all_sortable = (true && ... && is_sortable_field<bare_t<Refs>>::value);
  static constexpr bool any_float = (false || ... || !std::is_integral<bare_t<Refs>>::value);
  static constexpr int bits = (0 + ... + int(sizeof(Refs) * 8));  // sizeof a reference: its referee's
  template <int I>
  using field = bare_t<typename nth_type<I, Refs...>::type>;
  /// Bit offset of field I in the image: the bits of the fields after it.
  template <int I>
  __host__ __device__ static constexpr int offset() {
    constexpr int widths[] = {int(sizeof(Refs) * 8)..., 0};
    int off = 0;
    for (int j = I + 1; j < count; ++j) off += widths[j];
    return off;
  }
};

/// Everything about `Key` decomposed by `Decomposer`, with the static checks of the API.
template <class Key, class Decomposer>
struct decomposition {
  static_assert(std::is_trivially_copyable<Key>::value,
                "ringsweep: a key sorted through a decomposer must be trivially copyable (it moves as raw bytes)");
  static_assert(std::is_trivially_copyable<Decomposer>::value,
                "ringsweep: a decomposer must be trivially copyable (it travels in kernel parameters)");
  static_assert(sizeof(Key) <= 16, "ringsweep: keys sorted through a decomposer may have at most 16 bytes");
  using result = decltype(std::declval<Decomposer&>()(std::declval<Key&>()));
  using tuple = tuple_of_fields<bare_t<result>>;
  static_assert(tuple::kind != 0,
                "ringsweep: a decomposer must return a cuda::std::tuple or std::tuple of references to the key's "
                "fields, e.g. cuda::std::tuple<float&, int&>{key.f, key.i}");
  using fields = typename tuple::template apply<field_list>;
  static_assert(fields::all_references, "ringsweep: a decomposer's tuple must hold references to the key's fields");
  static_assert(fields::all_sortable,
                "ringsweep: a decomposer field type cannot be sorted; fields must be 8/16/32/64-bit integers (not "
                "bool), float, double, __half or __nv_bfloat16");
  static_assert(fields::count == 0 || fields::bits <= int(sizeof(Key)) * 8,
                "ringsweep: a decomposer's fields must lie within the key");
  using bits_type = typename key_storage<int(sizeof(Key)), int(alignof(Key))>::type;
  static constexpr bool wide = fields::bits > 64;  // the image needs two 64-bit words

  template <int I, class Tuple>
  __host__ __device__ static auto& get(Tuple& t) {
    if constexpr (tuple::kind == 1) {
      return std::get<I>(t);
    } else {
#ifdef RINGSWEEP_HAS_CUDA_STD_TUPLE
      return cuda::std::get<I>(t);
#else
      return t;
#endif
    }
  }

  /// ORs field I's image into the 128-bit image (lo, hi) at its offset.
  template <int I, class Tuple>
  __host__ __device__ static void add_field(Tuple& t, u64& lo, u64& hi) {
    using F = typename fields::template field<I>;
    if constexpr (is_sortable_field<F>::value) {
      using tr = key_traits<F>;
      const u64 img = u64(tr::to_ordered(tr::to_bits(get<I>(t))));
      constexpr int off = fields::template offset<I>();
      if constexpr (off >= 64) {
        hi |= img << (off - 64);
      } else {
        lo |= img << off;
        if constexpr (off + tr::bits > 64) hi |= img >> (64 - off);
      }
    }
  }

  template <class Tuple, int... I>
  __host__ __device__ static void add_fields(Tuple& t, u64& lo, u64& hi, std::integer_sequence<int, I...>) {
    (add_field<I>(t, lo, hi), ...);
  }

  /// The raw bits of a key whose every field's image is all ones (all zeros with `descending`):
  /// its concatenated image, complemented for a descending sort, is all ones.
  __host__ __device__ static bits_type pad(const Decomposer& decomposer, bool descending) {
    bits_type raw;
    memset(static_cast<void*>(&raw), 0, sizeof(raw));
    Key key;
    memcpy(static_cast<void*>(&key), static_cast<const void*>(&raw), sizeof(Key));
    Decomposer d = decomposer;
    auto t = d(key);
    set_pad_fields(t, descending, std::make_integer_sequence<int, fields::count>{});
    memcpy(static_cast<void*>(&raw), static_cast<const void*>(&key), sizeof(Key));
    return raw;
  }
  template <class Tuple, int... I>
  __host__ __device__ static void set_pad_fields(Tuple& t, bool descending, std::integer_sequence<int, I...>) {
    (set_pad_field<I>(t, descending), ...);
  }
  template <int I, class Tuple>
  __host__ __device__ static void set_pad_field(Tuple& t, bool descending) {
    using F = typename fields::template field<I>;
    if constexpr (is_sortable_field<F>::value) {
      using tr = key_traits<F>;
      using fb = typename tr::bits_type;
      get<I>(t) = tr::from_bits(tr::from_ordered(descending ? fb(0) : fb(~fb(0))));
    }
  }

  /// The concatenated image of a key given by its raw bits: low 64 bits in `lo`, the rest in `hi`.
  __host__ __device__ static void image(const Decomposer& decomposer, const bits_type& raw, u64& lo, u64& hi) {
    Key key;
    memcpy(static_cast<void*>(&key), static_cast<const void*>(&raw), sizeof(Key));
    Decomposer d = decomposer;  // the call operator need not be const
    auto t = d(key);
    lo = 0;
    hi = 0;
    add_fields(t, lo, hi, std::make_integer_sequence<int, fields::count>{});
  }
};

/// A trivially copyable decomposer that need not be default constructible (a lambda's closure),
/// in a holder that is: kernel parameters are default-initialised, then assigned.
template <class Decomposer>
struct decomposer_holder {
  union {
    unsigned char none;
    Decomposer decomposer;
  };
  __host__ __device__ decomposer_holder() : none(0) {}
  // Every byte is set (an empty decomposer's one byte too), so copies never read indeterminate bytes.
  __host__ __device__ decomposer_holder(const Decomposer& d) : none(0) {
    ::new (static_cast<void*>(&decomposer)) Decomposer(d);
  }
};

}  // namespace detail

/// The order-preserving image of a key sorted through a decomposer: the concatenation of its
/// fields' images, first field most significant (`bits` = the fields' bits). `image_is_xor` is
/// false when a field is floating point: it only picks the tile shape (a policy's `float_key`),
/// as the decomposed digit extractor never folds the image into an XOR.
template <class Key, class Decomposer>
struct key_traits<detail::decomposed_key<Key, Decomposer>, void> {
  using decomposition = detail::decomposition<Key, Decomposer>;
  using bits_type = typename decomposition::bits_type;
  static constexpr int bits = decomposition::fields::bits;
  static constexpr bool image_is_xor = !decomposition::fields::any_float;
};

namespace detail {

/// One pass's digit of a decomposed key: bits `[shift, shift + width)` of its concatenated image,
/// complemented for a descending sort; a digit may straddle two fields. `image` (the upfront
/// histogram's) stores the whole image in the key's own storage, which always has room for it.
///
///     digit_extractor<decomposed_key<K, D>> digit_of(D{}, false, 60, 8);   // across two fields
template <class Key, class Decomposer>
struct digit_extractor<decomposed_key<Key, Decomposer>> {
  using decomposition = detail::decomposition<Key, Decomposer>;
  using bits_type = typename decomposition::bits_type;

  u64 flip = 0;  // all ones for a descending sort
  int shift = 0;
  u32 mask = 0;
  decomposer_holder<Decomposer> holder;
  bits_type pad{};  // the key whose every digit is `mask`, in either direction: it pads a partial tile

  digit_extractor() = default;
  __host__ __device__ digit_extractor(const Decomposer& d, bool descending, int shift_, int width)
      : flip(descending ? ~u64(0) : u64(0)),
        shift(shift_),
        mask((1u << width) - 1u),
        holder(d),
        pad(decomposition::pad(d, descending)) {}

  __host__ __device__ bits_type image(const bits_type& raw) const {
    u64 lo, hi;
    decomposition::image(holder.decomposer, raw, lo, hi);
    // Bits above the image are cleared, so that the compiler knows them (a 96-bit image in a
    // 16-byte key then holds three registers, not four, in the upfront histogram).
    constexpr int bits = decomposition::fields::bits;
    lo ^= flip;
    if constexpr (std::is_integral<bits_type>::value) {
      if constexpr (bits < 64) lo &= (u64(1) << bits) - 1;
      return bits_type(lo);
    } else {
      if constexpr (bits < 64) lo &= (u64(1) << bits) - 1;
      hi = bits <= 64 ? u64(0) : hi ^ flip;
      if constexpr (bits > 64 && bits < 128) hi &= (u64(1) << (bits - 64)) - 1;
      const u64 v[2] = {lo, hi};
      bits_type b;
      memcpy(static_cast<void*>(&b), static_cast<const void*>(v), sizeof(bits_type));
      return b;
    }
  }

  __host__ __device__ u32 operator()(const bits_type& raw) const {
    u64 lo, hi;
    decomposition::image(holder.decomposer, raw, lo, hi);
    // The descending complement of the digit's bits alone: one 32-bit XOR, not one per word.
    if constexpr (!decomposition::wide) {
      return (u32(lo >> shift) ^ u32(flip)) & mask;
    } else {
      const u64 d = shift >= 64 ? hi >> (shift - 64) : (lo >> shift) | ((hi << 1) << (63 - shift));
      return (u32(d) ^ u32(flip)) & mask;
    }
  }
};

/// A decomposed key's extractors carry its decomposer.
template <class Key, class Decomposer>
struct key_context<decomposed_key<Key, Decomposer>> {
  static constexpr bool custom_key = true;
  decomposer_holder<Decomposer> holder;

  key_context() = default;
  __host__ __device__ explicit key_context(const Decomposer& d) : holder(d) {}

  __host__ __device__ digit_extractor<decomposed_key<Key, Decomposer>> extractor(bool descending,
                                                                                 digit_window w) const {
    return digit_extractor<decomposed_key<Key, Decomposer>>(holder.decomposer, descending, w.shift, w.width);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
