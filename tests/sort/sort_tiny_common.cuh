// Shared by the tiny-policy sort tests (sort_tiny_test, sort_variants_test): the tiny tile, the
// sizes around its edges, and value types of unusual size and alignment.
#pragma once

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <vector>

namespace ringsweep_test {

/// policy_tiny's tile for 4-byte keys (64 threads x 3 keys).
constexpr int tile = 192;
// 0..33: warp edges; tile +-1: single-block path vs onesweep; 977: 5 tiles + ragged; 3845: 21
// tiles, the status buffer wraps 5 times and three portions (8 tiles each) are launched per pass.
inline const std::vector<std::size_t> sizes{0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, 5 * tile + 17, 20 * tile + 5};

/// Options with the order `o` and the whole key.
///
///     ringsweep_test::check_sort_keys<tiny>(keys, ringsweep_test::with_order(ringsweep::sort_order::descending));
inline ringsweep::sort_options with_order(ringsweep::sort_order o) {
  ringsweep::sort_options opts;
  opts.order = o;
  return opts;
}

/// Values of 16 bytes aligned to 16, of 16 bytes aligned to 4, of 8 bytes aligned to 2.
struct alignas(16) value16a {
  std::uint32_t w[4];
};
struct value16u {
  std::uint32_t w[4];
};
struct value8u {
  std::uint16_t w[4];
};

}  // namespace ringsweep_test
