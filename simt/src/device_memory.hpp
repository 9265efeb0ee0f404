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

// The emulated device's memory size.
constexpr std::size_t k_total_memory = std::size_t{16} << 30;
// Counts an allocation call (cudaMalloc, cudaMallocAsync; cudaMallocHost through cudaMalloc); true
// for the one that RINGSWEEP_SIMT_FAIL_ALLOC / simt::fail_allocation names.
bool allocation_fails_now();
// Allocates 256-byte aligned memory like cudaMalloc, without the capture check.
cudaError_t allocate_memory(void** ptr, std::size_t bytes);
// Releases memory from allocate_memory (nullptr: nothing); anything else is cudaErrorInvalidValue.
cudaError_t release_memory(void* ptr);
// Bytes allocated and not yet released.
std::size_t allocated_bytes();
}  // namespace detail
}  // namespace simt
