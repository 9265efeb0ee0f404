// Simulated devices and device memory (RINGSWEEP_SIMT_DEVICES, RINGSWEEP_SIMT_DEVICE_BYTES): the
// current device per host thread, each device's memory on its own, allocations beyond it failing,
// cudaMemGetInfo, and cudaPointerGetAttributes telling device, page-locked and pageable memory
// apart. ctest runs it with 3 devices of 4 MiB (simt_devices_simt_3x4MiB) and with 3 devices of
// 4, 2 and 2 MiB (simt_devices_simt_list); with one device (the default) the multi-device cases
// check only what one device allows.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "test_util.cuh"

TEST_CASE("devices: the current device is the calling thread's", "[backend][devices]") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  REQUIRE(count >= 1);
  int d = -1;
  REQUIRE(cudaGetDevice(&d) == cudaSuccess);
  CHECK(d == 0);
  CHECK(cudaSetDevice(count) == cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(-1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  if (count < 3) return;
  REQUIRE(cudaSetDevice(2) == cudaSuccess);
  int other = -1;
  std::thread([&] { cudaGetDevice(&other); }).join();
  CHECK(other == 0);  // a new host thread starts on device 0
  REQUIRE(cudaGetDevice(&d) == cudaSuccess);
  CHECK(d == 2);
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 2) == cudaSuccess);
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
}

TEST_CASE("devices: memory is per device, capped, and reported", "[backend][devices]") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  std::size_t free0 = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  REQUIRE(free0 <= total);
  if (total > (std::size_t(64) << 20)) return;  // the default 16 GiB: nothing to fill here
  // Fill device 0 to the cap: the next allocation fails, and another device is still empty.
  std::vector<void*> held;
  for (;;) {
    void* p = nullptr;
    if (cudaMalloc(&p, 256 << 10) != cudaSuccess) break;
    held.push_back(p);
  }
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  std::size_t free_now = 0;
  REQUIRE(cudaMemGetInfo(&free_now, &total) == cudaSuccess);
  CHECK(free_now < (std::size_t(256) << 10));
  CHECK(held.size() * (std::size_t(256) << 10) <= total);
  if (count >= 2) {
    REQUIRE(cudaSetDevice(1) == cudaSuccess);
    std::size_t free1 = 0;
    REQUIRE(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK(free1 == total);
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 1 << 20) == cudaSuccess);
    CHECK(cudaFree(p) == cudaSuccess);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
  }
  // Page-locked host memory is not device memory: it is allocated while device 0 is full.
  void* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, 1 << 20) == cudaSuccess);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  for (void* p : held) REQUIRE(cudaFree(p) == cudaSuccess);
  REQUIRE(cudaMemGetInfo(&free_now, &total) == cudaSuccess);
  CHECK(free_now == free0);
}

TEST_CASE("devices: cudaPointerGetAttributes tells memory kinds apart", "[backend][devices]") {
  void *device = nullptr, *pinned = nullptr;
  REQUIRE(cudaMalloc(&device, 1024) == cudaSuccess);
  REQUIRE(cudaMallocHost(&pinned, 1024) == cudaSuccess);
  std::vector<char> pageable(1024);
  cudaPointerAttributes a;
  REQUIRE(cudaPointerGetAttributes(&a, static_cast<char*>(device) + 100) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeDevice);
  CHECK(a.device == 0);
  REQUIRE(cudaPointerGetAttributes(&a, pinned) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeHost);
  REQUIRE(cudaPointerGetAttributes(&a, pageable.data()) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeUnregistered);
  CHECK(cudaFree(pinned) == cudaErrorInvalidValue);  // page-locked memory is freed by cudaFreeHost
  cudaGetLastError();
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFree(device) == cudaSuccess);
}

TEST_CASE("devices: one memory size per device from a list", "[backend][devices]") {
  // RINGSWEEP_SIMT_DEVICE_BYTES=a,b,...: device i has the i-th size, the last one repeated
  // (simt_devices_simt_list runs this with 3 devices and "4194304,2097152").
  const char* env = std::getenv("RINGSWEEP_SIMT_DEVICE_BYTES");
  if (env == nullptr || std::strchr(env, ',') == nullptr) return;
  std::vector<std::size_t> sizes;
  for (const char* p = env; *p != '\0';) {
    char* end = nullptr;
    sizes.push_back(std::strtoull(p, &end, 0));
    p = *end == ',' ? end + 1 : end;
  }
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  for (int d = 0; d < count; ++d) {
    INFO("device " << d);
    const std::size_t want = sizes[std::min<std::size_t>(std::size_t(d), sizes.size() - 1)];
    cudaDeviceProp p;
    REQUIRE(cudaGetDeviceProperties(&p, d) == cudaSuccess);
    CHECK(p.totalGlobalMem == want);
    REQUIRE(cudaSetDevice(d) == cudaSuccess);
    std::size_t free_bytes = 0, total = 0;
    REQUIRE(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
    CHECK(total == want);
    void* ptr = nullptr;
    CHECK(cudaMalloc(&ptr, want + 256) == cudaErrorMemoryAllocation);  // beyond this device's memory
    cudaGetLastError();
    REQUIRE(cudaMalloc(&ptr, want / 2) == cudaSuccess);
    CHECK(cudaFree(ptr) == cudaSuccess);
  }
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
}
