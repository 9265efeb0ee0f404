// The one way ringsweep launches a kernel: cudaLaunchKernelEx, serial, as a programmatic
// dependent of the kernel before it in the stream, or cooperative (every block resident at once).
#pragma once

#include <cstddef>
#include <utility>

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// How a kernel is launched after the one before it in the stream.
enum class launch_order {
  serial,     // starts once its predecessor has finished
  dependent,  // programmatic dependent launch: may start early, waits on the device
  cooperative,  // starts once its predecessor has finished, every block resident at once (or the
                // launch fails: cudaErrorCooperativeLaunchTooLarge); its blocks may wait on each other
};

/// How the launches after a sort's first go: launch_order::dependent where the policy asks for
/// programmatic dependent launches (`DEPENDENT`, Policy::DEPENDENT_LAUNCH) and `kernel`, as the
/// device runs it, was built for sm_90 or newer (an attribute query: no sync; code JIT-compiled
/// from older PTX has no dependency wait), else serial. Each such launch waits on the device.
///
///     launch_order later;
///     if (cudaError_t e = later_order<Policy::DEPENDENT_LAUNCH>(pass_kernel, later)) return e;
template <bool DEPENDENT, class Kernel>
__host__ cudaError_t later_order(Kernel kernel, launch_order& order) {
  order = launch_order::serial;
  if constexpr (DEPENDENT) {
    cudaFuncAttributes attr;
    const cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
    if (e != cudaSuccess) return e;
    if (attr.ptxVersion >= 90) order = launch_order::dependent;
  } else {
    (void)kernel;
  }
  return cudaSuccess;
}

/// The current device's SM count (attribute queries only: no sync).
__host__ inline cudaError_t device_sms(int& sms) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return e;
}

/// Blocks of `kernel` (`threads` a block, `shared_bytes` of dynamic shared memory) the current
/// device holds at once: SMs x its occupancy (0 where it fits nowhere). Attribute queries only.
template <class Kernel>
__host__ cudaError_t resident_blocks(Kernel kernel, int threads, std::size_t shared_bytes, std::size_t& blocks) {
  int sms = 0, per_sm = 0;
  cudaError_t e = device_sms(sms);
  if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes);
  blocks = e == cudaSuccess ? std::size_t(sms > 0 ? sms : 0) * std::size_t(per_sm > 0 ? per_sm : 0) : 0;
  return e;
}

/// Launches `kernel` with `shared_bytes` of dynamic shared memory through cudaLaunchKernelEx (the
/// only launch form ringsweep uses); more than 48 KiB needs the kernel's
/// cudaFuncAttributeMaxDynamicSharedMemorySize set first.
///
///     launch_with_shared(onesweep_kernel<C, S>, grid, threads, bytes, stream, launch_order::serial, params);
template <class... Params, class... Args>
__host__ cudaError_t launch_with_shared(void (*kernel)(Params...), unsigned grid, unsigned threads,
                                        std::size_t shared_bytes, cudaStream_t stream, launch_order order,
                                        Args&&... args) {
  cudaLaunchAttribute attr = {};
  if (order == launch_order::dependent) {
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
  } else if (order == launch_order::cooperative) {
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
  }
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid, 1, 1);
  config.blockDim = dim3(threads, 1, 1);
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = order == launch_order::serial ? nullptr : &attr;
  config.numAttrs = order == launch_order::serial ? 0u : 1u;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

/// Launches `kernel` (no dynamic shared memory) through cudaLaunchKernelEx.
///
///     launch(bins_scan_kernel<256, false>, passes, bins_scan_threads, stream, launch_order::serial, params);
template <class... Params, class... Args>
__host__ cudaError_t launch(void (*kernel)(Params...), unsigned grid, unsigned threads, cudaStream_t stream,
                            launch_order order, Args&&... args) {
  return launch_with_shared(kernel, grid, threads, 0, stream, order, std::forward<Args>(args)...);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
