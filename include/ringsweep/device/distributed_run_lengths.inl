// The distributed sort's run lengths (included by distributed_sort.inl, after <mpi.h>): from the
// splitters' counts, how many keys this rank sends to each peer and receives from each, and
// whether they add up. docs/design.md, section 14, step 4.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "distributed_search_args.inl"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// The runs of the exchange on this rank: what it sends to each rank and receives from each, at
/// which positions of the partitioned and the received array.
struct run_lengths {
  std::vector<unsigned long long> send_counts, recv_counts, send_displs, recv_displs;
  unsigned rounds = 0;        // collectives it took: the all-to-all of the counts, beyond gather_ranks ranks
  bool inconsistent = false;  // counts that do not add up (only a failure somewhere causes them)
};

/// A rank's cuts: `cut[b]` of its `count` keys go before boundary b (cut[0] = 0, cut[p] = count),
/// from its keys below (`less`) and equal to (`equal`) each of the first `open` splitters, and
/// the keys equal to it on the ranks before (`equal_before`): of all the keys equal to splitter b
/// (by rank, then position), the first `start[b + 1] - global_less[b]` go before boundary b.
inline void rank_cuts(std::size_t count, const unsigned long long* less, const unsigned long long* equal,
                      const unsigned long long* equal_before, int p, unsigned open,
                      const std::vector<unsigned long long>& start, const std::vector<unsigned long long>& global_less,
                      std::vector<unsigned long long>& cut) {
  cut.assign(std::size_t(p) + 1, 0);
  cut[std::size_t(p)] = count;
  for (unsigned b = 0; b + 1 < unsigned(p); ++b) {
    unsigned long long c = count;
    if (b < open) {
      const unsigned long long target = start[b + 1];
      const unsigned long long need = target - std::min(target, global_less[b]);
      const unsigned long long eb = equal_before[b];
      const unsigned long long take = need <= eb ? 0ull : std::min(need - eb, equal[b]);
      c = std::min<unsigned long long>(less[b] + take, count);
    }
    cut[b + 1] = std::max(c, cut[b]);
  }
}

/// This rank's (`rank` of `p`, `n` keys) run lengths from the search's result. With every rank's
/// counts gathered (`found.gathered`) every rank computes every rank's cuts, the same everywhere,
/// and checks that every rank receives exactly its count (`n_of`); else it computes its own and
/// learns its peers' by an all-to-all. Either way the totals must be n (exact balance).
inline run_lengths runs_of(MPI_Comm comm, int rank, int p, std::size_t n, unsigned open,
                           const std::vector<unsigned long long>& start, const std::vector<unsigned long long>& n_of,
                           const splitter_result& found) {
  const std::size_t ranks = std::size_t(p);
  run_lengths r;
  r.send_counts.assign(ranks, 0);
  r.recv_counts.assign(ranks, 0);
  r.send_displs.assign(ranks, 0);
  r.recv_displs.assign(ranks, 0);
  std::vector<unsigned long long> cut;
  if (found.gathered) {
    std::vector<unsigned long long> equal_before(open, 0), received_by(ranks, 0);
    for (int s = 0; s < p; ++s) {
      const std::size_t at = std::size_t(s) * open;
      rank_cuts(std::size_t(n_of[std::size_t(s)]), found.all_less.data() + at, found.all_equal.data() + at,
                equal_before.data(), p, open, start, found.global_less, cut);
      for (unsigned b = 0; b < open; ++b) equal_before[b] += found.all_equal[at + b];
      for (int q = 0; q < p; ++q) {
        const unsigned long long run = cut[std::size_t(q) + 1] - cut[std::size_t(q)];
        received_by[std::size_t(q)] += run;
        if (s == rank) r.send_counts[std::size_t(q)] = run;
        if (q == rank) r.recv_counts[std::size_t(s)] = run;
      }
    }
    for (int q = 0; q < p; ++q) {
      if (received_by[std::size_t(q)] != n_of[std::size_t(q)]) r.inconsistent = true;
    }
  } else {
    rank_cuts(n, found.local_less.data(), found.local_equal.data(), found.equal_before.data(), p, open, start,
              found.global_less, cut);
    for (int q = 0; q < p; ++q) r.send_counts[std::size_t(q)] = cut[std::size_t(q) + 1] - cut[std::size_t(q)];
    MPI_Alltoall(r.send_counts.data(), 1, MPI_UNSIGNED_LONG_LONG, r.recv_counts.data(), 1, MPI_UNSIGNED_LONG_LONG,
                 comm);
    r.rounds = 1;
  }
  unsigned long long sent = 0, received = 0;
  for (int q = 0; q < p; ++q) {
    r.send_displs[std::size_t(q)] = sent;
    r.recv_displs[std::size_t(q)] = received;
    sent += r.send_counts[std::size_t(q)];
    received += r.recv_counts[std::size_t(q)];
  }
  if (received != n || sent != n) r.inconsistent = true;
  return r;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
