// large_offsets: the large segments of a segmented sort before their passes: the histogram of
// every pass per segment, the scan that turns those counts into each segment's digit offsets and
// the passes' routes, and the copy that puts the segments where the passes end in the result.
#pragma once

#include "../block/block_histogram.cuh"
#include "../block/block_scan.cuh"
#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../detail/sort_window.cuh"
#include "../key_traits.cuh"
#include "bins_scan.cuh"
#include "kernel_arrays.cuh"
#include "pass_route.cuh"
#include "segment_copy.cuh"
#include "segment_lists.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the large segments' offsets: their histogram, then its scan, then the copy.
template <class Key, class ValueRaw>
struct large_offsets_params : histogram_arrays<Key> {  // counts: segment j's pass p at (j * passes + p) * RADIX
  using bits_type = typename key_traits<Key>::bits_type;
  bits_type* keys_buf[3];   // the sort's key buffers, by pass_buffer: input (read only), final, other
  ValueRaw* values_buf[3];  // the same for values (null: keys only)
  const large_segment* large;
  const u64* large_word;
  // Zeroed here where a large segment exists (the onesweep passes' status ring and next-portion
  // bins), so that a call without one clears neither.
  u64* ring;
  u64 ring_words;
  u64* pingpong;
  u64 pingpong_words;
  // Zeroed counters: the histogram's tile ticket and its counted tiles, the scans' ticket and
  // finished scans.
  u64* tile_ticket;
  u64* tiles_done;
  u32* scan_ticket;
  u32* scans_done;
  u64* copy_ticket;
  u32* routes;  // route_words(passes) words (see pass_route)
  u32 mode;     // route_mode
};

/// The large segments' digit offsets, by every block of a persistent launch, in phases taken by ticket.
///
/// 1. The histogram: a ticket per large tile (`Config::TILE` keys); the block counts the tile's
///    digits of every pass in shared memory and adds them to its segment's counts. Where a large
///    segment exists the grid first zeroes the status ring and the pingpong bins the onesweep
///    launches after it use.
/// 2. The scan, once the histogram's tickets have run out: a ticket per pass. Its block waits
///    until every tile is counted, then walks the large segments in list order and turns each
///    one's counts of that pass into its digit offsets for the segmented onesweep (`begin + its
///    exclusive digit sum - the counts of that digit in the segments before it`, modulo 2^64: the
///    look-back adds those back). A pass is skipped when every large segment has one digit in it.
///    The last scan to finish builds the routes (one scan of no pass when the bit window is empty),
///    the copy first (pass_route's `copy_first`).
/// 3. The copy, once the routes exist: a ticket per large tile; where route word 0 says so, the
///    tile moves from the input's buffer to where the executed passes, by their parity, end in
///    the result's buffer (with no executed pass, to the result's buffer). No launch after the
///    passes is needed.
///
/// A block takes a phase's tickets only after its ticket of the phase before found no work, so
/// every ticket of that phase is then held by a running block, which waits only on the phase
/// before it: the waits end without any block being co-resident with another. With no large
/// segment every block takes three tickets and the routes say that no pass runs.
///
/// `Config`: the sort's (its onesweep TILE is the large tile); `THREADS`: the block's.
///
///     __shared__ typename large_offsets<Config, 384>::TempStorage temp;
///     large_offsets<Config, 384>(temp).run(params);   // every thread; the block's last work
template <class Config, int THREADS>
class large_offsets {
 public:
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using bits_type = typename key_traits<Key>::bits_type;
  using params_t = large_offsets_params<Key, typename Config::value_raw_t>;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int TILE = Config::TILE;
  static constexpr int RADIX = 1 << Policy::RADIX_BITS;
  static constexpr int MAX_PASSES = ceil_div(int(sizeof(bits_type)) * 8, Policy::RADIX_BITS);
  using histogram_t = block_histogram<THREADS, MAX_PASSES, Policy::RADIX_BITS>;
  using bins_t = bins_scan<THREADS, RADIX>;  // its per-thread counts
  static constexpr int DPT = bins_t::DIGITS_PER_THREAD;
  using scan_t = block_scan<u64, THREADS>;
  struct TempStorage {
    union {
      typename histogram_t::TempStorage hist;
      typename scan_t::TempStorage scan;
    } u;
    u64 tile_first;
    u64 copy_tile;
    u32 tile_segment;
    int tile_valid;
    u32 scan_pass;
    u32 copy_route;
  };

  __device__ __forceinline__ explicit large_offsets(TempStorage& temp) : temp_(temp) {}

  /// Every thread of the block, the block's last work in the launch.
  __device__ __forceinline__ void run(const params_t& p) {
    const u64 word = *p.large_word;
    const int passes = p.window.passes;
    const u64 tiles = passes > 0 ? large_tiles(word) : 0;  // no pass: nothing to count

    // Phase 1: the histogram.
    if (tiles != 0) {
      const u64 stride = u64(gridDim.x) * u64(THREADS);
      for (u64 i = u64(blockIdx.x) * THREADS + threadIdx.x; i < p.ring_words; i += stride)
        store_global(p.ring + i, u64(0));
      for (u64 i = u64(blockIdx.x) * THREADS + threadIdx.x; i < p.pingpong_words; i += stride)
        store_global(p.pingpong + i, u64(0));
    }
    histogram_t hist(temp_.u.hist);
    const digit_extractor<Key> image_of = p.window.image(p);
    for (;;) {
      if (threadIdx.x == 0) {
        const u64 g = tiles != 0 ? atomicAdd(p.tile_ticket, u64(1)) : 0;
        u32 segment = 0;
        u64 first = 0;
        int valid = 0;
        temp_.tile_valid = g < tiles && find_large_tile(p.large, word, g, TILE, segment, first, valid) ? valid : 0;
        temp_.tile_first = first;
        temp_.tile_segment = segment;
      }
      hist.clear();
      __syncthreads();
      const int valid = temp_.tile_valid;
      if (valid == 0) break;
      for (int i = int(threadIdx.x); i < valid; i += THREADS) {
        const bits_type img = image_of.image(load_global(p.keys + (temp_.tile_first + u64(i))));
        for (int pass = 0; pass < passes; ++pass) {
          const digit_window w = p.window.template pass<Policy::RADIX_BITS>(pass);
          hist.add(pass, u32(img >> w.shift) & w.mask());
        }
      }
      __syncthreads();
      hist.flush(p.counts + u64(temp_.tile_segment) * u64(passes) * RADIX, passes);
      __syncthreads();  // the counts and the tile's place are read before the next tile's
      // Release, after the barrier: the block's adds to the counts before the tile counts.
      if (threadIdx.x == 0) red_add_release(p.tiles_done, u64(1));
    }

    // Phase 2: the scans, one per pass (one of no pass where the window is empty).
    const u32 scans = u32(max_of(1, passes));
    const u32 count = large_count(word);
    for (;;) {
      if (threadIdx.x == 0) {
        const u32 s = atomicAdd(p.scan_ticket, 1u);
        if (s < scans) {  // acquire: every counted tile's adds are seen
          u32 pause = 0;
          while (load_acquire(p.tiles_done) < tiles) backoff(pause);
        }
        temp_.scan_pass = s;
      }
      __syncthreads();
      const u32 pass = temp_.scan_pass;
      if (pass >= scans) break;
      bool skip = true;
      if (int(pass) < passes) {
        const int d0 = int(threadIdx.x) * DPT;
        u64 before[DPT];  // this thread's digits' counts in the segments so far
RINGSWEEP_UNROLL
        for (int i = 0; i < DPT; ++i) before[i] = 0;
        for (u32 j = 0; j < count; ++j) {
          u64* bins = p.counts + (u64(j) * u64(passes) + u64(pass)) * RADIX;
          const large_segment s = p.large[j];
          u64 counts[DPT];
          const u64 sum = bins_t::thread_counts(bins, counts);
          u64 total;
          u64 offset = scan_t::exclusive_sum(temp_.u.scan, sum, total);
          bool uniform = false;
RINGSWEEP_UNROLL
          for (int i = 0; i < DPT; ++i) {
            if (d0 + i < RADIX) bins[d0 + i] = s.begin + offset - before[i];
            offset += counts[i];
            before[i] += counts[i];
            uniform = uniform || counts[i] == s.size;
          }
          skip = __syncthreads_or(uniform ? 1 : 0) != 0 && skip;
        }
      }
      if (threadIdx.x == 0) {
        if (int(pass) < passes) p.routes[1 + pass] = skip ? 1u : 0u;
        // Release: this scan's note before its count; acquire: the last scan sees every note.
        // Its builder counts once more when the routes are written: scans + 1 says they are.
        if (atomic_add_acq_rel(p.scans_done, 1u) + 1u == scans) {
          build_pass_routes(p.routes, passes, p.mode, true);
          red_add_release(p.scans_done, 1u);
        }
      }
      __syncthreads();  // the pass and the scan's storage are free for the next ticket
    }

    // Phase 3: the copy before the passes.
    const u64 copies = large_tiles(word);
    for (;;) {
      if (threadIdx.x == 0) {
        const u64 c = copies != 0 ? atomicAdd(p.copy_ticket, u64(1)) : copies;
        if (c < copies) {  // acquire: the routes are seen
          u32 pause = 0;
          while (load_acquire(p.scans_done) <= scans) backoff(pause);
          temp_.copy_route = *p.routes;
        }
        temp_.copy_tile = c;
      }
      __syncthreads();
      const u64 c = temp_.copy_tile;
      const u32 r = temp_.copy_route;
      if (c >= copies || !pass_route::runs(r)) return;
      copy_large_tile<THREADS, HAS_VALUES>(p.keys_buf, p.values_buf, r, p.large, word, TILE, c);
      __syncthreads();  // the tile is read before the next ticket's
    }
  }

 private:
  TempStorage& temp_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
