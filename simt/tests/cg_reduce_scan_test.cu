// <cooperative_groups/reduce.h> and <cooperative_groups/scan.h> over tiles of 4, 16 and 32 and over
// coalesced groups (binary_partition, labeled_partition, coalesced_threads), every operation,
// against a host computation over exactly each group's members. Runs on both backends.
#include <catch2/catch.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <vector>

#include "test_util.cuh"

namespace cg = cooperative_groups;
using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

constexpr int k_results = 8;

template <class Group>
__device__ void all_ops(const Group& g, int v, int* o) {
  o[0] = cg::reduce(g, v, cg::plus<int>());
  o[1] = cg::reduce(g, v, cg::less<int>());
  o[2] = cg::reduce(g, v, cg::greater<int>());
  o[3] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v), cg::bit_and<unsigned>()));
  o[4] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v), cg::bit_or<unsigned>()));
  o[5] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v), cg::bit_xor<unsigned>()));
  o[6] = cg::inclusive_scan(g, v);
  o[7] = cg::exclusive_scan(g, v, cg::greater<int>());
}

// mode 0..2: tiles of 4, 16, 32; 3: binary_partition of the warp by v's parity; 4: labeled_partition
// by v % 3 of the whole warp (coalesced_threads() in converged code); 5: labeled_partition of a
// tile of 16 by v % 4.
__global__ void group_kernel(int mode, const int* in, int* out) {
  const unsigned t = threadIdx.x;
  const int v = in[t];
  int* o = out + t * k_results;
  const auto block = cg::this_thread_block();
  if (mode == 0) all_ops(cg::tiled_partition<4>(block), v, o);
  if (mode == 1) all_ops(cg::tiled_partition<16>(block), v, o);
  if (mode == 2) all_ops(cg::tiled_partition<32>(block), v, o);
  if (mode == 3) all_ops(cg::binary_partition(cg::tiled_partition<32>(block), v % 2 == 0), v, o);
  if (mode == 4) all_ops(cg::labeled_partition(cg::coalesced_threads(), v % 3), v, o);
  if (mode == 5) all_ops(cg::labeled_partition(cg::tiled_partition<16>(block), v % 4), v, o);
}

// The members of thread t's group, in rank order.
std::vector<unsigned> members(int mode, unsigned t, const std::vector<int>& in) {
  std::vector<unsigned> m;
  const unsigned warp = t / 32 * 32;
  for (unsigned u = warp; u < warp + 32; ++u) {
    bool same = false;
    if (mode <= 2) {
      const unsigned size = mode == 0 ? 4 : mode == 1 ? 16 : 32;
      same = u / size == t / size;
    }
    if (mode == 3) same = (in[u] % 2 == 0) == (in[t] % 2 == 0);
    if (mode == 4) same = in[u] % 3 == in[t] % 3;
    if (mode == 5) same = u / 16 == t / 16 && in[u] % 4 == in[t] % 4;
    if (same) m.push_back(u);
  }
  return m;
}

}  // namespace

TEST_CASE("cg::reduce and cg::inclusive/exclusive_scan over tiles and coalesced groups", "[simt][cg]") {
  const unsigned threads = 64;
  std::vector<int> in(threads);
  for (unsigned t = 0; t < threads; ++t) in[t] = static_cast<int>((t * 37 + 11) % 101) - 40;
  device_buffer<int> d_in(in);
  for (int mode = 0; mode <= 5; ++mode) {
    device_buffer<int> out(std::vector<int>(threads * k_results, -7));
    REQUIRE_CUDA(launch(group_kernel, 1, threads, 0, serial, mode, d_in.data(), out.data()));
    REQUIRE_CUDA_LAUNCH();
    const std::vector<int> h = out.download();
    for (unsigned t = 0; t < threads; ++t) {
      INFO("mode " << mode << " thread " << t);
      const int* o = &h[t * k_results];
      const std::vector<unsigned> m = members(mode, t, in);
      int sum = 0, lo = in[m[0]], hi = in[m[0]], incl = 0, excl_max = 0;
      unsigned all = ~0u, any = 0, parity = 0;
      bool before = true;
      for (unsigned i = 0; i < m.size(); ++i) {
        const int x = in[m[i]];
        sum += x;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        all &= static_cast<unsigned>(x);
        any |= static_cast<unsigned>(x);
        parity ^= static_cast<unsigned>(x);
        if (m[i] == t) before = false;
        if (before || m[i] == t) incl += x;
        if (before) excl_max = i == 0 ? x : std::max(excl_max, x);
      }
      CHECK(o[0] == sum);
      CHECK(o[1] == lo);
      CHECK(o[2] == hi);
      CHECK(static_cast<unsigned>(o[3]) == all);
      CHECK(static_cast<unsigned>(o[4]) == any);
      CHECK(static_cast<unsigned>(o[5]) == parity);
      CHECK(o[6] == incl);
      if (t != m[0]) CHECK(o[7] == excl_max);  // rank 0: undefined on a GPU
    }
  }
}
