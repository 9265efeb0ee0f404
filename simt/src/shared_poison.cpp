// ringsweep SIMT backend: shared-memory poison (RINGSWEEP_SIMT_POISON; see shared_poison.hpp).
#include "shared_poison.hpp"

#include <link.h>

#include <cstdint>
#include <cstring>

#include <cuda_runtime.h>

#include "config.hpp"

namespace simt {
namespace detail {
namespace {
// __shared__ variables are thread_local in the module (executable or shared object) that holds the
// backend, so they lie in this worker's instance of that module's TLS segment. Poison overwrites
// the whole segment: every kernel's shared memory, and the backend's own thread-locals of that
// module: the built-in variables are saved around it, the scheduler sets its own again (blocks do
// not start inside a kernel, so no other thread-local holds anything then).
struct tls_segment {
  const void* anchor = nullptr;  // a thread-local of the module
  void* data = nullptr;
  std::size_t bytes = 0;
};

int find_own_tls(struct dl_phdr_info* info, size_t, void* arg) {
  auto* seg = static_cast<tls_segment*>(arg);
  const auto own = reinterpret_cast<std::uintptr_t>(seg->anchor);
  if (info->dlpi_tls_data == nullptr) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_TLS) continue;
    const auto begin = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
    if (own >= begin && own < begin + ph.p_memsz) {
      seg->data = info->dlpi_tls_data;
      seg->bytes = ph.p_memsz;
      return 1;
    }
  }
  return 0;
}

}  // namespace

void poison_thread_locals(const void* anchor) {
  tls_segment seg;
  seg.anchor = anchor;
  dl_iterate_phdr(&find_own_tls, &seg);
  if (seg.data == nullptr) fail("RINGSWEEP_SIMT_POISON: cannot find this thread's TLS segment");
  const uint3 saved_tid = threadIdx, saved_bid = blockIdx;
  const dim3 saved_bdim = blockDim, saved_gdim = gridDim;
  std::memset(seg.data, 0xA5, seg.bytes);
  threadIdx = saved_tid;
  blockIdx = saved_bid;
  blockDim = saved_bdim;
  gridDim = saved_gdim;
}

}  // namespace detail
}  // namespace simt
