// ringsweep SIMT backend: the state of one running thread block, its fibers and their pending
// barriers and warp collectives (internal; scheduler.cpp runs it, wait_states.cpp reports it).
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "traffic.hpp"

namespace simt {
namespace detail {

struct grid_barrier;
struct grid_run;

enum class fiber_state { ready, barrier, warp, done };

// An asynchronous copy to shared memory (__pipeline_memcpy_async) that has not landed yet: it
// lands when its thread waits for its batch (`batch`: the thread's commits before it was issued).
struct pending_copy {
  void* dst;
  const void* src;
  std::size_t bytes, zfill;
  std::uint32_t batch;
};

// A bulk copy to shared memory (cp.async.bulk) in flight: it lands when a thread of the block
// next waits on `bar`, the mbarrier it completes on.
struct pending_bulk_copy {
  void* dst;
  const void* src;
  std::size_t bytes;
  std::uint64_t* bar;
};

// One GPU thread of the block: its context and stack, and what it waits in.
struct fiber {
  boost::context::detail::fcontext_t context = nullptr;
  unsigned char* stack = nullptr;  // lowest usable address
  uint3 tid{};
  unsigned linear = 0, warp = 0, lane = 0;
  fiber_state state = fiber_state::ready;
  bool yielded = false;
  // barrier
  int predicate = 0;
  int barrier_result = 0;
  // warp collective
  warp_op op = warp_op::syncwarp;
  unsigned mask = 0;
  std::uint64_t value = 0;
  int arg = 0;
  int width = 32;
  std::uint64_t result = 0;
  void* asan_fake_stack = nullptr;
  // AddressSanitizer build: the lowest address of the stack whose shadow the thread may have left
  // poisoned (the frames still live when it finished; every deeper frame returned and cleared its
  // own). The block clears [stack_dirty, top) when it ends, not the whole stack.
  unsigned char* stack_dirty = nullptr;
  std::uint32_t traced_loads = 0, traced_stores = 0;
  void* race_fiber = nullptr;    // the TSan fiber (race-detection build)
  std::uint32_t sync_slot = 0;   // sync object of the rendezvous it waits in
  std::vector<pending_copy> copies;  // asynchronous copies in flight, oldest first
  std::uint32_t committed = 0;       // batches committed (__pipeline_commit)
  const char* waits_in = nullptr;  // a spin-wait of the backend's own it is in (diagnostics), e.g.
                                   // "cudaGridDependencySynchronize"
};

// A warp collective that some of the lanes in `mask` have reached (`arrived`).
struct warp_group {
  warp_op op;
  unsigned mask;
  unsigned arrived;
  std::uint32_t sync_slot;
};

// Sync objects for the race-detection build: barrier generation g uses slot g % k_sync_slots,
// warp rendezvous r uses k_sync_slots + r % k_sync_slots.
constexpr std::uint32_t k_sync_slots = 4096;

// The running block (one per OS thread at a time; scheduler.cpp's t_block).
struct block_context {
  const std::function<void()>* body = nullptr;
  std::vector<fiber> fibers;
  std::vector<unsigned> order;
  std::vector<unsigned> warp_present, warp_exited;
  std::vector<std::vector<warp_group>> groups;
  unsigned live = 0;
  unsigned barrier_arrived = 0, barrier_true = 0;
  barrier_op barrier_kind = barrier_op::sync;
  boost::context::detail::fcontext_t scheduler = nullptr;
  const void* scheduler_stack_bottom = nullptr;
  std::size_t scheduler_stack_size = 0;
  std::uint64_t rng = 0;
  std::vector<pending_bulk_copy> bulk_copies;  // issued by any thread, landed by the waits
  uint3 block{};
  std::vector<traced_access>* trace = nullptr;
  char* sync_objects = nullptr;  // 2 * k_sync_slots bytes
  std::uint32_t barrier_generation = 0, rendezvous_count = 0;
  void* scheduler_race_fiber = nullptr;
  // Race detection: released by the scheduler before the block's first thread runs and acquired by
  // each thread as it starts, the order a newly created fiber would get from its creator (the
  // runner reuses its fibers from block to block: creating one cost most of a race test's time).
  void* block_start = nullptr;
  grid_barrier* grid = nullptr;
  grid_run* run = nullptr;                  // the launch this block belongs to
  bool triggered = false;                   // cudaTriggerProgrammaticLaunchCompletion() was called
  unsigned grid_dependency_waiters = 0;     // fibers waiting in cudaGridDependencySynchronize()
  void* dynamic_smem = nullptr;             // extern __shared__: this block's buffer (its runner's)
  std::size_t dynamic_smem_bytes = 0;       // the launch's dynamic shared memory size
};

}  // namespace detail
}  // namespace simt
