// ringsweep SIMT backend: runs thread blocks as sets of fibers (internal).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "traffic.hpp"

namespace simt {
namespace detail {

struct grid_barrier;  // of a cooperative launch (launch.cpp)
// The grid barrier of the running block's launch; nullptr outside a cooperative launch.
grid_barrier* current_grid();

// Runs blocks one at a time on the calling OS thread; keeps its fiber stacks between blocks.
class block_runner {
 public:
  block_runner();
  ~block_runner();
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  // `grid`: the launch's grid barrier when it is cooperative, else nullptr.
  void run(const std::function<void()>& body, uint3 block, dim3 block_dim, dim3 grid_dim, std::uint64_t block_linear,
           grid_barrier* grid);

  kernel_traffic traffic;  // traced global accesses of the blocks this runner ran

 private:
  std::vector<unsigned char*> stacks_;
  std::vector<traced_access> trace_;
  std::vector<char> sync_objects_;
};

}  // namespace detail
}  // namespace simt
