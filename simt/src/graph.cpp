// ringsweep SIMT backend: stream capture and graphs. A capture records the operations issued to
// its stream; a graph exec replays them in order on cudaGraphLaunch. Calls that could synchronise
// with a capturing stream are refused and invalidate the capture, as on a GPU, so that a test can
// tell that a library call queues stream work only.
#include <algorithm>
#include <mutex>

#include <cuda_runtime.h>

#include "capture.hpp"
#include "device_memory.hpp"
#include "grid_run.hpp"

namespace simt {
namespace detail {
namespace {

std::mutex g_capture_mutex;
std::vector<cudaStream_t> g_capturing;  // streams between cudaStreamBeginCapture and EndCapture

bool is_stream_object(cudaStream_t s) { return s != nullptr && s != cudaStreamLegacy && s != cudaStreamPerThread; }

// Whether a call from this thread that may synchronise would disturb the capture of `s`.
bool disturbs(const CUstream_st& s) {
  switch (s.mode) {
    case cudaStreamCaptureModeGlobal: return true;
    case cudaStreamCaptureModeThreadLocal: return s.thread == std::this_thread::get_id();
    default: return false;
  }
}

// Kernel nodes keep the launch attributes they were captured with: consecutive dependent launches
// overlap as they would in the stream. The last grid finishes before the replay returns.
cudaError_t run_body(const graph_body& body) {
  drain_grids();
  cudaError_t result = cudaSuccess;
  for (const auto& op : body.ops) {
    if ((result = op()) != cudaSuccess) break;
  }
  drain_grids();
  return result;
}

}  // namespace

graph_body::~graph_body() {
  for (void* p : owned) release_memory(p);
}

bool graph_body::owns(const void* p) const { return std::find(owned.begin(), owned.end(), p) != owned.end(); }

cudaError_t refuse_if_capturing() {
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  bool refused = false;
  for (cudaStream_t s : g_capturing) {
    if (disturbs(*s)) {
      s->invalidated = true;
      refused = true;
    }
  }
  return refused ? record_error(cudaErrorStreamCaptureUnsupported) : cudaSuccess;
}

std::shared_ptr<graph_body> capture_body(cudaStream_t s) {
  if (!is_stream_object(s)) return nullptr;
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  return s->capturing ? s->body : nullptr;
}

void invalidate_capture(cudaStream_t s) {
  if (!is_stream_object(s)) return;
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  if (s->capturing) s->invalidated = true;
}

void forget_capture(cudaStream_t s) {
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  g_capturing.erase(std::remove(g_capturing.begin(), g_capturing.end(), s), g_capturing.end());
}

bool stream_capturing(cudaStream_t s) { return capture_body(s) != nullptr; }

cudaError_t capture_record(cudaStream_t s, std::function<cudaError_t()> op) {
  if (!is_stream_object(s)) return record_error(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  if (!s->capturing) return record_error(cudaErrorInvalidResourceHandle);
  s->body->ops.push_back(std::move(op));
  return cudaSuccess;
}

cudaError_t stream_usable(cudaStream_t s) {
  if (s != nullptr && s != cudaStreamLegacy) return cudaSuccess;
  // The legacy default stream waits for every blocking stream: for a capturing one, that is a
  // dependency the graph cannot express.
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  bool refused = false;
  for (cudaStream_t c : g_capturing) {
    if ((c->flags & cudaStreamNonBlocking) == 0) {
      c->invalidated = true;
      refused = true;
    }
  }
  return refused ? record_error(cudaErrorStreamCaptureImplicit) : cudaSuccess;
}

cudaError_t stream_operation(cudaStream_t s, std::function<cudaError_t()> op) {
  if (stream_capturing(s)) return capture_record(s, std::move(op));
  if (cudaError_t e = stream_usable(s)) return e;
  return op();
}

}  // namespace detail
}  // namespace simt

using simt::detail::record_error;

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode) {
  simt::detail::drain_grids();
  if (!simt::detail::is_stream_object(s)) return record_error(cudaErrorStreamCaptureUnsupported);
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed)
    return record_error(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(simt::detail::g_capture_mutex);
  if (s->capturing) return record_error(cudaErrorInvalidValue);
  s->capturing = true;
  s->invalidated = false;
  s->mode = mode;
  s->thread = std::this_thread::get_id();
  s->body = std::make_shared<simt::detail::graph_body>();
  simt::detail::g_capturing.push_back(s);
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
  simt::detail::drain_grids();
  if (graph == nullptr) return record_error(cudaErrorInvalidValue);
  if (!simt::detail::is_stream_object(s)) return record_error(cudaErrorInvalidValue);
  std::shared_ptr<simt::detail::graph_body> body;
  bool invalidated = false;
  {
    std::lock_guard<std::mutex> lock(simt::detail::g_capture_mutex);
    if (!s->capturing) return record_error(cudaErrorInvalidValue);
    auto& list = simt::detail::g_capturing;
    list.erase(std::remove(list.begin(), list.end(), s), list.end());
    s->capturing = false;
    invalidated = s->invalidated;
    body = std::move(s->body);
  }
  *graph = nullptr;
  if (invalidated) return record_error(cudaErrorStreamCaptureInvalidated);  // body (and its memory) released
  *graph = new CUgraph_st{std::move(body)};
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  if (status == nullptr) return record_error(cudaErrorInvalidValue);
  *status = cudaStreamCaptureStatusNone;
  if (!simt::detail::is_stream_object(s)) return cudaSuccess;
  std::lock_guard<std::mutex> lock(simt::detail::g_capture_mutex);
  if (s->capturing) *status = s->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (exec == nullptr || graph == nullptr) return record_error(cudaErrorInvalidValue);
  *exec = new CUgraphExec_st{graph->body};
  return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s) {
  simt::detail::drain_grids();
  if (exec == nullptr) return record_error(cudaErrorInvalidValue);
  std::shared_ptr<simt::detail::graph_body> body = exec->body;
  return simt::detail::stream_operation(s, [body]() { return simt::detail::run_body(*body); });
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  simt::detail::drain_grids();
  if (exec == nullptr) return record_error(cudaErrorInvalidValue);
  delete exec;
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  simt::detail::drain_grids();
  if (graph == nullptr) return record_error(cudaErrorInvalidValue);
  delete graph;
  return cudaSuccess;
}
