// ringsweep SIMT backend: runs thread blocks as sets of fibers (internal).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "traffic.hpp"

namespace simt {
namespace detail {

// Runs blocks one at a time on the calling OS thread; keeps its fiber stacks between blocks.
class block_runner {
 public:
  block_runner();
  ~block_runner();
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  void run(const std::function<void()>& body, uint3 block, dim3 block_dim, dim3 grid_dim, std::uint64_t block_linear);

  kernel_traffic traffic;  // traced global accesses of the blocks this runner ran

 private:
  std::vector<unsigned char*> stacks_;
  std::vector<traced_access> trace_;
  std::vector<char> sync_objects_;
};

}  // namespace detail
}  // namespace simt
