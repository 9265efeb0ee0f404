// segment_tiles: the tile source of a segmented sort's large segments (segment_lists): a tile is a
// large tile, found in its segment's list by binary search.
#pragma once

#include "../detail/config.cuh"
#include "pass_route.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The host bounds the large tiles (it does not know the segments) and runs every pass over them,
/// in portions, as one chain of launches in one kernel (`CHAINED`, onesweep_chain): a grid of the
/// blocks that fit, each taking tiles by ticket; a launch whose tiles do not exist (no large
/// segment, or its pass skipped) costs each block at most one ticket. The look-back runs over
/// all the launch's tiles as usual, segment boundaries included: each segment's digit offsets
/// (`segment_bins`) are its own offsets minus the counts of the segments before it, which the
/// look-back adds back, and `bins_in` / `bins_out` carry only those counts from portion to portion
/// (`bins_in` is zeros for the first). Never pipelined, never with cache hints.
///
///     onesweep_chain_kernel<Config>
struct segment_tiles {
  static constexpr bool HINTS = false;
  static constexpr bool PERSISTENT = false;
  static constexpr bool ALL_REAL = false;
  static constexpr bool LOOPED = true;
  static constexpr bool CHAINED = true;
  struct params {
    const large_segment* segments;  // the large segments
    const u64* segment_word;        // segment_lists::large_word
    const u64* segment_bins;        // this pass's digit offsets of each segment,
    u64 segment_bins_stride;        // this many words apart
    u64 segment_first_tile;         // the large tile of the launch's first ticket
    u32* done;                      // the chain's finished tiles (zero at its start)
    u32* done_next;                 // the next chain's count, which this chain zeroes (or null)
    u32 launches;                   // launches in the chain
  };
  struct storage {
    u32 chain;        // onesweep_chain: the launch the block's ticket lies in,
    u32 real;         // its real tiles,
    u32 need;         // and the real tiles of the launches before it, which it waited for
    u32 ready;        // the launch whose wait the block has done, plus one
    u64 origin;       // the tile's first key in the pass input
    const u64* bins;  // the tile's segment's digit offsets
    int valid;        // the tile's keys (0: the ticket has none)
  };

  /// Thread 0: the real tiles of a chain's launch whose route word is `route`: none where its
  /// pass is skipped.
  template <int TILE, class P>
  __device__ __forceinline__ static u32 chain_real(const P& p, u32 route) {
    if (!pass_route::runs(route)) return 0;
    const u64 total = large_tiles(*p.segment_word);
    return total > p.segment_first_tile ? u32(min_of<u64>(total - p.segment_first_tile, p.tiles)) : 0u;
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
