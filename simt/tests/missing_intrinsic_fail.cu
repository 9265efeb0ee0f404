// Compile-fail test (simt_missing_intrinsic_compile_fail): a CUDA intrinsic the SIMT backend does
// not implement must stop the build at compile time, naming it.
#include <cuda_runtime.h>

__global__ void round_up_kernel(float* out, float a, float b) { *out = __fadd_ru(a, b); }
