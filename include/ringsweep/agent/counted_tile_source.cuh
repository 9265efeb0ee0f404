// counted_tiles: the tile source of a sort whose n is read on the device (sort.cuh's device_count):
// a portion as portion_tiles, of which only the tiles of the real keys exist.
#pragma once

#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "portion_tile_source.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Launch arguments of a counted sort's tiles (with and without hints alike).
struct counted_params {
  count_source count;  // the sort's key count in device memory
};

/// The host launched the portions of max_n keys; the portion's real keys are the count read at
/// the kernel's start minus its first key, clamped to [0, keys], and only their tiles exist: a
/// one-tile block past the last real tile leaves before taking a ticket, a persistent block stops
/// at the first ticket past them, the last real tile moves the ticket past the missing ones
/// (onesweep_tile), and a portion with no real tile acts as a skipped launch.
///
///     onesweep_kernel<Config, counted_tiles<false>>
template <bool HINTS_>
struct counted_tiles : portion_tiles<HINTS_> {  // its tiles' first keys and digit offsets: a portion's
  static constexpr bool ALL_REAL = false;
  using params = counted_params;
  struct storage {
    u32 real_keys;  // the portion's real keys (start)
    int valid;      // one-tile blocks: the tile's keys (on_ticket)
  };

  /// Kernel start, every thread: the portion's real tiles (thread 0 also keeps its real keys,
  /// read after the first barrier).
  template <int TILE, class P>
  __device__ __forceinline__ static u32 start(storage& s, const P& p) {
    const u64 n = p.count.resolve(0);
    const u32 keys = n > u64(p.first_key) ? u32(min_of<u64>(n - u64(p.first_key), p.keys)) : 0u;
    if (threadIdx.x == 0) s.real_keys = keys;
    return ceil_div(keys, u32(TILE));
  }
  /// The portion's real tiles, after the first barrier.
  template <int TILE, class P>
  __device__ __forceinline__ static u32 real_tiles(const storage& s, const P&) {
    return ceil_div(s.real_keys, u32(TILE));
  }
  template <int TILE, class P>
  __device__ __forceinline__ static u32 launch_tiles(const storage& s, const P& p) {
    return real_tiles<TILE>(s, p);
  }
  /// Thread 0, ticket `t`: a one-tile block keeps its tile's keys in one shared word.
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static void on_ticket(storage& s, const P& p, u32 t) {
    if constexpr (!PIPELINED) s.valid = int(min_of<u32>(u32(TILE), s.real_keys - (t - p.tile_base) * u32(TILE)));
  }
  template <int TILE, bool PIPELINED, class P>
  __device__ __forceinline__ static int valid(const storage& s, const P&, u32 u) {
    if constexpr (PIPELINED) {
      return int(min_of<u32>(u32(TILE), s.real_keys - u * u32(TILE)));
    } else {
      (void)u;
      return s.valid;
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
