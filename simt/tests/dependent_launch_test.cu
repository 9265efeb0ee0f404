// Programmatic dependent launch (sm_90): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the previous kernel in its
// stream still runs, once every block of that kernel has called
// cudaTriggerProgrammaticLaunchCompletion() (or exited); cudaGridDependencySynchronize() waits
// until the previous kernel has finished and its writes are visible. Without the attribute the
// kernels run one after the other. Runs on both backends: the SIMT backend overlaps the grids as a
// GPU does, so that code which reads a predecessor's output before the wait fails here too.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;

namespace {

__device__ unsigned load_acquire(const unsigned* p) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(const_cast<unsigned*>(p), 0u);
#else
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

// Nanoseconds, for bounded spin-waits.
__device__ long long now_ns() {
#if defined(__CUDA_ARCH__)
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return clock64();  // the SIMT backend's clock64() counts nanoseconds
#endif
}

// The two device calls exist from sm_90 on; older architectures launch without overlap.
__device__ void wait_for_previous_grid() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}
__device__ void allow_dependents() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// Spins (bounded by `budget_ns`) until *flag != 0; returns whether it saw it.
__device__ bool spin_for(const unsigned* flag, long long budget_ns) {
  const long long start = now_ns();
  while (load_acquire(flag) == 0) {
    if (now_ns() - start > budget_ns) return false;
    __nanosleep(1000);
  }
  return true;
}

constexpr long long k_long_wait_ns = 2000000000;  // 2 s: overlap expected, so this is never used up
constexpr long long k_short_wait_ns = 50000000;   // 50 ms: no overlap expected, so this always is

// Primary: lets its dependents start, waits (bounded) for a flag the dependent raises before its
// own wait, then writes `data`. `saw[b]`: whether block b saw the flag.
__global__ void primary_kernel(unsigned* flag, unsigned* saw, unsigned* data, unsigned n, unsigned value,
                               long long budget_ns, int trigger) {
  if (trigger) allow_dependents();
  __shared__ unsigned seen;
  if (threadIdx.x == 0) {
    seen = spin_for(flag, budget_ns) ? 1u : 0u;
    __threadfence();
  }
  __syncthreads();
  if (threadIdx.x == 0) saw[blockIdx.x] = seen;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) data[i] = value;
}

// Dependent: reads `data`, raises the flag (one count per block), waits, reads `data` again.
// `before` counts elements that already held `value` before the wait, `after_wrong` those that did
// not hold it after.
__global__ void dependent_kernel(unsigned* flag, const unsigned* data, unsigned n, unsigned value, unsigned* before,
                                 unsigned* after_wrong) {
  unsigned early = 0, wrong = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    early += load_acquire(&data[i]) == value;
  __syncthreads();  // every thread has read before the flag goes up
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(flag, 1u);
  }
  wait_for_previous_grid();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    wrong += data[i] != value;
  if (early != 0) atomicAdd(before, early);
  if (wrong != 0) atomicAdd(after_wrong, wrong);
}

// Triggers at once, waits for the previous reader of `data`, then writes data[i] = value + i
// slowly (a pause between rounds).
__global__ void slow_writer_kernel(unsigned* data, unsigned n, unsigned value) {
  allow_dependents();
  wait_for_previous_grid();
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    data[i] = value + i;
    __nanosleep(200);
  }
}

// Checks data[i] == value + i after the wait; counts the elements that differ.
__global__ void checker_kernel(const unsigned* data, unsigned n, unsigned value, unsigned* wrong) {
  allow_dependents();
  wait_for_previous_grid();
  unsigned w = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    w += data[i] != value + i;
  if (w != 0) atomicAdd(wrong, w);
}

// One step of a chain. After the wait, every block checks that counter[step % 2] holds `step`
// (written by the previous step); block 0 then writes step + 1 to the other slot, which no block of
// this grid reads (a plain read and write: only the ordering of the grids makes the chain right).
__global__ void pingpong_step_kernel(unsigned* counter, unsigned step, unsigned* out_of_order) {
  allow_dependents();
  wait_for_previous_grid();
  const unsigned seen = counter[step % 2];
  if (threadIdx.x == 0 && seen != step) atomicAdd(out_of_order, 1u);
  if (threadIdx.x == 0 && blockIdx.x == 0) counter[(step + 1) % 2] = seen + 1;
}

/// The library's launch order for a `dependent` flag: a programmatic dependent of the kernel
/// before it in the stream, or serial.
ringsweep_test::launch_order order(bool dependent) {
  return dependent ? ringsweep_test::launch_order::dependent : ringsweep_test::launch_order::serial;
}

struct stream_guard {
  cudaStream_t s = nullptr;
  stream_guard() { REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess); }
  ~stream_guard() { cudaStreamDestroy(s); }
};

bool device_has_pdl() {
  int major = 0;
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess);
  return major >= 9;
}

}  // namespace

TEST_CASE("a dependent launch starts while its primary still runs", "[pdl]") {
  if (!device_has_pdl()) {
    WARN("programmatic dependent launch needs sm_90: skipped");
    return;
  }
  const unsigned n = 4096, value = 77;
  constexpr int rounds = 4;
  stream_guard sg;
  int overlapped = 0;
  // Round 0 loads both kernels (a GPU loads modules lazily, and the first dependent launch was seen
  // not to overlap on an H100): it is checked like the others but not counted in `overlapped`.
  for (int round = 0; round <= rounds; ++round) {
    device_buffer<unsigned> flag(std::vector<unsigned>(1, 0u)), saw(std::vector<unsigned>(1, 0u));
    device_buffer<unsigned> data(std::vector<unsigned>(n, 0u)), counts(std::vector<unsigned>(2, 0u));
    REQUIRE(launch(primary_kernel, 1, 64, sg.s, order(false), flag.data(), saw.data(), data.data(), n, value,
                      round == 0 ? k_short_wait_ns : k_long_wait_ns, 1) == cudaSuccess);
    // One dependent block: its early reads are all done when the primary sees the flag.
    REQUIRE(launch(dependent_kernel, 1, 64, sg.s, order(true), flag.data(),
                      static_cast<const unsigned*>(data.data()), n, value, counts.data(), counts.data() + 1) ==
            cudaSuccess);
    REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
    const bool overlap = saw.download()[0] == 1u;  // the dependent ran its pre-wait code while the primary waited
    const std::vector<unsigned> c = counts.download();
    INFO("round " << round << (overlap ? ", overlapped" : ", not overlapped"));
    if (overlap) {
      CHECK(c[0] == 0u);  // so before its wait it saw none of the primary's writes (they came later) ...
      if (round > 0) ++overlapped;
    }
    CHECK(c[1] == 0u);  // ... and after its wait all of them, overlapped or not
  }
  // A GPU may start a dependent early but need not; the backend always does (so that a read
  // before the wait fails there). Held to: the GPU overlapped at least once after warming up.
#if defined(RINGSWEEP_VARIANT_SIMT)
  CHECK(overlapped == rounds);
#else
  CHECK(overlapped >= 1);
#endif
}

TEST_CASE("after cudaGridDependencySynchronize the primary's writes are all visible", "[pdl]") {
  const unsigned n = 20000;
  stream_guard sg;
  device_buffer<unsigned> data(std::vector<unsigned>(n, 0u)), wrong(std::vector<unsigned>(1, 0u));
  for (unsigned round = 0; round < 12; ++round) {
    const unsigned value = 1000u * (round + 1);
    REQUIRE(launch(slow_writer_kernel, 8, 128, sg.s, order(round % 3 != 0), data.data(), n, value) ==
            cudaSuccess);
    REQUIRE(launch(checker_kernel, 16, 64, sg.s, order(true), static_cast<const unsigned*>(data.data()), n,
                      value, wrong.data()) == cudaSuccess);
  }
  CHECK(wrong.download()[0] == 0u);
}

TEST_CASE("without the attribute a launch waits for the previous kernel", "[pdl]") {
  const unsigned n = 512, value = 5;
  stream_guard sg;
  for (int attribute_zero = 0; attribute_zero < 2; ++attribute_zero) {
    device_buffer<unsigned> flag(std::vector<unsigned>(1, 0u)), saw(std::vector<unsigned>(2, 9u));
    device_buffer<unsigned> data(std::vector<unsigned>(n, 0u)), counts(std::vector<unsigned>(2, 0u));
    REQUIRE(launch(primary_kernel, 2, 32, sg.s, order(false), flag.data(), saw.data(), data.data(), n, value,
                      k_short_wait_ns, 1) == cudaSuccess);
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 0;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(2);
    config.blockDim = dim3(32);
    config.stream = sg.s;
    config.attrs = attribute_zero ? &attr : nullptr;
    config.numAttrs = attribute_zero ? 1u : 0u;
    REQUIRE(cudaLaunchKernelEx(&config, dependent_kernel, flag.data(), static_cast<const unsigned*>(data.data()), n,
                               value, counts.data(), counts.data() + 1) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
    CHECK(saw.download() == std::vector<unsigned>(2, 0u));  // the dependent had not started
    CHECK(flag.download()[0] == 2u);                         // it ran afterwards
    const std::vector<unsigned> c = counts.download();
    CHECK(c[0] == n);  // and saw every write even before its wait
    CHECK(c[1] == 0u);
  }
}

TEST_CASE("a chain of dependent launches completes in order; copies and synchronize see its end", "[pdl]") {
  const unsigned steps = 20;
  stream_guard sg;
  device_buffer<unsigned> counter(std::vector<unsigned>(2, 0u)), bad(std::vector<unsigned>(1, 0u));
  for (unsigned k = 0; k < steps; ++k)
    REQUIRE(launch(pingpong_step_kernel, 6, 32, sg.s, order(k != 0), counter.data(), k, bad.data()) ==
            cudaSuccess);
  // A copy on the legacy stream right after the chain (cudaMemcpy): sees the last step.
  unsigned last = 0;
  REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
  REQUIRE(cudaMemcpy(&last, counter.data() + steps % 2, sizeof last, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(last == steps);
  CHECK(bad.download()[0] == 0u);

  // The last kernel writes pinned host memory; cudaStreamSynchronize alone makes it visible.
  unsigned* host = nullptr;
  REQUIRE(cudaMallocHost(&host, 2 * sizeof(unsigned)) == cudaSuccess);
  host[0] = 0;
  host[1] = 0;
  for (unsigned k = 0; k < steps; ++k)
    REQUIRE(launch(pingpong_step_kernel, 3, 32, sg.s, order(k != 0), host, k, bad.data()) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
  CHECK(__atomic_load_n(&host[steps % 2], __ATOMIC_ACQUIRE) == steps);
  REQUIRE(cudaFreeHost(host) == cudaSuccess);
  CHECK(bad.download()[0] == 0u);
}

TEST_CASE("a captured chain of dependent launches replays with the same result", "[pdl][graph]") {
  const unsigned steps = 20;
  stream_guard sg;
  device_buffer<unsigned> counter(2), bad(std::vector<unsigned>(1, 0u));
  REQUIRE(cudaStreamBeginCapture(sg.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(counter.data(), 0, 2 * sizeof(unsigned), sg.s) == cudaSuccess);
  for (unsigned k = 0; k < steps; ++k)
    REQUIRE(launch(pingpong_step_kernel, 5, 32, sg.s, order(k != 0), counter.data(), k, bad.data()) ==
            cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(sg.s, &graph) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int replay = 0; replay < 3; ++replay) {
    REQUIRE(cudaGraphLaunch(exec, sg.s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
    CHECK(counter.download()[steps % 2] == steps);
  }
  CHECK(bad.download()[0] == 0u);
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
}
