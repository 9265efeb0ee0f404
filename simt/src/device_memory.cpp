// ringsweep SIMT backend: device memory and error recording (see device_memory.hpp).
#include "device_memory.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include <ringsweep_simt/control.hpp>

#include "config.hpp"
#include "grid_run.hpp"

namespace simt {
namespace detail {
namespace {
thread_local cudaError_t t_last_error = cudaSuccess;

std::mutex g_alloc_mutex;
std::unordered_map<void*, std::size_t> g_allocations;
std::size_t g_allocated = 0;

std::atomic<unsigned long long> g_allocation_calls{0};
}  // namespace

cudaError_t record_error(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

cudaError_t check_device() { return config().device_count == 0 ? record_error(cudaErrorNoDevice) : cudaSuccess; }

bool allocation_fails_now() {
  const unsigned long long call = g_allocation_calls.fetch_add(1) + 1;
  return call == config().fail_alloc_at;
}

cudaError_t allocate_memory(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_device()) return e;
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  const std::size_t rounded = (bytes + 255) / 256 * 256;
  void* p = std::aligned_alloc(256, rounded);
  if (p == nullptr) return record_error(cudaErrorMemoryAllocation);
  std::lock_guard<std::mutex> lock(g_alloc_mutex);
  g_allocations.emplace(p, rounded);
  g_allocated += rounded;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t release_memory(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(g_alloc_mutex);
    auto it = g_allocations.find(ptr);
    if (it == g_allocations.end()) return record_error(cudaErrorInvalidValue);
    g_allocated -= it->second;
    g_allocations.erase(it);
  }
  std::free(ptr);
  return cudaSuccess;
}

std::size_t allocated_bytes() {
  std::lock_guard<std::mutex> lock(g_alloc_mutex);
  return g_allocated;
}

}  // namespace detail

unsigned long long allocation_calls() { return detail::g_allocation_calls.load(); }
void fail_allocation(unsigned long long k) {
  detail::mutable_config().fail_alloc_at = k == 0 ? 0 : detail::g_allocation_calls.load() + k;
}

}  // namespace simt

cudaError_t cudaGetLastError() {
  simt::detail::drain_grids();
  const cudaError_t e = simt::detail::t_last_error;
  simt::detail::t_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  simt::detail::drain_grids();
  return simt::detail::t_last_error;
}
