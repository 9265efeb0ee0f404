// ringsweep SIMT backend: the state of one launched grid, which may still run after
// cudaLaunchKernelEx returns (internal; launch.cpp owns it, scheduler.cpp reads it).
//
// Programmatic dependent launch: a grid launched with cudaLaunchAttributeProgrammaticStreamSerialization
// into the stream of the grid still in flight gets that grid as its `primary`. Its blocks start once
// every block of the primary has called cudaTriggerProgrammaticLaunchCompletion() or exited
// (`triggered` == `blocks`); cudaGridDependencySynchronize() in it waits for `complete`, which the
// host thread sets (release) after joining the primary's workers.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "race_annotations.hpp"
#include "traffic.hpp"

namespace simt {
namespace detail {

// The grid-wide barrier of a cooperative launch: blocks arrive once per grid_group::sync().
// (Reached through the running block, not a thread-local: shared-memory poison overwrites those.)
struct grid_barrier {
  std::uint64_t blocks = 0;
  std::atomic<std::uint64_t> arrived{0};
  std::atomic<std::uint64_t> generation{0};
};

struct grid_run {
  std::function<void()> body;  // owns the kernel's arguments
  const void* kernel = nullptr;
  dim3 grid, block;
  std::uint64_t blocks = 0;
  std::size_t dynamic_smem_bytes = 0;      // per block (extern __shared__)
  cudaStream_t stream = nullptr;
  bool cooperative = false;
  bool tracing = false;
  grid_barrier barrier;                    // used by a cooperative launch only
  std::atomic<std::uint64_t> next{0};      // next block to hand out
  std::mutex traffic_mutex;
  kernel_traffic traffic;
  int launched = 0;                        // race build: released by the launching thread
  unsigned workers_left = 0;               // worker loops still running (launch.cpp's pool)
  std::mutex workers_mutex;
  std::condition_variable workers_done;
  std::vector<void*> spent_race_fibers;    // the runners' fibers (race build), recycled when joined

  // Programmatic dependent launch.
  std::shared_ptr<grid_run> primary;            // the grid this one may overlap (until it is joined)
  std::atomic<std::uint64_t> triggered{0};      // blocks that triggered their dependents or exited
  std::atomic<bool> complete{false};            // all workers joined, memory effects published
  std::atomic<unsigned> blocks_waiting{0};      // blocks of this grid now waiting in
                                                // cudaGridDependencySynchronize (diagnostics)
  std::atomic<grid_run*> dependent{nullptr};    // the grid overlapping this one, while it does
  std::mutex state_mutex;
  std::condition_variable state_changed;        // `triggered` reached `blocks`, or `complete`

  // A block triggers its dependents (once per block: the caller keeps the per-block flag).
  void count_trigger() {
    if (triggered.fetch_add(1, std::memory_order_acq_rel) + 1 == blocks) {
      const race::ignore_sync_scope unordered;  // a trigger orders no memory (race build)
      std::lock_guard<std::mutex> lock(state_mutex);
      state_changed.notify_all();
    }
  }
  bool triggered_all() const { return triggered.load(std::memory_order_acquire) >= blocks; }
  bool is_complete() const { return complete.load(std::memory_order_acquire); }
};

// Waits (blocking the calling OS thread) up to `microseconds` for `primary` to complete.
void wait_for_primary(grid_run& primary, unsigned microseconds);

// Joins the grid in flight, if any: records its traffic and marks it complete. Every runtime entry
// point that can observe memory or ordering calls it first.
void drain_grids();

}  // namespace detail
}  // namespace simt
