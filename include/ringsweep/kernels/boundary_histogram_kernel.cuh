// boundary_histogram_kernel: the splitter search of the distributed sort
// (device/distributed_digit_rounds.inl), on a rank's keys as the caller gave them (unsorted). Round
// t of the search knows the first t digits (from the top) of every rank boundary's splitter; the
// distinct ones, sorted, are the round's groups. One read of the keys counts, for each group, the
// next digit of the keys whose first t digits are the group's: the histogram that fixes digit t of
// the group's splitters. Also the comparison of a key's leading digits with such a prefix, which
// the distributed sort's partition (slot_partition_kernel.cuh) shares.
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/digit_extractor.cuh"
#include "../detail/load_store.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// At most 16 digit passes of 8 bits: keys of up to 128 bits (custom keys of 16 bytes).
constexpr int probe_max_digits = 16;
constexpr int boundary_histogram_threads = 256;
/// Groups one block counts in shared memory (16 x 256 counters, 16 KiB); more groups take more
/// blocks along y, each reading the keys once.
constexpr unsigned boundary_histogram_groups = 16;

/// A key's digits from the top: `digit[k]` reads the k-th (the sort's pass `P - 1 - k`).
template <class SortKey>
struct key_digits {
  digit_extractor<SortKey> digit[probe_max_digits];
};

/// The sign of (the first `depth` digits of `raw`) - `prefix` (`depth` bytes), lexicographically:
/// -1, 0 or 1.
template <class SortKey>
__device__ __forceinline__ int compare_prefix(const key_digits<SortKey>& d,
                                              const typename key_traits<SortKey>::bits_type& raw,
                                              const unsigned char* prefix, int depth) {
  for (int k = 0; k < depth; ++k) {
    const u32 kd = d.digit[k](raw);
    const u32 pd = prefix[k];
    if (kd != pd) return kd < pd ? -1 : 1;
  }
  return 0;
}

/// The first of `count` sorted prefixes (rows of `probe_max_digits` bytes, `depth` of them used)
/// that is not below the key's first `depth` digits (`count` when none); `equal` says whether it
/// is the key's.
template <class SortKey>
__device__ __forceinline__ unsigned lower_bound_prefix(const key_digits<SortKey>& d,
                                                       const typename key_traits<SortKey>::bits_type& raw,
                                                       const unsigned char* prefixes, unsigned count, int depth,
                                                       bool& equal) {
  unsigned lo = 0;
  unsigned hi = count;
  while (lo < hi) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (compare_prefix(d, raw, prefixes + std::size_t(mid) * probe_max_digits, depth) > 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  equal = lo < count && compare_prefix(d, raw, prefixes + std::size_t(lo) * probe_max_digits, depth) == 0;
  return lo;
}

/// Arguments of one refinement round.
template <class SortKey>
struct boundary_histogram_params {
  using bits_type = typename key_traits<SortKey>::bits_type;
  const bits_type* keys;  // the rank's keys, in any order
  std::size_t n;
  key_digits<SortKey> digits;
  const unsigned char* prefixes;  // [groups][probe_max_digits], sorted, distinct in their first `depth` bytes
  unsigned groups;
  int depth;                      // digits known (the round)
  unsigned buckets;               // 2^width of digit `depth`
  unsigned long long* counts;     // [groups][buckets], zeroed before
  unsigned x_blocks;              // blocks per group slice
};

/// Grid `x_blocks * ceil(groups / boundary_histogram_groups)`: block `x + y * x_blocks` counts
/// groups [16 y, 16 y + 16) over a grid-stride share x of the keys in shared memory, then adds its
/// counts to the global ones.
template <class SortKey>
__global__ void __launch_bounds__(boundary_histogram_threads)
    boundary_histogram_kernel(boundary_histogram_params<SortKey> p) {
  __shared__ unsigned local[boundary_histogram_groups * 256];
  const unsigned x = blockIdx.x % p.x_blocks;
  const unsigned first = blockIdx.x / p.x_blocks * boundary_histogram_groups;
  const unsigned mine = p.groups - first < boundary_histogram_groups ? p.groups - first : boundary_histogram_groups;
  const unsigned entries = mine * p.buckets;
  for (unsigned i = threadIdx.x; i < entries; i += boundary_histogram_threads) local[i] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t(p.x_blocks) * boundary_histogram_threads;
  for (std::size_t i = std::size_t(x) * boundary_histogram_threads + threadIdx.x; i < p.n; i += stride) {
    const auto raw = load_global(p.keys + i);
    bool equal = false;
    const unsigned g = lower_bound_prefix(p.digits, raw, p.prefixes, p.groups, p.depth, equal);
    if (equal && g >= first && g - first < mine) {
      atomicAdd(&local[(g - first) * p.buckets + p.digits.digit[p.depth](raw)], 1u);
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < entries; i += boundary_histogram_threads) {
    if (local[i] != 0) {
      atomicAdd(&p.counts[std::size_t(first) * p.buckets + i], static_cast<unsigned long long>(local[i]));
    }
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
