// Policy tuning on a GPU: times the onesweep sort under several variants of the architecture's
// policy (tile shape, look-back depth, tail groups, blocks per SM) next to CUB, on the same input.
//
//     ringsweep_tune [log2_n=26] [reps=15] [cases=keys_u32,pairs_u32,keys_i32,keys_f32,keys_u64,lowent_u32]
//
// Cases: keys_<u32|i32|f32|u64> and pairs_<u32|u64> (u32 values) on uniform random bits,
// lowent_u32 on keys AND-ing 5 random words (entropy 0.201); keys_u16 and keys_u8 (not run by
// default) compare vector loads with striped loads; trace_u32, trace_pairs and trace_u64 (not run
// by default) also run each of three shapes instrumented (per-tile phase times from %globaltimer,
// look-back depth, polls; medians and 90th percentiles); trace_retire (not run by default) times
// and traces policy_sm90 with the retire before and after 2026-11-28 (u32 keys, u32 pairs, u64
// keys); latency_u32, latency_pairs and latency_u64
// (not run by default; for small n) time programmatic dependent launch on and off. Each case times CUB first, then the
// variants, all on the same input (i32 and f32 keys are the u32 case's bits). Prints one row per
// (case, variant): the median time of `reps` sorts (CUDA events around the sort call only,
// double-buffer form, temp storage allocated outside), keys/s and the ratio CUB time / variant
// time (above 1: the variant is faster). Every variant's output is compared bit for bit with
// CUB's; a mismatch is printed and the exit code is 1. Without a CUDA device it exits 0.
#include <cub/device/device_radix_sort.cuh>
#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/keygen.cuh"
#include "common/carry_tail.cuh"
#include "common/early_values.cuh"
#include "common/fused.cuh"
#include "common/pipelined.cuh"

namespace tune {

/// policy_sm90 as shipped until 2026-11-24: 384 x 22 keys (pairs too) within a 33,792-byte
/// exchange for every key width, two blocks per SM, a look-back window of 1, no dependent launch.
/// The variants below start from it, so that their names keep meaning what was timed.
struct sm90_before_2026_11_24 : ringsweep::policy_defaults {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 384, 22, 22, 33792).blocks_per_sm(2).vector_loads(2);
  }
};

/// policy_sm90 with some members replaced: the onesweep shape (THREADS_ x KEYS_ for keys, PAIRS_
/// keys per thread for pairs, 0: KEYS_ too; EXCHANGE_BYTES_ 0: room for KEYS_ 4-byte items;
/// VECTOR_ -1: policy_sm90's vector loads), blocks per SM, RECOMPUTE_ and the ring (LOOKBACK_DEPTH_, TAIL_BITS_).
/// External linkage: nvcc warns about members of types in unnamed namespaces that only device
/// code reads.
template <int THREADS_, int KEYS_, int LOOKBACK_DEPTH_, int TAIL_BITS_, int MIN_BLOCKS_, int EXCHANGE_BYTES_ = 0,
          int PAIRS_ = 0, bool RECOMPUTE_ = false, int VECTOR_ = -1>
struct variant : sm90_before_2026_11_24 {
  static constexpr int LOOKBACK_DEPTH = LOOKBACK_DEPTH_;
  static constexpr int TAIL_BITS = TAIL_BITS_;
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, THREADS_, KEYS_, PAIRS_ > 0 ? PAIRS_ : KEYS_,
                                          EXCHANGE_BYTES_ > 0 ? EXCHANGE_BYTES_ : THREADS_ * KEYS_ * 4)
        .blocks_per_sm(MIN_BLOCKS_)
        .recompute(RECOMPUTE_)
        .vector_loads(VECTOR_ >= 0 ? VECTOR_ : sm90_before_2026_11_24::onesweep(t).vector_load_item_bytes);
  }
};

/// `Base` with another look-back ring and walk: STATUS_SLOTS_ 0 sizes the ring for RESIDENT_ tiles in
/// flight (ringsweep::ring_slots), LOOKBACK_WINDOW W_, PREFETCH_BINS PREFETCH_.
template <class Base, int RESIDENT_, int LOOKBACK_DEPTH_, int TAIL_BITS_, int W_ = 1, int PREFETCH_ = 0>
struct ring_variant : Base {
  static constexpr int LOOKBACK_DEPTH = LOOKBACK_DEPTH_;
  static constexpr int TAIL_BITS = TAIL_BITS_;
  static constexpr int STATUS_SLOTS = ringsweep::ring_slots(RESIDENT_, LOOKBACK_DEPTH_, TAIL_BITS_);
  static constexpr int LOOKBACK_WINDOW = W_;
  static constexpr int PREFETCH_BINS = PREFETCH_;
};

/// Three blocks per SM (56 registers) with a shape per key type, each spill-free on sm_90 (ptxas
/// over the spill check's instantiations): integer 4-byte keys 22 per thread, float keys 20
/// (22 spill 12 B), pairs 18, 8-byte keys or values 10 (11 spill 8 B); digits recomputed.
struct min3_per_type : sm90_before_2026_11_24 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return ringsweep::onesweep_shape::fit(t, 384, t.float_key ? 20 : 22, 18, 30720)
        .blocks_per_sm(3)
        .recompute()
        .vector_loads(2);
  }
};

/// 8-byte keys (and pairs) with CUB's sm_90 tile: 384 x 15 in a 46,080-byte exchange, two blocks
/// per SM; 4-byte keys keep the old sm90 shape.
struct wide15 : sm90_before_2026_11_24 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes == 8 ? ringsweep::onesweep_shape::fit(t, 384, 15, 15, 46080).blocks_per_sm(2)
                            : sm90_before_2026_11_24::onesweep(t);
  }
};

/// A shape per sort from the first full tune on an H100 (2026-11-24, bench/results/gpu/): keys-only
/// 4-byte sorts 384 x K4 keys (floats 20 when MIN3) with a look-back window of W4B words, three
/// blocks per SM with recomputed digits when MIN3 (spills 4-24 B on sm_90), else two; 4-byte keys
/// with values 384 x PAIRS4 keys, two blocks per SM, window 1 (a window spills these kernels);
/// 8-byte keys 384 x 15 in a 46,080-byte exchange, two blocks per SM, window W8B for keys only;
/// 1- and 2-byte keys as the old sm90.
template <int W4B, int W8B, int PAIRS4 = 24, int K4 = 22, bool MIN3 = true>
struct per_sort : sm90_before_2026_11_24 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    using ringsweep::onesweep_shape;
    return t.key_bytes == 8 ? onesweep_shape::fit(t, 384, 15, 15, 46080)
                                  .blocks_per_sm(2)
                                  .vector_loads(2)
                                  .lookback_window(t.value_bytes == 0 ? W8B : 1)
           : t.key_bytes == 4 && t.value_bytes == 0 && MIN3
               ? onesweep_shape::fit(t, 384, t.float_key ? 20 : K4, 18, 30720)
                     .blocks_per_sm(3)
                     .recompute()
                     .vector_loads(2)
                     .lookback_window(W4B)
           : t.key_bytes == 4 && t.value_bytes == 0
               ? onesweep_shape::fit(t, 384, K4, K4, 384 * K4 * 4).blocks_per_sm(2).vector_loads(2).lookback_window(W4B)
           : t.key_bytes == 4 ? onesweep_shape::fit(t, 384, PAIRS4, PAIRS4, 384 * PAIRS4 * 4).blocks_per_sm(2).vector_loads(2)
                              : sm90_before_2026_11_24::onesweep(t);
  }
};

/// `Base` with cache hints (CACHE_HINTS) for sorts whose pass data, 2 x n x item bytes, exceeds
/// PERCENT_ percent of the L2 (every tune size from 2^24 4-byte keys on a 50 MiB H100): keys and
/// values evict-first (loads not kept in L1), stores streaming, status ring and digit offsets
/// evict-last. Both pass kernels (hinted and not) are spill-free with policy_sm90 on sm_90 and
/// policy_sm80 on sm_80 for u8, u16, u32, i32, f32, u64 and f64 keys and u32/u32, f32/u32,
/// u16/u32, u8/u8, u64/u32, u32/u64, u64/u64 and u32/16-byte pairs (ptxas 13).
template <class Base, int PERCENT_ = 100>
struct hinted : Base {
  static constexpr bool CACHE_HINTS = true;
  static constexpr int CACHE_HINTS_L2_PERCENT = PERCENT_;
};

/// policy_sm90 with 512 threads x 21 keys for 4-byte keys, keys only and pairs (another library's
/// u32 tile, 10,752 keys; exchange 43,008 bytes), MIN_BLOCKS_ blocks per SM, digits recomputed
/// where RECOMPUTE_; the look-back window and offset prefetch of policy_sm90's 4-byte rows; other
/// key widths as policy_sm90. ptxas sm_90: one block per SM is spill-free (86-128 registers); two
/// (64 registers) spill 8 B keys only and 48 B pairs, with or without RECOMPUTE_ (window 1 and no
/// prefetch: still 8 B and 32 B).
template <int MIN_BLOCKS_, bool RECOMPUTE_ = false>
struct sm90_512x21 : ringsweep::policy_sm90 {
  __host__ __device__ static constexpr ringsweep::onesweep_shape onesweep(ringsweep::sort_types t) {
    return t.key_bytes == 4 ? ringsweep::onesweep_shape::fit(t, 512, 21, 21, 512 * 21 * 4)
                                  .blocks_per_sm(MIN_BLOCKS_)
                                  .recompute(RECOMPUTE_)
                                  .vector_loads(2)
                                  .lookback_window(t.value_bytes == 0 ? 4 : 1)
                                  .prefetch_bins(t.value_bytes == 0 ? 0 : 1)
                            : ringsweep::policy_sm90::onesweep(t);
  }
};

/// `Base` with the kernels after the histogram launched as programmatic dependents (sm_90).
template <class Base>
struct dependent : Base {
  static constexpr bool DEPENDENT_LAUNCH = true;
};

/// `Base` with every kernel launched after the one before has finished (no dependent launch).
template <class Base>
struct serial : Base {
  static constexpr bool DEPENDENT_LAUNCH = false;
};

/// Measurement hooks: every onesweep tile writes its timeline to `sink` (see trace_variant).
struct trace_hooks : ringsweep::detail::no_hooks {
  static constexpr bool TRACE = true;
  static inline ringsweep::detail::tile_trace* sink = nullptr;
  __host__ static ringsweep::detail::tile_trace* trace_sink() { return sink; }
};

/// `Base` run with trace_hooks.
template <class Base>
using traced = ringsweep::detail::with_hooks<Base, trace_hooks>;

/// trace_hooks retiring through carry_tail (the retire until 2026-11-28).
struct carry_trace_hooks : trace_hooks {
  template <int S, int L, int TAIL_BITS>
  using tail = carry_tail<S, L, TAIL_BITS>;
};

}  // namespace tune

namespace {

using tune::min3_per_type;
using tune::ring_variant;
using tune::variant;
using tune::wide15;

#define TUNE_CHECK(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t tune_e_ = (call);                                                                  \
    if (tune_e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(tune_e_));   \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)

/// The tuning program's own kernels (fills, checks) on 1024 blocks of 256 threads, on the default
/// stream, through the library's one launch helper.
template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), Args&&... args) {
  return ringsweep::detail::launch(kernel, 1024u, 256u, cudaStream_t(0), ringsweep::detail::launch_order::serial,
                                   std::forward<Args>(args)...);
}

template <class T>
__global__ void fill_kernel(T* out, std::size_t n, std::uint64_t seed, int words) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = bench::random_value<T>(seed, i, words);
  }
}

template <class T>
__global__ void count_mismatch_kernel(const T* a, const T* b, std::size_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    local += a[i] != b[i] ? 1 : 0;
  }
  if (local) atomicAdd(count, local);
}

template <class Key>
struct buffers {
  std::size_t n = 0;
  Key *keys_src = nullptr, *keys_a = nullptr, *keys_b = nullptr, *ref_keys = nullptr;
  std::uint32_t *vals_src = nullptr, *vals_a = nullptr, *vals_b = nullptr, *ref_vals = nullptr;
  unsigned long long* count = nullptr;
  void* temp = nullptr;
  std::string label;
  std::size_t temp_bytes = 0;
};

/// Elements whose bits differ (so NaNs compare equal to themselves).
template <class T>
unsigned long long mismatches(const T* a, const T* b, std::size_t n, unsigned long long* count) {
  using bits = typename ringsweep::detail::uint_of_size<int(sizeof(T))>::type;
  TUNE_CHECK(cudaMemset(count, 0, sizeof(*count)));
  TUNE_CHECK(launch(count_mismatch_kernel<bits>, reinterpret_cast<const bits*>(a), reinterpret_cast<const bits*>(b), n,
                    count));
  unsigned long long h = 0;
  TUNE_CHECK(cudaMemcpy(&h, count, sizeof(h), cudaMemcpyDeviceToHost));
  return h;
}

/// Median milliseconds of `reps` runs of `sort(keys, values)` on fresh copies of the input; the
/// last run's sorted keys (and values) are left in *out_keys (*out_vals).
template <class Key, class Sort>
double time_sort(buffers<Key>& b, bool pairs, int reps, Sort&& sort, const Key** out_keys,
                 const std::uint32_t** out_vals) {
  cudaEvent_t start, stop;
  TUNE_CHECK(cudaEventCreate(&start));
  TUNE_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r <= reps; ++r) {  // run 0 is the warm-up
    TUNE_CHECK(cudaMemcpy(b.keys_a, b.keys_src, b.n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (pairs) TUNE_CHECK(cudaMemcpy(b.vals_a, b.vals_src, b.n * 4, cudaMemcpyDeviceToDevice));
    TUNE_CHECK(cudaEventRecord(start));
    sort(out_keys, out_vals);
    TUNE_CHECK(cudaEventRecord(stop));
    TUNE_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    TUNE_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r > 0) ms.push_back(t);
  }
  TUNE_CHECK(cudaEventDestroy(start));
  TUNE_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int g_failures = 0;

template <class Policy, class Key>
void run_variant(const char* name, buffers<Key>& b, bool pairs, int reps, double cub_ms) {
  const Key* keys = nullptr;
  const std::uint32_t* vals = nullptr;
  const double ms = time_sort(b, pairs, reps, [&](const Key** ok, const std::uint32_t** ov) {
    ringsweep::double_buffer<Key> kb(b.keys_a, b.keys_b);
    ringsweep::double_buffer<std::uint32_t> vb(b.vals_a, b.vals_b);
    std::size_t bytes = b.temp_bytes;
    if (pairs) {
      TUNE_CHECK(ringsweep::tuning::sort_pairs<Policy>(b.temp, bytes, kb, vb, b.n));
    } else {
      TUNE_CHECK(ringsweep::tuning::sort_keys<Policy>(b.temp, bytes, kb, b.n));
    }
    *ok = kb.current();
    *ov = vb.current();
  }, &keys, &vals);
  const unsigned long long bad =
      mismatches(keys, b.ref_keys, b.n, b.count) + (pairs ? mismatches(vals, b.ref_vals, b.n, b.count) : 0);
  if (bad) ++g_failures;
  std::printf("%-14s n=2^%-2d %-34s %8.3f ms %7.2f Gkeys/s  cub/this %5.2f%s\n", b.label.c_str(),
              int(std::log2(double(b.n))), name, ms, double(b.n) / ms * 1e-6, cub_ms / ms,
              bad ? "  MISMATCH" : "");
}

/// Median, 90th percentile and maximum of `v` (sorted in place), as "med/p90/max".
std::string spread(std::vector<double>& v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.0f/%.0f/%.0f", v[v.size() / 2], v[v.size() * 9 / 10], v.back());
  return buf;
}

/// One instrumented sort under `Policy` with `Hooks` (trace_hooks, or hooks derived from them;
/// after run_variant's untimed warm-up of the same shape): per-tile phase times in ns (median / 90th percentile / maximum over every tile of
/// every pass), look-back depth and polls that found nothing. Phases: rank = ticket to counts
/// published; wait = counts to look-back start (the ranking's tail); look-back; retire = look-back
/// end to retired; scatter = retired to exit; tile = ticket to exit.
template <class Policy, class Key, class Hooks = tune::trace_hooks>
void trace_variant(const char* name, buffers<Key>& b, bool pairs) {
  using P = ringsweep::detail::with_hooks<Policy, Hooks>;
  using traits = ringsweep::key_traits<Key>;
  using trace_t = ringsweep::detail::tile_trace;
  constexpr bool float_key = !traits::image_is_xor;
  const std::size_t tile = pairs ? ringsweep::detail::tile_shape<Policy, int(sizeof(Key)), 4, float_key>::TILE
                                 : ringsweep::detail::tile_shape<Policy, int(sizeof(Key)), 0, float_key>::TILE;
  const std::size_t passes = (traits::bits + P::RADIX_BITS - 1) / P::RADIX_BITS;
  // Records by ticket: a persistent (pipelined) launch also takes one tile-less ticket per block.
  const std::size_t tiles = passes * ((b.n + tile - 1) / tile) + passes * 4096;
  trace_t* d_trace = nullptr;
  TUNE_CHECK(cudaMalloc(&d_trace, tiles * sizeof(trace_t)));
  TUNE_CHECK(cudaMemset(d_trace, 0, tiles * sizeof(trace_t)));
  P::sink = d_trace;
  TUNE_CHECK(cudaMemcpy(b.keys_a, b.keys_src, b.n * sizeof(Key), cudaMemcpyDeviceToDevice));
  if (pairs) TUNE_CHECK(cudaMemcpy(b.vals_a, b.vals_src, b.n * 4, cudaMemcpyDeviceToDevice));
  ringsweep::double_buffer<Key> kb(b.keys_a, b.keys_b);
  ringsweep::double_buffer<std::uint32_t> vb(b.vals_a, b.vals_b);
  std::size_t bytes = b.temp_bytes;
  if (pairs) {
    TUNE_CHECK(ringsweep::tuning::sort_pairs<P>(b.temp, bytes, kb, vb, b.n));
  } else {
    TUNE_CHECK(ringsweep::tuning::sort_keys<P>(b.temp, bytes, kb, b.n));
  }
  TUNE_CHECK(cudaDeviceSynchronize());
  P::sink = nullptr;
  std::vector<trace_t> t(tiles);
  TUNE_CHECK(cudaMemcpy(t.data(), d_trace, tiles * sizeof(trace_t), cudaMemcpyDeviceToHost));
  TUNE_CHECK(cudaFree(d_trace));
  std::vector<double> rank, wait, look, retire, scatter, whole, depth, polls;
  for (const trace_t& r : t) {
    if (r.ticket == 0 || r.exit < r.ticket) continue;  // not recorded
    rank.push_back(double(r.counts - r.ticket));
    wait.push_back(double(r.lookback_start - r.counts));
    look.push_back(double(r.lookback_end - r.lookback_start));
    retire.push_back(double(r.retired - r.lookback_end));
    scatter.push_back(double(r.exit - r.retired));
    whole.push_back(double(r.exit - r.ticket));
    depth.push_back(double(r.depth));
    polls.push_back(double(r.polls));
  }
  const std::size_t recorded = rank.size();
  std::printf("%-14s trace %-34s tiles %zu/%zu  ns med/p90/max: rank %s  wait %s  look-back %s  retire %s  "
              "scatter %s  tile %s  depth %s  polls %s\n",
              b.label.c_str(), name, recorded, tiles, spread(rank).c_str(), spread(wait).c_str(), spread(look).c_str(),
              spread(retire).c_str(), spread(scatter).c_str(), spread(whole).c_str(), spread(depth).c_str(),
              spread(polls).c_str());
}

/// Times CUB, then `Variants::run(b, pairs, reps, cub_ms)`, on `n` keys of type `Key` made from
/// the bits of u32 (or u64) random words AND-ed `entropy_words` times.
template <class Key, class Variants>
void run_case(const char* label, std::size_t n, bool pairs, int reps, int entropy_words) {
  buffers<Key> b;
  b.n = n;
  b.label = label;
  for (Key** p : {&b.keys_src, &b.keys_a, &b.keys_b, &b.ref_keys}) TUNE_CHECK(cudaMalloc(p, n * sizeof(Key)));
  for (std::uint32_t** p : {&b.vals_src, &b.vals_a, &b.vals_b, &b.ref_vals}) {
    TUNE_CHECK(cudaMalloc(p, pairs ? n * 4 : 4));
  }
  TUNE_CHECK(cudaMalloc(&b.count, sizeof(unsigned long long)));
  TUNE_CHECK(launch(fill_kernel<Key>, b.keys_src, n, 0x5eedu + n, entropy_words));
  if (pairs) TUNE_CHECK(launch(fill_kernel<std::uint32_t>, b.vals_src, n, 0x7a1eu + n, 1));
  // Temp storage: the larger of CUB's and every variant's (all are small for the double buffer).
  std::size_t cub_bytes = 0;
  {
    cub::DoubleBuffer<Key> kb(b.keys_a, b.keys_b);
    cub::DoubleBuffer<std::uint32_t> vb(b.vals_a, b.vals_b);
    TUNE_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kb, vb, int(n)));
  }
  b.temp_bytes = std::max<std::size_t>(cub_bytes, std::size_t(64) << 20);
  TUNE_CHECK(cudaMalloc(&b.temp, b.temp_bytes));

  const Key* keys = nullptr;
  const std::uint32_t* vals = nullptr;
  const double cub_ms = time_sort(b, pairs, reps, [&](const Key** ok, const std::uint32_t** ov) {
    cub::DoubleBuffer<Key> kb(b.keys_a, b.keys_b);
    cub::DoubleBuffer<std::uint32_t> vb(b.vals_a, b.vals_b);
    std::size_t bytes = b.temp_bytes;
    if (pairs) {
      TUNE_CHECK(cub::DeviceRadixSort::SortPairs(b.temp, bytes, kb, vb, int(n)));
    } else {
      TUNE_CHECK(cub::DeviceRadixSort::SortKeys(b.temp, bytes, kb, int(n)));
    }
    *ok = kb.Current();
    *ov = vb.Current();
  }, &keys, &vals);
  TUNE_CHECK(cudaMemcpy(b.ref_keys, keys, n * sizeof(Key), cudaMemcpyDeviceToDevice));
  if (pairs) TUNE_CHECK(cudaMemcpy(b.ref_vals, vals, n * 4, cudaMemcpyDeviceToDevice));
  std::printf("%-14s n=2^%-2d %-34s %8.3f ms %7.2f Gkeys/s  (entropy words %d)\n", label,
              int(std::log2(double(n))), "cub", cub_ms, double(n) / cub_ms * 1e-6, entropy_words);

  Variants::run(b, pairs, reps, cub_ms);

  for (void* p : {static_cast<void*>(b.keys_src), static_cast<void*>(b.keys_a), static_cast<void*>(b.keys_b),
                  static_cast<void*>(b.ref_keys), static_cast<void*>(b.vals_src), static_cast<void*>(b.vals_a),
                  static_cast<void*>(b.vals_b), static_cast<void*>(b.ref_vals), static_cast<void*>(b.count), b.temp}) {
    TUNE_CHECK(cudaFree(p));
  }
}

/// Combinations of the 2026-11-24 winners (shape per sort, window per shape, ring, prefetch), for
/// 4- and 8-byte keys alike.
struct per_sort_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    using tune::per_sort;
    // The fastest of the first round (three blocks per SM for 4-byte keys), which spills.
    run_variant<ring_variant<per_sort<4, 4>, 396, 512, 6>>("per_sort W4/W4 ring396 T6 (min3)", b, pairs, reps, cub_ms);
    // Spill-free: two blocks per SM everywhere.
    run_variant<per_sort<4, 4, 24, 22, false>>("min2 per_sort 22 W4/W4", b, pairs, reps, cub_ms);
    run_variant<per_sort<4, 4, 24, 24, false>>("min2 per_sort 24 W4/W4", b, pairs, reps, cub_ms);
    run_variant<per_sort<2, 2, 24, 24, false>>("min2 per_sort 24 W2/W2", b, pairs, reps, cub_ms);
    run_variant<per_sort<8, 8, 24, 22, false>>("min2 per_sort 22 W8/W8", b, pairs, reps, cub_ms);
    run_variant<ring_variant<per_sort<4, 4, 24, 22, false>, 256, 512, 8, 1, 1>>("min2 per_sort 22 W4/W4 prefetch", b,
                                                                                  pairs, reps, cub_ms);
    run_variant<ring_variant<per_sort<4, 4, 24, 24, false>, 256, 512, 8, 1, 1>>("min2 per_sort 24 W4/W4 prefetch", b,
                                                                                  pairs, reps, cub_ms);
    run_variant<ring_variant<per_sort<4, 4, 24, 22, false>, 396, 512, 6>>("min2 per_sort 22 W4/W4 ring396 T6", b, pairs,
                                                                            reps, cub_ms);
  }
};

/// The persistent pipelined kernel (issue #24 item 1; docs/performance.md says what to look for):
/// policy_sm90's shapes with a ring for two tickets per block, the same with the shipped ring,
/// three blocks per SM (384 x 16) pipelined, and both with the copy engine's bulk copies (4-byte
/// keys 384 x 22/18 there). 1- and 2-byte keys-only kernels stay unpipelined.
struct pipelined_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<tune::sm90_pipelined>("policy_sm90 pipelined ring528", b, pairs, reps, cub_ms);
    run_variant<tune::sm90_pipelined_ring1024>("policy_sm90 pipelined ring1024", b, pairs, reps, cub_ms);
    run_variant<tune::min3_16>("min3 384x16/14", b, pairs, reps, cub_ms);
    run_variant<tune::min3_16_pipelined>("min3 384x16/14 pipelined ring792 T6", b, pairs, reps, cub_ms);
    // The copy engine (cp.async.bulk on an mbarrier) instead of per-thread cp.async.
    run_variant<tune::sm90_22_pipelined_bulk>("384x22/18 pipelined bulk ring528", b, pairs, reps, cub_ms);
    run_variant<tune::min3_16_pipelined_bulk>("min3 384x16/14 pipelined bulk ring792 T6", b, pairs, reps, cub_ms);
  }
};

/// Tile shapes for 4-byte keys (and u32 values).
struct narrow_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
    run_variant<tune::sm90_before_2026_11_24>("old sm90 (before 2026-11-24)", b, pairs, reps, cub_ms);
    run_variant<variant<384, 20, 512, 8, 2>>("384x20 L512 T8 min2", b, pairs, reps, cub_ms);
    run_variant<variant<384, 24, 512, 8, 2>>("384x24 L512 T8 min2", b, pairs, reps, cub_ms);
    run_variant<variant<512, 16, 512, 8, 2>>("512x16 L512 T8 min2", b, pairs, reps, cub_ms);
    run_variant<variant<384, 22, 256, 8, 2>>("384x22 L256 T8 min2", b, pairs, reps, cub_ms);
    // Three blocks per SM (56 registers; CUB's kernel gets them for i32 and f32 keys and was
    // faster there): needs RECOMPUTE_DIGITS; then 384 x 22 keys (u32, i32; f32 spills 4-12 B:
    // min3_per_type gives f32 20) and 384 x 18 pairs compile without spills. Without it, 16
    // keys already spill 32 bytes. 384x20/18 (u64: 10) is spill-free for every type the spill
    // check instantiates on sm_90.
    run_variant<variant<384, 20, 512, 8, 3, 0, 18, true>>("384x20/18 min3 recompute", b, pairs, reps, cub_ms);
    run_variant<variant<384, 22, 512, 8, 2, 0, 22, true>>("384x22 min2 recompute", b, pairs, reps, cub_ms);
    // Vector loads of 4-byte keys and values too (warp_vector_load: 5 x 16-byte vectors + 2
    // striped items per lane instead of 22 striped loads; 6 KiB more shared memory per block).
    run_variant<variant<384, 22, 512, 8, 2, 0, 22, false, 4>>("384x22 vector loads", b, pairs, reps, cub_ms);
    // The ring and the look-back walk (issue #12 steps 2-4), on the shipped shape and on three
    // blocks per SM: a ring sized for 396 tiles in flight (3 x 132 SMs) in the same 1024 slots
    // (groups of 64 instead of 256), a look-back window of 4 words, bins read before the walk.
    run_variant<min3_per_type>("min3 per type 22/20f/18p", b, pairs, reps, cub_ms);
    run_variant<ring_variant<tune::sm90_before_2026_11_24, 264, 512, 6>>("old sm90 ring264 T6", b, pairs, reps, cub_ms);
    run_variant<ring_variant<min3_per_type, 396, 512, 6>>("min3 per type ring396 T6", b, pairs, reps, cub_ms);
    // Spill-checked with ptxas for sm_90 (every variant below is spill-free where it runs; the
    // pairs instantiations of the keys-only variants spill and are never launched).
    // A look-back window spills in pairs kernels (W2: 20-32 B, W4 with prefetch: 56-64 B; ptxas
    // sm_90), so windows are timed for keys only, and prefetching alone.
    if (!pairs) {
      run_variant<ring_variant<tune::sm90_before_2026_11_24, 256, 512, 8, 2>>("old sm90 W2", b, pairs, reps, cub_ms);
      run_variant<ring_variant<tune::sm90_before_2026_11_24, 256, 512, 8, 4>>("old sm90 W4", b, pairs, reps, cub_ms);
    }
    run_variant<ring_variant<tune::sm90_before_2026_11_24, 256, 512, 8, 1, 1>>("old sm90 prefetch", b, pairs, reps,
                                                                         cub_ms);
    if (!pairs) {
      run_variant<ring_variant<min3_per_type, 396, 512, 6, 2>>("min3 per type ring396 T6 W2", b, pairs, reps, cub_ms);
      // The fused exchange (issue #35 item 4): three blocks per SM at 22 keys per thread, spill-free
      // (bench/common/fused.cuh); keys-only 4-byte sorts only, the rest is policy_sm90.
      run_variant<tune::min3_fused<22, 2>>("min3 fused 22 ring396 W2", b, pairs, reps, cub_ms);
      run_variant<tune::min3_fused<22, 4>>("min3 fused 22 ring396 W4", b, pairs, reps, cub_ms);
      run_variant<tune::min3_fused<20, 2>>("min3 fused 20 ring396 W2", b, pairs, reps, cub_ms);
      run_variant<tune::min3_fused<24, 2>>("min3 fused 24 ring396 W2", b, pairs, reps, cub_ms);
    }
    run_variant<ring_variant<min3_per_type, 396, 512, 6, 1, 1>>("min3 per type ring396 T6 prefetch", b, pairs, reps,
                                                                cub_ms);
    run_variant<tune::dependent<tune::sm90_before_2026_11_24>>("old sm90 dependent launch", b, pairs, reps, cub_ms);
    // Issue #35 item 6: the values' loads in flight during the look-back (bench/common/early_values.cuh).
    if (pairs) run_variant<tune::early_values<ringsweep::policy_sm90>>("policy_sm90 early values", b, pairs, reps, cub_ms);
    per_sort_variants::run(b, pairs, reps, cub_ms);
    pipelined_variants::run(b, pairs, reps, cub_ms);
    // Issue #24: cache hints (every tune size is above their threshold: 2^24 4-byte keys move 128
    // MiB per pass through a 50 MiB L2) and another library's u32 tile, 512 x 21 (spill-free at
    // one block per SM only: two blocks spill 8 B keys-only, 48 B pairs, so are not timed;
    // "512x16 L512 T8 min2" above is the spill-free two-block 512-thread shape).
    run_variant<tune::hinted<ringsweep::policy_sm90>>("policy_sm90 cache hints", b, pairs, reps, cub_ms);
    run_variant<tune::sm90_512x21<1>>("512x21 min1", b, pairs, reps, cub_ms);
  }
};

/// Small sorts, where launch latency is much of the time: programmatic dependent launch on and off.
struct latency_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
    run_variant<tune::serial<ringsweep::policy_sm90>>("policy_sm90 serial launches", b, pairs, reps, cub_ms);
    run_variant<tune::sm90_before_2026_11_24>("old sm90 (before 2026-11-24)", b, pairs, reps, cub_ms);
    run_variant<tune::dependent<tune::sm90_before_2026_11_24>>("old sm90 dependent launch", b, pairs, reps, cub_ms);
  }
};

/// Tile shapes for 8-byte keys: the old sm90 exchange held 11 of them per thread; CUB's sm_90
/// policy takes 15 (the last variants need the larger exchange, up to 46080 bytes of 48 KiB).
struct wide_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
    run_variant<tune::sm90_before_2026_11_24>("old sm90 (before 2026-11-24)", b, pairs, reps, cub_ms);
    run_variant<variant<384, 13, 512, 8, 2, 384 * 13 * 8>>("384x13 (8-byte exchange)", b, pairs, reps, cub_ms);
    run_variant<variant<384, 15, 512, 8, 2, 384 * 15 * 8>>("384x15 (8-byte exchange)", b, pairs, reps, cub_ms);
    run_variant<variant<256, 20, 512, 8, 2, 256 * 20 * 8>>("256x20 (8-byte exchange)", b, pairs, reps, cub_ms);
    run_variant<variant<256, 16, 512, 8, 3, 256 * 16 * 8>>("256x16 min3 (8-byte exchange)", b, pairs, reps, cub_ms);
    run_variant<variant<384, 11, 512, 8, 2, 0, 0, false, 8>>("384x11 vector loads", b, pairs, reps, cub_ms);
    run_variant<variant<384, 13, 512, 8, 2, 384 * 13 * 8, 0, false, 8>>("384x13 vector loads (8-byte exchange)", b,
                                                                         pairs, reps, cub_ms);
    run_variant<min3_per_type>("min3 per type (8-byte: 10)", b, pairs, reps, cub_ms);
    if (!pairs) run_variant<ring_variant<wide15, 264, 512, 6, 2>>("384x15 ring264 T6 W2", b, pairs, reps, cub_ms);
    if (pairs) run_variant<tune::early_values<ringsweep::policy_sm90>>("policy_sm90 early values", b, pairs, reps, cub_ms);
    run_variant<tune::dependent<tune::sm90_before_2026_11_24>>("old sm90 dependent launch", b, pairs, reps, cub_ms);
    per_sort_variants::run(b, pairs, reps, cub_ms);
    pipelined_variants::run(b, pairs, reps, cub_ms);
    run_variant<tune::hinted<ringsweep::policy_sm90>>("policy_sm90 cache hints", b, pairs, reps, cub_ms);
  }
};

/// The instrumented runs (cases trace_u32, trace_pairs, trace_u64): each shape timed, then traced.
/// The instrumented pairs kernels spill (24-60 B on sm_90): their phase times are upper bounds.
struct trace_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
    trace_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs);
    run_variant<min3_per_type>("min3 per type", b, pairs, reps, cub_ms);
    trace_variant<min3_per_type>("min3 per type", b, pairs);
    run_variant<ring_variant<min3_per_type, 396, 512, 6>>("min3 per type ring396 T6", b, pairs, reps, cub_ms);
    trace_variant<ring_variant<min3_per_type, 396, 512, 6>>("min3 per type ring396 T6", b, pairs);
    run_variant<tune::sm90_before_2026_11_24>("old sm90 (before 2026-11-24)", b, pairs, reps, cub_ms);
    trace_variant<tune::sm90_before_2026_11_24>("old sm90 (before 2026-11-24)", b, pairs);
    // Pipelined: a tile's "ticket" stamp is when it becomes the block's current tile (its keys
    // have landed), so rank..scatter compare directly with the one-tile-per-block rows.
    run_variant<tune::sm90_pipelined>("policy_sm90 pipelined ring528", b, pairs, reps, cub_ms);
    trace_variant<tune::sm90_pipelined>("policy_sm90 pipelined ring528", b, pairs);
    run_variant<tune::hinted<ringsweep::policy_sm90>>("policy_sm90 cache hints", b, pairs, reps, cub_ms);
    trace_variant<tune::hinted<ringsweep::policy_sm90>>("policy_sm90 cache hints", b, pairs);
    if constexpr (sizeof(Key) == 4) {
      run_variant<tune::sm90_512x21<1>>("512x21 min1", b, pairs, reps, cub_ms);
      trace_variant<tune::sm90_512x21<1>>("512x21 min1", b, pairs);
    }
  }
};

/// The retire before and after 2026-11-28 (case trace_retire): policy_sm90 retiring through the
/// carry tail (an `atom.acq_rel.gpu` whose reply thread 0 waits for, warp 0's scatter behind it)
/// and through the library's (a `red.release.gpu`, no reply), each timed, then traced. The
/// trace's `retire` (look-back end to retired, thread 0) is what the retire costs warp 0; `tile`
/// and the times say whether that was on the tile's critical path.
struct retire_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<tune::carry_retire<ringsweep::policy_sm90>>("policy_sm90 carry retire", b, pairs, reps, cub_ms);
    run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
    trace_variant<ringsweep::policy_sm90, Key, tune::carry_trace_hooks>("policy_sm90 carry retire", b, pairs);
    trace_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs);
  }
};

/// 1- and 2-byte keys: policy_sm90 loads them through vectors; the same shape loading striped.
struct short_variants {
  template <class Key>
  static void run(buffers<Key>& b, bool pairs, int reps, double cub_ms) {
    run_variant<ringsweep::policy_sm90>("policy_sm90 (vector loads)", b, pairs, reps, cub_ms);
    run_variant<variant<384, 22, 512, 8, 2, 0, 0, false, 0>>("384x22 striped loads", b, pairs, reps, cub_ms);
    // The look-back window, which policy_sm90 gives 4- and 8-byte keys only (their shapes name it;
    // 1- and 2-byte shapes take the policy's LOOKBACK_WINDOW), and prefetched bins.
    run_variant<ring_variant<ringsweep::policy_sm90, 256, 512, 8, 2>>("policy_sm90 W2", b, pairs, reps, cub_ms);
    run_variant<ring_variant<ringsweep::policy_sm90, 256, 512, 8, 4>>("policy_sm90 W4", b, pairs, reps, cub_ms);
    run_variant<ring_variant<ringsweep::policy_sm90, 256, 512, 8, 4, 1>>("policy_sm90 W4 prefetch", b, pairs, reps,
                                                                        cub_ms);
    run_variant<ring_variant<variant<384, 16, 512, 8, 2, 0, 0, false, -1>, 256, 512, 8, 4>>("384x16 W4", b, pairs, reps,
                                                                                           cub_ms);
    run_variant<ring_variant<variant<512, 16, 512, 8, 2, 0, 0, false, -1>, 256, 512, 8, 4>>("512x16 W4", b, pairs, reps,
                                                                                           cub_ms);
    run_variant<tune::hinted<ringsweep::policy_sm90>>("policy_sm90 cache hints", b, pairs, reps, cub_ms);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 26;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 15;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("ringsweep_tune: no CUDA device; nothing to tune.\n");
    return 0;
  }
  cudaDeviceProp prop;
  TUNE_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  const std::size_t n = std::size_t(1) << lg;
  const std::string cases = argc > 3 ? argv[3] : "keys_u32,pairs_u32,keys_i32,keys_f32,keys_u64,lowent_u32";
  const auto want = [&](const char* c) {
    return ("," + cases + ",").find(std::string(",") + c + ",") != std::string::npos;
  };
  if (want("keys_u32")) run_case<std::uint32_t, narrow_variants>("keys_u32", n, false, reps, 1);
  if (want("keys_i32")) run_case<std::int32_t, narrow_variants>("keys_i32", n, false, reps, 1);
  if (want("keys_f32")) run_case<float, narrow_variants>("keys_f32", n, false, reps, 1);
  if (want("pairs_u32")) run_case<std::uint32_t, narrow_variants>("pairs_u32/u32", n, true, reps, 1);
  if (want("lowent_u32")) run_case<std::uint32_t, narrow_variants>("keys_u32 H.201", n, false, reps, 5);
  if (want("keys_u64")) run_case<std::uint64_t, wide_variants>("keys_u64", n / 2, false, reps, 1);
  if (want("pairs_u64")) run_case<std::uint64_t, wide_variants>("pairs_u64/u32", n / 2, true, reps, 1);
  if (want("keys_u16")) run_case<std::uint16_t, short_variants>("keys_u16", n, false, reps, 1);
  if (want("keys_u8")) run_case<std::uint8_t, short_variants>("keys_u8", n, false, reps, 1);
  if (want("latency_u32")) run_case<std::uint32_t, latency_variants>("latency keys_u32", n, false, reps, 1);
  if (want("latency_pairs")) run_case<std::uint32_t, latency_variants>("latency pairs_u32", n, true, reps, 1);
  if (want("latency_u64")) run_case<std::uint64_t, latency_variants>("latency keys_u64", n, false, reps, 1);
  if (want("trace_u32")) run_case<std::uint32_t, trace_variants>("trace keys_u32", n, false, reps, 1);
  if (want("trace_pairs")) run_case<std::uint32_t, trace_variants>("trace pairs_u32", n, true, reps, 1);
  if (want("trace_u64")) run_case<std::uint64_t, trace_variants>("trace keys_u64", n / 2, false, reps, 1);
  if (want("trace_retire")) {
    run_case<std::uint32_t, retire_variants>("retire keys_u32", n, false, reps, 1);
    run_case<std::uint32_t, retire_variants>("retire pairs_u32", n, true, reps, 1);
    run_case<std::uint64_t, retire_variants>("retire keys_u64", n / 2, false, reps, 1);
  }
  return g_failures ? 1 : 0;
}
