// The distributed sort's agreements (included by distributed_sort.inl, after <mpi.h>): the first of
// two errors, the agreed error over the ranks (agreements 2 and 3), and the status every rank
// gathers at agreement 1. docs/design.md, section 14, steps 2 and 5.
#pragma once

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// The first error of `a`, `b` (success when both succeeded).
inline cudaError_t first_error(cudaError_t a, cudaError_t b) { return a != cudaSuccess ? a : b; }

/// The agreed error: the largest code over the ranks (the same on every rank). `inconsistent`:
/// this rank saw counts that do not add up, which only a failure somewhere causes (a rank whose
/// copy or kernel failed contributes zeros): cudaErrorUnknown, unless a rank has the failure itself
/// to report, which then wins (the real cause rather than its echo).
inline cudaError_t agree(MPI_Comm comm, cudaError_t mine, bool inconsistent = false) {
  int local[2] = {int(mine), inconsistent ? 1 : 0};
  int all[2] = {0, 0};
  MPI_Allreduce(local, all, 2, MPI_INT, MPI_MAX, comm);
  if (all[0] == int(cudaSuccess) && all[1] != 0) return cudaErrorUnknown;
  return cudaError_t(all[0]);
}

/// What a rank tells every other before anything is written.
struct rank_status {
  long long error, order, begin_bit, end_bit, item_sizes /* key bits, key and value bytes */, chunk_bytes, n;
  long long scratch;  // bytes of the tables (the search's scratch)
};

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
