// The one way ringsweep launches a kernel: cudaLaunchKernelEx, serial or as a programmatic
// dependent of the kernel before it in the stream.
#pragma once

#include <utility>

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// How a kernel is launched after the one before it in the stream.
enum class launch_order {
  serial,     // starts once its predecessor has finished
  dependent,  // programmatic dependent launch: may start early, waits on the device
};

/// Launches `kernel` through cudaLaunchKernelEx (the only launch form ringsweep uses).
///
///     launch(bins_scan_kernel<256, false>, passes, bins_scan_threads, stream, launch_order::serial, params);
template <class... Params, class... Args>
__host__ cudaError_t launch(void (*kernel)(Params...), unsigned grid, unsigned threads, cudaStream_t stream,
                            launch_order order, Args&&... args) {
  cudaLaunchAttribute dependent = {};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid, 1, 1);
  config.blockDim = dim3(threads, 1, 1);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = order == launch_order::dependent ? &dependent : nullptr;
  config.numAttrs = order == launch_order::dependent ? 1u : 0u;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
