// Small helpers for ringsweep tests; they build for both test variants (nvcc and the SIMT backend).
//
//   REQUIRE_CUDA(expr) / CHECK_CUDA(expr)   expr must return cudaSuccess; the message names the call
//   REQUIRE_CUDA_LAUNCH()                   no launch error, and the device ran to completion
//   device_buffer<T>                        RAII device array: upload from / download to std::vector
//   random_keys<T>(n, seed, and_count)      random bit patterns; AND-ing and_count words lowers entropy
//   random_ints<T>(n, seed, lo, hi)         uniform integers in [lo, hi]
//   bit_entropy(and_count)                  entropy per bit of random_keys with that and_count
//   catch_seed()                            Catch's --rng-seed, to derive data seeds from
//   launch(kernel, grid, threads, stream, order, args...)
//                                           the library's launch helper (serial: ringsweep_test::serial)
#pragma once

#include <catch2/catch.hpp>

#include <cuda_runtime.h>
#include <ringsweep/device/launch.cuh>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "catch_session.hpp"

// One call per use: the Catch2 assertion behind it is compiled once (catch_session.cpp), not
// expanded at each of the tests' hundreds of runtime calls in every instantiation around them.
#define RINGSWEEP_TEST_CUDA_ASSERT_(fatal, ...)                                                           \
  do {                                                                                                    \
    const cudaError_t ringsweep_test_status_ = (__VA_ARGS__);                                             \
    ::ringsweep_test::assert_cuda_success(static_cast<int>(ringsweep_test_status_),                       \
                                          cudaGetErrorString(ringsweep_test_status_), #__VA_ARGS__, __FILE__, \
                                          __LINE__, fatal);                                               \
  } while (false)

/// Fails the test case (REQUIRE) unless the CUDA runtime call returns cudaSuccess.
#define REQUIRE_CUDA(...) RINGSWEEP_TEST_CUDA_ASSERT_(true, __VA_ARGS__)
/// Records a failure (CHECK) unless the CUDA runtime call returns cudaSuccess, and goes on.
#define CHECK_CUDA(...) RINGSWEEP_TEST_CUDA_ASSERT_(false, __VA_ARGS__)
/// After a kernel launch: no launch error, and the device finished without one.
#define REQUIRE_CUDA_LAUNCH()                  \
  do {                                         \
    REQUIRE_CUDA(cudaGetLastError());          \
    REQUIRE_CUDA(cudaDeviceSynchronize());     \
  } while (false)

namespace ringsweep_test {

/// Tests and benchmarks launch kernels the way the library does, through its one helper
/// (ringsweep::detail::launch, device/launch.cuh): cudaLaunchKernelEx, never `<<<>>>`, so the same
/// source builds against the SIMT backend, and a test's launch goes the library's way.
///
///     REQUIRE_CUDA(ringsweep_test::launch(fill_kernel<T>, blocks, 256, stream, ringsweep_test::serial, d.data(), n));
using ringsweep::detail::launch;
using ringsweep::detail::launch_order;

/// The order of nearly every test launch: after the kernel before it in the stream.
constexpr launch_order serial = launch_order::serial;

/// An array of `size()` T in device memory, freed on destruction. Move-only.
template <typename T>
class device_buffer {
  static_assert(std::is_trivially_copyable<T>::value, "device_buffer holds trivially copyable types");

 public:
  device_buffer() = default;

  /// `n` uninitialised elements.
  explicit device_buffer(std::size_t n) : size_(n) {
    if (n != 0) {
      void* ptr = nullptr;
      REQUIRE_CUDA(cudaMalloc(&ptr, n * sizeof(T)));
      data_ = static_cast<T*>(ptr);
    }
  }

  /// A device copy of `host`.
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) { upload(host); }

  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept { swap(other); }
  device_buffer& operator=(device_buffer&& other) noexcept {
    device_buffer(std::move(other)).swap(*this);
    return *this;
  }
  ~device_buffer() {
    if (data_ != nullptr) {
      cudaFree(data_);  // No REQUIRE here: a destructor must not throw.
    }
  }

  void swap(device_buffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  /// Copies `host` (exactly size() elements) to the device.
  void upload(const std::vector<T>& host) {
    REQUIRE(host.size() == size_);
    if (size_ != 0) {
      REQUIRE_CUDA(cudaMemcpy(data_, host.data(), size_bytes(), cudaMemcpyHostToDevice));
    }
  }

  /// Copies the whole buffer back to the host.
  std::vector<T> download() const {
    std::vector<T> host(size_);
    if (size_ != 0) {
      REQUIRE_CUDA(cudaMemcpy(host.data(), data_, size_bytes(), cudaMemcpyDeviceToHost));
    }
    return host;
  }

  /// Sets every byte to `byte` (cudaMemset).
  void fill_bytes(int byte) {
    if (size_ != 0) {
      REQUIRE_CUDA(cudaMemset(data_, byte, size_bytes()));
    }
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Raw device bytes, e.g. temporary storage.
using device_bytes = device_buffer<unsigned char>;

/// A stream of the test's own, destroyed at the end of its scope.
struct stream_guard {
  cudaStream_t s = nullptr;
  stream_guard() { REQUIRE_CUDA(cudaStreamCreate(&s)); }
  ~stream_guard() { cudaStreamDestroy(s); }
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;
};

/// Captures `sort(stream)` (a cudaError_t) into a graph in global mode and instantiates it: the
/// capture must end cleanly (cudaErrorStreamCaptureInvalidated: the sort made a synchronising
/// call, which a GPU refuses during capture as the SIMT backend does).
template <class Sort>
cudaGraphExec_t capture(cudaStream_t stream, Sort&& sort) {
  REQUIRE_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const cudaError_t sort_error = sort(stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t end_error = cudaStreamEndCapture(stream, &graph);
  REQUIRE_CUDA(sort_error);
  REQUIRE_CUDA(end_error);
  cudaGraphExec_t exec = nullptr;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  REQUIRE_CUDA(cudaGraphDestroy(graph));
  return exec;
}

/// The seed Catch was given (--rng-seed), to derive reproducible data seeds from.
inline std::uint64_t catch_seed() { return Catch::rngSeed(); }

/// One 64-bit word whose bits are 1 with probability 2^-and_count (and_count <= 0: all zero).
template <typename Rng>
std::uint64_t and_of_random_words(Rng& rng, int and_count) {
  if (and_count <= 0) {
    return 0;
  }
  std::uint64_t word = ~std::uint64_t{0};
  for (int i = 0; i < and_count; ++i) {
    word &= static_cast<std::uint64_t>(rng());
  }
  return word;
}

/// Entropy, in bits per bit, of random_keys() with this and_count: H(2^-and_count).
/// 1 -> 1.0, 2 -> 0.811, 3 -> 0.544, 4 -> 0.337, 5 -> 0.201, <= 0 -> 0.
inline double bit_entropy(int and_count) {
  if (and_count <= 0) {
    return 0.0;
  }
  const double p = std::ldexp(1.0, -and_count);
  const double q = 1.0 - p;
  return q > 0.0 ? -(p * std::log2(p) + q * std::log2(q)) : 0.0;
}

/// `n` values of T whose bit patterns are random: every bit is 1 with probability 2^-and_count.
/// and_count 1 gives uniform bits (floating-point T then include NaNs, infinities, -0.0);
/// larger values lower the entropy, 0 gives all-zero bits. Same (n, seed, and_count), same keys.
template <typename T>
std::vector<T> random_keys(std::size_t n, std::uint64_t seed, int and_count = 1) {
  static_assert(std::is_trivially_copyable<T>::value, "random_keys makes trivially copyable values");
  constexpr std::size_t words = (sizeof(T) + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
  std::mt19937_64 rng(seed);
  std::vector<T> keys(n);
  std::uint64_t bits[words];
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < words; ++w) {
      bits[w] = and_of_random_words(rng, and_count);
    }
    std::memcpy(static_cast<void*>(&keys[i]), bits, sizeof(T));
  }
  return keys;
}

/// `n` integers drawn uniformly from [lo, hi]. Same arguments, same values.
template <typename T>
std::vector<T> random_ints(std::size_t n, std::uint64_t seed, T lo, T hi) {
  static_assert(std::is_integral<T>::value, "random_ints makes integers");
  using wide = typename std::conditional<std::is_signed<T>::value, long long, unsigned long long>::type;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<wide> dist(static_cast<wide>(lo), static_cast<wide>(hi));
  std::vector<T> values(n);
  for (auto& v : values) {
    v = static_cast<T>(dist(rng));
  }
  return values;
}

}  // namespace ringsweep_test
