// ringsweep SIMT backend: the per-host-thread error state shared by the runtime sources (internal).
#pragma once

#include <cuda_runtime.h>

namespace simt {
namespace detail {
// Stores `e` as the calling host thread's last error (unless it is cudaSuccess) and returns it.
cudaError_t record_error(cudaError_t e);
}  // namespace detail
}  // namespace simt
