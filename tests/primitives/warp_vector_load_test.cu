// warp_vector_load alone: every lane must end up with exactly the items of a plain warp-striped
// load (lane l item k = seg[k * 32 + l]), for item sizes 1..16 bytes and item counts that use
// whole vectors, leave a striped remainder, or are smaller than one vector; several warps at once
// so that a stage shared wrongly between warps shows.
#include <catch2/catch.hpp>

#include <ringsweep/detail/load_store.cuh>
#include <ringsweep/warp/warp_vector_load.cuh>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using ringsweep::detail::u32;

struct item16 {
  std::uint64_t lo, hi;
};

constexpr int warps = 3;

template <class T, int ITEMS>
__global__ void vector_load_kernel(const T* in, T* out) {
  using load_t = ringsweep::detail::warp_vector_load<T, ITEMS>;
  __shared__ typename load_t::TempStorage stage[warps];
  const int warp = int(threadIdx.x) / 32;
  const u32 lane = ringsweep::detail::lane_id();
  const int seg = warp * 32 * ITEMS;
  T items[ITEMS];
  // Twice through the same stage: the second load must not see the first one's data.
  for (int round = 0; round < 2; ++round) {
    const int base = round * warps * 32 * ITEMS;
    load_t::load(stage[warp], in + base + seg, lane, items);
    // Written back item by item (not with the load's inverse), so only the load is under test.
    for (int k = 0; k < ITEMS; ++k) out[base + seg + k * 32 + int(lane)] = items[k];
  }
}

template <class T, int ITEMS>
void check_vector_load() {
  using load_t = ringsweep::detail::warp_vector_load<T, ITEMS>;
  INFO("item bytes " << sizeof(T) << ", items " << ITEMS << ", vector " << load_t::VEC << ", staged "
                     << load_t::STAGED);
  const std::size_t n = std::size_t(2 * warps * 32 * ITEMS);
  const auto words = ringsweep_test::random_ints<std::uint32_t>(n * sizeof(T) / 4 + 1, 977u + ITEMS, 0u, ~0u);
  std::vector<T> in(n);
  std::memcpy(in.data(), words.data(), n * sizeof(T));
  ringsweep_test::device_buffer<T> d_in(in), d_out(n);
  REQUIRE(load_t::aligned(d_in.data()));
  REQUIRE_CUDA(ringsweep_test::launch(vector_load_kernel<T, ITEMS>, 1, warps * 32, 0, ringsweep_test::serial,
                                      d_in.data(), d_out.data()));
  REQUIRE_CUDA_LAUNCH();
  const std::vector<T> out = d_out.download();
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i) {
    if (std::memcmp(&out[i], &in[i], sizeof(T)) != 0) bad = i;
  }
  INFO("first wrong item " << bad);
  CHECK(bad == n);
}

}  // namespace

TEST_CASE("warp_vector_load gives the warp-striped arrangement", "[warp][load]") {
  // Whole vectors only.
  check_vector_load<std::uint32_t, 4>();
  check_vector_load<std::uint32_t, 20>();
  check_vector_load<std::uint8_t, 16>();
  check_vector_load<std::uint64_t, 6>();
  // A striped remainder after the staged chunks (22 = 5 x 4 + 2 for 4-byte items).
  check_vector_load<std::uint32_t, 22>();
  check_vector_load<std::uint8_t, 22>();
  check_vector_load<std::uint16_t, 19>();
  check_vector_load<std::uint64_t, 11>();
  // Fewer items than one 16-byte vector holds: narrower vectors.
  check_vector_load<std::uint8_t, 3>();
  check_vector_load<std::uint16_t, 6>();
  // One item per vector: plain striped loads.
  check_vector_load<item16, 5>();
  check_vector_load<std::uint32_t, 1>();
}

TEST_CASE("warp_vector_load vector widths", "[warp][load]") {
  using ringsweep::detail::warp_vector_load;
  STATIC_REQUIRE(warp_vector_load<std::uint32_t, 22>::VEC == 4);
  STATIC_REQUIRE(warp_vector_load<std::uint32_t, 22>::STAGED == 20);
  STATIC_REQUIRE(warp_vector_load<std::uint8_t, 22>::VEC == 16);
  STATIC_REQUIRE(warp_vector_load<std::uint8_t, 3>::VEC == 2);
  STATIC_REQUIRE(warp_vector_load<std::uint64_t, 11>::VEC == 2);
  STATIC_REQUIRE(warp_vector_load<item16, 5>::VEC == 1);
  STATIC_REQUIRE(sizeof(warp_vector_load<std::uint8_t, 22>::TempStorage) == 512);
}
