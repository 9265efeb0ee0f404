// onesweep_tile: one tile of one digit pass. Ranks the tile, publishes its digit counts, looks back
// for its global digit offsets and scatters keys (and values) to their places in the pass output.
#pragma once

#include <type_traits>

#include "../block/block_radix_rank.cuh"
#include "../block/block_scatter.cuh"
#include "../detail/config.cuh"
#include "../detail/sort_hooks.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"
#include "../warp/warp_vector_load.cuh"
#include "onesweep_chain.cuh"
#include "onesweep_pipeline.cuh"
#include "pass_route.cuh"
#include "sort_config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of one onesweep launch (one pass over one portion of the keys); those of its tile
/// source (`SourceParams`: a segmented sort's segments, a counted sort's count) in its base.
template <class Key, class ValueRaw, class SourceParams>
struct onesweep_params : SourceParams {
  using bits_type = typename key_traits<Key>::bits_type;
  bits_type* keys_buf[3];        // the sort's key buffers, by pass_buffer: input (read only), final, other
  ValueRaw* values_buf[3];       // the same for values (null: keys only)
  const u32* route;              // this pass's route (pass_route): the buffers it reads and writes, or none
  std::size_t first_key;         // index of the portion's first key in the input of the pass
  u32 keys;                      // keys in the portion
  u32 tiles;                     // tiles in the portion
  u32 tickets;                   // tickets the launch takes: its tiles, and one more per block of a
                                 // persistent grid (each block's last finds no tile)
  const u64* bins_in;            // per digit: global offset of the portion's first key of that digit
  u64* bins_out;                 // per digit: the same for the next portion (null: last portion)
  u64* status;                   // circular status buffer
  u32* ticket;                   // the sort's tile ticket, continued across launches
  u32* tails;                    // the sort's tail words (tail_iterator::WORDS_PER_SORT)
  u32 tile_base;                 // first ticket of this launch
  u32 launch;                    // index of this launch within the sort
  digit_extractor<Key> digit;    // this pass's digit of a key (built on the host)
  tile_trace* trace;             // hooks that trace: the sort's tile timelines, by ticket
};

/// The per-block worker of the onesweep kernel. A tile goes through four phases, each a
/// force-inlined member: `acquire` (ticket, status slot, key loads), `rank_and_publish` (ranks,
/// digit counts published for the look-back), `look_back` (global digit offsets, retirement) and
/// `scatter` (keys, then values, to the pass output).
///
/// Its shape, ring and look-back are its sort_config's (the host's for the same sort).
///
///     __shared__ typename onesweep_tile<P, Key, V, true>::TempStorage temp;
///     onesweep_tile<P, Key, V, true>(temp, params).process();
/// With `INDEX_VALUES` (argsort) the pass that reads the input's values makes them instead: each
/// key's input position.
///
/// With the shape's `PIPELINE_STAGES` = 2 (and a source a persistent block may take) the block is
/// persistent and its feeder is onesweep_pipeline (its own file, with the copy engine's bulk copies):
/// it takes tiles by ticket until one finds no tile, and while a tile ranks, looks back and
/// scatters, the next tile's ticket is taken and its keys are on their way into shared memory of
/// their own (`in`); a tile's values follow into it during the tile's ranking. TempStorage is then
/// too large for static shared memory: the kernel places it in dynamic shared memory.
///
/// Where the tile's keys come from is its tile source (`Source`), a type of its own file:
/// `portion_tiles<HINTS>` (a plain pass over a portion), `counted_tiles<HINTS>` (a sort whose n
/// is on the device: only the real keys' tiles exist) and `segment_tiles` (a segmented sort's
/// large segments). A source answers which launched tiles exist, what a ticket's tile is (its keys
/// and its first key) and where the digits' offsets at its start come from and go to; `HINTS`
/// (cache hints, for a sort whose data cannot stay in L2: the host decides) rides with it: keys
/// and values then load and store evict-first, the status words and digit offsets evict-last
/// (load_store.cuh, intrinsics.cuh); but a pairs tile of one digit stores plainly (its 2 x ITEMS
/// striped stores through inline PTX spilled the sm_90 4-byte pairs kernel 8 bytes). A new kind of
/// sort adds a tile source, not a flag here.
///
/// Where a source's tiles are not all real (`ALL_REAL` false), a one-tile block past the last
/// real tile leaves before taking a ticket, a persistent block stops at its first ticket past
/// them, the last real tile moves the ticket past the missing ones, and a launch with no real
/// tile acts as a skipped launch. A source whose blocks loop (`LOOPED`, not pipelined) and whose
/// launches are chained in one kernel (`CHAINED`: segment_tiles) is launched as the blocks that
/// fit, not one per tile, each taking tiles by ticket, one at a time, through every launch of the
/// chain (onesweep_chain, its own file). Tickets go in order, so a tile waits only on tiles whose
/// blocks already run: no co-residency is assumed.
template <class Config, class Source>
class onesweep_tile {
 public:
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using ValueRaw = typename Config::value_raw_t;
  using Hooks = typename Config::hooks;
  using params_t = onesweep_params<Key, ValueRaw, typename Source::params>;
  using source_t = Source;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr bool INDEX_VALUES = Config::INDEX_VALUES;
  static constexpr bool CACHE_HINTS = Source::HINTS;
  static_assert(Source::PERSISTENT || !INDEX_VALUES, "a source that is not persistent (segmented) reads its values");
  using bits_type = typename Config::bits_type;
  using shape = typename Config::shape;
  static constexpr int THREADS = Config::THREADS;
  static constexpr int ITEMS = Config::ITEMS;
  static constexpr int TILE = Config::TILE;
  static constexpr int MIN_BLOCKS = shape::MIN_BLOCKS;
  static constexpr int RADIX = Config::RADIX;
  using rank_t = block_radix_rank<THREADS, ITEMS, Config::RADIX_BITS>;
  using scatter_t = block_scatter<THREADS, ITEMS>;
  using lookback_t = typename Config::template lookback_hinted_t<CACHE_HINTS>;
  using tail_t = typename Config::tail_t;
  static constexpr int DPT = rank_t::DIGITS_PER_THREAD;
  static constexpr int WARPS = THREADS / warp_threads;
  /// Whether items of type T load through warp_vector_load.
  template <class T>
  __host__ __device__ static constexpr bool vector_loaded() {
    if constexpr (16 % sizeof(T) != 0) {
      return false;  // custom keys of 3, 12 ... bytes
    } else {
      return int(sizeof(T)) <= shape::VECTOR_LOAD_ITEM_BYTES && warp_vector_load<T, ITEMS>::VEC > 1;
    }
  }
  /// Persistent and pipelined (see above).
  static constexpr bool PIPELINED = Config::PIPELINED && Source::PERSISTENT;
  static constexpr bool STAGED =
      !PIPELINED && (vector_loaded<bits_type>() || (HAS_VALUES && vector_loaded<ValueRaw>()));
  /// Keys only, the shape's fused_exchange: the ranking stores each key at its rank (no ranks
  /// array, no exchange loop); the ranking's counters and the keys then sit side by side.
  static constexpr bool FUSED = shape::FUSED_EXCHANGE && !HAS_VALUES && !PIPELINED;
  /// Pairs, not pipelined, where the shape asks (onesweep_shape::early_values): the keys go to
  /// shared memory before the look-back, as in a keys-only sort, and the tile's values are loaded
  /// then, in flight while the look-back waits; the values replace the keys in registers through
  /// the look-back.
  static constexpr bool EARLY_VALUES = HAS_VALUES && !PIPELINED && shape::EARLY_VALUES;
  /// Pipelined pairs: the look-back leaves each digit's base as an index in the keys' table and
  /// runs_from_bases makes it a pointer after it (made in the look-back, the pointers spilled the
  /// pipelined u64/u64 pairs of the tune list 8 bytes on sm_90).
  static constexpr bool INDEX_RUNS = HAS_VALUES && PIPELINED;
  /// A looping block's pairs of 4-byte keys with 1- or 2-byte values (values loaded after the
  /// look-back): the keys go to shared memory at their ranks before the look-back, as keys alone
  /// do, instead of after it: held in registers through it, one rank spilled 4 bytes on sm_90
  /// (u32/u16, f32/u16, f32/u8 keys and values; scripts/spill_survey.sh).
  static constexpr bool LOOPED_KEYS_FIRST = Source::LOOPED && !PIPELINED && HAS_VALUES && !EARLY_VALUES &&
                                            sizeof(bits_type) == 4 && sizeof(ValueRaw) < 4;
  /// The keys go to shared memory before the look-back.
  static constexpr bool KEYS_FIRST = !HAS_VALUES || EARLY_VALUES || LOOPED_KEYS_FIRST;
  /// Pipelined: the feeder that takes the block's tickets and stages its tiles (its own file).
  using pipeline_t = onesweep_pipeline<onesweep_tile>;
  friend pipeline_t;
  /// A chained source (several launches in one, onesweep_chain): the loop over its tickets.
  using chain_t = onesweep_chain<onesweep_tile>;
  friend chain_t;
  /// How the tile's keys and values load (load_store.cuh): evict-first with cache hints; through
  /// L2 only where an earlier launch of a chain wrote them in the same kernel (the non-coherent
  /// path may hold what that SM read of the buffer before); else the non-coherent path.
  static constexpr int LOAD = CACHE_HINTS ? load_stream : Source::CHAINED ? load_coherent : load_cached;

  /// Each warp's warp_vector_load stage (keys, later values): not in the union, which holds other
  /// warps' keys while values are loaded. An empty base (no bytes) when nothing is vector-loaded.
  template <bool, class = void>
  struct stage_storage {};
  template <class Dummy>
  struct stage_storage<true, Dummy> {
    uint4 stage[WARPS * warp_threads];
  };

  /// Pipelined: the feeder's storage (onesweep_pipeline), apart from the ranking's.
  template <bool, class = void>
  struct incoming_storage {};
  template <class Dummy>
  struct incoming_storage<true, Dummy> : pipeline_storage<bits_type, ValueRaw, TILE, HAS_VALUES> {};

  /// The ranking's storage and the tile's keys (and values) for the exchange: one union, or side
  /// by side for a fused exchange (FUSED).
  union joint_storage {
    typename rank_t::TempStorage rank;
    bits_type keys[TILE];
    ValueRaw values[HAS_VALUES ? TILE : 1];
  };
  struct split_storage {
    typename rank_t::TempStorage rank;
    bits_type keys[TILE];
  };

  struct TileStorage : stage_storage<STAGED>, incoming_storage<PIPELINED>, Source::storage {
    typename std::conditional<FUSED, split_storage, joint_storage>::type u;
    // Per digit: where tile rank 0 would go if it had this digit, in the pass's key output (after
    // the look-back; pairs without their own table: in the values output once the keys have
    // left, read as an array of value pointers). A pointer, so that a key's address is one
    // multiply-add of its 32-bit rank.
    bits_type* digit_out[RADIX];
    u32 ticket;
    int uniform_digit;      // the digit of every key of the tile, or -1
    u32 route;              // the pass's route word (see pass_runs)
  };

  /// Pairs: the digits' runs in the values output get a table of their own where static shared
  /// memory has room for it (filled with the keys' table, in the look-back); otherwise each
  /// digit owner rewrites the keys' table in place once the keys have left, which costs registers
  /// while the values are held (u32 pairs on sm_90 spilled with it).
  /// Pairs: log2 of the value's bytes (values are 1, 2, 4, 8 or 16 bytes: sort_config), so that
  /// a value's exchange slot is a byte offset made by one shift of its packed rank (scatter_pairs).
  static constexpr int VALUE_SHIFT = sizeof(ValueRaw) == 1 ? 0 : sizeof(ValueRaw) == 2 ? 1
                                   : sizeof(ValueRaw) == 4 ? 2 : sizeof(ValueRaw) == 8 ? 3 : 4;
  static_assert(RADIX <= (1 << (16 - 4)), "the packed digit must shift out of a 16-byte value's byte offset");
  static constexpr bool VALUE_TABLE =
      HAS_VALUES && !PIPELINED && sizeof(TileStorage) + RADIX * sizeof(void*) <= 48 * 1024;
  template <bool, class = void>
  struct value_table_storage {};
  template <class Dummy>
  struct value_table_storage<true, Dummy> {
    ValueRaw* value_out[RADIX];
  };
  struct TempStorage : TileStorage, value_table_storage<VALUE_TABLE> {};
  /// The storage lives in dynamic shared memory (the kernel's launch gives its size): pipelined,
  /// or larger than the 48 KiB a kernel's static shared memory may hold (a fused 384 x 24 tile of
  /// 4-byte keys, issue #35).
  static constexpr bool DYNAMIC_SHARED = PIPELINED || sizeof(TempStorage) > 48 * 1024;

  __device__ __forceinline__ onesweep_tile(TempStorage& temp, const params_t& p)
      : temp_(temp), p_(p) {}

  __device__ __forceinline__ void process() {
    if constexpr (PIPELINED) {
      pipeline_t(*this).run();
    } else if constexpr (Source::CHAINED) {
      chain_t(*this).run();
    } else {
      if (!pass_runs()) return;
      bits_type keys[ITEMS];
      const u32 u = acquire(keys);
      work(u, valid_keys(u), keys);
    }
  }

 private:
  // The tail and look-back handles are made where used (from kernel parameters), so that no
  // pointer of theirs occupies registers through the tile.
  __device__ __forceinline__ tail_t tail() const { return tail_t(p_.tails, p().launch); }
  __device__ __forceinline__ lookback_t lookback() const { return lookback_t{{p_.status}, p().tile_base}; }
  // Digits are read with a copy of the parameters' extractor made at each use: on the GPU its
  // members come straight from the constant bank, so nothing is recomputed and no register holds
  // them (calling p_.digit in place would take the address of a kernel parameter).
  __device__ __forceinline__ digit_extractor<Key> digit_of() const { return digit_extractor<Key>(p().digit); }

  /// Hooks that trace: thread 0 writes the time to `field` of the tile's trace record.
  __device__ __forceinline__ void stamp(u64 tile_trace::*field) const {
    if constexpr (Hooks::TRACE) {
      if (threadIdx.x == 0) p_.trace[temp_.ticket].*field = global_timer_ns();
    } else {
      (void)field;
    }
  }

  /// Kernel start: whether this launch's pass runs (its route, written by the bins scan). A
  /// skipped launch moves nothing; its block 0 leaves the ticket and the tail words as a launch
  /// that ran would (the next launch's `tile_base` and tail set stay valid) and every block exits.
  __device__ __forceinline__ bool pass_runs() {
    const u32 r = *p_.route;
    if constexpr (!Source::ALL_REAL) {
      // Blocks past the launch's last real tile leave before taking a ticket, so the real tiles
      // take the first ones; the last real tile moves the ticket past the rest (acquire). A
      // persistent block stays while one real tile exists and stops at its first ticket past them.
      const u32 real = Source::template start<TILE>(temp_, p_);
      if (pass_route::runs(r) && (PIPELINED ? real == 0 : blockIdx.x >= real)) {
        if (blockIdx.x == 0 && threadIdx.x == 0) {  // no real tile: as a skipped launch
          *p_.ticket = p_.tile_base + p_.tickets;
          tail().clear_next();
        }
        return false;
      }
    }
    if (!pass_route::runs(r)) {
      if (blockIdx.x == 0 && threadIdx.x == 0) {
        *p_.ticket = p_.tile_base + p_.tickets;
        tail().clear_next();
      }
      return false;
    }
    if (threadIdx.x == 0) temp_.route = r;  // read after acquire's first barrier
    return true;
  }
  // The pass's buffers: picked from the parameters' tables by the route in shared memory at each
  // use, so no pointer stays in registers through the tile.
  template <class T>
  __device__ __forceinline__ static T* pick(T* const (&table)[3], u32 i) {
    return i == buffer_in ? table[0] : i == buffer_final ? table[1] : table[2];
  }
  // An output buffer: the same pick (a route names buffer 0, 1 or 2) as one indexed load of the
  // parameters' table instead of two selects: 4 instructions less per digit in the look-back. The
  // inputs keep the selects: indexed there, sm_80's u64 keys took 3 registers more.
  template <class T>
  __device__ __forceinline__ static T* pick_out(T* const (&table)[3], u32 i) {
    return table[i];
  }
  __device__ __forceinline__ const bits_type* keys_in() const {
    return pick(p_.keys_buf, pass_route::src(temp_.route)) + p_.first_key;
  }
  __device__ __forceinline__ bits_type* keys_out() const { return pick_out(p_.keys_buf, pass_route::dst(temp_.route)); }
  __device__ __forceinline__ const ValueRaw* values_in() const {
    return pick(p_.values_buf, pass_route::src(temp_.route)) + p_.first_key;
  }
  __device__ __forceinline__ ValueRaw* values_out() const {
    return pick_out(p_.values_buf, pass_route::dst(temp_.route));
  }
  // This warp's segment of the tile's values, as one opaque pointer: otherwise the item addresses
  // become a 64-bit index sum on a register base per item (sm_90 pairs spilled).
  __device__ __forceinline__ const ValueRaw* values_segment(u32 u) const {
    return opaque(values_in() + (Source::template origin<TILE>(temp_, u) + seg_first()));
  }
  // This warp's segment of the tile's keys.
  __device__ __forceinline__ const bits_type* keys_segment(u32 u) const {
    return keys_in() + (Source::template origin<TILE>(temp_, u) + seg_first());
  }
  /// The launch's tiles a persistent block takes: all, or those that exist.
  __device__ __forceinline__ u32 launch_tiles() const { return Source::template launch_tiles<TILE>(temp_, p_); }
  /// A source whose tiles are not all real: the launch's last real tile (ticket `t`) moves the
  /// ticket past the tiles that do not exist, so that the launch ends with the ticket the host
  /// counted on.
  __device__ __forceinline__ void skip_missing_tiles(u32 t) const {
    if constexpr (!Source::ALL_REAL) {
      const u32 real = Source::template real_tiles<TILE>(temp_, p_);
      if (t - p_.tile_base == real - 1 && real < p_.tiles) atomicAdd(p_.ticket, p_.tiles - real);
    } else {
      (void)t;
    }
  }

  /// Tile `u`'s first key in its portion (the portion sources': 32 bits, a portion holds fewer than 2^30 keys).
  __device__ __forceinline__ static u32 tile_first(u32 u) { return u * u32(TILE); }
  __device__ __forceinline__ int valid_keys(u32 u) const {
    return Source::template valid<TILE, PIPELINED>(temp_, p(), u);
  }
  /// Digit `d`'s global offset at the tile's start (its source's).
  __device__ __forceinline__ u64 bin_of(int d) const { return Source::bin(temp_, p(), d); }
  // A looping block (Source::LOOPED) makes its thread's warp and lane again at each use: hoisted
  // out of the tile loop, they were held through every tile and spilled the sm_90 pairs kernels.
  __device__ __forceinline__ static int warp() {
    if constexpr (Source::LOOPED) return int(tid()) / warp_threads;
    return int(threadIdx.x) / warp_threads;
  }
  __device__ __forceinline__ static u32 tid() {
    if constexpr (Source::LOOPED) return thread_index_reread();  // read again at each use
    return u32(threadIdx.x);
  }
  __device__ __forceinline__ static int first_digit() {
    if constexpr (Source::LOOPED) return int(tid()) * DPT;  // rank_t::first_digit()
    return rank_t::first_digit();
  }
  __device__ __forceinline__ static u32 lane() {
    if constexpr (Source::LOOPED) return tid() % u32(warp_threads);  // one-dimensional blocks
    return lane_id();
  }
  __device__ __forceinline__ static u32 seg_first() { return u32(warp()) * u32(scatter_t::SEGMENT); }

  /// This thread's digits' global offsets at the portion's start (PREFETCH_BINS): loaded before
  /// they are needed, off the look-back's critical path, for 2 registers per digit.
  __device__ __forceinline__ void load_bins(u64 (&bins)[DPT]) const {
RINGSWEEP_UNROLL
    for (int i = 0; i < DPT; ++i) {
      const int d = first_digit() + i;
      bins[i] = d < RADIX ? bin_of(d) : 0;
    }
  }

  /// A tile with its keys in registers (and its slot free once the ranking's barriers have passed):
  /// rank and publish, look back, scatter.
  __device__ __forceinline__ void work(u32 u, int valid, bits_type (&keys)[ITEMS]) {
    u64 bins[DPT];  // this thread's digits' bins_in, when the policy prefetches them
    if constexpr (shape::PREFETCH_BINS == 2) load_bins(bins);
    u32 ranks[ITEMS], counts[DPT], starts[DPT];
    refresh_chain();
    rank_and_publish(u, valid, keys, ranks, counts, starts);
    ValueRaw values[HAS_VALUES ? ITEMS : 1];  // loaded here (EARLY_VALUES) or by scatter_pairs
    if constexpr (EARLY_VALUES) {
      // sass: values_load
      load_values(u, lane(), valid, values);
      // sass: end
    }
    if constexpr (shape::PREFETCH_BINS == 1) load_bins(bins);
    look_back(u, counts, starts, bins);
    refresh_chain();
    scatter(u, valid, keys, ranks, values);
    if constexpr (Hooks::TRACE) {
      __syncthreads();
      stamp(&tile_trace::exit);
    }
  }

  /// Phase 1: takes the tile's ticket (local index `u`, returned), loads this warp's keys
  /// warp-striped and, while they are in flight, waits until the tile's status slot may be
  /// written. The wait is thread 0's; the ranking's barriers order it before every publish.
  __device__ __forceinline__ u32 acquire(bits_type (&keys)[ITEMS]) {
    take_ticket();
    return load_tile(keys);
  }
  /// acquire's first half: thread 0 takes the ticket and finds its tile; every thread then sees it.
  __device__ __forceinline__ void take_ticket() {
    // sass: load
    if (tid() == 0) {
      const u32 t = atomicAdd(p_.ticket, 1u);
      Hooks::pause(t, 0);
      if (t == p_.tile_base) {  // the previous launch is done with the next launch's words
        Hooks::first_ticket(tail().words, tail_t::WORDS);
        tail().clear_next();
      }
      temp_.ticket = t;
      temp_.uniform_digit = -1;
      skip_missing_tiles(t);
      Source::template on_ticket<TILE, PIPELINED>(temp_, p_, t);
    }
    __syncthreads();
    // sass: end
  }
  /// acquire's second half: the ticket's keys on their way, the status slot waited for.
  __device__ __forceinline__ u32 load_tile(bits_type (&keys)[ITEMS]) {
    // sass: load
    stamp(&tile_trace::ticket);
    const u32 u = temp_.ticket - p().tile_base;
    // A partial tile is padded with the key whose every digit is the pass's largest (phase 2).
    load_segment(keys_segment(u), warp(), lane(), valid_keys(u) - int(seg_first()), keys, digit_of().pad);
    if (tid() == 0) tail().wait_slot_free(u);
    return u;
    // sass: end
  }

  /// Phase 2: ranks the tile's keys; as soon as the digit counts are known they are published for
  /// later tiles' look-back (and a digit that holds every key is noted). Keys only: the keys then
  /// go to shared memory at their ranks.
  __device__ __forceinline__ void rank_and_publish(u32 u, int valid, bits_type (&keys)[ITEMS], u32 (&ranks)[ITEMS],
                                                   u32 (&counts)[DPT], u32 (&starts)[DPT]) {
    Hooks::pause(temp_.ticket, 1);
    // With RECOMPUTE_DIGITS (see policy.cuh), and always for 1- and 2-byte keys, the digit is
    // recomputed from an opaque key at each use: otherwise the optimiser keeps every digit live
    // from the counting to the ranking, which costs ITEMS registers (u8 pairs spilled on sm_90).
    const auto digit_at = [&](int k) {
      if constexpr (sizeof(bits_type) < 4 || shape::RECOMPUTE_DIGITS) {
        return digit_of()(opaque(keys[k]));
      } else {
        return digit_of()(keys[k]);
      }
    };
    // The tile is padded (acquire): no bounds check per key.
    const auto publish = [&](const u32 (&c)[DPT]) {
      // sass: publish
RINGSWEEP_UNROLL
      for (int i = 0; i < DPT; ++i) {
        const int d = first_digit() + i;
        if (d < RADIX) {
          lookback().publish_count(u, d, c[i]);
          if (int(c[i]) == valid) temp_.uniform_digit = d;
        }
      }
      stamp(&tile_trace::counts);
      // sass: end
    };
    if constexpr (FUSED) {
      // Each key to its rank as the warp ranking finds it (the padding lands past `valid`).
      (void)ranks;
      rank_t(temp_.u.rank).rank_padded_each(digit_at, valid, digit_of().mask, counts, starts, publish,
                                            [&](int k, u32 rank) { temp_.u.keys[rank] = keys[k]; });
      return;
    } else {
      rank_t(temp_.u.rank).rank_padded(digit_at, valid, digit_of().mask, ranks, counts, starts, publish);
    }

    // The keys go to shared memory at their ranks before the look-back, as in CUB, so that they
    // hold no registers while it spins (keys only, with 56 registers, three blocks per SM, this
    // is what avoids spills; pairs hold their values there instead: EARLY_VALUES; a looping
    // block's 4-byte keys with narrow values too: LOOPED_KEYS_FIRST). Other pairs keep keys and
    // ranks until after it.
    if constexpr (KEYS_FIRST) {
      // sass: exchange
      __syncthreads();  // every thread is done with the ranking's shared memory (a union with keys)
      scatter_t::to_shared(temp_.u.keys, keys, ranks);  // the padding lands past `valid`
      // sass: end
    }
  }

  /// Phase 3: each thread's digits find their exclusive prefix over the earlier tiles, publish
  /// their inclusive count and set the digit's global base; then the tile retires from the
  /// status buffer (a release reduction: no wait, no reply; see tail_iterator).
  __device__ __forceinline__ void look_back(u32 u, const u32 (&counts)[DPT], const u32 (&starts)[DPT],
                                            const u64 (&bins)[DPT]) {
    // sass: lookback
    stamp(&tile_trace::lookback_start);
RINGSWEEP_UNROLL
    for (int i = 0; i < DPT; ++i) {
      const int d = first_digit() + i;
      if (d < RADIX) {
        Hooks::pause(p().tile_base + u, 2);
        lookback_stats stats;
        const u32 exclusive = lookback().exclusive_prefix(u, d, Hooks::TRACE ? &stats : nullptr);
        if constexpr (Hooks::TRACE) {
          atomicMax(&p_.trace[temp_.ticket].depth, stats.depth);
          atomicAdd(&p_.trace[temp_.ticket].polls, stats.polls);
        }
        Hooks::pause(p().tile_base + u, 3);
        const u32 inclusive = exclusive + counts[i];
        lookback().publish_inclusive(u, d, inclusive);
        const u64 bin = shape::PREFETCH_BINS != 0 ? bins[i] : bin_of(d);
        const std::int64_t base = std::int64_t(bin + exclusive) - std::int64_t(starts[i]);
        if (p().bins_out != nullptr && u == p().tiles - 1) {
          Source::carry(p(), d, bin, inclusive);
        }
        if constexpr (INDEX_RUNS) {
          temp_.digit_out[d] = reinterpret_cast<bits_type*>(base);  // a pointer by runs_from_bases
        } else {
          // Pointers at once, pairs too (left as indices for a pass after the look-back to make
          // pointers of, the runs cost a load and a store more per digit and tile: 0.6-1.4 SASS
          // per key).
          temp_.digit_out[d] = keys_out() + base;
          if constexpr (VALUE_TABLE) temp_.value_out[d] = values_out() + base;
        }
      }
    }
    __syncthreads();  // look-back reads done; digit_out complete (keys only: keys in shared)
    stamp(&tile_trace::lookback_end);
    // A launch whose tiles all fit the ring's free window never waits for a slot: nothing to retire.
    if (tid() == 0 && p().tiles > tail_t::FREE_TILES) {
      Hooks::pause(p().tile_base + u, 4);
      tail().retire(u);
    }
    stamp(&tile_trace::retired);
    // sass: end
  }

  /// Phase 4: keys (and then values) to their global places: one run when the whole tile has one
  /// digit, else through shared memory in rank order.
  __device__ __forceinline__ void scatter(u32 u, int valid, const bits_type (&keys)[ITEMS], u32 (&ranks)[ITEMS],
                                          ValueRaw (&values)[HAS_VALUES ? ITEMS : 1]) {
    const u32 lane = this->lane();
    const int uniform = temp_.uniform_digit;
    if (uniform >= 0) {
      // sass: cold
      // One digit only: ranks are positions, so the tile keeps its order and goes to one run.
      if constexpr (EARLY_VALUES) {
        // The keys in shared memory (in tile order), the values in registers (warp-striped).
        bits_type* const run = temp_.digit_out[uniform];
        scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, valid,
                                                          [&](int, int i, bits_type) { return run + u32(i); });
        ValueRaw* const values_run = values_out() + (run - keys_out());
        store_warp_striped(values_run + seg_first(), lane, valid - int(seg_first()), values);
      } else if constexpr (LOOPED_KEYS_FIRST) {
        // The keys in shared memory (in tile order), the values loaded now.
        bits_type* const run = temp_.digit_out[uniform];
        scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, valid,
                                                          [&](int, int i, bits_type) { return run + u32(i); });
        load_values(u, lane, valid, values);
        store_warp_striped(values_out() + (run - keys_out()) + seg_first(), lane, valid - int(seg_first()), values);
      } else if constexpr (HAS_VALUES) {
        const std::int64_t base = INDEX_RUNS ? reinterpret_cast<std::int64_t>(temp_.digit_out[uniform])
                                             : temp_.digit_out[uniform] - keys_out();
        store_warp_striped(keys_out() + base + seg_first(), lane, valid - int(seg_first()), keys);
        load_values(u, lane, valid, values);
        store_warp_striped(values_out() + base + seg_first(), lane, valid - int(seg_first()), values);
      } else {
        bits_type* const run = temp_.digit_out[uniform];
        scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, valid,
                                                          [&](int, int i, bits_type) { return run + u32(i); });
      }
      return;
      // sass: end
    }

    if constexpr (HAS_VALUES && !EARLY_VALUES && !LOOPED_KEYS_FIRST) {
      // sass: exchange
      if constexpr (INDEX_RUNS) runs_from_bases();
      scatter_t::to_shared(temp_.u.keys, keys, ranks);  // the padding lands past `valid`
      __syncthreads();
      // sass: end
    }

    if constexpr (HAS_VALUES) {
      // One keys loop for whole and partial tiles, only its stores guarded: a whole tile's own
      // unguarded copy (keys loop only, or keys and values) spilled u32 pairs on sm_90 (8 to 84
      // bytes), and a branch around each key cost 18.5 SASS instructions per key against 10.
      scatter_pairs(u, valid, ranks, values);
    } else {
      // sass: keys_scatter
      if (valid == TILE) {
        scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, key_address(ranks));
      } else {
        // sass: cold
        scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, valid, key_address(ranks));
        // sass: end
      }
    }
  }

  /// The address of block-striped key k, rank i, in the pass output: its digit's run plus its
  /// rank. Pairs: ranks[k] becomes `rank << 16 | digit` (the rank, of warp-striped item k, below
  /// 2^16; the digit, of block-striped key k, for the values' trip), so that no second array of
  /// ITEMS registers holds the digits; one multiply-add.
  __device__ __forceinline__ auto key_address(u32 (&ranks)[ITEMS]) const {
    return [&](int k, int i, bits_type key) {
      const u32 d = digit_of()(key);
      if constexpr (HAS_VALUES) ranks[k] = ranks[k] * 65536u + d;
      return temp_.digit_out[d] + u32(i);
    };
  }

  /// Pairs, keys in shared memory in rank order (the padding past `valid`): keys, then values, to
  /// their runs.
  __device__ __forceinline__ void scatter_pairs(u32 u, int valid, u32 (&ranks)[ITEMS],
                                                ValueRaw (&values)[ITEMS]) {
    // sass: keys_scatter
    if constexpr (PIPELINED) {
      // The pipelined kernel (tune variants only) keeps a branch per key: only the stores
      // predicated, its u8/u8 pairs spilled 8 bytes on sm_90 (its u32/u32 pairs spill either way).
      // The ranks the branches skip (the padding's) still move to the high half.
      scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.keys, valid, key_address(ranks));
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        if (k * THREADS + int(threadIdx.x) >= valid) ranks[k] <<= 16;
      }
    } else {
      scatter_t::template padded_to_global<CACHE_HINTS>(temp_.u.keys, valid, key_address(ranks));
    }
    // sass: values_load
    if constexpr (!EARLY_VALUES) load_values(u, lane(), valid, values);
    // sass: values_exchange
    if constexpr (!PIPELINED) __syncthreads();  // the keys have left shared memory (pipelined: load_values' barrier)
    if constexpr (!VALUE_TABLE) values_runs();
    // The padding's values land past `valid`. A value of 2^S bytes finds its slot's byte offset
    // with one shift of its packed rank (the digit shifts out), which sm_90 adds to the shared
    // base in the store itself (as an index: a shift and a multiply-add).
    char* const slots = reinterpret_cast<char*>(temp_.u.values);
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) *reinterpret_cast<ValueRaw*>(slots + (ranks[k] >> (16 - VALUE_SHIFT))) = values[k];
    __syncthreads();
    // sass: values_scatter
    // The run comes from shared memory by the digit: a table pointer hoisted out of this loop was
    // a generic pointer, each run a generic 64-bit load.
    const auto address = [&](int k, int i, const ValueRaw&) {
      return value_run(opaque(ranks[k] & 0xffffu)) + u32(i);  // the digit: the low half
    };
    if (valid == TILE) {
      scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.values, address);
    } else {
      // sass: cold
      scatter_t::template shared_to_global<CACHE_HINTS>(temp_.u.values, valid, address);
    }
    // sass: end
  }

  /// Pairs without their own values table: each digit owner turns its digits' bases (indices,
  /// from the look-back) into pointers into the key output; read by other threads only after the
  /// exchange's barrier.
  __device__ __forceinline__ void runs_from_bases() {
    bits_type* const keys = keys_out();
RINGSWEEP_UNROLL
    for (int i = 0; i < DPT; ++i) {
      const int d = first_digit() + i;
      if (d < RADIX) temp_.digit_out[d] = keys + reinterpret_cast<std::int64_t>(temp_.digit_out[d]);
    }
  }

  /// Pairs: digit `d`'s run in the values output (its own table, or the keys' table rewritten).
  __device__ __forceinline__ ValueRaw* value_run(u32 d) const {
    if constexpr (VALUE_TABLE) {
      return temp_.value_out[d];
    } else {
      return reinterpret_cast<ValueRaw*>(temp_.digit_out[d]);
    }
  }

  /// Pairs, once every thread's keys have left: each digit owner turns its digits' key runs into
  /// the same runs of the values output (the table is read again only after the next barrier).
  __device__ __forceinline__ void values_runs() {
    bits_type* const keys = keys_out();
    ValueRaw* const values = values_out();
RINGSWEEP_UNROLL
    for (int i = 0; i < DPT; ++i) {
      const int d = first_digit() + i;
      if (d < RADIX) {
        ValueRaw* const run = values + (temp_.digit_out[d] - keys);
        temp_.digit_out[d] = reinterpret_cast<bits_type*>(run);
      }
    }
  }

  /// This warp's values of the tile, warp-striped: loaded, or (argsort, reading the input) made.
  /// Pipelined: the values come from the stage once they have landed (every batch but the next
  /// tile's keys), behind a barrier, which also ends every thread's reads of keys in shared memory.
  __device__ __forceinline__ void load_values(u32 u, u32 lane, int valid, ValueRaw (&values)[ITEMS]) {
    if constexpr (PIPELINED) pipeline_t(*this).wait_values();
    if constexpr (INDEX_VALUES) {
      if (pass_route::src(temp_.route) == buffer_in) {
        const u64 first = u64(p_.first_key) + tile_first(u) + seg_first() + lane;
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) values[k] = index_value<ValueRaw>(first + u64(k) * warp_threads);
        return;
      }
    }
    if constexpr (PIPELINED) {
      pipeline_t::read_stage(temp_.in.values, valid, values);
    } else {
      load_segment(values_segment(u), warp(), lane, valid - int(seg_first()), values);
    }
  }

  /// This warp's items of its segment, warp-striped: through vector loads where the policy asks
  /// for them and the segment is whole and aligned, else one striped load per item.
  template <class T>
  __device__ __forceinline__ void load_segment(const T* seg, int warp, u32 lane, int valid, T (&items)[ITEMS],
                                               const T& fill = T{}) {
    if constexpr (STAGED && vector_loaded<T>()) {
      using load_t = warp_vector_load<T, ITEMS>;
      if (valid >= scatter_t::SEGMENT && load_t::aligned(seg)) {
        load_t::template load<LOAD>(
            *reinterpret_cast<typename load_t::TempStorage*>(temp_.stage + warp * warp_threads), seg, lane, items);
        return;
      }
      // sass: cold
      // A partial segment, or a buffer not aligned to 16 bytes: a whole tile of aligned buffers
      // never comes here, so the instruction report leaves these per-item loads off its path.
      load_warp_striped<LOAD>(seg, lane, valid, items, fill);
      // sass: end
    } else {
      load_warp_striped<LOAD>(seg, lane, valid, items, fill);
    }
  }

  /// A chained source: the tile's launch read again from shared memory before the ranking and
  /// before the scatter, so that no register holds it from the ranking to the scatter (held
  /// through the tile, it spilled the sm_90 u32/u32 pairs kernel 48 bytes).
  __device__ __forceinline__ void refresh_chain() {
    if constexpr (Source::CHAINED) chain_ = *static_cast<volatile const u32*>(&temp_.chain);
  }

  /// The arguments of the launch the block works in: the kernel's own, or for a chained source
  /// those of the chain's launch its ticket lies in (the kernel's array of them, `p_` its first).
  /// The fields every launch of a chain shares are read as `p_`'s.
  __device__ __forceinline__ const params_t& p() const {
    if constexpr (Source::CHAINED) {
      return (&p_)[chain_];
    } else {
      return p_;
    }
  }

  TempStorage& temp_;
  const params_t& p_;
  u32 chain_ = 0;  // a chained source: the launch of the block's ticket (onesweep_chain sets it)
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
