// ringsweep SIMT backend: the kernels whose parameter types the backend has seen, so that a launch
// through `const void*` (cudaLaunchKernel, cudaLaunchCooperativeKernel with `(void*)kernel`) can
// unpack its `void** args`. A kernel is remembered by every typed call that names it: a launch
// (<<<>>>, cudaLaunchKernelEx, the typed cudaLaunchKernel), cudaFuncSetAttribute,
// cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor. The wrap step
// (simt/cmake/ringsweep_simt_chevrons.py) strips a `(void*)` cast from a launch call's first argument, so
// `cudaLaunchKernel((void*)k, grid, block, args)` in a wrapped .cu is typed anyway.
//
//   simt::detail::remember_kernel(my_kernel);              // now (void*)my_kernel can be launched
//   cudaLaunchKernel((const void*)my_kernel, 4, 128, args); // unpacks args as my_kernel's parameters
#pragma once

#include <cstddef>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "thread_body.hpp"
#include "types.hpp"

namespace simt {
namespace detail {
cudaError_t launch_on_stream(const cudaLaunchConfig_t& config, const void* kernel, std::function<void()> thread_body);
/// Launches `kernel` (really a void(*)(Params...)) with the arguments `args[i]` point to.
using erased_launcher = cudaError_t (*)(const cudaLaunchConfig_t& config, const void* kernel, void** args);
void register_kernel(const void* kernel, erased_launcher launcher);
/// The launcher registered for `kernel`, or nullptr.
erased_launcher find_kernel(const void* kernel);

template <class... Params, std::size_t... I>
std::function<void()> bind_kernel_args(void (*kernel)(Params...), void** args, std::index_sequence<I...>) {
  using params_t = std::tuple<typename std::decay<Params>::type...>;
  // Copied now: the argument array may be gone by the time the grid runs.
  return make_thread_body(&run_kernel_args<void (*)(Params...), params_t>, reinterpret_cast<erased_fn>(kernel),
                          new params_t(*static_cast<typename std::decay<Params>::type*>(args[I])...),
                          &destroy_args<params_t>);
}

template <class... Params>
cudaError_t launch_with_args(const cudaLaunchConfig_t& config, const void* kernel, void** args) {
  if (sizeof...(Params) > 0 && args == nullptr) return cudaErrorInvalidValue;
  auto typed = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(kernel));
  return launch_on_stream(config, kernel, bind_kernel_args(typed, args, std::index_sequence_for<Params...>{}));
}

template <class... Params>
void remember_kernel(void (*kernel)(Params...)) {
  if (kernel != nullptr) register_kernel(reinterpret_cast<const void*>(kernel), &launch_with_args<Params...>);
}
template <class T>
void remember_kernel(T*) {}  // not a kernel's type: nothing to remember
}  // namespace detail
}  // namespace simt
