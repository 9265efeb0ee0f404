// ringsweep::host_sort_keys / host_sort_pairs (issue #26): host arrays sorted through a device budget
// smaller than the data, against the bus limit and against std::sort on the host's cores.
//
//     ringsweep_host_sort_bench [--rs_min_log2=26] [--rs_max_log2=30] [--rs_budget_div=8] [--rs_threads=T]
//                               [--rs_mem_fraction=0.7] [--rs_bw_mib=256] [benchmark flags]
//     ringsweep_host_sort_bench --rs_min_log2=28 --rs_max_log2=28 --benchmark_out=host.json
//     python3 bench/plot.py host.json --summary-only --out summary/
//
// Rows  host/<u32|u64>/<keys|pairs>/n:<n>/<memory>/<budget>/<sort>  for u32 and u64 keys and u32 keys
// with u32 values (the input positions), random keys (entropy 1.000, bench/common/keygen.cuh, seed
// as sort_bench's), n = 2^26..2^30, registered in this order for each (type, n):
//   pageable/cpu/std_sort            std::sort on one thread (pairs: an array of {key, value}
//                                    structs by key, not stable); 1 iteration, 1 repetition
//   pageable/cpu/std_sort_threads    std::sort of T runs on T threads (T = --rs_threads, default
//                                    every hardware thread), then rounds of std::merge, each merge cut
//                                    by merge path over all T threads (bench/host_sort_cpu.cpp)
//   pageable/cpu/std_sort_par        std::sort(std::execution::par): registered only where the
//                                    toolchain has a parallel backend (libstdc++ with TBB; without
//                                    one, par runs on one thread and the row would mislead)
//   pageable/budget:1_8/ringsweep    sort_*_host on malloc'ed arrays, host_sort_config::device_bytes
//                                    = data bytes / 8 (--rs_budget_div): the streamed path
//   pinned/budget:1_8/ringsweep      the same on cudaMallocHost arrays
//   pinned/budget:1_8/ringsweep_alloc  the same without h_scratch: the call allocates (and pins)
//                                    its n-key scratch itself, as a caller who passes none pays
//   pinned/budget:all/ringsweep      device_bytes = 0 (80% of the free device memory): the data fits,
//                                    one copy in, one sort, one copy out (for reference)
// The ringsweep rows other than _alloc pass a page-locked scratch of n keys (+ n values) allocated
// once per (type, n), as host_sort_config::h_scratch; the std_sort_threads rows merge through it.
//
// The bus limit. host_sort.cuh: data whose double buffer fits the budget crosses the bus twice
// (in, out); larger data 4 times for one partition level: the partition round copies every key in
// and its partitioned chunk out to the scratch, the group round copies each group of buckets in
// and its sorted keys back out, i.e. 2 x item bytes each way (item = key bytes + value bytes). The
// final move from the scratch into the caller's arrays is a host copy. A bucket larger than a
// chunk would cost 2 more crossings per level; with these random keys and a budget of 1/8 of the
// data a chunk holds ~n/32 keys and a top-digit bucket ~n/256, so one level is what runs (the
// rows' `streamed` counter says which path ran, from the progress callback of the checked run).
// At start-up the program measures, on pinned memory, cudaMemcpy H2D and D2H (--rs_bw_mib MiB,
// best of 5) and both directions at once (two streams), and pageable H2D and D2H for context.
//
// Timing: the host clock around the sort_*_host call (or the host sort) alone (UseManualTime); the
// input is restored from the reference copy before every call, untimed. Each row's first run
// (ringsweep rows: an extra untimed run before the timed loop; host rows: the first timed run) is
// checked once: keys ascend (pairs: by key), the key multiset is the reference's (two 64-bit
// hash sums), and for pairs each value is an input position whose key is the one beside it, the
// values' multiset is 0..n-1's, and (ringsweep rows) values ascend among equal keys: the stable
// sorting permutation. A wrong output skips the row with the reason.
//
// Host memory: a size is registered only if 4 x n x item bytes (input, reference copy, the pinned
// scratch, and the scratch the _alloc row's call allocates) stay within --rs_mem_fraction (0.7) of
// MemTotal (/proc/meminfo), so nothing swaps; skipped sizes are named on stderr.
//
// Counters (all rows): n, keys_per_s (n / time), item_bytes. ringsweep rows also:
//   device_bytes      the budget passed (0: the default, 80% of the free device memory)
//   streamed          1: the streamed path ran (progress reported below 1.0), 0: the fitting path
//   bus_B_per_key     bytes per key crossing the bus: 4 x item streamed, 2 x item fitting
//   bus_limit_s       the time those bytes need at the measured pinned bandwidths, one direction
//                     after the other: (half of them) / H2D + (half) / D2H
//   of_bus_limit      bus_limit_s / time: the fraction of the bus limit reached (1.0: at the limit)
//   of_duplex_limit   the same against both directions at once (bytes / the measured duplex rate)
//   h2d_GBps, d2h_GBps, duplex_GBps   the measured pinned bandwidths
//   rs_over_std_sort, rs_over_std_sort_threads, rs_over_std_sort_par   host sort time / this time,
//                     when that row ran before in this process (> 1: ringsweep faster)
// Host rows: threads (1 for std_sort).
//
// Without a CUDA device it prints one line and exits 0.

#include <benchmark/benchmark.h>

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "common/keygen.cuh"
#include "host_sort_cpu.h"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using bench_cpu::kv32;

struct settings {
  int min_log2 = 26;
  int max_log2 = 30;
  int budget_div = 8;
  int threads = 0;  // 0: std::thread::hardware_concurrency()
  double mem_fraction = 0.7;
  std::size_t bw_bytes = std::size_t(256) << 20;
};
settings g_settings;

#define BENCH_CHECK(call)                                                                                \
  do {                                                                                                   \
    const cudaError_t bench_e_ = (call);                                                                 \
    if (bench_e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(bench_e_)); \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// f(begin, end) over [0, n) cut into one range per thread, all at once.
template <class F>
void parallel_for(std::size_t n, F&& f) {
  const std::size_t t = std::size_t(std::max(1, g_settings.threads));
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < t; ++i) helpers.emplace_back([&, i] { f(n / t * i, i + 1 == t ? n : n / t * (i + 1)); });
  f(0, t == 1 ? n : n / t);
  for (std::thread& h : helpers) h.join();
}

/// Host memory: page-locked (cudaMallocHost) or pageable (malloc).
struct host_block {
  char* p = nullptr;
  std::size_t bytes = 0;
  bool pinned = false;
  void reset() {
    if (p != nullptr) {
      if (pinned) {
        cudaFreeHost(p);
      } else {
        std::free(p);
      }
    }
    p = nullptr;
    bytes = 0;
  }
  void allocate(std::size_t b, bool pin) {
    reset();
    if (pin) {
      BENCH_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p), b));
    } else {
      p = static_cast<char*>(std::malloc(b));
      if (p == nullptr) {
        std::fprintf(stderr, "ringsweep_host_sort_bench: malloc(%zu) failed\n", b);
        std::exit(1);
      }
    }
    bytes = b;
    pinned = pin;
  }
};

// ---- the bus: measured pinned (and pageable) cudaMemcpy bandwidth ----------------------------------

struct bus_rates {
  double h2d = 0, d2h = 0, duplex = 0;   // pinned, bytes/s
  double h2d_pageable = 0, d2h_pageable = 0;
};
bus_rates g_bus;

void measure_bus() {
  const std::size_t b = g_settings.bw_bytes;
  host_block pinned, pageable;
  pinned.allocate(2 * b, true);
  pageable.allocate(b, false);
  std::memset(pinned.p, 1, 2 * b);
  std::memset(pageable.p, 1, b);
  void* dev = nullptr;
  BENCH_CHECK(cudaMalloc(&dev, 2 * b));
  char* d = static_cast<char*>(dev);
  cudaStream_t s[2];
  for (cudaStream_t& x : s) BENCH_CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  // Bytes per second of the best of 5 runs of `copy` (after one untimed) that moves `bytes`.
  const auto rate = [](std::size_t bytes, auto&& copy) {
    copy();
    double best = std::numeric_limits<double>::max();
    for (int r = 0; r < 5; ++r) {
      const double t0 = now_s();
      copy();
      best = std::min(best, now_s() - t0);
    }
    return double(bytes) / best;
  };
  g_bus.h2d = rate(b, [&] { BENCH_CHECK(cudaMemcpy(d, pinned.p, b, cudaMemcpyHostToDevice)); });
  g_bus.d2h = rate(b, [&] { BENCH_CHECK(cudaMemcpy(pinned.p, d, b, cudaMemcpyDeviceToHost)); });
  g_bus.duplex = rate(2 * b, [&] {
    BENCH_CHECK(cudaMemcpyAsync(d, pinned.p, b, cudaMemcpyHostToDevice, s[0]));
    BENCH_CHECK(cudaMemcpyAsync(pinned.p + b, d + b, b, cudaMemcpyDeviceToHost, s[1]));
    BENCH_CHECK(cudaStreamSynchronize(s[0]));
    BENCH_CHECK(cudaStreamSynchronize(s[1]));
  });
  g_bus.h2d_pageable = rate(b, [&] { BENCH_CHECK(cudaMemcpy(d, pageable.p, b, cudaMemcpyHostToDevice)); });
  g_bus.d2h_pageable = rate(b, [&] { BENCH_CHECK(cudaMemcpy(pageable.p, d, b, cudaMemcpyDeviceToHost)); });
  for (cudaStream_t x : s) BENCH_CHECK(cudaStreamDestroy(x));
  BENCH_CHECK(cudaFree(dev));
  pinned.reset();
  pageable.reset();
}

// ---- the data of one (type, n): reference, input buffer, scratch --------------------------------------

/// Keys (and u32 values) of the rows; `item` bytes per key. Layout of every block: n keys, then n
/// values (host_sort.cuh's scratch layout: sizeof(Key) is a multiple of alignof(u32)).
struct dataset {
  std::string id;
  std::size_t n = 0, bytes = 0;
  host_block ref, data, scratch;
  u64 key_hash[2] = {0, 0};  // the reference keys' multiset
  u64 value_hash = 0;        // 0..n-1's
  void reset() {
    ref.reset();
    data.reset();
    scratch.reset();
    id.clear();
  }
};
dataset g_data;

u64 hash_a(u64 x) { return bench::splitmix64(x); }
u64 hash_b(u64 x) { return bench::splitmix64(x ^ 0x6a09e667f3bcc909ull) * 0x9e3779b97f4a7c15ull; }

template <class Key, bool Pairs>
constexpr std::size_t item_bytes() {
  return sizeof(Key) + (Pairs ? sizeof(u32) : 0);
}

template <class Key>
const char* type_name() {
  return sizeof(Key) == 8 ? "u64" : "u32";
}

/// Makes g_data the reference of (Key, Pairs, n), with a page-locked scratch of the same size.
template <class Key, bool Pairs>
void prepare(std::size_t n) {
  const std::string id = std::string(type_name<Key>()) + (Pairs ? "/pairs/" : "/keys/") + std::to_string(n);
  if (g_data.id == id) return;
  g_data.reset();
  g_data.n = n;
  g_data.bytes = n * item_bytes<Key, Pairs>();
  g_data.ref.allocate(g_data.bytes, false);
  g_data.scratch.allocate(g_data.bytes, true);
  Key* keys = reinterpret_cast<Key*>(g_data.ref.p);
  u32* values = reinterpret_cast<u32*>(g_data.ref.p + n * sizeof(Key));
  std::mutex m;
  u64 ka = 0, kb = 0, va = 0;
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    u64 a = 0, c = 0, v = 0;
    for (std::size_t i = b; i < e; ++i) {
      keys[i] = bench::random_value<Key>(0x5eed0000u + u64(n), i, 1);
      a += hash_a(u64(keys[i]));
      c += hash_b(u64(keys[i]));
      if constexpr (Pairs) values[i] = u32(i);
      v += hash_a(u64(i));
    }
    std::lock_guard<std::mutex> lock(m);
    ka += a;
    kb += c;
    va += v;
  });
  g_data.key_hash[0] = ka;
  g_data.key_hash[1] = kb;
  g_data.value_hash = va;
  g_data.id = id;
}

/// The input buffer in the memory kind asked for (reallocated when the kind changes).
void data_as(bool pinned) {
  if (g_data.data.p != nullptr && g_data.data.pinned == pinned) return;
  g_data.data.allocate(g_data.bytes, pinned);
}

/// The input again: the reference copied into the input buffer, as is (`aos` false) or as
/// {key, value} structs (u32 pairs for the host sorts).
template <class Key, bool Pairs>
void restore(bool aos) {
  const std::size_t n = g_data.n;
  if (Pairs && aos) {
    const u32* k = reinterpret_cast<const u32*>(g_data.ref.p);
    const u32* v = reinterpret_cast<const u32*>(g_data.ref.p + n * sizeof(Key));
    kv32* out = reinterpret_cast<kv32*>(g_data.data.p);
    parallel_for(n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) out[i] = kv32{k[i], v[i]};
    });
    return;
  }
  const std::size_t keys = n * sizeof(Key);
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    std::memcpy(g_data.data.p + b * sizeof(Key), g_data.ref.p + b * sizeof(Key), (e - b) * sizeof(Key));
    if (Pairs) std::memcpy(g_data.data.p + keys + b * 4, g_data.ref.p + keys + b * 4, (e - b) * 4);
  });
}

/// What is wrong with the sorted output (empty: nothing): key(i) and value(i) read it; see the top
/// of the file for what is checked. `stable`: values must ascend among equal keys.
template <class Key, bool Pairs, class KeyAt, class ValueAt>
std::string check(KeyAt key_at, ValueAt value_at, bool stable) {
  const std::size_t n = g_data.n;
  const Key* ref = reinterpret_cast<const Key*>(g_data.ref.p);
  std::mutex m;
  u64 inversions = 0, bad_values = 0, unstable = 0, ka = 0, kb = 0, va = 0;
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    u64 inv = 0, bad = 0, uns = 0, a = 0, c = 0, v = 0;
    for (std::size_t i = b; i < e; ++i) {
      const Key k = key_at(i);
      a += hash_a(u64(k));
      c += hash_b(u64(k));
      if (i + 1 < n && key_at(i + 1) < k) ++inv;
      if constexpr (Pairs) {
        const u32 x = value_at(i);
        v += hash_a(u64(x));
        if (x >= n || ref[x] != k) ++bad;
        if (stable && i + 1 < n && key_at(i + 1) == k && value_at(i + 1) <= x) ++uns;
      }
    }
    std::lock_guard<std::mutex> lock(m);
    inversions += inv;
    bad_values += bad;
    unstable += uns;
    ka += a;
    kb += c;
    va += v;
  });
  std::string wrong;
  if (inversions) wrong += std::to_string(inversions) + " keys out of order; ";
  if (ka != g_data.key_hash[0] || kb != g_data.key_hash[1]) wrong += "key multiset changed; ";
  if (Pairs && bad_values) wrong += std::to_string(bad_values) + " values not pointing at their key; ";
  if (Pairs && va != g_data.value_hash) wrong += "value multiset is not 0..n-1; ";
  if (Pairs && unstable) wrong += std::to_string(unstable) + " equal keys out of input order; ";
  return wrong;
}

/// The output in the input buffer, checked (SoA: ringsweep; AoS: the host sorts of pairs).
template <class Key, bool Pairs>
std::string check_output(bool aos, bool stable) {
  const std::size_t n = g_data.n;
  if (Pairs && aos) {
    const kv32* a = reinterpret_cast<const kv32*>(g_data.data.p);
    return check<Key, Pairs>([a](std::size_t i) { return Key(a[i].key); }, [a](std::size_t i) { return a[i].value; },
                             stable);
  }
  const Key* k = reinterpret_cast<const Key*>(g_data.data.p);
  const u32* v = reinterpret_cast<const u32*>(g_data.data.p + n * sizeof(Key));
  return check<Key, Pairs>([k](std::size_t i) { return k[i]; }, [v](std::size_t i) { return Pairs ? v[i] : 0u; },
                           stable);
}

// ---- rows --------------------------------------------------------------------------------------------

enum class sorter { std_sort, std_sort_threads, std_sort_par, ringsweep, ringsweep_alloc };

const char* name_of(sorter s) {
  switch (s) {
    case sorter::std_sort: return "std_sort";
    case sorter::std_sort_threads: return "std_sort_threads";
    case sorter::std_sort_par: return "std_sort_par";
    case sorter::ringsweep: return "ringsweep";
    case sorter::ringsweep_alloc: return "ringsweep_alloc";
  }
  return "?";
}

struct row {
  std::size_t n;
  sorter lib;
  bool pinned;
  bool fits;        // device_bytes 0 (the data fits) instead of data bytes / budget_div
  std::string key;   // <type>/<keys|pairs>/n:<n>, for the ratios between rows
  std::string name;  // the row's name (Google Benchmark 1.7's State does not say it)
};

std::set<std::string> g_checked;             // rows whose output has been checked
std::map<std::string, double> g_seconds;     // key/sorter -> mean seconds of the host sorts
std::map<std::string, bool> g_streamed;      // ringsweep row name -> the streamed path ran

template <class Key, bool Pairs>
void host_sort_once(sorter s) {
  const std::size_t n = g_data.n;
  using elem = typename std::conditional<Pairs, kv32, Key>::type;
  elem* a = reinterpret_cast<elem*>(g_data.data.p);
  switch (s) {
    case sorter::std_sort: bench_cpu::std_sort(a, n); break;
    case sorter::std_sort_threads: bench_cpu::threads_sort(a, n, g_data.scratch.p, g_settings.threads); break;
    default: bench_cpu::par_sort(a, n); break;
  }
}

template <class Key, bool Pairs>
void bm_host(benchmark::State& state, const row& r) {
  prepare<Key, Pairs>(r.n);
  data_as(false);
  bool unchecked = g_checked.insert(r.name).second;
  double total = 0;
  for (auto _ : state) {
    restore<Key, Pairs>(true);
    const double t0 = now_s();
    host_sort_once<Key, Pairs>(r.lib);
    const double t = now_s() - t0;
    state.SetIterationTime(t);
    total += t;
    if (unchecked) {
      unchecked = false;
      const std::string wrong = check_output<Key, Pairs>(true, false);
      if (!wrong.empty()) {
        state.SkipWithError(("output wrong: " + wrong).c_str());
        break;
      }
    }
  }
  if (state.iterations() == 0) return;
  const double seconds = total / double(state.iterations());
  g_seconds[r.key + "/" + name_of(r.lib)] = seconds;
  state.counters["n"] = double(r.n);
  state.counters["keys_per_s"] = double(r.n) / seconds;
  state.counters["item_bytes"] = double(item_bytes<Key, Pairs>());
  state.counters["threads"] = r.lib == sorter::std_sort ? 1 : g_settings.threads;
}

void count_progress(double fraction, void* user) {
  if (fraction < 1.0) ++*static_cast<int*>(user);
}

template <class Key, bool Pairs>
void bm_ringsweep(benchmark::State& state, const row& r) {
  prepare<Key, Pairs>(r.n);
  data_as(r.pinned);
  const std::size_t n = r.n;
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = r.fits ? 0 : g_data.bytes / std::size_t(g_settings.budget_div);
  cfg.h_scratch = r.lib == sorter::ringsweep_alloc ? nullptr : g_data.scratch.p;
  Key* keys = reinterpret_cast<Key*>(g_data.data.p);
  u32* values = reinterpret_cast<u32*>(g_data.data.p + n * sizeof(Key));
  const auto once = [&](const ringsweep::host_sort_config& c) {
    if constexpr (Pairs) {
      return ringsweep::host_sort_pairs(keys, values, n, ringsweep::sort_options{}, c);
    } else {
      (void)values;
      return ringsweep::host_sort_keys(keys, n, ringsweep::sort_options{}, c);
    }
  };
  // The first time: a warm-up run, checked, its progress calls telling the path.
  if (g_checked.insert(r.name).second) {
    restore<Key, Pairs>(false);
    int partial = 0;
    ringsweep::host_sort_config watched = cfg;
    watched.progress = count_progress;
    watched.progress_user = &partial;
    if (const cudaError_t e = once(watched)) {
      state.SkipWithError((std::string("sort failed: ") + cudaGetErrorString(e)).c_str());
      return;
    }
    const std::string wrong = check_output<Key, Pairs>(false, true);
    if (!wrong.empty()) {
      state.SkipWithError(("output wrong: " + wrong).c_str());
      return;
    }
    g_streamed[r.name] = partial > 0;
  }
  double total = 0;
  for (auto _ : state) {
    restore<Key, Pairs>(false);
    const double t0 = now_s();
    const cudaError_t e = once(cfg);
    const double t = now_s() - t0;
    state.SetIterationTime(t);
    total += t;
    if (e != cudaSuccess) {
      state.SkipWithError((std::string("sort failed: ") + cudaGetErrorString(e)).c_str());
      break;
    }
  }
  if (state.iterations() == 0) return;
  const double seconds = total / double(state.iterations());
  const bool streamed = g_streamed[r.name];
  const double item = double(item_bytes<Key, Pairs>());
  const double crossing = (streamed ? 4 : 2) * item * double(n);  // bytes over the bus, both ways
  const double limit = crossing / 2 / g_bus.h2d + crossing / 2 / g_bus.d2h;
  state.counters["n"] = double(n);
  state.counters["keys_per_s"] = double(n) / seconds;
  state.counters["item_bytes"] = item;
  state.counters["device_bytes"] = double(cfg.device_bytes);
  state.counters["streamed"] = streamed ? 1 : 0;
  state.counters["bus_B_per_key"] = (streamed ? 4 : 2) * item;
  state.counters["bus_limit_s"] = limit;
  state.counters["of_bus_limit"] = limit / seconds;
  state.counters["of_duplex_limit"] = crossing / g_bus.duplex / seconds;
  state.counters["h2d_GBps"] = g_bus.h2d * 1e-9;
  state.counters["d2h_GBps"] = g_bus.d2h * 1e-9;
  state.counters["duplex_GBps"] = g_bus.duplex * 1e-9;
  for (sorter s : {sorter::std_sort, sorter::std_sort_threads, sorter::std_sort_par}) {
    const auto it = g_seconds.find(r.key + "/" + name_of(s));
    if (it != g_seconds.end()) state.counters[std::string("rs_over_") + name_of(s)] = it->second / seconds;
  }
}

std::size_t g_mem_total = 0;  // bytes, /proc/meminfo MemTotal

std::size_t mem_total() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (f >> key >> kib) {
    if (key == "MemTotal:") return kib * 1024;
    f.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

template <class Key, bool Pairs>
void register_rows() {
  const std::size_t item = item_bytes<Key, Pairs>();
  for (int lg = g_settings.min_log2; lg <= g_settings.max_log2; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    const std::size_t need = 4 * n * item;
    const double allowed = g_settings.mem_fraction * double(g_mem_total);
    if (double(need) > allowed) {
      std::fprintf(stderr, "ringsweep_host_sort_bench: skipping %s %s n=2^%d: needs %.1f GiB, %.0f%% of MemTotal is %.1f GiB\n",
                   type_name<Key>(), Pairs ? "pairs" : "keys", lg, need / 1073741824.0, 100 * g_settings.mem_fraction,
                   allowed / 1073741824.0);
      continue;
    }
    const std::string key = std::string(type_name<Key>()) + (Pairs ? "/pairs" : "/keys") + "/n:" + std::to_string(n);
    const std::string budget = "budget:1_" + std::to_string(g_settings.budget_div);
    std::vector<std::pair<std::string, row>> rows;
    rows.push_back({"pageable/cpu/std_sort", row{n, sorter::std_sort, false, false, key, ""}});
    rows.push_back({"pageable/cpu/std_sort_threads", row{n, sorter::std_sort_threads, false, false, key, ""}});
    if (bench_cpu::par_backend() != nullptr) {
      rows.push_back({"pageable/cpu/std_sort_par", row{n, sorter::std_sort_par, false, false, key, ""}});
    }
    rows.push_back({"pageable/" + budget + "/ringsweep", row{n, sorter::ringsweep, false, false, key, ""}});
    rows.push_back({"pinned/" + budget + "/ringsweep", row{n, sorter::ringsweep, true, false, key, ""}});
    rows.push_back({"pinned/" + budget + "/ringsweep_alloc", row{n, sorter::ringsweep_alloc, true, false, key, ""}});
    rows.push_back({"pinned/budget:all/ringsweep", row{n, sorter::ringsweep, true, true, key, ""}});
    for (const auto& [suffix, rr] : rows) {
      row r = rr;
      r.name = "host/" + key + "/" + suffix;
      const std::string& name = r.name;
      benchmark::internal::Benchmark* b;
      if (r.lib == sorter::ringsweep || r.lib == sorter::ringsweep_alloc) {
        b = benchmark::RegisterBenchmark(name.c_str(), [r](benchmark::State& st) { bm_ringsweep<Key, Pairs>(st, r); });
      } else {
        b = benchmark::RegisterBenchmark(name.c_str(), [r](benchmark::State& st) { bm_host<Key, Pairs>(st, r); });
      }
      b->UseManualTime()->Unit(benchmark::kMillisecond);
      // One core's std::sort of 2^30 keys takes about two minutes: timed once.
      if (r.lib == sorter::std_sort) b->Iterations(1)->Repetitions(1);
    }
  }
}

void parse_own_flags(int& argc, char** argv) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--rs_min_log2=", 14) == 0) {
      g_settings.min_log2 = std::atoi(a + 14);
    } else if (std::strncmp(a, "--rs_max_log2=", 14) == 0) {
      g_settings.max_log2 = std::atoi(a + 14);
    } else if (std::strncmp(a, "--rs_budget_div=", 16) == 0) {
      g_settings.budget_div = std::max(1, std::atoi(a + 16));
    } else if (std::strncmp(a, "--rs_threads=", 13) == 0) {
      g_settings.threads = std::atoi(a + 13);
    } else if (std::strncmp(a, "--rs_mem_fraction=", 18) == 0) {
      g_settings.mem_fraction = std::atof(a + 18);
    } else if (std::strncmp(a, "--rs_bw_mib=", 12) == 0) {
      g_settings.bw_bytes = std::size_t(std::max(1, std::atoi(a + 12))) << 20;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  if (g_settings.threads <= 0) g_settings.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (g_settings.max_log2 > 32) g_settings.max_log2 = 32;  // u32 values are input positions
}

std::string gbps(double bytes_per_s) {
  char s[32];
  std::snprintf(s, sizeof(s), "%.2f", bytes_per_s * 1e-9);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  parse_own_flags(argc, argv);
  benchmark::Initialize(&argc, argv);

  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("ringsweep_host_sort_bench: no CUDA device available (%s); nothing to benchmark.\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 0;
  }
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  g_mem_total = mem_total();
  measure_bus();
  std::fprintf(stderr,
               "ringsweep_host_sort_bench: pinned cudaMemcpy H2D %s GB/s, D2H %s GB/s, both at once %s GB/s; "
               "pageable H2D %s GB/s, D2H %s GB/s; %d host threads; MemTotal %.1f GiB; std::execution::par: %s\n",
               gbps(g_bus.h2d).c_str(), gbps(g_bus.d2h).c_str(), gbps(g_bus.duplex).c_str(),
               gbps(g_bus.h2d_pageable).c_str(), gbps(g_bus.d2h_pageable).c_str(), g_settings.threads,
               g_mem_total / 1073741824.0, bench_cpu::par_backend() ? bench_cpu::par_backend() : "no parallel backend");
  benchmark::AddCustomContext("device", prop.name);
  benchmark::AddCustomContext("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext("pinned_h2d_GBps", gbps(g_bus.h2d));
  benchmark::AddCustomContext("pinned_d2h_GBps", gbps(g_bus.d2h));
  benchmark::AddCustomContext("pinned_duplex_GBps", gbps(g_bus.duplex));
  benchmark::AddCustomContext("pageable_h2d_GBps", gbps(g_bus.h2d_pageable));
  benchmark::AddCustomContext("pageable_d2h_GBps", gbps(g_bus.d2h_pageable));
  benchmark::AddCustomContext("host_threads", std::to_string(g_settings.threads));
  benchmark::AddCustomContext("host_mem_total_bytes", std::to_string(g_mem_total));
  benchmark::AddCustomContext("budget_div", std::to_string(g_settings.budget_div));
  benchmark::AddCustomContext("std_par_backend", bench_cpu::par_backend() ? bench_cpu::par_backend() : "none");

  register_rows<u32, false>();
  register_rows<u64, false>();
  register_rows<u32, true>();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_data.reset();  // the page-locked blocks, while the runtime is up
  return 0;
}
