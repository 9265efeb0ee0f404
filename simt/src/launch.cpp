// ringsweep SIMT backend: grid launch and per-function attributes.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "config.hpp"
#include "device_memory.hpp"
#include "scheduler.hpp"
#include "traffic.hpp"

namespace simt {
namespace detail {

// The grid-wide barrier of a cooperative launch: blocks arrive once per grid_group::sync().
// (Reached through the running block, not a thread-local: shared-memory poison overwrites those.)
struct grid_barrier {
  std::uint64_t blocks = 0;
  std::atomic<std::uint64_t> arrived{0};
  std::atomic<std::uint64_t> generation{0};
};

namespace {

constexpr int k_max_threads_per_block = 1024;
constexpr std::size_t k_default_smem_limit = 48 * 1024;
constexpr std::size_t k_optin_smem_limit = 227 * 1024;

std::mutex g_attr_mutex;
std::unordered_map<const void*, int> g_max_dynamic_smem;

bool is_cooperative(const cudaLaunchConfig_t& c) {
  for (unsigned i = 0; c.attrs != nullptr && i < c.numAttrs; ++i)
    if (c.attrs[i].id == cudaLaunchAttributeCooperative && c.attrs[i].val.cooperative != 0) return true;
  return false;
}

std::size_t dynamic_smem_limit(const void* kernel) {
  std::lock_guard<std::mutex> lock(g_attr_mutex);
  auto it = g_max_dynamic_smem.find(kernel);
  return it == g_max_dynamic_smem.end() ? k_default_smem_limit : static_cast<std::size_t>(it->second);
}

}  // namespace

cudaError_t launch_grid(const cudaLaunchConfig_t& c, const void* kernel, std::function<void()> body) {
  const dim3 g = c.gridDim, bd = c.blockDim;
  const std::uint64_t threads = std::uint64_t{bd.x} * bd.y * bd.z;
  if (bd.x == 0 || bd.y == 0 || bd.z == 0 || bd.x > 1024 || bd.y > 1024 || bd.z > 64 ||
      threads > k_max_threads_per_block || g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7fffffffu || g.y > 65535 ||
      g.z > 65535)
    return record_error(cudaErrorInvalidConfiguration);
  if (c.dynamicSmemBytes > dynamic_smem_limit(kernel)) return record_error(cudaErrorInvalidValue);
  if (config().device_count == 0) return record_error(cudaErrorNoDevice);

  const std::uint64_t blocks = std::uint64_t{g.x} * g.y * g.z;
  unsigned workers = static_cast<unsigned>(std::min<std::uint64_t>(config().workers, blocks));
  // A cooperative grid must be resident at once: every block gets an OS thread of its own.
  const bool cooperative = is_cooperative(c);
  grid_barrier barrier;
  barrier.blocks = blocks;
  if (cooperative) {
    int per_sm = 0;
    occupancy_blocks_per_sm(&per_sm, kernel, static_cast<int>(threads), c.dynamicSmemBytes);
    if (blocks > std::uint64_t(per_sm) * static_cast<std::uint64_t>(config().sm_count))
      return record_error(cudaErrorCooperativeLaunchTooLarge);
    workers = static_cast<unsigned>(blocks);
  }
  std::atomic<std::uint64_t> next{0};
  std::mutex traffic_mutex;
  kernel_traffic traffic;
  const bool tracing = g_trace_enabled;
  auto work = [&]() {
    block_runner runner;
    struct merge_on_exit {
      block_runner& r;
      std::mutex& m;
      kernel_traffic& t;
      ~merge_on_exit() {
        std::lock_guard<std::mutex> lock(m);
        t.load_bytes += r.traffic.load_bytes;
        t.store_bytes += r.traffic.store_bytes;
        t.load_sectors += r.traffic.load_sectors;
        t.store_sectors += r.traffic.store_sectors;
        t.load_accesses += r.traffic.load_accesses;
        t.store_accesses += r.traffic.store_accesses;
      }
    } merge{runner, traffic_mutex, traffic};
    for (;;) {
      const std::uint64_t b = next.fetch_add(1);
      if (b >= blocks) break;
      const uint3 idx{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
                      static_cast<unsigned>(b / (std::uint64_t{g.x} * g.y))};
      runner.run(body, idx, bd, g, b, cooperative ? &barrier : nullptr);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  if (tracing) record_launch_traffic(kernel, traffic);
  return cudaSuccess;
}

bool grid_is_cooperative() { return current_grid() != nullptr; }

void grid_sync() {
  grid_barrier* g = current_grid();
  if (g == nullptr)
    fail("cooperative_groups::grid_group::sync() in a kernel that was not launched cooperatively "
         "(cudaLaunchKernelEx with cudaLaunchAttributeCooperative)");
  block_barrier(barrier_op::sync, 1);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const std::uint64_t generation = g->generation.load();
    if (g->arrived.fetch_add(1) + 1 == g->blocks) {
      g->arrived.store(0);
      g->generation.fetch_add(1);
    } else {
      while (g->generation.load() == generation) yield_fiber();
    }
  }
  block_barrier(barrier_op::sync, 1);
}

cudaError_t set_function_attribute(const void* kernel, cudaFuncAttribute attr, int value) {
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || static_cast<std::size_t>(value) > k_optin_smem_limit) return record_error(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    g_max_dynamic_smem[kernel] = value;
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;
  return record_error(cudaErrorInvalidValue);
}

cudaError_t get_function_attributes(cudaFuncAttributes* attr, const void* kernel) {
  if (attr == nullptr) return record_error(cudaErrorInvalidValue);
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = k_max_threads_per_block;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(dynamic_smem_limit(kernel));
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;  // registers and static shared memory are unknown here: reported as 0
}

cudaError_t occupancy_blocks_per_sm(int* blocks, const void* kernel, int block_size, size_t dynamic_smem) {
  if (blocks == nullptr || block_size <= 0) return record_error(cudaErrorInvalidValue);
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  if (block_size > k_max_threads_per_block) {
    *blocks = 0;
    return cudaSuccess;
  }
  const int warps = (block_size + 31) / 32;
  int n = std::min(32, 64 / warps);  // 2048 threads = 64 warps per SM
  if (dynamic_smem > 0) n = std::min<int>(n, static_cast<int>((228 * 1024) / (dynamic_smem + 1024)));
  *blocks = n;
  return cudaSuccess;
}

}  // namespace detail
}  // namespace simt
