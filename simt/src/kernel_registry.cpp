// ringsweep SIMT backend: the registry of typed kernels and the C launch API's erased path
// (kernel_registry.hpp, launch_kernel.hpp) and the start of a rewritten <<<>>> launch (chevron.hpp).
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include <cuda_runtime.h>

#include "device_memory.hpp"

namespace simt {
namespace detail {
namespace {
std::mutex g_registry_mutex;
std::unordered_map<const void*, erased_launcher>& registry() {
  static std::unordered_map<const void*, erased_launcher> r;
  return r;
}
}  // namespace

void register_kernel(const void* kernel, erased_launcher launcher) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  registry().emplace(kernel, launcher);
}

erased_launcher find_kernel(const void* kernel) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto it = registry().find(kernel);
  return it == registry().end() ? nullptr : it->second;
}

cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, bool cooperative,
                                 cudaLaunchAttribute* attr_storage) {
  cudaLaunchConfig_t c{};
  c.gridDim = grid;
  c.blockDim = block;
  c.dynamicSmemBytes = smem;
  c.stream = stream;
  if (cooperative) {
    attr_storage->id = cudaLaunchAttributeCooperative;
    attr_storage->val.cooperative = 1;
    c.attrs = attr_storage;
    c.numAttrs = 1;
  }
  return c;
}

cudaError_t launch_erased(const void* kernel, const cudaLaunchConfig_t& config, void** args) {
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  const erased_launcher launcher = find_kernel(kernel);
  if (launcher == nullptr) {
    std::fprintf(stderr,
                 "ringsweep SIMT backend: cudaLaunchKernel/cudaLaunchCooperativeKernel of kernel %p through void*: "
                 "the backend has not seen this kernel's type (pass the kernel itself, not a void* to it)\n",
                 kernel);
    return record_error(cudaErrorInvalidDeviceFunction);
  }
  return record_error(launcher(config, kernel, args));
}

void chevron_start(const chevron_config& c, const void* kernel, std::function<void()> thread_body) {
  cudaLaunchConfig_t config{};
  config.gridDim = c.grid;
  config.blockDim = c.block;
  config.dynamicSmemBytes = c.smem;
  config.stream = c.stream;
  record_error(launch_on_stream(config, kernel, std::move(thread_body)));
}

}  // namespace detail
}  // namespace simt
