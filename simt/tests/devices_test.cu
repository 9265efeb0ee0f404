// Simulated devices and device memory (RINGSWEEP_SIMT_DEVICES, RINGSWEEP_SIMT_DEVICE_BYTES): the
// current device per host thread, each device's memory on its own, allocations beyond it failing,
// cudaMemGetInfo, and cudaPointerGetAttributes telling device, page-locked and pageable memory
// apart. ctest runs it with 3 devices of 4 MiB (simt_devices_simt_3x4MiB) and with 3 devices of
// 4, 2 and 2 MiB (simt_devices_simt_list); with one device (the default) the multi-device cases
// check only what one device allows.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>
#include <ringsweep_simt/control.hpp>

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

// CUDA 12.8's and 12.9's signature, which the backend defines beside 13's.
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, size_t* failIdx,
                                 cudaStream_t stream);

TEST_CASE("devices: cudaMemcpyBatchAsync is one copy call, checked and failed as a whole", "[backend][devices]") {
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  unsigned *d = nullptr, *pinned = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(unsigned)) == cudaSuccess);
  REQUIRE(cudaMallocHost(&pinned, 64 * sizeof(unsigned)) == cudaSuccess);
  for (unsigned i = 0; i < 64; ++i) pinned[i] = i + 1;
  cudaMemcpyAttributes a{};
  a.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  a.srcLocHint.type = cudaMemLocationTypeHost;
  a.dstLocHint.type = cudaMemLocationTypeDevice;
  size_t first = 0;
  // In: two pieces swapped and an empty copy (null pointers allowed); out: back to pageable memory.
  void* in_dst[3] = {d, d + 40, nullptr};
  const void* in_src[3] = {pinned + 24, pinned, nullptr};
  size_t in_bytes[3] = {40 * sizeof(unsigned), 24 * sizeof(unsigned), 0};
  unsigned long long calls = simt::copy_calls();
  REQUIRE(cudaMemcpyBatchAsync(in_dst, in_src, in_bytes, 3, &a, &first, 1, s) == cudaSuccess);
  CHECK(simt::copy_calls() == calls + 1);
  std::vector<unsigned> back(64, 0u), want(64);
  for (unsigned i = 0; i < 64; ++i) want[i] = i < 40 ? i + 25 : i - 39;
  void* out_dst[2] = {back.data(), back.data() + 32};
  const void* out_src[2] = {d, d + 32};
  size_t out_bytes[2] = {32 * sizeof(unsigned), 32 * sizeof(unsigned)};
  std::swap(a.srcLocHint, a.dstLocHint);
  const unsigned long long down = simt::device_to_host_bytes();
  REQUIRE(cudaMemcpyBatchAsync(out_dst, out_src, out_bytes, 2, &a, &first, 1, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(back == want);
  CHECK(simt::device_to_host_bytes() - down == 64 * sizeof(unsigned));
  // Bad arguments: cudaErrorInvalidValue, nothing written (each still a copy call).
  std::vector<unsigned> kept = back;
  const auto refused = [&](void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                           cudaMemcpyAttributes* attrs, size_t* idxs, size_t num, cudaStream_t stream) {
    const bool r = cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, idxs, num, stream) == cudaErrorInvalidValue;
    cudaGetLastError();
    return r && back == kept;
  };
  CHECK(refused(out_dst, out_src, out_bytes, 0, &a, &first, 1, s));
  CHECK(refused(nullptr, out_src, out_bytes, 2, &a, &first, 1, s));
  CHECK(refused(out_dst, nullptr, out_bytes, 2, &a, &first, 1, s));
  CHECK(refused(out_dst, out_src, nullptr, 2, &a, &first, 1, s));
  CHECK(refused(out_dst, out_src, out_bytes, 2, nullptr, &first, 1, s));
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, nullptr, 1, s));
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 0, s));
  cudaMemcpyAttributes two[3] = {a, a, a};
  size_t idxs[3] = {0, 1, 2};
  CHECK(refused(out_dst, out_src, out_bytes, 2, two, idxs, 3, s));  // more attributes than copies
  idxs[1] = 0;
  CHECK(refused(out_dst, out_src, out_bytes, 2, two, idxs, 2, s));  // not ascending
  first = 1;
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 1, s));  // the first must be 0
  first = 0;
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 1, nullptr));  // the legacy default stream
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 1, cudaStreamLegacy));
  a.flags = 2;
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 1, s));
  a.flags = cudaMemcpyFlagPreferOverlapWithCompute;
  a.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
  CHECK(refused(out_dst, out_src, out_bytes, 2, &a, &first, 1, s));
  a.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  void* null_dst[2] = {back.data(), nullptr};
  CHECK(refused(null_dst, out_src, out_bytes, 2, &a, &first, 1, s));
  // 12.8's signature reports which copy: none for the batch's arguments, else its index.
  size_t failed = 7;
  CHECK(cudaMemcpyBatchAsync(null_dst, out_src, out_bytes, 2, &a, &first, 1, &failed, s) == cudaErrorInvalidValue);
  CHECK(failed == 1);
  CHECK(cudaMemcpyBatchAsync(out_dst, out_src, out_bytes, 0, &a, &first, 1, &failed, s) == cudaErrorInvalidValue);
  CHECK(failed == ~size_t(0));
  cudaGetLastError();
  CHECK(back == kept);
  // An injected failure fails the whole batch: every destination garbage, once, one call.
  calls = simt::copy_calls();
  simt::fail_copy(1);
  CHECK(cudaMemcpyBatchAsync(out_dst, out_src, out_bytes, 2, &a, &first, 1, s) == cudaErrorLaunchFailure);
  simt::fail_copy(0);
  CHECK(back == std::vector<unsigned>(64, 0xA5A5A5A5u));
  CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
  CHECK(cudaMemcpyBatchAsync(out_dst, out_src, out_bytes, 2, &a, &first, 1, s) == cudaSuccess);
  CHECK(back == want);
  CHECK(simt::copy_calls() == calls + 2);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
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
