// segment_tiles: the tile source of a segmented sort's large segments (segment_lists): a tile is a
// large tile, found in its segment's list by binary search.
#pragma once

#include "../detail/config.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The host launches a bound on the large tiles (it does not know the segments) with a grid of
/// the blocks that fit (`LOOPED`): each block takes tiles by ticket until one is past the last
/// large tile, and a launch with none (no large segment) exits in one wave, block 0 moving the
/// ticket as a skipped launch. The look-back runs over all the launch's tiles as usual,
/// segment boundaries included: each segment's digit offsets (`segment_bins`) are its own offsets
/// minus the counts of the segments before it, which the look-back adds back, and `bins_in` /
/// `bins_out` carry only those counts from portion to portion (`bins_in` is zeros for the first).
/// Never pipelined, never with cache hints.
///
///     onesweep_kernel<Config, segment_tiles>
struct segment_tiles {
  static constexpr bool HINTS = false;
  static constexpr bool PERSISTENT = false;
  static constexpr bool ALL_REAL = false;
  static constexpr bool LOOPED = true;
  struct params {
    const large_segment* segments;  // the large segments
    const u64* segment_word;        // segment_lists::large_word
    const u64* segment_bins;        // this pass's digit offsets of each segment,
    u64 segment_bins_stride;        // this many words apart
    u64 segment_first_tile;         // the large tile of the launch's first ticket
  };
  struct storage {
    u32 real;         // the launch's real tiles (start)
    u64 origin;       // the tile's first key in the pass input
    const u64* bins;  // the tile's segment's digit offsets
    int valid;        // the tile's keys
  };

  /// Kernel start, every thread: the launch's tiles that exist (thread 0 also keeps them, read
  /// after the first barrier: a looping block reads them from shared memory at each ticket, not
  /// from a register held through every tile).
  template <int TILE, class P>
  __device__ __forceinline__ static u32 start(storage& s, const P& p) {
    const u64 total = large_tiles(*p.segment_word);
    const u32 real = total > p.segment_first_tile ? u32(min_of<u64>(total - p.segment_first_tile, p.tiles)) : 0u;
    if (threadIdx.x == 0) s.real = real;
    return real;
  }
  /// The launch's tiles that exist, after the first barrier.
  template <int TILE, class P>
  __device__ __forceinline__ static u32 real_tiles(const storage& s, const P&) {
    return s.real;
  }
  /// The launch's tiles a looping block takes: those that exist.
  template <int TILE, class P>
  __device__ __forceinline__ static u32 launch_tiles(const storage& s, const P& p) {
    return real_tiles<TILE>(s, p);
  }
  /// Thread 0, ticket `t`: the tile's segment, first key and keys.
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static void on_ticket(storage& s, const P& p, u32 t) {
    u32 segment = 0;
    u64 origin = 0;
    int valid = 0;
    find_large_tile(p.segments, *p.segment_word, p.segment_first_tile + (t - p.tile_base), TILE, segment, origin,
                    valid);
    s.bins = p.segment_bins + u64(segment) * p.segment_bins_stride;
    s.origin = origin;
    s.valid = valid;
  }
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static int valid(const storage& s, const P&, u32) {
    return s.valid;
  }
  template <int TILE>
  __device__ __forceinline__ static u64 origin(const storage& s, u32) {
    return s.origin;
  }
  /// The tile's segment's offset of digit `d` plus the earlier portions' counts of it.
  template <class P>
  __device__ __forceinline__ static u64 bin(const storage& s, const P& p, int d) {
    return s.bins[d] + p.bins_in[d];
  }
  template <class P>
  __device__ __forceinline__ static void carry(const P& p, int d, u64, u32 inclusive) {
    p.bins_out[d] = p.bins_in[d] + inclusive;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
