// ringsweep SIMT backend: what device code sees. Qualifiers, built-in variables, barriers, warp
// collectives, bit intrinsics, atomics. Every call that can switch fibers is out of line (defined
// in the backend library), so the compiler reloads memory and built-ins after it.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "types.hpp"

// ---- qualifiers -------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
// __forceinline__ inlines always, as nvcc does. A build may define RINGSWEEP_SIMT_FORCEINLINE (to
// `inline`: the compiler decides) instead: scripts/test.sh does so for its ASan + UBSan build at
// -Og, where every forced copy of a library function is instrumented again in each caller (a
// third of the compile time of sort_variants_test; docs/testing.md, "CI time").
#ifndef RINGSWEEP_SIMT_FORCEINLINE
#define RINGSWEEP_SIMT_FORCEINLINE inline __attribute__((always_inline))
#endif
#define __forceinline__ RINGSWEEP_SIMT_FORCEINLINE
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __align__(n) alignas(n)
// Shared memory is per block. A block runs entirely on one OS thread and each worker runs one
// block at a time, so per-OS-thread storage is per-block storage. (`extern __shared__ T a[];`, dynamic
// shared memory, is rewritten by the wrap step: see dynamic_shared.hpp.)
#define __shared__ static thread_local

namespace simt {
namespace detail {
enum class warp_op : int {
  syncwarp, shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, match_any,
  reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor
};
enum class barrier_op : int { sync, count, all, any };
// Rendezvous of exactly the lanes in `mask`; returns this lane's result.
std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width);
int block_barrier(barrier_op op, int predicate);
unsigned active_lanes();
void yield_fiber();
void atomic_hook();
[[noreturn]] void trap(const char* what);
}  // namespace detail
}  // namespace simt

// ---- built-in variables (set by the scheduler on every fiber switch) ---------------------------
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
static constexpr int warpSize = 32;

// ---- barriers and warp collectives ------------------------------------------------------------
inline void __syncthreads() { simt::detail::block_barrier(simt::detail::barrier_op::sync, 1); }
inline int __syncthreads_count(int p) { return simt::detail::block_barrier(simt::detail::barrier_op::count, p); }
inline int __syncthreads_and(int p) { return simt::detail::block_barrier(simt::detail::barrier_op::all, p); }
inline int __syncthreads_or(int p) { return simt::detail::block_barrier(simt::detail::barrier_op::any, p); }
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  simt::detail::warp_collective(simt::detail::warp_op::syncwarp, mask, 0, 0, 32);
}
inline unsigned __activemask() { return simt::detail::active_lanes(); }

namespace simt {
namespace detail {
template <class T>
inline std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "warp shuffle of a type larger than 8 bytes");
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
inline T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
inline T shuffle(warp_op op, unsigned mask, T v, int arg, int width) {
  return from_bits<T>(warp_collective(op, mask, to_bits(v), arg, width));
}
}  // namespace detail
}  // namespace simt

template <class T>
inline T __shfl_sync(unsigned mask, T v, int src_lane, int width = 32) {
  return simt::detail::shuffle(simt::detail::warp_op::shfl_idx, mask, v, src_lane, width);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return simt::detail::shuffle(simt::detail::warp_op::shfl_up, mask, v, static_cast<int>(delta), width);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return simt::detail::shuffle(simt::detail::warp_op::shfl_down, mask, v, static_cast<int>(delta), width);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
  return simt::detail::shuffle(simt::detail::warp_op::shfl_xor, mask, v, lane_mask, width);
}
inline unsigned __ballot_sync(unsigned mask, int pred) {
  return static_cast<unsigned>(simt::detail::warp_collective(simt::detail::warp_op::ballot, mask, pred != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) == mask; }
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes 32- or 64-bit values");
  return static_cast<unsigned>(
      simt::detail::warp_collective(simt::detail::warp_op::match_any, mask, simt::detail::to_bits(value), 0, 32));
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred) {
  const unsigned same = __match_any_sync(mask, value);
  *pred = same == mask;
  return same == mask ? mask : 0u;
}
#define RINGSWEEP_SIMT_REDUCE(name, op, T)                                                       \
  inline T name(unsigned mask, T v) {                                                            \
    return static_cast<T>(simt::detail::warp_collective(simt::detail::warp_op::op, mask,         \
                                                        static_cast<std::uint32_t>(v),           \
                                                        std::is_signed<T>::value, 32));           \
  }
RINGSWEEP_SIMT_REDUCE(__reduce_add_sync, reduce_add, unsigned)
RINGSWEEP_SIMT_REDUCE(__reduce_add_sync, reduce_add, int)
RINGSWEEP_SIMT_REDUCE(__reduce_min_sync, reduce_min, unsigned)
RINGSWEEP_SIMT_REDUCE(__reduce_min_sync, reduce_min, int)
RINGSWEEP_SIMT_REDUCE(__reduce_max_sync, reduce_max, unsigned)
RINGSWEEP_SIMT_REDUCE(__reduce_max_sync, reduce_max, int)
RINGSWEEP_SIMT_REDUCE(__reduce_and_sync, reduce_and, unsigned)
RINGSWEEP_SIMT_REDUCE(__reduce_or_sync, reduce_or, unsigned)
RINGSWEEP_SIMT_REDUCE(__reduce_xor_sync, reduce_xor, unsigned)
#undef RINGSWEEP_SIMT_REDUCE

// ---- timing, fences, traps --------------------------------------------------------------------
// A GPU thread that sleeps lets others run; here the fiber yields to its block's other fibers.
inline void __nanosleep(unsigned) { simt::detail::yield_fiber(); }
#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer does not model fences: a sequentially consistent update of one shared word
// orders the same accesses and is visible to it (every fence then synchronises with every other).
namespace simt {
namespace detail {
inline unsigned g_fence_word;
inline void fence() { __atomic_fetch_add(&g_fence_word, 0u, __ATOMIC_SEQ_CST); }
}  // namespace detail
}  // namespace simt
#else
namespace simt {
namespace detail {
inline void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
}  // namespace detail
}  // namespace simt
#endif
inline void __threadfence() { simt::detail::fence(); }
inline void __threadfence_block() { simt::detail::fence(); }
inline void __threadfence_system() { simt::detail::fence(); }
// Programmatic dependent launch (sm_90). A grid launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the previous grid in its
// stream still runs, once every block of that grid has called
// cudaTriggerProgrammaticLaunchCompletion() or exited; cudaGridDependencySynchronize() waits (the
// fiber yields) until the previous grid has finished and its memory effects are visible. Without
// such an overlap (no attribute, RINGSWEEP_SIMT_PDL=0) the wait returns at once. See launch.hpp.
namespace simt {
namespace detail {
void grid_dependency_wait();
void trigger_dependents();
}  // namespace detail
}  // namespace simt
inline void cudaGridDependencySynchronize() { simt::detail::grid_dependency_wait(); }
inline void cudaTriggerProgrammaticLaunchCompletion() { simt::detail::trigger_dependents(); }
[[noreturn]] inline void __trap() { simt::detail::trap("__trap() called"); }
long long clock64();

// ---- bit intrinsics ---------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31));
}

// ---- reinterpretation -------------------------------------------------------------------------
inline unsigned __float_as_uint(float f) { return simt::detail::from_bits<unsigned>(simt::detail::to_bits(f)); }
inline int __float_as_int(float f) { return simt::detail::from_bits<int>(simt::detail::to_bits(f)); }
inline float __uint_as_float(unsigned u) { return simt::detail::from_bits<float>(u); }
inline float __int_as_float(int i) { return simt::detail::from_bits<float>(static_cast<unsigned>(i)); }
inline long long __double_as_longlong(double d) { return simt::detail::from_bits<long long>(simt::detail::to_bits(d)); }
inline double __longlong_as_double(long long v) {
  return simt::detail::from_bits<double>(static_cast<std::uint64_t>(v));
}

// ---- cache-hinted loads and stores: plain accesses here ---------------------------------------
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

// ---- atomics (shared and global alike; sequentially consistent) -------------------------------
namespace simt {
namespace detail {
template <class T, class F>
inline T atomic_update_cas(T* p, F f) {
  atomic_hook();
  using U = typename std::conditional<sizeof(T) == 4, std::uint32_t, std::uint64_t>::type;
  U* up = reinterpret_cast<U*>(p);
  U old_bits = __atomic_load_n(up, __ATOMIC_SEQ_CST);
  for (;;) {
    const T old_v = from_bits<T>(old_bits);
    const U new_bits = static_cast<U>(to_bits(f(old_v)));
    if (__atomic_compare_exchange_n(up, &old_bits, new_bits, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old_v;
  }
}
}  // namespace detail
}  // namespace simt

#define RINGSWEEP_SIMT_ATOMIC_RMW(T)                                                              \
  inline T atomicAdd(T* p, T v) { simt::detail::atomic_hook(); return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicSub(T* p, T v) { simt::detail::atomic_hook(); return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicExch(T* p, T v) { simt::detail::atomic_hook(); return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicAnd(T* p, T v) { simt::detail::atomic_hook(); return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicOr(T* p, T v) { simt::detail::atomic_hook(); return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }   \
  inline T atomicXor(T* p, T v) { simt::detail::atomic_hook(); return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicMin(T* p, T v) { return simt::detail::atomic_update_cas(p, [v](T o) { return o < v ? o : v; }); }  \
  inline T atomicMax(T* p, T v) { return simt::detail::atomic_update_cas(p, [v](T o) { return o > v ? o : v; }); }  \
  inline T atomicCAS(T* p, T expected, T desired) {                                              \
    simt::detail::atomic_hook();                                                                 \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return expected; /* the old value, whether or not the swap happened */                       \
  }
RINGSWEEP_SIMT_ATOMIC_RMW(int)
RINGSWEEP_SIMT_ATOMIC_RMW(unsigned int)
RINGSWEEP_SIMT_ATOMIC_RMW(long long)
RINGSWEEP_SIMT_ATOMIC_RMW(unsigned long long)
#undef RINGSWEEP_SIMT_ATOMIC_RMW
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  return simt::detail::atomic_update_cas(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  return simt::detail::atomic_update_cas(p, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
inline float atomicAdd(float* p, float v) { return simt::detail::atomic_update_cas(p, [v](float o) { return o + v; }); }
inline double atomicAdd(double* p, double v) { return simt::detail::atomic_update_cas(p, [v](double o) { return o + v; }); }
inline float atomicExch(float* p, float v) { return simt::detail::atomic_update_cas(p, [v](float) { return v; }); }

// ---- asynchronous copies to shared memory (<cuda_pipeline_primitives.h>; cp.async on sm_80) ------
// As on a GPU, a copy lands only when its thread waits for its batch: __pipeline_wait_prior(n)
// lands every batch but the newest n committed ones (copies not committed yet stay in flight), and
// other threads see the bytes after a barrier that follows the wait. Until then the destination
// keeps its old bytes; in the race-detection build and with RINGSWEEP_SIMT_POISON=1 it holds 0xA5
// bytes, and the landing is a write of the waiting thread (an early read is a reported race).
// Copies still in flight when their thread exits land then.
namespace simt {
namespace detail {
void async_copy(void* dst, const void* src, std::size_t bytes, std::size_t zfill);
void async_commit();
void async_wait_prior(std::size_t prior);
}  // namespace detail
}  // namespace simt
/// `size_and_align` (4, 8 or 16) bytes from global `src_global` to shared `dst_shared`, both aligned
/// to it; the last `zfill` bytes are zeros instead.
inline void __pipeline_memcpy_async(void* __restrict dst_shared, const void* __restrict src_global,
                                    std::size_t size_and_align, std::size_t zfill = 0) {
  simt::detail::async_copy(dst_shared, src_global, size_and_align, zfill);
}
inline void __pipeline_commit() { simt::detail::async_commit(); }
inline void __pipeline_wait_prior(std::size_t prior) { simt::detail::async_wait_prior(prior); }

// ---- the bulk copy engine and mbarriers (sm_90; a backend extension, not CUDA's API) -------------
// What PTX's mbarrier.init / mbarrier.arrive.expect_tx / cp.async.bulk (global to shared, completing
// on an mbarrier) / mbarrier.try_wait.parity do, for library code guarded by
// `#if defined(RINGSWEEP_SIMT_BACKEND)`. The mbarrier is a 64-bit word of shared memory. A phase
// completes when its arrivals are made and every byte announced by expect_tx has landed; a bulk
// copy lands when a thread of the block waits on its mbarrier (try_wait), not before: until then
// its destination keeps its old bytes (0xA5 under RINGSWEEP_SIMT_POISON=1 and in the race build,
// where the landing is the waiting thread's write, published to the other waiters by the barrier).
namespace simt {
namespace detail {
void mbarrier_init(std::uint64_t* bar, unsigned arrivals);
void mbarrier_arrive_expect_tx(std::uint64_t* bar, unsigned bytes);
void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, std::uint64_t* bar);
bool mbarrier_try_wait_parity(std::uint64_t* bar, unsigned parity);
}  // namespace detail
}  // namespace simt
template <class Word>
inline void __simt_mbarrier_init(Word* bar, unsigned arrivals) {
  static_assert(sizeof(Word) == 8, "an mbarrier is a 64-bit word");
  simt::detail::mbarrier_init(reinterpret_cast<std::uint64_t*>(bar), arrivals);
}
template <class Word>
inline void __simt_mbarrier_arrive_expect_tx(Word* bar, unsigned bytes) {
  simt::detail::mbarrier_arrive_expect_tx(reinterpret_cast<std::uint64_t*>(bar), bytes);
}
template <class Word>
inline void __simt_bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, Word* bar) {
  simt::detail::bulk_copy_to_shared(dst, src, bytes, reinterpret_cast<std::uint64_t*>(bar));
}
template <class Word>
inline bool __simt_mbarrier_try_wait_parity(Word* bar, unsigned parity) {
  return simt::detail::mbarrier_try_wait_parity(reinterpret_cast<std::uint64_t*>(bar), parity);
}

// ---- global-memory traffic tracing (a backend extension, not CUDA) -----------------------------
// Load/store helpers of a library may report each global access here, guarded by
// `#if defined(RINGSWEEP_SIMT_BACKEND)`. While tracing is on (simt::traffic_begin in
// ringsweep_simt/control.hpp), the k-th reported access of every lane of a warp forms one warp-wide
// access, whose distinct 32-byte sectors are counted.
namespace simt {
namespace detail {
extern bool g_trace_enabled;
void trace_global_access(const void* address, unsigned bytes, bool is_store);
}  // namespace detail
}  // namespace simt
inline void __simt_trace_global(const void* address, unsigned bytes, bool is_store) {
  if (simt::detail::g_trace_enabled) simt::detail::trace_global_access(address, bytes, is_store);
}
