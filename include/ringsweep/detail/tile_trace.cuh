// tile_trace: what an instrumented onesweep tile records about itself (tuning builds only).
#pragma once

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// One onesweep tile's timeline in nanoseconds (`%globaltimer`; the host's steady clock on the
/// SIMT backend), written by thread 0 of the tile when its hooks set `TRACE` (sort_hooks.cuh), at index =
/// the tile's ticket (sort-wide: tickets continue over passes and portions).
///
///     tile_trace& r = traces[ticket];
///     u64 look_back_ns = r.lookback_end - r.lookback_start;
struct tile_trace {
  u64 ticket;          // ticket taken
  u64 counts;          // the tile's digit counts published (the ranking's early counts)
  u64 lookback_start;  // thread 0 starts its digits' look-back
  u64 lookback_end;    // after the block's barrier: every digit's global offset known
  u64 retired;         // the tile has left the status ring
  u64 exit;            // the tile's keys and values are scattered (after a block barrier)
  u32 depth;           // deepest predecessor any of the tile's digits read (0: tile 0 of a launch)
  u32 polls;           // status-word polls that found nothing new, over all digits (at most 64 per wait)
};

/// Look-back statistics of one digit (the instrumented build).
struct lookback_stats {
  u32 depth = 0;
  u32 polls = 0;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
