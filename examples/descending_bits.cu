// Descending order and bit windows, through ringsweep::sort_options.
//
//  1. Scores (int32) sorted from high to low. Descending is stable too: equal scores keep their
//     input order (they are not reversed).
//  2. 64-bit keys whose low 30 bits are a 3D Morton code (10 bits per axis) and whose high 32 bits
//     are an object id. Sorting on bits [0, 30) orders by Morton code alone, in 4 digit passes
//     instead of 8; the whole 64-bit key moves, and equal codes keep their input order.
//  3. The same keys, descending on the same window: the window of the complemented image, i.e.
//     Morton codes from high to low.
//
//     ringsweep::sort_options opts;
//     opts.order = ringsweep::sort_order::descending;   // default: ascending
//     opts.begin_bit = 0;                                // the window [begin_bit, end_bit) of the
//     opts.end_bit = 30;                                 // key's order-preserving image; -1: all
//
// Built for the CPU SIMT backend (example_descending_bits, run by ctest) and by nvcc for a GPU
// (example_descending_bits_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK(...)                                                                             \
  do {                                                                                         \
    const cudaError_t status_ = (__VA_ARGS__);                                                 \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(status_));      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (false)

namespace {

/// Sorts `keys` on the device (in/out form) and returns the result.
template <class Key>
std::vector<Key> device_sort(const std::vector<Key>& keys, ringsweep::sort_options opts) {
  const std::size_t n = keys.size();
  Key *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(Key)));
  CHECK(cudaMalloc(&d_out, n * sizeof(Key)));
  CHECK(cudaMemcpy(d_in, keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  CHECK(ringsweep::sort_keys(nullptr, bytes, d_in, d_out, n, opts));
  void* d_temp;
  CHECK(cudaMalloc(&d_temp, bytes));
  CHECK(ringsweep::sort_keys(d_temp, bytes, d_in, d_out, n, opts));
  std::vector<Key> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(Key), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_temp));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_in));
  return out;
}

/// Spreads the low 10 bits of `v` to every third bit.
std::uint64_t spread3(std::uint64_t v) {
  std::uint64_t r = 0;
  for (int i = 0; i < 10; ++i) r |= ((v >> i) & 1u) << (3 * i);
  return r;
}

bool report(const char* what, bool ok) {
  std::printf("%-48s %s\n", what, ok ? "OK" : "WRONG");
  return ok;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  bool ok = true;
  std::mt19937_64 rng(99);

  // 1. Scores, high to low. Stability shows in the bits of 64-bit keys below; here it is enough
  //    that the multiset and the order are right.
  {
    const std::size_t n = 100000;
    std::vector<std::int32_t> scores(n);
    for (auto& s : scores) s = std::int32_t(rng() % 2001) - 1000;
    ringsweep::sort_options desc;
    desc.order = ringsweep::sort_order::descending;
    std::vector<std::int32_t> want(scores);
    std::sort(want.begin(), want.end(), [](std::int32_t a, std::int32_t b) { return a > b; });
    const std::vector<std::int32_t> got = device_sort(scores, desc);
    ok = report("int32 scores, descending", got == want) && ok;
    std::printf("  top three: %d %d %d\n", got[0], got[1], got[2]);
  }

  // 2. and 3. Morton codes in the low 30 bits, an object id above them.
  {
    const std::size_t n = 120000;
    const std::uint64_t window = (std::uint64_t(1) << 30) - 1;
    std::vector<std::uint64_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
      // Points on a coarse lattice, so that many share a code (and stability is visible).
      const std::uint64_t x = (rng() % 64) * 16, y = (rng() % 64) * 16, z = (rng() % 64) * 16;
      const std::uint64_t code = spread3(x) | spread3(y) << 1 | spread3(z) << 2;
      keys[i] = std::uint64_t(i) << 32 | code;  // object id i above the code
    }

    ringsweep::sort_options by_code;
    by_code.end_bit = 30;
    std::vector<std::uint64_t> want(keys);
    std::stable_sort(want.begin(), want.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return (a & window) < (b & window); });
    ok = report("u64 keys on bits [0, 30), ascending, stable", device_sort(keys, by_code) == want) && ok;

    ringsweep::sort_options by_code_desc = by_code;
    by_code_desc.order = ringsweep::sort_order::descending;
    want = keys;
    std::stable_sort(want.begin(), want.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return (a & window) > (b & window); });
    const std::vector<std::uint64_t> got = device_sort(keys, by_code_desc);
    ok = report("u64 keys on bits [0, 30), descending, stable", got == want) && ok;
    std::printf("  first key: code %llu, object %llu\n", static_cast<unsigned long long>(got[0] & window),
                static_cast<unsigned long long>(got[0] >> 32));
  }
  return ok ? 0 : 1;
}
