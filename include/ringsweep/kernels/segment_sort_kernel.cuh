// The kernel that sorts a segmented sort's compact, medium and small segments from the
// classification's lists (groups of a block or the whole block each, the single-tile sort's agent)
// and prepares the large ones' passes: one launch between the classification and the passes.
#pragma once

#include "../agent/segment_lists.cuh"
#include "../agent/large_offsets.cuh"
#include "../agent/segment_blocks.cuh"
#include "../agent/kernel_arrays.cuh"
#include "../detail/dynamic_shared.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/policy_for_arch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The dynamic shared memory of segment_blocks_kernel: one storage per compact group, per medium
/// group, the small sort's, or the large segments' offsets', one phase at a time.
template <class Config>
union segment_blocks_storage {
  using classes = segment_block_classes<Config>;
  typename classes::compact_sort::TempStorage compact[classes::COMPACT != 0 ? classes::COMPACT_GROUPS : 1];
  typename classes::medium_sort::TempStorage medium[classes::MEDIUM != 0 ? classes::MEDIUM_GROUPS : 1];
  typename classes::small_sort_t::TempStorage small;
  typename large_offsets<Config, classes::THREADS>::TempStorage offsets;
};

/// One launch for every block class of a segmented sort of `Config` (segment_block_classes), a
/// persistent grid of blocks of `THREADS` threads, each block in turn:
/// 1. the front list (compact and medium segments) CHUNK items at a time, chunk `b, b + gridDim.x,
///    ...`, each item into its class's queue (queue_front_items: shared memory); after each chunk
///    the groups of the compact shape sort the queued compact segments side by side while enough
///    wait to give every group one, then the groups of the medium shape the medium ones
///    (sort_queued); after the last chunk what is left, a group without a segment sorting none. So
///    only a block's last round of each class leaves groups idle, however the classes mix;
/// 2. the small segments, from the back of the items, `b, b + gridDim.x, ...`, one whole block each;
/// 3. where the host planned a large class (`large.large_word` not null), the large segments'
///    histogram, scan and copy (large_offsets).
/// Every class ranks by per-thread counters over 4-bit digits (small_sort's THREAD_RANK); `Output`
/// (segment_in_place or segment_first_k, segment_lists.cuh) says where each segment goes. One
/// block an SM (`__launch_bounds__(THREADS, 1)`: 128 registers at 512 threads, as many as the
/// compact block's eight and the medium block's two blocks an SM had). The launch gives
/// sizeof(segment_blocks_storage<Config>) bytes of dynamic shared memory.
template <class Config, class Output = segment_in_place>
__global__ void __launch_bounds__(segment_block_classes<Config>::THREADS, 1)
    segment_blocks_kernel(segment_sort_params<typename Config::key_type, typename Config::value_raw_t> p,
                          Output out,
                          large_offsets_params<typename Config::key_type, typename Config::value_raw_t> large) {
  if constexpr (policy_compiled_here<typename Config::policy>()) {
    if constexpr (Config::policy::DEPENDENT_LAUNCH) {  // may start early: waits for the lists
      grid_dependency_wait();
      grid_dependents_launch();
    }
    using classes = segment_block_classes<Config>;
    segment_blocks_storage<Config>& temp = dynamic_shared<segment_blocks_storage<Config>>();
    if constexpr (classes::MEDIUM != 0) {
      __shared__ segment_queue<classes::QUEUE> compact, medium;
      __shared__ u32 added[2][2];
      queue_marks marks;
      const u32 front = load_global(p.front_count);
      for (u32 first = blockIdx.x * u32(classes::CHUNK);; first += gridDim.x * u32(classes::CHUNK)) {
        const bool more = first < front;  // else: drain the queues and stop
        if (more) {
          // sass: front_chunk
          queue_front_items<classes::COMPACT>(p.items, first, int(min_of<u32>(u32(classes::CHUNK), front - first)),
                                              compact, medium, added, marks);
          // sass: end
        }
        if constexpr (classes::COMPACT != 0) {
          // sass: compact_class
          sort_queued<typename classes::compact_sort, classes::COMPACT_GROUPS>(temp.compact, p, out, compact, marks, 0,
                                                                               !more);
          // sass: end
        }
        // sass: medium_class
        sort_queued<typename classes::medium_sort, classes::MEDIUM_GROUPS>(temp.medium, p, out, medium, marks, 1,
                                                                           !more);
        // sass: end
        if (!more) break;
      }
    }
    // sass: small_class
    const u32 smalls = load_global(p.small_count);
    for (u32 i = blockIdx.x; i < smalls; i += gridDim.x) {
      const u64 at = p.capacity - 1 - i;
      sort_listed_segment<typename classes::small_sort_t>(temp.small, p, out, at, load_global(p.items + at), true);
      __syncthreads();  // shared memory free for the next segment
    }
    // sass: end
    // sass: large_offsets
    if (large.large_word != nullptr) large_offsets<Config, classes::THREADS>(temp.offsets).run(large);
    // sass: end
  } else {
    (void)p;
    (void)out;
    (void)large;  // not this policy's architecture: never launched (see policy.cuh)
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
