// ringsweep vs cub::DeviceRadixSort (onesweep), side by side in one process (Google Benchmark).
//
//     ringsweep_sort_bench [--rs_min_log2=16] [--rs_max_log2=28] [--rs_no_l2_flush] [benchmark flags]
//     ringsweep_sort_bench --benchmark_filter='keys/u32/.*' --benchmark_format=json > out.json
//     python3 bench/plot.py out.json --out plots/
//
// Benchmarks are named  <keys|pairs>/<key type>/entropy:<H>/n:<n>/<cub|ringsweep>  for keys u32,
// i32, f32, u64 and u32x2 (values u32 for pairs), n = 2^16..2^28 (capped by free device memory), entropy
// 1.000, 0.544, 0.201 (AND-ing 1, 3, 5 random words: bench/common/keygen.cuh), ascending, in/out
// form for both libraries (CUB with `int` num_items, its 32-bit-offset fast path).
// u32x2 is a struct {u32 hi, lo} sorted through a decomposer (both libraries' custom-key API),
// filled with the very bits of the u64 rows (hi = the high half): its rows against the u64 rows
// are the price of a custom key, its rs_over_cub the comparison with CUB's decomposer sort.
// Rows  narrow/<key type>/below:2^<b>/n:<n>/<cub|ringsweep>  sort uniform keys below 2^b (u32 below
// 2^16 and 2^24, u64 below 2^32; n = 2^20..2^28 within the range above): both libraries sort the
// full key width, and ringsweep skips the passes whose digit is the same for every key.
// Rows  sorted/<key type>/<keys|pairs>/n:<n>/<cub|ringsweep>  sort input already in ascending order
// (u32 and u64 keys, keys only and with u32 values): key i is i * step plus a random number below
// step (step = key range / n), so every digit of every pass varies and no pass can be skipped for
// being uniform; what a library gains here, it gains from noticing the order.
// Rows  segmented/u32/<keys|pairs>/segments:<S|powerlaw>/n:16777216/<cub_segradix|cub_segsort|ringsweep>
// (issue #25) sort 2^24 random u32 keys (entropy 1.000; pairs: u32 values, the input positions)
// in S = 1, 2^6, 2^12, 2^14, 2^18, 2^20 equal segments or in power-law segment sizes (make_offsets below:
// P(size >= s) = 1/s, capped at 2^20, seed 0x5e9a0000: 1,048,701 segments, the largest 2^20 keys;
// 27.8% of the keys in segments of at most 128, 26.1% in 7,978 segments of 129 to 9216 (one sm_90
// u32 tile), 46.1% in 116 larger ones), each segment sorted on its own:
// ringsweep::segmented_sort_keys/pairs against cub::DeviceSegmentedRadixSort::SortKeys/SortPairs
// (cub_segradix) and cub::DeviceSegmentedSort::StableSortKeys/StableSortPairs (cub_segsort;
// CCCL's SortKeys/SortPairs run the same code), int offsets (begin = offsets, end = offsets + 1)
// for all three. Registered when 2^24 lies within --rs_min_log2..--rs_max_log2.
// Rows  argsort/u32/<keys_out|no_keys_out>/n:<n>/<cub|ringsweep>  (issue #25) compute the stable
// sorting permutation of random u32 keys as u32 indices, n = 2^16..2^28: ringsweep::argsort (with
// d_keys_out, or nullptr: no sorted keys wanted) against a sequence kernel writing 0..n-1 plus
// cub::DeviceRadixSort::SortPairs (keys, indices), both timed; CUB writes the sorted keys in both
// rows (it has no form without them).
// Rows  device_count/u32/n:<n>/<host_sync|max_n:n|max_n:2n>  (issue #36) sort n random u32 keys
// (entropy 1.000, in/out) whose count an earlier kernel left in device memory: host_sync is the
// pattern a device count forces on CUB and on ringsweep's host-count form (cudaMemcpyAsync of the
// count to pinned host memory, cudaStreamSynchronize, then sort_keys with that n), timed from
// before the copy to after the sort; max_n:n and max_n:2n call ringsweep::sort_keys with a
// device_count whose bound is n or 2n (the grids of 2n keys, the work of n), no synchronisation.
//   rs_over_host_sync   (device-count rows) host_sync seconds / this row's seconds
//
// Timing: CUDA events around the sort call only (UseManualTime; argsort's CUB rows: the sequence
// kernel and SortPairs); inputs are generated, temporary storage allocated and one warm-up sort run
// (and its output checked) before the timed loop; the L2 cache is flushed before every timed sort
// unless --rs_no_l2_flush. The checks, every row of every library: plain rows count inversions;
// segmented rows count, per segment, keys out of order and (keys only) segments whose key multiset
// changed (a hash sum), (pairs) values outside their segment, not pointing at their key, or out of
// input order among equal keys; argsort rows count indices out of range, sorted keys unequal to
// keys_in[index] and (key, index) neighbours that do not strictly ascend. The pair and argsort
// checks prove the stable sorting permutation; a wrong output skips the row with the error.
//
// Counters:
//   keys_per_s        n / time
//   GBps              ideal traffic / time, ideal traffic per key = key bytes x (1 + 2 x passes)
//                     (+ value bytes x 2 x passes for pairs), passes = key bits / 8: u32 keys 36 B
//                     (narrow rows too: the traffic of a sort that skips nothing)
//   model_B_per_key   that ideal traffic per key
//   rs_over_cub       (ringsweep rows) ringsweep keys/s / CUB keys/s of the same configuration,
//                     measured by the CUB row registered (and run) just before; > 1: ringsweep faster
//   temp_bytes_ringsweep, temp_bytes_cub   both libraries' temporary storage for this n
// Segmented and argsort rows have keys_per_s (n / time: keys of all segments together), no traffic
// model (GBps), and:
//   rs_over_cub       (ringsweep rows) over the faster CUB row of the configuration
//   rs_over_cub_segradix, rs_over_cub_segsort   (segmented ringsweep rows) over each CUB sort
//   segments, largest_segment   (segmented) the layout
//   temp_bytes_cub_segradix, temp_bytes_cub_segsort   (segmented, instead of temp_bytes_cub)
//   aux_bytes_cub     (argsort) device memory CUB's way needs besides its temporary storage and
//                     the indices: the 0..n-1 array, plus the sorted keys in no_keys_out rows
//
// Without a CUDA device it prints one line and exits 0.

#include <benchmark/benchmark.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/tuple>
#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "common/keygen.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Kernels are launched the way the library and its tests launch them: its one helper.
using ringsweep::detail::launch;
constexpr auto serial = ringsweep::detail::launch_order::serial;

// ---- settings from the command line (ours start with --rs_) ---------------------------------------

struct settings {
  int min_log2 = 16;
  int max_log2 = 28;
  bool l2_flush = true;
};
settings g_settings;

/// The sort timed by a row: `cub` is cub::DeviceRadixSort (with a sequence kernel in argsort rows);
/// the segmented rows time cub::DeviceSegmentedRadixSort and cub::DeviceSegmentedSort instead.
enum class library { cub, ringsweep, cub_segradix, cub_segsort };

/// A custom key of two 32-bit fields, hi the more significant, and its decomposer.
struct u32x2 {
  u32 hi, lo;
};
struct u32x2_decomposer {
  __host__ __device__ cuda::std::tuple<u32&, u32&> operator()(u32x2& k) const { return {k.hi, k.lo}; }
};

const char* name_of(library l) {
  switch (l) {
    case library::cub: return "cub";
    case library::ringsweep: return "ringsweep";
    case library::cub_segradix: return "cub_segradix";
    case library::cub_segsort: return "cub_segsort";
  }
  return "?";
}

template <class T> const char* type_name();
template <> const char* type_name<u32>() { return "u32"; }
template <> const char* type_name<std::int32_t>() { return "i32"; }
template <> const char* type_name<float>() { return "f32"; }
template <> const char* type_name<u64>() { return "u64"; }
template <> const char* type_name<u32x2>() { return "u32x2"; }

// ---- CUDA helpers -----------------------------------------------------------------------------------

#define BENCH_CHECK(call)                                                                         \
  do {                                                                                            \
    const cudaError_t bench_e_ = (call);                                                          \
    if (bench_e_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(bench_e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

/// Device memory owned by one benchmark run.
struct device_buffer {
  void* p = nullptr;
  explicit device_buffer(std::size_t bytes) {
    if (bytes) BENCH_CHECK(cudaMalloc(&p, bytes));
  }
  ~device_buffer() {
    if (p) cudaFree(p);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class T>
__global__ void fill_kernel(T* out, std::size_t n, std::uint64_t seed, int words) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same<T, u32x2>::value) {  // the bits of the u64 rows
      const u64 v = bench::random_value<u64>(seed, i, words);
      out[i] = u32x2{u32(v >> 32), u32(v)};
    } else {
      out[i] = bench::random_value<T>(seed, i, words);
    }
  }
}

template <class T>
void fill(T* out, std::size_t n, std::uint64_t seed, int words, cudaStream_t s) {
  BENCH_CHECK(launch(fill_kernel<T>, 1024, 256, s, serial, out, n, seed, words));
}

/// Order image of a u32x2 for the check: hi, then lo.
__device__ u64 check_image(u32x2 k) { return (u64(k.hi) << 32) | k.lo; }
/// Uniform integer keys below 2^bits.
template <class T>
__global__ void fill_narrow_kernel(T* out, std::size_t n, std::uint64_t seed, int bits) {
  const std::uint64_t mask = bits >= 64 ? ~0ull : (std::uint64_t(1) << bits) - 1;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = T(bench::random_bits(seed, i, 1) & mask);
  }
}

/// Ascending keys spread over the whole key range: key i = i * step + (random below step).
template <class T>
__global__ void fill_sorted_kernel(T* out, std::size_t n, std::uint64_t seed) {
  const std::uint64_t range = sizeof(T) >= 8 ? ~0ull : (std::uint64_t(1) << (8 * sizeof(T))) - 1;
  const std::uint64_t step = n > 1 ? range / n : 1;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = T(std::uint64_t(i) * step + (step > 1 ? bench::random_bits(seed, i, 1) % step : 0));
  }
}

/// Order image of a key for the check: ringsweep's key traits, with -0.0 taken as +0.0 (both
/// libraries sort them as equal).
template <class Key>
__device__ auto check_image(Key k) {
  using traits = ringsweep::key_traits<Key>;
  if constexpr (std::is_floating_point<Key>::value) {
    if (k == Key(0)) k = Key(0);
  }
  return traits::to_ordered(traits::to_bits(k));
}

template <class Key>
__global__ void count_inversions_kernel(const Key* keys, std::size_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i + 1 < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    local += check_image(keys[i + 1]) < check_image(keys[i]) ? 1 : 0;
  }
  if (local) atomicAdd(count, local);
}

template <class Key>
unsigned long long count_inversions(const Key* keys, std::size_t n, cudaStream_t s) {
  device_buffer count(sizeof(unsigned long long));
  BENCH_CHECK(cudaMemsetAsync(count.p, 0, sizeof(unsigned long long), s));
  BENCH_CHECK(
      launch(count_inversions_kernel<Key>, 1024, 256, s, serial, keys, n, count.as<unsigned long long>()));
  unsigned long long h = 0;
  BENCH_CHECK(cudaMemcpyAsync(&h, count.p, sizeof(h), cudaMemcpyDeviceToHost, s));
  BENCH_CHECK(cudaStreamSynchronize(s));
  return h;
}

/// A buffer twice the L2 size, overwritten before each timed sort so that no input stays cached.
struct l2_flusher {
  void* p = nullptr;
  std::size_t bytes = 0;
  void flush(cudaStream_t s) {
    if (!g_settings.l2_flush) return;
    if (!p) {
      int device = 0, l2 = 0;
      BENCH_CHECK(cudaGetDevice(&device));
      BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
      bytes = std::size_t(l2) * 2;
      if (bytes == 0) return;
      BENCH_CHECK(cudaMalloc(&p, bytes));
    }
    BENCH_CHECK(cudaMemsetAsync(p, 0, bytes, s));
  }
};
l2_flusher g_flusher;

/// The timed loop of every row: each iteration flushes the L2 (untimed), then times `once()` alone
/// between two CUDA events on `s`. Returns the mean seconds per call.
template <class Once>
double time_loop(benchmark::State& state, cudaStream_t s, Once&& once) {
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  double total_s = 0;
  for (auto _ : state) {
    g_flusher.flush(s);
    BENCH_CHECK(cudaEventRecord(start, s));
    const cudaError_t e = once();
    BENCH_CHECK(cudaEventRecord(stop, s));
    BENCH_CHECK(cudaEventSynchronize(stop));
    BENCH_CHECK(e);
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(ms * 1e-3);
    total_s += ms * 1e-3;
  }
  BENCH_CHECK(cudaEventDestroy(start));
  BENCH_CHECK(cudaEventDestroy(stop));
  return state.iterations() ? total_s / double(state.iterations()) : 0.0;
}

// ---- one configuration --------------------------------------------------------------------------------

struct config {
  std::size_t n;
  double entropy;
  library lib;
  std::string key;  // name without the library, for pairing CUB and ringsweep rows
  int below_bits;   // narrow rows: keys below 2^below_bits (0: random keys of the given entropy)
  bool sorted = false;  // sorted rows: ascending input (see fill_sorted_kernel)
};

/// Seconds per sort of the last CUB run of each configuration (see rs_over_cub).
std::map<std::string, double> g_cub_seconds;

/// The sort under test, in/out form, for both libraries: one call, query or run.
template <class Key, class Value, bool Pairs>
cudaError_t sort_call(library lib, void* temp, std::size_t& temp_bytes, const Key* kin, Key* kout, const Value* vin,
                      Value* vout, std::size_t n, cudaStream_t s) {
  if constexpr (std::is_same<Key, u32x2>::value) {  // both through their decomposer API
    if (lib == library::cub) {
      if constexpr (Pairs) {
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kin, kout, vin, vout, int(n), u32x2_decomposer{}, s);
      } else {
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, kin, kout, int(n), u32x2_decomposer{}, s);
      }
    }
    if constexpr (Pairs) {
      return ringsweep::sort_pairs(temp, temp_bytes, kin, kout, vin, vout, n, u32x2_decomposer{},
                                   ringsweep::sort_options{}, s);
    } else {
      return ringsweep::sort_keys(temp, temp_bytes, kin, kout, n, u32x2_decomposer{}, ringsweep::sort_options{}, s);
    }
  } else {
    if (lib == library::cub) {
      const int items = int(n);
      if constexpr (Pairs) {
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kin, kout, vin, vout, items, 0,
                                               int(sizeof(Key) * 8), s);
      } else {
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, kin, kout, items, 0, int(sizeof(Key) * 8), s);
      }
    }
    if constexpr (Pairs) {
      return ringsweep::sort_pairs(temp, temp_bytes, kin, kout, vin, vout, n, ringsweep::sort_options{}, s);
    } else {
      return ringsweep::sort_keys(temp, temp_bytes, kin, kout, n, ringsweep::sort_options{}, s);
    }
  }
}

template <class Key, class Value, bool Pairs>
void bm_sort(benchmark::State& state, config cfg) {
  const std::size_t n = cfg.n;
  cudaStream_t s = nullptr;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  device_buffer keys_in(n * sizeof(Key)), keys_out(n * sizeof(Key));
  device_buffer values_in(Pairs ? n * sizeof(Value) : 0), values_out(Pairs ? n * sizeof(Value) : 0);
  const int words = bench::and_words_for_entropy(cfg.entropy);
  if (cfg.sorted) {
    if constexpr (std::is_integral<Key>::value) {
      BENCH_CHECK(launch(fill_sorted_kernel<Key>, 1024, 256, s, serial, keys_in.as<Key>(), n,
                         0x5eed0000u + std::uint64_t(n)));
    }
  } else if (cfg.below_bits > 0) {
    if constexpr (std::is_integral<Key>::value) {
      BENCH_CHECK(launch(fill_narrow_kernel<Key>, 1024, 256, s, serial, keys_in.as<Key>(), n,
                         0x5eed0000u + std::uint64_t(n), cfg.below_bits));
    }
  } else {
    fill(keys_in.as<Key>(), n, 0x5eed0000u + std::uint64_t(n), words, s);
  }
  if (Pairs) fill(values_in.as<Value>(), n, 0x7a1e0000u + std::uint64_t(n), 1, s);

  // Both libraries' temporary storage, for the counters; this library's, allocated untimed.
  std::size_t temp_rs = 0, temp_cub = 0;
  BENCH_CHECK((sort_call<Key, Value, Pairs>(library::ringsweep, nullptr, temp_rs, keys_in.as<Key>(),
                                             keys_out.as<Key>(), values_in.as<Value>(), values_out.as<Value>(), n,
                                             s)));
  BENCH_CHECK((sort_call<Key, Value, Pairs>(library::cub, nullptr, temp_cub, keys_in.as<Key>(), keys_out.as<Key>(),
                                             values_in.as<Value>(), values_out.as<Value>(), n, s)));
  std::size_t temp_bytes = cfg.lib == library::cub ? temp_cub : temp_rs;
  device_buffer temp(temp_bytes);

  auto sort_once = [&] {
    return sort_call<Key, Value, Pairs>(cfg.lib, temp.p, temp_bytes, keys_in.as<Key>(), keys_out.as<Key>(),
                                        values_in.as<Value>(), values_out.as<Value>(), n, s);
  };

  // Warm-up (first launch, module load) and a check of its output.
  BENCH_CHECK(sort_once());
  BENCH_CHECK(cudaStreamSynchronize(s));
  if (const unsigned long long inv = count_inversions(keys_out.as<Key>(), n, s)) {
    state.SkipWithError(("output not sorted: " + std::to_string(inv) + " inversions").c_str());
    BENCH_CHECK(cudaStreamDestroy(s));
    return;
  }

  const double seconds = time_loop(state, s, sort_once);
  BENCH_CHECK(cudaStreamDestroy(s));

  const int passes = int(sizeof(Key));  // 8-bit digits over the whole key
  const double model = double(sizeof(Key)) * (1 + 2 * passes) + (Pairs ? double(sizeof(Value)) * 2 * passes : 0.0);
  state.counters["n"] = double(n);
  state.counters["entropy"] = cfg.entropy;
  if (cfg.below_bits > 0) state.counters["below_bits"] = cfg.below_bits;
  if (cfg.sorted) state.counters["sorted_input"] = 1;
  state.counters["keys_per_s"] = double(n) / seconds;
  state.counters["GBps"] = model * double(n) / seconds * 1e-9;
  state.counters["model_B_per_key"] = model;
  state.counters["temp_bytes_ringsweep"] = double(temp_rs);
  state.counters["temp_bytes_cub"] = double(temp_cub);
  if (cfg.lib == library::cub) {
    g_cub_seconds[cfg.key] = seconds;
  } else {
    const auto it = g_cub_seconds.find(cfg.key);
    if (it != g_cub_seconds.end()) state.counters["rs_over_cub"] = it->second / seconds;
  }
  state.SetLabel(name_of(cfg.lib));
}

// ---- segmented sorts (issue #25) ------------------------------------------------------------------

/// A segment layout of the segmented rows: `count` equal segments, or power-law sizes.
struct segment_layout {
  std::size_t count = 1;  // equal segments (ignored for power law)
  bool powerlaw = false;
};

constexpr std::uint64_t powerlaw_seed = 0x5e9a0000u;
constexpr std::size_t powerlaw_largest = std::size_t(1) << 20;

/// Offsets of the segments covering [0, n), offsets[0] = 0 and offsets.back() = n: segment i is
/// [offsets[i], offsets[i + 1]). Equal layout: `count` segments of n / count keys (the last takes the
/// rest). Power law: sizes drawn one after another, size j = min(floor(1 / u_j), 2^20, keys left)
/// with u_j = (top 53 bits of bench::random_bits(powerlaw_seed, j, 1) + 1) / 2^53 in (0, 1], so
/// P(size >= s) = 1 / s (a Pareto law of index 1: P(size = s) = 1 / (s (s + 1)), a Zipf law of
/// exponent 2), until the sizes sum to n. Every segment holds at least one key; the same n gives the
/// same offsets on every machine.
std::vector<int> make_offsets(std::size_t n, segment_layout layout) {
  std::vector<int> offsets{0};
  if (!layout.powerlaw) {
    const std::size_t count = std::max<std::size_t>(layout.count, 1);
    for (std::size_t i = 1; i < count; ++i) offsets.push_back(int(n / count * i));
    offsets.push_back(int(n));
    return offsets;
  }
  std::size_t sum = 0;
  for (std::uint64_t j = 0; sum < n; ++j) {
    const double u = double((bench::random_bits(powerlaw_seed, j, 1) >> 11) + 1) * 0x1p-53;
    const double draw = std::min(1.0 / u, double(powerlaw_largest));
    const std::size_t size = std::min(std::size_t(draw), n - sum);
    sum += size;
    offsets.push_back(int(sum));
  }
  return offsets;
}

/// Writes 0, 1, ..., n - 1: the values of the segmented pair rows, and CUB's indices in the argsort
/// rows (where it is timed: the sequence kernel a CUB user writes before SortPairs).
__global__ void sequence_kernel(u32* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = u32(i);
  }
}

/// One thread per element up to 2^22 blocks of 256 (n <= 2^30 here), grid-stride beyond.
cudaError_t fill_sequence(u32* out, std::size_t n, cudaStream_t s) {
  const std::size_t blocks = std::min<std::size_t>(std::max<std::size_t>((n + 255) / 256, 1), std::size_t(1) << 22);
  return launch(sequence_kernel, unsigned(blocks), 256, s, serial, out, n);
}

/// Problems found by check_segmented_kernel, one counter each.
enum segmented_problem { seg_unsorted, seg_value_outside, seg_value_key, seg_unstable, seg_multiset, seg_problems };
const char* const segmented_problem_names[seg_problems] = {
    "keys out of order", "values outside their segment", "values not pointing at their key",
    "equal keys out of input order", "segments whose keys differ from the input's"};

/// The segment holding position i (offsets ascending, offsets[0] = 0 <= i < offsets[segments]).
__device__ std::size_t segment_of(const int* offsets, std::size_t segments, std::size_t i) {
  std::size_t lo = 0, hi = segments;  // offsets[lo] <= i < offsets[hi]
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (std::size_t(offsets[mid]) <= i) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// Checks a segmented sort of contiguous segments covering [0, n). Counts keys smaller than their
/// left neighbour in the same segment; with values (the input positions, `values_out` not null)
/// values outside their segment, keys that differ from keys_in[value] and equal neighbours whose
/// values do not ascend: zero of those proves each segment is its input's stable sorted
/// permutation. For keys alone it adds, per segment, hash(out[i]) - hash(in[i]) over the
/// segment's positions into `sums` (zero for every segment: each holds the input's keys).
__global__ void check_segmented_kernel(const u32* keys_in, const u32* keys_out, const u32* values_out, std::size_t n,
                                       const int* offsets, std::size_t segments, unsigned long long* sums,
                                       unsigned long long* problems) {
  unsigned long long local[seg_problems] = {};
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t seg = segment_of(offsets, segments, i);
    const std::size_t end = std::size_t(offsets[seg + 1]);
    const u32 k = keys_out[i];
    const bool next_in_segment = i + 1 < end;
    if (next_in_segment && keys_out[i + 1] < k) ++local[seg_unsorted];
    if (values_out) {
      const u32 v = values_out[i];
      if (v < u32(offsets[seg]) || v >= end) {
        ++local[seg_value_outside];
      } else if (keys_in[v] != k) {
        ++local[seg_value_key];
      }
      if (next_in_segment && keys_out[i + 1] == k && values_out[i + 1] <= v) ++local[seg_unstable];
    } else {
      atomicAdd(&sums[seg], bench::splitmix64(k) - bench::splitmix64(keys_in[i]));  // mod 2^64
    }
  }
  for (int p = 0; p < seg_problems; ++p) {
    if (local[p]) atomicAdd(&problems[p], local[p]);
  }
}

__global__ void count_nonzero_kernel(const unsigned long long* sums, std::size_t count, unsigned long long* out) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    local += sums[i] != 0 ? 1 : 0;
  }
  if (local) atomicAdd(out, local);
}

/// "" when the segmented sort's output is right, else what is wrong (check_segmented_kernel).
std::string check_segmented(const u32* keys_in, const u32* keys_out, const u32* values_out, std::size_t n,
                            const int* d_offsets, std::size_t segments, cudaStream_t s) {
  device_buffer sums(segments * sizeof(unsigned long long)), problems(seg_problems * sizeof(unsigned long long));
  BENCH_CHECK(cudaMemsetAsync(sums.p, 0, segments * sizeof(unsigned long long), s));
  BENCH_CHECK(cudaMemsetAsync(problems.p, 0, seg_problems * sizeof(unsigned long long), s));
  BENCH_CHECK(launch(check_segmented_kernel, 1024, 256, s, serial, keys_in, keys_out, values_out, n, d_offsets,
                     segments, sums.as<unsigned long long>(), problems.as<unsigned long long>()));
  if (!values_out) {
    BENCH_CHECK(launch(count_nonzero_kernel, 1024, 256, s, serial, sums.as<unsigned long long>(), segments,
                       problems.as<unsigned long long>() + seg_multiset));
  }
  unsigned long long h[seg_problems] = {};
  BENCH_CHECK(cudaMemcpyAsync(h, problems.p, sizeof(h), cudaMemcpyDeviceToHost, s));
  BENCH_CHECK(cudaStreamSynchronize(s));
  std::string what;
  for (int p = 0; p < seg_problems; ++p) {
    if (h[p]) what += (what.empty() ? "" : ", ") + std::to_string(h[p]) + " " + segmented_problem_names[p];
  }
  return what;
}

/// The segmented sort under test, in/out form, int offsets (begin = offsets, end = offsets + 1).
template <bool Pairs>
cudaError_t segmented_call(library lib, void* temp, std::size_t& temp_bytes, const u32* kin, u32* kout,
                           const u32* vin, u32* vout, std::size_t n, std::size_t segments, const int* d_offsets,
                           cudaStream_t s) {
  const int* begin = d_offsets;
  const int* end = d_offsets + 1;
  switch (lib) {
    case library::cub_segradix:
      if constexpr (Pairs) {
        return cub::DeviceSegmentedRadixSort::SortPairs(temp, temp_bytes, kin, kout, vin, vout, int(n), int(segments),
                                                        begin, end, 0, 32, s);
      } else {
        return cub::DeviceSegmentedRadixSort::SortKeys(temp, temp_bytes, kin, kout, int(n), int(segments), begin, end,
                                                       0, 32, s);
      }
    case library::cub_segsort:
      if constexpr (Pairs) {
        return cub::DeviceSegmentedSort::StableSortPairs(temp, temp_bytes, kin, kout, vin, vout, std::int64_t(n),
                                                         std::int64_t(segments), begin, end, s);
      } else {
        return cub::DeviceSegmentedSort::StableSortKeys(temp, temp_bytes, kin, kout, std::int64_t(n),
                                                        std::int64_t(segments), begin, end, s);
      }
    case library::ringsweep:
      if constexpr (Pairs) {
        return ringsweep::segmented_sort_pairs(temp, temp_bytes, kin, kout, vin, vout, n, segments, begin, end,
                                               ringsweep::sort_options{}, s);
      } else {
        return ringsweep::segmented_sort_keys(temp, temp_bytes, kin, kout, n, segments, begin, end,
                                              ringsweep::sort_options{}, s);
      }
    case library::cub:
      break;
  }
  return cudaErrorInvalidValue;
}

struct segmented_config {
  std::string key;  // the row's name without the library
  library lib;
  std::size_t n;
  std::shared_ptr<const std::vector<int>> offsets;  // host copy, segments + 1 entries
};

/// Records a CUB row's seconds, or sets a ringsweep row's ratios to the CUB rows run before it.
void record_ratios(benchmark::State& state, const std::string& key, library lib, double seconds,
                   std::initializer_list<library> cubs) {
  if (lib != library::ringsweep) {
    g_cub_seconds[key + "/" + name_of(lib)] = seconds;
    return;
  }
  double best = 0;
  for (library c : cubs) {
    const auto it = g_cub_seconds.find(key + "/" + name_of(c));
    if (it == g_cub_seconds.end()) continue;
    if (cubs.size() > 1) state.counters[std::string("rs_over_") + name_of(c)] = it->second / seconds;
    best = best == 0 ? it->second : std::min(best, it->second);
  }
  if (best > 0) state.counters["rs_over_cub"] = best / seconds;
}

template <bool Pairs>
void bm_segmented(benchmark::State& state, segmented_config cfg) {
  const std::size_t n = cfg.n;
  const std::size_t segments = cfg.offsets->size() - 1;
  cudaStream_t s = nullptr;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  device_buffer keys_in(n * sizeof(u32)), keys_out(n * sizeof(u32));
  device_buffer values_in(Pairs ? n * sizeof(u32) : 0), values_out(Pairs ? n * sizeof(u32) : 0);
  device_buffer offsets(cfg.offsets->size() * sizeof(int));
  BENCH_CHECK(cudaMemcpyAsync(offsets.p, cfg.offsets->data(), cfg.offsets->size() * sizeof(int),
                              cudaMemcpyHostToDevice, s));
  fill(keys_in.as<u32>(), n, 0x5eed0000u + std::uint64_t(n), 1, s);
  if (Pairs) BENCH_CHECK(fill_sequence(values_in.as<u32>(), n, s));

  // All three sorts' temporary storage, for the counters; this row's, allocated untimed.
  std::map<library, std::size_t> temp_of;
  for (library lib : {library::cub_segradix, library::cub_segsort, library::ringsweep}) {
    std::size_t bytes = 0;
    BENCH_CHECK(segmented_call<Pairs>(lib, nullptr, bytes, keys_in.as<u32>(), keys_out.as<u32>(),
                                      values_in.as<u32>(), values_out.as<u32>(), n, segments, offsets.as<int>(), s));
    temp_of[lib] = bytes;
  }
  std::size_t temp_bytes = temp_of[cfg.lib];
  device_buffer temp(temp_bytes);

  auto sort_once = [&] {
    return segmented_call<Pairs>(cfg.lib, temp.p, temp_bytes, keys_in.as<u32>(), keys_out.as<u32>(),
                                 values_in.as<u32>(), values_out.as<u32>(), n, segments, offsets.as<int>(), s);
  };

  // Warm-up and a check of its output.
  BENCH_CHECK(sort_once());
  BENCH_CHECK(cudaStreamSynchronize(s));
  const std::string wrong = check_segmented(keys_in.as<u32>(), keys_out.as<u32>(), Pairs ? values_out.as<u32>() : nullptr,
                                            n, offsets.as<int>(), segments, s);
  if (!wrong.empty()) {
    state.SkipWithError(("segmented output wrong: " + wrong).c_str());
    BENCH_CHECK(cudaStreamDestroy(s));
    return;
  }

  const double seconds = time_loop(state, s, sort_once);
  BENCH_CHECK(cudaStreamDestroy(s));

  int largest = 0;
  for (std::size_t i = 0; i < segments; ++i) largest = std::max(largest, (*cfg.offsets)[i + 1] - (*cfg.offsets)[i]);
  state.counters["n"] = double(n);
  state.counters["entropy"] = 1.0;
  state.counters["segments"] = double(segments);
  state.counters["largest_segment"] = double(largest);
  state.counters["keys_per_s"] = double(n) / seconds;
  state.counters["temp_bytes_ringsweep"] = double(temp_of[library::ringsweep]);
  state.counters["temp_bytes_cub_segradix"] = double(temp_of[library::cub_segradix]);
  state.counters["temp_bytes_cub_segsort"] = double(temp_of[library::cub_segsort]);
  record_ratios(state, cfg.key, cfg.lib, seconds, {library::cub_segradix, library::cub_segsort});
  state.SetLabel(name_of(cfg.lib));
}

// ---- argsort (issue #25) ------------------------------------------------------------------------------

/// Counts, for argsort's output, indices out of range, sorted keys that differ from keys_in[index]
/// (when `keys_out` is not null) and neighbours whose (key, index) do not ascend strictly: zero of
/// all three proves `indices` is the stable sorting permutation.
__global__ void check_argsort_kernel(const u32* keys_in, const u32* keys_out, const u32* indices, std::size_t n,
                                     unsigned long long* problems) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const u32 v = indices[i];
    if (v >= n) {
      ++local;
      continue;
    }
    const u32 k = keys_in[v];
    if (keys_out && keys_out[i] != k) ++local;
    if (i + 1 < n) {
      const u32 w = indices[i + 1];
      if (w < n && (keys_in[w] < k || (keys_in[w] == k && w <= v))) ++local;
    }
  }
  if (local) atomicAdd(problems, local);
}

/// The argsort under test: ringsweep::argsort, or CUB's way (0..n-1, then SortPairs); `keys_out`
/// null: ringsweep writes no sorted keys (CUB's way always writes `cub_keys_out`).
cudaError_t argsort_call(library lib, void* temp, std::size_t& temp_bytes, const u32* kin, u32* kout, u32* cub_keys_out,
                         u32* sequence, u32* indices, std::size_t n, cudaStream_t s) {
  if (lib == library::cub) {
    if (temp) {
      const cudaError_t e = fill_sequence(sequence, n, s);
      if (e != cudaSuccess) return e;
    }
    return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kin, cub_keys_out, sequence, indices, int(n), 0, 32, s);
  }
  if (kout) return ringsweep::argsort(temp, temp_bytes, kin, kout, indices, n, ringsweep::sort_options{}, s);
  return ringsweep::argsort(temp, temp_bytes, kin, nullptr, indices, n, ringsweep::sort_options{}, s);
}

template <bool KeysOut>
void bm_argsort(benchmark::State& state, config cfg) {
  const std::size_t n = cfg.n;
  const bool is_cub = cfg.lib == library::cub;
  cudaStream_t s = nullptr;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // CUB's way needs the sorted keys' buffer in every row and the 0..n-1 array; ringsweep neither
  // (the sorted keys only when asked for).
  device_buffer keys_in(n * sizeof(u32)), indices(n * sizeof(u32));
  device_buffer keys_out(KeysOut || is_cub ? n * sizeof(u32) : 0), sequence(is_cub ? n * sizeof(u32) : 0);
  fill(keys_in.as<u32>(), n, 0x5eed0000u + std::uint64_t(n), 1, s);
  u32* const rs_keys_out = KeysOut ? keys_out.as<u32>() : nullptr;

  std::size_t temp_rs = 0, temp_cub = 0;
  BENCH_CHECK(argsort_call(library::ringsweep, nullptr, temp_rs, keys_in.as<u32>(), rs_keys_out, keys_out.as<u32>(),
                           sequence.as<u32>(), indices.as<u32>(), n, s));
  BENCH_CHECK(argsort_call(library::cub, nullptr, temp_cub, keys_in.as<u32>(), rs_keys_out, keys_out.as<u32>(),
                           sequence.as<u32>(), indices.as<u32>(), n, s));
  std::size_t temp_bytes = is_cub ? temp_cub : temp_rs;
  device_buffer temp(temp_bytes);

  auto sort_once = [&] {
    return argsort_call(cfg.lib, temp.p, temp_bytes, keys_in.as<u32>(), rs_keys_out, keys_out.as<u32>(),
                        sequence.as<u32>(), indices.as<u32>(), n, s);
  };

  // Warm-up and a check of its output (the sorted keys too where the row asks for them).
  BENCH_CHECK(sort_once());
  BENCH_CHECK(cudaStreamSynchronize(s));
  {
    device_buffer problems(sizeof(unsigned long long));
    BENCH_CHECK(cudaMemsetAsync(problems.p, 0, sizeof(unsigned long long), s));
    BENCH_CHECK(launch(check_argsort_kernel, 1024, 256, s, serial, static_cast<const u32*>(keys_in.as<u32>()),
                       static_cast<const u32*>(KeysOut ? keys_out.as<u32>() : nullptr),
                       static_cast<const u32*>(indices.as<u32>()), n, problems.as<unsigned long long>()));
    unsigned long long h = 0;
    BENCH_CHECK(cudaMemcpyAsync(&h, problems.p, sizeof(h), cudaMemcpyDeviceToHost, s));
    BENCH_CHECK(cudaStreamSynchronize(s));
    if (h) {
      state.SkipWithError(("argsort output wrong at " + std::to_string(h) + " positions").c_str());
      BENCH_CHECK(cudaStreamDestroy(s));
      return;
    }
  }

  const double seconds = time_loop(state, s, sort_once);
  BENCH_CHECK(cudaStreamDestroy(s));

  state.counters["n"] = double(n);
  state.counters["entropy"] = 1.0;
  state.counters["keys_per_s"] = double(n) / seconds;
  state.counters["temp_bytes_ringsweep"] = double(temp_rs);
  state.counters["temp_bytes_cub"] = double(temp_cub);
  state.counters["aux_bytes_cub"] = double(n * sizeof(u32) * (KeysOut ? 1 : 2));
  record_ratios(state, cfg.key, cfg.lib, seconds, {library::cub});
  state.SetLabel(name_of(cfg.lib));
}

/// Seconds per sort of the last host_sync row of each n (see rs_over_host_sync).
std::map<std::size_t, double> g_host_sync_seconds;

/// Device-count rows: `max_factor` 0 is the host-synchronising pattern, 1 or 2 a device_count
/// with max_n = max_factor x n.
void bm_device_count(benchmark::State& state, std::size_t n, int max_factor) {
  cudaStream_t s = nullptr;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const std::size_t cap = max_factor == 0 ? n : n * std::size_t(max_factor);
  device_buffer keys_in(cap * sizeof(u32)), keys_out(cap * sizeof(u32)), d_n(sizeof(long long));
  long long* h_n = nullptr;
  BENCH_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_n), sizeof(long long)));
  fill(keys_in.as<u32>(), cap, 0x5eed0000u + std::uint64_t(n), 1, s);
  const long long count = (long long)n;
  BENCH_CHECK(cudaMemcpyAsync(d_n.p, &count, sizeof(count), cudaMemcpyHostToDevice, s));
  const ringsweep::device_count<long long> dn{d_n.as<long long>(), cap};
  std::size_t temp_bytes = 0;
  if (max_factor == 0) {
    BENCH_CHECK(ringsweep::sort_keys(nullptr, temp_bytes, keys_in.as<u32>(), keys_out.as<u32>(), n));
  } else {
    BENCH_CHECK(ringsweep::sort_keys(nullptr, temp_bytes, keys_in.as<u32>(), keys_out.as<u32>(), dn));
  }
  device_buffer temp(temp_bytes);
  auto sort_once = [&]() -> cudaError_t {
    if (max_factor != 0) {
      return ringsweep::sort_keys(temp.p, temp_bytes, keys_in.as<u32>(), keys_out.as<u32>(), dn, {}, s);
    }
    cudaError_t e = cudaMemcpyAsync(h_n, d_n.p, sizeof(long long), cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) return e;
    return ringsweep::sort_keys(temp.p, temp_bytes, keys_in.as<u32>(), keys_out.as<u32>(), std::size_t(*h_n), {}, s);
  };
  BENCH_CHECK(sort_once());
  BENCH_CHECK(cudaStreamSynchronize(s));
  const unsigned long long bad = count_inversions(keys_out.as<u32>(), n, s);
  if (bad != 0) {
    state.SkipWithError(("device_count output has " + std::to_string(bad) + " inversions").c_str());
  } else {
    const double seconds = time_loop(state, s, sort_once);
    state.counters["n"] = double(n);
    state.counters["keys_per_s"] = double(n) / seconds;
    state.counters["temp_bytes_ringsweep"] = double(temp_bytes);
    if (max_factor == 0) {
      g_host_sync_seconds[n] = seconds;
    } else if (g_host_sync_seconds.count(n) != 0) {
      state.counters["rs_over_host_sync"] = g_host_sync_seconds[n] / seconds;
    }
  }
  BENCH_CHECK(cudaFreeHost(h_n));
  BENCH_CHECK(cudaStreamDestroy(s));
}

// ---- registration -------------------------------------------------------------------------------------

std::size_t g_free_bytes = 0;

template <class Key, class Value, bool Pairs>
void register_type() {
  const char* mode = Pairs ? "pairs" : "keys";
  for (double entropy : {1.0, 0.544, 0.201}) {
    for (int lg = g_settings.min_log2; lg <= g_settings.max_log2; ++lg) {
      const std::size_t n = std::size_t(1) << lg;
      // in + out + the in/out form's scratch copy, keys and values, plus look-back tables, the L2
      // flush buffer and slack.
      const std::size_t per_key = sizeof(Key) + (Pairs ? sizeof(Value) : 0);
      const std::size_t need = 3 * n * per_key + (std::size_t(256) << 20);
      if (need > g_free_bytes / 10 * 9) {
        std::fprintf(stderr, "ringsweep_sort_bench: skipping %s/%s n=2^%d: needs ~%.1f GiB, %.1f GiB free\n", mode,
                     type_name<Key>(), lg, need / 1073741824.0, g_free_bytes / 1073741824.0);
        continue;
      }
      char key[128];
      std::snprintf(key, sizeof(key), "%s/%s/entropy:%.3f/n:%zu", mode, type_name<Key>(), entropy, n);
      for (library lib : {library::cub, library::ringsweep}) {
        const config cfg{n, entropy, lib, key, 0};
        const std::string name = std::string(key) + "/" + name_of(lib);
        benchmark::RegisterBenchmark(name.c_str(), [cfg](benchmark::State& st) { bm_sort<Key, Value, Pairs>(st, cfg); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

/// The 'narrow' rows: keys-only sorts of uniform `Key`s below 2^below_bits, n = 2^20..2^28.
template <class Key>
void register_narrow(int below_bits) {
  for (int lg = std::max(20, g_settings.min_log2); lg <= std::min(28, g_settings.max_log2); ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    const std::size_t need = 3 * n * sizeof(Key) + (std::size_t(256) << 20);
    if (need > g_free_bytes / 10 * 9) {
      std::fprintf(stderr, "ringsweep_sort_bench: skipping narrow/%s n=2^%d: needs ~%.1f GiB, %.1f GiB free\n",
                   type_name<Key>(), lg, need / 1073741824.0, g_free_bytes / 1073741824.0);
      continue;
    }
    char key[128];
    std::snprintf(key, sizeof(key), "narrow/%s/below:2^%d/n:%zu", type_name<Key>(), below_bits, n);
    for (library lib : {library::cub, library::ringsweep}) {
      const config cfg{n, 1.0, lib, key, below_bits};
      const std::string name = std::string(key) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(), [cfg](benchmark::State& st) { bm_sort<Key, u32, false>(st, cfg); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

/// The 'sorted' rows: already ascending `Key`s (keys only, or with u32 values), n = 2^16..2^28.
template <class Key, bool Pairs>
void register_sorted() {
  for (int lg = g_settings.min_log2; lg <= std::min(28, g_settings.max_log2); ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    const std::size_t per_key = sizeof(Key) + (Pairs ? sizeof(u32) : 0);
    const std::size_t need = 3 * n * per_key + (std::size_t(256) << 20);
    if (need > g_free_bytes / 10 * 9) continue;
    char key[128];
    std::snprintf(key, sizeof(key), "sorted/%s/%s/n:%zu", type_name<Key>(), Pairs ? "pairs" : "keys", n);
    for (library lib : {library::cub, library::ringsweep}) {
      config cfg{n, 1.0, lib, key, 0};
      cfg.sorted = true;
      const std::string name = std::string(key) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(), [cfg](benchmark::State& st) { bm_sort<Key, u32, Pairs>(st, cfg); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

/// The segmented rows (issue #25): 2^24 u32 keys, keys only or with u32 values, in 1, 2^6, 2^12 and
/// 2^18 equal segments and in power-law sizes; CUB's two segmented sorts, then ringsweep's.
template <bool Pairs>
void register_segmented() {
  constexpr int lg = 24;
  if (lg < g_settings.min_log2 || lg > g_settings.max_log2) return;
  const std::size_t n = std::size_t(1) << lg;
  const std::size_t need = 3 * n * (sizeof(u32) + (Pairs ? sizeof(u32) : 0)) + (std::size_t(256) << 20);
  if (need > g_free_bytes / 10 * 9) {
    std::fprintf(stderr, "ringsweep_sort_bench: skipping segmented/u32/%s: needs ~%.1f GiB, %.1f GiB free\n",
                 Pairs ? "pairs" : "keys", need / 1073741824.0, g_free_bytes / 1073741824.0);
    return;
  }
  // 1, 64, 4096, 16384 (1024 keys each), 2^18 (64 keys), 2^20 (16 keys) equal segments, power law.
  const segment_layout layouts[] = {{1, false},      {64, false},      {4096, false}, {16384, false},
                                    {262144, false}, {1048576, false}, {0, true}};
  for (const segment_layout& layout : layouts) {
    const auto offsets = std::make_shared<const std::vector<int>>(make_offsets(n, layout));
    char key[128];
    if (layout.powerlaw) {
      std::snprintf(key, sizeof(key), "segmented/u32/%s/segments:powerlaw/n:%zu", Pairs ? "pairs" : "keys", n);
    } else {
      std::snprintf(key, sizeof(key), "segmented/u32/%s/segments:%zu/n:%zu", Pairs ? "pairs" : "keys", layout.count,
                    n);
    }
    for (library lib : {library::cub_segradix, library::cub_segsort, library::ringsweep}) {
      const segmented_config cfg{key, lib, n, offsets};
      const std::string name = std::string(key) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(), [cfg](benchmark::State& st) { bm_segmented<Pairs>(st, cfg); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

/// The argsort rows (issue #25): u32 keys to u32 indices, with and without the sorted keys,
/// n = 2^16..2^28.
template <bool KeysOut>
void register_argsort() {
  for (int lg = g_settings.min_log2; lg <= std::min(28, g_settings.max_log2); ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    // CUB's way, the larger: keys in and out, 0..n-1, indices, and its temporary storage's copy of
    // keys and indices; plus the L2 flush buffer and slack.
    const std::size_t need = 6 * n * sizeof(u32) + (std::size_t(256) << 20);
    if (need > g_free_bytes / 10 * 9) {
      std::fprintf(stderr, "ringsweep_sort_bench: skipping argsort n=2^%d: needs ~%.1f GiB, %.1f GiB free\n", lg,
                   need / 1073741824.0, g_free_bytes / 1073741824.0);
      continue;
    }
    char key[128];
    std::snprintf(key, sizeof(key), "argsort/u32/%s/n:%zu", KeysOut ? "keys_out" : "no_keys_out", n);
    for (library lib : {library::cub, library::ringsweep}) {
      const config cfg{n, 1.0, lib, key, 0};
      const std::string name = std::string(key) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(), [cfg](benchmark::State& st) { bm_argsort<KeysOut>(st, cfg); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

/// The device-count rows (issue #36): u32 keys, n = 2^16..2^28, the host-synchronising pattern
/// first, then device counts bounded by n and by 2n.
void register_device_count() {
  for (int lg = g_settings.min_log2; lg <= std::min(28, g_settings.max_log2); ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    // Keys in and out of 2n, the scratch of 2n, the L2 flush buffer and slack.
    const std::size_t need = 6 * n * sizeof(u32) + (std::size_t(256) << 20);
    if (need > g_free_bytes / 10 * 9) {
      std::fprintf(stderr, "ringsweep_sort_bench: skipping device_count n=2^%d: needs ~%.1f GiB, %.1f GiB free\n", lg,
                   need / 1073741824.0, g_free_bytes / 1073741824.0);
      continue;
    }
    for (int factor : {0, 1, 2}) {
      char name[128];
      std::snprintf(name, sizeof(name), "device_count/u32/n:%zu/%s", n,
                    factor == 0 ? "host_sync" : factor == 1 ? "max_n:n" : "max_n:2n");
      benchmark::RegisterBenchmark(name, [n, factor](benchmark::State& st) { bm_device_count(st, n, factor); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

/// Removes and applies our own --rs_* flags; the rest goes to Google Benchmark.
void parse_own_flags(int& argc, char** argv) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--rs_min_log2=", 14) == 0) {
      g_settings.min_log2 = std::atoi(a + 14);
    } else if (std::strncmp(a, "--rs_max_log2=", 14) == 0) {
      g_settings.max_log2 = std::atoi(a + 14);
    } else if (std::strcmp(a, "--rs_no_l2_flush") == 0) {
      g_settings.l2_flush = false;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  // CUB runs with `int` num_items.
  if (g_settings.max_log2 > 30) g_settings.max_log2 = 30;
}

}  // namespace

int main(int argc, char** argv) {
  parse_own_flags(argc, argv);
  benchmark::Initialize(&argc, argv);

  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("ringsweep_sort_bench: no CUDA device available (%s); nothing to benchmark.\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 0;
  }
  std::size_t total = 0;
  BENCH_CHECK(cudaMemGetInfo(&g_free_bytes, &total));
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  benchmark::AddCustomContext("device", prop.name);
  benchmark::AddCustomContext("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext("cccl_version", std::to_string(CCCL_VERSION));
  benchmark::AddCustomContext("l2_flush", g_settings.l2_flush ? "yes" : "no");

  register_type<u32, u32, false>();
  register_type<std::int32_t, u32, false>();
  register_type<float, u32, false>();
  register_type<u64, u32, false>();
  register_type<u32x2, u32, false>();
  register_type<u32, u32, true>();
  register_type<std::int32_t, u32, true>();
  register_type<float, u32, true>();
  register_type<u64, u32, true>();
  register_type<u32x2, u32, true>();
  register_narrow<u32>(16);
  register_narrow<u32>(24);
  register_narrow<u64>(32);
  register_sorted<u32, false>();
  register_sorted<u64, false>();
  register_sorted<u32, true>();
  register_segmented<false>();
  register_segmented<true>();
  register_argsort<true>();
  register_argsort<false>();
  register_device_count();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
