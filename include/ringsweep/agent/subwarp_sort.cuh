// subwarp_sort: a tiny segment sorted in registers by the fewest lanes that hold it, with a
// bitonic network on each key's place in the sort's order (the ordered image's bits of the window,
// in the sort's direction) and its position as the tie-break: stable, no loop whose trip count
// grows with the square of the segment's size.
#pragma once

#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "kernel_arrays.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A key's place in a network sort: its window bits `w` (the sort's order: ascending in `w`) and
/// its position in the segment (the tie-break, so the sort is stable). Images of at most 32 bits
/// pack both into one 64-bit word (one unsigned comparison); wider ones (up to 64 bits) keep them
/// apart. Positions are distinct within a segment, so two items never compare equal.
template <bool PACKED>
struct network_item;

template <>
struct network_item<true> {
  u64 v;  // w << 32 | position
  __device__ __forceinline__ static network_item make(u64 w, u32 pos) { return {w << 32 | pos}; }
  __device__ __forceinline__ u32 pos() const { return u32(v); }
  __device__ __forceinline__ static bool less(const network_item& a, const network_item& b) { return a.v < b.v; }
  __device__ __forceinline__ network_item shfl_xor(u32 lanes) const {
    return {__shfl_xor_sync(0xffffffffu, v, int(lanes))};
  }
};

template <>
struct network_item<false> {
  u64 w;
  u32 p;
  __device__ __forceinline__ static network_item make(u64 w, u32 pos) { return {w, pos}; }
  __device__ __forceinline__ u32 pos() const { return p; }
  __device__ __forceinline__ static bool less(const network_item& a, const network_item& b) {
    return a.w < b.w || (a.w == b.w && a.p < b.p);
  }
  __device__ __forceinline__ network_item shfl_xor(u32 lanes) const {
    return {__shfl_xor_sync(0xffffffffu, w, int(lanes)), __shfl_xor_sync(0xffffffffu, p, int(lanes))};
  }
};

/// Sorts tiny segments, one per sub-warp of `lanes` lanes (a power of two, 1 to 32), each lane
/// holding ITEMS keys: segments of up to `lanes * ITEMS` keys, `32 / lanes` of them per warp at
/// once. Keys are loaded striped (coalesced) into the warp's shared buffer, read back blocked
/// (lane j of a sub-warp holds positions `j * ITEMS ...`), sorted by a bitonic network whose steps
/// within a lane are unrolled and whose steps across lanes are shuffles, then written striped by
/// their sorted positions, keys and values alike from the shared buffer (loaded with the keys,
/// coalesced; a sort in place reads nothing it has written).
///
/// `SUPPORTED`: images of at most 64 bits (wider custom keys take warp_segment_sort).
///
///     __shared__ typename subwarp_sort<Config>::TempStorage temp[WARPS];
///     subwarp_sort<Config> net(temp[warp], params);
///     net.sort(&queue[k], lanes, segment_in_place{}, nullptr);   // every lane; queue[k] == 0: idle
template <class Config>
class subwarp_sort {
 public:
  using Key = typename Config::key_type;
  using ValueRaw = typename Config::value_raw_t;
  using bits_type = typename Config::bits_type;
  using traits = key_traits<Key>;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int KEY_BITS = traits::bits;
  static constexpr bool SUPPORTED = KEY_BITS <= 64;
  static constexpr bool PACKED = KEY_BITS <= 32;
  /// Keys per lane: 16 for images of at most 32 bits (one 64-bit word each), 8 above.
  static constexpr int ITEMS = PACKED ? 16 : 8;
  /// The largest segment: a whole warp's keys.
  static constexpr int MAX_KEYS = warp_threads * ITEMS;
  using item_t = network_item<PACKED>;

  /// Shared-memory slot of warp position `a`: one word of padding per ITEMS, so that the blocked
  /// reads (lane l reads `l * ITEMS + r`) fall in distinct banks.
  __host__ __device__ static constexpr int slot(int a) { return a + a / ITEMS; }
  static constexpr int SLOTS = slot(MAX_KEYS);

  struct TempStorage {
    bits_type keys[SLOTS];                     // the raw keys, in input order
    u32 order[SLOTS];                          // the sorted positions
    ValueRaw values[HAS_VALUES ? SLOTS : 1];  // the values, in input order
  };

  /// The lanes a segment of `size` keys (at most MAX_KEYS) takes: a power of two.
  __host__ __device__ static int lanes_for(u32 size) {
    int lanes = 1;
    while (u32(lanes * ITEMS) < size) lanes *= 2;
    return lanes;
  }

  __device__ __forceinline__ subwarp_sort(TempStorage& temp, const sort_arrays<Key, ValueRaw>& p) : temp_(temp), p_(p) {}

  /// Every lane of the warp calls it with the same `lanes`; each sub-warp passes its own segment
  /// as a segment_item word in shared memory (`*item` 0: the sub-warp has none and writes
  /// nothing), read again for the stores rather than held through the network. `out`: in place
  /// (segment_in_place) or the first `out.take(size)` keys and values to the slots of segment
  /// `*segment` (segment_first_k; `segment` unused otherwise).
  template <class Output>
  __device__ __forceinline__ void sort(const u64* item, int lanes, const Output& out, const u32* segment) {
    const int lane = int(lane_id());
    const int j = lane & (lanes - 1);         // lane within the sub-warp
    const int base = (lane - j) * ITEMS;      // the sub-warp's first position in the warp's buffer
    // sass: net_load
    u64 begin = 0;
    u32 size = 0;
    read_item(item, begin, size);
    __syncwarp();                             // the buffer's previous use is over
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; ++r) {
      const int t = r * lanes + j;
      if (u32(t) < size) temp_.keys[slot(base + t)] = load_global(p_.keys_in + (begin + u64(t)));
    }
    if constexpr (HAS_VALUES && !Output::POSITIONS) {
      // sass: net_values
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS; ++r) {
        const int t = r * lanes + j;
        if (u32(t) < size) temp_.values[slot(base + t)] = load_global(p_.values_in + (begin + u64(t)));
      }
      // sass: net_load
    }
    __syncwarp();

    // Each key's place: bits [begin_bit, end_bit) of its ordered image in the sort's direction.
    item_t x[ITEMS];
    const word_maker make_word(p_);
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; ++r) {
      const u32 t = u32(j * ITEMS + r);
      const u64 w = t < size ? make_word(temp_.keys[slot(lane * ITEMS + r)]) : ~u64(0);
      x[r] = item_t::make(w, t);  // a missing key: above every real one of its segment
    }

    // sass: net_within
    // Stages within a lane: each lane's ITEMS keys in order.
RINGSWEEP_UNROLL
    for (int k = 2; k <= ITEMS; k *= 2) {
      flip_within(x, k);
      clean_within(x, k / 4);
    }
    // sass: net_flip
    // Stages across lanes: runs of k = kl * ITEMS keys.
    for (int kl = 2; kl <= lanes; kl *= 2) {
      const bool lower = (j & (kl / 2)) == 0;
      // The flip: key i against key i ^ (k - 1), in lane j ^ (kl - 1) at register ITEMS - 1 - r.
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS / 2; ++r) {
        const item_t a = x[ITEMS - 1 - r].shfl_xor(u32(kl - 1));
        const item_t b = x[r].shfl_xor(u32(kl - 1));
        x[r] = keep(x[r], a, lower);
        x[ITEMS - 1 - r] = keep(x[ITEMS - 1 - r], b, lower);
      }
      // sass: net_across
      for (int dl = kl / 4; dl >= 1; dl /= 2) {
        const bool low = (j & dl) == 0;
RINGSWEEP_UNROLL
        for (int r = 0; r < ITEMS; ++r) x[r] = keep(x[r], x[r].shfl_xor(u32(dl)), low);
      }
      // sass: net_clean
      clean_within(x, ITEMS / 2);
    }

    // sass: net_keys
    // Sorted positions to the buffer, then written striped.
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; ++r) temp_.order[slot(lane * ITEMS + r)] = x[r].pos();
    __syncwarp();
    read_item(item, begin, size);
    // The stores' addresses made here, not kept in registers through the network (opaque: the
    // compiler cannot hoist what depends on it).
    const int lanes_after = opaque(lanes);
    const int j_after = lane & (lanes_after - 1);
    // sass: end
    store_sorted(begin, size, (lane - j_after) * ITEMS, lanes_after, j_after, out, segment);
  }

 private:
  template <class Output>
  __device__ __forceinline__ void store_sorted(u64 begin, u32 size, int base, int lanes, int j, const Output& out,
                                               const u32* segment) {
    // sass: net_keys
    if constexpr (Output::TOP_K) {
      const u32 take = u32(out.take(u64(size)));
      const u64 at = out.slot(u64(*segment));
      if (out.keys_out != nullptr) write_keys(out.keys_out + at, base, lanes, j, take);
      // sass: net_values
      if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
        for (int r = 0; r < ITEMS; ++r) {
          const int t = r * lanes + j;
          if (u32(t) < take) {
            const u32 from = temp_.order[slot(base + t)];
            ValueRaw v;
            if constexpr (Output::POSITIONS) {
              v = index_value<ValueRaw>(begin + from);
            } else {
              v = temp_.values[slot(base + int(from))];
            }
            store_global(out.values_out + (at + u64(t)), v);
          }
        }
      }
    } else {
      (void)out;
      (void)segment;
      // sass: net_keys
      write_keys(p_.keys_out + begin, base, lanes, j, size);
      // sass: net_values
      if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
        for (int r = 0; r < ITEMS; ++r) {
          const int t = r * lanes + j;
          if (u32(t) < size) {
            store_global(p_.values_out + (begin + u64(t)), temp_.values[slot(base + int(temp_.order[slot(base + t)]))]);
          }
        }
      }
    }
  }
  // sass: end

  /// A segment_item word's segment, `size` 0 for none.
  __device__ __forceinline__ static void read_item(const u64* item, u64& begin, u32& size) {
    const u64 w = *item;
    begin = segment_item::begin(w);
    size = w != 0 ? segment_item::size(w) : 0u;
  }

  /// A key's window bits as an unsigned integer, ascending in the sort's order: one shift and
  /// mask of the ordered image for built-in keys; custom keys concatenate their passes' digits.
  struct word_maker {
    const sort_arrays<Key, ValueRaw>& p;
    u64 mask;
    __device__ __forceinline__ explicit word_maker(const sort_arrays<Key, ValueRaw>& p_) : p(p_) {
      const int width = p.window.end_bit - p.window.begin_bit;
      mask = width >= 64 ? ~u64(0) : (u64(1) << width) - 1u;
    }
    __device__ __forceinline__ u64 operator()(const bits_type& raw) const {
      if constexpr (!key_context<Key>::custom_key) {
        const digit_extractor<Key> e = p.window.image(p);
        return (u64(e.image(raw)) >> p.window.begin_bit) & mask;
      } else {
        u64 w = 0;
        for (int pass = 0; pass < p.window.passes; ++pass) {
          const auto digit_of = p.window.template extractor<Config::RADIX_BITS>(p, pass);
          w |= u64(digit_of(raw)) << (pass * Config::RADIX_BITS);
        }
        return w;
      }
    }
  };

  /// `x` or `y`, whichever belongs here: the smaller in the lower lane of a pair, else the larger.
  __device__ __forceinline__ static item_t keep(const item_t& x, const item_t& y, bool lower) {
    return item_t::less(x, y) != lower ? y : x;
  }
  /// The smaller of a pair to `a`, the larger to `b`.
  __device__ __forceinline__ static void exchange(item_t& a, item_t& b) {
    const bool swap = item_t::less(b, a);
    const item_t lo = swap ? b : a;
    b = swap ? a : b;
    a = lo;
  }
  /// A stage's first step within a lane: register r against r ^ (k - 1).
  __device__ __forceinline__ static void flip_within(item_t (&x)[ITEMS], int k) {
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; ++r) {
      const int q = r ^ (k - 1);  // in r's run of k registers
      if (r < q) exchange(x[r], x[q]);
    }
  }
  /// Half-cleaners within a lane, distances `d`, d / 2, ..., 1.
  __device__ __forceinline__ static void clean_within(item_t (&x)[ITEMS], int d0) {
RINGSWEEP_UNROLL
    for (int d = ITEMS / 2; d >= 1; d /= 2) {
      if (d > d0) continue;
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS; ++r) {
        if ((r & d) == 0) exchange(x[r], x[r + d]);
      }
    }
  }
  /// The first `count` sorted keys, striped over the sub-warp, to `dst` (from the raw keys).
  __device__ __forceinline__ void write_keys(bits_type* dst, int base, int lanes, int j, u32 count) const {
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; ++r) {
      const int t = r * lanes + j;
      if (u32(t) < count) store_global(dst + t, temp_.keys[slot(base + int(temp_.order[slot(base + t)]))]);
    }
  }

  TempStorage& temp_;
  const sort_arrays<Key, ValueRaw>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
