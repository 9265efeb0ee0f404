// The classification of a segmented sort's segments, on the device, so that the host never reads an
// offset: where the segments are (offsets or rows of one length), its arguments, and what becomes of
// a segment that the first kernel (segment_classify_sort_kernel) does not sort at once (copied,
// or listed by class in segment_lists).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../agent/segment_lists.cuh"
#include "../detail/config.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The offset type an offsets iterator gives: its `it[i]` without reference or cv.
template <class It>
using offset_value_t =
    std::remove_cv_t<std::remove_reference_t<decltype(std::declval<const It&>()[std::ptrdiff_t(0)])>>;

/// An offsets iterator as the kernels hold it: a pointer as a pointer to const (`int*` and
/// `const int*` make one kernel), any other iterator as it is.
template <class It>
struct offset_source {
  using type = It;
};
template <class T>
struct offset_source<T*> {
  using type = const T*;
};

/// Whether the offsets are there: a null pointer is not; any other iterator is (nothing to check).
template <class T>
__host__ bool offsets_present(const T* p) {
  return p != nullptr;
}
template <class It>
__host__ bool offsets_present(const It&) {
  return true;
}

/// Offset `s` of `it`, read on the device only: a pointer's by a read-only load, any other
/// iterator's by its `operator[]`.
template <class T>
__device__ __forceinline__ T read_offset(const T* p, u64 s) {
  return load_global(p + s);
}
template <class It>
__device__ __forceinline__ offset_value_t<It> read_offset(const It& it, u64 s) {
  return it[std::ptrdiff_t(s)];
}

/// The segments of a sort given as the caller's offsets, any random-access iterators (pointers
/// included) over an integer type: segment s is `[begin_offsets[s], end_offsets[s])`. The
/// iterators travel by value in the kernels' parameters and are dereferenced there only.
template <class BeginOffsets, class EndOffsets>
struct segment_offsets {
  using begin_type = offset_value_t<BeginOffsets>;
  using end_type = offset_value_t<EndOffsets>;
  static_assert(std::is_integral<begin_type>::value && !std::is_same<begin_type, bool>::value &&
                    std::is_integral<end_type>::value && !std::is_same<end_type, bool>::value,
                "ringsweep: segment offsets must be an integer type other than bool (the iterators' value type)");
  // A byte copy is what a launch makes of its arguments: copy construction and destruction must be
  // trivial (assignment need not be: thrust's transform_iterator defines its own).
  static_assert(std::is_trivially_copy_constructible<BeginOffsets>::value &&
                    std::is_trivially_destructible<BeginOffsets>::value &&
                    std::is_trivially_copy_constructible<EndOffsets>::value &&
                    std::is_trivially_destructible<EndOffsets>::value,
                "ringsweep: segment offset iterators are copied as bytes into the kernels' parameters and must be "
                "trivially copyable (trivial copy constructor and destructor)");
  BeginOffsets begin_offsets;
  EndOffsets end_offsets;

  /// Whether the offsets are there for `segments` segments (the host's check; reads nothing).
  __host__ bool given(std::size_t segments) const {
    return segments == 0 || (offsets_present(begin_offsets) && offsets_present(end_offsets));
  }
  /// What the host knows of the sizes without reading an offset: nothing.
  __host__ segment_sizes sizes(u64 n) const { return segment_sizes{0, n}; }
  /// Segment `s` as `[begin, end)`: false when it is empty or does not lie within `[0, n)`.
  __device__ __forceinline__ bool bounds(u64 s, u64 n, u64& begin, u64& end) const {
    const begin_type b = read_offset(begin_offsets, s);
    const end_type e = read_offset(end_offsets, s);
    if constexpr (std::is_signed<begin_type>::value) {
      if (b < 0) return false;
    }
    if constexpr (std::is_signed<end_type>::value) {
      if (e < 0) return false;  // then e < 0 <= b: empty
    }
    begin = u64(b);
    end = u64(e);
    return begin < end && end <= n;
  }
};

/// The segment_offsets of the caller's iterators (pointers as pointers to const).
template <class BeginOffsets, class EndOffsets>
using segment_offsets_of =
    segment_offsets<typename offset_source<BeginOffsets>::type, typename offset_source<EndOffsets>::type>;

/// Rows of one length, no offset arrays: segment s is `[s * size, (s + 1) * size)`.
struct fixed_rows {
  u64 size;

  __host__ bool given(std::size_t) const { return true; }
  __host__ segment_sizes sizes(u64 n) const { return size <= n ? segment_sizes{size, size} : segment_sizes{0, 0}; }
  __device__ __forceinline__ bool bounds(u64 s, u64 n, u64& begin, u64& end) const {
    begin = s * size;
    end = begin + size;
    return size != 0 && end <= n;
  }
};

/// Arguments of the classification; `Segments`: segment_offsets or fixed_rows.
template <class Segments, class Bits, class ValueRaw>
struct segment_classify_params {
  Segments segments;
  u64 num_segments;
  u64 n;
  u32 tiny_keys;            // at most this many keys: a sub-warp's network, in the classifying launch
  u32 medium_keys;          // at most this many: a compact or medium block, listed from the front (0: none)
  u32 small_keys;           // at most this many: one block (the onesweep tile)
  u64 large_capacity;       // entries of lists.large
  u64 tiles_capacity;       // large tiles the later launches cover
  segment_lists lists;
  // Segments of one key are copied here (no sort kernel sees them).
  const Bits* keys_in;
  Bits* keys_out;
  const ValueRaw* values_in;  // null: keys only
  ValueRaw* values_out;
};

/// `x / d` for `x` below 2^48 and `d` of at most 2^16 (a segment's size over a tile), by three
/// 32-bit divisions: a 64-bit division is a subroutine call on the GPU, whose calling convention
/// made the kernels that inline it spill.
__device__ __forceinline__ u64 div_48_by_16(u64 x, u32 d) {
  u32 r = 0;
  u64 q = 0;
  for (int shift = 32; shift >= 0; shift -= 16) {  // three constant trips: unrolled
    const u32 part = r << 16 | u32(x >> shift & 0xffffu);  // r < d <= 2^16: fits
    q = q << 16 | (part / d);
    r = part % d;
  }
  return q;
}

/// What the classification does with segment `s` (`[begin, begin + size)`, not empty, within the
/// input) when no network sorts it where it is: one key is copied at once, up to `p.medium_keys`
/// is listed (compact or medium) from the front of the items, up to `p.small_keys` small from the
/// back, larger ones take a place in the large list and their tiles. Overlapping segments
/// (undefined) could make more large segments or tiles than the host's bounds: those are dropped,
/// so that nothing outside the temporary storage is written.
template <class Segments, class Bits, class ValueRaw, class Output>
__device__ __forceinline__ void classify_segment(const segment_classify_params<Segments, Bits, ValueRaw>& p,
                                                 const Output& out, u64 s, u64 begin, u64 size) {
  if (size == 1) {
    if constexpr (Output::TOP_K) {
      if (out.keys_out != nullptr) store_global(out.keys_out + out.slot(s), load_global(p.keys_in + begin));
      if (out.values_out != nullptr) store_global(out.values_out + out.slot(s), out.value(p.values_in, begin, 0));
    } else {
      store_global(p.keys_out + begin, load_global(p.keys_in + begin));
      if (p.values_in != nullptr) store_global(p.values_out + begin, load_global(p.values_in + begin));
    }
  } else if (size <= p.medium_keys) {  // the front: compact or medium
    const u32 i = atomicAdd(p.lists.front_count, 1u);
    store_global(p.lists.items + i, segment_item::make(begin, size));
    if constexpr (Output::TOP_K) store_global(out.item_segments + i, u32(s));
  } else if (size <= p.small_keys) {
    const u32 i = atomicAdd(p.lists.small_count, 1u);
    store_global(p.lists.items + (p.lists.capacity - 1 - i), segment_item::make(begin, size));
    if constexpr (Output::TOP_K) store_global(out.item_segments + (p.lists.capacity - 1 - i), u32(s));
  } else {
    const u64 tiles = div_48_by_16(size - 1, p.small_keys) + 1;  // size >= 2
    // One compare-and-swap claims the list entry and the tiles within both bounds.
    u64 w = 0;  // a guess: the first compare-and-swap returns the word
    for (;;) {
      if (large_count(w) >= p.large_capacity || large_tiles(w) + tiles > p.tiles_capacity) break;
      const u64 seen = atomicCAS(p.lists.large_word, w, w + (u64(1) << large_count_shift) + tiles);
      if (seen == w) break;
      w = seen;
    }
    if (large_count(w) >= p.large_capacity || large_tiles(w) + tiles > p.tiles_capacity) return;
    large_segment entry;
    entry.begin = begin;
    entry.size = size;
    entry.first_tile = large_tiles(w);
    p.lists.large[large_count(w)] = entry;
    // Its digit counts start at zero (the histogram adds to them): cleared here, for the segments
    // that exist, not by the host for every one that might.
    u64* counts = p.lists.large_counts + u64(large_count(w)) * p.lists.large_count_words;
    for (u32 i = 0; i < p.lists.large_count_words; ++i) store_global(counts + i, u64(0));
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
