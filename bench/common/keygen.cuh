// Benchmark inputs shared by the GPU benchmark and the SIMT traffic count: counter-based random
// words (splitmix64), so element i of a data set is the same on every device and in every run.
//
// Entropy: AND-ing k independent uniform words leaves each bit set with probability 2^-k, so the
// Shannon entropy per bit is H(2^-k): k = 1 -> 1.000, 3 -> 0.544, 5 -> 0.201 (CUB's benchmark
// axis; k = 2 -> 0.811 and k = 4 -> 0.337 complete it). Floating-point keys take the same bits.
#pragma once

#include <cuda_runtime.h>  // __host__ __device__ (nvcc, or the SIMT backend's shadow header)

#include <cstdint>
#include <cstring>

namespace bench {

/// splitmix64: a bijective 64-bit mixer; good enough to feed a sort benchmark.
__host__ __device__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Words to AND for an entropy level (bits of entropy per key bit); 0 for an unknown level.
__host__ __device__ inline int and_words_for_entropy(double entropy) {
  if (entropy > 0.99) return 1;
  if (entropy > 0.80 && entropy < 0.82) return 2;
  if (entropy > 0.53 && entropy < 0.55) return 3;
  if (entropy > 0.33 && entropy < 0.34) return 4;
  if (entropy > 0.19 && entropy < 0.21) return 5;
  return 0;
}

/// Random bits of element `i` of stream `seed`, AND-ed over `words` words.
__host__ __device__ inline std::uint64_t random_bits(std::uint64_t seed, std::uint64_t i, int words) {
  std::uint64_t r = ~0ull;
  for (int w = 0; w < words; ++w) {
    r &= splitmix64(splitmix64(seed * 0x100000001b3ull + std::uint64_t(w)) ^ i);
  }
  return r;
}

/// Element `i` as a `T` (integers and floats: the low sizeof(T) bytes of the bits).
template <class T>
__host__ __device__ inline T random_value(std::uint64_t seed, std::uint64_t i, int words) {
  const std::uint64_t bits = random_bits(seed, i, words);
  T v;
  std::memcpy(&v, &bits, sizeof(T));  // little-endian: the low bytes
  return v;
}

}  // namespace bench
