// warp_segment_sort: one warp sorts one tiny segment (at most 32 x SEGMENT_WARP_ITEMS keys) in
// registers, exchanging through a small shared buffer of its own.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "segment_lists.cuh"
#include "kernel_arrays.cuh"
#include "sort_config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the kernels that sort tiny and small segments (segment_lists' items).
template <class Key, class ValueRaw>
struct segment_sort_params : sort_arrays<Key, ValueRaw> {
  const u64* items;           // segment_item words: tiny from the front, small from the back
  u64 capacity;
  const u32* tiny_count;
  const u32* small_count;
  // A front list's kernel (small_segment_kernel, FRONT) sorts its items of `front_min` to
  // `front_max` keys and passes over the others (the compact and medium classes share the front).
  u32 front_min = 0;
  u32 front_max = 0xffffffffu;
};

/// Each digit pass ranks the warp's keys stably by counting, for each key, the keys with a
/// smaller digit and the earlier keys with the same digit (every lane sees every key's digit
/// through one shuffle per key of the segment), then permutes them through the warp's shared
/// buffer. Values are moved
/// once, at the end, by the keys' input positions.
///
///     __shared__ typename warp_segment_sort<Config>::TempStorage temp[WARPS];
///     warp_segment_sort<Config>(temp[warp], params).sort(begin, size);   // by every lane of the warp
template <class Config>
class warp_segment_sort {
 public:
  using Key = typename Config::key_type;
  using ValueRaw = typename Config::value_raw_t;
  using bits_type = typename Config::bits_type;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int ITEMS = Config::policy::SEGMENT_WARP_ITEMS;
  static constexpr int KEYS = warp_threads * ITEMS;  // the largest tiny segment

  struct TempStorage {
    union {
      bits_type keys[KEYS];
      u32 index[KEYS];
    } u;
  };

  __device__ __forceinline__ warp_segment_sort(TempStorage& temp, const segment_sort_params<Key, ValueRaw>& p)
      : temp_(temp), p_(p) {}

  /// Sorts the `size` keys (at most KEYS) at `begin`; every lane of the warp calls it.
  __device__ __forceinline__ void sort(u64 begin, int size) { sort(begin, size, segment_in_place{}, 0); }

  /// Sorts the segment as above, and writes it where `out` says: in place (segment_in_place), or
  /// only its first `out.take(size)` keys (and values) to segment `segment`'s slots
  /// (segment_first_k), with no other store.
  template <class Output>
  __device__ __forceinline__ void sort(u64 begin, int size, const Output& out, u64 segment) {
    const int lane = int(lane_id());
    bits_type keys[ITEMS];
    u32 index[ITEMS];
    load_warp_striped(p_.keys_in + begin, u32(lane), size, keys);
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) index[k] = u32(k * warp_threads + lane);

    for (int pass = 0; pass < p_.window.passes; ++pass) {
      const digit_extractor<Key> digit_of = p_.window.template extractor<Config::RADIX_BITS>(p_, pass);
      // Missing keys (past `size`) take a digit above every real one: they rank last.
      u32 digits[ITEMS], ranks[ITEMS];
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        digits[k] = k * warp_threads + lane < size ? digit_of(keys[k]) : u32(Config::RADIX);
        ranks[k] = 0;
      }
      // Only the positions that hold keys are shuffled (bounds uniform over the warp): a segment of
      // five keys costs five shuffles per pass, not 32 x ITEMS. A missing key never ranks before a
      // real one, so the real keys' ranks are whole.
      const int rows = (size + warp_threads - 1) / warp_threads;
      for (int m = 0; m < rows; ++m) {
        const int lanes = min_of(warp_threads, size - m * warp_threads);
        for (int s = 0; s < lanes; ++s) {
          const u32 other = __shfl_sync(0xffffffffu, row_digit(digits, m), s);
          const int q = m * warp_threads + s;  // the other key's position
RINGSWEEP_UNROLL
          for (int k = 0; k < ITEMS; ++k) {
            const bool before = other < digits[k] || (other == digits[k] && q < k * warp_threads + lane);
            ranks[k] += before ? 1u : 0u;
          }
        }
      }
      permute(keys, ranks, temp_.u.keys, size);
      if constexpr (HAS_VALUES) permute(index, ranks, temp_.u.index, size);
    }

    if constexpr (Output::TOP_K) {
      const int take = out.take(u64(size));
      const u64 slot = out.slot(segment);
      if (out.keys_out != nullptr) store_warp_striped(out.keys_out + slot, u32(lane), take, keys);
      if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
          const int pos = k * warp_threads + lane;
          if (pos < take) store_global(out.values_out + (slot + u64(pos)), out.value(p_.values_in, begin + index[k], 0));
        }
      }
    } else {
      (void)out;
      (void)segment;
      store_warp_striped(p_.keys_out + begin, u32(lane), size, keys);
      if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
          const int pos = k * warp_threads + lane;
          if (pos < size) store_global(p_.values_out + (begin + u64(pos)), load_global(p_.values_in + (begin + index[k])));
        }
      }
    }
  }

 private:
  /// `digits[m]` for a row index known only at run time, without indexing the array (which would
  /// put it in local memory).
  __device__ __forceinline__ static u32 row_digit(const u32 (&digits)[ITEMS], int m) {
    u32 d = digits[0];
RINGSWEEP_UNROLL
    for (int k = 1; k < ITEMS; ++k) d = m == k ? digits[k] : d;
    return d;
  }

  /// `items[k]` moves to position `ranks[k]` (warp-striped positions), through `buf`.
  template <class T>
  __device__ __forceinline__ static void permute(T (&items)[ITEMS], const u32 (&ranks)[ITEMS], T* buf, int size) {
    const int lane = int(lane_id());
    __syncwarp();  // the buffer's previous use is over
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      if (k * warp_threads + lane < size) buf[ranks[k]] = items[k];
    }
    __syncwarp();
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      if (k * warp_threads + lane < size) items[k] = buf[k * warp_threads + lane];
    }
  }

  TempStorage& temp_;
  const segment_sort_params<Key, ValueRaw>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
