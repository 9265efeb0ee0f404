// The distributed sort's splitter search: its settings (for tests), the count of collective calls,
// the sample's size and the rows' constants (included by distributed_sort.inl and the search's
// files, after <mpi.h>). The search itself: distributed_splitters.inl.
#pragma once

#include <algorithm>
#include <cstddef>

#include "../kernels/boundary_histogram_kernel.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// Settings of the search, for tests: `sample` keys per rank (0: the default, sample_keys(p)),
/// the brackets' half-width in standard deviations of the sample's position estimate, and
/// `margin` (>= 0: the half-width in keys instead). A test makes brackets miss with a tiny sample
/// and no margin, so that the digit rounds run.
struct splitter_settings {
  unsigned sample = 0;
  double sigmas = 5.0;
  double margin = -1.0;
  /// Up to this many ranks every rank's counts ride on the last all-gather (see the top of
  /// distributed_splitters.inl).
  int gather_ranks = 256;
  /// Whether the all-gather may be the commit point (see search_args::pre_commit); a test turns it
  /// off to take the way where the chosen slots' moves do not fit (agreement 2 after it).
  bool commit_at_gather = true;
};
inline splitter_settings& splitter_tuning() {
  static splitter_settings s;
  return s;
}

/// Collective calls of the last distributed sort of this thread: every one from the start to the
/// data's exchange (the communicator's duplicate when this call made it, agreements 1 and 2, the
/// search's, the run lengths' all-to-all where it is made), and those of the splitter search alone
/// (after agreement 1, before the run lengths).
struct collective_counts {
  unsigned before_exchange = 0;
  unsigned splitters = 0;
};
inline collective_counts& last_collectives() {
  static thread_local collective_counts c;
  return c;
}

/// Sampled keys per rank: a few thousand (the sample every rank receives is p times that; past
/// 32 ranks it shrinks, so that it stays about 2^17 keys in all).
inline unsigned sample_keys(int p) {
  if (splitter_tuning().sample != 0) return splitter_tuning().sample;
  return unsigned(std::clamp(131072 / std::max(p, 1), 256, 4096));
}

constexpr std::size_t row_bytes = detail::probe_max_digits;
/// Sampled keys (besides the two ends) that cut a bracket into slots: the keys between two of
/// them, the only ones a rank may have to send to every other, are about 1/128 of the bracket's.
constexpr std::size_t bracket_cuts = 128;

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
