// ringsweep SIMT backend: the host-side CUDA runtime API subset, backed by host memory.
// Every stream operation but a kernel launch completes before the call returns, after the grid
// still in flight (launch.hpp) has finished, so operations on any stream complete in the order
// they were issued (a dependent launch may overlap its predecessor, as on sm_90).
//
// Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture, kernel launches,
// cudaMemsetAsync, cudaMemcpyAsync, cudaMemcpyBatchAsync, cudaEventRecord and cudaGraphLaunch on
// the capturing stream are recorded, not run; cudaGraphLaunch of the instantiated graph runs them in order (launch
// errors surface there). cudaMallocAsync on a capturing stream allocates at once and the memory
// belongs to the graph (freed with the last graph or graph exec holding it; cudaFreeAsync of it
// inside the capture does nothing); cudaFreeAsync of other memory is recorded. As on a GPU, calls
// that may synchronise are refused while a capture they could disturb is active (mode Global: any
// capture; ThreadLocal: one begun on this thread; Relaxed: none): cudaMalloc, cudaFree,
// cudaMallocHost, cudaFreeHost, cudaMemcpy, cudaMemset, cudaDeviceSynchronize and
// cudaEventSynchronize return cudaErrorStreamCaptureUnsupported; cudaStreamSynchronize and
// cudaStreamQuery of the capturing stream too; work on the legacy default stream while a blocking
// stream captures returns cudaErrorStreamCaptureImplicit. Each refusal invalidates the captures
// concerned: their cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated. Not modelled:
// captures that fork to other streams through events.
#pragma once

#include <cstddef>
#include <functional>

#include "types.hpp"

cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);

cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMallocHost(void** ptr, size_t bytes);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned int flags);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
template <class T>
inline cudaError_t cudaMalloc(T** ptr, size_t bytes) { return cudaMalloc(reinterpret_cast<void**>(ptr), bytes); }
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t bytes) { return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes); }
template <class T>
inline cudaError_t cudaMallocAsync(T** ptr, size_t bytes, cudaStream_t s) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, s);
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = 0);
// Every copy of the batch in stream order, as one copy call (simt::copy_calls, simt::fail_copy: an
// injected failure fails the whole batch, every destination 0xA5 bytes). The signature of the
// CUDART_VERSION the caller sees: 12.8 and 12.9 have `failIdx` before the stream; the backend
// defines both.
#if CUDART_VERSION >= 13000
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, cudaStream_t stream);
#elif CUDART_VERSION >= 12080
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, size_t* failIdx,
                                 cudaStream_t stream);
#endif
cudaError_t cudaMemset(void* ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t stream = 0);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);

namespace simt {
namespace detail {
// Whether `stream` is capturing (its operations are recorded, not run).
bool stream_capturing(cudaStream_t stream);
// Records `op` into the capture of `stream` (which must be capturing).
cudaError_t capture_record(cudaStream_t stream, std::function<cudaError_t()> op);
// cudaSuccess if work may run on `stream` now; an error (and invalidated captures) where work on
// the legacy default stream would implicitly wait for a capturing stream.
cudaError_t stream_usable(cudaStream_t stream);
}  // namespace detail
}  // namespace simt

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
