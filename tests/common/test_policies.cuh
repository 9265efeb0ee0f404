// Test-only tuning policies: tiny tiles, status buffers and portions, so that a few thousand keys
// cross tile, portion and circular-buffer wrap boundaries many times. They derive from
// ringsweep::policy_defaults like the shipped ones and serve every architecture (they are not in
// ringsweep::shipped_policies). Those that pause tiles at random or record tile timelines pair a
// tuning policy with test hooks (ringsweep::detail::with_hooks): a policy is tuning only.
#pragma once

#include <cstdint>
#include <cstdio>

#include <ringsweep/detail/sort_hooks.cuh>
#include <ringsweep/detail/tile_trace.cuh>
#include <ringsweep/policy.cuh>

#include "fault_injection.cuh"

namespace ringsweep_test {

/// 192-key tiles (64 threads x 3 keys; fewer for wide keys or values), a 4-slot status buffer and
/// 8-tile portions.
struct policy_tiny : ringsweep::policy_defaults {
  static constexpr int SEGMENT_TINY_KEYS = 96;  // tiny segments by 1 to 8 lanes (16 keys each), compact ones above
  // Compact segments (97 to 128 keys): groups of 32 threads x 4 keys.
  __host__ __device__ static constexpr ringsweep::onesweep_shape segment_compact_block(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 32, 4, 4, 32 * 4 * 16);
  }
  // Medium segments (129 to 160 keys): groups of 32 threads x 5 keys; small ones up to the tile.
  __host__ __device__ static constexpr ringsweep::onesweep_shape segment_block(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 32, 5, 5, 32 * 5 * 16);
  }
  // The block classes' kernel: blocks of 64 threads (two compact or two medium groups side by
  // side, or one small segment of up to 64 x 3 keys).
  static constexpr int SEGMENT_SMALL_THREADS = 64;
  static constexpr int STATUS_SLOTS = 4;
  static constexpr int LOOKBACK_DEPTH = 2;
  static constexpr int TAIL_BITS = 1;
  static constexpr int PORTION_TILES = 8;
  static constexpr int HIST_THREADS = 64;
  static constexpr int HIST_ITEMS = 2;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 3, 3, 3072);
  }
};

/// policy_tiny with more compact groups than medium ones in the block classes' kernel, as the
/// shipped policies have (8 and 2): tiny up to 48 keys, compact up to 32 x 2 = 64 (four groups of
/// a 128-thread block), medium up to 64 x 2 = 128 (two groups), small up to the 192-key tile
/// (128 x 2), so a chunk of four front items may hold up to four medium segments: two rounds.
struct policy_tiny_groups : policy_tiny {
  static constexpr int SEGMENT_TINY_KEYS = 48;
  static constexpr int SEGMENT_SMALL_THREADS = 128;
  __host__ __device__ static constexpr ringsweep::onesweep_shape segment_compact_block(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 32, 2, 2, 32 * 2 * 16);
  }
  __host__ __device__ static constexpr ringsweep::onesweep_shape segment_block(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 2, 2, 64 * 2 * 16);
  }
};

/// A narrow radix (5 bits, fewer digits than threads) and deep look-back.
struct policy_tiny_radix5 : ringsweep::policy_defaults {
  static constexpr int RADIX_BITS = 5;
  static constexpr int STATUS_SLOTS = 8;
  static constexpr int LOOKBACK_DEPTH = 4;
  static constexpr int TAIL_BITS = 2;
  static constexpr int PORTION_TILES = 5;
  static constexpr int HIST_THREADS = 32;
  static constexpr int HIST_ITEMS = 3;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 2, 2, 2048);
  }
};

/// policy_tiny with a histogram block of 32 threads x 16 keys: 512-key histogram tiles read in
/// 16-byte vectors (u8 keys 16 per vector, u32 keys 4), so an input 1 to VEC - 1 keys past a
/// 16-byte boundary has a head of up to 15 keys counted one by one before the vector body.
struct policy_tiny_hist16 : policy_tiny {
  static constexpr int HIST_THREADS = 32;
  static constexpr int HIST_ITEMS = 16;
};

/// policy_tiny with 6 items per thread (384-key tiles) and vector loads of items up to 8 bytes:
/// 4-byte items load one 4-item vector plus 2 striped items per lane, 1-byte items too, 8-byte
/// items three 2-item vectors (16-byte items are loaded striped in any case).
struct policy_tiny_vector : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 6, 6, 6 * 64 * 8).vector_loads(8);
  }
};

/// policy_tiny_vector with every item loaded striped.
struct policy_tiny_striped : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return policy_tiny_vector::onesweep(t).vector_loads(0);
  }
};

/// policy_tiny with the ranking's digits recomputed at each use (RECOMPUTE_DIGITS).
struct policy_tiny_recompute : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return policy_tiny::onesweep(t).recompute();
  }
};

/// policy_tiny with recomputed digits and a fused exchange (keys only: each key goes to shared
/// memory at its rank inside the ranking).
struct policy_tiny_fused : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return policy_tiny::onesweep(t).recompute().fused_exchange();
  }
};

/// policy_tiny_vector (6 items per thread, vector loads up to 8 bytes) with the values of a pairs
/// sort loaded before the look-back (onesweep_shape::early_values; the keys go to shared memory
/// first).
struct policy_tiny_early_values : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return policy_tiny_vector::onesweep(t).early_values();
  }
};

/// Issue #35's fused 384 x 24 tile of 4-byte keys (policy_tiny's ring and portions): its storage
/// is above the 48 KiB of static shared memory a kernel may hold, so it lives in dynamic shared
/// memory (onesweep_tile::DYNAMIC_SHARED) without the block being pipelined.
struct policy_big_fused : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 384, 24, 24, 384 * 24 * 8).recompute().fused_exchange();
  }
};

/// Test hooks under which onesweep tiles sleep at random at every synchronisation point.
using faulty = fault_injection;

/// policy_tiny with random sleeps at every synchronisation point of a onesweep tile.
using policy_tiny_faulty = ringsweep::detail::with_hooks<policy_tiny, faulty>;

/// Test hooks that check, at each onesweep launch's first ticket, that the launch's tail words are
/// clear (the launch before it, run or skipped, cleared them): a stale word stops the test at once
/// with a message naming it (printf and __trap: an aborted test on the SIMT backend, a launch
/// failure on a GPU), instead of misplacing a slot's reuse until a look-back waits forever and
/// the backend's watchdog aborts the run.
struct tail_checked : ringsweep::detail::no_hooks {
  __device__ static void first_ticket(const std::uint32_t* words, int count) {
    for (int i = 0; i < count; ++i) {
      if (words[i] != 0u) {
        printf("ringsweep_test: stale tail word %d (= %u) at a onesweep launch's first ticket: the launch "
               "before it did not clear its successor's tail words\n",
               i, words[i]);
        __trap();
      }
    }
  }
};

/// policy_tiny (a 4-slot ring, so every launch of more than 2 tiles retires tiles and leaves its
/// tail words set; 8-tile portions) whose launches check that their tail words start clear.
using policy_tiny_tail_checked = ringsweep::detail::with_hooks<policy_tiny, tail_checked>;

/// policy_tiny with the kernels after the histogram launched as programmatic dependents
/// (DEPENDENT_LAUNCH): on the SIMT backend, as on an H100, each may start while its predecessor
/// still runs and must wait for it on the device.
struct policy_tiny_dependent_launch : policy_tiny {
  static constexpr bool DEPENDENT_LAUNCH = true;
};

/// policy_tiny_dependent_launch with tiles that pause at random.
using policy_tiny_dependent = ringsweep::detail::with_hooks<policy_tiny_dependent_launch, faulty>;

/// A tiny policy whose circular buffer has STATUS_SLOTS slots, look-back depth LOOKBACK_DEPTH and
/// tail groups of 2^TAIL_BITS tiles: 128-key tiles, 6-tile portions.
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_>
struct ring_tuning : ringsweep::policy_defaults {
  static constexpr int STATUS_SLOTS = STATUS_SLOTS_;
  static constexpr int LOOKBACK_DEPTH = LOOKBACK_DEPTH_;
  static constexpr int TAIL_BITS = TAIL_BITS_;
  static constexpr int PORTION_TILES = 6;
  static constexpr int HIST_THREADS = 32;
  static constexpr int HIST_ITEMS = 2;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 64, 2, 2, 2048);
  }
};

/// ring_tuning with tiles that pause at random.
template <int STATUS_SLOTS_, int LOOKBACK_DEPTH_, int TAIL_BITS_>
using policy_ring = ringsweep::detail::with_hooks<ring_tuning<STATUS_SLOTS_, LOOKBACK_DEPTH_, TAIL_BITS_>, faulty>;

/// A deeper ring read through a look-back window of 3 words (not a divisor of LOOKBACK_DEPTH = 5, so windows
/// are cut at the depth cap) with the digits' bins prefetched at the tile's start.
struct policy_tiny_window : policy_tiny {
  static constexpr int STATUS_SLOTS = 8;
  static constexpr int LOOKBACK_DEPTH = 5;
  static constexpr int TAIL_BITS = 1;
  static constexpr int LOOKBACK_WINDOW = 3;
  static constexpr int PREFETCH_BINS = 2;
};

/// Test hooks under which every onesweep tile writes its timeline to `sink`, a device array with a
/// record per ticket of the sort that the test allocates.
struct traced : ringsweep::detail::no_hooks {
  static constexpr bool TRACE = true;
  static inline ringsweep::detail::tile_trace* sink = nullptr;
  __host__ static ringsweep::detail::tile_trace* trace_sink() { return sink; }
};

/// policy_tiny with every onesweep tile writing its timeline (`policy_tiny_traced::sink`).
using policy_tiny_traced = ringsweep::detail::with_hooks<policy_tiny, traced>;

/// policy_tiny with cache hints (CACHE_HINTS) from 1% of the device's L2 on: a sort of more than
/// L2 / (200 x item bytes) keys runs the hinted pass kernel (65,536 u32 keys with a 50 MiB L2;
/// the SIMT backend's L2 size is RINGSWEEP_SIMT_L2_BYTES).
struct policy_tiny_cache_hints : policy_tiny {
  static constexpr bool CACHE_HINTS = true;
  static constexpr int CACHE_HINTS_L2_PERCENT = 1;
};

/// Test hooks that count the onesweep launches the host dispatch makes with and without cache
/// hints (`onesweep_launched`).
struct hint_counter : ringsweep::detail::no_hooks {
  static inline int hinted = 0;
  static inline int plain = 0;
  __host__ static void onesweep_launched(bool cache_hints) { ++(cache_hints ? hinted : plain); }
};

/// policy_tiny_cache_hints with its onesweep launches counted (`policy_tiny_hints::hinted`, `::plain`).
using policy_tiny_hints = ringsweep::detail::with_hooks<policy_tiny_cache_hints, hint_counter>;

/// policy_tiny with a shape per key type, as a shipped policy's table may give: float keys 64 x 2,
/// other 4-byte keys 64 x 3 (pairs 64 x 2), 8-byte keys 96 threads x 2, 1- and 2-byte keys 32 x 5
/// with vector loads; so kernels of one policy differ in block size and items per thread.
struct policy_tiny_per_type : policy_tiny {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes == 8 ? ringsweep::onesweep_shape::fit(t, 96, 2, 2, 96 * 2 * 16)
           : t.key_bytes < 4 ? ringsweep::onesweep_shape::fit(t, 32, 5, 5, 32 * 5 * 16).vector_loads(2)
           : t.float_key     ? ringsweep::onesweep_shape::fit(t, 64, 2, 2, 64 * 2 * 16)
                             : ringsweep::onesweep_shape::fit(t, 64, 3, 2, 64 * 3 * 16);
  }
};

/// policy_tiny with the persistent pipelined onesweep kernel (PIPELINE_STAGES = 2; tiles staged by
/// the copy engine): one block per SM (four on the SIMT backend), so a 21-tile pass gives each
/// block about five tiles, each holding two tickets in a 4-slot ring; 4-byte keys 64 x 3, pairs
/// 64 x 3 (value stages too).
struct policy_tiny_pipelined : policy_tiny {
  static constexpr int PIPELINE_STAGES = 2;
  static constexpr bool PIPELINE_BULK_COPY = true;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return policy_tiny::onesweep(t).blocks_per_sm(1);
  }
};

/// policy_tiny_pipelined with tiles that pause at random (also between taking the next ticket
/// and starting it).
using policy_tiny_pipelined_faulty = ringsweep::detail::with_hooks<policy_tiny_pipelined, faulty>;

/// policy_tiny_pipelined with per-thread cp.async copies instead of the copy engine (the SIMT
/// backend, like sm_90, has the engine; PIPELINE_BULK_COPY picks it).
struct policy_tiny_pipelined_cp_async : policy_tiny_pipelined {
  static constexpr bool PIPELINE_BULK_COPY = false;
};

}  // namespace ringsweep_test
