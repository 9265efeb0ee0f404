// ringsweep SIMT backend: fiber stacks (see fiber_stacks.hpp).
#include "fiber_stacks.hpp"

#include <sys/mman.h>

#include <mutex>
#include <vector>

#include "address_sanitizer.hpp"
#include "config.hpp"
#include "race_annotations.hpp"

namespace simt {
namespace detail {
namespace {
std::mutex g_stack_mutex;
std::vector<unsigned char*> g_free_stacks;
constexpr std::size_t k_guard = 4096;
}  // namespace

unsigned char* acquire_stack(std::size_t bytes) {
  {
    const race::ignore_scope hidden;  // the backend's bookkeeping, which orders no GPU thread
    const race::ignore_sync_scope unordered;
    std::lock_guard<std::mutex> lock(g_stack_mutex);
    if (!g_free_stacks.empty()) {
      unsigned char* s = g_free_stacks.back();
      g_free_stacks.pop_back();
      return s;
    }
  }
  void* p = mmap(nullptr, bytes + k_guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fail("cannot map a fiber stack of %zu bytes", bytes);
  mprotect(p, k_guard, PROT_NONE);  // overflow hits the guard page instead of another stack
#if defined(RINGSWEEP_SIMT_ASAN)
  // A new mapping may reuse addresses whose shadow something left poisoned; from here on each
  // block clears what its threads left (block_runner::run), so a stack goes back to the pool clean.
  __asan_unpoison_memory_region(static_cast<unsigned char*>(p) + k_guard, bytes);
#endif
  return static_cast<unsigned char*>(p) + k_guard;
}

void release_stack(unsigned char* s) {
  const race::ignore_scope hidden;
  const race::ignore_sync_scope unordered;
  std::lock_guard<std::mutex> lock(g_stack_mutex);
  g_free_stacks.push_back(s);
}

}  // namespace detail
}  // namespace simt
