// ringsweep_top_k_bench: top-k (issue #36) on a GPU, against what a program does without it.
//
// Rows (Google Benchmark, manual time from CUDA events around one call; the L2 flushed before each):
//   top_k/<u32|f32|u64>/k:<1|32|1024|65536>/n:<n>/<ringsweep|sort_copy|cub>
//       the k largest of n random keys: ringsweep::top_k_keys; a full ringsweep::sort_keys
//       (descending) plus a copy of the first k (`sort_copy`); cub::DeviceTopK::MaxKeys (unsorted,
//       non-deterministic; only where CCCL_VERSION >= 3002000, i.e. CCCL 3.2 or newer)
//   segmented_top_k/u32/row:<4096|65536|131072>/k:<8|64>/n:<n>/<ringsweep|segsort_copy|cub_batched>
//       rows of one length (131072: a language model's vocabulary, n / row of them a sampling
//       batch): ringsweep::segmented_top_k_keys; ringsweep::segmented_sort_keys plus a kernel
//       copying each row's first k (`segsort_copy`); cub::DeviceBatchedTopK::MaxKeys (unsorted,
//       non-deterministic; only where CCCL_VERSION >= 3005000, e.g. built against the cuda-cccl
//       wheel's headers: RINGSWEEP_BENCH_CCCL_INCLUDE_DIR, which scripts/gpu_session.sh stage sets)
//   batched_top_k/<f32|bf16>/rows:<1|8|64|256>/row:<32768|131072|262144>/k:<1|50|1024>/<ringsweep|segsort_copy|cub_batched>
//       a language model's sampling: a batch of rows of logits (uniform in [-16, 16)), the k largest
//       of each with their positions: ringsweep::segmented_top_k_indices over rows of one length
//       (keys and 4-byte positions, sorted, stable); ringsweep::segmented_sort_pairs of the rows
//       with their positions plus a copy of each row's first k (`segsort_copy`);
//       cub::DeviceBatchedTopK::MaxKeys (keys only, unsorted, non-deterministic; f32, k <= 64,
//       CCCL >= 3.5). torch.topk(sorted=True) on the same shapes: bench/top_k_torch.py.
// n runs over 2^20 .. 2^28 (--rs_min_log2 / --rs_max_log2; not the batched rows). Every row checks its own output once,
// before timing, against a full sort of the same keys (the k keys bit for bit; CUB's unsorted
// ones after sorting them), and stops the program on a mismatch.
//
//     ringsweep_top_k_bench --benchmark_filter='top_k/u32/k:32/'
#include <benchmark/benchmark.h>

#include <cuda/std/tuple>
#include <ringsweep/ringsweep.cuh>

#if defined(CCCL_VERSION) && CCCL_VERSION >= 3002000
#include <cub/device/device_topk.cuh>
#define RS_BENCH_CUB_TOPK 1
#endif
#if defined(CCCL_VERSION) && CCCL_VERSION >= 3005000
#include <cub/device/device_batched_topk.cuh>
#include <cuda/iterator>
#define RS_BENCH_CUB_BATCHED_TOPK 1
#endif

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/keygen.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using ringsweep::detail::launch;
constexpr auto serial = ringsweep::detail::launch_order::serial;

#define BENCH_CHECK(call)                                                                               \
  do {                                                                                                  \
    const cudaError_t bench_e_ = (call);                                                                \
    if (bench_e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(bench_e_)); \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

struct settings {
  int min_log2 = 20;
  int max_log2 = 28;
};
settings g_settings;
std::size_t g_free_bytes = 0;

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

template <class T> const char* type_name();
template <> const char* type_name<u32>() { return "u32"; }
template <> const char* type_name<float>() { return "f32"; }
template <> const char* type_name<u64>() { return "u64"; }
template <> const char* type_name<__nv_bfloat16>() { return "bf16"; }

/// Logits: uniform in [-16, 16) on a grid of 2^-16 (bf16 rounds them: many ties).
template <class T>
__global__ void logits_kernel(T* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float x = float(bench::random_bits(seed, i, 1) & 0x1fffffu) * (1.0f / 65536.0f) - 16.0f;
    if constexpr (std::is_same<T, float>::value) {
      out[i] = x;
    } else {
      out[i] = __float2bfloat16(x);
    }
  }
}

__global__ void iota_kernel(int* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = int(i);
  }
}

template <class T>
__global__ void fill_kernel(T* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = bench::random_value<T>(seed, i, 1);
  }
}

/// Row r's first k keys of `sorted` (rows of `row` keys) to `out[r * k ...]`.
template <class T>
__global__ void row_copy_kernel(const T* sorted, T* out, std::size_t rows, std::size_t row, std::size_t k) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < rows * k;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = sorted[(i / k) * row + i % k];
  }
}

template <class T>
__global__ void row_offsets_kernel(T* begin, std::size_t rows, std::size_t row) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i <= rows;
       i += std::size_t(gridDim.x) * blockDim.x) {
    begin[i] = T(i * row);
  }
}

/// A buffer twice the L2 size, overwritten before each timed call so that no input stays cached.
struct l2_flusher {
  void* p = nullptr;
  std::size_t bytes = 0;
  void flush(cudaStream_t s) {
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

template <class Once>
void time_loop(benchmark::State& state, cudaStream_t s, Once&& once) {
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
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
  }
  BENCH_CHECK(cudaEventDestroy(start));
  BENCH_CHECK(cudaEventDestroy(stop));
}

/// Host copies of `count` device keys.
template <class T>
std::vector<T> download(const T* d, std::size_t count) {
  std::vector<T> h(count);
  BENCH_CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/// The order image with -0.0 as +0.0 (CUB's top-k may return either zero where they tie).
template <class T>
u64 image(T k) {
  using traits = ringsweep::key_traits<T>;
  if constexpr (std::is_floating_point<T>::value) {
    if (k == T(0)) k = T(0);
  }
  return u64(traits::to_ordered(traits::to_bits(k)));
}

/// Whether `got` and `want` hold the same k keys in any order, compared by image (CUB's top-k is
/// unsorted and may return either zero where they tie).
template <class T>
bool same_images(const T* got, const T* want, std::size_t k) {
  std::vector<u64> a, b;
  for (std::size_t i = 0; i < k; ++i) a.push_back(image(got[i])), b.push_back(image(want[i]));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

enum class method { ringsweep, sort_copy, cub, segsort_copy, cub_batched };
const char* name_of(method m) {
  switch (m) {
    case method::ringsweep: return "ringsweep";
    case method::sort_copy: return "sort_copy";
    case method::cub: return "cub";
    case method::segsort_copy: return "segsort_copy";
    case method::cub_batched: return "cub_batched";
  }
  return "?";
}

/// A checked row's timed loop (time_loop), then its counters: the input's bytes per call, the
/// temporary storage, the method.
template <class Once>
void time_row(benchmark::State& state, cudaStream_t s, std::size_t input_bytes, std::size_t temp_bytes, method m,
              Once&& once) {
  time_loop(state, s, once);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(input_bytes));
  state.counters["temp_MiB"] = double(temp_bytes) / 1048576.0;
  state.SetLabel(name_of(m));
}

template <class Key>
void bm_top_k(benchmark::State& state, std::size_t n, std::size_t k, method m) {
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreate(&s));
  device_buffer in(n * sizeof(Key)), out(k * sizeof(Key)), sorted(n * sizeof(Key));
  BENCH_CHECK(launch(fill_kernel<Key>, 1024, 256, s, serial, in.as<Key>(), n, std::uint64_t(n * 31 + k)));
  const ringsweep::sort_options desc{ringsweep::sort_order::descending};
  const auto call = [&](void* temp, std::size_t& bytes) -> cudaError_t {
    switch (m) {
      case method::ringsweep:
        return ringsweep::top_k_keys(temp, bytes, in.as<const Key>(), out.as<Key>(), n, k, desc, s);
      case method::sort_copy: {
        const cudaError_t e = ringsweep::sort_keys(temp, bytes, in.as<const Key>(), sorted.as<Key>(), n, desc, s);
        if (e != cudaSuccess || temp == nullptr) return e;
        return cudaMemcpyAsync(out.p, sorted.p, k * sizeof(Key), cudaMemcpyDeviceToDevice, s);
      }
      case method::cub:
#ifdef RS_BENCH_CUB_TOPK
      {
        const auto env = cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                  cuda::execution::output_ordering::unsorted);
        return cub::DeviceTopK::MaxKeys(temp, bytes, in.as<const Key>(), out.as<Key>(), n, k, env);
      }
#else
        return cudaErrorNotSupported;
#endif
      case method::segsort_copy:
      case method::cub_batched:
        break;  // the segmented rows' methods
    }
    return cudaErrorInvalidValue;
  };
  std::size_t bytes = 0;
  BENCH_CHECK(call(nullptr, bytes));
  device_buffer temp(bytes);
  // The check, once: the first k of a full descending sort, bit for bit (CUB: as a set of images).
  BENCH_CHECK(call(temp.p, bytes));
  {
    std::size_t sort_bytes = 0;
    BENCH_CHECK(ringsweep::sort_keys(nullptr, sort_bytes, in.as<const Key>(), sorted.as<Key>(), n, desc, s));
    device_buffer sort_temp(sort_bytes);
    BENCH_CHECK(ringsweep::sort_keys(sort_temp.p, sort_bytes, in.as<const Key>(), sorted.as<Key>(), n, desc, s));
    BENCH_CHECK(cudaStreamSynchronize(s));
    const auto want = download(sorted.as<Key>(), k);
    auto got = download(out.as<Key>(), k);
    bool ok = true;
    if (m == method::cub) {
      ok = same_images(got.data(), want.data(), k);
    } else {
      ok = std::memcmp(got.data(), want.data(), k * sizeof(Key)) == 0;
    }
    if (!ok) {
      std::fprintf(stderr, "ringsweep_top_k_bench: %s top-k of %zu keys, k %zu: wrong result\n", name_of(m), n, k);
      std::exit(1);
    }
  }
  time_row(state, s, n * sizeof(Key), bytes, m, [&] { return call(temp.p, bytes); });
  BENCH_CHECK(cudaStreamDestroy(s));
}

#ifdef RS_BENCH_CUB_BATCHED_TOPK
/// Row `i`'s first key (`in`) or first output slot (`out`): DeviceBatchedTopK takes an iterator
/// whose `i`-th element is segment `i`'s own iterator.
template <class T>
struct row_start {
  T* base;
  std::size_t stride;
  __host__ __device__ T* operator()(std::int64_t i) const { return base + i * stride; }
};

/// cub::DeviceBatchedTopK::MaxKeys over `rows` rows of `Row` keys, the k largest of each (k <= 64),
/// unsorted and not deterministic (its fastest requirements; ringsweep's rows are sorted and stable).
template <int Row, class Key = u32>
cudaError_t cub_batched_top_k(void* temp, std::size_t& bytes, const Key* in, Key* out, std::size_t rows,
                              std::size_t k, cudaStream_t s) {
  const auto keys_in = cuda::make_transform_iterator(cuda::counting_iterator<std::int64_t>(0),
                                                     row_start<const Key>{in, std::size_t(Row)});
  const auto keys_out = cuda::make_transform_iterator(cuda::counting_iterator<std::int64_t>(0), row_start<Key>{out, k});
  const auto env = cuda::std::execution::env{
      cuda::execution::require(cuda::execution::determinism::not_guaranteed, cuda::execution::tie_break::unspecified,
                               cuda::execution::output_ordering::unsorted),
      cuda::stream_ref{s}};
  return cub::DeviceBatchedTopK::MaxKeys(temp, bytes, keys_in, keys_out, cuda::args::constant<Row>{},
                                         cuda::args::immediate{int(k), cuda::args::bounds<1, 64>()}, int(rows), env);
}
#endif

void bm_segmented_top_k(benchmark::State& state, std::size_t n, std::size_t row, std::size_t k, method m) {
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreate(&s));
  const std::size_t rows = n / row;
  device_buffer in(n * sizeof(u32)), out(rows * k * sizeof(u32)), sorted(n * sizeof(u32)),
      offsets((rows + 1) * sizeof(int));
  BENCH_CHECK(launch(fill_kernel<u32>, 1024, 256, s, serial, in.as<u32>(), n, std::uint64_t(n * 7 + row + k)));
  BENCH_CHECK(launch(row_offsets_kernel<int>, 1024, 256, s, serial, offsets.as<int>(), rows, row));
  const int* begin = offsets.as<const int>();
  const ringsweep::sort_options desc{ringsweep::sort_order::descending};
  const auto call = [&](void* temp, std::size_t& bytes) -> cudaError_t {
    if (m == method::ringsweep) {
      return ringsweep::segmented_top_k_keys(temp, bytes, in.as<const u32>(), out.as<u32>(), n, rows, begin,
                                             begin + 1, k, desc, s);
    }
    if (m == method::cub_batched) {
#ifdef RS_BENCH_CUB_BATCHED_TOPK
      switch (row) {
        case 4096: return cub_batched_top_k<4096>(temp, bytes, in.as<const u32>(), out.as<u32>(), rows, k, s);
        case 65536: return cub_batched_top_k<65536>(temp, bytes, in.as<const u32>(), out.as<u32>(), rows, k, s);
        case 131072: return cub_batched_top_k<131072>(temp, bytes, in.as<const u32>(), out.as<u32>(), rows, k, s);
        default: return cudaErrorNotSupported;
      }
#else
      return cudaErrorNotSupported;
#endif
    }
    const cudaError_t e = ringsweep::segmented_sort_keys(temp, bytes, in.as<const u32>(), sorted.as<u32>(), n, rows,
                                                         begin, begin + 1, desc, s);
    if (e != cudaSuccess || temp == nullptr) return e;
    return launch(row_copy_kernel<u32>, 1024, 256, s, serial, sorted.as<const u32>(), out.as<u32>(), rows, row, k);
  };
  std::size_t bytes = 0;
  BENCH_CHECK(call(nullptr, bytes));
  device_buffer temp(bytes);
  BENCH_CHECK(call(temp.p, bytes));
  {
    // The check, once: each row's first k of a segmented sort, bit for bit (CUB's unsorted rows
    // after sorting each).
    device_buffer want_rows(rows * k * sizeof(u32));
    std::size_t sort_bytes = 0;
    BENCH_CHECK(ringsweep::segmented_sort_keys(nullptr, sort_bytes, in.as<const u32>(), sorted.as<u32>(), n, rows,
                                               begin, begin + 1, desc, s));
    device_buffer sort_temp(sort_bytes);
    BENCH_CHECK(ringsweep::segmented_sort_keys(sort_temp.p, sort_bytes, in.as<const u32>(), sorted.as<u32>(), n,
                                               rows, begin, begin + 1, desc, s));
    BENCH_CHECK(launch(row_copy_kernel<u32>, 1024, 256, s, serial, sorted.as<const u32>(), want_rows.as<u32>(), rows,
                       row, k));
    BENCH_CHECK(cudaStreamSynchronize(s));
    std::vector<u32> got = download(out.as<u32>(), rows * k);
    if (m == method::cub_batched) {
      for (std::size_t r = 0; r < rows; ++r) std::sort(got.begin() + r * k, got.begin() + (r + 1) * k, std::greater<u32>());
    }
    if (got != download(want_rows.as<u32>(), rows * k)) {
      std::fprintf(stderr, "ringsweep_top_k_bench: %s segmented top-k, rows of %zu, k %zu: wrong result\n",
                   name_of(m), row, k);
      std::exit(1);
    }
  }
  time_row(state, s, n * sizeof(u32), bytes, m, [&] { return call(temp.p, bytes); });
  BENCH_CHECK(cudaStreamDestroy(s));
}

/// A batch of `rows` rows of `row` logits: the k largest of each, with positions (see the head).
template <class Key>
void bm_batched_top_k(benchmark::State& state, std::size_t rows, std::size_t row, std::size_t k, method m) {
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreate(&s));
  const std::size_t n = rows * row;
  device_buffer in(n * sizeof(Key)), out(rows * k * sizeof(Key)), ids(rows * k * sizeof(int)),
      sorted(n * sizeof(Key)), pos(n * sizeof(int)), sorted_pos(n * sizeof(int));
  BENCH_CHECK(launch(logits_kernel<Key>, 1024, 256, s, serial, in.as<Key>(), n, std::uint64_t(n * 13 + row + k)));
  BENCH_CHECK(launch(iota_kernel, 1024, 256, s, serial, pos.as<int>(), n));
  const ringsweep::sort_options desc{ringsweep::sort_order::descending};
  const auto sort_rows = [&](void* temp, std::size_t& bytes) {
    return ringsweep::segmented_sort_pairs(temp, bytes, in.as<const Key>(), sorted.as<Key>(), pos.as<const int>(),
                                           sorted_pos.as<int>(), rows, row, desc, s);
  };
  const auto call = [&](void* temp, std::size_t& bytes) -> cudaError_t {
    if (m == method::ringsweep) {
      return ringsweep::segmented_top_k_indices(temp, bytes, in.as<const Key>(), out.as<Key>(), ids.as<int>(), rows,
                                                row, k, desc, s);
    }
    if (m == method::cub_batched) {
#ifdef RS_BENCH_CUB_BATCHED_TOPK
      if constexpr (std::is_same<Key, float>::value) {
        switch (row) {
          case 32768: return cub_batched_top_k<32768, Key>(temp, bytes, in.as<const Key>(), out.as<Key>(), rows, k, s);
          case 131072: return cub_batched_top_k<131072, Key>(temp, bytes, in.as<const Key>(), out.as<Key>(), rows, k, s);
          case 262144: return cub_batched_top_k<262144, Key>(temp, bytes, in.as<const Key>(), out.as<Key>(), rows, k, s);
          default: break;
        }
      }
#endif
      return cudaErrorNotSupported;
    }
    const cudaError_t e = sort_rows(temp, bytes);
    if (e != cudaSuccess || temp == nullptr) return e;
    const cudaError_t c = launch(row_copy_kernel<Key>, 1024, 256, s, serial, sorted.as<const Key>(), out.as<Key>(),
                                 rows, row, k);
    if (c != cudaSuccess) return c;
    return launch(row_copy_kernel<int>, 1024, 256, s, serial, sorted_pos.as<const int>(), ids.as<int>(), rows, row, k);
  };
  std::size_t bytes = 0;
  BENCH_CHECK(call(nullptr, bytes));
  device_buffer temp(bytes);
  BENCH_CHECK(call(temp.p, bytes));
  {
    // The check, once: each row's first k of the stable segmented sort, keys bit for bit and
    // positions (CUB's unsorted keys as a set of images); each position's key is its own.
    const std::vector<Key> got_keys = download(out.as<Key>(), rows * k);
    const std::vector<int> got_ids = download(ids.as<int>(), rows * k);
    std::size_t sort_bytes = 0;
    BENCH_CHECK(sort_rows(nullptr, sort_bytes));
    device_buffer sort_temp(sort_bytes);
    BENCH_CHECK(sort_rows(sort_temp.p, sort_bytes));
    BENCH_CHECK(cudaStreamSynchronize(s));
    const std::vector<Key> all = download(sorted.as<Key>(), n);
    const std::vector<int> all_pos = download(sorted_pos.as<int>(), n);
    bool ok = true;
    for (std::size_t r = 0; r < rows && ok; ++r) {
      if (m == method::cub_batched) {
        ok = same_images(&got_keys[r * k], &all[r * row], k);
        continue;
      }
      ok = std::memcmp(&got_keys[r * k], &all[r * row], k * sizeof(Key)) == 0 &&
           std::memcmp(&got_ids[r * k], &all_pos[r * row], k * sizeof(int)) == 0;
    }
    if (!ok) {
      std::fprintf(stderr, "ringsweep_top_k_bench: %s batched top-k, %zu rows of %zu, k %zu: wrong result\n",
                   name_of(m), rows, row, k);
      std::exit(1);
    }
  }
  time_row(state, s, n * sizeof(Key), bytes, m, [&] { return call(temp.p, bytes); });
  BENCH_CHECK(cudaStreamDestroy(s));
}

/// Whether `bytes` of device memory leave room (a tenth of the free memory spare).
bool fits(std::size_t bytes, const char* what, int lg) {
  if (bytes <= g_free_bytes / 10 * 9) return true;
  std::fprintf(stderr, "ringsweep_top_k_bench: skipping %s n=2^%d: needs ~%.1f GiB\n", what, lg, bytes / 1073741824.0);
  return false;
}

template <class Key>
void register_top_k() {
  for (int lg = g_settings.min_log2; lg <= g_settings.max_log2; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    if (!fits(n * sizeof(Key) * 5, "top_k", lg)) continue;
    for (std::size_t k : {std::size_t(1), std::size_t(32), std::size_t(1024), std::size_t(65536)}) {
      if (k > n) continue;
      std::vector<method> methods = {method::ringsweep, method::sort_copy};
#ifdef RS_BENCH_CUB_TOPK
      methods.push_back(method::cub);
#endif
      for (method m : methods) {
        char name[160];
        std::snprintf(name, sizeof(name), "top_k/%s/k:%zu/n:%zu/%s", type_name<Key>(), k, n, name_of(m));
        benchmark::RegisterBenchmark(name, [n, k, m](benchmark::State& st) { bm_top_k<Key>(st, n, k, m); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

void register_segmented_top_k() {
  for (int lg = g_settings.min_log2; lg <= g_settings.max_log2; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    // Input and output, the sorts' storage (their scratch of n keys), and the per-row select's
    // bucket (keys and 8-byte positions) and candidates: about 12 u32-sized words per key.
    if (!fits(n * 4 * 12, "segmented_top_k", lg)) continue;
    for (std::size_t row : {std::size_t(4096), std::size_t(65536), std::size_t(131072)}) {
      if (row > n) continue;
      for (std::size_t k : {std::size_t(8), std::size_t(64)}) {
        std::vector<method> methods = {method::ringsweep, method::segsort_copy};
#ifdef RS_BENCH_CUB_BATCHED_TOPK
        methods.push_back(method::cub_batched);
#endif
        for (method m : methods) {
          char name[160];
          std::snprintf(name, sizeof(name), "segmented_top_k/u32/row:%zu/k:%zu/n:%zu/%s", row, k, n, name_of(m));
          benchmark::RegisterBenchmark(name, [n, row, k, m](benchmark::State& st) {
            bm_segmented_top_k(st, n, row, k, m);
          })->UseManualTime()->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
}

template <class Key>
void register_batched_top_k() {
  for (std::size_t rows : {std::size_t(1), std::size_t(8), std::size_t(64), std::size_t(256)}) {
    for (std::size_t row : {std::size_t(32768), std::size_t(131072), std::size_t(262144)}) {
      // Input, the sort's output and its scratch, positions (three arrays of ints), the select's
      // bucket and candidates: about 12 four-byte words per key.
      if (!fits(rows * row * 4 * 12, "batched_top_k", 0)) continue;
      for (std::size_t k : {std::size_t(1), std::size_t(50), std::size_t(1024)}) {
        std::vector<method> methods = {method::ringsweep, method::segsort_copy};
#ifdef RS_BENCH_CUB_BATCHED_TOPK
        if (std::is_same<Key, float>::value && k <= 64) methods.push_back(method::cub_batched);
#endif
        for (method m : methods) {
          char name[160];
          std::snprintf(name, sizeof(name), "batched_top_k/%s/rows:%zu/row:%zu/k:%zu/%s", type_name<Key>(), rows, row,
                        k, name_of(m));
          benchmark::RegisterBenchmark(name, [rows, row, k, m](benchmark::State& st) {
            bm_batched_top_k<Key>(st, rows, row, k, m);
          })->UseManualTime()->Unit(benchmark::kMicrosecond);
        }
      }
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
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
}

}  // namespace

int main(int argc, char** argv) {
  parse_own_flags(argc, argv);
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("ringsweep_top_k_bench: no CUDA device available (%s); nothing to benchmark.\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 0;
  }
  std::size_t total = 0;
  BENCH_CHECK(cudaMemGetInfo(&g_free_bytes, &total));
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  benchmark::AddCustomContext("device", prop.name);
  benchmark::AddCustomContext("cccl_version", std::to_string(CCCL_VERSION));
  register_top_k<u32>();
  register_top_k<float>();
  register_top_k<u64>();
  register_segmented_top_k();
  register_batched_top_k<float>();
  register_batched_top_k<__nv_bfloat16>();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
