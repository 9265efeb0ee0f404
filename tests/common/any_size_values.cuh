// Value types of sizes the built-in pairs paths do not move whole (3 to 64 bytes, an over-aligned
// one), shared by the tests of values of any size: the pairs, top-k and host-resident forms.
#pragma once

#include <cstdint>

namespace ringsweep_test {
namespace any_size {

template <int N>
struct bytes_of {  // N bytes, alignment 1
  unsigned char b[N];
};
struct half3 {  // 6 bytes, alignment 2
  std::uint16_t h[3];
};
struct float3_like {  // 12 bytes, alignment 4
  float x, y, z;
};
struct words5 {  // 20 bytes
  std::uint32_t w[5];
};
struct position_index {  // 24 bytes, alignment 8: a {position, index} struct
  double x, y;
  std::uint64_t index;
};
struct words8x4 {  // 32 bytes
  std::uint64_t w[4];
};
struct words12 {  // 48 bytes
  std::uint32_t w[12];
};
struct words8x8 {  // 64 bytes
  std::uint64_t w[8];
};
struct alignas(32) aligned32 {  // over-aligned: 32 bytes, alignment 32
  std::uint32_t w[8];
};
static_assert(sizeof(bytes_of<3>) == 3 && sizeof(half3) == 6 && sizeof(float3_like) == 12 && sizeof(words5) == 20 &&
                  sizeof(position_index) == 24 && sizeof(words8x4) == 32 && sizeof(words12) == 48 &&
                  sizeof(words8x8) == 64 && sizeof(aligned32) == 32 && alignof(aligned32) == 32,
              "the sizes the tests name");

}  // namespace any_size
}  // namespace ringsweep_test
