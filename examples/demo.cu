// ringsweep demo: sorts random keys of every mission type (u32, i32, f32, u64 keys and u32/u32
// pairs), checks each result against std::sort / std::stable_sort on the host and prints one table.
//
// The same source builds for a GPU (nvcc: ringsweep_demo_gpu, which also times
// cub::DeviceRadixSort on the same data) and for the CPU SIMT backend (host compiler:
// ringsweep_demo), where times only show that the sort ran, not how fast it is on a GPU.
// scripts/demo.sh picks the one that can run here.
//
//     ringsweep_demo [--log2 N] [--reps R]
//
// --log2: n = 2^N keys per case (default 24 on a GPU, 22 on the SIMT backend: there, with 2
// worker threads on 2 busy cores, the u64 case took 47 to 97 s at 2^24, about 12 s at 2^22);
// --reps: timed sorts per case on a GPU after one warm-up (default 10; the SIMT backend times
// one sort).
// Progress lines go to stderr, the table to stdout. Exit status 0 when every result is right,
// 1 on a wrong result, 2 on a CUDA error or a bad argument, 77 when no CUDA device is present.

#include <ringsweep/ringsweep.cuh>
#include <ringsweep/version.hpp>

#include <cuda_runtime.h>

#if !defined(RINGSWEEP_SIMT_BACKEND)
#include <cub/device/device_radix_sort.cuh>
#define DEMO_HAS_CUB 1
#else
#define DEMO_HAS_CUB 0
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

#define DEMO_CHECK(...)                                                                              \
  do {                                                                                               \
    const cudaError_t demo_status_ = (__VA_ARGS__);                                                  \
    if (demo_status_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "demo: %s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(demo_status_)); \
      std::exit(2);                                                                                  \
    }                                                                                                \
  } while (false)

/// `n` elements of T in device memory, freed on scope exit.
template <class T>
class device_array {
 public:
  explicit device_array(std::size_t n) : n_(n) { DEMO_CHECK(cudaMalloc(&data_, std::max<std::size_t>(n, 1) * sizeof(T))); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { cudaFree(data_); }
  T* get() const { return data_; }
  void upload(const std::vector<T>& h) { DEMO_CHECK(cudaMemcpy(data_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> download() const {
    std::vector<T> h(n_);
    DEMO_CHECK(cudaMemcpy(h.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

/// Measures a stream's work between two events (on the SIMT backend events read the host clock,
/// and every launch has finished before it returns).
class stopwatch {
 public:
  stopwatch() {
    DEMO_CHECK(cudaEventCreate(&start_));
    DEMO_CHECK(cudaEventCreate(&stop_));
  }
  ~stopwatch() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { DEMO_CHECK(cudaEventRecord(start_)); }
  double stop_ms() {
    DEMO_CHECK(cudaEventRecord(stop_));
    DEMO_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    DEMO_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

// ---- input data ---------------------------------------------------------------------------------

template <class Key>
std::vector<Key> random_keys(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    if constexpr (std::is_same<Key, float>::value) {
      // Every finite float: random sign, exponent and mantissa (an all-ones exponent, inf or NaN,
      // loses its top bit); a sprinkling of -0.0 and +0.0, which must keep their input order.
      std::uint32_t b = std::uint32_t(r);
      if (((b >> 23) & 0xffu) == 0xffu) b &= ~(1u << 30);
      if (i % 997 == 0) b = (r >> 32) & 1u ? 0x80000000u : 0u;
      std::memcpy(&keys[i], &b, sizeof b);
    } else {
      keys[i] = Key(r);
    }
  }
  return keys;
}

/// Keys are equal when their bits are: a sorted -0.0 and +0.0 must stay in input order.
template <class Key>
bool same_bits(const std::vector<Key>& a, const std::vector<Key>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Key)) == 0;
}

/// The host's answer for a keys-only sort. std::stable_sort for floats, whose -0.0 and +0.0
/// compare equal but differ in bits; for integers std::sort gives the same bits.
template <class Key>
std::vector<Key> host_sorted(std::vector<Key> keys) {
  if constexpr (std::is_floating_point<Key>::value) {
    std::stable_sort(keys.begin(), keys.end());
  } else {
    std::sort(keys.begin(), keys.end());
  }
  return keys;
}

// ---- one case -----------------------------------------------------------------------------------

struct result {
  std::string type;
  std::size_t n = 0;
  double ms = 0;                // one ringsweep sort (mean over the timed repetitions on a GPU)
  std::size_t temp_in_out = 0;  // temporary storage of the in/out form that was timed
  std::size_t temp_double = 0;  // temporary storage of the double-buffer form (constant in n)
  double cub_ms = 0;            // one CUB sort, 0 when CUB did not run
  bool ok = false;
};

struct settings {
  std::size_t n = 0;
  int reps = 0;  // timed sorts after a warm-up; 0: one sort, the timed one (SIMT)
  bool cub = false;
};

/// Runs `sort()` once as a warm-up and `reps` more times, and returns the mean time of one
/// run; with `reps == 0` the one run is the timed one.
template <class Sort>
double time_sort(const settings& s, Sort&& sort) {
  stopwatch watch;
  if (s.reps == 0) {
    watch.start();
    DEMO_CHECK(sort());
    return watch.stop_ms();
  }
  DEMO_CHECK(sort());
  DEMO_CHECK(cudaDeviceSynchronize());
  watch.start();
  for (int r = 0; r < s.reps; ++r) DEMO_CHECK(sort());
  return watch.stop_ms() / s.reps;
}

/// Keys only: `Key` in, sorted `Key` out (the in/out form), checked against the host.
template <class Key>
result run_keys(const char* type, const settings& s, std::uint64_t seed) {
  result res;
  res.type = type;
  res.n = s.n;
  const std::vector<Key> keys = random_keys<Key>(s.n, seed);
  device_array<Key> in(s.n), out(s.n);
  in.upload(keys);

  DEMO_CHECK(ringsweep::sort_keys<Key>(nullptr, res.temp_in_out, in.get(), out.get(), s.n));
  ringsweep::double_buffer<Key> db(in.get(), out.get());
  DEMO_CHECK(ringsweep::sort_keys(nullptr, res.temp_double, db, s.n));
  device_array<unsigned char> temp(res.temp_in_out);
  std::size_t bytes = res.temp_in_out;
  res.ms = time_sort(s, [&] { return ringsweep::sort_keys<Key>(temp.get(), bytes, in.get(), out.get(), s.n); });
  DEMO_CHECK(cudaDeviceSynchronize());
  res.ok = same_bits(out.download(), host_sorted(keys)) && same_bits(in.download(), keys);

#if DEMO_HAS_CUB
  if (s.cub) {
    std::size_t cub_bytes = 0;
    const int items = int(s.n);
    DEMO_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.get(), out.get(), items));
    device_array<unsigned char> cub_temp(cub_bytes);
    res.cub_ms = time_sort(s, [&] {
      return cub::DeviceRadixSort::SortKeys(cub_temp.get(), cub_bytes, in.get(), out.get(), items);
    });
  }
#endif
  return res;
}

/// (u32 key, u32 value) pairs, the value being the input position: the result must be the stable
/// order, so values are checked exactly.
result run_pairs(const char* type, const settings& s, std::uint64_t seed) {
  using u32 = std::uint32_t;
  result res;
  res.type = type;
  res.n = s.n;
  const std::vector<u32> keys = random_keys<u32>(s.n, seed);
  std::vector<u32> values(s.n);
  for (std::size_t i = 0; i < s.n; ++i) values[i] = u32(i);
  device_array<u32> kin(s.n), kout(s.n), vin(s.n), vout(s.n);
  kin.upload(keys);
  vin.upload(values);

  DEMO_CHECK(ringsweep::sort_pairs<u32, u32>(nullptr, res.temp_in_out, kin.get(), kout.get(), vin.get(), vout.get(), s.n));
  ringsweep::double_buffer<u32> dk(kin.get(), kout.get()), dv(vin.get(), vout.get());
  DEMO_CHECK(ringsweep::sort_pairs(nullptr, res.temp_double, dk, dv, s.n));
  device_array<unsigned char> temp(res.temp_in_out);
  std::size_t bytes = res.temp_in_out;
  res.ms = time_sort(s, [&] {
    return ringsweep::sort_pairs<u32, u32>(temp.get(), bytes, kin.get(), kout.get(), vin.get(), vout.get(), s.n);
  });
  DEMO_CHECK(cudaDeviceSynchronize());

  std::vector<u32> order(values);
  std::stable_sort(order.begin(), order.end(), [&](u32 a, u32 b) { return keys[a] < keys[b]; });
  std::vector<u32> want_keys(s.n);
  for (std::size_t i = 0; i < s.n; ++i) want_keys[i] = keys[order[i]];
  res.ok = kout.download() == want_keys && vout.download() == order && kin.download() == keys &&
           vin.download() == values;

#if DEMO_HAS_CUB
  if (s.cub) {
    std::size_t cub_bytes = 0;
    const int items = int(s.n);
    DEMO_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kin.get(), kout.get(), vin.get(), vout.get(), items));
    device_array<unsigned char> cub_temp(cub_bytes);
    res.cub_ms = time_sort(s, [&] {
      return cub::DeviceRadixSort::SortPairs(cub_temp.get(), cub_bytes, kin.get(), kout.get(), vin.get(), vout.get(),
                                             items);
    });
  }
#endif
  return res;
}

// ---- output -------------------------------------------------------------------------------------

std::string mib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu (%.2f MiB)", bytes, double(bytes) / (1 << 20));
  return buf;
}

std::string rate(double keys_per_s) {
  char buf[32];
  if (keys_per_s >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f G", keys_per_s / 1e9);
  } else if (keys_per_s >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f M", keys_per_s / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f k", keys_per_s / 1e3);
  }
  return buf;
}

void print_table(const std::vector<result>& rows, bool cub) {
  std::printf("\n%-13s %10s %11s %9s  %-24s %-22s %-6s", "type", "n", "time ms", "keys/s", "temp bytes, in/out form",
              "temp bytes, dbl buffer", "result");
  if (cub) std::printf(" %11s %8s", "CUB ms", "vs CUB");
  std::printf("\n");
  for (const result& r : rows) {
    std::printf("%-13s %10zu %11.3f %9s  %-24s %-22s %-6s", r.type.c_str(), r.n, r.ms, rate(r.n / (r.ms * 1e-3)).c_str(),
                mib(r.temp_in_out).c_str(), mib(r.temp_double).c_str(), r.ok ? "OK" : "WRONG");
    if (cub) std::printf(" %11.3f %7.2fx", r.cub_ms, r.cub_ms / r.ms);
    std::printf("\n");
  }
  if (cub) std::printf("vs CUB: CUB's time over ringsweep's (above 1: ringsweep is faster)\n");
}

int parse_int(const char* flag, const char* text, int lo, int hi) {
  char* end = nullptr;
  const long v = text == nullptr ? 0 : std::strtol(text, &end, 10);
  if (text == nullptr || end == text || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "demo: %s takes an integer in [%d, %d]\n", flag, lo, hi);
    std::exit(2);
  }
  return int(v);
}

}  // namespace

int main(int argc, char** argv) {
#if defined(RINGSWEEP_SIMT_BACKEND)
  int log2_n = 22;
#else
  int log2_n = 24;
#endif
  int reps = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--log2") {
      log2_n = parse_int("--log2", i + 1 < argc ? argv[++i] : nullptr, 0, 30);
    } else if (arg == "--reps") {
      reps = parse_int("--reps", i + 1 < argc ? argv[++i] : nullptr, 1, 1000);
    } else {
      std::fprintf(stderr, "usage: %s [--log2 N] [--reps R]\n", argv[0]);
      return 2;
    }
  }

  std::printf("ringsweep %s demo\n", RINGSWEEP_VERSION_STRING);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device is usable here: skipped (scripts/demo.sh runs the SIMT-backend demo then)\n");
    return 77;
  }
  cudaDeviceProp prop{};
  DEMO_CHECK(cudaGetDeviceProperties(&prop, 0));
  settings s;
  s.n = std::size_t(1) << log2_n;
#if defined(RINGSWEEP_SIMT_BACKEND)
  s.reps = 0;  // one sort per case: the launches run on the CPU, --reps has no use here
  s.cub = false;
  (void)reps;
  std::printf("backend: SIMT backend on CPU — correctness demo, not a speed figure (%s)\n", prop.name);
  std::printf("n = 2^%d per case%s; one sort each\n", log2_n,
              log2_n == 22 ? " (2^24 takes over a minute per case here; --log2 24 runs it)" : "");
#else
  s.reps = reps;
  s.cub = true;
  std::printf("backend: GPU 0: %s (sm_%d%d, %d SMs); mean of %d sorts after a warm-up, in/out form\n", prop.name,
              prop.major, prop.minor, prop.multiProcessorCount, reps);
#endif
  std::fflush(stdout);

  struct demo_case {
    const char* type;
    result (*run)(const char*, const settings&, std::uint64_t);
  };
  const demo_case cases[] = {
      {"u32 keys", run_keys<std::uint32_t>}, {"i32 keys", run_keys<std::int32_t>}, {"f32 keys", run_keys<float>},
      {"u64 keys", run_keys<std::uint64_t>}, {"u32/u32 pairs", run_pairs},
  };
  const int count = int(sizeof cases / sizeof cases[0]);
  std::vector<result> rows;
  bool all_ok = true;
  for (int c = 0; c < count; ++c) {
    std::fflush(stdout);
    std::fprintf(stderr, "[%d/%d] %s, n = %zu ...\n", c + 1, count, cases[c].type, s.n);
    const auto t0 = std::chrono::steady_clock::now();
    rows.push_back(cases[c].run(cases[c].type, s, 0x5eed0000u + std::uint64_t(c)));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "[%d/%d] %s: %s (%.1f s with data generation and the host check)\n", c + 1, count,
                 cases[c].type, rows.back().ok ? "OK" : "WRONG RESULT", wall);
    all_ok = all_ok && rows.back().ok;
  }
  print_table(rows, s.cub);
  std::printf("%s\n", all_ok ? "all results match the host sort" : "WRONG RESULT: see the table");
  return all_ok ? 0 : 1;
}
