// bracket_kernel: the distributed sort's splitter search in O(1) rounds (device/distributed_sort.inl,
// distributed_brackets.inl), on a rank's keys as the caller gave them. `key_sample_kernel` writes
// the digits of evenly spaced keys (the rank's share of a global sample); `bracket_kernel` reads
// the keys against the brackets' ends (the "marks": distinct keys, sorted): once counting the
// keys of each slot (below, equal to, between marks: the slots of slot_partition_kernel.cuh), and
// once more, only where a boundary falls inside a bracket, appending the digits of the keys of
// the slots that hold a boundary to a candidate list.
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"
#include "boundary_histogram_kernel.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

constexpr int bracket_threads = 256;
/// Slots one block counts in shared memory; more slots count straight into global memory.
constexpr unsigned bracket_shared_slots = 4096;  // 16 KiB: up to 15 boundaries of 129 marks

/// The first `depth` digits of `raw` to `row[0, depth)`.
template <class SortKey>
__device__ __forceinline__ void write_digits(const key_digits<SortKey>& d,
                                             const typename key_traits<SortKey>::bits_type& raw,
                                             unsigned char* row, int depth) {
  for (int k = 0; k < depth; ++k) row[k] = static_cast<unsigned char>(d.digit[k](raw));
}

/// Row j < `count` of `rows` (`depth` bytes each): the digits of key `j * n / count` (evenly
/// spaced over the rank's keys, whatever their order).
template <class SortKey>
__global__ void __launch_bounds__(bracket_threads)
    key_sample_kernel(const typename key_traits<SortKey>::bits_type* keys, std::size_t n, unsigned count,
                      key_digits<SortKey> digits, int depth, unsigned char* rows) {
  const unsigned j = blockIdx.x * bracket_threads + threadIdx.x;
  if (j >= count) return;
  const std::size_t at = std::size_t(j) * (n / count) + std::size_t(j) * (n % count) / count;
  write_digits(digits, load_global(keys + at), rows + std::size_t(j) * std::size_t(depth), depth);
}

/// Arguments of the two passes over the keys: the count (`counts` set, `collect` null) and the
/// collection of the chosen slots' keys (`collect` set, `counts` null).
template <class SortKey>
struct bracket_params {
  using bits_type = typename key_traits<SortKey>::bits_type;
  const bits_type* keys;
  std::size_t n;
  key_digits<SortKey> digits;
  int depth;                        // the digits of the window
  const unsigned char* marks;       // [count][probe_max_digits], sorted, distinct in `depth` bytes
  unsigned count;
  unsigned long long* counts;       // [2 * count + 1], zeroed before: the keys per slot; or null
  const unsigned char* collect;     // [2 * count + 1]: 1 for a slot whose keys are wanted; or null
  unsigned long long* collected;    // zeroed before: the keys appended to `candidates`
  unsigned char* candidates;        // rows of `depth` bytes, room for the collected slots' keys
  unsigned long long* positions;    // or null: each collected key's position, beside its row
};

/// Grid-stride over the keys, each one's slot by a binary search over the marks: the count pass
/// adds up the keys per slot in shared memory (when the slots fit) and adds them to `counts` once
/// per block and slot; the collect pass appends the digits of the keys of the flagged slots to
/// `candidates` (in no particular order: only their multiset matters). A slot holds about 1/128
/// of a bracket, so that the host sees the slot counts and a few keys per boundary, never the
/// keys of a whole bracket.
template <class SortKey>
__global__ void __launch_bounds__(bracket_threads) bracket_kernel(bracket_params<SortKey> p) {
  __shared__ unsigned local[bracket_shared_slots];
  const unsigned slots = 2 * p.count + 1;
  const bool shared = p.counts != nullptr && slots <= bracket_shared_slots;
  if (shared) {
    for (unsigned i = threadIdx.x; i < slots; i += bracket_threads) local[i] = 0;
  }
  __syncthreads();
  const std::size_t stride = std::size_t(gridDim.x) * bracket_threads;
  for (std::size_t i = std::size_t(blockIdx.x) * bracket_threads + threadIdx.x; i < p.n; i += stride) {
    const auto raw = load_global(p.keys + i);
    bool equal = false;
    const unsigned g = lower_bound_prefix(p.digits, raw, p.marks, p.count, p.depth, equal);
    const unsigned slot = 2 * g + (equal ? 1u : 0u);
    if (shared) {
      atomicAdd(&local[slot], 1u);
    } else if (p.counts != nullptr) {
      atomicAdd(&p.counts[slot], 1ull);
    }
    if (p.collect != nullptr && p.collect[slot] != 0) {
      const unsigned long long at = atomicAdd(p.collected, 1ull);
      write_digits(p.digits, raw, p.candidates + std::size_t(at) * std::size_t(p.depth), p.depth);
      if (p.positions != nullptr) p.positions[at] = i;
    }
  }
  __syncthreads();
  if (shared) {
    for (unsigned i = threadIdx.x; i < slots; i += bracket_threads) {
      if (local[i] != 0) atomicAdd(&p.counts[i], static_cast<unsigned long long>(local[i]));
    }
  }
}

/// Item `moves[2j]` of the caller's arrays to position `moves[2j + 1]` of the second ones, for
/// j < m: the keys of the chosen slots, which the partition left in input order, put in their
/// stable sorted order (the host sorted their rows), so that a boundary inside a slot splits it
/// at one position (device/distributed_splitters.inl, the commit at the all-gather).
template <class Bits, class Raw>
__global__ void __launch_bounds__(bracket_threads)
    slot_order_kernel(const Bits* keys_in, Bits* keys_out, const Raw* values_in, Raw* values_out,
                      const unsigned long long* moves, std::size_t m) {
  const std::size_t j = std::size_t(blockIdx.x) * bracket_threads + threadIdx.x;
  if (j >= m) return;
  const unsigned long long from = moves[2 * j];
  const unsigned long long to = moves[2 * j + 1];
  keys_out[to] = keys_in[from];
  if (values_in != nullptr) values_out[to] = values_in[from];
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
