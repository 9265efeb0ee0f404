// ringsweep SIMT backend: shared-memory poison (internal). __shared__ variables are thread-locals of
// the module that holds the backend; poisoning fills this OS thread's instance of that module's TLS
// segment with 0xA5 bytes, so a kernel that reads shared memory before writing it sees garbage.
#pragma once

namespace simt {
namespace detail {

// Fills this thread's instance of the TLS segment that holds `anchor` (a thread-local of the
// backend) with 0xA5 bytes. The built-in variables (threadIdx, blockIdx, blockDim, gridDim) keep
// their values; every other thread-local of the module is overwritten, and the caller must set its
// own again. Call between blocks only.
void poison_thread_locals(const void* anchor);

}  // namespace detail
}  // namespace simt
