// One translation unit of the two-architecture-list program (arch_namespace_test): each unit is
// built for its own architectures and reports what its ringsweep picks and does on this device.
#pragma once

#include <cuda_runtime.h>

namespace abi_test {

/// What one unit's ringsweep did: the PTX version its kernels run from, the tile of the policy it
/// picked for u32 keys, and whether its in-place sort of `n` keys came out sorted.
struct unit_report {
  cudaError_t error = cudaSuccess;
  int ptx_arch = 0;
  int tile = 0;
  bool sorted = false;
};

unit_report run_unit_compute80();  // arch_unit_80.cu: compute_80 PTX only
unit_report run_unit_sm90();       // arch_unit_90.cu: sm_90 code only

}  // namespace abi_test
