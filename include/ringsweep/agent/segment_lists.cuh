// segment_lists: a segmented sort's segments by class, as the device lists them for the launches
// after the classification (which sorts the tiny ones itself): compact and medium ones (one block
// each, from the front), small ones (one block each, from the back) and large ones (onesweep tiles
// that many blocks share), and the map from a large tile to its segment.
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// What the host knows of a segmented call's segment sizes: every segment the sort sees holds
/// `lo` to `hi` keys (empty and dropped ones aside). Offsets say nothing (0 to n); rows of one
/// length say everything; `hi` 0: no segment holds a key. The dispatch launches no class whose
/// sizes lie above `hi`.
struct segment_sizes {
  u64 lo;
  u64 hi;
};

/// A segment of more than one tile: keys `[begin, begin + size)`, and the index of its first
/// tile among the large segments' tiles (the tiles of large segment j follow those of j - 1).
struct large_segment {
  u64 begin;
  u64 size;
  u64 first_tile;
};

/// A listed segment of at most 65536 keys as one word: `begin` in the low 48 bits, `size - 1` in the high 16
/// (sizes of 2 to 65536 keys; the dispatch keeps n below 2^48).
struct segment_item {
  static constexpr int begin_bits = 48;
  __host__ __device__ static constexpr u64 make(u64 begin, u64 size) { return begin | (size - 1) << begin_bits; }
  __host__ __device__ static constexpr u64 begin(u64 item) { return item & ((u64(1) << begin_bits) - 1); }
  __host__ __device__ static constexpr u32 size(u64 item) { return u32(item >> begin_bits) + 1u; }
};

/// The classes of a segmented sort, in its temporary storage. Compact and medium segments fill
/// `items` from the front, small ones from the back (together at most one per segment); large ones fill `large` in
/// the order of their first tiles, because one compare-and-swap of a 64-bit word hands out both
/// the list index (high bits of `large_word`) and the first tile (low bits).
///
///     // after the classification kernel:
///     const u64 w = *lists.large_word;
///     u32 count = large_count(w);  u64 tiles = large_tiles(w);
struct segment_lists {
  u64* items;             // num_segments words (segment_item)
  u64 capacity;           // num_segments
  u32* front_count;       // zeroed
  u32* small_count;       // zeroed
  u64* large_word;        // zeroed: large segments << large_count_shift | their tiles
  large_segment* large;   // at most `large_capacity` entries
  u64* large_counts;      // `large_count_words` digit counts per large segment, zeroed by whoever lists it
  u32 large_count_words;
};

/// Where a segmented sort writes the segments a warp or a block sorts (and those of one key):
/// `segment_in_place`, the sort's own (each segment to its own range of the result), or
/// `segment_first_k`, a batched top-k's (docs/design.md section 15). Large segments are not
/// affected. The kernels test `TOP_K` with `if constexpr`, so the sort's code is unchanged.
struct segment_in_place {
  static constexpr bool TOP_K = false;
  static constexpr bool POSITIONS = false;
};

/// The first `min(k, size)` sorted keys (and values) of segment s go to `keys_out + s * k` (and
/// `values_out + s * k`); the rest of its k slots are not written. The classification records
/// each list item's segment number in `item_segments` (one word per segment of the call).
/// `POSITIONS`: the values are the keys' input positions (made, not read: a top-k's indices).
template <class Bits, class ValueRaw, bool Positions>
struct segment_first_k {
  static constexpr bool TOP_K = true;
  static constexpr bool POSITIONS = Positions;
  Bits* keys_out;        // null: keys not written (indices only)
  ValueRaw* values_out;  // null: keys only
  u32* item_segments;    // segment_lists item i's segment number (front and back as above)
  u64 k;

  /// Slots of segment `s`'s first key and value.
  __device__ __forceinline__ u64 slot(u64 s) const { return s * k; }
  /// How many of a segment of `size` keys are written.
  __device__ __forceinline__ int take(u64 size) const { return int(min_of<u64>(k, size)); }
  /// The value of the key at `values[at]`, whose input position is `first + at` (`values`: the
  /// sort's value input, or a piece of it starting at input position `first`).
  __device__ __forceinline__ ValueRaw value(const ValueRaw* values, u64 at, u64 first) const {
    if constexpr (Positions) {
      return index_value<ValueRaw>(first + at);
    } else {
      return load_global(values + at);
    }
  }
};

/// How a batched top-k splits a long row among blocks (docs/design.md section 15): into
/// `parts(size)` parts of at least `part_min` keys each (the host makes `part_min >= k`), at most
/// `max_parts` (the host makes `max_parts * k` at most one sort tile, so that a row's candidates
/// fit one block's sort). Part c of a row begins `first(size, c)` keys into it, and its block
/// writes its `min(k, part)` candidates from slot `c * k` of the row's range on: the candidates
/// of a split row are `parts * k` keys, in part order, each part's grouped by level and in input
/// order within a group, so equal keys stay in input order.
struct top_k_row_parts {
  u64 part_min = 1;
  u64 max_parts = 1;
  __host__ __device__ __forceinline__ u64 parts(u64 size) const {
    const u64 fit = size / part_min;
    return fit < 1 ? 1 : (fit < max_parts ? fit : max_parts);
  }
  /// The first key of part `c` of `parts` (sizes differ by at most one, the longer ones first).
  __host__ __device__ __forceinline__ static u64 first(u64 size, u64 parts, u64 c) {
    const u64 q = size / parts, r = size % parts;
    return c * q + (c < r ? c : r);
  }
  /// The candidates a row of `size` keys leaves for the final sort.
  __host__ __device__ __forceinline__ u64 candidates(u64 size, u64 k) const {
    const u64 p = parts(size);
    return p > 1 ? p * k : (k < size ? k : size);
  }
};

/// A batched top-k's rows by size (docs/design.md section 15), over `Rows` (segment_offsets or
/// fixed_rows): `top_k_short_rows` are the rows of at most `large_above` keys (a warp or a block
/// sorts them), `top_k_candidate_rows` the candidates the per-row select leaves at the start of
/// each longer row (top_k_row_parts::candidates). Either is empty for the other rows.
template <class Rows>
struct top_k_short_rows {
  Rows rows;
  u64 large_above;
  __host__ bool given(std::size_t segments) const { return rows.given(segments); }
  __host__ segment_sizes sizes(u64 n) const {
    const segment_sizes r = rows.sizes(n);
    if (r.lo > large_above) return segment_sizes{0, 0};
    return segment_sizes{r.lo, r.hi < large_above ? r.hi : large_above};
  }
  __device__ __forceinline__ bool bounds(u64 s, u64 n, u64& begin, u64& end) const {
    return rows.bounds(s, n, begin, end) && end - begin <= large_above;
  }
};
template <class Rows>
struct top_k_candidate_rows {
  Rows rows;
  u64 large_above;
  u64 k;
  top_k_row_parts split;
  __host__ bool given(std::size_t segments) const { return rows.given(segments); }
  __host__ segment_sizes sizes(u64 n) const {
    const segment_sizes r = rows.sizes(n);
    if (r.hi <= large_above) return segment_sizes{0, 0};
    return segment_sizes{split.candidates(r.lo > large_above ? r.lo : large_above + 1, k), split.candidates(r.hi, k)};
  }
  __device__ __forceinline__ bool bounds(u64 s, u64 n, u64& begin, u64& end) const {
    if (!rows.bounds(s, n, begin, end) || end - begin <= large_above) return false;
    end = begin + split.candidates(end - begin, k);
    return true;
  }
};

constexpr int large_count_shift = 40;
__host__ __device__ constexpr u32 large_count(u64 word) { return u32(word >> large_count_shift); }
__host__ __device__ constexpr u64 large_tiles(u64 word) { return word & ((u64(1) << large_count_shift) - 1); }

/// Where large tile `g` lies: its segment's list index, its first key and its key count. False
/// when `g` is past the last large tile. A binary search over the list's first tiles (by one
/// thread; the list is short next to the tiles it maps).
///
///     u32 j; u64 first; int valid;
///     if (find_large_tile(lists.large, *lists.large_word, g, TILE, j, first, valid)) { ... }
__device__ __forceinline__ bool find_large_tile(const large_segment* large, u64 word, u64 g, int tile, u32& segment,
                                                u64& first, int& valid) {
  if (g >= large_tiles(word)) return false;
  u32 lo = 0, hi = large_count(word) - 1;  // the answer is in [lo, hi]
  while (lo < hi) {
    const u32 mid = (lo + hi + 1) / 2;
    if (large[mid].first_tile <= g) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const large_segment s = large[lo];
  const u64 at = (g - s.first_tile) * u64(tile);
  segment = lo;
  first = s.begin + at;
  valid = int(min_of<u64>(u64(tile), s.size - at));
  return true;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
