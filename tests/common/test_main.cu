// The main shared by every ringsweep test, built once per variant from this one source: by nvcc
// for the GPU variant (RINGSWEEP_VARIANT_GPU) and by the host compiler against the SIMT backend
// (RINGSWEEP_VARIANT_SIMT). Catch2 itself is in catch_session.cpp, built once for both.
//
// GPU variant: exits with 77 (ctest SKIP_RETURN_CODE) when no CUDA device can be used.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "catch_session.hpp"

namespace {

constexpr int skip_exit_code = 77;

#if !defined(RINGSWEEP_VARIANT_GPU)
const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}
#endif

}  // namespace

int main(int argc, char* argv[]) {
#if defined(RINGSWEEP_VARIANT_GPU)
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("ringsweep test: SKIPPED, no CUDA device (%s)\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count is 0");
    return skip_exit_code;
  }
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    std::printf("ringsweep test: GPU %d: %s (sm_%d%d)\n", device, prop.name, prop.major, prop.minor);
  }
#else
  std::printf("ringsweep test: SIMT backend (RINGSWEEP_SIMT_SEED=%s, RINGSWEEP_SIMT_WORKERS=%s)\n",
              env_or("RINGSWEEP_SIMT_SEED", "unset"), env_or("RINGSWEEP_SIMT_WORKERS", "unset"));
#endif
  std::fflush(stdout);

  const int failed = ringsweep_test::run_catch(argc, argv);
  // Catch returns the number of failed assertions (capped); never let a failure read as a skip.
  return failed == skip_exit_code ? 1 : failed;
}
