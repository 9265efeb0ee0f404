// ringsweep SIMT backend: dynamic shared memory, what `extern __shared__ T name[];` becomes.
//
// A C++ compiler cannot declare an array whose storage changes with the running block, so the wrap
// step (simt/cmake/ringsweep_simt_shared.py, run by ringsweep_simt_wrap_sources) rewrites each
// declaration of a client .cu file:
//
//   extern __shared__ float tile[];                  // in a kernel or device function
//   [[maybe_unused]] auto& tile = ::simt::dynamic_shared_array<float>();   // becomes this
//
//   extern __shared__ __align__(16) char pool[];     // at file (namespace) scope
//   // is removed, and every later `pool` (or `ns::pool`) of the file becomes
//   // (::simt::dynamic_shared_array<char>())
//
// Every declaration names the same bytes, the current block's buffer of the launch's dynamic
// shared memory size (<<<grid, block, bytes>>>, cudaLaunchConfig_t::dynamicSmemBytes,
// cudaLaunchKernel's sharedMem), as on a GPU. Each block running at a time has its own buffer;
// its contents are undefined at block start (0xA5 bytes with RINGSWEEP_SIMT_POISON=1). The buffer
// is allocated with exactly that size, so an access past it is an ASan error.
#pragma once

#include <cstddef>

namespace simt {
namespace detail {
// The running block's dynamic shared memory (256-byte aligned); fails outside a kernel.
void* dynamic_shared_memory();
// Its size in bytes; fails outside a kernel.
std::size_t dynamic_shared_memory_bytes();
}  // namespace detail

/// The running block's dynamic shared memory as an array of T of unknown bound.
///
///   auto& keys = simt::dynamic_shared_array<unsigned>();  // what `extern __shared__ unsigned keys[];` is
///   keys[threadIdx.x] = 0;
template <class T>
inline auto dynamic_shared_array() -> T (&)[] {
  static_assert(alignof(T) <= 256, "dynamic shared memory is 256-byte aligned on the SIMT backend");
  return *static_cast<T(*)[]>(detail::dynamic_shared_memory());
}

/// The running block's dynamic shared memory size in bytes (the launch's; PTX `%dynamic_smem_size`).
///
///   const unsigned n = simt::dynamic_shared_bytes() / sizeof(float);  // floats that fit
inline std::size_t dynamic_shared_bytes() { return detail::dynamic_shared_memory_bytes(); }

}  // namespace simt
