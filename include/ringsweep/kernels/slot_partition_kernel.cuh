// slot_partition_kernel: the distributed sort's stable partition (device/distributed_sort.inl) of a
// rank's keys (and values), as the caller gave them, into a second array by slot. The splitters
// (the distinct keys at the rank boundaries, sorted) cut the key order into slots: slot 2i holds
// the keys strictly between splitter i - 1 and splitter i, slot 2i + 1 the keys equal to splitter
// i, slot 2m the keys above the last of m splitters. Slots in order and each slot in input order
// is exactly what the ranks receive in rank order: the keys bound for rank q form one range, and
// the split of a splitter's equal keys between two ranks falls inside its slot.
//
// Three kernels, no look-back: a count kernel counts each block's keys per slot over a fixed
// contiguous range (counts [slot][block]); `slot_scan_kernel`, one block, turns the counts into
// exclusive offsets in that (slot-major) order; a scatter kernel walks each block's range again in
// order and writes every key at its slot's next offset: stable. Block-wide
// (`slot_count_block_kernel`, `slot_scatter_block_kernel`, 256 threads) while the slots fit
// shared memory (up to 512 ranks): counts in shared memory, one global write per block and slot;
// the scatter ranks a tile of 256 keys by warp (warp_match_any) and across the warps through
// per-warp slot counts in shared memory. Beyond that one warp per block (`slot_count_kernel`,
// `slot_scatter_kernel`), its counters in global memory.
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../warp/warp_match.cuh"
#include "boundary_histogram_kernel.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

constexpr int slot_partition_threads = 32;  // one warp per block: the warp walks its range in order
constexpr int slot_scan_threads = 256;
/// Bits of a slot the warp matches on: up to 2^16 slots, so 2^15 ranks.
constexpr int slot_match_bits = 16;

/// Arguments of the partition kernels. Block `b` of `blocks` owns keys `[b * span, (b + 1) * span)`
/// (clipped to n).
template <class SortKey, class ValueRaw>
struct slot_partition_params {
  using bits_type = typename key_traits<SortKey>::bits_type;
  const bits_type* keys_in;
  bits_type* keys_out;
  const ValueRaw* values_in;  // null: keys only
  ValueRaw* values_out;
  std::size_t n;
  std::size_t span;
  unsigned blocks;
  key_digits<SortKey> digits;
  const unsigned char* splitters;  // [count][probe_max_digits], sorted, distinct in their first `depth` bytes
  unsigned count;
  int depth;                        // the digits of the window
  unsigned long long* offsets;      // [2 * count + 1][blocks]: counts, then their exclusive scan
};

constexpr int slot_block_threads = 256;
constexpr int slot_block_warps = slot_block_threads / 32;
/// Slots the block-wide kernels hold in shared memory: 2p - 1 <= 1023 (p <= 512) and the idle
/// lanes' one (the per-warp tile counts: 8 x 1024 x 2 bytes).
constexpr unsigned slot_block_max_slots = 1024;

template <class SortKey, class ValueRaw>
__device__ __forceinline__ unsigned slot_of(const slot_partition_params<SortKey, ValueRaw>& p,
                                            const typename key_traits<SortKey>::bits_type& raw) {
  bool equal = false;
  const unsigned i = lower_bound_prefix(p.digits, raw, p.splitters, p.count, p.depth, equal);
  return 2 * i + (equal ? 1u : 0u);
}

/// offsets[s][b] = the keys of block b's range in slot s.
template <class SortKey, class ValueRaw>
__global__ void __launch_bounds__(slot_partition_threads)
    slot_count_kernel(slot_partition_params<SortKey, ValueRaw> p) {
  const unsigned slots = 2 * p.count + 1;
  const unsigned block = blockIdx.x;
  const u32 lane = lane_id();
  for (unsigned s = lane; s < slots; s += slot_partition_threads) p.offsets[std::size_t(s) * p.blocks + block] = 0;
  __syncwarp();
  const std::size_t begin = std::size_t(block) * p.span;
  const std::size_t end = begin + p.span < p.n ? begin + p.span : p.n;
  for (std::size_t base = begin; base < end; base += slot_partition_threads) {
    const std::size_t i = base + lane;
    const bool live = i < end;
    const unsigned slot = live ? slot_of(p, load_global(p.keys_in + i)) : 2 * p.count + 1;  // a slot of its own
    const u32 peers = warp_match_any<slot_match_bits>(slot);
    if (live && (peers & lanemask_lt()) == 0) p.offsets[std::size_t(slot) * p.blocks + block] += __popc(peers);
    __syncwarp();
  }
}

/// The exclusive scan of `entries` counts in place, by one block: each thread sums a contiguous
/// share, the block scans the shares, each thread writes its share's offsets.
__global__ void __launch_bounds__(slot_scan_threads)
    slot_scan_kernel(unsigned long long* offsets, std::size_t entries) {
  __shared__ unsigned long long sums[slot_scan_threads];
  const std::size_t share = (entries + slot_scan_threads - 1) / slot_scan_threads;
  const std::size_t begin = std::size_t(threadIdx.x) * share;
  const std::size_t end = begin + share < entries ? begin + share : entries;
  unsigned long long sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += offsets[i];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned step = 1; step < slot_scan_threads; step *= 2) {  // inclusive scan of the shares
    const unsigned long long add = threadIdx.x >= step ? sums[threadIdx.x - step] : 0ull;
    __syncthreads();
    sums[threadIdx.x] += add;
    __syncthreads();
  }
  unsigned long long at = sums[threadIdx.x] - sum;
  for (std::size_t i = begin; i < end; ++i) {
    const unsigned long long c = offsets[i];
    offsets[i] = at;
    at += c;
  }
}

/// Every key (and value) of block b's range to `out[offsets[slot][b]++]`, in input order.
template <class SortKey, class ValueRaw>
__global__ void __launch_bounds__(slot_partition_threads)
    slot_scatter_kernel(slot_partition_params<SortKey, ValueRaw> p) {
  const unsigned block = blockIdx.x;
  const u32 lane = lane_id();
  const std::size_t begin = std::size_t(block) * p.span;
  const std::size_t end = begin + p.span < p.n ? begin + p.span : p.n;
  for (std::size_t base = begin; base < end; base += slot_partition_threads) {
    const std::size_t i = base + lane;
    const bool live = i < end;
    typename key_traits<SortKey>::bits_type raw{};
    if (live) raw = load_global(p.keys_in + i);
    const unsigned slot = live ? slot_of(p, raw) : 2 * p.count + 1;
    const u32 peers = warp_match_any<slot_match_bits>(slot);
    const u32 before = peers & lanemask_lt();
    unsigned long long* next = p.offsets + std::size_t(live ? slot : 0) * p.blocks + block;
    if (live) {
      const std::size_t to = std::size_t(*next) + __popc(before);
      store_global(p.keys_out + to, raw);
      if (p.values_in != nullptr) store_global(p.values_out + to, load_global(p.values_in + i));
    }
    __syncwarp();
    if (live && before == 0) *next += __popc(peers);
    __syncwarp();
  }
}

/// Block-wide: offsets[s][b] = the keys of block b's range in slot s; one global write per slot.
template <class SortKey, class ValueRaw>
__global__ void __launch_bounds__(slot_block_threads)
    slot_count_block_kernel(slot_partition_params<SortKey, ValueRaw> p) {
  __shared__ unsigned counts[slot_block_max_slots];
  const unsigned slots = 2 * p.count + 1;
  for (unsigned s = threadIdx.x; s < slots; s += slot_block_threads) counts[s] = 0;
  __syncthreads();
  const std::size_t begin = std::size_t(blockIdx.x) * p.span;
  const std::size_t end = begin + p.span < p.n ? begin + p.span : p.n;
  for (std::size_t i = begin + threadIdx.x; i < end; i += slot_block_threads) {
    atomicAdd(&counts[slot_of(p, load_global(p.keys_in + i))], 1u);
  }
  __syncthreads();
  for (unsigned s = threadIdx.x; s < slots; s += slot_block_threads) {
    p.offsets[std::size_t(s) * p.blocks + blockIdx.x] = counts[s];
  }
}

/// Block-wide: every key (and value) of block b's range to its slot's offset plus the keys of its
/// slot before it in the range, tile by tile of 256 keys: the keys of earlier tiles (`cursor`),
/// of earlier warps in the tile (`tile`, per warp and slot), and of earlier lanes in the warp.
template <class SortKey, class ValueRaw>
__global__ void __launch_bounds__(slot_block_threads)
    slot_scatter_block_kernel(slot_partition_params<SortKey, ValueRaw> p) {
  __shared__ unsigned cursor[slot_block_max_slots];
  __shared__ unsigned short tile[slot_block_warps][slot_block_max_slots];
  const unsigned slots = 2 * p.count + 1;
  const unsigned warp = threadIdx.x / 32;
  for (unsigned s = threadIdx.x; s < slots; s += slot_block_threads) {
    cursor[s] = 0;
    for (int w = 0; w < slot_block_warps; ++w) tile[w][s] = 0;
  }
  __syncthreads();
  const std::size_t begin = std::size_t(blockIdx.x) * p.span;
  const std::size_t end = begin + p.span < p.n ? begin + p.span : p.n;
  for (std::size_t base = begin; base < end; base += slot_block_threads) {
    const std::size_t i = base + threadIdx.x;
    const bool live = i < end;
    typename key_traits<SortKey>::bits_type raw{};
    if (live) raw = load_global(p.keys_in + i);
    const unsigned slot = live ? slot_of(p, raw) : slots;  // a slot of its own
    const u32 peers = warp_match_any<slot_match_bits>(slot);
    const u32 before = peers & lanemask_lt();
    const bool leader = live && before == 0;
    if (leader) tile[warp][slot] = static_cast<unsigned short>(__popc(peers));
    __syncthreads();
    std::size_t to = 0;
    if (live) {
      unsigned at = cursor[slot] + unsigned(__popc(before));
      for (unsigned w = 0; w < warp; ++w) at += tile[w][slot];
      to = std::size_t(p.offsets[std::size_t(slot) * p.blocks + blockIdx.x]) + at;
    }
    __syncthreads();
    if (leader) {
      atomicAdd(&cursor[slot], unsigned(__popc(peers)));
      tile[warp][slot] = 0;
    }
    if (live) {
      store_global(p.keys_out + to, raw);
      if (p.values_in != nullptr) store_global(p.values_out + to, load_global(p.values_in + i));
    }
    __syncwarp();  // this tile's zeroing before the next tile's counts, lane to lane
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
