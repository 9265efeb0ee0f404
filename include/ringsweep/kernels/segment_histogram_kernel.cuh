// The large segments of a segmented sort: the histogram of every pass per segment, and the scan
// that turns those counts into each segment's digit offsets and the passes' routes.
#pragma once

#include "../agent/pass_route.cuh"
#include "../agent/bins_scan.cuh"
#include "../agent/kernel_arrays.cuh"
#include "../agent/segment_lists.cuh"
#include "../block/block_histogram.cuh"
#include "../block/block_scan.cuh"
#include "../detail/config.cuh"
#include "../detail/sort_window.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_for_arch.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the large segments' histogram.
template <class Key>
struct segment_histogram_params : histogram_arrays<Key> {  // counts: segment j's pass p at (j * passes + p) * RADIX
  const large_segment* large;
  const u64* large_word;
  // Zeroed here where a large segment exists (the onesweep passes' status ring and next-portion
  // bins), so that a call without one clears neither.
  u64* ring;
  u64 ring_words;
  u64* pingpong;
  u64 pingpong_words;
};

/// Persistent grid over the large segments' onesweep tiles (`Config::TILE` keys): each block
/// counts a tile's digits of every pass in shared memory and adds them to its segment's counts.
/// Where a large segment exists the grid first zeroes the status ring and the pingpong bins the
/// onesweep launches after the scan use; with none, every block reads one word and exits.
template <class Config>
__global__ void __launch_bounds__(Config::policy::HIST_THREADS)
    segment_histogram_kernel(segment_histogram_params<typename Config::key_type> p) {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  constexpr int TILE = Config::TILE;
  if constexpr (policy_compiled_here<Policy>()) {
    if constexpr (Policy::DEPENDENT_LAUNCH) {
      // May start while the segments' block kernels finish: the lists are read after they have.
      grid_dependency_wait();
      grid_dependents_launch();
    }
    if (large_count(*p.large_word) == 0) return;
    {
      const u64 stride = u64(gridDim.x) * u64(Policy::HIST_THREADS);
      for (u64 i = u64(blockIdx.x) * Policy::HIST_THREADS + threadIdx.x; i < p.ring_words; i += stride)
        store_global(p.ring + i, u64(0));
      for (u64 i = u64(blockIdx.x) * Policy::HIST_THREADS + threadIdx.x; i < p.pingpong_words; i += stride)
        store_global(p.pingpong + i, u64(0));
    }
    using bits_type = typename key_traits<Key>::bits_type;
    constexpr int THREADS = Policy::HIST_THREADS;
    constexpr int RADIX = 1 << Policy::RADIX_BITS;
    constexpr int MAX_PASSES = ceil_div(int(sizeof(bits_type)) * 8, Policy::RADIX_BITS);
    using histogram_t = block_histogram<THREADS, MAX_PASSES, Policy::RADIX_BITS>;
    __shared__ typename histogram_t::TempStorage hist_temp;
    __shared__ u64 tile_first;
    __shared__ u32 tile_segment;
    __shared__ int tile_valid;
    histogram_t hist(hist_temp);
    const u64 word = *p.large_word;
    const int passes = p.window.passes;
    const digit_extractor<Key> image_of = p.window.image(p);
    for (u64 g = blockIdx.x;; g += gridDim.x) {
      if (threadIdx.x == 0) {
        u32 segment = 0;
        u64 first = 0;
        int valid = 0;
        tile_valid = find_large_tile(p.large, word, g, TILE, segment, first, valid) ? valid : 0;
        tile_first = first;
        tile_segment = segment;
      }
      hist.clear();
      __syncthreads();
      const int valid = tile_valid;
      if (valid == 0) break;
      for (int i = int(threadIdx.x); i < valid; i += THREADS) {
        const bits_type img = image_of.image(load_global(p.keys + (tile_first + u64(i))));
        for (int pass = 0; pass < passes; ++pass) {
          const digit_window w = p.window.template pass<Policy::RADIX_BITS>(pass);
          hist.add(pass, u32(img >> w.shift) & w.mask());
        }
      }
      __syncthreads();
      hist.flush(p.counts + u64(tile_segment) * u64(passes) * RADIX, passes);
      __syncthreads();  // the counts and the tile's place are read before the next tile's
    }
  } else {
    (void)p;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

constexpr int segment_scan_threads = 256;

/// Arguments of the large segments' scan (one block per pass).
struct segment_scan_params {
  u64* counts;               // as segment_histogram_params::counts; become digit offsets in place
  const large_segment* large;
  const u64* large_word;
  int passes;
  u32* routes;               // route_words(passes) words (see pass_route)
  u32* done;                 // zeroed counter of finished blocks
  u32 mode;                  // route_mode
};

/// Block `p` walks the large segments in list order and turns each one's counts of pass `p` into
/// its digit offsets for the segmented onesweep (`begin + its exclusive digit sum - the counts of
/// that digit in the segments before it`, modulo 2^64: the look-back adds those back). A pass is
/// skipped when every large segment has one digit in it. The last block to finish builds the
/// routes (a grid of one block and no pass when the bit window is empty: only the final copy).
/// `DEPENDENT`: launched as a programmatic dependent of the histogram (Policy::DEPENDENT_LAUNCH).
template <int RADIX, bool DEPENDENT = false>
__global__ void __launch_bounds__(segment_scan_threads) segment_scan_kernel(segment_scan_params p) {
  if constexpr (DEPENDENT) {
    grid_dependency_wait();
    grid_dependents_launch();
  }
  using bins_t = bins_scan<segment_scan_threads, RADIX>;  // its per-thread counts
  constexpr int DPT = bins_t::DIGITS_PER_THREAD;
  using scan_t = block_scan<u64, segment_scan_threads>;
  __shared__ typename scan_t::TempStorage scan_temp;
  const int pass = int(blockIdx.x);
  bool skip = true;
  if (pass < p.passes) {
    const u32 count = large_count(*p.large_word);
    const int d0 = int(threadIdx.x) * DPT;
    u64 before[DPT];  // this thread's digits' counts in the segments so far
RINGSWEEP_UNROLL
    for (int i = 0; i < DPT; ++i) before[i] = 0;
    for (u32 j = 0; j < count; ++j) {
      u64* bins = p.counts + (u64(j) * u64(p.passes) + u64(pass)) * RADIX;
      const large_segment s = p.large[j];
      u64 counts[DPT];
      const u64 sum = bins_t::thread_counts(bins, counts);
      u64 total;
      u64 offset = scan_t::exclusive_sum(scan_temp, sum, total);
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
    if (pass < p.passes) p.routes[1 + pass] = skip ? 1u : 0u;
    // Release: this block's note before its count; acquire: the last block sees every note.
    if (atomic_add_acq_rel(p.done, 1u) + 1u == gridDim.x) build_pass_routes(p.routes, p.passes, p.mode);
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
