// ringsweep SIMT backend: grid launch and per-function attributes.
//
// A launch starts its grid on worker threads and returns; the grid stays "in flight" (one at a
// time, process-wide) until the next runtime call that could observe memory or ordering drains it
// (joins its workers, records its traffic, marks it complete). A launch with
// cudaLaunchAttributeProgrammaticStreamSerialization into the stream of the grid in flight overlaps
// it: its blocks start once every block of that grid has triggered or exited, and its
// cudaGridDependencySynchronize() waits until that grid is complete (see grid_run.hpp). Every other
// launch drains the grid in flight first; cooperative launches and RINGSWEEP_SIMT_PDL=0 also drain
// their own grid before returning.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include <pthread.h>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <ringsweep_simt/control.hpp>

#include "config.hpp"
#include "device_memory.hpp"
#include "grid_run.hpp"
#include "race_annotations.hpp"
#include "scheduler.hpp"
#include "traffic.hpp"

namespace simt {
namespace detail {

namespace {

constexpr int k_max_threads_per_block = 1024;
constexpr std::size_t k_default_smem_limit = 48 * 1024;
constexpr std::size_t k_optin_smem_limit = 227 * 1024;

std::mutex g_attr_mutex;
std::atomic<unsigned long long> g_kernel_launches{0};  // simt::kernel_launches
std::atomic<unsigned long long> g_kernel_blocks{0};    // simt::kernel_blocks_launched
std::unordered_map<const void*, int> g_max_dynamic_smem;

bool is_cooperative(const cudaLaunchConfig_t& c) {
  for (unsigned i = 0; c.attrs != nullptr && i < c.numAttrs; ++i)
    if (c.attrs[i].id == cudaLaunchAttributeCooperative && c.attrs[i].val.cooperative != 0) return true;
  return false;
}

bool is_dependent_launch(const cudaLaunchConfig_t& c) {
  bool allowed = false;  // the last occurrence of the attribute counts
  for (unsigned i = 0; c.attrs != nullptr && i < c.numAttrs; ++i)
    if (c.attrs[i].id == cudaLaunchAttributeProgrammaticStreamSerialization)
      allowed = c.attrs[i].val.programmaticStreamSerializationAllowed != 0;
  return allowed;
}

bool same_stream(cudaStream_t a, cudaStream_t b) {
  if (a == cudaStreamLegacy) a = nullptr;  // the legacy default stream, by either name
  if (b == cudaStreamLegacy) b = nullptr;
  return a == b;
}

std::size_t dynamic_smem_limit(const void* kernel) {
  if (kernel == nullptr) return k_optin_smem_limit;  // a chevron launch of a deduced template
  std::lock_guard<std::mutex> lock(g_attr_mutex);
  auto it = g_max_dynamic_smem.find(kernel);
  return it == g_max_dynamic_smem.end() ? k_default_smem_limit : static_cast<std::size_t>(it->second);
}

// OS threads kept across launches. A launch hands each of its worker loops to an idle thread, or
// starts a thread when none is idle, so every worker of a grid still runs at once (a cooperative
// grid's blocks wait for each other, a dependent grid's for its primary); a thread goes back to
// the idle ones when its loop returns. A thread's start is what this saves: its static TLS, where
// the kernels' __shared__ arrays live (megabytes in a test program), is zeroed then, and with a
// thread started per worker per launch that was about a quarter of a launch-heavy test's time.
// Never destroyed (idle threads wait on it until the process ends); a forked child, which has
// none of the parent's threads, starts an empty one.
class worker_pool {
 public:
  void submit(std::function<void()> task) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (idle_ > 0) {
      --idle_;
      tasks_.push_back(std::move(task));
      lock.unlock();
      wake_.notify_one();
      return;
    }
    lock.unlock();
    std::thread(&worker_pool::loop, this, std::move(task)).detach();
  }

 private:
  void loop(std::function<void()> task) {
    for (;;) {
      task();
      task = nullptr;
      std::unique_lock<std::mutex> lock(mutex_);
      ++idle_;
      wake_.wait(lock, [this] { return !tasks_.empty(); });
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  unsigned idle_ = 0;  // threads waiting for a task, less the tasks queued for them
};

std::atomic<worker_pool*> g_pool{nullptr};

void fresh_pool_in_child() { g_pool.store(new worker_pool); }

worker_pool& pool() {
  static const bool once = [] {
    g_pool.store(new worker_pool);
    pthread_atfork(nullptr, nullptr, &fresh_pool_in_child);
    return true;
  }();
  (void)once;
  return *g_pool.load();
}

// Joins `r`'s workers, records its traffic and publishes its completion to a dependent grid.
void join(grid_run& r) {
  {
    std::unique_lock<std::mutex> lock(r.workers_mutex);
    r.workers_done.wait(lock, [&r] { return r.workers_left == 0; });
  }
  recycle_race_fibers(r.spent_race_fibers);  // finished: later grids' runners may reuse them
  if (r.tracing) record_launch_traffic(r.kernel, r.traffic);
  r.primary.reset();  // joined before this one: complete, and nobody waits for it any more
  r.dependent.store(nullptr);
  race::release(&r.complete);  // what the workers did, for the dependent's fibers (race build)
  {
    const race::ignore_sync_scope unordered;  // ordered by the release of r.complete above
    std::lock_guard<std::mutex> lock(r.state_mutex);
    r.complete.store(true, std::memory_order_release);
  }
  r.state_changed.notify_all();
}

// The grid in flight (at most one, process-wide). Drained at exit at the latest: the slot is
// created after the configuration and before nothing it uses is destroyed.
struct in_flight_slot {
  std::mutex mutex;
  std::shared_ptr<grid_run> run;
  ~in_flight_slot() {
    std::lock_guard<std::mutex> lock(mutex);
    if (run) join(*run);
    run.reset();
  }
};

in_flight_slot& slot() {
  (void)config();
  (void)pool();  // before the slot, whose destructor joins a grid on its threads
  static in_flight_slot s;
  return s;
}

void work(grid_run& r) {
  if (r.primary != nullptr) {  // blocks start once every block of the primary triggered or exited
    grid_run& p = *r.primary;
    const race::ignore_sync_scope unordered;  // starting early orders nothing after the primary
    std::unique_lock<std::mutex> lock(p.state_mutex);
    p.state_changed.wait(lock, [&p] { return p.triggered_all() || p.is_complete(); });
  }
  block_runner runner;
  for (;;) {
    const std::uint64_t b = r.next.fetch_add(1);
    if (b >= r.blocks) break;
    const dim3 g = r.grid;
    const uint3 idx{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
                    static_cast<unsigned>(b / (std::uint64_t{g.x} * g.y))};
    runner.run(r, idx, b);
  }
  std::lock_guard<std::mutex> lock(r.traffic_mutex);
  r.traffic.load_bytes += runner.traffic.load_bytes;
  r.traffic.store_bytes += runner.traffic.store_bytes;
  r.traffic.load_sectors += runner.traffic.load_sectors;
  r.traffic.store_sectors += runner.traffic.store_sectors;
  r.traffic.load_accesses += runner.traffic.load_accesses;
  r.traffic.store_accesses += runner.traffic.store_accesses;
  runner.hand_over_race_fibers(r.spent_race_fibers);
}

}  // namespace

void drain_grids() {
  in_flight_slot& s = slot();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.run) join(*s.run);
  s.run.reset();
}

void wait_for_primary(grid_run& primary, unsigned microseconds) {
  const race::ignore_sync_scope unordered;  // the waiter acquires primary.complete itself
  std::unique_lock<std::mutex> lock(primary.state_mutex);
  primary.state_changed.wait_for(lock, std::chrono::microseconds(microseconds),
                                 [&primary] { return primary.is_complete(); });
}

cudaError_t launch_grid(const cudaLaunchConfig_t& c, const void* kernel, std::function<void()> body) {
  const dim3 g = c.gridDim, bd = c.blockDim;
  const std::uint64_t threads = std::uint64_t{bd.x} * bd.y * bd.z;
  if (bd.x == 0 || bd.y == 0 || bd.z == 0 || bd.x > 1024 || bd.y > 1024 || bd.z > 64 ||
      threads > k_max_threads_per_block || g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7fffffffu || g.y > 65535 ||
      g.z > 65535)
    return record_error(cudaErrorInvalidValue);  // CUDA 13 on an H100: every launch API says so
  if (c.dynamicSmemBytes > dynamic_smem_limit(kernel)) return record_error(cudaErrorInvalidValue);
  if (config().device_count == 0) return record_error(cudaErrorNoDevice);

  const std::uint64_t blocks = std::uint64_t{g.x} * g.y * g.z;
  unsigned workers = static_cast<unsigned>(std::min<std::uint64_t>(config().workers, blocks));
  // A cooperative grid must be resident at once: every block gets an OS thread of its own.
  const bool cooperative = is_cooperative(c);
  if (cooperative) {
    int per_sm = 0;
    occupancy_blocks_per_sm(&per_sm, kernel, static_cast<int>(threads), c.dynamicSmemBytes);
    if (blocks > std::uint64_t(per_sm) * static_cast<std::uint64_t>(config().sm_count))
      return record_error(cudaErrorCooperativeLaunchTooLarge);
    workers = static_cast<unsigned>(blocks);
  }
  const bool overlap_allowed = config().dependent_launch && !cooperative;
  g_kernel_launches.fetch_add(1);
  g_kernel_blocks.fetch_add(blocks);

  in_flight_slot& s = slot();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::shared_ptr<grid_run> previous = std::move(s.run);
  s.run.reset();
  // Only a dependent launch into the stream of the grid in flight overlaps it; anything else
  // starts after it has finished.
  if (previous && !(overlap_allowed && is_dependent_launch(c) && same_stream(previous->stream, c.stream))) {
    join(*previous);
    previous.reset();
  }
  auto run = std::make_shared<grid_run>();
  run->body = std::move(body);
  run->kernel = kernel;
  run->grid = g;
  run->block = bd;
  run->blocks = blocks;
  run->dynamic_smem_bytes = c.dynamicSmemBytes;
  run->stream = c.stream;
  run->cooperative = cooperative;
  run->tracing = g_trace_enabled;
  run->barrier.blocks = blocks;
  run->primary = previous;
  if (previous) previous->dependent.store(run.get());
  run->workers_left = workers;
  race::release(&run->launched);
  for (unsigned w = 0; w < workers; ++w) {
    grid_run* const r = run.get();
    pool().submit([r] {
      // Race build: a reused thread must not order its earlier grids' blocks before this grid's
      // (a dependent grid's reads of its primary's output are races until its dependency wait).
      // The worker loop runs on a fresh TSan fiber, ordered after the launch only, as a thread
      // started by the launch was.
      void* const home = race::current_fiber();
      void* const loop = race::create_fiber();
      race::switch_to(loop, false);
      race::acquire(&r->launched);
      work(*r);
      {
        std::lock_guard<std::mutex> lock(r->workers_mutex);  // notified under the lock: the joiner
        --r->workers_left;                                   // may free `r` once it is released
        r->workers_done.notify_all();
      }
      race::switch_to(home, false);
      race::destroy_fiber(loop);
    });
  }
  // The primary finishes while this grid may already run; then this one is the grid in flight.
  if (previous) join(*previous);
  if (overlap_allowed)
    s.run = std::move(run);
  else
    join(*run);
  return cudaSuccess;
}

std::function<void()> make_thread_body(run_args_fn run, erased_fn kernel, void* args, destroy_args_fn destroy) {
  std::shared_ptr<void> owned(args, destroy);  // owns `args` from here, also if what follows throws
  return [run, kernel, owned = std::move(owned)]() { run(kernel, owned.get()); };
}

cudaError_t launch_on_stream(const cudaLaunchConfig_t& c, const void* kernel, std::function<void()> body) {
  if (stream_capturing(c.stream)) {
    auto attrs = std::make_shared<std::vector<cudaLaunchAttribute>>(c.attrs, c.attrs + (c.attrs != nullptr ? c.numAttrs : 0u));
    return capture_record(c.stream, [recorded = c, attrs, kernel, body = std::move(body)]() {
      cudaLaunchConfig_t replayed = recorded;
      replayed.attrs = attrs->empty() ? nullptr : attrs->data();
      return launch_grid(replayed, kernel, body);
    });
  }
  if (cudaError_t e = stream_usable(c.stream)) return e;
  return launch_grid(c, kernel, std::move(body));
}

bool grid_is_cooperative() { return current_grid() != nullptr; }

void grid_sync() {
  grid_barrier* g = current_grid();
  if (g == nullptr)
    fail("cooperative_groups::grid_group::sync() in a kernel that was not launched cooperatively "
         "(cudaLaunchKernelEx with cudaLaunchAttributeCooperative)");
  block_barrier(barrier_op::sync, 1);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    // Race-detection build: the backend's atomics are not instrumented, so the grid barrier's
    // ordering is annotated: thread 0 carries its block's work (gathered by the block barrier
    // above) to every block past the sync, and brings theirs back for the block barrier below.
    race::release(&g->generation);
    const std::uint64_t generation = g->generation.load();
    if (g->arrived.fetch_add(1) + 1 == g->blocks) {
      g->arrived.store(0);
      g->generation.fetch_add(1);
    } else {
      while (g->generation.load() == generation) yield_fiber();
    }
    race::acquire(&g->generation);
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
  attr->ptxVersion = RINGSWEEP_SIMT_PTX_VERSION;
  attr->binaryVersion = RINGSWEEP_SIMT_PTX_VERSION;
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

unsigned long long kernel_launches() { return detail::g_kernel_launches.load(); }
unsigned long long kernel_blocks_launched() { return detail::g_kernel_blocks.load(); }

}  // namespace simt
