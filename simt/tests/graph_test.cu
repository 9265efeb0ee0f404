// Stream capture on the backend: a capture records instead of running, a graph replays what was
// recorded (as often as launched), memory from cudaMallocAsync in a capture lives with the graph,
// and calls that could synchronise with a capturing stream are refused and invalidate the capture,
// which is what lets the library's graph test prove that a sort only queues stream work.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;

namespace {

__global__ void add_kernel(unsigned* data, unsigned n, unsigned amount) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += amount;
}

cudaError_t launch_add(cudaStream_t s, unsigned* data, unsigned n, unsigned amount) {
  return ringsweep_test::launch(add_kernel, (n + 63) / 64, 64, s, ringsweep_test::serial, data, n, amount);
}

struct stream_guard {
  cudaStream_t s = nullptr;
  explicit stream_guard(unsigned flags = cudaStreamDefault) { REQUIRE(cudaStreamCreateWithFlags(&s, flags) == cudaSuccess); }
  ~stream_guard() { cudaStreamDestroy(s); }
};

cudaStreamCaptureStatus status_of(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  REQUIRE(cudaStreamIsCapturing(s, &st) == cudaSuccess);
  return st;
}

}  // namespace

TEST_CASE("a capture records; its graph replays in order, once per launch", "[graph]") {
  const unsigned n = 1000;
  device_buffer<unsigned> d(std::vector<unsigned>(n, 7u));
  std::vector<unsigned> host(n, 0u);
  stream_guard sg;
  REQUIRE(cudaStreamBeginCapture(sg.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(status_of(sg.s) == cudaStreamCaptureStatusActive);
  REQUIRE(cudaMemsetAsync(d.data(), 0, n * sizeof(unsigned), sg.s) == cudaSuccess);
  REQUIRE(launch_add(sg.s, d.data(), n, 5u) == cudaSuccess);
  REQUIRE(launch_add(sg.s, d.data(), n, 1u) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(host.data(), d.data(), n * sizeof(unsigned), cudaMemcpyDeviceToHost, sg.s) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(sg.s, &graph) == cudaSuccess);
  CHECK(status_of(sg.s) == cudaStreamCaptureStatusNone);
  CHECK(d.download() == std::vector<unsigned>(n, 7u));  // nothing ran yet
  CHECK(host == std::vector<unsigned>(n, 0u));
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);  // the exec stands alone
  for (int replay = 0; replay < 3; ++replay) {
    host.assign(n, 0u);
    REQUIRE(cudaGraphLaunch(exec, sg.s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(sg.s) == cudaSuccess);
    CHECK(host == std::vector<unsigned>(n, 6u));  // memset, +5, +1, copy: in issue order
  }
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
}

TEST_CASE("memory allocated in a capture serves every replay and goes with the graph", "[graph]") {
  const unsigned n = 256;
  std::vector<unsigned> host(n, 0u);
  stream_guard sg;
  std::size_t free_before = 0, free_after = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(sg.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  unsigned* scratch = nullptr;
  REQUIRE(cudaMallocAsync(&scratch, n * sizeof(unsigned), sg.s) == cudaSuccess);
  REQUIRE(scratch != nullptr);
  REQUIRE(cudaMemsetAsync(scratch, 0, n * sizeof(unsigned), sg.s) == cudaSuccess);
  REQUIRE(launch_add(sg.s, scratch, n, 3u) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(host.data(), scratch, n * sizeof(unsigned), cudaMemcpyDeviceToHost, sg.s) == cudaSuccess);
  REQUIRE(cudaFreeAsync(scratch, sg.s) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(sg.s, &graph) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int replay = 0; replay < 2; ++replay) {
    host.assign(n, 0u);
    REQUIRE(cudaGraphLaunch(exec, sg.s) == cudaSuccess);
    CHECK(host == std::vector<unsigned>(n, 3u));
  }
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
  CHECK(free_after == free_before);
}

TEST_CASE("calls that could synchronise are refused during a capture and invalidate it", "[graph]") {
  device_buffer<unsigned> d(std::vector<unsigned>(64, 1u));
  stream_guard sg;
  const auto refused_by = [&](const char* what, auto&& call, cudaError_t expected) {
    INFO(what);
    REQUIRE(cudaStreamBeginCapture(sg.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    REQUIRE(launch_add(sg.s, d.data(), 64u, 1u) == cudaSuccess);
    CHECK(call() == expected);
    CHECK(status_of(sg.s) == cudaStreamCaptureStatusInvalidated);
    cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(0x1);
    CHECK(cudaStreamEndCapture(sg.s, &graph) == cudaErrorStreamCaptureInvalidated);
    CHECK(graph == nullptr);
    cudaGetLastError();
  };
  void* p = nullptr;
  unsigned host = 0;
  refused_by("cudaMalloc", [&] { return cudaMalloc(&p, 64); }, cudaErrorStreamCaptureUnsupported);
  refused_by("cudaFree", [&] { return cudaFree(d.data()); }, cudaErrorStreamCaptureUnsupported);
  refused_by("cudaMemcpy", [&] { return cudaMemcpy(&host, d.data(), 4, cudaMemcpyDeviceToHost); },
             cudaErrorStreamCaptureUnsupported);
  refused_by("cudaMemset", [&] { return cudaMemset(d.data(), 0, 4); }, cudaErrorStreamCaptureUnsupported);
  refused_by("cudaDeviceSynchronize", [&] { return cudaDeviceSynchronize(); }, cudaErrorStreamCaptureUnsupported);
  refused_by("cudaStreamSynchronize of the capturing stream", [&] { return cudaStreamSynchronize(sg.s); },
             cudaErrorStreamCaptureUnsupported);
  refused_by("work on the legacy default stream", [&] { return cudaMemsetAsync(d.data(), 0, 4, 0); },
             cudaErrorStreamCaptureImplicit);
  CHECK(d.download() == std::vector<unsigned>(64, 1u));  // none of the captured launches ran
}

TEST_CASE("what a capture allows: relaxed mode, non-blocking streams, other streams", "[graph]") {
  device_buffer<unsigned> d(std::vector<unsigned>(64, 0u));
  stream_guard blocking, nonblocking(cudaStreamNonBlocking), other;
  // Relaxed mode allows cudaMalloc.
  REQUIRE(cudaStreamBeginCapture(blocking.s, cudaStreamCaptureModeRelaxed) == cudaSuccess);
  void* p = nullptr;
  CHECK(cudaMalloc(&p, 64) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(blocking.s, &graph) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  // A non-blocking capturing stream does not tie the legacy stream; other streams run at once.
  REQUIRE(cudaStreamBeginCapture(nonblocking.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaMemsetAsync(d.data(), 0, 4, 0) == cudaSuccess);
  CHECK(launch_add(other.s, d.data(), 64u, 2u) == cudaSuccess);
  CHECK(cudaStreamEndCapture(nonblocking.s, &graph) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(d.download() == std::vector<unsigned>(64, 2u));
  // The legacy stream cannot capture.
  CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
}
