// ringsweep SIMT backend: ThreadSanitizer fiber annotations (internal).
//
// In the race-detection build (RINGSWEEP_SIMT_TSAN, tests compiled with clang -fsanitize=thread,
// the backend itself not instrumented), every fiber is a TSan fiber and fiber switches carry no
// synchronisation: only barriers and warp collectives order one GPU thread's accesses before
// another's (each member releases the rendezvous' sync object before it waits and acquires it
// when it resumes). A shared-memory access pair with no barrier between is then a reported race.
// Elsewhere these calls compile to nothing.
#pragma once

#include <cstddef>

#if defined(RINGSWEEP_SIMT_TSAN)
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_acquire(void* addr);
void __tsan_release(void* addr);
void __tsan_read_range(void* addr, unsigned long size);
void __tsan_write_range(void* addr, unsigned long size);
void AnnotateIgnoreReadsBegin(const char* file, int line);
void AnnotateIgnoreReadsEnd(const char* file, int line);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);
void AnnotateIgnoreSyncBegin(const char* file, int line);
void AnnotateIgnoreSyncEnd(const char* file, int line);
}
#endif

namespace simt {
namespace detail {
namespace race {

#if defined(RINGSWEEP_SIMT_TSAN)
inline void* current_fiber() { return __tsan_get_current_fiber(); }
inline void* create_fiber() { return __tsan_create_fiber(0); }
inline void destroy_fiber(void* f) { __tsan_destroy_fiber(f); }
// synchronise = false: the switch itself orders nothing (flag __tsan_switch_to_fiber_no_sync).
inline void switch_to(void* f, bool synchronise) { __tsan_switch_to_fiber(f, synchronise ? 0u : 1u); }
inline void acquire(void* sync_object) { __tsan_acquire(sync_object); }
inline void release(void* sync_object) { __tsan_release(sync_object); }
// Accesses the backend makes on a fiber's behalf that race detection must see as that fiber's
// (an asynchronous copy reads its source when issued and writes its destination when it lands).
inline void read_range(const void* p, std::size_t n) { __tsan_read_range(const_cast<void*>(p), n); }
inline void write_range(void* p, std::size_t n) { __tsan_write_range(p, n); }
// The backend's own bookkeeping, run on a fiber's behalf (including libc and allocator calls that
// TSan intercepts), is not the kernel's memory traffic: it is hidden from race detection.
struct ignore_scope {
  ignore_scope() {
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  }
  ~ignore_scope() {
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  }
  ignore_scope(const ignore_scope&) = delete;
  ignore_scope& operator=(const ignore_scope&) = delete;
};
// The backend's own locking that must not order GPU threads (ThreadSanitizer intercepts mutexes
// even in uninstrumented code): a dependent grid's start and its primary's triggers. What a GPU
// orders there, the backend orders explicitly (race::release / race::acquire).
struct ignore_sync_scope {
  ignore_sync_scope() { AnnotateIgnoreSyncBegin(__FILE__, __LINE__); }
  ~ignore_sync_scope() { AnnotateIgnoreSyncEnd(__FILE__, __LINE__); }
  ignore_sync_scope(const ignore_sync_scope&) = delete;
  ignore_sync_scope& operator=(const ignore_sync_scope&) = delete;
};
#else
struct ignore_scope {
  ignore_scope() {}
  ignore_scope(const ignore_scope&) = delete;
  ignore_scope& operator=(const ignore_scope&) = delete;
};
struct ignore_sync_scope {
  ignore_sync_scope() {}
  ignore_sync_scope(const ignore_sync_scope&) = delete;
  ignore_sync_scope& operator=(const ignore_sync_scope&) = delete;
};
inline void* current_fiber() { return nullptr; }
inline void* create_fiber() { return nullptr; }
inline void destroy_fiber(void*) {}
inline void switch_to(void*, bool) {}
inline void acquire(void*) {}
inline void release(void*) {}
inline void read_range(const void*, std::size_t) {}
inline void write_range(void*, std::size_t) {}
#endif

}  // namespace race
}  // namespace detail
}  // namespace simt
