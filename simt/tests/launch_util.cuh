// Launch helper for the backend's own tests: cudaLaunchKernelEx with a grid and block shape.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace simt_test {

template <class... Params, class... Args>
cudaError_t launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace simt_test
