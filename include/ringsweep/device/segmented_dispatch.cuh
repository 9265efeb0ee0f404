// The launches of a segmented sort. The host knows n and the number of segments, never their
// sizes: the device sorts the segments into classes (tiny: sorted by sub-warps in the classifying
// launch; compact, medium and small: groups of one block shape or the whole block, in one launch;
// large: onesweep passes over all their tiles), and every later launch reads the classes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../agent/segment_lists.cuh"
#include "../agent/sort_config.cuh"
#include "../detail/config.cuh"
#include "../detail/sort_hooks.cuh"
#include "../detail/temp_layout.cuh"
#include "../kernels/onesweep_kernel.cuh"
#include "../kernels/segment_classify_sort_kernel.cuh"
#include "../kernels/segment_sort_kernel.cuh"
#include "launch.cuh"
#include "sort_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// A checked segmented sort.
template <class Key>
struct segmented_plan {
  sort_plan<Key> sort;        // n, window, passes, order and key context (its path is unused)
  std::size_t segments = 0;
  std::size_t smallest = 0;   // keys of the smallest non-empty segment at least (segment_sizes::lo)
  std::size_t largest = 0;    // keys of the largest segment at most (segment_sizes::hi, at most n)
  std::size_t large_max = 0;  // large segments at most: min(segments, n / (TILE + 1)), 0 when none can be
  std::size_t tiles_max = 0;  // their tiles at most
  temp_layout layout;        // temp_layout::segmented
};

/// The launches of a segmented sort with the configuration `Config` (sort_config).
///
///     using dispatch = segmented_dispatch<sort_config<policy_sm90, float, null_value>>;
///     segmented_plan<float> p;
///     if (dispatch::make_plan(n, segments, opts, true, p) == cudaSuccess) dispatch::run(p, d_temp, b, segment_offsets_of<const int*, const int*>{begin, end}, stream);
template <class Config>
struct segmented_dispatch {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using bits_type = typename Config::bits_type;
  using value_raw_t = typename Config::value_raw_t;
  using buffers = sort_buffers<bits_type, value_raw_t>;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  static constexpr int TILE = Config::TILE;
  static constexpr int RADIX = Config::RADIX;
  /// The size classes (segment_block_classes): tiny segments are sorted in registers by sub-warps
  /// (subwarp_sort) in the classification's own launch; compact, medium and small ones by one
  /// launch of blocks (segment_blocks_kernel), listed by the classification (compact and medium
  /// from the front of the item list, small from the back); large ones by onesweep passes.
  using classes = segment_block_classes<typename Config::unhooked>;
  static constexpr int TINY = classes::TINY;
  static constexpr int COMPACT = classes::COMPACT;
  static constexpr int MEDIUM = classes::MEDIUM;
  static_assert(classes::SMALL == TILE, "the small class ends at one onesweep tile");

  // Counter words (before the tail iterator's, from Config::COUNTER_TAILS, and the routes).
  static constexpr int COUNTER_FRONT = 3;
  static constexpr int COUNTER_SMALL = 4;
  static constexpr int COUNTER_LARGE = 6;  // a 64-bit word (words 6 and 7)
  static constexpr int COUNTER_TILE_TICKET = 8;  // 64-bit words: the large segments' histogram's
  static constexpr int COUNTER_TILES_DONE = 10;  // ticket and counted tiles
  static constexpr int COUNTER_SCAN_TICKET = 12;
  static constexpr int COUNTER_COPY_TICKET = 14;  // 64-bit: the copy's tile ticket
  static constexpr int COUNTER_CHAIN_DONE = 16;   // two words: the passes' chains' finished tiles
  static_assert(Config::COUNTER_SCAN_DONE < COUNTER_FRONT && COUNTER_CHAIN_DONE + 1 < Config::COUNTER_TAILS,
                "the segmented counters lie between the sort's own and its tail words");

  /// Checks the arguments (those of sort_config::make_plan, and n below 2^48, segments below
  /// 2^32) and lays out the temporary storage; `in_out` adds scratch for the large segments;
  /// `sizes`: what the host knows of the segments' sizes (no large class where none is larger
  /// than a tile).
  __host__ static cudaError_t make_plan(std::size_t n, std::size_t segments, const sort_options& opts, bool in_out,
                                        segmented_plan<Key>& p, segment_sizes sizes = segment_sizes{0, ~u64(0)}) {
    cudaError_t e = Config::make_plan(n, opts, false, p.sort);
    if (e != cudaSuccess) return e;
    if (std::uint64_t(n) >= (std::uint64_t(1) << segment_item::begin_bits)) return cudaErrorInvalidValue;
    if (std::uint64_t(segments) > 0xffffffffull) return cudaErrorInvalidValue;
    p.segments = segments;
    p.largest = std::size_t(min_of<u64>(sizes.hi, u64(n)));
    p.smallest = std::size_t(min_of<u64>(sizes.lo, u64(p.largest)));
    p.large_max = p.largest > std::size_t(TILE) ? min_of<std::size_t>(segments, n / std::size_t(TILE + 1)) : 0;
    p.tiles_max = p.large_max == 0 ? 0 : n / std::size_t(TILE) + p.large_max;
    p.layout = temp_layout{};
    if (n == 0 || segments == 0) return cudaSuccess;
    const int passes = p.sort.window.passes;
    const bool scratch = p.large_max != 0 && in_out && passes >= 2;
    p.layout = temp_layout::segmented(Config::status_ring::bytes, passes, RADIX,
                                      Config::COUNTER_ROUTES + route_words(passes), p.large_max, segments * 8,
                                      p.large_max * sizeof(large_segment), scratch ? n * sizeof(bits_type) : 0,
                                      scratch && HAS_VALUES ? n * sizeof(value_raw_t) : 0);
    return cudaSuccess;
  }

  /// Runs a planned sort (n > 0, segments > 0); `temp` is the caller's temporary storage.
  /// `out`: where tiny, small and one-key segments go (segment_lists.cuh: in place, or a batched
  /// top-k's first k; large segments always go to `b`'s result).
  template <class Segments, class Output = segment_in_place>
  __host__ static cudaError_t run(const segmented_plan<Key>& p, void* temp, const buffers& b, const Segments& segments,
                                  cudaStream_t stream, const Output& out = Output{}) {
    if (p.largest == 0) return cudaSuccess;  // no segment holds a key
    const temp_layout& l = p.layout;
    char* base = reinterpret_cast<char*>(align_up(reinterpret_cast<std::uintptr_t>(temp)));
    u32* counters = reinterpret_cast<u32*>(base + l.counters);
    segment_lists lists;
    lists.items = reinterpret_cast<u64*>(base + l.items);
    lists.capacity = p.segments;
    lists.front_count = counters + COUNTER_FRONT;
    lists.small_count = counters + COUNTER_SMALL;
    lists.large_word = reinterpret_cast<u64*>(counters + COUNTER_LARGE);
    lists.large = reinterpret_cast<large_segment*>(base + l.large);
    lists.large_counts = reinterpret_cast<u64*>(base + l.counts);
    lists.large_count_words = u32(p.sort.window.passes * RADIX);

    // Only the counters: the ring and the next-portion bins are zeroed by the large segments'
    // histogram where one exists, their digit counts by the classification as it lists them.
    cudaError_t e = cudaMemsetAsync(base + l.counters, 0, counter_bytes(l), stream);
    if (e != cudaSuccess) return e;
    launch_order later = launch_order::serial;
    e = later_order<Policy::DEPENDENT_LAUNCH>(onesweep_chain_kernel<Config, segment_tiles, Config::MAX_PASSES>, later);
    if (e != cudaSuccess) return e;
    int sms = 0;
    e = device_sms(sms);
    if (e != cudaSuccess) return e;
    const std::size_t wide = std::size_t(max_of(1, sms));
    // The block classes' launch, where a segment may be above the tiny ones (else every segment is
    // tiny or holds one key); its shared memory and blocks per SM asked before the first launch.
    const bool block_classes = holds(p, TINY, TILE) || p.large_max != 0;
    int blocks_per_sm = 1;
    if (block_classes) {
      e = allow_blocks_shared<Output>(blocks_per_sm);
      if (e != cudaSuccess) return e;
    }

    segment_classify_params<Segments, bits_type, value_raw_t> cp;
    cp.segments = segments;
    cp.num_segments = p.segments;
    cp.n = p.sort.n;
    cp.tiny_keys = u32(TINY);
    cp.medium_keys = u32(MEDIUM);
    cp.small_keys = u32(TILE);
    cp.large_capacity = p.large_max;
    cp.tiles_capacity = p.tiles_max;
    cp.lists = lists;
    cp.keys_in = b.keys_in;
    cp.keys_out = b.keys_final;
    cp.values_in = HAS_VALUES ? b.values_in : nullptr;
    cp.values_out = HAS_VALUES ? b.values_final : nullptr;
    segment_sort_params<Key, value_raw_t> sp;
    static_cast<key_context<Key>&>(sp) = p.sort.context;
    sp.keys_in = b.keys_in;
    sp.keys_out = b.keys_final;
    sp.values_in = HAS_VALUES ? b.values_in : nullptr;
    sp.values_out = HAS_VALUES ? b.values_final : nullptr;
    sp.items = lists.items;
    sp.capacity = p.segments;
    sp.front_count = lists.front_count;
    sp.small_count = lists.small_count;
    sp.window = p.sort.window;
    {
      segment_classify_sort_params<Key, Segments, value_raw_t> csp;
      csp.classify = cp;
      csp.sort = sp;
      using net_config = typename Config::unhooked;
      constexpr int threads = classify_sort_threads<net_config>();
      e = launch(segment_classify_sort_kernel<net_config, Segments, Output>,
                 grid_of(ceil_div<std::size_t>(p.segments, threads), wide * classify_sort_min_blocks<net_config>()),
                 unsigned(threads), stream, launch_order::serial, csp, out);
      if (e != cudaSuccess) return e;
    }
    // The compact, medium and small segments and the large ones' offsets (histogram, scan, copy)
    // in one launch.
    if (block_classes) {
      large_offsets_params<Key, value_raw_t> large{};
      if (p.large_max != 0) large = offsets_params(p, base, counters, lists, b);
      e = launch_with_shared(segment_blocks_kernel<typename Config::unhooked, Output>,
                             grid_of(max_of(p.segments, p.tiles_max), wide * std::size_t(blocks_per_sm)),
                             unsigned(classes::THREADS), BLOCKS_SHARED, stream, later, sp, out, large);
      if (e != cudaSuccess) return e;
    }
    return p.large_max != 0 ? run_large(p, base, counters, lists, b, wide, later, stream) : cudaSuccess;
  }

  /// Bytes of the counters, the one piece the host zeroes (the layout's `cleared` bytes before the
  /// counters and after them, the bins and the ring, are the large segments' offsets' to zero).
  __host__ static std::size_t counter_bytes(const temp_layout& l) { return l.status - l.counters; }

 private:

  /// Whether a segment of more than `above` and at most `upto` keys may exist (what the host knows:
  /// n, and the sizes of rows of one length).
  __host__ static bool holds(const segmented_plan<Key>& p, int above, int upto) {
    return p.largest > std::size_t(above) && p.smallest <= std::size_t(upto);
  }

  /// Dynamic shared memory of segment_blocks_kernel.
  static constexpr std::size_t BLOCKS_SHARED = sizeof(segment_blocks_storage<typename Config::unhooked>);

  /// Lets segment_blocks_kernel take its dynamic shared memory (above 48 KiB only when asked) and
  /// gives its blocks per SM; cudaErrorInvalidConfiguration where one block does not fit an SM.
  template <class Output>
  __host__ static cudaError_t allow_blocks_shared(int& blocks_per_sm) {
    auto* const kernel = segment_blocks_kernel<typename Config::unhooked, Output>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(BLOCKS_SHARED));
    int fit = 0;
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, classes::THREADS, BLOCKS_SHARED);
    if (e != cudaSuccess) return e;
    if (fit < 1) return cudaErrorInvalidConfiguration;
    blocks_per_sm = fit;
    return cudaSuccess;
  }

  /// A grid of `blocks`, at most `cap` and at least 1.
  __host__ static unsigned grid_of(std::size_t blocks, std::size_t cap) {
    return unsigned(max_of<std::size_t>(1, min_of(blocks, cap)));
  }

  /// The large segments' histogram, scan and copy (large_offsets; their counters are zeroed
  /// with the others).
  __host__ static large_offsets_params<Key, value_raw_t> offsets_params(const segmented_plan<Key>& p, char* base,
                                                                          u32* counters, const segment_lists& lists,
                                                                          const buffers& b) {
    const temp_layout& l = p.layout;
    const int passes = p.sort.window.passes;
    u64* counts = reinterpret_cast<u64*>(base + l.counts);
    u64* pingpong = reinterpret_cast<u64*>(base + l.pingpong);
    u32* routes = counters + Config::COUNTER_ROUTES;
    large_offsets_params<Key, value_raw_t> op;
    static_cast<key_context<Key>&>(op) = p.sort.context;
    op.keys = b.keys_in;
    op.large = lists.large;
    op.large_word = lists.large_word;
    op.counts = counts;
    op.window = p.sort.window;
    op.ring = reinterpret_cast<u64*>(base + l.status);
    op.ring_words = Config::status_ring::bytes / sizeof(u64);
    op.pingpong = pingpong;
    op.pingpong_words = u64(passes) * 2 * RADIX;
    op.tile_ticket = reinterpret_cast<u64*>(counters + COUNTER_TILE_TICKET);
    op.tiles_done = reinterpret_cast<u64*>(counters + COUNTER_TILES_DONE);
    op.scan_ticket = counters + COUNTER_SCAN_TICKET;
    op.scans_done = counters + Config::COUNTER_SCAN_DONE;
    op.routes = routes;
    op.mode = b.mode;
    op.copy_ticket = reinterpret_cast<u64*>(counters + COUNTER_COPY_TICKET);
    b.template tables<HAS_VALUES>(op.keys_buf, op.values_buf);
    return op;
  }

  /// The launches of the large segments' passes: every pass over a bound on the large tiles, in
  /// portions, chained (onesweep_chain) up to CHAIN launches a kernel, so one kernel where the
  /// tiles fit one portion; each a grid of the blocks that fit, taking the tiles that exist by
  /// ticket (segment_tiles). Each pass's first portion reads its pingpong slot 1, still zero (the
  /// histogram zeroed it): no count carried yet. The executed passes end in the result's buffer
  /// (the copy came first where their parity asked for it): no launch follows them.
  __host__ static cudaError_t run_large(const segmented_plan<Key>& p, char* base, u32* counters,
                                        const segment_lists& lists, const buffers& b, std::size_t wide,
                                        launch_order later, cudaStream_t stream) {
    constexpr int CHAIN = Config::MAX_PASSES;
    using chain_params = onesweep_chain_params<Config, segment_tiles, CHAIN>;
    const temp_layout& l = p.layout;
    const int passes = p.sort.window.passes;
    u64* counts = reinterpret_cast<u64*>(base + l.counts);
    u64* pingpong = reinterpret_cast<u64*>(base + l.pingpong);
    u32* routes = counters + Config::COUNTER_ROUTES;

    auto* const kernel = onesweep_chain_kernel<Config, segment_tiles, CHAIN>;
    const std::size_t shared_bytes = onesweep_dynamic_shared_bytes<Config, segment_tiles>();
    int per_sm = 0;
    cudaError_t e = allow_onesweep_shared<Config, segment_tiles>(kernel);
    if (e == cudaSuccess)
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Config::THREADS, shared_bytes);
    if (e != cudaSuccess) return e;
    const std::size_t portion_tiles = std::size_t(Policy::PORTION_TILES);
    const std::size_t portions = ceil_div<std::size_t>(p.tiles_max, portion_tiles);
    const std::size_t launches = std::size_t(passes) * portions;
    const std::size_t chains = ceil_div<std::size_t>(launches, std::size_t(CHAIN));
    const unsigned grid = unsigned(min_of<std::size_t>(wide * std::size_t(max_of(1, per_sm)),
                                                       min_of(p.tiles_max, portion_tiles)));
    u32 tile_base = 0;
    for (std::size_t c = 0; c < chains; ++c) {
      chain_params cp{};
      const std::size_t first = c * std::size_t(CHAIN);
      const u32 count = u32(min_of<std::size_t>(CHAIN, launches - first));
      for (u32 j = 0; j < count; ++j) {
        const std::size_t v = first + j;
        const int pass = int(v / portions);
        const std::size_t portion = v % portions;
        u64* const pass_pingpong = pingpong + std::size_t(pass) * 2 * RADIX;
        onesweep_params_of<Config, segment_tiles>& op = cp.launch[j];
        op = pass_params<Config, segment_tiles>(b, routes, reinterpret_cast<u64*>(base + l.status), counters, p.sort,
                                                pass);
        op.first_key = 0;
        op.keys = 0;
        op.tiles = u32(min_of<std::size_t>(portion_tiles, p.tiles_max - portion * portion_tiles));
        op.tickets = op.tiles;  // no block takes a ticket to stop on (onesweep_chain)
        op.tile_base = tile_base;
        op.launch = u32(v);
        op.bins_in = portion == 0 ? pass_pingpong + RADIX : pass_pingpong + ((portion - 1) & 1) * RADIX;
        op.bins_out = portion + 1 < portions ? pass_pingpong + (portion & 1) * RADIX : nullptr;
        op.segments = lists.large;
        op.segment_word = lists.large_word;
        op.segment_bins = counts + std::size_t(pass) * RADIX;
        op.segment_bins_stride = u64(passes) * RADIX;
        op.segment_first_tile = portion * portion_tiles;
        op.done = counters + COUNTER_CHAIN_DONE + (c & 1);
        op.done_next = c + 1 < chains ? counters + COUNTER_CHAIN_DONE + ((c + 1) & 1) : nullptr;
        op.launches = count;
        tile_base += op.tickets;
      }
      e = launch_with_shared(kernel, grid, unsigned(Config::THREADS), shared_bytes, stream, later, cp);
      if (e != cudaSuccess) return e;
      tile_base += grid;  // each block's last ticket lies past the chain (onesweep_chain)
    }
    return cudaSuccess;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
