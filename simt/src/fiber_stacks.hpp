// ringsweep SIMT backend: fiber stacks, mapped once with a guard page and reused (internal).
#pragma once

#include <cstddef>

namespace simt {
namespace detail {

// A stack of `bytes` usable bytes (its lowest address; it grows down from address + bytes), with an
// inaccessible guard page below it, so that an overflow faults instead of corrupting another stack.
unsigned char* acquire_stack(std::size_t bytes);
// Returns a stack for reuse (stacks are never unmapped; every stack has the configured size).
void release_stack(unsigned char* stack);

}  // namespace detail
}  // namespace simt
