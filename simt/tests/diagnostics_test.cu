// What the SIMT backend reports instead of hanging or computing garbage: deadlocks, bad masks,
// endless spinning. Each case runs in a forked child whose stderr is captured. Also: the seeded
// schedule permutation. SIMT backend only.
#include <catch2/catch.hpp>

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <ringsweep_simt/control.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

struct child_result {
  bool aborted;
  std::string stderr_text;
};

template <class F>
child_result run_in_child(F body) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    signal(SIGABRT, SIG_DFL);  // die of the abort, without the test framework's handler
    dup2(fds[1], 2);
    close(fds[0]);
    body();
    (void)cudaDeviceSynchronize();  // a launch returns before its grid has run
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, text};
}

__global__ void divergent_barrier_kernel() {
  if (threadIdx.x % 2) {
    __syncthreads();
  } else {
    __syncwarp();
  }
}

__global__ void foreign_mask_kernel(int* out) { out[threadIdx.x] = __shfl_sync(0x1u, 1, 0); }

__global__ void disagreeing_masks_kernel() { __syncwarp(threadIdx.x < 16 ? 0x0000ffffu : 0xffffffffu); }

__global__ void grid_sync_kernel() { cooperative_groups::this_grid().sync(); }

__global__ void endless_spin_kernel(const unsigned* flag) {
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) __nanosleep(100);
}

__global__ void arrival_order_kernel(unsigned* order) {
  __shared__ unsigned s_next;
  if (threadIdx.x == 0) s_next = 0;
  __syncthreads();
  const unsigned position = atomicAdd(&s_next, 1u);
  order[blockIdx.x * blockDim.x + position] = threadIdx.x;
}

// Block b reads the word before writing it: it sees the previous block's value, or the poison.
__global__ void read_before_write_kernel(unsigned* seen) {
  __shared__ unsigned s_word;
  if (threadIdx.x == 0) {
    seen[blockIdx.x] = s_word;
    s_word = 1000 + blockIdx.x;
  }
}

std::uint64_t backend_seed() {
  const char* s = std::getenv("RINGSWEEP_SIMT_SEED");
  return s == nullptr ? 0 : std::strtoull(s, nullptr, 0);
}

}  // namespace

TEST_CASE("a divergent barrier is reported with every thread's wait state", "[simt][diagnostics]") {
  const child_result r = run_in_child([] { (void)launch(divergent_barrier_kernel, 1, 64, 0, serial); });
  INFO(r.stderr_text);
  CHECK(r.aborted);
  CHECK(r.stderr_text.find("deadlock in block (0,0,0) of (anonymous namespace)::divergent_barrier_kernel()") !=
        std::string::npos);
  CHECK(r.stderr_text.find("lanes 0xaaaaaaaa: waiting in __syncthreads") != std::string::npos);
  CHECK(r.stderr_text.find("lanes 0x55555555: waiting in __syncwarp(mask=0xffffffff)") != std::string::npos);
}

TEST_CASE("a warp collective whose mask leaves out the caller is an error", "[simt][diagnostics]") {
  const child_result r = run_in_child([] {
    device_buffer<int> out(32);
    (void)launch(foreign_mask_kernel, 1, 32, 0, serial, out.data());
  });
  INFO(r.stderr_text);
  CHECK(r.aborted);
  CHECK(r.stderr_text.find("__shfl_sync with mask 0x00000001 that does not contain the calling lane") != std::string::npos);
}

TEST_CASE("lanes meeting with different masks are an error", "[simt][diagnostics]") {
  const child_result r = run_in_child([] { (void)launch(disagreeing_masks_kernel, 1, 32, 0, serial); });
  INFO(r.stderr_text);
  CHECK(r.aborted);
  CHECK(r.stderr_text.find("exited while lanes 0xffff0000 wait for it in __syncwarp(mask=0xffffffff)") != std::string::npos);
  CHECK(r.stderr_text.find("masks that disagree") != std::string::npos);
}

TEST_CASE("grid_group::sync() outside a cooperative launch is an error", "[simt][diagnostics]") {
  const child_result r = run_in_child([] { (void)launch(grid_sync_kernel, 2, 32, 0, serial); });
  INFO(r.stderr_text);
  CHECK(r.aborted);
  CHECK(r.stderr_text.find("grid_group::sync() in a kernel that was not launched cooperatively") != std::string::npos);
}

TEST_CASE("a block that only spins is stopped by the watchdog", "[simt][diagnostics]") {
  const child_result r = run_in_child([] {
    simt::set_watchdog_seconds(1.0);
    device_buffer<unsigned> flag(std::vector<unsigned>{0});
    (void)launch(endless_spin_kernel, 1, 32, 0, serial, flag.data());
  });
  INFO(r.stderr_text);
  CHECK(r.aborted);
  CHECK(r.stderr_text.find("watchdog: block (0,0,0) has only spun") != std::string::npos);
  CHECK(r.stderr_text.find("in kernel (anonymous namespace)::endless_spin_kernel(unsigned int const*)") !=
        std::string::npos);  // named though not exported
  CHECK(r.stderr_text.find("runnable (spinning)") != std::string::npos);
}

TEST_CASE("the seed permutes the schedule, reproducibly", "[simt][schedule]") {
  const unsigned blocks = 3, threads = 128;
  device_buffer<unsigned> first(blocks * threads), second(blocks * threads);
  REQUIRE_CUDA(launch(arrival_order_kernel, blocks, threads, 0, serial, first.data()));
  REQUIRE_CUDA(launch(arrival_order_kernel, blocks, threads, 0, serial, second.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<unsigned> a = first.download(), b = second.download();
  CHECK(a == b);  // same seed, same schedule within each block
  bool identity = true;
  for (unsigned b_ = 0; b_ < blocks; ++b_) {
    std::vector<bool> seen(threads, false);
    for (unsigned i = 0; i < threads; ++i) {
      const unsigned t = a[b_ * threads + i];
      REQUIRE(t < threads);
      REQUIRE(!seen[t]);
      seen[t] = true;
      identity = identity && t == i;
    }
  }
  CHECK(identity == (backend_seed() == 0));
}

TEST_CASE("poisoned shared memory exposes reads before writes", "[simt][poison]") {
  const unsigned blocks = 8;
  device_buffer<unsigned> seen(blocks);
  simt::set_poison_shared(true);
  const cudaError_t e = launch(read_before_write_kernel, blocks, 32, 0, serial, seen.data());
  simt::set_poison_shared(false);
  REQUIRE_CUDA(e);
  REQUIRE_CUDA_LAUNCH();
  for (unsigned v : seen.download()) CHECK(v == 0xA5A5A5A5u);
}

TEST_CASE("launches, their blocks and memset bytes are counted", "[simt][counters]") {
  device_buffer<unsigned> out(3 * 128);
  const unsigned long long launches = simt::kernel_launches(), blocks = simt::kernel_blocks_launched(),
                           cleared = simt::memset_bytes();
  REQUIRE_CUDA(launch(arrival_order_kernel, 3, 128, 0, serial, out.data()));
  REQUIRE_CUDA(launch(arrival_order_kernel, 2, 128, 0, serial, out.data()));
  REQUIRE_CUDA(cudaMemsetAsync(out.data(), 0, 100, 0));
  REQUIRE_CUDA(cudaMemset(out.data(), 0, 12));
  CHECK(launch(arrival_order_kernel, 0, 128, 0, serial, out.data()) == cudaErrorInvalidValue);  // not counted
  (void)cudaGetLastError();
  REQUIRE_CUDA_LAUNCH();
  CHECK(simt::kernel_launches() - launches == 2);
  CHECK(simt::kernel_blocks_launched() - blocks == 5);
  CHECK(simt::memset_bytes() - cleared == 112);
}
