// subwarp_sort: a tiny segment sorted in registers by the fewest lanes that hold it, with a
// bitonic network on each key's place in the sort's order (the ordered image's bits of the window,
// in the sort's direction) and its position as the tie-break: stable, no loop whose trip count
// grows with the square of the segment's size.
#pragma once

#include <type_traits>
#include <utility>

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "kernel_arrays.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A key's window bits as the network compares them, for images wider than 64 bits (custom
/// keys of up to 128 bits): the high word first.
struct wide_bits {
  u64 hi, lo;
};

/// How a network item holds a key's place: `packed` (images of at most 32 bits: window bits and
/// position in one 64-bit word), `word` (at most 64 bits) or `wide` (up to 128: two words).
enum class item_form { packed, word, wide };

template <int KEY_BITS>
__host__ __device__ constexpr item_form item_form_of() {
  return KEY_BITS <= 32 ? item_form::packed : KEY_BITS <= 64 ? item_form::word : item_form::wide;
}

/// A key's place in a network sort: its window bits `w` (the sort's order: ascending in `w`) and
/// its position in the segment (the tie-break, so the sort is stable), held as `FORM` says.
/// Positions are distinct within a segment, so two items never compare equal. `last(pos)`: an
/// item above every key's (a missing key).
template <item_form FORM>
struct network_item;

template <>
struct network_item<item_form::packed> {
  u64 v;  // w << 32 | position
  __device__ __forceinline__ static network_item make(u64 w, u32 pos) { return {w << 32 | pos}; }
  __device__ __forceinline__ static network_item last(u32 pos) { return make(~u64(0), pos); }
  __device__ __forceinline__ u32 pos() const { return u32(v); }
  __device__ __forceinline__ static bool less(const network_item& a, const network_item& b) { return a.v < b.v; }
  /// The smaller to `a`, the larger to `b`: one comparison, one select (the larger is what the
  /// smaller is not, by XOR: a min and a max pattern would each compare on their own).
  __device__ __forceinline__ static void exchange(network_item& a, network_item& b) {
    const u64 lo = b.v < a.v ? b.v : a.v;
    b.v = a.v ^ b.v ^ lo;
    a.v = lo;
  }
  __device__ __forceinline__ network_item shfl_xor(u32 lanes) const {
    return {__shfl_xor_sync(0xffffffffu, v, int(lanes))};
  }
};

template <>
struct network_item<item_form::word> {
  u64 w;
  u32 p;
  __device__ __forceinline__ static network_item make(u64 w, u32 pos) { return {w, pos}; }
  __device__ __forceinline__ static network_item last(u32 pos) { return make(~u64(0), pos); }
  __device__ __forceinline__ u32 pos() const { return p; }
  __device__ __forceinline__ static bool less(const network_item& a, const network_item& b) {
    return a.w < b.w || (a.w == b.w && a.p < b.p);
  }
  __device__ __forceinline__ static void exchange(network_item& a, network_item& b) {
    const bool swap = less(b, a);
    const u64 w = swap ? b.w : a.w;
    const u32 p = swap ? b.p : a.p;
    b.w = a.w ^ b.w ^ w;
    b.p = a.p ^ b.p ^ p;
    a.w = w;
    a.p = p;
  }
  __device__ __forceinline__ network_item shfl_xor(u32 lanes) const {
    return {__shfl_xor_sync(0xffffffffu, w, int(lanes)), __shfl_xor_sync(0xffffffffu, p, int(lanes))};
  }
};

template <>
struct network_item<item_form::wide> {
  u64 hi, lo;
  u32 p;
  __device__ __forceinline__ static network_item make(const wide_bits& w, u32 pos) { return {w.hi, w.lo, pos}; }
  __device__ __forceinline__ static network_item last(u32 pos) { return {~u64(0), ~u64(0), pos}; }
  __device__ __forceinline__ u32 pos() const { return p; }
  __device__ __forceinline__ static bool less(const network_item& a, const network_item& b) {
    return a.hi < b.hi || (a.hi == b.hi && (a.lo < b.lo || (a.lo == b.lo && a.p < b.p)));
  }
  __device__ __forceinline__ static void exchange(network_item& a, network_item& b) {
    const bool swap = less(b, a);
    const u64 hi = swap ? b.hi : a.hi;
    const u64 lo = swap ? b.lo : a.lo;
    const u32 p = swap ? b.p : a.p;
    b.hi = a.hi ^ b.hi ^ hi;
    b.lo = a.lo ^ b.lo ^ lo;
    b.p = a.p ^ b.p ^ p;
    a.hi = hi;
    a.lo = lo;
    a.p = p;
  }
  __device__ __forceinline__ network_item shfl_xor(u32 lanes) const {
    return {__shfl_xor_sync(0xffffffffu, hi, int(lanes)), __shfl_xor_sync(0xffffffffu, lo, int(lanes)),
            __shfl_xor_sync(0xffffffffu, p, int(lanes))};
  }
};

/// Batcher's odd-even merge sorting network on N (a power of two) registers, as a compile-time
/// list of exchanges (`pair(c)`: the c-th, smaller index first), in the order of the usual
/// iteration: merges of runs of p = 1, 2, 4 ... keys, each by exchanges at distances p, p / 2 ... 1.
struct wire_pair {
  int first, second;
};

template <int N>
struct odd_even_merge {
  template <class F>
  __host__ __device__ static constexpr int walk(F&& f) {
    int c = 0;
    for (int p = 1; p < N; p *= 2) {
      for (int k = p; k >= 1; k /= 2) {
        for (int j = k % p; j + k < N; j += 2 * k) {
          for (int i = 0; i < k && i + j + k < N; ++i) {
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) f(c++, i + j, i + j + k);
          }
        }
      }
    }
    return c;
  }
  struct counter {
    __host__ __device__ constexpr void operator()(int, int, int) const {}
  };
  static constexpr int COUNT = walk(counter{});
  struct finder {
    int want;
    wire_pair* found;
    __host__ __device__ constexpr void operator()(int c, int a, int b) const {
      if (c == want) *found = wire_pair{a, b};
    }
  };
  __host__ __device__ static constexpr wire_pair pair(int c) {
    wire_pair found{0, 0};
    walk(finder{c, &found});
    return found;
  }
};

/// A tiny segment waiting for a sub-warp, in shared memory: its segment_item word (0: none) and
/// its number (a top-k's output slots). The network reads both through one pointer, before and
/// again after the network, so that neither is held in a register through it.
struct queued_segment {
  u64 item;
  u64 segment;
};

/// Keys per lane of subwarp_sort's full variant for keys of `Key`: 16 for images of at most 32 bits
/// (one 64-bit word each with its tie-break), 8 up to 64 bits, 4 above (five registers an item).
template <class Key>
__host__ __device__ constexpr int subwarp_lane_items() {
  return key_traits<Key>::bits <= 32 ? 16 : key_traits<Key>::bits <= 64 ? 8 : 4;
}

/// A warp's buffers of subwarp_sort (both variants): its keys, their order and values.
template <class Config>
struct subwarp_storage {
  static constexpr int KEYS = warp_threads * subwarp_lane_items<typename Config::key_type>();
  typename Config::bits_type keys[KEYS];                                // the raw keys, in input order
  alignas(16) u32 order[KEYS];                                          // their byte offsets (key_at), in rank order
  typename Config::value_raw_t values[Config::HAS_VALUES ? KEYS : 1];  // the values, in input order
};

/// Sorts tiny segments, one per sub-warp of `lanes` lanes (a power of two, 1 to 32), each lane
/// holding ITEMS keys: segments of up to `lanes * ITEMS` keys, `32 / lanes` of them per warp at
/// once. A sub-warp loads its segment striped (coalesced) straight into items (lane j: positions
/// j, j + lanes, ...; the raw keys and values also to the warp's shared buffer), each lane sorts
/// its items by an odd-even merge network in its registers, then the bitonic stages across lanes
/// run as shuffles; lane j then holds ranks `j * ITEMS ...`, whose keys' buffer offsets go to the
/// buffer's order array, and the sub-warp writes each rank's key and value from the buffer,
/// striped (a sort in place reads nothing it has written).
///
///
///     __shared__ typename subwarp_sort<Config>::TempStorage temp[WARPS];
///     subwarp_sort<Config> net(temp, warp, params);
///     net.sort(&queue[k], lanes, segment_in_place{});   // every lane; queue[k].item == 0: idle
///
/// `ONE_LANE_ITEMS` (half the lane's keys, or 0): the variant for the smallest segments, of at
/// most that many keys, one per lane (32 at once), sorted by the smaller network of that many
/// items (19 exchanges for 8 where 16 items take 63, 5 for 4); it shares the buffers' layout
/// (TempStorage) with the full variant.
template <class Config, int ONE_LANE_ITEMS = 0>
class subwarp_sort {
 public:
  using Key = typename Config::key_type;
  using ValueRaw = typename Config::value_raw_t;
  using bits_type = typename Config::bits_type;
  using traits = key_traits<Key>;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int KEY_BITS = traits::bits;
  static_assert(KEY_BITS <= 128, "images of at most 128 bits (decomposed keys' limit)");
  static constexpr item_form FORM = item_form_of<KEY_BITS>();
  static constexpr bool PACKED = FORM == item_form::packed;
  /// Keys per lane of the full variant (subwarp_lane_items).
  static constexpr int LANE_ITEMS = subwarp_lane_items<Key>();
  /// Half of them: the one-lane variant's.
  static constexpr int SMALL_ITEMS = LANE_ITEMS / 2;
  static_assert(ONE_LANE_ITEMS == 0 || ONE_LANE_ITEMS == SMALL_ITEMS, "the one-lane variant holds half a lane's keys");
  static constexpr bool ONE_LANE = ONE_LANE_ITEMS != 0;
  /// The one-lane variant with values of another size than the key's: their copy to the buffer
  /// waits until after the network (each lane its own segment's, in input order), then each rank's
  /// is read from the slot its item carried. Copied before the network, as the keys are, they
  /// spilled the classification kernel at its 64 registers.
  static constexpr bool LATE_VALUES = ONE_LANE && HAS_VALUES && sizeof(ValueRaw) != sizeof(bits_type);
  /// Whether a kernel of 64 registers holds the one-lane variant beside the full one: not for keys
  /// of at most 32 bits with 16-byte values (u8 and u16 keys spilled 4-20 bytes with it).
  static constexpr bool ONE_LANE_FITS = !(PACKED && HAS_VALUES && sizeof(ValueRaw) > 8);
  /// Keys per lane of this variant.
  static constexpr int ITEMS = ONE_LANE ? ONE_LANE_ITEMS : LANE_ITEMS;
  /// The largest segment: a whole warp's keys (the full variant).
  static constexpr int MAX_KEYS = warp_threads * LANE_ITEMS;
  using item_t = network_item<FORM>;
  /// Ranks a lane writes to the order array in one store (4: 16 bytes; 2 where the one-lane
  /// variant holds 2 keys).
  static constexpr int ORDER_STORE = ITEMS < 4 ? ITEMS : 4;

  using TempStorage = subwarp_storage<Config>;
  static_assert(TempStorage::KEYS == MAX_KEYS, "one warp's keys");

  /// The lanes a segment of `size` keys (at most MAX_KEYS) takes in the full variant: a power of two.
  __host__ __device__ static int lanes_for(u32 size) {
    int lanes = 1;
    while (u32(lanes * LANE_ITEMS) < size) lanes *= 2;
    return lanes;
  }

  /// `temps`: the block's buffers, one a warp; this warp's is `temps[warp]`. Slots are named by
  /// their byte offsets from `temps[0]` (an item carries its key's: the tie-break and the address
  /// at once). The two variants take the same buffers.
  __device__ __forceinline__ subwarp_sort(TempStorage* temps, int warp, const sort_arrays<Key, ValueRaw>& p)
      : temps_(temps), temp_(temps[warp]), warp_offset_(u32(warp) * u32(sizeof(TempStorage))), p_(p) {}

  /// Every lane of the warp calls it with the same `lanes`; each sub-warp passes its own segment
  /// in shared memory (`q->item` 0: the sub-warp has none and writes nothing), read again for the
  /// stores rather than held through the network. `out`: in place (segment_in_place) or the first
  /// `out.take(size)` keys and values to the slots of segment `q->segment` (segment_first_k).
  template <class Output>
  __device__ __forceinline__ void sort(const queued_segment* q, int lanes_in, const Output& out) {
    const int lanes = ONE_LANE ? 1 : lanes_in;  // the one-lane variant: known here
    const int lane = int(lane_id());
    const int j = lane & (lanes - 1);         // lane within the sub-warp
    // sass: net_load
    u64 begin = 0;
    u32 size = 0;
    read_item(q, begin, size);
    const int shift = __ffs(lanes) - 1;  // log2(lanes)
    const int sub = (lane - j) * ITEMS;  // the sub-warp's first slot of `keys` and `values`
    __syncwarp();                        // the buffer's previous use is over
    // Loaded striped (lane j reads positions j, j + lanes, ...: coalesced) straight into the
    // network's registers: item r of lane j is position r * lanes + j, whose place (bits
    // [begin_bit, end_bit) of the key's ordered image in the sort's direction) comes with its
    // buffer slot's offset (rising with the position) as the tie-break. A network sorts whatever
    // its lanes hold, so no transpose comes first. The raw keys (and values) go to the warp's
    // buffer in input order, unpadded (a striped row falls in distinct banks), for the stores to
    // fetch by offset.
    item_t x[ITEMS];
    {
      const maker_t make_word(p_);
      const int striped = striped_count(size, j, shift);
      const bits_type* keys_in = p_.keys_in + (begin + u32(j));
      // Item r's key: slot sub + j + r * lanes, at byte offset `first + r * stride`, its tie-break.
      const u32 first = warp_offset_ + u32(sub + j) * u32(sizeof(bits_type));
      const u32 stride = opaque(u32(lanes) * u32(sizeof(bits_type)));  // one multiply-add an item
      if constexpr (HAS_VALUES && !Output::POSITIONS && !LATE_VALUES) {
        // sass: net_values
        // The values first: to the buffer before the keys take their registers.
        const ValueRaw* values_in = p_.values_in + (begin + u32(j));
        each_item(striped, [&](int r) { value_at(first + u32(r) * stride) = load_global(values_in + r * lanes); });
        // sass: net_load
      }
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS; ++r) x[r] = item_t::last(first + u32(r) * stride);  // missing: last
      each_item(striped, [&](int r) {
        const bits_type k = load_global(keys_in + r * lanes);
        key_at(first + u32(r) * stride) = k;
        x[r] = item_t::make(make_word(k), first + u32(r) * stride);
      });
    }

    // sass: net_within
    // Each lane's ITEMS keys in order: Batcher's odd-even merge network (63 exchanges for 16
    // keys, 19 for 8, where the bitonic stages take 80 and 24).
    sort_within(x, std::make_integer_sequence<int, odd_even_merge<ITEMS>::COUNT>{});
    // sass: net_flip
    // Stages across lanes: runs of k = kl * ITEMS keys (the bound opaque: derived from the loads'
    // shift instead, it was held through the network and spilled). None in the one-lane variant.
    const int stages_to = ONE_LANE ? 1 : opaque(lanes);
    const int jn = opaque(lane) & (stages_to - 1);  // j, made again (not held through the loads)
    for (int kl = 2; kl <= stages_to; kl *= 2) {
      const bool lower = (jn & (kl / 2)) == 0;
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
        const bool low = (jn & dl) == 0;
RINGSWEEP_UNROLL
        for (int r = 0; r < ITEMS; ++r) x[r] = keep(x[r], x[r].shfl_xor(u32(dl)), low);
      }
      // sass: net_clean
      clean_within(x, ITEMS / 2);
    }

    // sass: net_keys
    // Lane j holds ranks j * ITEMS ...: their keys' offsets go to the buffer's order array, and
    // once every lane has written, each lane reads ranks j, j + lanes, ... back from it, fetches
    // their keys (and values) by offset and stores them striped (coalesced), like the loads.
    read_item(q, begin, size);
    // Made again here, not held through the network (opaque: the compiler cannot reuse them).
    const int lanes_after = ONE_LANE ? 1 : opaque(lanes);
    const int shift_after = __ffs(lanes_after) - 1;
    const int j_after = lane & (lanes_after - 1);
    const int sub_after = (lane - j_after) * ITEMS;  // the sub-warp's first rank and first slot
    u32 count = size;
    u64 at = begin;
    bits_type* keys_out = p_.keys_out;
    ValueRaw* values_out = p_.values_out;
    if constexpr (Output::TOP_K) {
      count = u32(out.take(u64(size)));
      // A sub-warp without a segment (size 0) may find anything in q->segment: no slot of it,
      // not even as an address that is never stored to.
      at = count != 0 ? out.slot(q->segment) : 0;
      keys_out = out.keys_out;  // null: indices only
      values_out = out.values_out;
    }
    // Lane j's ranks to the order array, four to a 16-byte store (ORDER_STORE): 4 instructions
    // where 16 were, and the reads below need no padding, but within a quarter-warp lanes l and
    // l + 2 share banks (a 4-way conflict: four times the shared wavefronts of 4-byte stores to a
    // padded array; no GPU has timed the difference).
    struct alignas(4 * ORDER_STORE) ranks_store {
      u32 w[ORDER_STORE];
    };
RINGSWEEP_UNROLL
    for (int r = 0; r < ITEMS; r += ORDER_STORE) {
      ranks_store w;
RINGSWEEP_UNROLL
      for (int i = 0; i < ORDER_STORE; ++i) w.w[i] = x[r + i].pos();
      *reinterpret_cast<ranks_store*>(&temp_.order[lane * ITEMS + r]) = w;
    }
    __syncwarp();
    const int striped = striped_count(count, j_after, shift_after);
    // Rank r * lanes + j of the sub-warp is the warp's rank a0 + r * lanes (a striped read of the
    // order array: distinct banks); its key and value are at the offset its item carried.
    const u32 a0 = u32(sub_after + j_after);
    if (!Output::TOP_K || keys_out != nullptr) {
      bits_type* dst = keys_out + (at + u32(j_after));
      each_item(striped, [&](int r) {
        const u32 from = temp_.order[a0 + u32(r) * u32(lanes_after)];
        store_global(dst + r * lanes_after, key_at(from));
      });
    }
    // sass: net_values
    if constexpr (LATE_VALUES && !Output::POSITIONS) {  // LATE_VALUES implies HAS_VALUES
      // One lane, its segment's values to the buffer in input order only now (registers are free
      // after the network): all `size` of them (a top-k stores fewer), then each rank's from the
      // slot its item carried.
      ValueRaw* dst = values_out + at;
      const ValueRaw* values_in = p_.values_in + begin;
      each_item(int(size), [&](int r) { temp_.values[sub_after + r] = load_global(values_in + r); });
      each_item(striped, [&](int r) { store_global(dst + r, value_at(temp_.order[a0 + u32(r)])); });
    } else if constexpr (HAS_VALUES) {
      ValueRaw* dst = values_out + (at + u32(j_after));
      each_item(striped, [&](int r) {
        const u32 from = temp_.order[a0 + u32(r) * u32(lanes_after)];
        if constexpr (Output::POSITIONS) {
          const u32 position = (from - warp_offset_) / u32(sizeof(bits_type)) - u32(sub_after);
          store_global(dst + r * lanes_after, index_value<ValueRaw>(begin + position));
        } else {
          store_global(dst + r * lanes_after, value_at(from));
        }
      });
    }
    // sass: end
  }

 private:
  /// `f(r)` for each r below `count` (of ITEMS): unguarded when all are (a full lane, or a striped
  /// row of a segment that fills its lanes), one guard per r otherwise (the instruction report
  /// counts that path as cold: segments of lanes x ITEMS keys have none).
  template <class F>
  __device__ __forceinline__ static void each_item(int count, F&& f) {
    if (count >= ITEMS) {
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS; ++r) f(r);
    } else {
      // sass: cold
RINGSWEEP_UNROLL
      for (int r = 0; r < ITEMS; ++r) {
        if (r < count) f(r);
      }
      // sass: end
    }
  }

  /// How many of lane j's striped positions j, j + lanes, ... (lanes = 2^shift) lie below `count`.
  __device__ __forceinline__ static int striped_count(u32 count, int j, int shift) {
    return count > u32(j) ? int((count - u32(j) + (u32(1) << shift) - 1) >> shift) : 0;
  }

  /// A queued segment's keys, `size` 0 for none.
  __device__ __forceinline__ static void read_item(const queued_segment* q, u64& begin, u32& size) {
    const u64 w = q->item;
    begin = segment_item::begin(w);
    size = w != 0 ? segment_item::size(w) : 0u;
  }

  /// A key's window bits as an unsigned integer, ascending in the sort's order: the ordered image
  /// masked to the window, in place, for built-in keys (one three-input logic operation for
  /// integers); custom keys concatenate their passes' digits.
  struct word_maker {
    const sort_arrays<Key, ValueRaw>& p;
    u64 mask;  // built-in keys: the window's bits in place (no shift: the order is the same)
    __device__ __forceinline__ explicit word_maker(const sort_arrays<Key, ValueRaw>& p_) : p(p_) {
      // Keys of at most 32 bits with 8-byte values or values narrower than the key: made at each
      // network call (opaque), where hoisted to the kernel's start its predicate was held through
      // every network and spilled the kernel at its 64 registers (u32 keys with 8-byte values, u16
      // keys with 1-byte ones: 4 bytes). Elsewhere made once (made at each call, u8 keys with
      // 16-byte values spilled instead).
      constexpr bool REMADE =
          PACKED && HAS_VALUES && (sizeof(ValueRaw) == 8 || sizeof(ValueRaw) < sizeof(bits_type));
      if constexpr (REMADE) {
        const int begin_bit = opaque(p.window.begin_bit);
        const int width = p.window.end_bit - begin_bit;
        mask = width >= 64 ? ~u64(0) : (u64(1) << width) - 1u;
        if constexpr (!key_context<Key>::custom_key) mask = begin_bit < 64 ? mask << begin_bit : 0;
      } else {
        const int width = p.window.end_bit - p.window.begin_bit;
        mask = width >= 64 ? ~u64(0) : (u64(1) << width) - 1u;
        if constexpr (!key_context<Key>::custom_key) mask = p.window.begin_bit < 64 ? mask << p.window.begin_bit : 0;
      }
    }
    __device__ __forceinline__ u64 operator()(const bits_type& raw) const {
      if constexpr (!key_context<Key>::custom_key && PACKED) {
        const digit_extractor<Key> e = p.window.image(p);  // one three-input logic operation
        return u64(u32(e.image(raw)) & u32(mask));
      } else if constexpr (!key_context<Key>::custom_key) {
        const digit_extractor<Key> e = p.window.image(p);
        return u64(e.image(raw)) & mask;
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

  /// Bits [begin, end) of an image, those of its 64-bit word at bit `base`, in place.
  __device__ __forceinline__ static u64 window_mask(int begin, int end, int base) {
    const int b = begin > base ? begin - base : 0;
    const int e = end - base < 64 ? end - base : 64;
    if (e <= b) return 0;
    return (e - b >= 64 ? ~u64(0) : (u64(1) << (e - b)) - 1u) << b;
  }

  /// The window bits of a key whose image is wider than 64 bits (a custom key of up to 128): its
  /// whole image in the sort's direction, masked to the window in place (the order is the same),
  /// as two words.
  struct wide_maker {
    const sort_arrays<Key, ValueRaw>& p;
    u64 lo_mask, hi_mask;
    __device__ __forceinline__ explicit wide_maker(const sort_arrays<Key, ValueRaw>& p_)
        : p(p_),
          lo_mask(window_mask(p_.window.begin_bit, p_.window.end_bit, 0)),
          hi_mask(window_mask(p_.window.begin_bit, p_.window.end_bit, 64)) {}
    __device__ __forceinline__ wide_bits operator()(const bits_type& raw) const {
      const bits_type image = p.window.image(p).image(raw);  // key_words: its words by `>>`
      return wide_bits{(image >> 64) & hi_mask, (image >> 0) & lo_mask};
    }
  };
  using maker_t = typename std::conditional<FORM == item_form::wide, wide_maker, word_maker>::type;

  /// `x` or `y`, whichever belongs here: the smaller in the lower lane of a pair, else the larger.
  __device__ __forceinline__ static item_t keep(const item_t& x, const item_t& y, bool lower) {
    return item_t::less(x, y) != lower ? y : x;
  }
  /// The smaller of a pair to `a`, the larger to `b`.
  __device__ __forceinline__ static void exchange(item_t& a, item_t& b) { item_t::exchange(a, b); }
  /// Exchange C of the odd-even merge network, on registers known at compile time.
  template <int C>
  __device__ __forceinline__ static void exchange_at(item_t (&x)[ITEMS]) {
    constexpr int A = odd_even_merge<ITEMS>::pair(C).first;
    constexpr int B = odd_even_merge<ITEMS>::pair(C).second;
    exchange(x[A], x[B]);
  }
  template <int... C>
  __device__ __forceinline__ static void sort_within(item_t (&x)[ITEMS], std::integer_sequence<int, C...>) {
    (exchange_at<C>(x), ...);
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
  /// The key, and the value, of the slot whose key is at byte offset `off` from temps_[0].keys.
  __device__ __forceinline__ bits_type& key_at(u32 off) const {
    return *reinterpret_cast<bits_type*>(reinterpret_cast<char*>(temps_[0].keys) + off);
  }
  __device__ __forceinline__ ValueRaw& value_at(u32 off) const {
    if constexpr (sizeof(ValueRaw) == sizeof(bits_type)) {
      return *reinterpret_cast<ValueRaw*>(reinterpret_cast<char*>(temps_[0].values) + off);
    } else {
      return temp_.values[(off - warp_offset_) / u32(sizeof(bits_type))];
    }
  }
  TempStorage* temps_;
  TempStorage& temp_;
  u32 warp_offset_;  // temp_'s byte offset from temps_[0]
  const sort_arrays<Key, ValueRaw>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
