// ringsweep SIMT backend: kernel launch and per-function attributes.
//
// cudaLaunchKernelEx starts the grid and returns: blocks are handed out in ascending linear order
// from a shared counter to RINGSWEEP_SIMT_WORKERS OS threads; each block's threads run as fibers on
// the OS thread that took the block. The grid stays in flight (one grid at a time, process-wide)
// until the next runtime call that could observe memory or ordering (memcpy, memset, malloc, free,
// synchronize, event record or query, capture, graph launch, cudaGetLastError, another launch,
// process exit) waits for it first. A launch with cudaLaunchAttributeProgrammaticStreamSerialization
// (programmaticStreamSerializationAllowed = 1) into the stream of the grid in flight may overlap it,
// as on sm_90: its blocks start once every block of the previous grid has called
// cudaTriggerProgrammaticLaunchCompletion() or exited, and cudaGridDependencySynchronize() in it
// waits until the previous grid has finished and its memory effects are visible. So a dependent
// kernel that reads its predecessor's output before cudaGridDependencySynchronize() can see stale
// data here, as on a GPU. Any other launch (no attribute, another stream, after a non-kernel
// operation) starts after the previous grid has finished; a cooperative launch also finishes before
// it returns, and so does every launch with RINGSWEEP_SIMT_PDL=0 (fully serial, for debugging).
//
//   cudaLaunchAttribute pdl{};
//   pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
//   pdl.val.programmaticStreamSerializationAllowed = 1;
//   cudaLaunchConfig_t config{};  // grid, block, stream as for the previous kernel
//   config.attrs = &pdl;
//   config.numAttrs = 1;
//   cudaLaunchKernelEx(&config, consumer_kernel, out);  // consumer calls cudaGridDependencySynchronize()
#pragma once

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime_api.hpp"
#include "thread_body.hpp"
#include "types.hpp"

namespace simt {
namespace detail {
cudaError_t launch_grid(const cudaLaunchConfig_t& config, const void* kernel, std::function<void()> thread_body);
// A launch into config.stream: recorded while the stream captures (the recording owns copies of
// the configuration and attributes), else started. Every launch API ends here; `thread_body` runs
// the kernel once per GPU thread and owns the arguments. A null `kernel` (a kernel template named
// without its deducible arguments, launched with <<<>>>) is checked against the opt-in shared
// memory limit, since cudaFuncSetAttribute cannot have named it.
cudaError_t launch_on_stream(const cudaLaunchConfig_t& config, const void* kernel, std::function<void()> thread_body);
cudaError_t set_function_attribute(const void* kernel, cudaFuncAttribute attr, int value);
cudaError_t get_function_attributes(cudaFuncAttributes* attr, const void* kernel);
cudaError_t occupancy_blocks_per_sm(int* blocks, const void* kernel, int block_size, size_t dynamic_smem);

/// The thread body of `kernel` over `args` converted to its parameter types now, as a real launch
/// copies them: the grid may still run after the launch returns.
template <class... Params, class... Args>
std::function<void()> bind_kernel(void (*kernel)(Params...), Args&&... args) {
  using params_t = std::tuple<typename std::decay<Params>::type...>;
  return make_thread_body(&run_kernel_args<void (*)(Params...), params_t>, reinterpret_cast<erased_fn>(kernel),
                          new params_t(std::forward<Args>(args)...), &destroy_args<params_t>);
}
}  // namespace detail
}  // namespace simt

#include "kernel_registry.hpp"

template <class... Params, class... Args>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(Params...), Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cudaLaunchKernelEx: argument count differs from the kernel's");
  if (config == nullptr || kernel == nullptr) return cudaErrorInvalidValue;
  simt::detail::remember_kernel(kernel);
  return simt::detail::launch_on_stream(*config, reinterpret_cast<const void*>(kernel),
                                        simt::detail::bind_kernel(kernel, std::forward<Args>(args)...));
}

template <class T>
inline cudaError_t cudaFuncSetAttribute(T* kernel, cudaFuncAttribute attr, int value) {
  simt::detail::remember_kernel(kernel);
  return simt::detail::set_function_attribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* kernel) {
  simt::detail::remember_kernel(kernel);
  return simt::detail::get_function_attributes(attr, reinterpret_cast<const void*>(kernel));
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T kernel, int block_size,
                                                                 size_t dynamic_smem) {
  simt::detail::remember_kernel(kernel);
  return simt::detail::occupancy_blocks_per_sm(blocks, reinterpret_cast<const void*>(kernel), block_size,
                                                dynamic_smem);
}
