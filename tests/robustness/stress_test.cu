// Differential stress test (GPU only, issue #18): thousands of random sorts, each compared bit for
// bit with cub::DeviceRadixSort on the same GPU. Every case is drawn from (seed, case index) alone:
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
//   RINGSWEEP_STRESS_SECONDS   time budget (default 20; ctest's run)            e.g. 300 on a lent GPU
//   RINGSWEEP_STRESS_CASES     stop after this many cases (default: budget only)
//   RINGSWEEP_STRESS_SEED      seed (default: Catch's --rng-seed)
//   RINGSWEEP_STRESS_MAX_LOG2  largest n = 2^this (default 26)
//   RINGSWEEP_STRESS_CASE      replay one case (printed with every failure) and stop
#include <catch2/catch.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "test_policies.cuh"
#include "test_util.cuh"

namespace {

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

  std::string describe() const {
    std::ostringstream s;
    s << "case " << index << " (replay: RINGSWEEP_STRESS_SEED=" << seed << " RINGSWEEP_STRESS_CASE=" << index
      << "): " << key_names[key_type] << " keys, " << (value_bytes ? std::to_string(value_bytes) + "-byte values"
                                                                    : std::string("keys only"))
      << ", n " << n << ", " << (descending ? "descending" : "ascending") << ", bits [" << begin_bit << ", "
      << end_bit << "), " << dist_names[distribution] << " (" << param << "), "
      << (api_form == in_out ? "in/out" : "double buffer") << ", " << (tiny ? "policy_tiny" : "device policy");
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

template <class Bits>
__global__ void generate_keys(Bits* keys, std::size_t n, u64 seed, int d, u64 param) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const u64 h = mix(seed ^ mix(i));
    u64 b = h;
    switch (d) {
      case low_entropy:
        b = h & mix(h + 1) & (param >= 3 ? mix(h + 2) : ~u64(0)) & (param >= 4 ? mix(h + 3) : ~u64(0));
        break;
      case few_distinct: b = mix(seed + 7 + h % param); break;
      case narrow_range: b = mix(seed + 9) + h % param; break;
      case all_equal: b = mix(seed + 11); break;
      default: break;
    }
    keys[i] = Bits(b);
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
               ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n, c.begin_bit,
                                                           c.end_bit, s)
               : cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, c.begin_bit, c.end_bit, s);
  } else {
    return c.descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, c.begin_bit,
                                                                   c.end_bit, s)
                        : cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, c.begin_bit, c.end_bit, s);
  }
}

/// Queues the whole case on its stream: input, ringsweep's sort, CUB's sort, the comparison.
template <class Key, class Value, bool PAIRS>
void launch_case(running_case& r) {
  using bits = typename ringsweep::key_traits<Key>::bits_type;
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

  // Input keys; sorted and reversed ones are uniform keys sorted by CUB first.
  const bool presort = c.distribution == sorted || c.distribution == reversed;
  STRESS_TRY(ringsweep_test::launch(generate_keys<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                    reinterpret_cast<bits*>(presort ? kout : kin), n, c.seed ^ mix(c.index),
                                    presort ? int(uniform) : c.distribution, c.param));
  if (presort) {
    std::size_t bytes = 0;
    STRESS_TRY(cub::DeviceRadixSort::SortKeys(nullptr, bytes, kout, kref, std::int64_t(n), 0, int(sizeof(Key) * 8), s));
    void* temp = alloc<unsigned char>(r, bytes);
    if (r.error != cudaSuccess) return;
    STRESS_TRY(cub::DeviceRadixSort::SortKeys(temp, bytes, kout, kref, std::int64_t(n), 0, int(sizeof(Key) * 8), s));
    STRESS_TRY(ringsweep_test::launch(copy_keys<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                      reinterpret_cast<const bits*>(kref), reinterpret_cast<bits*>(kin), n,
                                      c.distribution == reversed));
  }
  // Zeros in descending float sorts on a partial window: see the top of this file.
  const bool partial_window = c.begin_bit < c.end_bit && (c.begin_bit > 0 || c.end_bit < int(8 * sizeof(Key)));
  if (!ringsweep::key_traits<Key>::image_is_xor && c.descending && partial_window) {  // float keys
    STRESS_TRY(ringsweep_test::launch(replace_zeros<bits>, blocks_for(n), 256, s, ringsweep_test::serial,
                                      reinterpret_cast<bits*>(kin), n));
  }
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
  *r.first = ~0ull;
  unsigned long long* d_first = alloc<unsigned long long>(r, 1);
  if (r.error != cudaSuccess) return;
  STRESS_TRY(cudaMemcpyAsync(d_first, r.first, sizeof(u64), cudaMemcpyHostToDevice, s));
  STRESS_TRY(
      ringsweep_test::launch(compare<bits, Value>, blocks_for(n), 256, s, ringsweep_test::serial,
                             reinterpret_cast<const bits*>(got_keys), reinterpret_cast<const bits*>(want_keys),
                             PAIRS ? static_cast<const Value*>(got_values) : nullptr, want_values, n, d_first));
  STRESS_TRY(cudaMemcpyAsync(r.first, d_first, sizeof(u64), cudaMemcpyDeviceToHost, s));
  r.keys_sorted = n;
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

void launch_any(running_case& r) {
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
}

const int key_bytes_of[n_key_types] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 2, 2};

/// Tile of the device's policy (or policy_tiny) for a case's key and value sizes.
std::size_t case_tile(int key_type, int value_bytes, bool tiny) {
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
  if (tiny) {
    get(ringsweep_test::policy_tiny{});
  } else {
    REQUIRE_CUDA(ringsweep::detail::with_device_policy(get));
  }
  return t;
}

stress_case draw(u64 seed, u64 index, int max_log2) {
  u64 state = mix(seed * 0x100000001b3ull + index);
  const auto next = [&](u64 bound) {  // uniform in [0, bound)
    state = mix(state);
    return bound == 0 ? 0 : state % bound;
  };
  stress_case c;
  c.seed = seed;
  c.index = index;
  c.key_type = int(next(n_key_types));
  c.value_bytes = next(3) == 0 ? 0 : value_bytes_of[c.key_type];
  c.descending = next(2) == 1;
  c.api_form = next(10) < 7 ? in_out : double_buf;
  c.tiny = next(10) < 2;
  const int bits = 8 * key_bytes_of[c.key_type];
  if (next(10) < 7) {
    c.begin_bit = 0;
    c.end_bit = bits;
  } else {
    c.begin_bit = int(next(u64(bits) + 1));
    c.end_bit = c.begin_bit + int(next(u64(bits - c.begin_bit) + 1));
  }
  c.distribution = int(next(n_dists));
  c.param = c.distribution == low_entropy ? 2 + next(3) : c.distribution == few_distinct ? 2 + next(63)
            : c.distribution == narrow_range                                             ? 1 + next(1000)
                                                                                          : 0;
  // n: edges of tiles, of the status ring (STATUS_SLOTS tiles) and of portions, or log-uniform.
  const std::size_t max_n = std::size_t(1) << max_log2;
  const std::size_t tile = case_tile(c.key_type, c.value_bytes, c.tiny);
  using P = ringsweep::policy_defaults;
  const std::size_t ring = tile * std::size_t(c.tiny ? ringsweep_test::policy_tiny::STATUS_SLOTS : P::STATUS_SLOTS);
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
  const std::size_t per_key = std::size_t(key_bytes_of[c.key_type] + c.value_bytes);
  n = std::min(n, (std::size_t(1) << 30) / per_key);
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

  std::vector<cudaStream_t> s(streams);
  for (auto& st : s) REQUIRE_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  unsigned long long* pinned = nullptr;
  REQUIRE_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), streams * sizeof(unsigned long long)));

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  u64 next_case = first_case, done = 0, failures = 0;
  std::size_t keys_total = 0;
  std::vector<u64> per_key_type(n_key_types, 0);
  while (done < max_cases && (replay ? done == 0 : elapsed() < budget_s)) {
    std::vector<running_case> batch(replay ? 1 : streams);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      batch[i].c = draw(seed, next_case++, max_log2);
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
  std::printf("\n");
  cudaFreeHost(pinned);
  for (auto& st : s) cudaStreamDestroy(st);
  CHECK(failures == 0u);
  CHECK(done > 0u);
}
