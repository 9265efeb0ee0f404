// The distributed sort's exchange (included by distributed_sort.inl, after <mpi.h>): one array's
// runs, sources and host stages, and the posting of its receives and sends in messages of at most
// the chunk size. docs/design.md, section 14, step 6.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// One array of the exchange (keys or values), `elem` bytes per item: the sorted runs in `src`
/// (device), what arrives in `dst` (device), and on the staged path the page-locked stages of both.
struct exchange_array {
  std::size_t elem;
  const unsigned char* src;
  unsigned char* dst;
  unsigned char* host_src;  // null: the direct path
  unsigned char* host_dst;
  int tag;
};

/// A receive into a host stage, and where its bytes go on the device once it has arrived.
struct stage_copy {
  const unsigned char* host;
  unsigned char* device;
  std::size_t bytes;
};

/// Posts the receives of every peer's run of `a`, in messages of at most `chunk` bytes, into the
/// device array or its host stage; `stage_copies` gets one entry per request.
inline void post_receives(MPI_Comm comm, int rank, int p, const exchange_array& a,
                          const std::vector<unsigned long long>& counts, const std::vector<unsigned long long>& displs,
                          std::size_t chunk, std::vector<MPI_Request>& requests, std::vector<stage_copy>& stage_copies) {
  for (int q = 0; q < p; ++q) {
    if (q == rank) continue;
    const std::size_t bytes = std::size_t(counts[q]) * a.elem;
    const std::size_t at = std::size_t(displs[q]) * a.elem;
    for (std::size_t off = 0; off < bytes; off += chunk) {
      const std::size_t len = std::min(chunk, bytes - off);
      unsigned char* into = a.host_dst != nullptr ? a.host_dst + at + off : a.dst + at + off;
      MPI_Request r;
      MPI_Irecv(into, int(len), MPI_BYTE, q, a.tag, comm, &r);
      requests.push_back(r);
      stage_copies.push_back({into, a.dst + at + off, len});
    }
  }
}

/// Posts the sends of this rank's run of `a` for peer `q` (from the host stage on the staged path).
inline void post_sends(MPI_Comm comm, int q, const exchange_array& a, const std::vector<unsigned long long>& counts,
                       const std::vector<unsigned long long>& displs, std::size_t chunk,
                       std::vector<MPI_Request>& requests) {
  const std::size_t bytes = std::size_t(counts[q]) * a.elem;
  const std::size_t at = std::size_t(displs[q]) * a.elem;
  const unsigned char* from = a.host_src != nullptr ? a.host_src : a.src;
  for (std::size_t off = 0; off < bytes; off += chunk) {
    const std::size_t len = std::min(chunk, bytes - off);
    MPI_Request r;
    MPI_Isend(from + at + off, int(len), MPI_BYTE, q, a.tag, comm, &r);
    requests.push_back(r);
  }
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
