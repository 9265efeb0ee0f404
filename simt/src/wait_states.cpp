// ringsweep SIMT backend: wait-state diagnostics. When a block deadlocks or only spins, every warp's
// lanes are listed by what they wait in (a barrier, a collective with its mask), so a hang becomes
// a diagnosis.
#include "wait_states.hpp"

#include "grid_run.hpp"
#include "traffic.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace simt {
namespace detail {

const char* op_name(warp_op op) {
  switch (op) {
    case warp_op::syncwarp: return "__syncwarp";
    case warp_op::shfl_idx: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::ballot: return "__ballot_sync/__any_sync/__all_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::reduce_add: return "__reduce_add_sync";
    case warp_op::reduce_min: return "__reduce_min_sync";
    case warp_op::reduce_max: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
  }
  return "?";
}

const char* barrier_name(barrier_op op) {
  switch (op) {
    case barrier_op::sync: return "__syncthreads";
    case barrier_op::count: return "__syncthreads_count";
    case barrier_op::all: return "__syncthreads_and";
    case barrier_op::any: return "__syncthreads_or";
  }
  return "?";
}

void print_wait_states(const block_context& b) {
  const unsigned nwarps = static_cast<unsigned>(b.warp_present.size());
  for (unsigned w = 0; w < nwarps; ++w) {
    unsigned in_barrier = 0, ready = 0;
    std::vector<std::pair<std::string, unsigned>> in_ops;
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned i = w * 32 + l;
      if (i >= b.fibers.size()) break;
      const fiber& f = b.fibers[i];
      if (f.state == fiber_state::barrier) in_barrier |= 1u << l;
      if (f.state == fiber_state::ready && f.waits_in == nullptr) ready |= 1u << l;
      if (f.state == fiber_state::ready && f.waits_in != nullptr) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s (spinning)", f.waits_in);
        auto it = std::find_if(in_ops.begin(), in_ops.end(), [&](auto& p) { return p.first == buf; });
        if (it == in_ops.end()) in_ops.emplace_back(buf, 1u << l); else it->second |= 1u << l;
      }
      if (f.state == fiber_state::warp) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s(mask=0x%08x)", op_name(f.op), f.mask);
        auto it = std::find_if(in_ops.begin(), in_ops.end(), [&](auto& p) { return p.first == buf; });
        if (it == in_ops.end()) in_ops.emplace_back(buf, 1u << l); else it->second |= 1u << l;
      }
    }
    if (in_barrier) std::fprintf(stderr, "  warp %u lanes 0x%08x: waiting in %s (%u of %u live threads arrived)\n", w, in_barrier, barrier_name(b.barrier_kind), b.barrier_arrived, b.live);
    for (auto& p : in_ops) std::fprintf(stderr, "  warp %u lanes 0x%08x: waiting in %s\n", w, p.second, p.first.c_str());
    if (ready) std::fprintf(stderr, "  warp %u lanes 0x%08x: runnable (spinning)\n", w, ready);
    if (b.warp_exited[w]) std::fprintf(stderr, "  warp %u lanes 0x%08x: exited\n", w, b.warp_exited[w]);
  }
}

namespace {
// The kernel the block runs, by name.
std::string running_kernel(const block_context& b) {
  return b.run != nullptr && b.run->kernel != nullptr ? kernel_name(b.run->kernel) : std::string("an unknown kernel");
}

// Programmatic dependent launch: which grid this block's grid waits for, or which waits for it.
void print_dependent_launch(const block_context& b) {
  if (b.run == nullptr) return;
  if (b.grid_dependency_waiters > 0 && b.run->primary != nullptr && !b.run->primary->is_complete())
    std::fprintf(stderr,
                 "  (cudaGridDependencySynchronize waits for the previous grid in the stream to finish: it was "
                 "launched before this one, which has cudaLaunchAttributeProgrammaticStreamSerialization, and "
                 "has not finished)\n");
  if (const grid_run* d = b.run->dependent.load()) {
    if (const unsigned n = d->blocks_waiting.load())
      std::fprintf(stderr,
                   "  (the grid launched after this one with programmatic dependent launch has %u block(s) "
                   "waiting in cudaGridDependencySynchronize for this grid to finish)\n", n);
  }
}
}  // namespace

void report_deadlock(const block_context& b) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "ringsweep SIMT backend: deadlock in block (%u,%u,%u) of %s: every unfinished thread waits and "
               "no barrier or warp collective can complete\n",
               b.block.x, b.block.y, b.block.z, running_kernel(b).c_str());
  print_wait_states(b);
  print_dependent_launch(b);
  std::fflush(stderr);
  std::abort();
}

void report_watchdog(const block_context& b, double seconds) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "ringsweep SIMT backend: watchdog: block (%u,%u,%u) has only spun for %.0f s "
               "(RINGSWEEP_SIMT_WATCHDOG_S) in kernel %s; wait states:\n",
               b.block.x, b.block.y, b.block.z, seconds, running_kernel(b).c_str());
  print_wait_states(b);
  print_dependent_launch(b);
  std::fflush(stderr);
  std::abort();
}

}  // namespace detail
}  // namespace simt
