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

// Runs blocks one at a time on the calling OS thread; keeps its fiber stacks between blocks.
class block_runner {
 public:
  block_runner();
  ~block_runner();
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  // Runs block `block` (linear index `block_linear`) of `grid` to its end.
  void run(grid_run& grid, uint3 block, std::uint64_t block_linear);

  kernel_traffic traffic;  // traced global accesses of the blocks this runner ran

 private:
  std::vector<unsigned char*> stacks_;
  std::vector<traced_access> trace_;
  std::vector<char> sync_objects_;
  // Dynamic shared memory (extern __shared__), 256-byte aligned, sized for the grid being run
  // (a runner serves one grid); one buffer per runner, so blocks running at a time never share it.
  struct aligned_free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, aligned_free> dynamic_smem_;
  std::size_t dynamic_smem_bytes_ = 0;
};

}  // namespace detail
}  // namespace simt
