// portion_tiles: the tile source of a plain onesweep pass, the tiles of one portion of the pass's
// input, every launched tile real (see onesweep_tile for what a tile source answers).
#pragma once

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Launch arguments of a portion's tiles: none (the same with and without hints, so a sort picks
/// either kernel through one pointer type).
struct portion_params {};

/// The tiles of a portion of `keys` keys from `first_key` (onesweep_params): tile u holds keys
/// [u x TILE, (u + 1) x TILE) of it, the last one fewer. `HINTS`: the pass runs with cache hints
/// (the policy's CACHE_HINTS, for a sort whose data cannot stay in L2; the host decides), so the
/// portion's digit offsets load and store evict-last, and keys and values move evict-first. A
/// source whose tiles are a portion's with fewer of them real (counted_tiles) derives from it;
/// its storage is then another, so the members it inherits take any storage.
///
///     onesweep_kernel<Config, portion_tiles<false>>
template <bool HINTS_>
struct portion_tiles {
  static constexpr bool HINTS = HINTS_;
  /// A persistent (pipelined) block may take this source's tiles.
  static constexpr bool PERSISTENT = true;
  /// Every tile the host launched exists.
  static constexpr bool ALL_REAL = true;
  /// Not pipelined, one tile per block (segment_tiles' blocks loop instead).
  static constexpr bool LOOPED = false;
  /// One launch per pass and portion (segment_tiles chains them in one kernel instead).
  static constexpr bool CHAINED = false;
  /// Launch arguments of this source (onesweep_params derives from them).
  using params = portion_params;
  /// Shared memory of this source in the tile's storage: none.
  struct storage {};

  /// The launch's tiles a persistent block takes.
  template <int TILE, class P>
  __device__ __forceinline__ static u32 launch_tiles(const storage&, const P& p) {
    return p.tiles;
  }
  /// Thread 0, on taking ticket `t`: nothing to find.
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static void on_ticket(storage&, const P&, u32) {}
  /// Keys of tile `u`.
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static int valid(const storage&, const P& p, u32 u) {
    return int(min_of<u32>(u32(TILE), p.keys - u * u32(TILE)));
  }
  /// Tile `u`'s first key in the portion: 32 bits (a portion holds fewer than 2^30 keys), cheap
  /// to recompute where used, so no 64-bit offset stays in registers through the tile.
  template <int TILE, class S>
  __device__ __forceinline__ static u32 origin(const S&, u32 u) {
    return u * u32(TILE);
  }
  /// Digit `d`'s global offset at the portion's start.
  template <class S, class P>
  __device__ __forceinline__ static u64 bin(const S&, const P& p, int d) {
    return load_word<HINTS>(p.bins_in + d);
  }
  /// The portion's last tile: digit `d`'s offset at the next portion's start (`bin`: this
  /// portion's, `inclusive`: the digit's keys in the whole portion).
  template <class P>
  __device__ __forceinline__ static void carry(const P& p, int d, u64 bin, u32 inclusive) {
    store_word<HINTS>(p.bins_out + d, bin + inclusive);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
