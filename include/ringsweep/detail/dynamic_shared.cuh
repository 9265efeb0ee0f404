// dynamic_shared: the block's dynamic shared memory (the launch's `dynamicSmemBytes`) as an object.
#pragma once

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The running block's dynamic shared memory as a `T`; the launch must give at least `sizeof(T)`
/// bytes (more than 48 KiB only after cudaFuncSetAttribute's
/// cudaFuncAttributeMaxDynamicSharedMemorySize). 16-byte aligned.
///
///     auto& temp = dynamic_shared<typename agent_t::TempStorage>();
template <class T>
__device__ __forceinline__ T& dynamic_shared() {
  static_assert(alignof(T) <= 16, "dynamic shared memory is 16-byte aligned");
#if defined(RINGSWEEP_SIMT_BACKEND)
  // The CPU backend knows the launch's bytes: a launch that gave fewer than T needs is a bug of
  // the host side (a GPU would read past them silently).
  if (::simt::detail::dynamic_shared_memory_bytes() < sizeof(T)) __trap();
  return *static_cast<T*>(::simt::detail::dynamic_shared_memory());
#else
  extern __shared__ uint4 ringsweep_dynamic_shared[];
  return *reinterpret_cast<T*>(ringsweep_dynamic_shared);
#endif
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
