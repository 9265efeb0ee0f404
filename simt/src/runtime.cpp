// ringsweep SIMT backend: runtime API backed by host memory. Every stream operation other than a
// kernel launch completes before its call returns; each first waits for the grid in flight
// (drain_grids, launch.cpp), which keeps operations on every stream in issue order.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include <ringsweep_simt/control.hpp>

#include "capture.hpp"
#include "config.hpp"
#include "device_memory.hpp"
#include "grid_run.hpp"
#include "ringsweep_simt/control.hpp"

namespace simt {
namespace detail {
namespace {
std::atomic<unsigned long long> g_memset_calls{0};  // simt::memset_calls
std::atomic<unsigned long long> g_memset_bytes{0};  // simt::memset_bytes
void copy_now(void* dst, const void* src, std::size_t bytes) {
  drain_grids();
  if (bytes != 0) std::memmove(dst, src, bytes);
}
void set_now(void* ptr, int value, std::size_t bytes) {
  drain_grids();
  if (bytes != 0) std::memset(ptr, value, bytes);
}
// The copy call RINGSWEEP_SIMT_FAIL_COPY / simt::fail_copy names (checked after the arguments): a
// copy that failed part-way, its destination garbage (0xA5 bytes, written at once, after the work
// already enqueued).
cudaError_t failed_copy(void* dst, std::size_t bytes) {
  set_now(dst, 0xA5, bytes);
  return record_error(cudaErrorLaunchFailure);
}
}  // namespace
}  // namespace detail
unsigned long long memset_calls() { return detail::g_memset_calls.load(); }
unsigned long long memset_bytes() { return detail::g_memset_bytes.load(); }
}  // namespace simt

using simt::detail::config;
using simt::detail::record_error;

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorStreamCaptureImplicit: return "cudaErrorStreamCaptureImplicit";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureImplicit: return "operation would make the legacy stream depend on a capturing blocking stream";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unknown error";
}

// ---- device -----------------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return record_error(cudaErrorInvalidValue);
  *count = config().device_count;
  return config().device_count == 0 ? record_error(cudaErrorNoDevice) : cudaSuccess;
}
// Devices share one scheduler (one grid in flight at a time) and differ in their memory: each has
// RINGSWEEP_SIMT_DEVICE_BYTES of its own (one size for all, or a list), and cudaSetDevice picks the calling host thread's.
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = simt::detail::check_device()) return e;
  *device = simt::detail::current_device();
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (cudaError_t e = simt::detail::check_device()) return e;
  if (device < 0 || device >= config().device_count) return record_error(cudaErrorInvalidDevice);
  simt::detail::set_current_device(device);
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  simt::detail::drain_grids();
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  return simt::detail::check_device();
}
cudaError_t cudaDeviceReset() {
  simt::detail::drain_grids();
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
  if (v == nullptr) return record_error(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (p == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = simt::detail::check_device()) return e;
  if (device < 0 || device >= config().device_count) return record_error(cudaErrorInvalidDevice);
  *p = cudaDeviceProp{};
  std::snprintf(p->name, sizeof p->name, "ringsweep SIMT backend (CPU, %u worker threads)", config().workers);
  p->totalGlobalMem = simt::detail::device_memory_bytes(device);
  p->sharedMemPerBlock = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = 64 * 1024;
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = config().sm_count;
  p->l2CacheSize = config().l2_bytes;
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = 228 * 1024;
  p->regsPerMultiprocessor = 65536;
  p->sharedMemPerBlockOptin = 227 * 1024;
  p->maxBlocksPerMultiProcessor = 32;
  p->clockRate = 1000000;
  p->memoryClockRate = 1000000;
  p->memoryBusWidth = 5120;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return record_error(cudaErrorInvalidValue);
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device)) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return record_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = simt::detail::check_device()) return e;
  const std::size_t total = simt::detail::device_memory_bytes(simt::detail::current_device());
  *total_bytes = total;
  *free_bytes = total - std::min(total, simt::detail::allocated_bytes(simt::detail::current_device()));
  return cudaSuccess;
}

// ---- memory -----------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  simt::detail::drain_grids();
  if (simt::detail::allocation_fails_now()) return record_error(cudaErrorMemoryAllocation);
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  return simt::detail::allocate_memory(ptr, bytes);
}
cudaError_t cudaFree(void* ptr) {
  simt::detail::drain_grids();
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  return simt::detail::release_memory(ptr);
}
// Page-locked host memory: host memory here too, remembered for cudaPointerGetAttributes and not
// counted as device memory. An allocation call for RINGSWEEP_SIMT_FAIL_ALLOC, as cudaMalloc is.
cudaError_t cudaMallocHost(void** ptr, size_t bytes) {
  simt::detail::drain_grids();
  simt::detail::count_host_allocation();
  if (simt::detail::allocation_fails_now()) return record_error(cudaErrorMemoryAllocation);
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  return simt::detail::allocate_host(ptr, bytes);
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned int flags) {
  if ((flags & ~0x0fu) != 0) return record_error(cudaErrorInvalidValue);
  return cudaMallocHost(ptr, bytes);
}
cudaError_t cudaFreeHost(void* ptr) {
  simt::detail::drain_grids();
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  return simt::detail::release_host(ptr);
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return record_error(cudaErrorInvalidValue);
  int device = -1;
  attributes->type = simt::detail::memory_type(ptr, device);
  attributes->device = device < 0 ? simt::detail::current_device() : device;
  attributes->devicePointer = attributes->type == cudaMemoryTypeUnregistered ? nullptr : const_cast<void*>(ptr);
  attributes->hostPointer = attributes->type == cudaMemoryTypeDevice ? nullptr : const_cast<void*>(ptr);
  return cudaSuccess;
}
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t s) {
  simt::detail::drain_grids();
  if (simt::detail::allocation_fails_now()) return record_error(cudaErrorMemoryAllocation);
  if (auto body = simt::detail::capture_body(s)) {
    // The graph's memory: allocated now, valid for every replay, released with the graph.
    if (cudaError_t e = simt::detail::allocate_memory(ptr, bytes)) return e;
    if (*ptr != nullptr) body->owned.push_back(*ptr);
    return cudaSuccess;
  }
  if (cudaError_t e = simt::detail::stream_usable(s)) return e;
  return simt::detail::allocate_memory(ptr, bytes);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t s) {
  simt::detail::drain_grids();
  if (auto body = simt::detail::capture_body(s)) {
    if (ptr == nullptr || body->owns(ptr)) return cudaSuccess;
    return simt::detail::capture_record(s, [ptr]() {
      simt::detail::drain_grids();
      return simt::detail::release_memory(ptr);
    });
  }
  if (cudaError_t e = simt::detail::stream_usable(s)) return e;
  return simt::detail::release_memory(ptr);
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  const bool fails = simt::detail::copy_fails_now();
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return record_error(cudaErrorInvalidMemcpyDirection);
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return record_error(cudaErrorInvalidValue);
  simt::detail::count_copy_bytes(dst, src, bytes, kind);
  if (fails) return simt::detail::failed_copy(dst, bytes);
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  if (cudaError_t e = simt::detail::stream_usable(nullptr)) return e;
  simt::detail::copy_now(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  const bool fails = simt::detail::copy_fails_now();
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return record_error(cudaErrorInvalidMemcpyDirection);
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return record_error(cudaErrorInvalidValue);
  simt::detail::count_copy_bytes(dst, src, bytes, kind);
  if (fails) return simt::detail::failed_copy(dst, bytes);
  return simt::detail::stream_operation(s, [dst, src, bytes]() {
    simt::detail::copy_now(dst, src, bytes);
    return cudaSuccess;
  });
}
namespace simt {
namespace detail {
namespace {
// cudaMemcpyBatchAsync of either signature (`fail_index`: 12.8's and 12.9's `failIdx`, or null):
// the arguments checked as CUDA documents them (the legacy default stream refused), one copy call
// counted; the injected failure fails every copy of the batch.
cudaError_t copy_batch(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                       const cudaMemcpyAttributes* attrs, const size_t* attrs_idxs, size_t num_attrs,
                       size_t* fail_index, cudaStream_t s) {
  const bool fails = copy_fails_now();
  const auto invalid = [&](size_t index) {
    if (fail_index != nullptr) *fail_index = index;
    return record_error(cudaErrorInvalidValue);
  };
  const size_t none = ~size_t(0);
  if (count == 0 || dsts == nullptr || srcs == nullptr || sizes == nullptr) return invalid(none);
  if (num_attrs == 0 || num_attrs > count || attrs == nullptr || attrs_idxs == nullptr) return invalid(none);
  if (s == nullptr || s == cudaStreamLegacy) return invalid(none);
  for (size_t a = 0; a < num_attrs; ++a) {
    const bool ascending = a == 0 ? attrs_idxs[0] == 0 : attrs_idxs[a] > attrs_idxs[a - 1];
    if (!ascending || attrs_idxs[a] >= count) return invalid(none);
    const int order = int(attrs[a].srcAccessOrder);
    if (order < cudaMemcpySrcAccessOrderStream || order > cudaMemcpySrcAccessOrderAny) return invalid(attrs_idxs[a]);
    if ((attrs[a].flags & ~unsigned(cudaMemcpyFlagPreferOverlapWithCompute)) != 0) return invalid(attrs_idxs[a]);
  }
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] != 0 && (dsts[i] == nullptr || srcs[i] == nullptr)) return invalid(i);
  }
  for (size_t i = 0; i < count; ++i) count_copy_bytes(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault);
  if (fails) {
    if (fail_index != nullptr) *fail_index = 0;
    for (size_t i = 0; i < count; ++i) set_now(dsts[i], 0xA5, sizes[i]);
    return record_error(cudaErrorLaunchFailure);
  }
  // Kept by value: a captured batch runs after the caller's arrays are gone.
  std::vector<void*> to(dsts, dsts + count);
  std::vector<const void*> from(srcs, srcs + count);
  std::vector<size_t> bytes(sizes, sizes + count);
  return stream_operation(s, [to = std::move(to), from = std::move(from), bytes = std::move(bytes)]() {
    for (size_t i = 0; i < to.size(); ++i) copy_now(to[i], from[i], bytes[i]);
    return cudaSuccess;
  });
}
}  // namespace
}  // namespace detail
}  // namespace simt

cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, cudaStream_t s) {
  return simt::detail::copy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, nullptr, s);
}
// CUDA 12.8's and 12.9's signature, for a caller that sees CUDART_VERSION below 13000.
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, size_t* failIdx,
                                 cudaStream_t s) {
  return simt::detail::copy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, s);
}
cudaError_t cudaMemset(void* ptr, int value, size_t bytes) {
  if (bytes != 0 && ptr == nullptr) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = simt::detail::refuse_if_capturing()) return e;
  if (cudaError_t e = simt::detail::stream_usable(nullptr)) return e;
  simt::detail::g_memset_calls.fetch_add(1);
  simt::detail::g_memset_bytes.fetch_add(bytes);
  simt::detail::set_now(ptr, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t s) {
  if (bytes != 0 && ptr == nullptr) return record_error(cudaErrorInvalidValue);
  simt::detail::g_memset_calls.fetch_add(1);
  simt::detail::g_memset_bytes.fetch_add(bytes);
  return simt::detail::stream_operation(s, [ptr, value, bytes]() {
    simt::detail::set_now(ptr, value, bytes);
    return cudaSuccess;
  });
}

// ---- streams and events -----------------------------------------------------------------------

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
  if (s == nullptr) return record_error(cudaErrorInvalidValue);
  *s = new CUstream_st{flags, false, false, cudaStreamCaptureModeGlobal, {}, nullptr};
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  simt::detail::drain_grids();
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return record_error(cudaErrorInvalidResourceHandle);
  simt::detail::forget_capture(s);
  delete s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  simt::detail::drain_grids();
  if (simt::detail::stream_capturing(s)) {
    simt::detail::invalidate_capture(s);
    return record_error(cudaErrorStreamCaptureUnsupported);
  }
  return simt::detail::stream_usable(s);
}
cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t e, unsigned int) {
  simt::detail::drain_grids();
  return e == nullptr ? record_error(cudaErrorInvalidResourceHandle) : cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int flags) {
  if (e == nullptr) return record_error(cudaErrorInvalidValue);
  *e = new CUevent_st{flags, false, {}};
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (e == nullptr) return record_error(cudaErrorInvalidResourceHandle);
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  if (e == nullptr) return record_error(cudaErrorInvalidResourceHandle);
  return simt::detail::stream_operation(s, [e]() {
    simt::detail::drain_grids();  // the event completes after the work before it
    e->recorded = true;
    e->when = std::chrono::steady_clock::now();
    return cudaSuccess;
  });
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  simt::detail::drain_grids();
  if (e == nullptr) return record_error(cudaErrorInvalidResourceHandle);
  return simt::detail::refuse_if_capturing();
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  simt::detail::drain_grids();
  return e == nullptr ? record_error(cudaErrorInvalidResourceHandle) : cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return record_error(cudaErrorInvalidValue);
  if (start == nullptr || end == nullptr || !start->recorded || !end->recorded ||
      ((start->flags | end->flags) & cudaEventDisableTiming))
    return record_error(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}
