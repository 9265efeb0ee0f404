// ringsweep SIMT backend: controls a test or report may use at run time (not part of the CUDA
// shadow). Everything else is set through the environment: RINGSWEEP_SIMT_WORKERS,
// RINGSWEEP_SIMT_SEED, RINGSWEEP_SIMT_WATCHDOG_S, RINGSWEEP_SIMT_STACK_KB, RINGSWEEP_SIMT_SMS,
// RINGSWEEP_SIMT_DEVICES, RINGSWEEP_SIMT_L2_BYTES, RINGSWEEP_SIMT_DELAY, RINGSWEEP_SIMT_POISON, RINGSWEEP_SIMT_FAIL_ALLOC,
// RINGSWEEP_SIMT_FAIL_COPY, RINGSWEEP_SIMT_PDL (0: no programmatic-dependent-launch overlap; see launch.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace simt {

// A block whose threads only spin (yield) for longer than this is reported and the process aborts.
void set_watchdog_seconds(double seconds);

// The schedule seed (RINGSWEEP_SIMT_SEED) and fault-injection rate (RINGSWEEP_SIMT_DELAY, per mille)
// for the launches that follow, so that one process can sweep many schedules.
void set_schedule_seed(unsigned long long seed);
void set_delay_permille(unsigned permille);
unsigned long long schedule_seed();
// RINGSWEEP_SIMT_WORKERS for the launches that follow (at least 1).
void set_workers(unsigned workers);
unsigned workers();
// RINGSWEEP_SIMT_POISON: at every block start, fill shared memory with 0xA5 bytes, so that a read
// before the block's own write shows up as garbage rather than as a previous block's data.
void set_poison_shared(bool on);

// Allocation failure (RINGSWEEP_SIMT_FAIL_ALLOC=k: the k-th allocation call of the process fails).
// Allocation calls are cudaMalloc, cudaMallocAsync and cudaMallocHost, counted from 1 over the whole
// process (every call counts, whatever it returns); the failing one returns
// cudaErrorMemoryAllocation and allocates nothing. Once, not from then on.
//
//   simt::fail_allocation(1);                              // the next allocation call fails
//   assert(ringsweep::sort_keys(d_keys, n) == cudaErrorMemoryAllocation);
unsigned long long allocation_calls();            // allocation calls so far
void fail_allocation(unsigned long long k);       // call allocation_calls() + k fails; 0 disarms
// Page-locked host memory: cudaMallocHost and cudaHostAlloc calls so far (those that fail too), and
// the bytes held now (each allocation rounded up to 256 bytes).
unsigned long long host_allocation_calls();
std::size_t pinned_host_bytes();

// Copy failure (RINGSWEEP_SIMT_FAIL_COPY=k: the k-th copy call of the process fails). Copy calls are
// cudaMemcpy, cudaMemcpyAsync, cudaMemcpyBatchAsync (a batch: one), counted from 1 over the process
// (every call counts, whatever it returns). The failing one, if its arguments are valid, acts as a
// copy that failed part-way: 0xA5 bytes over its whole destination (a batch's every one) instead of
// the source's (at once, after the work already enqueued), cudaErrorLaunchFailure returned. Once,
// not from then on; the error is not sticky.
//
//   simt::fail_copy(2);                                    // the second copy call from now fails
unsigned long long copy_calls();                  // copy calls so far
void fail_copy(unsigned long long k);             // call copy_calls() + k fails; 0 disarms
// Bytes copied from device memory to the host so far, over the whole process: the copies
// (cudaMemcpy, cudaMemcpyAsync) of kind cudaMemcpyDeviceToHost, or cudaMemcpyDefault (a batch's)
// from device to host memory, counted when enqueued (failing ones too). A test bounds what a routine copies back.
unsigned long long device_to_host_bytes();
// Kernel launches since process start: every launch the backend accepts (any launch API; a
// graph's kernels each time the graph runs), counted when it starts its grid.
// kernel_blocks_launched(): the blocks of those grids. memset_calls() and memset_bytes(): the
// cudaMemset and cudaMemsetAsync calls with valid arguments and their bytes, counted when enqueued.
// A test bounds a routine's fixed cost by the differences around one call:
//
//   const unsigned long long before = simt::kernel_launches();
//   ringsweep::top_k_keys(d_temp, bytes, d_in, d_out, n, k);
//   assert(simt::kernel_launches() - before <= 4);
unsigned long long kernel_launches();
unsigned long long kernel_blocks_launched();
unsigned long long memset_calls();
unsigned long long memset_bytes();

// Device memory held at once (RINGSWEEP_SIMT_DEVICE_BYTES caps it per device): the most bytes of
// `device` allocated at any moment since the last reset (which starts from what is held now).
//
//   simt::reset_peak_device_bytes();
//   ringsweep::host_sort_keys(h, n);
//   std::size_t most = simt::peak_device_bytes(1);
std::size_t peak_device_bytes(int device);
void reset_peak_device_bytes();

// Global-memory traffic reported through __simt_trace_global, per kernel.
struct kernel_traffic {
  std::string kernel;                    // demangled name where the symbol is exported, else an address
  unsigned long long launches = 0;
  unsigned long long load_bytes = 0;     // bytes requested by loads
  unsigned long long store_bytes = 0;
  unsigned long long load_sectors = 0;   // distinct 32-byte sectors per warp-wide access, summed
  unsigned long long store_sectors = 0;
  unsigned long long load_accesses = 0;  // warp-wide accesses
  unsigned long long store_accesses = 0;
};

// Starts counting (clears earlier counts). Call between launches, not during one.
void traffic_begin();
// Stops counting and returns the counts per kernel, in order of first launch.
std::vector<kernel_traffic> traffic_end();

}  // namespace simt
