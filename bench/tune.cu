// Policy tuning on a GPU: times the onesweep sort under several variants of the architecture's
// policy (tile shape, look-back depth, tail groups, blocks per SM) next to CUB, on the same input.
//
//     ringsweep_tune [log2_n=26] [reps=15]
//
// Prints one row per (case, variant): the median time of `reps` sorts (CUDA events around the
// sort call only, double-buffer form, temp storage allocated outside), keys/s and the ratio
// CUB time / variant time (above 1: the variant is faster). Every variant's output is compared
// with CUB's; a mismatch is printed and the exit code is 1. Without a CUDA device it exits 0.
#include <cub/device/device_radix_sort.cuh>
#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/keygen.cuh"

namespace {

#define TUNE_CHECK(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t tune_e_ = (call);                                                                  \
    if (tune_e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(tune_e_));   \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)

/// policy_sm90 with some members replaced.
template <int THREADS_, int KEYS_, int L_, int TAIL_BITS_, int MIN_BLOCKS_>
struct variant : ringsweep::policy_sm90 {
  static constexpr int THREADS = THREADS_;
  static constexpr int KEYS_PER_THREAD = KEYS_;
  static constexpr int PAIRS_KEYS_PER_THREAD = KEYS_;
  static constexpr int EXCHANGE_BYTES = THREADS_ * KEYS_ * 4;
  static constexpr int L = L_;
  static constexpr int TAIL_BITS = TAIL_BITS_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
};

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

struct buffers {
  std::size_t n = 0;
  std::uint32_t *keys_src = nullptr, *keys_a = nullptr, *keys_b = nullptr, *ref_keys = nullptr;
  std::uint32_t *vals_src = nullptr, *vals_a = nullptr, *vals_b = nullptr, *ref_vals = nullptr;
  unsigned long long* count = nullptr;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
};

template <class T>
unsigned long long mismatches(const T* a, const T* b, std::size_t n, unsigned long long* count) {
  TUNE_CHECK(cudaMemset(count, 0, sizeof(*count)));
  count_mismatch_kernel<<<1024, 256>>>(a, b, n, count);
  TUNE_CHECK(cudaGetLastError());
  unsigned long long h = 0;
  TUNE_CHECK(cudaMemcpy(&h, count, sizeof(h), cudaMemcpyDeviceToHost));
  return h;
}

/// Median milliseconds of `reps` runs of `sort(keys, values)` on fresh copies of the input; the
/// last run's sorted keys (and values) are left in *out_keys (*out_vals).
template <class Sort>
double time_sort(buffers& b, bool pairs, int reps, Sort&& sort, const std::uint32_t** out_keys,
                 const std::uint32_t** out_vals) {
  cudaEvent_t start, stop;
  TUNE_CHECK(cudaEventCreate(&start));
  TUNE_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r <= reps; ++r) {  // run 0 is the warm-up
    TUNE_CHECK(cudaMemcpy(b.keys_a, b.keys_src, b.n * 4, cudaMemcpyDeviceToDevice));
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

template <class Policy>
void run_variant(const char* name, buffers& b, bool pairs, int reps, double cub_ms) {
  const std::uint32_t *keys = nullptr, *vals = nullptr;
  const double ms = time_sort(b, pairs, reps, [&](const std::uint32_t** ok, const std::uint32_t** ov) {
    ringsweep::double_buffer<std::uint32_t> kb(b.keys_a, b.keys_b);
    ringsweep::double_buffer<std::uint32_t> vb(b.vals_a, b.vals_b);
    std::size_t bytes = b.temp_bytes;
    if (pairs) {
      TUNE_CHECK(ringsweep::detail::sort_pairs<Policy>(b.temp, bytes, kb, vb, b.n));
    } else {
      TUNE_CHECK(ringsweep::detail::sort_keys<Policy>(b.temp, bytes, kb, b.n));
    }
    *ok = kb.current();
    *ov = vb.current();
  }, &keys, &vals);
  const unsigned long long bad =
      mismatches(keys, b.ref_keys, b.n, b.count) + (pairs ? mismatches(vals, b.ref_vals, b.n, b.count) : 0);
  if (bad) ++g_failures;
  std::printf("%-6s n=2^%-2d %-34s %8.3f ms %7.2f Gkeys/s  cub/this %5.2f%s\n", pairs ? "pairs" : "keys",
              int(std::log2(double(b.n))), name, ms, double(b.n) / ms * 1e-6, cub_ms / ms,
              bad ? "  MISMATCH" : "");
}

void run_case(std::size_t n, bool pairs, int reps, int entropy_words) {
  buffers b;
  b.n = n;
  for (std::uint32_t** p : {&b.keys_src, &b.keys_a, &b.keys_b, &b.ref_keys, &b.vals_src, &b.vals_a, &b.vals_b,
                            &b.ref_vals}) {
    TUNE_CHECK(cudaMalloc(p, n * 4));
  }
  TUNE_CHECK(cudaMalloc(&b.count, sizeof(unsigned long long)));
  fill_kernel<<<1024, 256>>>(b.keys_src, n, 0x5eedu + n, entropy_words);
  fill_kernel<<<1024, 256>>>(b.vals_src, n, 0x7a1eu + n, 1);
  TUNE_CHECK(cudaGetLastError());
  // Temp storage: the larger of CUB's and every variant's (all are small for the double buffer).
  std::size_t cub_bytes = 0;
  {
    cub::DoubleBuffer<std::uint32_t> kb(b.keys_a, b.keys_b), vb(b.vals_a, b.vals_b);
    TUNE_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kb, vb, int(n)));
  }
  b.temp_bytes = std::max<std::size_t>(cub_bytes, std::size_t(64) << 20);
  TUNE_CHECK(cudaMalloc(&b.temp, b.temp_bytes));

  const std::uint32_t *keys = nullptr, *vals = nullptr;
  const double cub_ms = time_sort(b, pairs, reps, [&](const std::uint32_t** ok, const std::uint32_t** ov) {
    cub::DoubleBuffer<std::uint32_t> kb(b.keys_a, b.keys_b), vb(b.vals_a, b.vals_b);
    std::size_t bytes = b.temp_bytes;
    if (pairs) {
      TUNE_CHECK(cub::DeviceRadixSort::SortPairs(b.temp, bytes, kb, vb, int(n)));
    } else {
      TUNE_CHECK(cub::DeviceRadixSort::SortKeys(b.temp, bytes, kb, int(n)));
    }
    *ok = kb.Current();
    *ov = vb.Current();
  }, &keys, &vals);
  TUNE_CHECK(cudaMemcpy(b.ref_keys, keys, n * 4, cudaMemcpyDeviceToDevice));
  if (pairs) TUNE_CHECK(cudaMemcpy(b.ref_vals, vals, n * 4, cudaMemcpyDeviceToDevice));
  std::printf("%-6s n=2^%-2d %-34s %8.3f ms %7.2f Gkeys/s  (entropy words %d)\n", pairs ? "pairs" : "keys",
              int(std::log2(double(n))), "cub", cub_ms, double(n) / cub_ms * 1e-6, entropy_words);

  run_variant<ringsweep::policy_sm90>("policy_sm90", b, pairs, reps, cub_ms);
  run_variant<variant<384, 18, 512, 8, 2>>("384x18 L512 T8 min2", b, pairs, reps, cub_ms);
  run_variant<variant<384, 24, 512, 8, 2>>("384x24 L512 T8 min2", b, pairs, reps, cub_ms);
  run_variant<variant<384, 22, 512, 8, 2>>("384x22 L512 T8 min2", b, pairs, reps, cub_ms);
  run_variant<variant<384, 20, 128, 9, 2>>("384x20 L128 T9 min2", b, pairs, reps, cub_ms);
  run_variant<variant<384, 16, 512, 8, 3>>("384x16 L512 T8 min3", b, pairs, reps, cub_ms);
  run_variant<variant<256, 20, 512, 8, 3>>("256x20 L512 T8 min3", b, pairs, reps, cub_ms);
  run_variant<variant<512, 16, 512, 8, 2>>("512x16 L512 T8 min2", b, pairs, reps, cub_ms);

  for (void* p : {static_cast<void*>(b.keys_src), static_cast<void*>(b.keys_a), static_cast<void*>(b.keys_b),
                  static_cast<void*>(b.ref_keys), static_cast<void*>(b.vals_src), static_cast<void*>(b.vals_a),
                  static_cast<void*>(b.vals_b), static_cast<void*>(b.ref_vals), static_cast<void*>(b.count), b.temp}) {
    TUNE_CHECK(cudaFree(p));
  }
}

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
  run_case(n, false, reps, 1);
  run_case(n, true, reps, 1);
  run_case(n, false, reps, 5);
  return g_failures ? 1 : 0;
}
