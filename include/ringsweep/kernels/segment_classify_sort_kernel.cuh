// The first kernel of a segmented sort whose keys a network can sort (images of at most 64 bits):
// it classifies the segments and sorts the tiny ones at once, in registers (subwarp_sort), so that
// only the small and large ones are listed for later launches.
#pragma once

#include <cstddef>

#include "../agent/segment_lists.cuh"
#include "../agent/subwarp_sort.cuh"
#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"
#include "segment_classify_kernel.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Classes of the warp's queue: 0 the one-lane class, c of 1 to 6 sub-warps of 2^(c - 1) lanes.
constexpr int classify_sort_classes = 7;
/// Shared memory of one warp of segment_classify_sort_kernel: its network's buffers, its queue
/// (32 segments and an empty entry), where each class starts, its cursor and its round.
template <class Config>
__host__ __device__ constexpr std::size_t classify_sort_warp_bytes() {
  return sizeof(subwarp_storage<Config>) + sizeof(queued_segment) * (warp_threads + 1) +
         sizeof(u32) * (classify_sort_classes + 1 + 2);
}
/// Threads of a segment_classify_sort_kernel block of `Config`: four warps, or two where four
/// warps pass the 48 KiB of static shared memory (keys of at most 32 bits with 16-byte values:
/// 51,424 bytes).
template <class Config>
__host__ __device__ constexpr int classify_sort_threads() {
  return 4 * classify_sort_warp_bytes<Config>() <= 48 * 1024 ? 128 : 64;
}
/// Warps per SM the registers must allow: 32 (at most 64 registers a thread).
constexpr int classify_sort_warps_per_sm = 32;
/// Blocks per SM for that.
template <class Config>
__host__ __device__ constexpr int classify_sort_min_blocks() {
  return classify_sort_warps_per_sm * warp_threads / classify_sort_threads<Config>();
}

/// Arguments of segment_classify_sort_kernel: the classification's, and the sort's arrays and
/// window for the tiny segments it sorts itself.
template <class Key, class Segments, class ValueRaw>
struct segment_classify_sort_params {
  segment_classify_params<Segments, typename key_traits<Key>::bits_type, ValueRaw> classify;
  sort_arrays<Key, ValueRaw> sort;
};

/// The lanes whose 3-bit class code (ballots `bits`, bit k of each lane's code in bits[k]) is
/// below `code`, and in `same` those whose code equals it.
__device__ __forceinline__ u32 class_below(const u32 (&bits)[3], u32 code, u32& same) {
  u32 below = 0, equal = 0xffffffffu;
RINGSWEEP_UNROLL
  for (int k = 2; k >= 0; --k) {
    const u32 want = 0u - ((code >> k) & 1u);  // all ones where this code's bit k is set
    below |= equal & ~bits[k] & want;
    equal &= ~(bits[k] ^ want);
  }
  same = equal;
  return below;
}

/// Persistent grid; each warp takes 32 consecutive segments at a time, one per lane. A segment of
/// 2 to `tiny_keys` keys (at most subwarp_sort's MAX_KEYS) is tiny: the warp queues its tiny
/// segments by the lanes each needs (1, 2, 4, ... 32, a power of two) and sorts them class by class,
/// `32 / lanes` segments at once, then those of at most half a lane's keys, 32 at once by the
/// one-lane variant's smaller network (where the registers hold it: ONE_LANE_FITS); every other
/// segment goes to classify_segment (one key copied, small and large listed).
/// `Output`: where tiny, small and one-key segments go (segment_lists.cuh).
template <class Config, class Segments, class Output = segment_in_place>
__global__ void __launch_bounds__(classify_sort_threads<Config>(), classify_sort_min_blocks<Config>())
    segment_classify_sort_kernel(
        segment_classify_sort_params<typename Config::key_type, Segments, typename Config::value_raw_t> p, Output out) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    // The first kernel of the sort (after its memset): waits for nothing, and lets the next one
    // be scheduled at once.
    if constexpr (Config::policy::DEPENDENT_LAUNCH) grid_dependents_launch();
    using net_t = subwarp_sort<Config>;
    using one_lane_t = subwarp_sort<Config, net_t::SMALL_ITEMS>;
    constexpr int WARPS = classify_sort_threads<Config>() / warp_threads;
    static_assert(WARPS * classify_sort_warp_bytes<Config>() <= 48 * 1024, "static shared memory of a block");
    // Class 0: at most SMALL_ITEMS keys, one lane each (one_lane_t); class c of 1 to 6: sub-warps
    // of 2^(c - 1) lanes (1 to 32) of net_t. Codes 0 to 6 and 7 (none) fit three ballots.
    constexpr int CLASSES = classify_sort_classes;
    __shared__ typename net_t::TempStorage temp[WARPS];
    // The warp's tiny segments by class, an empty entry after them, and where each class starts.
    __shared__ queued_segment queue[WARPS][warp_threads + 1];
    __shared__ u32 class_first[WARPS][CLASSES + 1];
    __shared__ u32 cursor[WARPS];
    const int warp = int(threadIdx.x) / warp_threads;
    const u32 lane = lane_id();
    if (lane == 0) queue[warp][warp_threads].item = 0;
    // The warp's round (32 segments each) is counted in shared memory, not in a register held
    // through the network: with it, the pairs kernels spilled at 64 registers.
    __shared__ u32 warp_round[WARPS];
    if (lane == 0) warp_round[warp] = 0;
    __syncwarp();
    for (;;) {
      const u32 block = opaque(u32(blockIdx.x));  // made again each round, not held
      const u64 first = ((u64(warp_round[warp]) * gridDim.x + block) * WARPS + u64(warp)) * warp_threads;
      if (first >= p.classify.num_segments) break;
      const u64 s = first + lane;
      u64 begin = 0, end = 0;
      int cls = -1;  // the class of a tiny segment: 0, or 1 + log2 of its lanes
      if (s < p.classify.num_segments && p.classify.segments.bounds(s, p.classify.n, begin, end)) {
        const u64 size = end - begin;
        if (size >= 2 && size <= u64(p.classify.tiny_keys)) {  // at most MAX_KEYS
          const int lanes = net_t::lanes_for(u32(size));
          cls = one_lane_t::ONE_LANE_FITS && size <= u64(net_t::SMALL_ITEMS) ? 0 : 32 - __clz(lanes);
        } else {
          // sass: cold
          // (the instruction report's model: 32 tiny segments a warp, which never come here)
          classify_segment(p.classify, out, s, begin, size);
          // sass: end
        }
      }
      // The tiny segments to the warp's queue, class after class; class c's are at
      // [class_first[c], class_first[c + 1]).
      // The class's three bits by three ballots (none: 7, after every class): the lanes of a
      // class below `c` and those of class `c` follow by logic alone (class_below), instead of a
      // ballot and two counts for each of the six classes.
      const u32 code = cls >= 0 ? u32(cls) : 7u;
      const u32 bits[3] = {__ballot_sync(0xffffffffu, (code & 1u) != 0), __ballot_sync(0xffffffffu, (code & 2u) != 0),
                           __ballot_sync(0xffffffffu, (code & 4u) != 0)};
      u32 mine = 0;
      const u32 below = class_below(bits, code, mine);
      u32 lane_class = 0;
      if (lane <= u32(CLASSES)) class_first[warp][lane] = u32(__popc(class_below(bits, lane, lane_class)));
      const u32 at = u32(__popc(below)) + u32(__popc(mine & lanemask_lt()));
      if (cls >= 0) {
        queue[warp][at].item = segment_item::make(begin, end - begin);
        queue[warp][at].segment = s;
      }
      __syncwarp();
      // Classes 1 to 6, class by class, 32 / lanes segments at a time. The class and the queue
      // cursor live in shared memory (cursor[warp]: class << 8 | next), read again after each
      // network: every register goes to the network's keys (held through it, they spilled at 64
      // registers).
      if (lane == 0) cursor[warp] = 1u << 8 | class_first[warp][1];
      __syncwarp();
      for (;;) {
        const u32 state = cursor[warp];
        const int c = int(state >> 8);
        const u32 next = state & 0xffu;
        if (c >= CLASSES) break;
        if (next >= class_first[warp][c + 1]) {  // the class is done: the next one
          __syncwarp();
          if (lane == 0) cursor[warp] = u32(c + 1) << 8 | (c + 1 < CLASSES ? class_first[warp][c + 1] : 0u);
          __syncwarp();
          continue;
        }
        const int shift = c - 1;  // log2 of the class's lanes
        const u32 k = next + (lane >> shift);  // this sub-warp's segment
        const u32 at_k = k < class_first[warp][c + 1] ? k : u32(warp_threads);  // none: the empty entry
        net_t(temp, warp, p.sort).sort(&queue[warp][at_k], 1 << shift, out);
        __syncwarp();
        if (lane == 0) cursor[warp] = state + u32(warp_threads >> shift);
        __syncwarp();
      }
      // Then class 0 (at most SMALL_ITEMS keys), the queue's first entries: one lane each, all of
      // them in one round of the smaller network.
      if constexpr (one_lane_t::ONE_LANE_FITS) {
        if (class_first[warp][1] != 0) {
          const u32 at_k = lane < class_first[warp][1] ? lane : u32(warp_threads);  // none: the empty entry
          // sass: net_one_lane
          one_lane_t(temp, int(opaque(u32(warp))), p.sort).sort(&queue[warp][at_k], 1, out);  // warp made again
          // sass: end
          __syncwarp();
        }
      }
      __syncwarp();  // the queue's next use
      if (lane == 0) warp_round[warp] += 1;
      __syncwarp();
    }
  } else {
    (void)p;
    (void)out;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
