// RINGSWEEP_DISABLE_ARCH_NAMESPACE puts the library straight into namespace ringsweep (for
// programs that pass ringsweep types between nvcc and host-compiler units). The declaration below
// names the same type as the library's only without the architecture namespace: with it,
// `ringsweep::sort_options` would be ambiguous and this file would not compile.
#define RINGSWEEP_DISABLE_ARCH_NAMESPACE
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_util.cuh"

namespace ringsweep {
struct sort_options;
}

TEST_CASE("without the architecture namespace the library is ringsweep:: itself and sorts", "[abi]") {
  ringsweep::sort_options opts;
  opts.order = ringsweep::sort_order::descending;
  std::vector<std::uint32_t> keys = ringsweep_test::random_keys<std::uint32_t>(30000, ringsweep_test::catch_seed());
  ringsweep_test::device_buffer<std::uint32_t> d(keys);
  REQUIRE_CUDA(ringsweep::sort_keys(d.data(), keys.size(), opts));
  std::sort(keys.begin(), keys.end(), [](std::uint32_t a, std::uint32_t b) { return a > b; });
  CHECK(d.download() == keys);
}
