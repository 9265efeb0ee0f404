// The shipped policy for the current device, picked by the PTX version this program's kernels run
// from (see policy.cuh: a policy's kernels have bodies only for its own architectures).
#pragma once

#include "../detail/config.cuh"
#include "../detail/policy_for_arch.cuh"
#include "../policy.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// An empty kernel whose attributes tell which PTX version this program's kernels run from.
template <int = 0>
__global__ void ptx_version_probe() {}

/// PTX version (x 10, as `__CUDA_ARCH__`) of the kernels the current device runs; the shipped
/// policy for it is the one whose kernel bodies were compiled for that version (see policy.cuh).
/// cudaFuncGetAttributes only: no synchronisation; a device with no usable kernel image reports
/// that error here.
__host__ inline cudaError_t current_ptx_arch(int& arch) {
  cudaFuncAttributes attr;
  const cudaError_t e = cudaFuncGetAttributes(&attr, ptx_version_probe<0>);
  if (e != cudaSuccess) return e;
  arch = attr.ptxVersion * 10;
  return cudaSuccess;
}

/// Calls `f(Policy{})` with the shipped policy for the current device; returns its error, or the
/// error of finding the device's PTX version.
template <class F>
__host__ cudaError_t with_device_policy(F&& f) {
  int arch = 0;
  const cudaError_t e = current_ptx_arch(arch);
  if (e != cudaSuccess) return e;
#if defined(RINGSWEEP_SIMT_BACKEND)
  // The CPU SIMT backend runs every kernel from one PTX version (its cudaFuncGetAttributes reports
  // RINGSWEEP_SIMT_PTX_VERSION), so only the policy serving it can be picked. There the kernels are
  // host functions with a body for every policy: dispatching over the whole list would compile
  // the other policies' kernels into every program, never to run them.
  (void)arch;
  return f(typename arch_policy_of<RINGSWEEP_SIMT_PTX_VERSION * 10, shipped_policies>::type{});
#else
  return with_arch_policy(arch, static_cast<F&&>(f), shipped_policies{});
#endif
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
