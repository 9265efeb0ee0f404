// ringsweep SIMT backend: runs one thread block's threads as fibers on the calling OS thread.
//
// A fiber runs until it reaches a switch point: a barrier, a warp collective, a yield (spin-wait
// backoff, __nanosleep) or its end. The scheduler then makes passes over the block's fibers and
// resumes each ready one; with RINGSWEEP_SIMT_SEED set, the order of every pass is a seeded
// permutation. A pass that resumes nothing while fibers remain is a deadlock: it is reported with
// every fiber's wait state. Passes in which fibers only yield are spinning; spinning longer than
// the watchdog allows is reported too.
#include "scheduler.hpp"

#include <boost/context/detail/fcontext.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "address_sanitizer.hpp"
#include "block_context.hpp"
#include "config.hpp"
#include "fiber_stacks.hpp"
#include "grid_run.hpp"
#include "race_annotations.hpp"
#include "shared_poison.hpp"
#include "traffic.hpp"
#include "wait_states.hpp"

namespace ctx = boost::context::detail;

namespace simt {
namespace detail {
namespace {

thread_local block_context* t_block = nullptr;
thread_local fiber* t_fiber = nullptr;

std::uint64_t next_random(std::uint64_t& s) {  // splitmix64
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

[[noreturn]] void vfail(const char* format, va_list args) {
  std::fflush(stdout);
  std::fprintf(stderr, "ringsweep SIMT backend: ");
  if (t_block != nullptr) {
    std::fprintf(stderr, "block (%u,%u,%u)", t_block->block.x, t_block->block.y, t_block->block.z);
    if (t_fiber != nullptr)
      std::fprintf(stderr, " thread (%u,%u,%u) [warp %u lane %u]", t_fiber->tid.x, t_fiber->tid.y, t_fiber->tid.z,
                   t_fiber->warp, t_fiber->lane);
    std::fprintf(stderr, ": ");
  }
  std::vfprintf(stderr, format, args);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

// ---- fiber switching --------------------------------------------------------------------------

void switch_to_scheduler(fiber& f) {
  block_context& b = *t_block;
  race::switch_to(b.scheduler_race_fiber, false);
#if defined(RINGSWEEP_SIMT_ASAN)
  __sanitizer_start_switch_fiber(&f.asan_fake_stack, b.scheduler_stack_bottom, b.scheduler_stack_size);
#endif
  const ctx::transfer_t t = ctx::jump_fcontext(b.scheduler, nullptr);
#if defined(RINGSWEEP_SIMT_ASAN)
  __sanitizer_finish_switch_fiber(f.asan_fake_stack, nullptr, nullptr);
#else
  (void)f;
#endif
  t_block->scheduler = t.fctx;
}

void release_barrier_if_complete(block_context& b);
void check_exit_against_groups(block_context& b, const fiber& f);

// Lands the oldest `count` of `f`'s asynchronous copies: the destination gets the source's bytes
// (and `zfill` zeros), written as `f`'s for race detection.
void land_copies(fiber& f, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const pending_copy& c = f.copies[i];
    race::write_range(c.dst, c.bytes);
    const race::ignore_scope hidden;
    std::memcpy(c.dst, c.src, c.bytes - c.zfill);
    std::memset(static_cast<char*>(c.dst) + (c.bytes - c.zfill), 0, c.zfill);
  }
  const race::ignore_scope hidden;
  f.copies.erase(f.copies.begin(), f.copies.begin() + static_cast<std::ptrdiff_t>(count));
}

#if defined(RINGSWEEP_SIMT_ASAN)
// The frame of a call from the caller's deepest point: every frame below it has returned.
[[gnu::noinline]] unsigned char* frame_below_caller() {
  return static_cast<unsigned char*>(__builtin_frame_address(0));
}
#endif

void fiber_entry(ctx::transfer_t t) {
  block_context& b = *t_block;
#if defined(RINGSWEEP_SIMT_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &b.scheduler_stack_bottom, &b.scheduler_stack_size);
#endif
  b.scheduler = t.fctx;
  fiber& f = *static_cast<fiber*>(t.data);
  race::acquire(b.block_start);  // ordered after what preceded the block on this OS thread
  try {
    (*b.body)();
  } catch (const std::exception& e) {
    fail("exception escaped a kernel thread: %s", e.what());
  } catch (...) {
    fail("exception escaped a kernel thread");
  }
  land_copies(f, f.copies.size());  // a thread's copies still land after it exits, as on a GPU
  block_context& bb = *t_block;
  {
    const race::ignore_scope hidden;
    f.state = fiber_state::done;
    --bb.live;
    bb.warp_exited[f.warp] |= 1u << f.lane;
    check_exit_against_groups(bb, f);
    release_barrier_if_complete(bb);
  }
  race::switch_to(bb.scheduler_race_fiber, true);  // the block's end orders it before what follows
#if defined(RINGSWEEP_SIMT_ASAN)
  // What stays poisoned on this stack lies in the frames live now (this one and the switch below,
  // which is not instrumented), above a call made from here; 1 KiB of margin under that.
  f.stack_dirty = std::max(f.stack, frame_below_caller() - 1024);
  __sanitizer_start_switch_fiber(nullptr, bb.scheduler_stack_bottom, bb.scheduler_stack_size);
#endif
  ctx::jump_fcontext(bb.scheduler, nullptr);
  std::abort();  // a finished fiber is never resumed
}

void resume(block_context& b, fiber& f, std::size_t stack_bytes) {
  threadIdx = f.tid;
  t_fiber = &f;
  f.yielded = false;
  race::switch_to(f.race_fiber, false);
#if defined(RINGSWEEP_SIMT_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, f.stack, stack_bytes);
#else
  (void)stack_bytes;
#endif
  const ctx::transfer_t t = ctx::jump_fcontext(f.context, &f);
#if defined(RINGSWEEP_SIMT_ASAN)
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  f.context = t.fctx;
  t_fiber = nullptr;
  (void)b;
}

// ---- barriers ---------------------------------------------------------------------------------

void release_barrier_if_complete(block_context& b) {
  if (b.barrier_arrived == 0 || b.barrier_arrived != b.live) return;
  int result = 0;
  switch (b.barrier_kind) {
    case barrier_op::sync: result = 0; break;
    case barrier_op::count: result = static_cast<int>(b.barrier_true); break;
    case barrier_op::all: result = b.barrier_true == b.barrier_arrived; break;
    case barrier_op::any: result = b.barrier_true != 0; break;
  }
  for (fiber& f : b.fibers) {
    if (f.state == fiber_state::barrier) {
      f.state = fiber_state::ready;
      f.barrier_result = result;
    }
  }
  b.barrier_arrived = 0;
  b.barrier_true = 0;
  ++b.barrier_generation;
}

// ---- warp collectives -------------------------------------------------------------------------

std::uint64_t reduce(warp_op op, std::uint64_t acc, std::uint64_t v, bool is_signed) {
  const std::uint32_t a = static_cast<std::uint32_t>(acc), x = static_cast<std::uint32_t>(v);
  switch (op) {
    case warp_op::reduce_add: return a + x;
    case warp_op::reduce_and: return a & x;
    case warp_op::reduce_or: return a | x;
    case warp_op::reduce_xor: return a ^ x;
    case warp_op::reduce_min:
      return is_signed ? static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(a), static_cast<std::int32_t>(x))) : std::min(a, x);
    case warp_op::reduce_max:
      return is_signed ? static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(a), static_cast<std::int32_t>(x))) : std::max(a, x);
    default: return a;
  }
}

void complete_group(block_context& b, unsigned warp, const warp_group& g) {
  fiber* lanes = &b.fibers[warp * 32];
  std::uint64_t combined = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(g.mask >> l & 1u)) continue;
    const fiber& m = lanes[l];
    switch (g.op) {
      case warp_op::ballot: combined |= static_cast<std::uint64_t>(m.value != 0) << l; break;
      case warp_op::reduce_add: case warp_op::reduce_min: case warp_op::reduce_max:
      case warp_op::reduce_and: case warp_op::reduce_or: case warp_op::reduce_xor:
        combined = first ? static_cast<std::uint32_t>(m.value) : reduce(g.op, combined, m.value, m.arg != 0);
        break;
      default: break;
    }
    first = false;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(g.mask >> l & 1u)) continue;
    fiber& m = lanes[l];
    const int width = m.width;
    const int seg = static_cast<int>(l) & ~(width - 1);
    int src = static_cast<int>(l);
    switch (g.op) {
      case warp_op::shfl_idx: src = seg + (m.arg & (width - 1)); break;
      case warp_op::shfl_up: src = static_cast<int>(l) - m.arg; if (src < seg) src = static_cast<int>(l); break;
      case warp_op::shfl_down: src = static_cast<int>(l) + m.arg; if (src >= seg + width) src = static_cast<int>(l); break;
      case warp_op::shfl_xor: src = static_cast<int>(l) ^ m.arg; if (src >= seg + width || src > 31 || src < 0) src = static_cast<int>(l); break;
      default: break;
    }
    switch (g.op) {
      case warp_op::syncwarp: m.result = 0; break;
      case warp_op::shfl_idx: case warp_op::shfl_up: case warp_op::shfl_down: case warp_op::shfl_xor:
        // Reading a lane outside the mask is undefined on a GPU; here it returns the caller's value.
        m.result = (g.mask >> src & 1u) ? lanes[src].value : m.value;
        break;
      case warp_op::match_any: {
        unsigned same = 0;
        for (unsigned k = 0; k < 32; ++k)
          if ((g.mask >> k & 1u) && lanes[k].value == m.value) same |= 1u << k;
        m.result = same;
        break;
      }
      default: m.result = combined; break;
    }
    m.state = fiber_state::ready;
  }
}

void check_exit_against_groups(block_context& b, const fiber& f) {
  for (const warp_group& g : b.groups[f.warp]) {
    if (g.mask >> f.lane & 1u)
      fail("lane %u exited while lanes 0x%08x wait for it in %s(mask=0x%08x) (a lane missing from a collective, "
           "or masks that disagree)", f.lane, g.arrived, op_name(g.op), g.mask);
  }
}

}  // namespace

// ---- entry points used by the device-side header ----------------------------------------------

void fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vfail(format, args);
}

void trap(const char* what) { fail("%s", what); }

int block_barrier(barrier_op op, int predicate) {
  const race::ignore_scope hidden;
  fiber* f = t_fiber;
  if (f == nullptr) fail("%s called outside a kernel", barrier_name(op));
  block_context& b = *t_block;
  if (b.barrier_arrived > 0 && b.barrier_kind != op)
    fail("%s meets %s: threads of one block wait in different barriers", barrier_name(op), barrier_name(b.barrier_kind));
  b.barrier_kind = op;
  f->state = fiber_state::barrier;
  f->predicate = predicate != 0;
  f->sync_slot = b.barrier_generation % k_sync_slots;
  ++b.barrier_arrived;
  b.barrier_true += predicate != 0;
  race::release(b.sync_objects + f->sync_slot);
  release_barrier_if_complete(b);
  switch_to_scheduler(*f);
  race::acquire(b.sync_objects + f->sync_slot);
  return f->barrier_result;
}

std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width) {
  const race::ignore_scope hidden;
  fiber* fp = t_fiber;
  if (fp == nullptr) fail("%s called outside a kernel", op_name(op));
  fiber& f = *fp;
  block_context& b = *t_block;
  const unsigned bit = 1u << f.lane;
  if (!(mask & bit)) fail("%s with mask 0x%08x that does not contain the calling lane %u", op_name(op), mask, f.lane);
  if (mask & ~b.warp_present[f.warp])
    fail("%s with mask 0x%08x names lanes that do not exist in this warp (present: 0x%08x)", op_name(op), mask, b.warp_present[f.warp]);
  if (mask & b.warp_exited[f.warp])
    fail("%s with mask 0x%08x names lanes that have exited (0x%08x)", op_name(op), mask, mask & b.warp_exited[f.warp]);
  if (width < 1 || width > 32 || (width & (width - 1)) != 0) fail("%s with width %d (must be a power of two <= 32)", op_name(op), width);
  // Lanes meet in the pending group of the same collective and mask. Groups with other masks may
  // wait at the same time (lanes of a diverged warp reach different collectives); lanes that never
  // come show up as a deadlock or as an exit while others wait.
  std::vector<warp_group>& groups = b.groups[f.warp];
  std::size_t gi = groups.size();
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const warp_group& g = groups[i];
    if (g.op == op && g.mask == mask && !(g.arrived & bit)) {
      gi = i;
      break;
    }
  }
  if (gi == groups.size()) groups.push_back(warp_group{op, mask, 0u, k_sync_slots + b.rendezvous_count++ % k_sync_slots});
  f.sync_slot = groups[gi].sync_slot;
  f.op = op;
  f.mask = mask;
  f.value = value;
  f.arg = arg;
  f.width = width;
  f.state = fiber_state::warp;
  groups[gi].arrived |= bit;
  if (groups[gi].arrived == mask) {
    const warp_group g = groups[gi];
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(gi));
    complete_group(b, f.warp, g);
  }
  race::release(b.sync_objects + f.sync_slot);
  switch_to_scheduler(f);
  race::acquire(b.sync_objects + f.sync_slot);
  return f.result;
}

grid_barrier* current_grid() { return t_block != nullptr ? t_block->grid : nullptr; }

unsigned active_lanes() {
  if (t_fiber == nullptr) return 0;
  return t_block->warp_present[t_fiber->warp] & ~t_block->warp_exited[t_fiber->warp];
}

namespace {
// Fault injection (RINGSWEEP_SIMT_DELAY = chance per mille): before an atomic or a spin-wait step,
// either let the block's other fibers run first, or stall the whole block (its OS thread) for up to
// 200 us so that other blocks overtake it.
void maybe_delay(fiber& f, bool may_stall) {
  const unsigned p = config().delay_permille;
  if (p == 0 || next_random(t_block->rng) % 1000 >= p) return;
  const std::uint64_t r = next_random(t_block->rng);
  if (may_stall && r % 8 == 0) {  // one delay in eight stalls the block; sleeps are costly
    std::this_thread::sleep_for(std::chrono::microseconds((r >> 3) % 100));
  } else {
    for (unsigned i = 0, n = 1 + static_cast<unsigned>((r >> 3) % 8); i < n; ++i) {
      f.yielded = true;
      switch_to_scheduler(f);
    }
  }
}
}  // namespace

void yield_fiber() {
  const race::ignore_scope hidden;
  fiber* f = t_fiber;
  if (f == nullptr) {
    std::this_thread::yield();
    return;
  }
  maybe_delay(*f, false);  // a spin-wait step: reorder only (a stall here would just stall the spinner)
  f->yielded = true;
  switch_to_scheduler(*f);
}

void atomic_hook() {
  const race::ignore_scope hidden;
  if (t_fiber != nullptr) maybe_delay(*t_fiber, true);
}

void trace_global_access(const void* address, unsigned bytes, bool is_store) {
  const race::ignore_scope hidden;
  fiber* f = t_fiber;
  if (f == nullptr || bytes == 0) return;
  const std::uint64_t a = reinterpret_cast<std::uintptr_t>(address);
  const std::uint32_t index = is_store ? f->traced_stores++ : f->traced_loads++;
  t_block->trace->push_back(traced_access{f->warp, index, is_store ? 1u : 0u, bytes, a / 32, (a + bytes - 1) / 32});
}

// ---- programmatic dependent launch ------------------------------------------------------------

void trigger_dependents() {
  const race::ignore_scope hidden;
  if (t_fiber == nullptr) fail("cudaTriggerProgrammaticLaunchCompletion called outside a kernel");
  block_context& b = *t_block;
  if (b.triggered) return;  // any thread of the block counts for the whole block, once
  b.triggered = true;
  b.run->count_trigger();
}

void grid_dependency_wait() {
  const race::ignore_scope hidden;
  fiber* f = t_fiber;
  if (f == nullptr) fail("cudaGridDependencySynchronize called outside a kernel");
  block_context& b = *t_block;
  grid_run* primary = b.run->primary.get();
  if (primary == nullptr) return;  // nothing overlaps this grid: its predecessor has finished
  if (!primary->is_complete()) {
    f->waits_in = "cudaGridDependencySynchronize";
    if (b.grid_dependency_waiters++ == 0) b.run->blocks_waiting.fetch_add(1);
    while (!primary->is_complete()) yield_fiber();
    if (--b.grid_dependency_waiters == 0) b.run->blocks_waiting.fetch_sub(1);
    f->waits_in = nullptr;
  }
  race::acquire(&primary->complete);  // the host released it after joining the primary's workers
}

// ---- asynchronous copies to shared memory (__pipeline_memcpy_async) --------------------------------

namespace {
// Until a copy lands its destination holds what it held; poisoned (RINGSWEEP_SIMT_POISON=1, and
// always in the race build) a read that comes too early, before the wait or in another thread
// before a barrier, sees 0xA5 bytes instead.
void poison_in_flight(void* dst, std::size_t bytes) {
#if defined(RINGSWEEP_SIMT_TSAN)
  constexpr bool poison = true;
#else
  const bool poison = config().poison_shared;
#endif
  if (poison) std::memset(dst, 0xA5, bytes);
}
}  // namespace

void async_copy(void* dst, const void* src, std::size_t bytes, std::size_t zfill) {
  fiber* f = t_fiber;
  if (f == nullptr) fail("__pipeline_memcpy_async called outside a kernel");
  if ((bytes != 4 && bytes != 8 && bytes != 16) || zfill > bytes)
    fail("__pipeline_memcpy_async: size %zu (4, 8 or 16) with zfill %zu", bytes, zfill);
  if (reinterpret_cast<std::uintptr_t>(dst) % bytes != 0 || reinterpret_cast<std::uintptr_t>(src) % bytes != 0)
    fail("__pipeline_memcpy_async: %zu-byte copy from %p to %p is not aligned to its size", bytes, src, dst);
  race::read_range(src, bytes - zfill);
  const race::ignore_scope hidden;
  poison_in_flight(dst, bytes);
  f->copies.push_back(pending_copy{dst, src, bytes, zfill, f->committed});
}

void async_commit() {
  fiber* f = t_fiber;
  if (f == nullptr) fail("__pipeline_commit called outside a kernel");
  ++f->committed;
}

void async_wait_prior(std::size_t prior) {
  fiber* f = t_fiber;
  if (f == nullptr) fail("__pipeline_wait_prior called outside a kernel");
  // Batches older than the newest `prior` committed ones land; copies not yet committed do not.
  const std::uint32_t keep_from = prior >= f->committed ? 0u : f->committed - static_cast<std::uint32_t>(prior);
  std::size_t count = 0;
  while (count < f->copies.size() && f->copies[count].batch < keep_from) ++count;
  land_copies(*f, count);
}

// ---- the bulk copy engine and mbarriers ---------------------------------------------------------
// The mbarrier word: bit 0 the current phase's parity, bits 1-20 arrivals still due in it, bits
// 21-40 arrivals per phase, bits 41-63 bytes announced and not landed yet.
namespace {
constexpr std::uint64_t k_count_mask = (1ull << 20) - 1;
std::uint64_t mbar_parity(std::uint64_t w) { return w & 1u; }
std::uint64_t mbar_due(std::uint64_t w) { return (w >> 1) & k_count_mask; }
std::uint64_t mbar_arrivals(std::uint64_t w) { return (w >> 21) & k_count_mask; }
std::uint64_t mbar_bytes(std::uint64_t w) { return w >> 41; }
std::uint64_t mbar_word(std::uint64_t parity, std::uint64_t due, std::uint64_t arrivals, std::uint64_t bytes) {
  return parity | (due << 1) | (arrivals << 21) | (bytes << 41);
}
// Completes the current phase of `bar` when nothing is due.
void mbar_maybe_complete(std::uint64_t* bar) {
  const std::uint64_t w = *bar;
  if (mbar_due(w) == 0 && mbar_bytes(w) == 0) *bar = mbar_word(mbar_parity(w) ^ 1u, mbar_arrivals(w), mbar_arrivals(w), 0);
}
fiber& current_fiber(const char* what) {
  if (t_fiber == nullptr) fail("%s called outside a kernel", what);
  return *t_fiber;
}
}  // namespace

void mbarrier_init(std::uint64_t* bar, unsigned arrivals) {
  current_fiber("mbarrier.init");
  if (arrivals == 0 || arrivals > k_count_mask) fail("mbarrier.init: %u arrivals (1 to 2^20 - 1)", arrivals);
  const race::ignore_scope hidden;
  *bar = mbar_word(0, arrivals, arrivals, 0);
}

void mbarrier_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
  current_fiber("mbarrier.arrive.expect_tx");
  race::release(bar);  // an arrival releases the arriving thread's earlier writes
  const race::ignore_scope hidden;
  const std::uint64_t w = *bar;
  if (mbar_due(w) == 0) fail("mbarrier.arrive.expect_tx: no arrival due in this phase (%p)", static_cast<void*>(bar));
  *bar = mbar_word(mbar_parity(w), mbar_due(w) - 1, mbar_arrivals(w), mbar_bytes(w) + bytes);
  mbar_maybe_complete(bar);
}

void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
  current_fiber("cp.async.bulk");
  if (bytes == 0 || bytes % 16 != 0 || reinterpret_cast<std::uintptr_t>(dst) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(src) % 16 != 0)
    fail("cp.async.bulk: %u bytes from %p to %p (a multiple of 16, both 16-byte aligned)", bytes, src, dst);
  race::read_range(src, bytes);
  const race::ignore_scope hidden;
  poison_in_flight(dst, bytes);
  t_block->bulk_copies.push_back(pending_bulk_copy{dst, src, bytes, bar});
}

bool mbarrier_try_wait_parity(std::uint64_t* bar, unsigned parity) {
  current_fiber("mbarrier.try_wait.parity");
  std::vector<pending_bulk_copy>& copies = t_block->bulk_copies;
  for (std::size_t i = 0; i < copies.size();) {
    if (copies[i].bar != bar) {
      ++i;
      continue;
    }
    const pending_bulk_copy c = copies[i];
    race::write_range(c.dst, c.bytes);  // the landing is this waiter's write
    {
      const race::ignore_scope hidden;
      std::memcpy(c.dst, c.src, c.bytes);
      copies.erase(copies.begin() + static_cast<std::ptrdiff_t>(i));
      const std::uint64_t w = *bar;
      if (mbar_bytes(w) < c.bytes) fail("cp.async.bulk: %zu bytes landed on an mbarrier that expects fewer", c.bytes);
      *bar = mbar_word(mbar_parity(w), mbar_due(w), mbar_arrivals(w), mbar_bytes(w) - c.bytes);
      mbar_maybe_complete(bar);
    }
    race::release(bar);
  }
  bool done;
  {
    const race::ignore_scope hidden;
    done = mbar_parity(*bar) != (parity & 1u);
  }
  if (done) race::acquire(bar);
  return done;
}

// ---- dynamic shared memory (extern __shared__) --------------------------------------------------

void* dynamic_shared_memory() {
  if (t_fiber == nullptr) fail("extern __shared__ memory used outside a kernel");
  return t_block->dynamic_smem;
}

std::size_t dynamic_shared_memory_bytes() {
  if (t_fiber == nullptr) fail("dynamic shared memory size asked for outside a kernel");
  return t_block->dynamic_smem_bytes;
}

void block_runner::aligned_free::operator()(void* p) const { ::operator delete(p, std::align_val_t{256}); }

namespace {
// Poisons shared memory (and this module's thread-locals, which hold nothing between blocks).
void poison_shared_memory() {
  poison_thread_locals(&t_block);
  t_block = nullptr;
  t_fiber = nullptr;
}
}  // namespace

namespace {
// Guarded by a spin lock on an atomic flag, not a mutex: the backend is not instrumented, so
// ThreadSanitizer sees no order through it (it intercepts mutexes, which would order the taker
// after whoever last returned fibers).
std::atomic_flag g_race_fiber_lock = ATOMIC_FLAG_INIT;
std::vector<void*> g_race_fiber_pool;

struct race_fiber_pool_lock {
  const race::ignore_scope hidden;  // the pool's vector, guarded by the flag TSan does not see
  race_fiber_pool_lock() {
    while (g_race_fiber_lock.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
  }
  ~race_fiber_pool_lock() { g_race_fiber_lock.clear(std::memory_order_release); }
};

void* take_race_fiber(bool may_reuse) {
  if (may_reuse) {
    const race_fiber_pool_lock lock;
    if (!g_race_fiber_pool.empty()) {
      void* f = g_race_fiber_pool.back();
      g_race_fiber_pool.pop_back();
      return f;
    }
  }
  return race::create_fiber();
}
}  // namespace

void recycle_race_fibers(std::vector<void*>& fibers) {
  const race_fiber_pool_lock lock;
  g_race_fiber_pool.insert(g_race_fiber_pool.end(), fibers.begin(), fibers.end());
  fibers.clear();
}

void block_runner::hand_over_race_fibers(std::vector<void*>& spent) {
#if defined(RINGSWEEP_SIMT_TSAN)
  if (!reuses_race_fibers_) return;  // a dependent grid's runner destroys its own (~block_runner)
  spent.insert(spent.end(), race_fibers_.begin(), race_fibers_.end());
#else
  (void)spent;  // no fibers to reuse (race::create_fiber() is nullptr)
#endif
  race_fibers_.clear();
}

namespace {
// Gives `b` a new block's state, keeping the storage of its vectors (emptied).
void reset_keeping_storage(block_context& b) {
  std::vector<fiber> fibers = std::move(b.fibers);
  std::vector<unsigned> order = std::move(b.order), present = std::move(b.warp_present),
                        exited = std::move(b.warp_exited);
  std::vector<std::vector<warp_group>> groups = std::move(b.groups);
  std::vector<pending_bulk_copy> bulk = std::move(b.bulk_copies);
  b = block_context{};
  b.fibers = std::move(fibers);
  b.order = std::move(order);
  b.order.clear();
  b.warp_present = std::move(present);
  b.warp_exited = std::move(exited);
  b.groups = std::move(groups);
  b.bulk_copies = std::move(bulk);
  b.bulk_copies.clear();
}
}  // namespace

block_runner::block_runner() = default;
block_runner::~block_runner() {
  for (unsigned char* s : stacks_) release_stack(s);
  for (void* f : race_fibers_) race::destroy_fiber(f);
}

void block_runner::run(grid_run& grid, uint3 block, std::uint64_t block_linear) {
  const backend_config& cfg = config();
  const dim3 block_dim = grid.block, grid_dim = grid.grid;
  const unsigned n = block_dim.x * block_dim.y * block_dim.z;
  while (stacks_.size() < n) stacks_.push_back(acquire_stack(cfg.stack_bytes));
  reuses_race_fibers_ = grid.primary == nullptr;
  while (race_fibers_.size() < n) race_fibers_.push_back(take_race_fiber(reuses_race_fibers_));

  if (!dynamic_smem_) {  // a runner serves one grid: every block gets the launch's size
    dynamic_smem_bytes_ = grid.dynamic_smem_bytes;
    dynamic_smem_.reset(::operator new(dynamic_smem_bytes_, std::align_val_t{256}));
  }
  if (cfg.poison_shared) {
    poison_shared_memory();
    std::memset(dynamic_smem_.get(), 0xA5, dynamic_smem_bytes_);
  }

  if (!context_) context_ = std::make_unique<block_context>();
  block_context& b = *context_;
  reset_keeping_storage(b);
  b.body = &grid.body;
  b.trace = &trace_;
  sync_objects_.resize(2 * k_sync_slots);
  b.sync_objects = sync_objects_.data();
  b.scheduler_race_fiber = race::current_fiber();
  b.block_start = &block_start_;
  b.block = block;
  b.grid = grid.cooperative ? &grid.barrier : nullptr;
  b.run = &grid;
  b.dynamic_smem = dynamic_smem_.get();
  b.dynamic_smem_bytes = dynamic_smem_bytes_;
  b.fibers.assign(n, fiber{});  // copies of an empty fiber: the elements' vectors keep their storage
  b.order.reserve(n);
  const unsigned nwarps = (n + 31) / 32;
  b.warp_present.assign(nwarps, 0u);
  b.warp_exited.assign(nwarps, 0u);
  b.groups.assign(nwarps, {});
  b.live = n;
  b.rng = cfg.seed * 0x2545f4914f6cdd1dull + block_linear * 0x9e3779b97f4a7c15ull + 1;
  for (unsigned i = 0; i < n; ++i) {
    fiber& f = b.fibers[i];
    f.tid = uint3{i % block_dim.x, (i / block_dim.x) % block_dim.y, i / (block_dim.x * block_dim.y)};
    f.linear = i;
    f.warp = i / 32;
    f.lane = i % 32;
    f.stack = stacks_[i];
    f.context = ctx::make_fcontext(f.stack + cfg.stack_bytes, cfg.stack_bytes, &fiber_entry);
    b.warp_present[f.warp] |= 1u << f.lane;
    f.race_fiber = race_fibers_[i];
  }

  blockIdx = block;
  blockDim = block_dim;
  gridDim = grid_dim;
  t_block = &b;
  if (cfg.delay_permille != 0 && next_random(b.rng) % 1000 < cfg.delay_permille)
    std::this_thread::sleep_for(std::chrono::microseconds(next_random(b.rng) % 300));
  race::release(&block_start_);

  using clock = std::chrono::steady_clock;
  bool spinning = false;
  clock::time_point spin_start{};
  while (b.live > 0) {
    // A pass runs the fibers ready at its start, in a seeded random order (thread order for seed
    // 0); a fiber made ready during the pass runs in the next. Shuffling only the ready ones keeps
    // a block that waits on another (one thread spinning, the rest at a barrier) cheap.
    b.order.clear();
    for (unsigned i = 0; i < n; ++i)
      if (b.fibers[i].state == fiber_state::ready) b.order.push_back(i);
    if (b.order.empty()) report_deadlock(b);
    if (cfg.seed != 0) {
      for (std::size_t i = b.order.size() - 1; i > 0; --i)
        std::swap(b.order[i], b.order[next_random(b.rng) % (i + 1)]);
    }
    bool progress = false;
    for (unsigned idx : b.order) {
      fiber& f = b.fibers[idx];
      if (f.state != fiber_state::ready) continue;
      resume(b, f, cfg.stack_bytes);
      if (!f.yielded) progress = true;
    }
    if (progress) {
      spinning = false;
      continue;
    }
    // Every fiber that ran only yielded: the block waits on something outside it. Let other OS
    // threads run (when all of it waits for the previous grid, sleep until that finishes, briefly),
    // and give up after the watchdog's limit. (Sleeping 50 us after a few passes in vain instead
    // was measured: slower, alone and beside another test.)
    if (b.grid_dependency_waiters == b.live && grid.primary != nullptr)
      wait_for_primary(*grid.primary, 1000);
    else
      std::this_thread::yield();
    const clock::time_point now = clock::now();
    if (!spinning) {
      spinning = true;
      spin_start = now;
    } else if (std::chrono::duration<double>(now - spin_start).count() > cfg.watchdog_seconds) {
      report_watchdog(b, cfg.watchdog_seconds);
    }
  }
  t_block = nullptr;
  if (!b.triggered) grid.count_trigger();  // an exited block no longer holds its dependents back
#if defined(RINGSWEEP_SIMT_ASAN)
  // Each thread returned from every frame but those live at its end, so only their redzones are
  // still poisoned: clear them for the next block (the whole 512 KiB stack per thread per block
  // was half of a sanitized sort test's run time).
  for (fiber& f : b.fibers) {
    unsigned char* const top = f.stack + cfg.stack_bytes;
    if (f.stack_dirty != nullptr) __asan_unpoison_memory_region(f.stack_dirty, static_cast<std::size_t>(top - f.stack_dirty));
  }
#endif
  if (!trace_.empty()) fold_block_traffic(trace_, traffic);
}

}  // namespace detail
}  // namespace simt

long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
