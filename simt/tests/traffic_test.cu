// Traffic tracing: bytes and distinct 32-byte sectors per warp-wide access. SIMT backend only.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>
#include <ringsweep_simt/control.hpp>

#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

__device__ unsigned traced_load(const unsigned* p) {
  __simt_trace_global(p, sizeof(unsigned), false);
  return *p;
}
__device__ void traced_store(unsigned* p, unsigned v) {
  __simt_trace_global(p, sizeof(unsigned), true);
  *p = v;
}

// Each thread loads one word coalesced (4 sectors per warp) and one word with a 32-word stride
// (32 sectors per warp), then stores one word coalesced.
__global__ void access_kernel(const unsigned* in, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned a = traced_load(in + t);
  const unsigned b = traced_load(in + (t % 32) * 32);
  traced_store(out + t, a + b);
}

}  // namespace

TEST_CASE("traced traffic counts bytes and sectors per warp access", "[simt][traffic]") {
  const unsigned blocks = 2, threads = 64, n = blocks * threads;
  std::vector<unsigned> host(32 * 32, 1u);
  device_buffer<unsigned> in(host), out(n);
  simt::traffic_begin();
  REQUIRE_CUDA(launch(access_kernel, blocks, threads, 0, serial, in.data(), out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<simt::kernel_traffic> t = simt::traffic_end();
  REQUIRE(t.size() == 1);
  const unsigned warps = n / 32;
  CHECK(t[0].launches == 1);
  CHECK(t[0].load_accesses == 2 * warps);
  CHECK(t[0].store_accesses == warps);
  CHECK(t[0].load_bytes == 2ull * n * 4);
  CHECK(t[0].store_bytes == 1ull * n * 4);
  CHECK(t[0].load_sectors == warps * (4 + 32));
  CHECK(t[0].store_sectors == warps * 4);
  CHECK(out.download()[5] == 2u);

  // Nothing is counted once tracing is off.
  REQUIRE_CUDA(launch(access_kernel, blocks, threads, 0, serial, in.data(), out.data()));
  simt::traffic_begin();
  CHECK(simt::traffic_end().empty());
}
