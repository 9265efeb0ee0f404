// ringsweep SIMT backend: runs thread blocks as sets of fibers (internal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "traffic.hpp"

namespace simt {
namespace detail {

struct grid_barrier;  // of a cooperative launch (grid_run.hpp)
struct grid_run;      // a launched grid (grid_run.hpp)
// The grid barrier of the running block's launch; nullptr outside a cooperative launch.
grid_barrier* current_grid();

// Race-detection build: the fibers of a joined grid, for the runners of later grids to reuse
// (creating a ThreadSanitizer fiber maps and clears its state: most of a race test's time). A
// runner of a dependent launch, which may overlap the grid it depends on, creates its own and
// destroys them, so a reused fiber never carries an order from a grid that is not finished before
// its new block, and the pool never holds more fibers than the runners of one grid use (live
// fibers make every vector-clock operation longer).
void recycle_race_fibers(std::vector<void*>& fibers);

// Runs blocks one at a time on the calling OS thread; keeps its fiber stacks (and race-detection
// fibers) between blocks.
struct block_context;

class block_runner {
 public:
  block_runner();
  ~block_runner();
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  // Runs block `block` (linear index `block_linear`) of `grid` to its end.
  void run(grid_run& grid, uint3 block, std::uint64_t block_linear);

  kernel_traffic traffic;  // traced global accesses of the blocks this runner ran

  // Race-detection build: appends this runner's fibers to `spent` (its grid's, handed to
  // recycle_race_fibers once the grid is joined); the runner keeps none.
  void hand_over_race_fibers(std::vector<void*>& spent);

 private:
  std::vector<unsigned char*> stacks_;
  std::vector<void*> race_fibers_;  // the race-detection build's fiber per thread (else nullptr)
  bool reuses_race_fibers_ = false;  // taken from (and handed back to) recycle_race_fibers' pool
  char block_start_ = 0;            // sync object (block_context::block_start)
  std::vector<traced_access> trace_;
  std::vector<char> sync_objects_;
  // Dynamic shared memory (extern __shared__), 256-byte aligned, sized for the grid being run
  // (a runner serves one grid); one buffer per runner, so blocks running at a time never share it.
  struct aligned_free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, aligned_free> dynamic_smem_;
  std::size_t dynamic_smem_bytes_ = 0;
  // The block being run, kept from block to block so that its vectors keep their storage: a
  // block's own allocations (its fibers, orders, warp groups) were about a tenth of a sanitized
  // test's run time, ASan recording a stack trace for each.
  std::unique_ptr<block_context> context_;
};

}  // namespace detail
}  // namespace simt
