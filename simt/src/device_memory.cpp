// ringsweep SIMT backend: device memory and error recording (see device_memory.hpp).
#include "device_memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <map>

#include <ringsweep_simt/control.hpp>

#include "config.hpp"
#include "grid_run.hpp"

namespace simt {
namespace detail {
namespace {
thread_local cudaError_t t_last_error = cudaSuccess;
thread_local int t_device = 0;

struct allocation {
  std::size_t bytes;
  int device;  // -1: page-locked host memory
};
std::mutex g_alloc_mutex;
std::map<const char*, allocation> g_allocations;  // by address: a pointer inside one is found too
std::size_t g_allocated[16] = {};
std::size_t g_peak[16] = {};  // the most g_allocated held since the last reset_peak_device_bytes()
std::size_t g_host_allocated = 0;  // page-locked host bytes held now

std::atomic<unsigned long long> g_allocation_calls{0};
std::atomic<unsigned long long> g_copy_calls{0};
std::atomic<unsigned long long> g_device_to_host_bytes{0};
std::atomic<unsigned long long> g_host_allocation_calls{0};

cudaError_t allocate(void** ptr, std::size_t bytes, int device) {
  if (ptr == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_device()) return e;
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  const std::size_t rounded = (bytes + 255) / 256 * 256;
  std::lock_guard<std::mutex> lock(g_alloc_mutex);
  if (device >= 0 && (rounded > config().device_bytes[device] ||
                      g_allocated[device] > config().device_bytes[device] - rounded)) {
    return record_error(cudaErrorMemoryAllocation);
  }
  void* p = std::aligned_alloc(256, rounded);
  if (p == nullptr) return record_error(cudaErrorMemoryAllocation);
  g_allocations.emplace(static_cast<const char*>(p), allocation{rounded, device});
  if (device >= 0) {
    g_allocated[device] += rounded;
    g_peak[device] = std::max(g_peak[device], g_allocated[device]);
  } else {
    g_host_allocated += rounded;
  }
  *ptr = p;
  return cudaSuccess;
}

cudaError_t release(void* ptr, bool host) {
  if (ptr == nullptr) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(g_alloc_mutex);
    auto it = g_allocations.find(static_cast<const char*>(ptr));
    if (it == g_allocations.end() || (it->second.device < 0) != host) return record_error(cudaErrorInvalidValue);
    if (it->second.device >= 0) g_allocated[it->second.device] -= it->second.bytes;
    if (it->second.device < 0) g_host_allocated -= it->second.bytes;
    g_allocations.erase(it);
  }
  std::free(ptr);
  return cudaSuccess;
}
}  // namespace

cudaError_t record_error(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

cudaError_t check_device() { return config().device_count == 0 ? record_error(cudaErrorNoDevice) : cudaSuccess; }

int current_device() { return t_device; }
void set_current_device(int device) { t_device = device; }
std::size_t device_memory_bytes(int device) { return config().device_bytes[device >= 0 && device < 16 ? device : 0]; }

bool allocation_fails_now() {
  const unsigned long long call = g_allocation_calls.fetch_add(1) + 1;
  return call == config().fail_alloc_at;
}

void count_host_allocation() { g_host_allocation_calls.fetch_add(1); }

bool copy_fails_now() {
  const unsigned long long call = g_copy_calls.fetch_add(1) + 1;
  return call == config().fail_copy_at;
}

void count_copy_bytes(void* dst, const void* src, std::size_t bytes, int kind) {
  bool back = kind == cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDefault && bytes != 0) {
    int device = -1;
    back = memory_type(src, device) == cudaMemoryTypeDevice && memory_type(dst, device) != cudaMemoryTypeDevice;
  }
  if (back) g_device_to_host_bytes.fetch_add(bytes);
}

cudaError_t allocate_memory(void** ptr, std::size_t bytes) { return allocate(ptr, bytes, t_device); }
cudaError_t release_memory(void* ptr) { return release(ptr, false); }
cudaError_t allocate_host(void** ptr, std::size_t bytes) { return allocate(ptr, bytes, -1); }
cudaError_t release_host(void* ptr) { return release(ptr, true); }

std::size_t allocated_bytes(int device) {
  std::lock_guard<std::mutex> lock(g_alloc_mutex);
  return device >= 0 && device < 16 ? g_allocated[device] : 0;
}

cudaMemoryType memory_type(const void* ptr, int& device) {
  device = -1;
  const char* p = static_cast<const char*>(ptr);
  std::lock_guard<std::mutex> lock(g_alloc_mutex);
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return cudaMemoryTypeUnregistered;
  --it;
  if (p >= it->first + it->second.bytes) return cudaMemoryTypeUnregistered;
  device = it->second.device;
  return device < 0 ? cudaMemoryTypeHost : cudaMemoryTypeDevice;
}

}  // namespace detail

unsigned long long allocation_calls() { return detail::g_allocation_calls.load(); }
std::size_t peak_device_bytes(int device) {
  std::lock_guard<std::mutex> lock(detail::g_alloc_mutex);
  return device >= 0 && device < 16 ? detail::g_peak[device] : 0;
}
void reset_peak_device_bytes() {
  std::lock_guard<std::mutex> lock(detail::g_alloc_mutex);
  for (int d = 0; d < 16; ++d) detail::g_peak[d] = detail::g_allocated[d];
}
void fail_allocation(unsigned long long k) {
  detail::mutable_config().fail_alloc_at = k == 0 ? 0 : detail::g_allocation_calls.load() + k;
}
unsigned long long host_allocation_calls() { return detail::g_host_allocation_calls.load(); }
std::size_t pinned_host_bytes() {
  std::lock_guard<std::mutex> lock(detail::g_alloc_mutex);
  return detail::g_host_allocated;
}
unsigned long long copy_calls() { return detail::g_copy_calls.load(); }
unsigned long long device_to_host_bytes() { return detail::g_device_to_host_bytes.load(); }
void fail_copy(unsigned long long k) {
  detail::mutable_config().fail_copy_at = k == 0 ? 0 : detail::g_copy_calls.load() + k;
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
