// The only inline PTX in ringsweep. Every function has a portable body for compilers without
// __CUDA_ARCH__ (the host pass and the CPU SIMT backend), built from CUDA intrinsics and GCC
// __atomic builtins.
#pragma once

#include <chrono>

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// This thread's lane in its warp (blocks are one-dimensional, whole warps).
__device__ __forceinline__ u32 lane_id() {
#ifdef __CUDA_ARCH__
  u32 lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
#else
  return threadIdx.x & 31u;
#endif
}

/// threadIdx.x read again at each call (a volatile read the compiler neither hoists nor keeps
/// in a register across a loop): for a block that loops over tiles, where the index and the
/// values made from it, held through every tile, cost registers the loop's body needs.
__device__ __forceinline__ u32 thread_index_reread() {
#ifdef __CUDA_ARCH__
  u32 t;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
  return t;
#else
  return threadIdx.x;
#endif
}

/// Bit mask of the lanes below this one.
__device__ __forceinline__ u32 lanemask_lt() {
#ifdef __CUDA_ARCH__
  u32 mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
#else
  return (1u << lane_id()) - 1u;
#endif
}

/// Acquire load (GPU scope) of a 64-bit word that other blocks write concurrently.
__device__ __forceinline__ u64 load_acquire(const u64* p) {
#ifdef __CUDA_ARCH__
  u64 v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#else
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/// Acquire load (GPU scope) of a 32-bit word that other blocks write concurrently.
__device__ __forceinline__ u32 load_acquire(const u32* p) {
#ifdef __CUDA_ARCH__
  u32 v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
#else
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/// Relaxed load (GPU scope) of a 64-bit word that other blocks write concurrently.
__device__ __forceinline__ u64 load_relaxed(const u64* p) {
#ifdef __CUDA_ARCH__
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

/// Release store (GPU scope) of a 64-bit status word.
__device__ __forceinline__ void store_release(u64* p, u64 v) {
#ifdef __CUDA_ARCH__
  asm volatile("st.release.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

/// Relaxed store (GPU scope) of a 64-bit word other blocks read concurrently.
__device__ __forceinline__ void store_relaxed(u64* p, u64 v) {
#ifdef __CUDA_ARCH__
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/// Relaxed store (GPU scope) of a 32-bit word other blocks read concurrently.
__device__ __forceinline__ void store_relaxed(u32* p, u32 v) {
#ifdef __CUDA_ARCH__
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/// Release store (GPU scope) of a 32-bit word other blocks read with acquire loads.
__device__ __forceinline__ void store_release(u32* p, u32 v) {
#ifdef __CUDA_ARCH__
  asm volatile("st.release.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

// Cache hints (policy member CACHE_HINTS). On sm_80 and newer an L2 eviction priority is given
// through a cache policy (`createpolicy.fractional`, then `.L2::cache_hint`): ptxas 13 refuses the
// direct `.L2::evict_first` / `.L2::evict_last` qualifiers on loads and stores narrower than 256
// bits. sm_75 streams with `.cs` and keeps nothing; elsewhere (host pass, SIMT backend) the hinted
// forms are the plain accesses.

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// `asm volatile`, so that every access makes its own policy (one instruction) instead of the
// compiler keeping one in a 64-bit register through the tile (that spilled 4-byte pairs on sm_90).

/// An L2 cache policy of evict-first priority for every access that names it.
__device__ __forceinline__ u64 l2_policy_evict_first() {
  u64 p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
/// An L2 cache policy of evict-last priority for every access that names it.
__device__ __forceinline__ u64 l2_policy_evict_last() {
  u64 p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  return p;
}
#endif

/// Load of a word read once (a pass's keys and values, when they cannot stay in L2): not kept in
/// L1, evict-first in L2 (`ld.global.nc.L1::no_allocate.L2::cache_hint`; `ld.global.cs` on sm_75).
/// `T` is an unsigned word of 1, 2, 4 or 8 bytes or a `uint4`; the data must not change during
/// the kernel (non-coherent path, as `__ldg`). `asm volatile`: a plain `asm` would count as reading
/// no memory, and could be moved above `grid_dependency_wait` or a barrier.
template <class T>
__device__ __forceinline__ T load_streaming(const T* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const u64 pol = l2_policy_evict_first();
  if constexpr (sizeof(T) == 16) {
    T v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p), "l"(pol));
    return v;
  } else if constexpr (sizeof(T) == 8) {
    u64 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.u64 %0, [%1], %2;" : "=l"(v) : "l"(p), "l"(pol));
    return T(v);
  } else if constexpr (sizeof(T) == 4) {
    u32 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
    return T(v);
  } else if constexpr (sizeof(T) == 2) {
    u32 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.u16 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
    return T(v);
  } else {
    u32 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.u8 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
    return T(v);
  }
#elif defined(__CUDA_ARCH__)
  return __ldcs(p);
#else
  return *p;
#endif
}

/// Store of a word the kernel never reads back (a pass's output, when it cannot stay in L2):
/// cache-streaming, i.e. evict-first (`st.global.cs`). `T` as for `load_streaming`.
template <class T>
__device__ __forceinline__ void store_streaming(T* p, T v) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == 16) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" : : "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
  } else if constexpr (sizeof(T) == 8) {
    asm volatile("st.global.cs.u64 [%0], %1;" : : "l"(p), "l"(u64(v)) : "memory");
  } else if constexpr (sizeof(T) == 4) {
    asm volatile("st.global.cs.u32 [%0], %1;" : : "l"(p), "r"(u32(v)) : "memory");
  } else if constexpr (sizeof(T) == 2) {
    asm volatile("st.global.cs.u16 [%0], %1;" : : "l"(p), "h"((unsigned short)(v)) : "memory");
  } else {
    asm volatile("st.global.cs.u8 [%0], %1;" : : "l"(p), "r"(u32(v)) : "memory");
  }
#else
  *p = v;
#endif
}

/// `load_relaxed` of a word to keep in L2 (the look-back's status ring): evict-last priority on
/// sm_80 and newer, a plain relaxed load elsewhere.
__device__ __forceinline__ u64 load_relaxed_keep(const u64* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  u64 v;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u64 %0, [%1], %2;"
               : "=l"(v)
               : "l"(p), "l"(l2_policy_evict_last())
               : "memory");
  return v;
#else
  return load_relaxed(p);
#endif
}

/// `store_relaxed` of a word to keep in L2 (the status ring): evict-last priority on sm_80 and newer.
__device__ __forceinline__ void store_relaxed_keep(u64* p, u64 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("st.relaxed.gpu.global.L2::cache_hint.u64 [%0], %1, %2;"
               :
               : "l"(p), "l"(v), "l"(l2_policy_evict_last())
               : "memory");
#else
  store_relaxed(p, v);
#endif
}

/// Load of a word every tile of a kernel reads and that does not change during it (a portion's
/// digit offsets): evict-last in L2 on sm_80 and newer (`ld.global.nc.L2::cache_hint`), a plain
/// load elsewhere.
__device__ __forceinline__ u64 load_keep(const u64* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  u64 v;
  asm volatile("ld.global.nc.L2::cache_hint.u64 %0, [%1], %2;" : "=l"(v) : "l"(p), "l"(l2_policy_evict_last()));
  return v;
#else
  return *p;
#endif
}

/// Store of a word the next kernel reads from every tile (the next portion's digit offsets):
/// evict-last in L2 on sm_80 and newer (`st.global.L2::cache_hint`), a plain store elsewhere.
__device__ __forceinline__ void store_keep(u64* p, u64 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("st.global.L2::cache_hint.u64 [%0], %1, %2;" : : "l"(p), "l"(v), "l"(l2_policy_evict_last()) : "memory");
#else
  *p = v;
#endif
}

/// A 64-bit word loaded with `load_keep` where `KEEP`, else plainly: a template parameter picks
/// the access, so a kernel instantiation has no branch.
template <bool KEEP>
__device__ __forceinline__ u64 load_word(const u64* p) {
  if constexpr (KEEP) {
    return load_keep(p);
  } else {
    return *p;
  }
}

/// A 64-bit word stored with `store_keep` where `KEEP`, else plainly.
template <bool KEEP>
__device__ __forceinline__ void store_word(u64* p, u64 v) {
  if constexpr (KEEP) {
    store_keep(p, v);
  } else {
    *p = v;
  }
}

/// Atomic add (GPU scope) with acquire and release ordering; returns the old value. Where
/// several blocks hand a role on through one counter, the block that sees the count complete
/// also sees everything the others did before their adds.
__device__ __forceinline__ u32 atomic_add_acq_rel(u32* p, u32 v) {
#ifdef __CUDA_ARCH__
  u32 old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
#else
  return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
#endif
}

/// Release reduction (GPU scope): adds `v` to `*p` and asks for no reply (`red`, not `atom`), so
/// the thread goes on at once. Everything the thread did before it (and, through a block barrier,
/// what its block did) happens before whatever an acquire load that reads the sum does next.
__device__ __forceinline__ void red_add_release(u32* p, u32 v) {
#ifdef __CUDA_ARCH__
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELEASE);
#endif
}

/// red_add_release of a 64-bit counter.
__device__ __forceinline__ void red_add_release(u64* p, u64 v) {
#ifdef __CUDA_ARCH__
  asm volatile("red.release.gpu.global.add.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELEASE);
#endif
}

/// One step of match_any by ballots: keeps in `peers` the lanes of the full warp whose `value`
/// agrees with this lane's in the bit `bit` (a power of two). The PTX form tests the bit straight
/// into a predicate and votes on it (three instructions where the compiler made five).
///
///     u32 peers = ~0u;
///     peers = match_bit(peers, digit, 1u);   // ... for each bit of the digit
__device__ __forceinline__ u32 match_bit(u32 peers, u32 value, u32 bit) {
#ifdef __CUDA_ARCH__
  asm("{\n\t"
      ".reg .pred p;\n\t"
      ".reg .b32 v;\n\t"
      "and.b32 v, %1, %2;\n\t"
      "setp.ne.u32 p, v, 0;\n\t"
      "vote.sync.ballot.b32 v, p, 0xffffffff;\n\t"
      "@!p not.b32 v, v;\n\t"
      "and.b32 %0, %0, v;\n\t"
      "}"
      : "+r"(peers)
      : "r"(value), "r"(bit));
  return peers;
#else
  const bool set = (value & bit) != 0;
  const u32 vote = __ballot_sync(0xffffffffu, set);
  return peers & (set ? vote : ~vote);
#endif
}

/// `v` unchanged, but hidden from the optimiser, which must then recompute whatever it derives
/// from it rather than keep an earlier result live (a register-pressure tool: recomputing a digit
/// from a key costs a few instructions, keeping ITEMS digits live can cost spills). No instruction.
///
///     u32 d = digit_of(opaque(keys[k]));   // not reused from an earlier digit_of(keys[k])
template <class T>
__device__ __forceinline__ T opaque(T v) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == 8) {
    asm volatile("" : "+l"(v));
  } else if constexpr (sizeof(T) == 4) {
    asm volatile("" : "+r"(v));
  } else {
    u32 w = v;
    asm volatile("" : "+r"(w));
    v = T(w);
  }
#endif
  return v;
}

/// The calling thread's index among the `THREADS` threads that run a block-wide algorithm
/// together: threadIdx.x, or with `GROUPED` its index in its group of `THREADS` consecutive threads
/// (a block of several groups, each on its own data and shared memory, every group passing the
/// same `__syncthreads` in lockstep: segment_blocks_kernel).
template <int THREADS, bool GROUPED>
__device__ __forceinline__ int group_thread() {
  return GROUPED ? int(threadIdx.x % unsigned(THREADS)) : int(threadIdx.x);
}

/// Nanoseconds of the GPU's global timer (`%globaltimer`); the host's steady clock on the SIMT
/// backend. For instrumented tuning builds only.
__device__ __forceinline__ u64 global_timer_ns() {
#ifdef __CUDA_ARCH__
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return u64(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                 .count());
#endif
}

/// Programmatic dependent launch, consumer side: waits until the grid launched before this one in
/// the stream has finished and its writes are visible (`griddepcontrol.wait`). A kernel launched
/// with programmatic stream serialization may start while its predecessor still runs, so it calls
/// this before it reads or writes anything the predecessor touches. Before sm_90 nothing (such
/// launches never overlap there); the SIMT backend's runtime provides the call.
///
///     grid_dependency_wait();      // first thing in a kernel that may start early
///     grid_dependents_launch();    // and let the next one be scheduled
__device__ __forceinline__ void grid_dependency_wait() {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
#elif !defined(__CUDACC__)
  cudaGridDependencySynchronize();
#endif
}

/// Programmatic dependent launch, producer side: once every block of this grid has called it (or
/// exited), the next kernel in the stream, if launched as a programmatic dependent, may start
/// (`griddepcontrol.launch_dependents`); it still waits for this grid in grid_dependency_wait.
__device__ __forceinline__ void grid_dependents_launch() {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
#elif !defined(__CUDACC__)
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

/// Starts an asynchronous copy of 16 bytes from global to shared memory, both 16-byte aligned:
/// `cp.async.cg` (L2 only) from sm_80 on, `__pipeline_memcpy_async` on the SIMT backend, a plain
/// copy through registers before sm_80. The bytes are there once this thread has waited for the
/// copy's batch (`async_copy_wait`) and, for other threads, after a block barrier that follows.
///
///     async_copy_16(&stage[4 * threadIdx.x], &global[4 * threadIdx.x]);
///     async_copy_commit();          // closes the batch
///     ...                           // work that does not read the stage
///     async_copy_wait(0);           // every batch of this thread has landed
///     __syncthreads();              // and is visible to the block
__device__ __forceinline__ void async_copy_16(void* shared_dst, const void* global_src) {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 800
  const u32 dst = static_cast<u32>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" : : "r"(dst), "l"(global_src) : "memory");
#else
  *static_cast<uint4*>(shared_dst) = *static_cast<const uint4*>(global_src);
#endif
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __pipeline_memcpy_async(shared_dst, global_src, 16);
#else
  (void)shared_dst;
  (void)global_src;
#endif
}

/// Closes this thread's current batch of asynchronous copies (`cp.async.commit_group`); an empty
/// batch is allowed and counts.
__device__ __forceinline__ void async_copy_commit() {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" : : : "memory");
#endif
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __pipeline_commit();
#endif
}

/// Waits until at most `YOUNGER` of this thread's committed batches (the newest) are still in
/// flight (`cp.async.wait_group`): the older ones have landed.
template <int YOUNGER>
__device__ __forceinline__ void async_copy_wait() {
  static_assert(YOUNGER >= 0 && YOUNGER <= 8, "async_copy_wait: 0 to 8 younger batches");
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" : : "n"(YOUNGER) : "memory");
#endif
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __pipeline_wait_prior(YOUNGER);
#endif
}

/// Whether this compilation has the bulk copy engine (`cp.async.bulk`, completing on an mbarrier):
/// sm_90 on, and the SIMT backend's model of it. Elsewhere the functions below are never called.
__host__ __device__ constexpr bool has_bulk_copy() {
#if defined(RINGSWEEP_SIMT_BACKEND) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900)
  return true;
#else
  return false;
#endif
}

#if defined(__CUDA_ARCH__)
/// The shared-state-space address of a generic pointer into shared memory.
__device__ __forceinline__ u32 shared_address(const void* p) { return static_cast<u32>(__cvta_generic_to_shared(p)); }
#endif

/// Initialises the shared-memory mbarrier `bar` for `arrivals` arrivals per phase (one thread,
/// then a block barrier before any other use); the first phase has parity 0.
///
///     if (threadIdx.x == 0) mbarrier_init(&bar, 1);
///     __syncthreads();
__device__ __forceinline__ void mbarrier_init(u64* bar, u32 arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" : : "r"(shared_address(bar)), "r"(arrivals) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" : : : "memory");
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __simt_mbarrier_init(bar, arrivals);
#else
  (void)bar;
  (void)arrivals;
#endif
}

/// One arrival on `bar` that also announces `bytes` more bytes of asynchronous copies completing on
/// it in the current phase (`mbarrier.arrive.expect_tx`); the phase completes when every arrival
/// has been made and every announced byte has landed.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(u64* bar, u32 bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" : : "r"(shared_address(bar)), "r"(bytes) : "memory");
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __simt_mbarrier_arrive_expect_tx(bar, bytes);
#else
  (void)bar;
  (void)bytes;
#endif
}

/// Orders this thread's earlier generic accesses of shared memory (reads of a stage) before later
/// asynchronous-proxy writes to it (the next bulk copy into the same stage).
__device__ __forceinline__ void fence_proxy_async_shared() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" : : : "memory");
#endif
}

/// Starts a bulk copy of `bytes` (a multiple of 16) from global `src` to shared `dst`, both
/// 16-byte aligned, by the copy engine (`cp.async.bulk`); it completes on `bar`, whose current
/// phase must announce the bytes (mbarrier_arrive_expect_tx). One thread issues it.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, u32 bytes, u64* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :
               : "r"(shared_address(dst)), "l"(src), "r"(bytes), "r"(shared_address(bar))
               : "memory");
#elif defined(RINGSWEEP_SIMT_BACKEND)
  __simt_bulk_copy_to_shared(dst, src, bytes, bar);
#else
  (void)dst;
  (void)src;
  (void)bytes;
  (void)bar;
#endif
}

/// Whether the phase of `bar` with parity `parity` has completed (`mbarrier.try_wait.parity`):
/// its copies' bytes are then visible to this thread. Spin on it with `backoff`.
__device__ __forceinline__ bool mbarrier_try_wait_parity(u64* bar, u32 parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  u32 done;
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "}"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
#elif defined(RINGSWEEP_SIMT_BACKEND)
  return __simt_mbarrier_try_wait_parity(bar, parity);
#else
  (void)bar;
  (void)parity;
  return true;
#endif
}

/// Calls a spin-wait makes to `backoff` before it starts to sleep on the GPU.
constexpr u32 backoff_spin_polls = 8;

/// The one backoff of every spin-wait loop; `state` starts at 0 for each wait. On the GPU the
/// first `backoff_spin_polls` calls return at once: what a wait awaits (mostly a predecessor's
/// status word) usually appears within a few polls, and a sleep there would lie on the
/// look-back's critical path (CUB's look-back never sleeps). Later calls sleep, doubling from
/// 32 ns up to 1 us, so a long wait stops loading the memory system. On the SIMT backend every
/// call sleeps, which yields the fiber so that the awaited thread gets to run.
///
///     u32 pause = 0;
///     while (load_acquire(flag) == 0) backoff(pause);
__device__ __forceinline__ void backoff(u32& state) {
  state = state < 64u ? state + 1u : state;
#ifdef __CUDA_ARCH__
  if (state <= backoff_spin_polls) return;
  const u32 sleeps = state - backoff_spin_polls;
#else
  const u32 sleeps = state;
#endif
  __nanosleep(sleeps >= 6u ? 1024u : 32u << (sleeps - 1u));
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
