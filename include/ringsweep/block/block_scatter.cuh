// block_scatter: moves a ranked tile through shared memory so that it leaves the block in rank
// order, each digit's run written contiguously.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Scatter of a warp-striped, ranked tile (see block_radix_rank for the arrangement).
///
///     block_scatter<256, 4> s;
///     s.to_shared(buf, keys, ranks, valid);            // buf[rank] = key
///     __syncthreads();
///     s.shared_to_global(buf, valid, [&](int k, int i, u32 key) { return out + base_of(key) + i; });
///
/// `shared_to_global` reads `buf` block-striped (thread `t` item `k` is rank `i = k*THREADS + t`) and
/// stores each item through the pointer the callback returns: with a per-digit base, consecutive
/// ranks of one digit go to consecutive addresses, so each digit's run is one coalesced stream.
/// `GROUPED`: `position` within the thread's group of THREADS consecutive threads (group_thread;
/// the other members serve whole blocks only).
template <int THREADS, int ITEMS, bool GROUPED = false>
struct block_scatter {
  static constexpr int SEGMENT = warp_threads * ITEMS;
  /// Ranks are tile positions (< 2^16); callers may keep other data in a rank's high bits.
  static constexpr u32 rank_mask = 0xffffu;
  static_assert(THREADS * ITEMS <= (1 << 16), "tile ranks must fit 16 bits");

  /// Tile position of warp-striped item `k` of this thread.
  __device__ __forceinline__ static int position(int k) {
    return group_thread<THREADS, GROUPED>() / warp_threads * SEGMENT + k * warp_threads + int(lane_id());
  }

  /// `buf[ranks[k]] = items[k]` for the valid items (positions below `valid`).
  template <class T>
  __device__ __forceinline__ static void to_shared(T* buf, const T (&items)[ITEMS], const u32 (&ranks)[ITEMS],
                                                   int valid) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      if (position(k) < valid) buf[ranks[k] & rank_mask] = items[k];
    }
  }

  /// `buf[ranks[k]] = items[k]` for every item: a padded tile, whose padding ranks past the real
  /// items (block_radix_rank::rank_padded), writes it harmlessly into the tile's unused tail.
  template <class T>
  __device__ __forceinline__ static void to_shared(T* buf, const T (&items)[ITEMS], const u32 (&ranks)[ITEMS]) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) buf[ranks[k]] = items[k];
  }

  /// The inverse gather within the block: `items[k] = buf[position(k)]` for valid positions.
  template <class T>
  __device__ __forceinline__ static void from_shared_warp_striped(const T* buf, T (&items)[ITEMS], int valid) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int p = position(k);
      if (p < valid) items[k] = buf[p];
    }
  }

  /// Stores every rank `i` of a whole tile to `address(k, i, buf[i])`: no bounds check.
  template <bool STREAM = false, class T, class Address>
  __device__ __forceinline__ static void shared_to_global(const T* buf, Address&& address) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * THREADS + int(threadIdx.x);
      const T v = buf[i];
      store_global<STREAM>(address(k, i, v), v);
    }
  }

  /// Stores rank `i` of a padded tile (every rank of `buf` written, the padding past `valid`) for
  /// every `i < valid`: each rank's item and address are found, the padding's too, and only the
  /// store is guarded (a predicate per store, not a branch per item).
  template <bool STREAM = false, class T, class Address>
  __device__ __forceinline__ static void padded_to_global(const T* buf, int valid, Address&& address) {
    // Item k stores while k * THREADS < left: one compare with a constant per item. `valid` is
    // hidden from the optimiser so that these compares are not kept (as predicate bits in a
    // register, two instructions per item) for a later guarded loop over the same tile.
    const int left = opaque(valid) - int(threadIdx.x);
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * THREADS + int(threadIdx.x);
      const T v = buf[i];
      T* const p = address(k, i, v);
      if (k * THREADS < left) store_global<STREAM>(p, v);
    }
  }

  /// Stores rank `i` of the tile, for every `i < valid`, to `address(k, i, buf[i])` (`STREAM`: as
  /// for `store_global`).
  template <bool STREAM = false, class T, class Address>
  __device__ __forceinline__ static void shared_to_global(const T* buf, int valid, Address&& address) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * THREADS + int(threadIdx.x);
      if (i < valid) {
        const T v = buf[i];
        store_global<STREAM>(address(k, i, v), v);
      }
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
