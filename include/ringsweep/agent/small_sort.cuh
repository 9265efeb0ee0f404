// small_sort: sorts an input of at most one tile in a single block, entirely in shared memory.
#pragma once

#include "../block/block_radix_rank.cuh"
#include "../block/block_scatter.cuh"
#include "../block/block_thread_rank.cuh"
#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "kernel_arrays.cuh"
#include "sort_config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the single-block sort.
template <class Key, class ValueRaw>
struct small_sort_params : sort_arrays<Key, ValueRaw> {
  int keys;                   // at most one tile
  count_source count;         // a count on the device (then `keys` is its bound), or none
};

/// Every digit pass ranks the tile (block_radix_rank) and permutes it through shared memory; keys
/// stay in registers between passes. Values are not moved per pass: each key carries its input
/// index, and the values are gathered once at the end.
///
/// `THREAD_RANK`: the tile is ranked instead by per-thread counters over 4-bit digits
/// (block_thread_rank, twice as many passes, a few instructions per key each), the keys held
/// blocked between passes; the segmented sort's block classes sort so. `GROUPED` (with
/// THREAD_RANK): each group of THREADS consecutive threads of a larger block sorts its own input in
/// its own `temp`, every group at once (the block's barriers are every group's: each group passes
/// the same ones, an input of 0 keys too; segment_blocks_kernel).
///
///     __shared__ typename small_sort<Config>::TempStorage temp;
///     small_sort<Config>(temp, params).process();
template <class Config, bool THREAD_RANK = false, bool GROUPED = false>
class small_sort {
  static_assert(THREAD_RANK || !GROUPED, "groups rank by per-thread counters");

 public:
  using Key = typename Config::key_type;
  using ValueRaw = typename Config::value_raw_t;
  using bits_type = typename Config::bits_type;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int THREADS = Config::THREADS;
  static constexpr int ITEMS = Config::ITEMS;
  static constexpr int TILE = Config::TILE;
  static constexpr int RADIX_BITS = Config::RADIX_BITS;
  using rank_t = block_radix_rank<THREADS, ITEMS, RADIX_BITS>;
  using scatter_t = block_scatter<THREADS, ITEMS, GROUPED>;
  static constexpr int DPT = rank_t::DIGITS_PER_THREAD;
  static constexpr int THREAD_RADIX_BITS = 4;
  using thread_rank_t = block_thread_rank<THREADS, ITEMS, THREAD_RADIX_BITS, GROUPED>;

  struct TempStorage {
    union {
      std::conditional_t<THREAD_RANK, typename thread_rank_t::TempStorage, typename rank_t::TempStorage> rank;
      alignas(16) bits_type keys[TILE];
      alignas(16) u32 index[TILE];
    } u;
  };

  __device__ __forceinline__ small_sort(TempStorage& temp, const small_sort_params<Key, ValueRaw>& p)
      : temp_(temp), p_(p) {}

  __device__ __forceinline__ void process() {
    const u32 lane = lane_id();
    const int seg_first = group_thread<THREADS, GROUPED>() / warp_threads * scatter_t::SEGMENT;
    bits_type keys[ITEMS];
    u32 index[ITEMS];
    const int valid = sort_tile(keys, index);

    store_warp_striped(p_.keys_out + seg_first, lane, valid - seg_first, keys);
    if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        const int pos = scatter_t::position(k);
        if constexpr (Config::INDEX_VALUES) {  // argsort: the value is the input position
          if (pos < valid) store_global(p_.values_out + pos, index_value<ValueRaw>(index[k]));
        } else {
          if (pos < valid) store_global(p_.values_out + pos, load_global(p_.values_in + index[k]));
        }
      }
    }
  }

  /// A batched top-k's segment (segmented sorts only: no count on the device): sorts as `process`
  /// does, then writes only the first `take` keys to `keys_out` (unless null) and their values to
  /// `values_out` (segment_first_k::value; `first`: the segment's first input position).
  template <class Output>
  __device__ __forceinline__ void process_first(int take, u64 first, const Output& out) {
    const u32 lane = lane_id();
    const int seg_first = group_thread<THREADS, GROUPED>() / warp_threads * scatter_t::SEGMENT;
    bits_type keys[ITEMS];
    u32 index[ITEMS];
    const int valid = sort_tile(keys, index);
    const int limit = min_of(take, valid);

    if (p_.keys_out != nullptr) store_warp_striped(p_.keys_out + seg_first, lane, limit - seg_first, keys);
    if constexpr (HAS_VALUES) {
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        const int pos = scatter_t::position(k);
        if (pos < limit) store_global(p_.values_out + pos, out.value(p_.values_in, index[k], first));
      }
    }
  }

 private:
  /// Loads and sorts the tile: `keys` in sorted order at scatter_t::position, `index` their input
  /// positions in the tile (meaningful where values move); returns the key count.
  __device__ __forceinline__ int sort_tile(bits_type (&keys)[ITEMS], u32 (&index)[ITEMS]) {
    if constexpr (THREAD_RANK) {
      return sort_tile_blocked(keys, index);
    } else {
      return sort_tile_matched(keys, index);
    }
  }

  /// `sort_tile` by block_radix_rank (8-bit digits, warp-striped keys).
  __device__ __forceinline__ int sort_tile_matched(bits_type (&keys)[ITEMS], u32 (&index)[ITEMS]) {
    const int valid = int(p_.count.resolve(u64(p_.keys)));
    const u32 lane = lane_id();
    const int seg_first = group_thread<THREADS, GROUPED>() / warp_threads * scatter_t::SEGMENT;
    load_warp_striped(p_.keys_in + seg_first, lane, valid - seg_first, keys);
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) index[k] = u32(scatter_t::position(k));

    // sass: small_pass
    for (int pass = 0; pass < p_.window.passes; ++pass) {
      const digit_extractor<Key> digit_of = p_.window.template extractor<Config::RADIX_BITS>(p_, pass);
      u32 digits[ITEMS], ranks[ITEMS], counts[DPT], starts[DPT];
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) digits[k] = digit_of(keys[k]);
      rank_t(temp_.u.rank).rank(digits, valid, ranks, counts, starts, [](const u32 (&)[DPT]) {});
      __syncthreads();
      scatter_t::to_shared(temp_.u.keys, keys, ranks, valid);
      __syncthreads();
      scatter_t::from_shared_warp_striped(temp_.u.keys, keys, valid);
      if constexpr (HAS_VALUES) {
        __syncthreads();
        scatter_t::to_shared(temp_.u.index, index, ranks, valid);
        __syncthreads();
        scatter_t::from_shared_warp_striped(temp_.u.index, index, valid);
      }
      __syncthreads();
    }
    // sass: end
    return valid;
  }

  /// `sort_tile` by block_thread_rank: the keys are loaded warp-striped (coalesced) with the
  /// padding key (every digit the largest) past `valid`, turned blocked through shared memory, sorted
  /// by 4-bit passes each ending in one exchange that leaves them blocked again, and turned
  /// warp-striped at the end. The padding ranks after every key, so no pass checks bounds.
  __device__ __forceinline__ int sort_tile_blocked(bits_type (&keys)[ITEMS], u32 (&index)[ITEMS]) {
    const int valid = int(p_.count.resolve(u64(p_.keys)));
    const u32 lane = lane_id();
    const int seg_first = group_thread<THREADS, GROUPED>() / warp_threads * scatter_t::SEGMENT;
    const int first = group_thread<THREADS, GROUPED>() * ITEMS;  // the thread's blocked positions
    const int passes = digit_window::passes(p_.window.begin_bit, p_.window.end_bit, THREAD_RADIX_BITS);
    load_warp_striped(p_.keys_in + seg_first, lane, valid - seg_first, keys,
                      p_.window.template extractor<THREAD_RADIX_BITS>(p_, 0).pad);
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      temp_.u.keys[scatter_t::position(k)] = keys[k];
      index[k] = u32(first + k);
    }
    __syncthreads();
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) keys[k] = temp_.u.keys[first + k];
    __syncthreads();

    // sass: nibble_pass
    for (int pass = 0; pass < passes; ++pass) {
      const digit_extractor<Key> digit_of = p_.window.template extractor<THREAD_RADIX_BITS>(p_, pass);
      u32 ranks[ITEMS];
      thread_rank_t(temp_.u.rank).rank([&](int k) { return digit_of(keys[k]); }, ranks);
      __syncthreads();
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) temp_.u.keys[ranks[k]] = keys[k];
      __syncthreads();
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) keys[k] = temp_.u.keys[first + k];
      if constexpr (HAS_VALUES) {
        __syncthreads();
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) temp_.u.index[ranks[k]] = index[k];
        __syncthreads();
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) index[k] = temp_.u.index[first + k];
      }
      __syncthreads();
    }
    // sass: end

    // Blocked to warp-striped, for coalesced stores.
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) temp_.u.keys[first + k] = keys[k];
    __syncthreads();
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) keys[k] = temp_.u.keys[scatter_t::position(k)];
    if constexpr (HAS_VALUES) {
      __syncthreads();
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) temp_.u.index[first + k] = index[k];
      __syncthreads();
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) index[k] = temp_.u.index[scatter_t::position(k)];
    }
    return valid;
  }

  TempStorage& temp_;
  const small_sort_params<Key, ValueRaw>& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
