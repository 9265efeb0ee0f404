// Compile-fail check (not built by the build; ringsweep_add_compile_fail_test compiles it with the
// host compiler against the SIMT backend): a sort of `bool` keys must fail with exactly one
// diagnostic, the static assertion "ringsweep: unsupported key type".
#include <ringsweep/ringsweep.cuh>

#ifndef UNSUPPORTED_KEY
#define UNSUPPORTED_KEY bool
#endif

int main() {
  using key = UNSUPPORTED_KEY;
  key* d_keys = nullptr;
  key* d_out = nullptr;
  std::size_t bytes = 0;
  ringsweep::double_buffer<key> buffers(d_keys, d_out);
  cudaError_t e = ringsweep::sort_keys(nullptr, bytes, d_keys, d_out, 16);
  if (e == cudaSuccess) e = ringsweep::sort_keys(nullptr, bytes, buffers, 16);
  if (e == cudaSuccess) e = ringsweep::sort_keys(d_keys, 16);
  return e == cudaSuccess ? 0 : 1;
}
