// Two translation units of one program, built for different architecture lists (compute_80 PTX
// and sm_90), each sorting through ringsweep. Every ringsweep entity lives in an inline namespace
// named after the unit's architecture list, so the units share no template instance: each picks
// the policy of the PTX its own kernels run from and launches its own kernels. Without that the
// linker keeps one copy of the weak kernel stubs and of the PTX probe for both units.
// (arch_namespace_symbols checks the same without a GPU: no ringsweep symbol defined in both.)
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include "arch_unit.cuh"

TEST_CASE("two units built for different architectures each use their own kernels and policy", "[abi]") {
  int device = 0, major = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  if (major < 9) {
    WARN("the sm_90 unit has no code for compute capability " << major << ".x: not run");
    return;
  }
  const abi_test::unit_report a = abi_test::run_unit_compute80();
  const abi_test::unit_report b = abi_test::run_unit_sm90();
  REQUIRE(a.error == cudaSuccess);
  REQUIRE(b.error == cudaSuccess);
  CHECK(a.ptx_arch == 800);
  CHECK(b.ptx_arch == 900);
  CHECK(a.tile == ringsweep::detail::tile_shape<ringsweep::policy_sm80, 4, 0>::TILE);
  CHECK(b.tile == ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE);
  CHECK(a.sorted);
  CHECK(b.sorted);
}
