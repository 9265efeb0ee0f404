// The distributed sort's exchange (included by distributed_sort.inl, after <mpi.h>): one array's
// runs, sources and host stages, the staged path's copies to the host, the posting of the receives
// and sends in messages of at most the chunk size, and the exchange itself. docs/design.md,
// section 14, step 6.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "distributed_agreement.inl"
#include "distributed_run_lengths.inl"

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

/// The staged path's copies of the partitioned arrays `ex[0, arrays)` (`n` items each) to their
/// host stages, all but items [keep_begin, keep_end) (the rank's own run, or what surely is): at
/// most two copies per array, queued on `stream`. Nothing on the direct path (no host stage).
inline cudaError_t stage_runs(const exchange_array* ex, int arrays, std::size_t n, std::size_t keep_begin,
                              std::size_t keep_end, cudaStream_t stream) {
  cudaError_t e = cudaSuccess;
  for (int a = 0; a < arrays && ex[a].host_src != nullptr && e == cudaSuccess; ++a) {
    const std::size_t w = ex[a].elem;
    if (keep_begin > 0) {
      e = first_error(e, cudaMemcpyAsync(ex[a].host_src, ex[a].src, keep_begin * w, cudaMemcpyDeviceToHost, stream));
    }
    if (keep_end < n) {
      e = first_error(e, cudaMemcpyAsync(ex[a].host_src + keep_end * w, ex[a].src + keep_end * w, (n - keep_end) * w,
                                         cudaMemcpyDeviceToHost, stream));
    }
  }
  return e;
}

/// The exchange of `ex[0, arrays)` by the run lengths `runs`, from the partitioned arrays (or
/// their host stages) into the caller's: receives first, for every peer; then, peer by peer from
/// rank + 1 on (so that no rank is everyone's first peer), the sends; the rank's own run moves on
/// the device. On the staged path each message's copy to the device is queued as soon as it has
/// arrived, overlapping the messages still in flight. Returns the first error; `delivered`: every
/// item is in the caller's arrays (a failed copy into them is made once more, since every source,
/// the partitioned arrays and the host stages, is intact; the error is still returned).
inline cudaError_t exchange_runs(MPI_Comm comm, int rank, int p, const exchange_array* ex, int arrays,
                                 const run_lengths& runs, std::size_t chunk, cudaStream_t stream, bool& delivered) {
  const bool staged = ex[0].host_src != nullptr;
  std::vector<MPI_Request> recv_requests, send_requests;
  std::vector<stage_copy> stage_copies;
  for (int a = 0; a < arrays; ++a) {
    post_receives(comm, rank, p, ex[a], runs.recv_counts, runs.recv_displs, chunk, recv_requests, stage_copies);
  }
  for (int k = 1; k < p; ++k) {
    const int q = (rank + k) % p;
    for (int a = 0; a < arrays; ++a) post_sends(comm, q, ex[a], runs.send_counts, runs.send_displs, chunk, send_requests);
  }
  const std::size_t own = std::size_t(rank);
  auto own_run = [&]() {
    cudaError_t e = cudaSuccess;
    for (int a = 0; a < arrays && runs.send_counts[own] > 0; ++a) {
      e = first_error(e, cudaMemcpyAsync(ex[a].dst + std::size_t(runs.recv_displs[own]) * ex[a].elem,
                                         ex[a].src + std::size_t(runs.send_displs[own]) * ex[a].elem,
                                         std::size_t(runs.send_counts[own]) * ex[a].elem, cudaMemcpyDeviceToDevice,
                                         stream));
    }
    return e;
  };
  cudaError_t err = own_run();
  if (staged) {
    for (std::size_t done = 0; done < recv_requests.size(); ++done) {
      int index = MPI_UNDEFINED;
      MPI_Waitany(int(recv_requests.size()), recv_requests.data(), &index, MPI_STATUS_IGNORE);
      if (index == MPI_UNDEFINED) break;
      const stage_copy& c = stage_copies[std::size_t(index)];
      err = first_error(err, cudaMemcpyAsync(c.device, c.host, c.bytes, cudaMemcpyHostToDevice, stream));
    }
  } else {
    MPI_Waitall(int(recv_requests.size()), recv_requests.data(), MPI_STATUSES_IGNORE);
  }
  MPI_Waitall(int(send_requests.size()), send_requests.data(), MPI_STATUSES_IGNORE);
  err = first_error(err, cudaStreamSynchronize(stream));
  delivered = err == cudaSuccess;
  if (!delivered) {
    cudaError_t again = own_run();
    for (std::size_t i = 0; staged && i < stage_copies.size(); ++i) {
      const stage_copy& c = stage_copies[i];
      again = first_error(again, cudaMemcpyAsync(c.device, c.host, c.bytes, cudaMemcpyHostToDevice, stream));
    }
    delivered = first_error(again, cudaStreamSynchronize(stream)) == cudaSuccess;
  }
  return err;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
