// boundary_probe_kernel: the splitter search of the distributed sort (device/distributed.inl). On a
// rank's locally sorted keys, one thread per (boundary, probe digit) counts the keys whose leading
// digits come before the boundary's known prefix followed by the probe digit: a binary search, as
// the keys are sorted by exactly these digits.
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/digit_extractor.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// At most 16 digit passes of 8 bits: keys of up to 128 bits (custom keys of 16 bytes).
constexpr int probe_max_digits = 16;
constexpr int boundary_probe_threads = 128;

/// Arguments of one refinement round. `digit[k]` reads the k-th digit from the top (the sort's
/// pass `P - 1 - k`); every boundary knows its first `depth` digits (`prefixes[b * 16 + k]`) and
/// asks, for each probe `d` in `[0, probes)`, how many keys have leading digits below
/// `(prefix, d)`; the last probe, `d = probes - 1 = 2^width`, counts every key up to the prefix.
template <class SortKey>
struct boundary_probe_params {
  using bits_type = typename key_traits<SortKey>::bits_type;
  const bits_type* keys;  // the rank's keys, sorted by these digits
  std::size_t n;
  digit_extractor<SortKey> digit[probe_max_digits];
  const unsigned char* prefixes;  // [boundaries][probe_max_digits]
  int depth;                      // digits known (the round)
  unsigned probes;                // 2^width + 1
  unsigned boundaries;
  unsigned long long* counts;     // [boundaries][probes]
};

/// Whether `raw` comes before (prefix, d) in the sort's digit order.
template <class SortKey>
__device__ __forceinline__ bool before_probe(const boundary_probe_params<SortKey>& p,
                                             const typename key_traits<SortKey>::bits_type& raw,
                                             const unsigned char* prefix, unsigned d) {
  for (int k = 0; k < p.depth; ++k) {
    const u32 kd = p.digit[k](raw);
    if (kd != prefix[k]) return kd < prefix[k];
  }
  return p.digit[p.depth](raw) < d;
}

/// One thread per (boundary, probe), grid-stride: a lower bound over the sorted keys.
template <class SortKey>
__global__ void boundary_probe_kernel(boundary_probe_params<SortKey> p) {
  const std::size_t total = std::size_t(p.boundaries) * p.probes;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const std::size_t b = i / p.probes;
    const unsigned d = unsigned(i % p.probes);
    const unsigned char* prefix = p.prefixes + b * probe_max_digits;
    std::size_t lo = 0;
    std::size_t hi = p.n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (before_probe(p, p.keys[mid], prefix, d)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    p.counts[i] = lo;
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
