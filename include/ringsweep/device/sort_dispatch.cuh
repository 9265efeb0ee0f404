// The launches of a sort, from its plan (sort_config::make_plan). Every sort form (sort_forms.cuh)
// ends up in sort_dispatch::run.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../detail/sort_hooks.cuh"

#include "../kernels/histogram_kernel.cuh"
#include "../kernels/onesweep_kernel.cuh"
#include "../kernels/route_copy_kernel.cuh"
#include "../kernels/small_sort_kernel.cuh"
#include "../agent/sort_config.cuh"
#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"
#include "../detail/temp_layout.cuh"
#include "launch.cuh"
#include "onesweep_passes.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Where the data of a sort is and where it must end. Onesweep sorts skip the passes whose digit
/// is uniform and route the others on the device (pass_route): each executed pass reads the
/// previous one's output (the first reads `keys_in`), the last lands in `keys_final`, `keys_in`
/// is written only when it is also `keys_final` or `keys_other` (`mode`), and the final copy
/// moves the result to `keys_final` where the executed passes leave it elsewhere.
template <class Bits, class ValueRaw>
struct sort_buffers {
  const Bits* keys_in;
  Bits* keys_final;
  Bits* keys_other;
  const ValueRaw* values_in;
  ValueRaw* values_final;
  ValueRaw* values_other;
  route_mode mode = input_separate;  // which of final and other the input is, if either

  /// The three buffers by pass_buffer index (input, final, other) into a kernel's tables;
  /// `values` all null where `VALUES` is false (keys only).
  template <bool VALUES>
  __host__ void tables(Bits* (&keys)[3], ValueRaw* (&values)[3]) const {
    keys[0] = const_cast<Bits*>(keys_in);
    keys[1] = keys_final;
    keys[2] = keys_other;
    values[0] = VALUES ? const_cast<ValueRaw*>(values_in) : nullptr;
    values[1] = VALUES ? values_final : nullptr;
    values[2] = VALUES ? values_other : nullptr;
  }
};

/// The fields of pass `pass`'s onesweep launches over `Source`'s tiles that all its portions
/// share, for a sort with the configuration `Config` (the plain and the segmented dispatch alike):
/// the buffers, the pass's route, the ring, the ticket and tail words, the trace sink and the digit.
template <class Config, class Source>
__host__ onesweep_params_of<Config, Source> pass_params(
    const sort_buffers<typename Config::bits_type, typename Config::value_raw_t>& b, const u32* routes, u64* status,
    u32* counters, const sort_plan<typename Config::key_type>& p, int pass) {
  using Hooks = typename Config::hooks;
  onesweep_params_of<Config, Source> op{};
  b.template tables<Config::HAS_VALUES>(op.keys_buf, op.values_buf);
  op.route = routes + 1 + pass;
  op.status = status;
  op.ticket = counters + Config::COUNTER_TICKET;
  op.tails = counters + Config::COUNTER_TAILS;
  op.trace = Hooks::TRACE ? Hooks::trace_sink() : nullptr;
  op.digit = p.window.template extractor<Config::RADIX_BITS>(p.context, pass);
  return op;
}

/// The launches of a sort with the configuration `Config` (sort_config: policy, key, value and
/// hooks), from its plan; everything it derives from the policy is its config's.
///
///     using dispatch = sort_dispatch<sort_config<policy_sm90, float, null_value>>;
///     typename dispatch::plan p;
///     if (dispatch::make_plan(n, opts, true, p) == cudaSuccess) dispatch::run(p, d_temp, buffers, stream);
template <class Config>
struct sort_dispatch {
  using Policy = typename Config::policy;
  using Key = typename Config::key_type;
  using Hooks = typename Config::hooks;
  static constexpr bool HAS_VALUES = Config::HAS_VALUES;
  using bits_type = typename Config::bits_type;
  using value_raw_t = typename Config::value_raw_t;
  using buffers = sort_buffers<bits_type, value_raw_t>;
  using plan = sort_plan<Key>;
  static constexpr int RADIX = Config::RADIX;
  static constexpr int TILE = Config::TILE;
  /// The tail iterator's words in the counters piece of the temporary storage.
  static constexpr int tail_words = Config::tail_t::WORDS_PER_SORT;

  /// The plan of a call (sort_config::make_plan).
  __host__ static cudaError_t make_plan(std::size_t n, const sort_options& opts, bool in_out, plan& p) {
    return Config::make_plan(n, opts, in_out, p);
  }

  /// Runs a planned sort; `temp` is the caller's temporary storage (not yet aligned).
  __host__ static cudaError_t run(const plan& p, void* temp, const buffers& b, cudaStream_t stream) {
    return run_with<false>(p, temp, b, stream, count_source{});
  }

  /// Runs a sort planned for `p.n` = max_n keys whose real count every kernel reads from `count`
  /// (clamped to [0, max_n]) when it runs: the host enqueues the launches of max_n, and the kernels
  /// do the work of the count (the counted onesweep kernel's missing tiles leave at once).
  __host__ static cudaError_t run(const plan& p, void* temp, const buffers& b, cudaStream_t stream,
                                  const count_source& count) {
    return run_with<true>(p, temp, b, stream, count);
  }

 private:
  template <bool COUNTED>
  __host__ static cudaError_t run_with(const plan& p, void* temp, const buffers& b, cudaStream_t stream,
                                       const count_source& count) {
    switch (p.path) {
      case sort_path::nothing:
        return cudaSuccess;
      case sort_path::copy: {
        if constexpr (COUNTED) return run_counted_copy(p, b, stream, count);
        cudaError_t e =
            cudaMemcpyAsync(b.keys_final, b.keys_in, p.n * sizeof(bits_type), cudaMemcpyDeviceToDevice, stream);
        if constexpr (Config::INDEX_VALUES) {
          // argsort: no pass, so every key stays where it is.
          const std::size_t grid = min_of<std::size_t>(ceil_div<std::size_t>(p.n, route_copy_threads), 4096);
          if (e == cudaSuccess) {
            e = launch(index_fill_kernel<value_raw_t>, unsigned(grid), unsigned(route_copy_threads), stream,
                       launch_order::serial, b.values_final, p.n);
          }
        } else if (e == cudaSuccess && HAS_VALUES) {
          e = cudaMemcpyAsync(b.values_final, b.values_in, p.n * sizeof(value_raw_t), cudaMemcpyDeviceToDevice, stream);
        }
        return e;
      }
      case sort_path::single_tile:
        return run_single_tile(p, b, stream, count);
      case sort_path::onesweep:
        return run_onesweep<COUNTED>(p, temp, b, stream, count);
    }
    return cudaErrorInvalidValue;
  }

  /// The final copy's parameters: the sort's three buffers by pass_buffer index (input, final,
  /// other), the route that picks them (null: copy the input) and the count.
  __host__ static route_copy_params<bits_type, value_raw_t> copy_params(const plan& p, const buffers& b,
                                                                        const u32* route, const count_source& count) {
    route_copy_params<bits_type, value_raw_t> cp;
    cp.route = route;
    b.template tables<HAS_VALUES>(cp.keys, cp.values);
    cp.n = p.n;
    cp.count = count;
    return cp;
  }

  /// The copy path (no digit pass) of a counted sort: the final copy from the input, of the count.
  __host__ static cudaError_t run_counted_copy(const plan& p, const buffers& b, cudaStream_t stream,
                                               const count_source& count) {
    const route_copy_params<bits_type, value_raw_t> cp = copy_params(p, b, nullptr, count);  // copy the input
    const std::size_t copy_bytes = p.n * (sizeof(bits_type) + (HAS_VALUES ? sizeof(value_raw_t) : 0));
    const std::size_t grid = min_of<std::size_t>(ceil_div<std::size_t>(copy_bytes, route_copy_threads * 64), 4096);
    return launch(route_copy_kernel<bits_type, value_raw_t, HAS_VALUES, false, Config::INDEX_VALUES>,
                  unsigned(max_of<std::size_t>(grid, 1)), unsigned(route_copy_threads), stream, launch_order::serial,
                  cp);
  }

  __host__ static cudaError_t run_single_tile(const plan& p, const buffers& b, cudaStream_t stream,
                                              const count_source& count) {
    small_sort_params<Key, value_raw_t> params;
    static_cast<key_context<Key>&>(params) = p.context;
    params.keys_in = b.keys_in;
    params.keys_out = b.keys_final;
    params.values_in = b.values_in;
    params.values_out = b.values_final;
    params.keys = int(p.n);
    params.count = count;
    params.window = p.window;
    return launch(small_sort_kernel<typename Config::unhooked>, 1u, unsigned(Config::THREADS), stream,
                  launch_order::serial, params);
  }

  /// The histogram's grid, and the device's SM count in `sms`.
  __host__ static cudaError_t histogram_grid(std::size_t n, unsigned& grid, int& sms) {
    int blocks_per_sm = 0;
    cudaError_t e = device_sms(sms);
    if (e == cudaSuccess) {
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, histogram_kernel<typename Config::keys_only>,
                                                        Policy::HIST_THREADS, 0);
    }
    if (e != cudaSuccess) return e;
    using hist_t = histogram_tile<typename Config::keys_only>;
    const std::size_t tiles = ceil_div<std::size_t>(n, hist_t::TILE);
    std::size_t g = std::size_t(max_of(1, sms) * max_of(1, blocks_per_sm));
    g = min_of(g, tiles);
    g = max_of(g, ceil_div<std::size_t>(n, std::size_t(1) << 30));  // per-block counts stay 32-bit
    grid = unsigned(g);
    return cudaSuccess;
  }

  /// The onesweep launches' grid bound and dynamic shared memory: with PIPELINE_STAGES = 2 the
  /// shape's blocks per SM (`blocks_per_sm`, fewer where fewer fit) on every SM (`grid`), each
  /// with the pipelined tile's storage; otherwise no bound (0: one block per tile), and dynamic
  /// shared memory only for a tile storage above 48 KiB. `kernel`: the pass kernel this sort
  /// launches (`COUNTED`: the counted one).
  template <bool COUNTED, class Kernel>
  __host__ static cudaError_t onesweep_grid(Kernel* kernel, int sms, unsigned& grid, std::size_t& shared_bytes) {
    (void)kernel;
    grid = 0;
    shared_bytes = onesweep_dynamic_shared_bytes<Config, source_of<COUNTED, false>>();
    int blocks_per_sm = 0;
    const cudaError_t e = allow_onesweep_shared<Config, source_of<COUNTED, false>>(kernel, &blocks_per_sm);
    if (e != cudaSuccess) return e;
    if constexpr (Config::PIPELINED) grid = unsigned(max_of(1, sms) * min_of(blocks_per_sm, Config::shape::MIN_BLOCKS));
    return cudaSuccess;
  }

  /// How the kernels after the histogram are launched: as programmatic dependents where the policy
  /// asks for it and the onesweep kernel the device runs was built for sm_90 or newer, whose
  /// kernels wait for their predecessor on the device (a body built from older PTX, e.g. JIT-compiled
  /// compute_80 on an H100, has no such wait, so its launches stay serial). `COUNTED`: asked of
  /// the counted kernel (built from the same PTX), so a counted sort instantiates no plain one.
  template <bool COUNTED = false>
  __host__ static cudaError_t later_launches(launch_order& order) {
    return later_order<Policy::DEPENDENT_LAUNCH>(pass_kernel_of<COUNTED, false>(), order);
  }

  /// Whether this sort's onesweep passes run with cache hints (sort_config::cache_hints): only
  /// where the policy has them, from the current device's L2 size (an attribute query: no sync).
  __host__ static cudaError_t cache_hints(std::size_t n, bool& hints) {
    hints = false;
    if constexpr (Policy::CACHE_HINTS) {
      int device = 0, l2 = 0;
      cudaError_t e = cudaGetDevice(&device);
      if (e == cudaSuccess) e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
      if (e != cudaSuccess) return e;
      hints = Config::cache_hints(n, l2);
    } else {
      (void)n;
    }
    return cudaSuccess;
  }

  /// The pass kernels' tile source: counted (device_count) or not, with or without cache hints.
  template <bool COUNTED, bool HINTS>
  using source_of = typename std::conditional<COUNTED, counted_tiles<HINTS>, portion_tiles<HINTS>>::type;

  /// The pass kernel: with or without cache hints, counted or not.
  template <bool COUNTED, bool HINTS>
  __host__ static auto pass_kernel_of() {
    return onesweep_kernel<Config, source_of<COUNTED, HINTS>>;
  }

  template <bool COUNTED>
  __host__ static cudaError_t run_onesweep(const plan& p, void* temp, const buffers& b, cudaStream_t stream,
                                           const count_source& count) {
    char* base = reinterpret_cast<char*>(align_up(reinterpret_cast<std::uintptr_t>(temp)));
    const temp_layout& l = p.layout;
    u64* status = reinterpret_cast<u64*>(base + l.status);
    u64* bins = reinterpret_cast<u64*>(base + l.counts);
    u64* pingpong = reinterpret_cast<u64*>(base + l.pingpong);
    u32* counters = reinterpret_cast<u32*>(base + l.counters);
    u32* routes = counters + Config::COUNTER_ROUTES;

    unsigned grid = 0;
    int sms = 0;
    cudaError_t e = histogram_grid(p.n, grid, sms);
    if (e != cudaSuccess) return e;
    // The pass kernel: one instantiation with cache hints, one without, chosen here per sort.
    bool hints = false;
    e = cache_hints(p.n, hints);
    if (e != cudaSuccess) return e;
    auto* pass_kernel = pass_kernel_of<COUNTED, false>();
    if constexpr (Policy::CACHE_HINTS) {
      if (hints) pass_kernel = pass_kernel_of<COUNTED, true>();
    }
    unsigned resident = 0;
    std::size_t shared_bytes = 0;
    e = onesweep_grid<COUNTED>(pass_kernel, sms, resident, shared_bytes);
    if (e != cudaSuccess) return e;
    onesweep_passes passes;
    passes.passes = p.window.passes;
    passes.tiles = ceil_div<std::size_t>(p.n, TILE);
    passes.portion_tiles = Policy::PORTION_TILES;
    passes.resident = resident;
    passes.shared_bytes = shared_bytes;
    passes.first_bins = bins;
    passes.first_bins_stride = RADIX;
    passes.pingpong = pingpong;
    passes.hints = hints;
    // Only the status slots the sort's tickets reach are zeroed (a small sort's few, not the
    // ring's 2 MiB): tickets run on across passes.
    {
      const std::size_t slots = min_of<std::size_t>(passes.sort_tickets(), std::size_t(Policy::STATUS_SLOTS));
      const std::size_t used = slots * (Config::status_ring::bytes / std::size_t(Policy::STATUS_SLOTS));
      e = cudaMemsetAsync(base, 0, cleared_for(l, used), stream);
      if (e != cudaSuccess) return e;
    }
    launch_order later = launch_order::serial;
    e = later_launches<COUNTED>(later);
    if (e != cudaSuccess) return e;
    constexpr bool dependent = Policy::DEPENDENT_LAUNCH;
    histogram_params<Key> hp;
    static_cast<key_context<Key>&>(hp) = p.context;
    hp.keys = b.keys_in;
    hp.n = p.n;
    hp.counts = bins;
    hp.window = p.window;
    hp.unsorted = counters + Config::COUNTER_UNSORTED;
    hp.count = count;
    e = launch(histogram_kernel<typename Config::keys_only>, grid, unsigned(Policy::HIST_THREADS), stream, launch_order::serial, hp);
    if (e != cudaSuccess) return e;
    bins_scan_params sp;
    sp.bins = bins;
    sp.routes = routes;
    sp.done = counters + Config::COUNTER_SCAN_DONE;
    sp.mode = b.mode;
    sp.unsorted = counters + Config::COUNTER_UNSORTED;
    e = launch(bins_scan_kernel<RADIX, dependent>, unsigned(p.window.passes), unsigned(bins_scan_threads), stream, later, sp);
    if (e != cudaSuccess) return e;

    // Every pass is enqueued; its launches read the pass's route and exit at once when it is
    // skipped (pass_params: the buffers by pass_buffer index, input, final, other).
    passes.order = later;
    using source = source_of<COUNTED, false>;  // the hinted kernel takes the same parameters
    e = passes.template launch<Config, source>(
        pass_kernel,
        [&](int pass) {
          onesweep_params_of<Config, source> op = pass_params<Config, source>(b, routes, status, counters, p, pass);
          if constexpr (COUNTED) op.count = count;
          return op;
        },
        [&](onesweep_params_of<Config, source>& op, std::size_t first_tile) {
          op.first_key = first_tile * TILE;
          op.keys = u32(min_of<std::size_t>(Config::PORTION_KEYS, p.n - op.first_key));
        },
        stream);
    if (e != cudaSuccess) return e;

    // The final copy, which runs only where the route says (see build_pass_routes).
    const route_copy_params<bits_type, value_raw_t> cp = copy_params(p, b, routes, count);
    const std::size_t copy_bytes = p.n * (sizeof(bits_type) + (HAS_VALUES ? sizeof(value_raw_t) : 0));
    const std::size_t copy_grid = min_of<std::size_t>(ceil_div<std::size_t>(copy_bytes, route_copy_threads * 64),
                                                       std::size_t(max_of(1, sms)) * 8);
    return launch(route_copy_kernel<bits_type, value_raw_t, HAS_VALUES, dependent, Config::INDEX_VALUES>,
                  unsigned(max_of<std::size_t>(copy_grid, 1)), unsigned(route_copy_threads), stream, later, cp);
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
