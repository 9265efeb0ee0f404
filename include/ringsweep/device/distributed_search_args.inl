// The splitter search's inputs and results (included by distributed_sort.inl and the search's files,
// after <mpi.h>): the plan of a commit at the all-gather, what the search finds for each boundary,
// and the inputs of the search on one rank. The search itself: distributed_splitters.inl.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "../kernels/boundary_histogram_kernel.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// Where the commit point moves to the all-gather (see search_args::pre_commit): the splitters of
/// a partition made before it (rows of row_bytes, sorted, distinct: the heavy marks, the digit
/// rounds' splitters, the marks around every chosen slot), for each open boundary the range of
/// the partitioned array its cut will fall in (`lo`, `hi`: its slot), and the moves that put the
/// chosen slots' keys in their stable sorted order ([m][2]: input position, partitioned position).
struct pre_commit_plan {
  std::vector<unsigned char> splitters;
  std::vector<unsigned long long> lo, hi;
  std::vector<unsigned long long> moves;
};

/// What the search finds for each boundary b < open: its key's digits (`prefixes`, rows of
/// row_bytes), the keys below it globally and on this rank, this rank's keys equal to it, and
/// those equal to it on the ranks before (`equal_before`). With `gathered`, every rank's keys below
/// and equal to it instead of this rank's: `all_less[r * open + b]`, `all_equal[r * open + b]`.
struct splitter_result {
  std::vector<unsigned char> prefixes;
  std::vector<unsigned long long> global_less, local_less, local_equal, equal_before;
  std::vector<unsigned long long> all_less, all_equal;
  bool gathered = false;
  bool inconsistent = false;
  /// The all-gather was the commit point (pre_commit ran): `agreed` the largest error of any rank
  /// up to it, and `inconsistent` every rank's flag or'ed, the same on every rank.
  bool committed = false;
  cudaError_t agreed = cudaSuccess;
};

/// The inputs of the search on this rank.
template <class SortKey>
struct search_args {
  MPI_Comm comm;
  int rank, p;
  cudaStream_t stream;
  const typename key_traits<SortKey>::bits_type* keys;
  std::size_t n;
  detail::key_digits<SortKey> digits;
  int passes;                                   // digits of the window
  std::vector<unsigned> buckets;                // 2^width of each digit, from the top
  const std::vector<unsigned long long>* start; // every rank's first global position, and N
  const std::vector<unsigned long long>* n_of;  // every rank's count
  unsigned open;                                // the open boundaries: start[b + 1] < N
  const unsigned char* samples;                 // the gathered sample (plan_brackets)
  unsigned sample;
  unsigned char* d_rows;                        // n rows of `passes` bytes (the second key array)
  unsigned long long* d_table;                  // the tables (the sort's temporary storage)
  unsigned char* d_marks;                       // the marks, then the inside flags
  bool gather_all;                              // every rank's counts on the last all-gather
  /// With gather_all: the partition (and the staged path's copies) before the all-gather, which
  /// then carries every rank's status and is the commit point; `scratch`: the fewest bytes of the
  /// tables any rank has (the positions and moves of the chosen slots' keys go there).
  std::function<cudaError_t(const pre_commit_plan&)> pre_commit;
  std::size_t scratch = 0;
};

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
