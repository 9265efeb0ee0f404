// onesweep_pipeline: the feeder of a persistent, pipelined onesweep block (the shape's
// PIPELINE_STAGES = 2): tickets taken early, tiles' keys and values copied into shared stages while
// the tile before them is ranked, looked back and scattered by onesweep_tile's phases.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "pass_route.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A pipelined block's shared memory besides the tile's: one tile's keys (and values) on their
/// way in, the mbarriers bulk copies complete on, the parities waited for and the next ticket.
template <class Bits, class ValueRaw, int TILE, bool HAS_VALUES>
struct pipeline_storage {
  struct stage {
    union {
      Bits keys[TILE];
      uint4 keys_words[ceil_div(TILE * int(sizeof(Bits)), 16)];  // 16-byte alignment
    };
    union {
      ValueRaw values[HAS_VALUES ? TILE : 1];
      uint4 values_words[HAS_VALUES ? ceil_div(TILE * int(sizeof(ValueRaw)), 16) : 1];
    };
  } in;
  u64 bars[2];    // bulk copies: the mbarriers the keys' and the values' copies complete on
  u32 parity[2];  // and the parities of the phases the waiters wait for (thread 0 flips them)
  u32 next_ticket;
};

/// The loop of a persistent pipelined block over `Tile` (an onesweep_tile whose PIPELINED is
/// true; its storage derives from pipeline_storage). Per tile `u`, with `next` the ticket after
/// it: wait for u's keys (the only batch in flight) and a barrier; thread 0 takes `next`; the keys
/// go to registers and u's values start on their way (a batch); a barrier frees the keys' stage,
/// which next's keys start into (a batch); then u ranks, looks back and scatters as a one-tile
/// block does (Tile::work), waiting for its values (all batches but next's keys) just before they
/// move (`values`). A block holds two tickets, u and next, and waits only for smaller tickets than
/// u (look-back, slot) or for its own copies; next starts once u is done (design.md section 6).
///
/// With the copy engine (the policy's PIPELINE_BULK_COPY where this compilation has it: BULK)
/// each stage's copy is one `cp.async.bulk` by thread 0 that completes on the stage's mbarrier;
/// the waiters read the phase's parity from shared memory, where thread 0 flips it as it starts
/// the stage's next copy (a loop counter for the parity costs a register, and sm_90's
/// 4-byte-key kernels spilled 4 B with it). Otherwise each stage is a batch of cp.async copies.
///
///     onesweep_pipeline<onesweep_tile<Config, Source>>(tile).run();
template <class Tile>
class onesweep_pipeline {
 public:
  using bits_type = typename Tile::bits_type;
  using ValueRaw = typename Tile::ValueRaw;
  static constexpr int ITEMS = Tile::ITEMS;
  static constexpr bool BULK = Tile::Policy::PIPELINE_BULK_COPY && has_bulk_copy();

  __device__ __forceinline__ explicit onesweep_pipeline(Tile& tile) : t_(tile) {}

  /// The block's loop over its tiles.
  __device__ __forceinline__ void run() {
    if (!t_.pass_runs()) return;
    auto& temp = t_.temp_;
    const auto& p = t_.p_;
    if (threadIdx.x == 0) {
      if constexpr (BULK) {
        mbarrier_init(&temp.bars[0], 1);
        mbarrier_init(&temp.bars[1], 1);
        temp.parity[0] = temp.parity[1] = 1;  // each start flips it: the first phase waited for is 0
      }
      temp.next_ticket = take_ticket();
    }
    __syncthreads();  // also orders pass_runs' route before its first use
    u32 u = temp.next_ticket - p.tile_base;
    if (u >= t_.launch_tiles()) return;
    start_keys(u);
    if constexpr (BULK) __syncthreads();  // the keys' parity
    for (;;) {
      if constexpr (BULK) {
        wait_bulk(0);
      } else {
        async_copy_wait<0>();
      }
      __syncthreads();  // u's keys have landed for the whole block; the last tile's reads are done
      if (threadIdx.x == 0) {
        temp.ticket = p.tile_base + u;
        temp.uniform_digit = -1;
        temp.next_ticket = take_ticket();  // early: the next tile's keys load during this one
      }
      t_.stamp(&tile_trace::ticket);
      const int valid = t_.valid_keys(u);
      bits_type keys[ITEMS];
      read_stage(temp.in.keys, valid, keys, t_.digit_of().pad);  // padded as the one-tile block pads
      if constexpr (Tile::HAS_VALUES) start_values(u, valid);
      __syncthreads();  // the keys' stage is free; next_ticket is set
      if (next_in_flight()) start_keys(temp.next_ticket - p.tile_base);
      if (threadIdx.x == 0) t_.tail().wait_slot_free(u);
      t_.work(u, valid, keys);
      // next_ticket is read from shared memory where needed (no register holds it through the
      // tile); thread 0 rewrites it only after the next iteration's first barrier.
      if (!next_in_flight()) return;
      u = temp.next_ticket - p.tile_base;
    }
  }

  /// Waits until the tile's values have landed (every batch but the next tile's keys), then a
  /// barrier, which also ends every thread's reads of keys in shared memory.
  __device__ __forceinline__ void wait_values() const {
    if constexpr (BULK) {
      wait_bulk(1);
    } else if (next_in_flight()) {
      async_copy_wait<1>();
    } else {
      async_copy_wait<0>();
    }
    __syncthreads();
  }

  /// This warp's items of the staged tile, warp-striped as load_warp_striped gives them.
  template <class T>
  __device__ __forceinline__ static void read_stage(const T* stage, int valid, T (&items)[ITEMS], const T& fill = T{}) {
    const int first = int(Tile::seg_first()) + int(lane_id());
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = first + k * warp_threads;
      items[k] = i < valid ? stage[i] : fill;
    }
  }

 private:
  /// Bulk copies, thread 0 only: flips stage `s`'s parity. The access is volatile so that the
  /// compiler cannot hoist the read out of thread 0's branch: it did (an unconditional LDS in
  /// every thread, dead in all but thread 0), and compute-sanitizer's racecheck on an H100
  /// (2026-11-26) reported those reads as racing with thread 0's write.
  __device__ __forceinline__ void flip_parity(int s) const {
    volatile u32& parity = t_.temp_.parity[s];
    parity = parity ^ 1u;
  }

  /// Bulk copies: waits until the phase of stage `s`'s mbarrier (0 keys, 1 values) that thread
  /// 0's latest start of the stage belongs to completes.
  __device__ __forceinline__ void wait_bulk(int s) const {
    u32 pause = 0;
    while (!mbarrier_try_wait_parity(&t_.temp_.bars[s], t_.temp_.parity[s])) backoff(pause);
  }

  /// Starts `count` items of `src` into `stage` (a batch of cp.async copies, or a bulk copy
  /// completing on stage `s`'s mbarrier).
  template <class T>
  __device__ __forceinline__ void start_stage(T* stage, const T* src, int count, int s) const {
    if constexpr (BULK) {
      if (threadIdx.x == 0) flip_parity(s);
      block_bulk_copy_to_shared<Tile::THREADS>(stage, src, count, &t_.temp_.bars[s]);
    } else {
      (void)s;
      block_copy_to_shared<Tile::THREADS>(stage, src, count);
      async_copy_commit();
    }
  }

  /// Whether the ticket taken early has a tile (whose keys are then on their way).
  __device__ __forceinline__ bool next_in_flight() const {
    return t_.temp_.next_ticket - t_.p_.tile_base < t_.launch_tiles();
  }

  /// Thread 0: takes a ticket (the launch's first of its tile clears the next launch's tail words).
  __device__ __forceinline__ u32 take_ticket() const {
    const u32 t = atomicAdd(t_.p_.ticket, 1u);
    Tile::Hooks::pause(t, 0);
    if (t == t_.p_.tile_base) {  // the previous launch is done with the next launch's words
      Tile::Hooks::first_ticket(t_.tail().words, Tile::tail_t::WORDS);
      t_.tail().clear_next();
    }
    t_.skip_missing_tiles(t);
    return t;
  }

  /// Starts tile u's keys into the stage.
  __device__ __forceinline__ void start_keys(u32 u) const {
    start_stage(t_.temp_.in.keys, t_.keys_in() + Tile::tile_first(u), t_.valid_keys(u), 0);
  }

  /// Starts tile u's values into the stage (one batch; empty where argsort makes them).
  __device__ __forceinline__ void start_values(u32 u, int valid) const {
    if constexpr (Tile::INDEX_VALUES) {
      if (pass_route::src(t_.temp_.route) == buffer_in) {
        if constexpr (BULK) {
          if (threadIdx.x == 0) {
            flip_parity(1);
            mbarrier_arrive_expect_tx(&t_.temp_.bars[1], 0);  // the phase completes empty
          }
        } else {
          async_copy_commit();
        }
        return;
      }
    }
    start_stage(t_.temp_.in.values, t_.values_in() + Tile::tile_first(u), valid, 1);
  }

  Tile& t_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
