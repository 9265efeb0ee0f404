// ringsweep SIMT backend: device memory (host memory handed out by a tracked allocator) and the
// per-host-thread error state, shared by the runtime sources (internal). Depends on nothing but the
// configuration, so the runtime API, graphs and launches can all use it without using each other.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace simt {
namespace detail {
// Stores `e` as the calling host thread's last error (unless it is cudaSuccess) and returns it.
cudaError_t record_error(cudaError_t e);
// cudaErrorNoDevice (recorded) where RINGSWEEP_SIMT_DEVICES=0 emulates a machine without one.
cudaError_t check_device();

// The calling host thread's current device (cudaSetDevice), and each emulated device's memory.
int current_device();
void set_current_device(int device);
std::size_t device_memory_bytes(int device);
// Counts an allocation call (cudaMalloc, cudaMallocAsync; cudaMallocHost through cudaMalloc); true
// for the one that RINGSWEEP_SIMT_FAIL_ALLOC / simt::fail_allocation names.
bool allocation_fails_now();
// Counts a page-locked host allocation call (cudaMallocHost, cudaHostAlloc) for
// simt::host_allocation_calls.
void count_host_allocation();
// Counts a copy call (cudaMemcpy, cudaMemcpyAsync, cudaMemcpyBatchAsync: one per batch); true for
// the one that RINGSWEEP_SIMT_FAIL_COPY / simt::fail_copy names.
bool copy_fails_now();
// Counts the bytes of a copy of `kind` (device to host, or Default from device to host memory)
// for simt::device_to_host_bytes.
void count_copy_bytes(void* dst, const void* src, std::size_t bytes, int kind);
// Allocates 256-byte aligned memory of the current device like cudaMalloc, without the capture
// check; cudaErrorMemoryAllocation beyond the device's memory (RINGSWEEP_SIMT_DEVICE_BYTES).
cudaError_t allocate_memory(void** ptr, std::size_t bytes);
// Releases memory from allocate_memory (nullptr: nothing); anything else is cudaErrorInvalidValue.
cudaError_t release_memory(void* ptr);
// Bytes of `device` allocated and not yet released.
std::size_t allocated_bytes(int device);
// Page-locked host memory (cudaMallocHost / cudaHostAlloc): not device memory, but remembered so
// that cudaPointerGetAttributes can tell it from pageable memory.
cudaError_t allocate_host(void** ptr, std::size_t bytes);
cudaError_t release_host(void* ptr);
// What `ptr` points into: device memory (and which device), page-locked host memory, or neither.
cudaMemoryType memory_type(const void* ptr, int& device);
}  // namespace detail
}  // namespace simt
