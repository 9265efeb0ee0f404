// ringsweep SIMT backend: streams, events and stream capture shared by the runtime sources
// (internal).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

namespace simt {
namespace detail {

// What a capture records and a graph replays: operations in issue order, and the memory that
// cudaMallocAsync handed out during the capture (released with the last holder of the body).
struct graph_body {
  std::vector<std::function<cudaError_t()>> ops;
  std::vector<void*> owned;
  graph_body() = default;
  graph_body(const graph_body&) = delete;
  graph_body& operator=(const graph_body&) = delete;
  ~graph_body();
  bool owns(const void* p) const;
};

// The capture that a call which may synchronise would disturb: invalidates every such capture and
// returns cudaErrorStreamCaptureUnsupported, or cudaSuccess when there is none.
cudaError_t refuse_if_capturing();
// The capture of `stream` if it is capturing (nullptr otherwise).
std::shared_ptr<graph_body> capture_body(cudaStream_t stream);
// Marks the capture of `stream` invalid (a refused operation on it).
void invalidate_capture(cudaStream_t stream);
// Runs `op` now, or records it when `stream` is capturing (refused on the legacy stream while a
// blocking stream captures).
cudaError_t stream_operation(cudaStream_t stream, std::function<cudaError_t()> op);
// Drops `stream` from the active captures (it is being destroyed).
void forget_capture(cudaStream_t stream);

}  // namespace detail
}  // namespace simt

struct CUstream_st {
  unsigned flags;
  // Capture state; guarded by the capture registry's mutex (graph.cpp).
  bool capturing = false;
  bool invalidated = false;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread{};
  std::shared_ptr<simt::detail::graph_body> body;
};
struct CUevent_st {
  unsigned flags;
  bool recorded;
  std::chrono::steady_clock::time_point when;
};
struct CUgraph_st {
  std::shared_ptr<simt::detail::graph_body> body;
};
struct CUgraphExec_st {
  std::shared_ptr<simt::detail::graph_body> body;
};
