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
//
// Timing: CUDA events around the sort call only (UseManualTime); inputs are generated, temporary
// storage allocated and one warm-up sort run (and its output checked) before the timed loop; the
// L2 cache is flushed before every timed sort unless --rs_no_l2_flush.
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
//
// Without a CUDA device it prints one line and exits 0.

#include <benchmark/benchmark.h>

#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>
#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
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

enum class library { cub, ringsweep };

/// A custom key of two 32-bit fields, hi the more significant, and its decomposer.
struct u32x2 {
  u32 hi, lo;
};
struct u32x2_decomposer {
  __host__ __device__ cuda::std::tuple<u32&, u32&> operator()(u32x2& k) const { return {k.hi, k.lo}; }
};

const char* name_of(library l) { return l == library::cub ? "cub" : "ringsweep"; }

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

  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  double total_s = 0;
  for (auto _ : state) {
    g_flusher.flush(s);
    BENCH_CHECK(cudaEventRecord(start, s));
    const cudaError_t e = sort_once();
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
  BENCH_CHECK(cudaStreamDestroy(s));

  const double iters = double(state.iterations());
  const double seconds = total_s / iters;
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

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
