// ringsweep SIMT backend: RINGSWEEP_SIMT_ASAN, defined when AddressSanitizer instruments the
// backend (g++ or clang) or the code that runs on its fibers (the build defines it for an
// uninstrumented backend linked into instrumented programs), with the interface the fiber
// switches and stacks use (internal).
#pragma once

#if defined(RINGSWEEP_SIMT_ASAN)
#elif defined(__SANITIZE_ADDRESS__)
#define RINGSWEEP_SIMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RINGSWEEP_SIMT_ASAN 1
#endif
#endif
#if defined(RINGSWEEP_SIMT_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
