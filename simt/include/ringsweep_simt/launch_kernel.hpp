// ringsweep SIMT backend: the C launch API, cudaLaunchKernel and cudaLaunchCooperativeKernel, with
// the kernel's arguments as an array of pointers to them (copied at the launch, as on a GPU).
// Errors are returned and recorded for cudaGetLastError, as every launch API does.
//
//   void* args[] = {&out, &n};
//   cudaLaunchKernel(fill_kernel, dim3(4), dim3(128), args, 0, stream);          // typed: always works
//   cudaLaunchCooperativeKernel((void*)sync_kernel, dim3(8), dim3(64), args);     // see below
//
// The `const void*` forms find the kernel's parameter types in the registry of kernels the backend
// has seen typed (kernel_registry.hpp); a kernel never seen typed is refused with
// cudaErrorInvalidDeviceFunction and a message on stderr. A cooperative launch is
// cudaLaunchKernelEx with cudaLaunchAttributeCooperative: its grid must be resident at once
// (else cudaErrorCooperativeLaunchTooLarge) and it may call grid_group::sync().
#pragma once

#include <cstddef>

#include "kernel_registry.hpp"
#include "types.hpp"

namespace simt {
namespace detail {
cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, bool cooperative,
                                 cudaLaunchAttribute* attr_storage);
// The `const void*` forms: the launcher from the registry, or a recorded refusal.
cudaError_t launch_erased(const void* kernel, const cudaLaunchConfig_t& config, void** args);
}  // namespace detail
}  // namespace simt

template <class... Params>
inline cudaError_t cudaLaunchKernel(void (*func)(Params...), dim3 grid, dim3 block, void** args, size_t smem = 0,
                                    cudaStream_t stream = 0) {
  simt::detail::remember_kernel(func);
  cudaLaunchAttribute attr{};
  return simt::detail::launch_erased(reinterpret_cast<const void*>(func),
                                     simt::detail::launch_config(grid, block, smem, stream, false, &attr), args);
}
inline cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem = 0,
                                    cudaStream_t stream = 0) {
  cudaLaunchAttribute attr{};
  return simt::detail::launch_erased(func, simt::detail::launch_config(grid, block, smem, stream, false, &attr), args);
}

template <class... Params>
inline cudaError_t cudaLaunchCooperativeKernel(void (*func)(Params...), dim3 grid, dim3 block, void** args,
                                               size_t smem = 0, cudaStream_t stream = 0) {
  simt::detail::remember_kernel(func);
  cudaLaunchAttribute attr{};
  return simt::detail::launch_erased(reinterpret_cast<const void*>(func),
                                     simt::detail::launch_config(grid, block, smem, stream, true, &attr), args);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem = 0,
                                               cudaStream_t stream = 0) {
  cudaLaunchAttribute attr{};
  return simt::detail::launch_erased(func, simt::detail::launch_config(grid, block, smem, stream, true, &attr), args);
}
