// Differential stress test (GPU only, issues #18 and #34): thousands of random sorts, each compared
// bit for bit with CUB on the same GPU or with std::stable_sort. Every case is drawn from (seed,
// case index) alone. Its kind first (RINGSWEEP_STRESS_KINDS picks among them):
//   plain      sort_keys / sort_pairs with the device's policy or policy_tiny, against
//              cub::DeviceRadixSort (the rest of this paragraph);
//   pipelined  the same with the tune program's pipelined persistent policy (tune::sm90_pipelined,
//              bench/common/pipelined.cuh; sm_90 only): u32, i32, f32, u64 keys, u32 values;
//   segmented  segmented_sort_keys / _pairs (device policy or policy_tiny) against
//              cub::DeviceSegmentedRadixSort: u32, f32, u64 keys, u32 values, segments drawn
//              across the warp, block and onesweep class edges, empty ones and gaps;
//   argsort    argsort with and without the sorted keys (device policy or policy_tiny) against
//              cub::DeviceRadixSort::SortPairs of the keys and 0..n-1 (u32 or i64 indices);
//   host       host_sort_keys / host_sort_pairs through a device budget of 1/8 to 1/64 of the data
//              or the least the sort takes (policy_tiny with one portion, up to 2^21 keys; one in
//              eight the device's policy, 2^20 to 2^23 keys, 1/8 but at least about 4 MiB), on
//              pageable or page-locked arrays, against std::stable_sort (u32, u64, f32 keys; u32
//              values).
// Plain cases:
// key type (every one), keys only or pairs (each key type with one value size, 1 to 16 bytes), n
// from 0 to 2^26 biased to tile and status-ring edges (and, with the tiny test policy, portion
// edges), order, bit window, distribution and API form. Four cases run at once on four streams,
// each with its own buffers and temporary storage. CUB expresses every key type and window
// ringsweep does (including -0.0 == +0.0); for an empty window the reference is the input itself.
// One known difference, by design: a descending sort of floating-point keys on a bit window that
// is not the whole key places zeros differently. ringsweep takes both zeros as +0.0 in every sort;
// CUB's onesweep path takes both as -0.0 in descending sorts (its other paths as +0.0), and the
// window bits of the two images differ. Such cases replace their zeros by the smallest positive
// denormal, so that everything else is still compared bit for bit (the SIMT tests hold ringsweep's
// zeros to std::stable_sort).
//
//   RINGSWEEP_STRESS_SECONDS   time budget (default 20; ctest's run)            e.g. 300 on a GPU machine
//   RINGSWEEP_STRESS_CASES     stop after this many cases (default: budget only)
//   RINGSWEEP_STRESS_SEED      seed (default: Catch's --rng-seed)
//   RINGSWEEP_STRESS_MAX_LOG2  largest n = 2^this (default 26)
//   RINGSWEEP_STRESS_CASE      replay one case (printed with every failure) and stop
//   RINGSWEEP_STRESS_KINDS     kinds to draw, comma-separated (default: all; e.g. `pipelined` for
//                              compute-sanitizer over the tune policy, scripts/gpu_plan.sh)
//
// stress_test_simt (built by name, not by `all`, never run by CI: a check of this file's own logic
// before GPU time is spent on it) runs the same cases on the SIMT backend, with CUB's sorts
// replaced by std::stable_sort on the host behind CUB's signatures and plain cases on u32, u64
// and f32 keys only (fewer kernels to compile), e.g.
//   RINGSWEEP_STRESS_SECONDS=20 RINGSWEEP_STRESS_MAX_LOG2=14 stress_test_simt
#include <catch2/catch.hpp>

#if !defined(RINGSWEEP_VARIANT_SIMT)
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#endif

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../../bench/common/pipelined.cuh"
#include "sort_test_util.cuh"
#include "test_policies.cuh"
#include "test_util.cuh"

namespace {

#if defined(RINGSWEEP_VARIANT_SIMT)
/// CUB's radix sorts as the SIMT build calls them: std::stable_sort of the key images on the host
/// (ringsweep_test::reference_order), segment by segment, positions outside every segment kept.
namespace stress_cub {
template <class Key, class Value>
cudaError_t host_sort(void* temp, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin, Value* vout,
                      std::size_t n, int begin_bit, int end_bit, bool descending, cudaStream_t s,
                      std::size_t segments = 0, const int* d_begin = nullptr, const int* d_end = nullptr) {
  if (temp == nullptr) {
    bytes = 1;
    return cudaSuccess;
  }
  if (cudaError_t e = cudaStreamSynchronize(s)) return e;
  std::vector<Key> keys(n), out(n);
  std::vector<Value> values(vin != nullptr ? n : 0), values_out(values.size());
  cudaMemcpy(keys.data(), kin, n * sizeof(Key), cudaMemcpyDeviceToHost);
  cudaMemcpy(out.data(), kout, n * sizeof(Key), cudaMemcpyDeviceToHost);
  if (vin != nullptr) {
    cudaMemcpy(values.data(), vin, n * sizeof(Value), cudaMemcpyDeviceToHost);
    cudaMemcpy(values_out.data(), vout, n * sizeof(Value), cudaMemcpyDeviceToHost);
  }
  std::vector<int> b(segments), e(segments);
  if (segments != 0) {
    cudaMemcpy(b.data(), d_begin, segments * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(e.data(), d_end, segments * sizeof(int), cudaMemcpyDeviceToHost);
  } else {
    b.assign(1, 0);
    e.assign(1, int(n));
  }
  ringsweep::sort_options o;
  o.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (e[i] <= b[i]) continue;
    const std::vector<Key> part(keys.begin() + b[i], keys.begin() + e[i]);
    const std::vector<std::size_t> order = ringsweep_test::reference_order(part, o);
    for (std::size_t j = 0; j < order.size(); ++j) {
      out[std::size_t(b[i]) + j] = part[order[j]];
      if (vin != nullptr) values_out[std::size_t(b[i]) + j] = values[std::size_t(b[i]) + order[j]];
    }
  }
  cudaMemcpy(kout, out.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
  if (vin != nullptr) cudaMemcpy(vout, values_out.data(), n * sizeof(Value), cudaMemcpyHostToDevice);
  return cudaGetLastError();
}

struct DeviceRadixSort {
  template <class Key>
  static cudaError_t SortKeys(void* t, std::size_t& bytes, const Key* kin, Key* kout, std::int64_t n, int b, int e,
                              cudaStream_t s) {
    return host_sort<Key, char>(t, bytes, kin, kout, nullptr, nullptr, std::size_t(n), b, e, false, s);
  }
  template <class Key>
  static cudaError_t SortKeysDescending(void* t, std::size_t& bytes, const Key* kin, Key* kout, std::int64_t n, int b,
                                        int e, cudaStream_t s) {
    return host_sort<Key, char>(t, bytes, kin, kout, nullptr, nullptr, std::size_t(n), b, e, true, s);
  }
  template <class Key, class Value>
  static cudaError_t SortPairs(void* t, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin, Value* vout,
                               std::int64_t n, int b, int e, cudaStream_t s) {
    return host_sort(t, bytes, kin, kout, vin, vout, std::size_t(n), b, e, false, s);
  }
  template <class Key, class Value>
  static cudaError_t SortPairsDescending(void* t, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin,
                                         Value* vout, std::int64_t n, int b, int e, cudaStream_t s) {
    return host_sort(t, bytes, kin, kout, vin, vout, std::size_t(n), b, e, true, s);
  }
};

struct DeviceSegmentedRadixSort {
  template <class Key>
  static cudaError_t SortKeys(void* t, std::size_t& bytes, const Key* kin, Key* kout, int n, int segs,
                              const int* begin, const int* end, int b, int e, cudaStream_t s) {
    return host_sort<Key, char>(t, bytes, kin, kout, nullptr, nullptr, std::size_t(n), b, e, false, s,
                                std::size_t(segs), begin, end);
  }
  template <class Key>
  static cudaError_t SortKeysDescending(void* t, std::size_t& bytes, const Key* kin, Key* kout, int n, int segs,
                                        const int* begin, const int* end, int b, int e, cudaStream_t s) {
    return host_sort<Key, char>(t, bytes, kin, kout, nullptr, nullptr, std::size_t(n), b, e, true, s,
                                std::size_t(segs), begin, end);
  }
  template <class Key, class Value>
  static cudaError_t SortPairs(void* t, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin, Value* vout,
                               int n, int segs, const int* begin, const int* end, int b, int e, cudaStream_t s) {
    return host_sort(t, bytes, kin, kout, vin, vout, std::size_t(n), b, e, false, s, std::size_t(segs), begin, end);
  }
  template <class Key, class Value>
  static cudaError_t SortPairsDescending(void* t, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin,
                                         Value* vout, int n, int segs, const int* begin, const int* end, int b,
                                         int e, cudaStream_t s) {
    return host_sort(t, bytes, kin, kout, vin, vout, std::size_t(n), b, e, true, s, std::size_t(segs), begin, end);
  }
};
}  // namespace stress_cub
#else
namespace stress_cub = cub;
#endif

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct alignas(16) v16 {
  u32 w[4];
};
__host__ __device__ bool same(const v16& a, const v16& b) {
  return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
}
template <class T>
__host__ __device__ bool same(const T& a, const T& b) {
  return a == b;
}

__host__ __device__ u64 mix(u64 x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

enum dist { uniform, low_entropy, few_distinct, narrow_range, all_equal, sorted, reversed, n_dists };
const char* const dist_names[] = {"uniform", "low_entropy", "few_distinct", "narrow_range",
                                  "all_equal", "sorted", "reversed"};
const char* const key_names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "float", "double", "half",
                                 "bfloat16"};
constexpr int n_key_types = 12;
enum form { in_out, double_buf };
enum kind { plain, pipelined, segmented, argsort_kind, host, n_kinds };
const char* const kind_names[] = {"plain", "pipelined", "segmented", "argsort", "host"};
// How often each kind is drawn (of 100), where allowed.
constexpr int kind_weights[n_kinds] = {55, 10, 15, 12, 8};

/// One sort, drawn from (seed, index) alone.
struct stress_case {
  u64 seed = 0;
  u64 index = 0;
  int key_type = 0;
  int value_bytes = 0;  // 0: keys only
  std::size_t n = 0;
  bool descending = false;
  int begin_bit = 0;
  int end_bit = 0;  // resolved (never -1)
  int distribution = uniform;
  u64 param = 0;
  int api_form = in_out;
  bool tiny = false;  // ringsweep_test::policy_tiny instead of the device's policy
  int kind = plain;
  bool keys_out = true;        // argsort: with the sorted keys
  bool pinned = false;         // host: page-locked arrays
  std::size_t budget = 0;      // host: host_sort_config::device_bytes

  std::string describe() const {
    std::ostringstream s;
    s << "case " << index << " (replay: RINGSWEEP_STRESS_SEED=" << seed << " RINGSWEEP_STRESS_CASE=" << index
      << "): " << kind_names[kind] << ", " << key_names[key_type] << " keys, "
      << (value_bytes ? std::to_string(value_bytes) + (kind == argsort_kind ? "-byte indices" : "-byte values")
                      : std::string("keys only"))
      << ", n " << n << ", " << (descending ? "descending" : "ascending") << ", bits [" << begin_bit << ", "
      << end_bit << "), " << dist_names[distribution] << " (" << param << "), "
      << (api_form == in_out ? "in/out" : "double buffer") << ", "
      << (kind == pipelined ? "tune::sm90_pipelined" : tiny ? "policy_tiny" : "device policy");
    if (kind == argsort_kind) s << (keys_out ? ", with sorted keys" : ", no sorted keys");
    if (kind == host) s << ", " << (pinned ? "page-locked" : "pageable") << ", device budget " << budget << " bytes";
    return s.str();
  }
};

u64 env_u64(const char* name, u64 fallback) {
  const char* s = std::getenv(name);
  return s == nullptr || *s == 0 ? fallback : std::strtoull(s, nullptr, 10);
}

// ---- device helpers (launched with cudaLaunchKernelEx) ------------------------------------------

/// Blocks of 256 threads for a grid-stride loop over n items (at most 4096, at least 1).
inline unsigned blocks_for(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return unsigned(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

/// The bits of key i of a distribution (sorted and reversed: uniform, ordered afterwards).
__host__ __device__ inline u64 key_bits_at(std::size_t i, u64 seed, int d, u64 param) {
  const u64 h = mix(seed ^ mix(i));
  switch (d) {
    case low_entropy:
      return h & mix(h + 1) & (param >= 3 ? mix(h + 2) : ~u64(0)) & (param >= 4 ? mix(h + 3) : ~u64(0));
    case few_distinct: return mix(seed + 7 + h % param);
    case narrow_range: return mix(seed + 9) + h % param;
    case all_equal: return mix(seed + 11);
    default: return h;
  }
}

template <class Bits>
__global__ void generate_keys(Bits* keys, std::size_t n, u64 seed, int d, u64 param) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    keys[i] = Bits(key_bits_at(i, seed, d, param));
  }
}

/// 0, 1, ..., n-1: CUB's argsort values.
template <class Index>
__global__ void sequence(Index* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = Index(i);
  }
}

/// Replaces +0.0 and -0.0 (bits 0 or the sign bit alone) by the smallest positive denormal.
template <class Bits>
__global__ void replace_zeros(Bits* keys, std::size_t n) {
  const Bits sign = Bits(Bits(1) << (8 * sizeof(Bits) - 1));
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (Bits(keys[i] & Bits(~sign)) == 0) keys[i] = Bits(1);
  }
}

template <class Bits>
__global__ void copy_keys(const Bits* from, Bits* to, std::size_t n, bool reverse) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    to[i] = from[reverse ? n - 1 - i : i];
  }
}

/// Values that name their input index (the index in the low bytes, a hash of it above).
template <class Value>
__global__ void generate_values(Value* values, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned char bytes[sizeof(Value)];
    const u64 h = mix(i);
    for (std::size_t b = 0; b < sizeof(Value); ++b)
      bytes[b] = (unsigned char)(b < 4 ? i >> (8 * b) : h >> (8 * (b % 8)));
    Value v;
    memcpy(&v, bytes, sizeof(Value));
    values[i] = v;
  }
}

/// Lowest index where keys (as bits) or values differ, into `*first` (atomicMin; preset to ~0).
template <class Bits, class Value>
__global__ void compare(const Bits* keys, const Bits* ref_keys, const Value* values, const Value* ref_values,
                        std::size_t n, unsigned long long* first) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    bool bad = keys[i] != ref_keys[i];
    if (values != nullptr && !same(values[i], ref_values[i])) bad = true;
    if (bad) atomicMin(first, (unsigned long long)i);
  }
}

// ---- one case -----------------------------------------------------------------------------------

/// A case's buffers and result, alive from its launch to its check.
struct running_case {
  stress_case c;
  cudaStream_t stream = nullptr;
  std::vector<void*> allocations;
  unsigned long long* first = nullptr;  // pinned host
  cudaError_t error = cudaSuccess;
  const char* failed_call = nullptr;
  std::size_t keys_sorted = 0;
};

#define STRESS_TRY(call)                  \
  do {                                    \
    const cudaError_t e_ = (call);        \
    if (e_ != cudaSuccess) {              \
      r.error = e_;                       \
      r.failed_call = #call;              \
      return;                             \
    }                                     \
  } while (false)

template <class T>
T* alloc(running_case& r, std::size_t n) {
  void* p = nullptr;
  if (r.error == cudaSuccess) {
    r.error = cudaMallocAsync(&p, n == 0 ? 1 : n * sizeof(T), r.stream);
    if (r.error != cudaSuccess) r.failed_call = "cudaMallocAsync";
  }
  if (p != nullptr) r.allocations.push_back(p);
  return static_cast<T*>(p);
}

template <class Policy, class Key, class Value, bool PAIRS>
cudaError_t ringsweep_sort(const stress_case& c, void* temp, std::size_t& bytes, const Key* kin, Key* kout, Key* kalt,
                           const Value* vin, Value* vout, Value* valt, Key** result_keys, Value** result_values,
                           cudaStream_t s) {
  ringsweep::sort_options o;
  o.order = c.descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  o.begin_bit = c.begin_bit;
  o.end_bit = c.end_bit;
  if (c.api_form == in_out) {
    *result_keys = kout;
    *result_values = vout;
    if constexpr (PAIRS) {
      return ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kin, kout, vin, vout, c.n, o, s);
    } else {
      return ringsweep::tuning::sort_keys<Policy>(temp, bytes, kin, kout, c.n, o, s);
    }
  }
  // Double buffer: sorts copies (kout, vout hold them; kalt, valt are the alternates).
  ringsweep::double_buffer<Key> kb(kout, kalt);
  ringsweep::double_buffer<Value> vb(vout, valt);
  cudaError_t e;
  if constexpr (PAIRS) {
    e = ringsweep::tuning::sort_pairs<Policy>(temp, bytes, kb, vb, c.n, o, s);
  } else {
    e = ringsweep::tuning::sort_keys<Policy>(temp, bytes, kb, c.n, o, s);
  }
  *result_keys = kb.current();
  *result_values = vb.current();
  return e;
}

template <class Key, class Value, bool PAIRS>
cudaError_t cub_sort(const stress_case& c, void* temp, std::size_t& bytes, const Key* kin, Key* kout, const Value* vin,
                     Value* vout, cudaStream_t s) {
  const std::int64_t n = std::int64_t(c.n);
  if constexpr (PAIRS) {
    return c.descending
               ? stress_cub::DeviceRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n, c.begin_bit,
                                                           c.end_bit, s)
               : stress_cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, c.begin_bit, c.end_bit, s);
  } else {
    return c.descending ? stress_cub::DeviceRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, c.begin_bit,
                                                                   c.end_bit, s)
                        : stress_cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, c.begin_bit, c.end_bit, s);
  }
}

/// The case's input keys into `kin`: sorted and reversed ones are uniform keys sorted by CUB
/// first, through the scratch arrays `a` and `b` (n keys each); zeros in descending float sorts on
/// a partial window are replaced (see the top of this file). Check r.error afterwards.
template <class Key>
void make_input(running_case& r, Key* kin, Key* a, Key* b) {
  using bits = typename ringsweep::key_traits<Key>::bits_type;
  const stress_case& c = r.c;
  const std::size_t n = c.n;
  cudaStream_t s = r.stream;
  const bool presort = c.distribution == sorted || c.distribution == reversed;
  STRESS_TRY(ringsweep_test::launch(generate_keys<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                    reinterpret_cast<bits*>(presort ? a : kin), n, c.seed ^ mix(c.index),
                                    presort ? int(uniform) : c.distribution, c.param));
  if (presort) {
    std::size_t bytes = 0;
    STRESS_TRY(stress_cub::DeviceRadixSort::SortKeys(nullptr, bytes, a, b, std::int64_t(n), 0, int(sizeof(Key) * 8), s));
    void* temp = alloc<unsigned char>(r, bytes);
    if (r.error != cudaSuccess) return;
    STRESS_TRY(stress_cub::DeviceRadixSort::SortKeys(temp, bytes, a, b, std::int64_t(n), 0, int(sizeof(Key) * 8), s));
    STRESS_TRY(ringsweep_test::launch(copy_keys<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                      reinterpret_cast<const bits*>(b), reinterpret_cast<bits*>(kin), n,
                                      c.distribution == reversed));
  }
  const bool partial_window = c.begin_bit < c.end_bit && (c.begin_bit > 0 || c.end_bit < int(8 * sizeof(Key)));
  if (!ringsweep::key_traits<Key>::image_is_xor && c.descending && partial_window) {  // float keys
    STRESS_TRY(ringsweep_test::launch(replace_zeros<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                      reinterpret_cast<bits*>(kin), n));
  }
}

/// Queues the comparison of (got_keys, got_values) with (want_keys, want_values): the lowest
/// mismatching position lands in *r.first once the stream gets there.
template <class Key, class Value>
void queue_compare(running_case& r, const Key* got_keys, const Key* want_keys, const Value* got_values,
                   const Value* want_values) {
  using bits = typename ringsweep::key_traits<Key>::bits_type;
  const std::size_t n = r.c.n;
  cudaStream_t s = r.stream;
  *r.first = ~0ull;
  unsigned long long* d_first = alloc<unsigned long long>(r, 1);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(cudaMemcpyAsync(d_first, r.first, sizeof(u64), cudaMemcpyHostToDevice, s));
  STRESS_TRY(ringsweep_test::launch(compare<bits, Value>, blocks_for(n), 256, s, ringsweep_test::serial,
                                    reinterpret_cast<const bits*>(got_keys), reinterpret_cast<const bits*>(want_keys),
                                    got_values, want_values, n, d_first));
  STRESS_TRY(cudaMemcpyAsync(r.first, d_first, sizeof(u64), cudaMemcpyDeviceToHost, s));
  r.keys_sorted = n;
}

/// Queues the whole case on its stream: input, ringsweep's sort, CUB's sort, the comparison.
template <class Key, class Value, bool PAIRS>
void launch_case(running_case& r) {
  const stress_case& c = r.c;
  const std::size_t n = c.n;
  cudaStream_t s = r.stream;
  Key* kin = alloc<Key>(r, n);
  Key* kout = alloc<Key>(r, n);
  Key* kalt = alloc<Key>(r, n);
  Key* kref = alloc<Key>(r, n);
  Value* vin = PAIRS ? alloc<Value>(r, n) : nullptr;
  Value* vout = PAIRS ? alloc<Value>(r, n) : nullptr;
  Value* valt = PAIRS ? alloc<Value>(r, n) : nullptr;
  Value* vref = PAIRS ? alloc<Value>(r, n) : nullptr;
  if (r.error != cudaSuccess) return;

  make_input(r, kin, kout, kref);
  if (r.error != cudaSuccess) return;
  if constexpr (PAIRS) {
    STRESS_TRY(ringsweep_test::launch(generate_values<Value>, blocks_for(n), 256, s, ringsweep_test::serial, vin, n));
  }
  if (c.api_form == double_buf && n != 0) {
    STRESS_TRY(cudaMemcpyAsync(kout, kin, n * sizeof(Key), cudaMemcpyDeviceToDevice, s));
    if constexpr (PAIRS) STRESS_TRY(cudaMemcpyAsync(vout, vin, n * sizeof(Value), cudaMemcpyDeviceToDevice, s));
  }

  // ringsweep.
  Key* got_keys = nullptr;
  Value* got_values = nullptr;
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    if (c.kind == pipelined) {
      return ringsweep_sort<tune::sm90_pipelined, Key, Value, PAIRS>(c, temp, bytes, kin, kout, kalt, vin, vout, valt,
                                                                     &got_keys, &got_values, s);
    }
    return c.tiny ? ringsweep_sort<ringsweep_test::policy_tiny, Key, Value, PAIRS>(c, temp, bytes, kin, kout, kalt, vin,
                                                                                  vout, valt, &got_keys, &got_values, s)
                  : ringsweep::detail::with_device_policy([&](auto policy) {
                      return ringsweep_sort<decltype(policy), Key, Value, PAIRS>(c, temp, bytes, kin, kout, kalt, vin,
                                                                                 vout, valt, &got_keys, &got_values, s);
                    });
  };
  STRESS_TRY(sort(nullptr));
  void* temp = alloc<unsigned char>(r, bytes);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(sort(temp));

  // The reference: CUB, or the input itself for an empty window.
  const Key* want_keys = kin;
  const Value* want_values = vin;
  if (c.begin_bit < c.end_bit) {
    std::size_t cub_bytes = 0;
    STRESS_TRY((cub_sort<Key, Value, PAIRS>(c, nullptr, cub_bytes, kin, kref, vin, vref, s)));
    void* cub_temp = alloc<unsigned char>(r, cub_bytes);
    if (r.error != cudaSuccess) return;
    STRESS_TRY((cub_sort<Key, Value, PAIRS>(c, cub_temp, cub_bytes, kin, kref, vin, vref, s)));
    want_keys = kref;
    want_values = vref;
  }
  queue_compare<Key, Value>(r, got_keys, want_keys, PAIRS ? static_cast<const Value*>(got_values) : nullptr,
                            want_values);
}

// ---- segmented sorts against cub::DeviceSegmentedRadixSort --------------------------------------

std::size_t case_tile(int key_type, int value_bytes, bool tiny, bool pipelined_policy = false);

/// The segments of a segmented case, drawn from (seed, index): sizes across the warp class edge
/// (`warp_max` keys), the block class edge (one tile), larger ones, empty ones and gaps between
/// segments, until about `target` keys; the case's n is the end of the last one plus any gap.
struct segment_layout {
  std::vector<int> begin, end;
  std::size_t n = 0;
};

segment_layout draw_segments(u64 seed, u64 index, std::size_t target, std::size_t warp_max, std::size_t tile) {
  u64 state = mix(seed * 0x5e9a0001ull + index);
  const auto next = [&](u64 bound) {
    state = mix(state);
    return bound == 0 ? 0 : state % bound;
  };
  segment_layout l;
  const int style = int(next(4));  // 0: one size for all; 1: mixed classes; 2: mixed with gaps; 3: one segment
  const auto size_of = [&]() -> std::size_t {
    const long long d = (long long)next(3) - 1;
    switch (next(9)) {
      case 0: return 0;
      case 1: return 1 + next(warp_max);
      case 2: return std::size_t(std::max<long long>(0, (long long)warp_max + d));
      case 3: return warp_max + 1 + next(tile > warp_max ? tile - warp_max : 1);
      case 4: return std::size_t(std::max<long long>(0, (long long)tile + d));
      case 5: return tile + next(3 * tile);
      case 6: return std::size_t(std::max<long long>(0, (long long)(2 * tile) + d));
      case 7: return next(4 * warp_max);
      default: return next(8);
    }
  };
  if (style == 3) {
    l.begin.push_back(0);
    l.end.push_back(int(target));
    l.n = target;
    return l;
  }
  const std::size_t fixed = size_of();
  std::size_t at = 0;
  while (at < target && l.begin.size() < 40000) {
    if (style == 2 && next(8) == 0) at += 1 + next(2 * warp_max);  // a gap nothing sorts
    const std::size_t size = style == 0 ? (fixed > 0 ? fixed : 1 + next(tile)) : size_of();
    l.begin.push_back(int(at));
    l.end.push_back(int(at + size));
    at += size;
  }
  l.n = at + (style == 2 ? next(3) : 0);
  return l;
}

template <class Key, class Value, bool PAIRS>
cudaError_t cub_segmented(const stress_case& c, void* temp, std::size_t& bytes, const Key* kin, Key* kout,
                          const Value* vin, Value* vout, int segments, const int* begin, const int* end,
                          cudaStream_t s) {
  const int n = int(c.n);
  if constexpr (PAIRS) {
    return c.descending ? stress_cub::DeviceSegmentedRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n,
                                                                            segments, begin, end, c.begin_bit,
                                                                            c.end_bit, s)
                        : stress_cub::DeviceSegmentedRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, segments,
                                                                   begin, end, c.begin_bit, c.end_bit, s);
  } else {
    return c.descending ? stress_cub::DeviceSegmentedRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, segments,
                                                                           begin, end, c.begin_bit, c.end_bit, s)
                        : stress_cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, kin, kout, n, segments, begin, end,
                                                                  c.begin_bit, c.end_bit, s);
  }
}

template <class Policy, class Key, class Value, bool PAIRS>
cudaError_t ringsweep_segmented(const stress_case& c, void* temp, std::size_t& bytes, const Key* kin, Key* kout,
                                const Value* vin, Value* vout, std::size_t segments, const int* begin,
                                const int* end, cudaStream_t s) {
  ringsweep::sort_options o;
  o.order = c.descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  o.begin_bit = c.begin_bit;
  o.end_bit = c.end_bit;
  if constexpr (PAIRS) {
    return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, kin, kout, vin, vout, c.n, segments, begin,
                                                           end, o, s);
  } else {
    return ringsweep::tuning::segmented_sort_keys<Policy>(temp, bytes, kin, kout, c.n, segments, begin, end, o, s);
  }
}

/// Segmented case: the layout is drawn here (c.n is its target), both outputs start as the same
/// bytes (neither library writes the gaps), then every position is compared.
template <class Key, bool PAIRS>
void launch_segmented(running_case& r) {
  using Value = u32;
  stress_case& c = r.c;
  cudaStream_t s = r.stream;
  const std::size_t tile = case_tile(c.key_type, PAIRS ? 4 : 0, c.tiny);
  // The tiny class's edge: the policy's SEGMENT_TINY_KEYS, capped by the network's lanes (32 x 16
  // keys for images of at most 32 bits, 32 x 8 above).
  const std::size_t network_max = ringsweep::key_traits<Key>::bits <= 32 ? 512 : 256;
  const std::size_t warp_max = std::min<std::size_t>(
      network_max, c.tiny ? std::size_t(ringsweep_test::policy_tiny::SEGMENT_TINY_KEYS)
                          : std::size_t(ringsweep::policy_defaults::SEGMENT_TINY_KEYS));
  const segment_layout l = draw_segments(c.seed, c.index, c.n, warp_max, tile);
  c.n = l.n;
  const std::size_t n = c.n, segments = l.begin.size();
  Key* kin = alloc<Key>(r, n);
  Key* kout = alloc<Key>(r, n);
  Key* kref = alloc<Key>(r, n);
  Value* vin = PAIRS ? alloc<Value>(r, n) : nullptr;
  Value* vout = PAIRS ? alloc<Value>(r, n) : nullptr;
  Value* vref = PAIRS ? alloc<Value>(r, n) : nullptr;
  int* begin = alloc<int>(r, segments);
  int* end = alloc<int>(r, segments);
  if (r.error != cudaSuccess) return;
  make_input(r, kin, kout, kref);
  if (r.error != cudaSuccess) return;
  // Pageable sources: each copy returns once its source is staged, so the vectors may go.
  STRESS_TRY(cudaMemcpyAsync(begin, l.begin.data(), segments * sizeof(int), cudaMemcpyHostToDevice, s));
  STRESS_TRY(cudaMemcpyAsync(end, l.end.data(), segments * sizeof(int), cudaMemcpyHostToDevice, s));
  if (n != 0) {
    STRESS_TRY(cudaMemsetAsync(kout, 0x5a, n * sizeof(Key), s));
    STRESS_TRY(cudaMemsetAsync(kref, 0x5a, n * sizeof(Key), s));
  }
  if constexpr (PAIRS) {
    STRESS_TRY(ringsweep_test::launch(generate_values<Value>, blocks_for(n), 256, s, ringsweep_test::serial, vin, n));
    if (n != 0) {
      STRESS_TRY(cudaMemsetAsync(vout, 0xa5, n * sizeof(Value), s));
      STRESS_TRY(cudaMemsetAsync(vref, 0xa5, n * sizeof(Value), s));
    }
  }
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    return c.tiny ? ringsweep_segmented<ringsweep_test::policy_tiny, Key, Value, PAIRS>(c, temp, bytes, kin, kout, vin,
                                                                                       vout, segments, begin, end, s)
                  : ringsweep::detail::with_device_policy([&](auto policy) {
                      return ringsweep_segmented<decltype(policy), Key, Value, PAIRS>(c, temp, bytes, kin, kout, vin,
                                                                                      vout, segments, begin, end, s);
                    });
  };
  STRESS_TRY(sort(nullptr));
  void* temp = alloc<unsigned char>(r, bytes);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(sort(temp));
  std::size_t cub_bytes = 0;
  STRESS_TRY((cub_segmented<Key, Value, PAIRS>(c, nullptr, cub_bytes, kin, kref, vin, vref, int(segments), begin, end,
                                               s)));
  void* cub_temp = alloc<unsigned char>(r, cub_bytes);
  if (r.error != cudaSuccess) return;
  STRESS_TRY((cub_segmented<Key, Value, PAIRS>(c, cub_temp, cub_bytes, kin, kref, vin, vref, int(segments), begin,
                                               end, s)));
  queue_compare<Key, Value>(r, kout, kref, PAIRS ? static_cast<const Value*>(vout) : nullptr, vref);
}

// ---- argsort against CUB's pairs sort of (keys, 0..n-1) ---------------------------------------

template <class Policy, class Key, class Index>
cudaError_t ringsweep_argsort(const stress_case& c, void* temp, std::size_t& bytes, const Key* kin, Key* kout,
                              Index* indices, cudaStream_t s) {
  ringsweep::sort_options o;
  o.order = c.descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  o.begin_bit = c.begin_bit;
  o.end_bit = c.end_bit;
  if (c.keys_out) return ringsweep::tuning::argsort<Policy>(temp, bytes, kin, kout, indices, c.n, o, s);
  return ringsweep::tuning::argsort<Policy>(temp, bytes, kin, nullptr, indices, c.n, o, s);
}

template <class Key, class Index>
void launch_argsort(running_case& r) {
  const stress_case& c = r.c;
  const std::size_t n = c.n;
  cudaStream_t s = r.stream;
  Key* kin = alloc<Key>(r, n);
  Key* kout = alloc<Key>(r, n);
  Key* kref = alloc<Key>(r, n);
  Index* seq = alloc<Index>(r, n);
  Index* indices = alloc<Index>(r, n);
  Index* iref = alloc<Index>(r, n);
  if (r.error != cudaSuccess) return;
  make_input(r, kin, kout, kref);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(ringsweep_test::launch(sequence<Index>, blocks_for(n), 256, s, ringsweep_test::serial, seq, n));
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    return c.tiny ? ringsweep_argsort<ringsweep_test::policy_tiny, Key, Index>(c, temp, bytes, kin, kout, indices, s)
                  : ringsweep::detail::with_device_policy([&](auto policy) {
                      return ringsweep_argsort<decltype(policy), Key, Index>(c, temp, bytes, kin, kout, indices, s);
                    });
  };
  STRESS_TRY(sort(nullptr));
  void* temp = alloc<unsigned char>(r, bytes);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(sort(temp));
  std::size_t cub_bytes = 0;
  STRESS_TRY((cub_sort<Key, Index, true>(c, nullptr, cub_bytes, kin, kref, seq, iref, s)));
  void* cub_temp = alloc<unsigned char>(r, cub_bytes);
  if (r.error != cudaSuccess) return;
  STRESS_TRY((cub_sort<Key, Index, true>(c, cub_temp, cub_bytes, kin, kref, seq, iref, s)));
  // Without sorted keys only the indices are compared (kref against itself).
  queue_compare<Key, Index>(r, c.keys_out ? kout : kref, kref, indices, iref);
}

// ---- host-resident sorts against std::stable_sort ----------------------------------------------

/// policy_tiny with one portion for every n the host cases draw: its temporary storage (which the
/// budget must hold besides two chunks) does not grow with n, so small budgets stream.
struct host_policy : ringsweep_test::policy_tiny {
  static constexpr int PORTION_TILES = 32768;
};

/// The smallest budget host_sort.cuh takes for n keys (each of two slots: a double buffer of 256
/// keys and values plus the device sort's temporary storage, with room for alignment).
template <class Policy, class Key, bool PAIRS>
std::size_t min_host_budget(std::size_t n, const ringsweep::sort_options& o) {
  std::size_t temp = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  ringsweep::double_buffer<u32> vb(nullptr, nullptr);
  if constexpr (PAIRS) {
    ringsweep::tuning::sort_pairs<Policy>(nullptr, temp, kb, vb, n, o);
  } else {
    ringsweep::tuning::sort_keys<Policy>(nullptr, temp, kb, n, o);
  }
  return 2 * (temp + 32768 + 512 * (sizeof(Key) + (PAIRS ? 4 : 0)));
}

/// Sorts on the calling thread (the host sort is synchronous) and sets *r.first itself.
template <class Key, bool PAIRS>
void run_host(running_case& r) {
  using bits = typename ringsweep::key_traits<Key>::bits_type;
  stress_case& c = r.c;
  const std::size_t n = c.n;
  *r.first = ~0ull;
  std::vector<Key> input(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bits b = bits(key_bits_at(i, c.seed ^ mix(c.index), c.distribution == sorted || c.distribution == reversed
                                                                  ? int(uniform) : c.distribution, c.param));
    std::memcpy(&input[i], &b, sizeof(Key));
  }
  ringsweep::sort_options o;
  o.order = c.descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  o.begin_bit = c.begin_bit;
  o.end_bit = c.end_bit;
  if (c.distribution == sorted || c.distribution == reversed) {
    const std::vector<std::size_t> order = ringsweep_test::reference_order(input, ringsweep::sort_options{});
    std::vector<Key> ordered(n);
    for (std::size_t i = 0; i < n; ++i) ordered[i] = input[order[c.distribution == reversed ? n - 1 - i : i]];
    input.swap(ordered);
  }
  Key* keys = nullptr;
  u32* values = nullptr;
  std::vector<Key> keys_v;
  std::vector<u32> values_v;
  if (c.pinned) {
    r.error = cudaMallocHost(reinterpret_cast<void**>(&keys), (n == 0 ? 1 : n) * sizeof(Key));
    if (r.error == cudaSuccess && PAIRS) r.error = cudaMallocHost(reinterpret_cast<void**>(&values), (n == 0 ? 1 : n) * 4);
    if (r.error != cudaSuccess) {
      r.failed_call = "cudaMallocHost";
      cudaFreeHost(keys);
      return;
    }
  } else {
    keys_v.resize(n == 0 ? 1 : n);
    values_v.resize(PAIRS ? (n == 0 ? 1 : n) : 0);
    keys = keys_v.data();
    values = PAIRS ? values_v.data() : nullptr;
  }
  if (n != 0) std::memcpy(keys, input.data(), n * sizeof(Key));
  if (PAIRS) {
    for (std::size_t i = 0; i < n; ++i) values[i] = u32(i);
  }
  // The drawn fraction of the data, but no less than the sort takes (then the data may fit).
  std::size_t least = 0;
  if (c.tiny) {
    least = min_host_budget<host_policy, Key, PAIRS>(n, o);
  } else {
    ringsweep::detail::with_device_policy([&](auto policy) {
      least = min_host_budget<decltype(policy), Key, PAIRS>(n, o);
      return cudaSuccess;
    });
  }
  c.budget = std::max(c.budget, least);
  ringsweep::host_sort_config cfg;
  cfg.device_bytes = c.budget;
  cudaError_t e;
  if constexpr (PAIRS) {
    e = c.tiny ? ringsweep::tuning::host_sort_pairs<host_policy>(keys, values, n, o, cfg)
               : ringsweep::host_sort_pairs(keys, values, n, o, cfg);
  } else {
    e = c.tiny ? ringsweep::tuning::host_sort_keys<host_policy>(keys, n, o, cfg)
               : ringsweep::host_sort_keys(keys, n, o, cfg);
  }
  if (e != cudaSuccess) {
    r.error = e;
    r.failed_call = "sort_*_host";
  } else {
    const std::vector<std::size_t> order = ringsweep_test::reference_order(input, o);
    for (std::size_t i = 0; i < n; ++i) {
      bits got, want;
      std::memcpy(&got, &keys[i], sizeof(Key));
      std::memcpy(&want, &input[order[i]], sizeof(Key));
      if (got != want || (PAIRS && values[i] != u32(order[i]))) {
        *r.first = i;
        break;
      }
    }
    r.keys_sorted = n;
  }
  if (c.pinned) {
    cudaFreeHost(keys);
    cudaFreeHost(values);
  }
}

template <int BYTES>
struct value_of_size;
template <> struct value_of_size<1> { using type = u8; };
template <> struct value_of_size<2> { using type = u16; };
template <> struct value_of_size<4> { using type = u32; };
template <> struct value_of_size<8> { using type = u64; };
template <> struct value_of_size<16> { using type = v16; };

/// Keys only, or pairs with the one value size this key type is paired with (see `value_bytes_of`):
/// every key type and every value size appear, at a third of the kernels of all combinations.
template <class Key, int VB>
void launch_key(running_case& r) {
  if (r.c.value_bytes == 0) return launch_case<Key, u8, false>(r);
  return launch_case<Key, typename value_of_size<VB>::type, true>(r);
}

// Value size paired with each key type (order of key_names): 1, 2, 4, 8 and 16 bytes each appear
// with keys of several sizes, integer and floating point.
constexpr int value_bytes_of[n_key_types] = {16, 1, 4, 2, 8, 4, 16, 4, 4, 8, 2, 1};

void launch_plain(running_case& r) {
#if defined(RINGSWEEP_VARIANT_SIMT)
  switch (r.c.key_type) {  // u32, u64, f32 only (see the top of this file)
    case 4: return launch_key<u32, value_bytes_of[4]>(r);
    case 6: return launch_key<u64, value_bytes_of[6]>(r);
    default: return launch_key<float, value_bytes_of[8]>(r);
  }
#else
  switch (r.c.key_type) {
    case 0: return launch_key<u8, value_bytes_of[0]>(r);
    case 1: return launch_key<std::int8_t, value_bytes_of[1]>(r);
    case 2: return launch_key<u16, value_bytes_of[2]>(r);
    case 3: return launch_key<std::int16_t, value_bytes_of[3]>(r);
    case 4: return launch_key<u32, value_bytes_of[4]>(r);
    case 5: return launch_key<std::int32_t, value_bytes_of[5]>(r);
    case 6: return launch_key<u64, value_bytes_of[6]>(r);
    case 7: return launch_key<std::int64_t, value_bytes_of[7]>(r);
    case 8: return launch_key<float, value_bytes_of[8]>(r);
    case 9: return launch_key<double, value_bytes_of[9]>(r);
    case 10: return launch_key<__half, value_bytes_of[10]>(r);
    default: return launch_key<__nv_bfloat16, value_bytes_of[11]>(r);
  }
#endif
}

// The key types of the other kinds (indices of key_names), few to keep the compile short:
// pipelined u32, i32, u64, f32 (u32 values); segmented and host u32, u64, f32 (u32 values with
// u32 and u64 keys); argsort u32 and u64 with u32 indices, f32 with i64 indices.
constexpr int pipelined_keys[] = {4, 5, 6, 8};
constexpr int other_keys[] = {4, 6, 8};

void launch_any(running_case& r) {
  const stress_case& c = r.c;
  const bool pairs = c.value_bytes != 0;
  switch (c.kind) {
    case pipelined:
      switch (c.key_type) {
        case 4: return pairs ? launch_case<u32, u32, true>(r) : launch_case<u32, u32, false>(r);
        case 5: return launch_case<std::int32_t, u32, false>(r);
        case 6: return pairs ? launch_case<u64, u32, true>(r) : launch_case<u64, u32, false>(r);
        default: return launch_case<float, u32, false>(r);
      }
    case segmented:
      switch (c.key_type) {
        case 4: return pairs ? launch_segmented<u32, true>(r) : launch_segmented<u32, false>(r);
        case 6: return pairs ? launch_segmented<u64, true>(r) : launch_segmented<u64, false>(r);
        default: return launch_segmented<float, false>(r);
      }
    case argsort_kind:
      switch (c.key_type) {
        case 4: return launch_argsort<u32, u32>(r);
        case 6: return launch_argsort<u64, u32>(r);
        default: return launch_argsort<float, std::int64_t>(r);
      }
    case host:
      switch (c.key_type) {
        case 4: return pairs ? run_host<u32, true>(r) : run_host<u32, false>(r);
        case 6: return pairs ? run_host<u64, true>(r) : run_host<u64, false>(r);
        default: return run_host<float, false>(r);
      }
    default: return launch_plain(r);
  }
}

const int key_bytes_of[n_key_types] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 2, 2};

/// Tile of the device's policy (or policy_tiny, or the tune pipelined policy) for a case's key and
/// value sizes.
std::size_t case_tile(int key_type, int value_bytes, bool tiny, bool pipelined_policy) {
  std::size_t t = 0;
  const auto get = [&](auto policy) {
    using P = decltype(policy);
    const bool fl = key_type >= 8;
    const int kb = key_bytes_of[key_type];
    // Every (key size, value size, float) the cases use; tile_shape needs them at compile time.
    const ringsweep::sort_types st{kb, value_bytes, fl};
    const ringsweep::onesweep_shape shape = P::onesweep(st);
    t = std::size_t(shape.threads) * std::size_t(shape.items);
    return cudaSuccess;
  };
  if (pipelined_policy) {
    get(tune::sm90_pipelined{});
  } else if (tiny) {
    get(ringsweep_test::policy_tiny{});
  } else {
    REQUIRE_CUDA(ringsweep::detail::with_device_policy(get));
  }
  return t;
}

/// `kinds`: a bit per allowed kind (never 0).
stress_case draw(u64 seed, u64 index, int max_log2, unsigned kinds) {
  u64 state = mix(seed * 0x100000001b3ull + index);
  const auto next = [&](u64 bound) {  // uniform in [0, bound)
    state = mix(state);
    return bound == 0 ? 0 : state % bound;
  };
  stress_case c;
  c.seed = seed;
  c.index = index;
  int weights = 0;
  for (int k = 0; k < n_kinds; ++k) weights += (kinds >> k & 1u) ? kind_weights[k] : 0;
  int pick_kind = int(next(u64(weights)));
  for (int k = 0; k < n_kinds; ++k) {
    if (!(kinds >> k & 1u)) continue;
    if (pick_kind < kind_weights[k]) {
      c.kind = k;
      break;
    }
    pick_kind -= kind_weights[k];
  }
  const bool narrow_pairs = next(2) == 1;  // u32 values where a kind pairs u32 or u64 keys
  switch (c.kind) {
    case pipelined:
      c.key_type = pipelined_keys[next(4)];
      c.value_bytes = (c.key_type == 4 || c.key_type == 6) && narrow_pairs ? 4 : 0;
      break;
    case segmented:
    case host:
      c.key_type = other_keys[next(3)];
      c.value_bytes = (c.key_type == 4 || c.key_type == 6) && narrow_pairs ? 4 : 0;
      break;
    case argsort_kind:
      c.key_type = other_keys[next(3)];
      c.value_bytes = c.key_type == 8 ? 8 : 4;  // the index type (see launch_any)
      c.keys_out = narrow_pairs;
      break;
    default:
      c.key_type = int(next(n_key_types));
#if defined(RINGSWEEP_VARIANT_SIMT)
      c.key_type = other_keys[c.key_type % 3];
#endif
      c.value_bytes = next(3) == 0 ? 0 : value_bytes_of[c.key_type];
      break;
  }
  c.descending = next(2) == 1;
  c.api_form = next(10) < 7 ? in_out : double_buf;
  c.tiny = c.kind == host ? next(8) != 0 : c.kind == segmented ? next(10) < 3 : c.kind != pipelined && next(10) < 2;
  const int bits = 8 * key_bytes_of[c.key_type];
  if (next(10) < 7) {
    c.begin_bit = 0;
    c.end_bit = bits;
  } else {
    c.begin_bit = int(next(u64(bits) + 1));
    c.end_bit = c.begin_bit + int(next(u64(bits - c.begin_bit) + 1));
  }
  // CUB's segmented and pairs sorts of an empty window are not ringsweep's copy: windows of >= 1 bit.
  if ((c.kind == segmented || c.kind == argsort_kind) && c.begin_bit == c.end_bit) {
    c.begin_bit = 0;
    c.end_bit = bits;
  }
  c.distribution = int(next(n_dists));
  c.param = c.distribution == low_entropy ? 2 + next(3) : c.distribution == few_distinct ? 2 + next(63)
            : c.distribution == narrow_range                                             ? 1 + next(1000)
                                                                                          : 0;
  const std::size_t max_n = std::size_t(1) << max_log2;
  const std::size_t item_bytes = std::size_t(key_bytes_of[c.key_type] + (c.kind == argsort_kind ? 0 : c.value_bytes));
  if (c.kind == segmented) {  // the target; draw_segments decides n
    const int l = int(next(u64(std::min(max_log2, c.tiny ? 16 : 22)) + 1));
    c.n = std::min(max_n, (std::size_t(1) << l) + next(std::size_t(1) << l));
    return c;
  }
  if (c.kind == host) {
    // policy_tiny (one portion: host_policy): 2^6 to 2^21 keys through 1/8, 1/16, 1/32 or 1/64 of
    // the data; the device's policy: 2^20 to 2^23 keys through 1/8 of the data. run_host raises the
    // budget to what the sort takes (two chunks of 256 keys and the temporary storage: about 4 MiB
    // for the device's policy), so the larger ones stream and the smaller fit.
    const int l = c.tiny ? 6 + int(next(15)) : 20 + int(next(3));
    c.n = std::min(max_n, (std::size_t(1) << l) + next(std::size_t(1) << l));
    const std::size_t div = c.tiny ? std::size_t(8) << (2 * next(2) + next(2)) : 8;  // 8, 16, 32 or 64
    c.budget = c.n * item_bytes / div;
    c.pinned = next(2) == 1;
    return c;
  }
  // n: edges of tiles, of the status ring (STATUS_SLOTS tiles) and of portions, or log-uniform.
  const std::size_t tile = case_tile(c.key_type, c.value_bytes, c.tiny, c.kind == pipelined);
  using P = ringsweep::policy_defaults;
  const std::size_t ring = tile * std::size_t(c.kind == pipelined ? tune::sm90_pipelined::STATUS_SLOTS
                                              : c.tiny            ? ringsweep_test::policy_tiny::STATUS_SLOTS
                                                                  : P::STATUS_SLOTS);
  const std::size_t portion = tile * std::size_t(c.tiny ? ringsweep_test::policy_tiny::PORTION_TILES
                                                        : P::PORTION_TILES);
  const long long delta = (long long)next(3) - 1;  // -1, 0, +1
  const u64 pick = next(100);
  std::size_t n;
  if (pick < 10) {
    n = next(65);
  } else if (pick < 35) {
    n = std::size_t(std::max<long long>(0, (long long)(tile * (1 + next(8))) + delta));
  } else if (pick < 50) {
    n = std::size_t(
        std::max<long long>(0, (long long)(ring * (1 + next(3))) + delta + (next(4) == 0 ? (long long)tile : 0)));
  } else if (pick < 60 && portion + 1 <= max_n) {  // the shipped policies' portions are past 2^26
    n = std::size_t(std::max<long long>(0, (long long)(portion * (1 + next(2))) + delta));
  } else {
    const int l = int(next(u64(max_log2) + 1));
    n = (std::size_t(1) << l) + next(std::size_t(1) << l);
  }
  if (c.tiny) n = std::min<std::size_t>(n, 50000);
  n = std::min(n, max_n);
  // At most 1 GiB of keys and values per array (four cases run at once).
  n = std::min(n, (std::size_t(1) << 30) / std::size_t(key_bytes_of[c.key_type] + c.value_bytes));
  c.n = n;
  return c;
}

}  // namespace

TEST_CASE("differential stress against cub::DeviceRadixSort", "[stress]") {
  const u64 seed = env_u64("RINGSWEEP_STRESS_SEED", ringsweep_test::catch_seed());
  const double budget_s = double(env_u64("RINGSWEEP_STRESS_SECONDS", 20));
  const u64 max_cases = env_u64("RINGSWEEP_STRESS_CASES", ~0ull);
  const int max_log2 = int(env_u64("RINGSWEEP_STRESS_MAX_LOG2", 26));
  const bool replay = std::getenv("RINGSWEEP_STRESS_CASE") != nullptr;
  const u64 first_case = env_u64("RINGSWEEP_STRESS_CASE", 0);
  constexpr int streams = 4;
  // The kinds to draw; the pipelined tune policy is built for sm_90 only.
  unsigned kinds = 0;
  const char* kinds_env = std::getenv("RINGSWEEP_STRESS_KINDS");
  const std::string kinds_list = kinds_env != nullptr && *kinds_env != 0 ? "," + std::string(kinds_env) + "," : "";
  for (int k = 0; k < n_kinds; ++k) {
    if (kinds_list.empty() || kinds_list.find("," + std::string(kind_names[k]) + ",") != std::string::npos)
      kinds |= 1u << k;
  }
  int device = 0;
  cudaDeviceProp prop;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaGetDeviceProperties(&prop, device));
  if (prop.major != 9 && (kinds >> pipelined & 1u)) {
    std::printf("stress: no pipelined cases (tune::sm90_pipelined needs sm_90; this is sm_%d%d)\n", prop.major,
                prop.minor);
    kinds &= ~(1u << pipelined);
  }
  if (kinds == 0) {
    std::printf("stress: RINGSWEEP_STRESS_KINDS=%s names no kind this device runs; drawing plain sorts\n",
                kinds_env);
    kinds = 1u << plain;
  }

  std::vector<cudaStream_t> s(streams);
  for (auto& st : s) REQUIRE_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  unsigned long long* pinned = nullptr;
  REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), streams * sizeof(unsigned long long)));

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  u64 next_case = first_case, done = 0, failures = 0;
  std::size_t keys_total = 0;
  std::vector<u64> per_key_type(n_key_types, 0), per_kind(n_kinds, 0);
  while (done < max_cases && (replay ? done == 0 : elapsed() < budget_s)) {
    std::vector<running_case> batch(replay ? 1 : streams);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      batch[i].c = draw(seed, next_case++, max_log2, kinds);
      batch[i].stream = s[i];
      batch[i].first = pinned + i;
      launch_any(batch[i]);
    }
    for (auto& r : batch) {
      cudaError_t e = cudaStreamSynchronize(r.stream);
      for (void* p : r.allocations) cudaFreeAsync(p, r.stream);
      const cudaError_t f = cudaStreamSynchronize(r.stream);
      if (e == cudaSuccess) e = f;
      ++done;
      ++per_key_type[std::size_t(r.c.key_type)];
      ++per_kind[std::size_t(r.c.kind)];
      keys_total += r.keys_sorted;
      const bool ok = r.error == cudaSuccess && e == cudaSuccess && *r.first == ~0ull;
      if (!ok) {
        ++failures;
        std::printf("FAILED %s\n  %s%s%s, first mismatch at %lld\n", r.c.describe().c_str(),
                    r.failed_call ? r.failed_call : "", r.failed_call ? " failed: " : "",
                    cudaGetErrorString(r.error != cudaSuccess ? r.error : e),
                    *r.first == ~0ull ? -1ll : (long long)*r.first);
      }
      if (e != cudaSuccess && e != cudaErrorMemoryAllocation) break;  // the context is gone
    }
    if (failures >= 10) break;
  }
  std::printf("stress: seed %llu, %llu cases (%zu keys) in %.1f s on %d streams, %llu failed; by key type:",
              (unsigned long long)seed, (unsigned long long)done, keys_total, elapsed(), streams,
              (unsigned long long)failures);
  for (int k = 0; k < n_key_types; ++k)
    std::printf(" %s %llu", key_names[k], (unsigned long long)per_key_type[std::size_t(k)]);
  std::printf("\nstress: by kind:");
  for (int k = 0; k < n_kinds; ++k) std::printf(" %s %llu", kind_names[k], (unsigned long long)per_kind[std::size_t(k)]);
  std::printf("\n");
  cudaFreeHost(pinned);
  for (auto& st : s) cudaStreamDestroy(st);
  CHECK(failures == 0u);
  CHECK(done > 0u);
}
