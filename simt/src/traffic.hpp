// ringsweep SIMT backend: traffic tracing internals shared by the scheduler and the launcher.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ringsweep_simt/control.hpp"

namespace simt {
namespace detail {

// One lane's traced access: which warp, its index among that lane's loads (or stores), sectors.
struct traced_access {
  std::uint32_t warp;
  std::uint32_t index;
  std::uint32_t is_store;
  std::uint32_t bytes;
  std::uint64_t first_sector;
  std::uint64_t last_sector;
};

// Folds one block's accesses into `totals` (sectors counted per warp-wide access).
void fold_block_traffic(std::vector<traced_access>& accesses, kernel_traffic& totals);
// The kernel's demangled name (the function symbol at `kernel`), or kernel@<address>.
std::string kernel_name(const void* kernel);
// Adds one launch's totals under the kernel's name.
void record_launch_traffic(const void* kernel, const kernel_traffic& totals);

}  // namespace detail
}  // namespace simt
