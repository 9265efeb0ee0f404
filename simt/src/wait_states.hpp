// ringsweep SIMT backend: what a block waits in, for the deadlock and watchdog reports (internal).
#pragma once

#include <cuda_runtime.h>

#include "block_context.hpp"

namespace simt {
namespace detail {

// The CUDA name of a warp collective or barrier, for diagnostics.
const char* op_name(warp_op op);
const char* barrier_name(barrier_op op);
// Prints every unfinished fiber's wait state to stderr, one line per warp and state.
void print_wait_states(const block_context& b);
// No fiber of `b` can run and none has finished: reports every wait state and aborts.
[[noreturn]] void report_deadlock(const block_context& b);
// The fibers of `b` have only spun (yielded) for `seconds`: reports the wait states and aborts.
[[noreturn]] void report_watchdog(const block_context& b, double seconds);

}  // namespace detail
}  // namespace simt
