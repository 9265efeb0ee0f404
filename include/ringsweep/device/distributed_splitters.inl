// The distributed sort's splitter search (included by distributed.inl, after <mpi.h>): the exact
// key at every open rank boundary, this rank's keys below it and equal to it, and the keys equal
// to it on the ranks before. docs/design.md, section 14, step 3.
//
// First by brackets, in two collectives after the sample (which rides on agreement 1): the global
// sample brackets each boundary between two sampled keys; one read of the keys
// (bracket_kernel.cuh) counts the keys of each slot (below, equal to and between the brackets'
// ends and cuts); one MPI_Allreduce sums the counts, which place every boundary in a slot; a
// second read collects on the device only the keys of the slots that hold a boundary (the
// candidates: the host never sees a whole bracket's keys); one MPI_Allgather gives every rank
// every candidate, by rank, and the boundary's key is the right one of its slot's candidates (or
// a mark). For the boundaries whose bracket missed or whose candidates were too many to gather,
// the digit rounds, before that all-gather: per 8-bit digit from the top one read of the keys
// (boundary_histogram_kernel.cuh) and one MPI_Allreduce.
//
// Up to splitter_settings::gather_ranks ranks the all-gather also carries each rank's keys below
// and equal to every boundary's slot (or splitter), and is made even when no boundary needs
// candidates: every rank then knows every rank's keys below and equal to every splitter, so every
// rank computes every rank's run lengths (distributed.inl: no all-to-all of the run lengths, no
// exclusive scan). Beyond that (p^2 words would be gathered) the older way: the all-gather only for
// candidates, an MPI_Exscan of the equal counts when a boundary's key is a heavy mark or came from
// the digit rounds, and the run lengths' MPI_Alltoall in distributed.inl.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "../kernels/boundary_histogram_kernel.cuh"
#include "../kernels/bracket_kernel.cuh"
#include "launch.cuh"

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
  /// Up to this many ranks every rank's counts ride on the last all-gather (see the top).
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

/// The brackets of the open boundaries from the gathered sample: `marks` the distinct keys that
/// end or cut a bracket (rows of row_bytes, sorted) and `inside[s]` whether the keys of slot s
/// (2i: between marks i - 1 and i; 2i + 1: equal to mark i) are candidates: a bracket's, and for
/// keys equal to a mark, a light one's (below).
struct bracket_plan {
  std::vector<unsigned char> marks;
  std::vector<unsigned char> inside;
  double margin = 0;
  unsigned count() const { return unsigned(marks.size() / row_bytes); }
};

inline int row_compare(const unsigned char* a, const unsigned char* b, int depth) {
  return std::memcmp(a, b, std::size_t(depth));
}

/// `samples`: rank r's `min(n_r, sample)` rows at `samples + r * sample * row_bytes`, of keys
/// evenly spaced over its keys: each stands for n_r / s_r keys. A boundary's bracket runs from
/// the key the sample puts `margin` before its position to the one `margin` after it (from below
/// every key or to above every key where that passes the ends); `margin` covers the estimate's
/// error: sigmas standard deviations of the sum of the ranks' sampling errors, plus one spacing
/// per rank for the rounding of systematic samples (a sample of every key has none). Up to
/// bracket_cuts sampled keys in between cut it into slots.
inline void plan_brackets(const unsigned char* samples, unsigned sample, const std::vector<unsigned long long>& n_of,
                          const std::vector<unsigned long long>& start, unsigned open, int depth,
                          bracket_plan& plan) {
  struct entry {
    const unsigned char* row;
    double weight;
  };
  std::vector<entry> entries;
  double variance = 0;
  double spacing = 0;
  for (std::size_t r = 0; r < n_of.size(); ++r) {
    const unsigned long long s = std::min<unsigned long long>(n_of[r], sample);
    if (s == 0) continue;
    const double w = double(n_of[r]) / double(s);
    for (unsigned long long j = 0; j < s; ++j) entries.push_back({samples + (r * sample + j) * row_bytes, w});
    if (s < n_of[r]) {
      variance += double(s) * w * w * (1.0 - double(s) / double(n_of[r])) / 4.0;
      spacing += w;
    }
  }
  auto less = [&](const unsigned char* a, const unsigned char* b) { return row_compare(a, b, depth) < 0; };
  std::stable_sort(entries.begin(), entries.end(), [&](const entry& a, const entry& b) { return less(a.row, b.row); });
  std::vector<double> below(entries.size() + 1, 0.0);  // estimated keys below entry i
  for (std::size_t i = 0; i < entries.size(); ++i) below[i + 1] = below[i] + entries[i].weight;
  plan.margin = splitter_tuning().margin >= 0 ? splitter_tuning().margin
                                             : splitter_tuning().sigmas * std::sqrt(variance) + spacing + 1.0;
  // The entry at estimated position x: the last one whose keys below are at most x.
  auto at = [&](double x) {
    return std::size_t(std::upper_bound(below.begin(), below.begin() + std::ptrdiff_t(entries.size()), x) -
                       below.begin()) - 1;
  };
  const double total = below[entries.size()];
  std::vector<const unsigned char*> lo_row(open, nullptr), hi_row(open, nullptr), ends;
  for (unsigned b = 0; b < open && !entries.empty(); ++b) {
    const double target = double(start[b + 1]);
    const bool has_lo = target - plan.margin > 0;
    const bool has_hi = target + plan.margin < total;
    const std::size_t first = has_lo ? at(target - plan.margin) : 0;
    const std::size_t last = has_hi ? at(target + plan.margin) : entries.size() - 1;
    if (has_lo) lo_row[b] = entries[first].row;
    if (has_hi) hi_row[b] = entries[last].row;
    const std::size_t cuts = std::min(bracket_cuts, last - first + 1);
    for (std::size_t c = 0; c < cuts; ++c) ends.push_back(entries[first + (last - first) * c / cuts].row);
    ends.push_back(entries[last].row);
  }
  std::sort(ends.begin(), ends.end(), less);
  ends.erase(std::unique(ends.begin(), ends.end(),
                         [&](const unsigned char* a, const unsigned char* b) { return row_compare(a, b, depth) == 0; }),
             ends.end());
  plan.marks.assign(ends.size() * row_bytes, 0);
  for (std::size_t m = 0; m < ends.size(); ++m) std::memcpy(&plan.marks[m * row_bytes], ends[m], std::size_t(depth));
  const int count = int(ends.size());
  auto mark_of = [&](const unsigned char* row) {
    return int(std::lower_bound(ends.begin(), ends.end(), row, less) - ends.begin());
  };
  // Slots [2 lo + 1, 2 hi + 1] are a bracket's: the keys between its ends and those equal to
  // them. A key sampled once is light: its equal keys are candidates too (so that a boundary on
  // it needs no count of the equal keys on the ranks before); one sampled more often is heavy,
  // and a boundary on it takes the mark itself and that count (MPI_Exscan).
  std::vector<int> delta(std::size_t(2 * count + 2), 0);
  for (unsigned b = 0; b < open && !entries.empty(); ++b) {
    const int first = lo_row[b] != nullptr ? 2 * mark_of(lo_row[b]) + 1 : 0;
    const int last = hi_row[b] != nullptr ? 2 * mark_of(hi_row[b]) + 1 : 2 * count;
    ++delta[std::size_t(first)];
    --delta[std::size_t(last) + 1];
  }
  plan.inside.assign(std::size_t(2 * count + 1), 0);
  int covering = 0;
  for (int s = 0; s < 2 * count + 1; ++s) {
    covering += delta[std::size_t(s)];
    bool light = true;
    if (s % 2 == 1) {
      const unsigned char* mark = ends[std::size_t(s / 2)];
      const auto first = std::lower_bound(entries.begin(), entries.end(), mark,
                                          [&](const entry& e, const unsigned char* m) { return less(e.row, m); });
      light = first + 1 == entries.end() || less(mark, (first + 1)->row);
    }
    plan.inside[std::size_t(s)] = covering > 0 && light ? 1 : 0;
  }
}

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

/// The distinct first `depth` digits of the boundaries `list` names (rows of row_bytes in
/// `prefixes`, nondecreasing along the list as the splitters are): `table` gets one row per
/// distinct prefix, in order, `group_of[k]` the row of list[k]. Returns the rows.
inline unsigned distinct_prefixes(const std::vector<unsigned char>& prefixes, const std::vector<unsigned>& list,
                                  int depth, std::vector<unsigned>& group_of, std::vector<unsigned char>& table) {
  table.clear();
  group_of.assign(list.size(), 0);
  unsigned groups = 0;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const unsigned char* mine = prefixes.data() + std::size_t(list[k]) * row_bytes;
    if (k == 0 || std::memcmp(mine, prefixes.data() + std::size_t(list[k - 1]) * row_bytes, std::size_t(depth)) != 0) {
      table.insert(table.end(), mine, mine + row_bytes);
      ++groups;
    }
    group_of[k] = groups - 1;
  }
  return groups;
}

/// The digit rounds for the boundaries in `list` (increasing): per digit from the top, one read of
/// the keys counts, per distinct prefix so far (a group), the next digit of the keys with that
/// prefix, and one MPI_Allreduce sums the counts; boundary b's digit is the one whose keys hold
/// its position.
template <class SortKey>
cudaError_t digit_rounds(const search_args<SortKey>& a, const std::vector<unsigned>& list, cudaError_t err,
                         splitter_result& out) {
  std::vector<unsigned> group_of;
  std::vector<unsigned char> table;
  std::vector<unsigned long long> local_counts, global_counts;
  for (int t = 0; !list.empty() && t < a.passes; ++t) {
    const unsigned groups = distinct_prefixes(out.prefixes, list, t, group_of, table);
    const unsigned buckets = a.buckets[std::size_t(t)];
    const std::size_t entries = std::size_t(groups) * buckets;
    local_counts.assign(entries, 0);
    global_counts.assign(entries, 0);
    if (err == cudaSuccess) {
      detail::boundary_histogram_params<SortKey> h{};
      h.keys = a.keys;
      h.n = a.n;
      h.digits = a.digits;
      h.prefixes = a.d_marks;
      h.groups = groups;
      h.depth = t;
      h.buckets = buckets;
      h.counts = a.d_table;
      h.x_blocks = unsigned(std::min<std::size_t>(std::max<std::size_t>((a.n + 4095) / 4096, 1), 1024));
      const unsigned slices = (groups + detail::boundary_histogram_groups - 1) / detail::boundary_histogram_groups;
      err = cudaMemcpyAsync(a.d_marks, table.data(), table.size(), cudaMemcpyHostToDevice, a.stream);
      if (err == cudaSuccess) err = cudaMemsetAsync(a.d_table, 0, entries * 8, a.stream);
      if (err == cudaSuccess) {
        err = detail::launch(detail::boundary_histogram_kernel<SortKey>, h.x_blocks * slices,
                             detail::boundary_histogram_threads, a.stream, detail::launch_order::serial, h);
      }
      if (err == cudaSuccess) {
        err = cudaMemcpyAsync(local_counts.data(), a.d_table, entries * 8, cudaMemcpyDeviceToHost, a.stream);
      }
      const cudaError_t synced = cudaStreamSynchronize(a.stream);
      if (err == cudaSuccess) err = synced;
      if (err != cudaSuccess) local_counts.assign(entries, 0);
    }
    MPI_Allreduce(local_counts.data(), global_counts.data(), int(entries), MPI_UNSIGNED_LONG_LONG, MPI_SUM, a.comm);
    ++last_collectives().splitters;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const unsigned b = list[k];
      const unsigned long long target = (*a.start)[b + 1];
      const unsigned long long* g = global_counts.data() + std::size_t(group_of[k]) * buckets;
      const unsigned long long* l = local_counts.data() + std::size_t(group_of[k]) * buckets;
      unsigned long long below = out.global_less[b], mine_below = out.local_less[b];
      unsigned d = 0;
      while (d < buckets && below + g[d] <= target) {
        below += g[d];
        mine_below += l[d];
        ++d;
      }
      if (d == buckets) {  // the counts do not add up: only after a failure somewhere
        out.inconsistent = true;
        continue;
      }
      out.prefixes[std::size_t(b) * row_bytes + std::size_t(t)] = static_cast<unsigned char>(d);
      out.global_less[b] = below;
      out.local_less[b] = mine_below;
      out.local_equal[b] = l[d];
    }
  }
  return err;
}

/// Blocks of the two passes over n keys: about 4096 keys each, at most 1024.
inline unsigned bracket_blocks(std::size_t n) {
  return unsigned(std::min<std::size_t>(std::max<std::size_t>((n + 4095) / 4096, 1), 1024));
}

/// The count pass on this rank's keys: its keys per slot in `counts` (2 * plan.count() + 1). A
/// failure leaves zeros (the error is carried on).
template <class SortKey>
cudaError_t bracket_pass(const search_args<SortKey>& a, const bracket_plan& plan, cudaError_t err,
                         std::vector<unsigned long long>& counts) {
  const unsigned slots = 2 * plan.count() + 1;
  counts.assign(slots, 0);
  if (err != cudaSuccess || a.n == 0) return err;
  detail::bracket_params<SortKey> k{};
  k.keys = a.keys;
  k.n = a.n;
  k.digits = a.digits;
  k.depth = a.passes;
  k.marks = a.d_marks;
  k.count = plan.count();
  k.counts = a.d_table;
  err = cudaMemcpyAsync(a.d_marks, plan.marks.data(), plan.marks.size(), cudaMemcpyHostToDevice, a.stream);
  // counts[slots]: the collect pass's counter, zeroed here too
  if (err == cudaSuccess) err = cudaMemsetAsync(a.d_table, 0, (std::size_t(slots) + 1) * 8, a.stream);
  if (err == cudaSuccess) {
    err = detail::launch(detail::bracket_kernel<SortKey>, bracket_blocks(a.n), detail::bracket_threads, a.stream,
                         detail::launch_order::serial, k);
  }
  if (err == cudaSuccess) {
    err = cudaMemcpyAsync(counts.data(), a.d_table, counts.size() * 8, cudaMemcpyDeviceToHost, a.stream);
  }
  const cudaError_t synced = cudaStreamSynchronize(a.stream);
  if (err == cudaSuccess) err = synced;
  if (err != cudaSuccess) counts.assign(counts.size(), 0);
  return err;
}

/// The collect pass: the digits of this rank's keys of the `chosen` slots (`expected` of them, by
/// the count pass) to `rows` (room for them). Returns how many came (0 after a failure); a number
/// other than `expected` only after a failure somewhere. Its copies are made even for no keys, so
/// that every rank makes the same calls.
template <class SortKey>
cudaError_t collect_pass(const search_args<SortKey>& a, const bracket_plan& plan, const std::vector<unsigned char>& chosen,
                         unsigned long long expected, cudaError_t err, unsigned char* rows,
                         unsigned long long& collected, unsigned long long* positions = nullptr) {
  collected = 0;
  if (err != cudaSuccess || a.n == 0) return err;
  const unsigned slots = 2 * plan.count() + 1;
  detail::bracket_params<SortKey> k{};
  k.keys = a.keys;
  k.n = a.n;
  k.digits = a.digits;
  k.depth = a.passes;
  k.marks = a.d_marks;
  k.count = plan.count();
  k.collect = a.d_marks + plan.marks.size();
  k.collected = a.d_table + slots;
  k.candidates = a.d_rows;
  k.positions = positions != nullptr ? a.d_table + slots + 1 : nullptr;
  err = cudaMemcpyAsync(a.d_marks + plan.marks.size(), chosen.data(), chosen.size(), cudaMemcpyHostToDevice, a.stream);
  if (err == cudaSuccess) {
    err = detail::launch(detail::bracket_kernel<SortKey>, bracket_blocks(a.n), detail::bracket_threads, a.stream,
                         detail::launch_order::serial, k);
  }
  if (err == cudaSuccess) err = cudaMemcpyAsync(&collected, k.collected, 8, cudaMemcpyDeviceToHost, a.stream);
  if (err == cudaSuccess) {
    err = cudaMemcpyAsync(rows, a.d_rows, std::size_t(expected) * std::size_t(a.passes), cudaMemcpyDeviceToHost,
                          a.stream);
  }
  if (err == cudaSuccess && positions != nullptr) {
    err = cudaMemcpyAsync(positions, k.positions, std::size_t(expected) * 8, cudaMemcpyDeviceToHost, a.stream);
  }
  const cudaError_t synced = cudaStreamSynchronize(a.stream);
  if (err == cudaSuccess) err = synced;
  if (err != cudaSuccess) collected = 0;
  return err;
}

/// The whole search (see the top of this file). `out` sized for the open boundaries.
template <class SortKey>
cudaError_t search_splitters(const search_args<SortKey>& a, cudaError_t err, splitter_result& out) {
  const unsigned open = a.open;
  const std::vector<unsigned long long>& start = *a.start;
  const std::size_t ranks = std::size_t(a.p);
  out.prefixes.assign(std::size_t(open) * row_bytes, 0);
  out.global_less.assign(open, 0);
  out.local_less.assign(open, 0);
  out.local_equal.assign(open, static_cast<unsigned long long>(a.n));
  out.equal_before.assign(open, 0);
  out.gathered = a.gather_all;
  out.all_less.assign(ranks * open, 0);
  out.all_equal.assign(ranks * open, 0);
  std::vector<unsigned> fallback;
  bool need_exscan = false;
  if (open > 0 && a.passes == 0) {  // an empty window: every key equal, the split by rank only
    for (std::size_t r = 0; r < ranks; ++r) {
      for (unsigned b = 0; b < open; ++b) out.all_equal[r * open + b] = (*a.n_of)[r];
    }
    need_exscan = !a.gather_all;
  } else if (open > 0) {
    bracket_plan plan;
    plan_brackets(a.samples, a.sample, *a.n_of, start, open, a.passes, plan);
    const unsigned slots = 2 * plan.count() + 1;
    std::vector<unsigned long long> local, global(slots, 0);
    err = bracket_pass(a, plan, err, local);
    MPI_Allreduce(local.data(), global.data(), int(slots), MPI_UNSIGNED_LONG_LONG, MPI_SUM, a.comm);
    ++last_collectives().splitters;
    std::vector<unsigned long long> gsum(std::size_t(slots) + 1, 0), lsum(std::size_t(slots) + 1, 0);
    for (unsigned s = 0; s < slots; ++s) {
      gsum[s + 1] = gsum[s] + global[s];
      lsum[s + 1] = lsum[s] + local[s];
    }
    // The slot of each boundary's key: equal to a mark (the mark is the key), inside a bracket
    // (its candidates decide), or outside every bracket (the bracket missed: digit rounds).
    bool commit_here = a.gather_all && static_cast<bool>(a.pre_commit);
    std::vector<unsigned> slot_of(open, 0), by_candidates;
    std::vector<unsigned char> kind(open, 0);  // 0 no slot (a failure somewhere), 1 a heavy mark, 2 candidates, 3 digits
    unsigned long long room = 0;  // candidate rows a rank may have to send: the chosen slots' keys
    for (unsigned b = 0; b < open; ++b) {
      const unsigned long long target = start[b + 1];
      const unsigned s = unsigned(std::upper_bound(gsum.begin() + 1, gsum.end(), target) - gsum.begin()) - 1;
      slot_of[b] = s;
      if (s >= slots) {  // the counts do not add up: only after a failure somewhere
        out.inconsistent = true;
      } else if (s % 2 == 1 && plan.inside[s] == 0) {
        kind[b] = 1;
        std::memcpy(&out.prefixes[std::size_t(b) * row_bytes], &plan.marks[std::size_t(s / 2) * row_bytes], row_bytes);
        out.global_less[b] = gsum[s];
        out.local_less[b] = lsum[s];
        out.local_equal[b] = local[s];
        need_exscan = true;
      } else if (plan.inside[s] != 0) {
        if (by_candidates.empty() || slot_of[by_candidates.back()] != s) room += global[s];
        by_candidates.push_back(b);
        kind[b] = 2;
        out.local_less[b] = lsum[s];  // below the slot: the candidates add their own below
        out.local_equal[b] = local[s];  // the slot's keys: every one a candidate
      } else {
        fallback.push_back(b);
        kind[b] = 3;
      }
    }
    // Every rank sends room rows (its chosen candidates first, then padding) and its count: one
    // all-gather of fixed size, as no rank knows another's count. Too many: the digit rounds.
    // Gathering every rank's counts, it also carries two words per boundary.
    const std::size_t depth = std::size_t(a.passes);
    // A header of two words: the rank's count of rows, and (committing here) its status.
    constexpr std::size_t head = 16;
    const std::size_t info = a.gather_all ? 16 * std::size_t(open) : 0;
    std::size_t block = head + info + std::size_t(room) * depth;
    if (!by_candidates.empty() && (double(block) * a.p > double(INT_MAX) || block > (std::size_t(1) << 24))) {
      for (unsigned b : by_candidates) {
        out.local_less[b] = 0;  // the digit rounds count from 0
        kind[b] = 3;
      }
      fallback.insert(fallback.end(), by_candidates.begin(), by_candidates.end());
      std::sort(fallback.begin(), fallback.end());
      by_candidates.clear();
      room = 0;
      block = head + info;
    }
    // Committing here, the chosen slots' positions and moves go to the tables of every rank: they
    // must fit (else the partition and agreement 2 after the all-gather, one round more).
    if (commit_here && 16 * room + 8 * (std::size_t(slots) + 1) > a.scratch) commit_here = false;
    if (!splitter_tuning().commit_at_gather) commit_here = false;
    std::vector<unsigned char> send(block, 0), all;
    std::vector<unsigned long long> positions;  // committing here: each collected key's position
    unsigned long long own_rows = 0;
    auto slot_of_row = [&](const unsigned char* row) {  // for the gathered keys of the chosen slots
      bool equal = false;
      unsigned lo = 0, hi = plan.count();
      while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        if (row_compare(row, &plan.marks[std::size_t(mid) * row_bytes], a.passes) > 0) lo = mid + 1; else hi = mid;
      }
      equal = lo < plan.count() && row_compare(row, &plan.marks[std::size_t(lo) * row_bytes], a.passes) == 0;
      return 2 * lo + (equal ? 1u : 0u);
    };
    {
      // The chosen slots' keys, straight from the collect pass into the block this rank sends:
      // about 1/128 of a bracket each, and no per-key work on the host.
      std::vector<unsigned char> chosen(slots, 0);
      unsigned long long expected = 0;
      for (unsigned b : by_candidates) {
        if (chosen[slot_of[b]] == 0) expected += local[slot_of[b]];
        chosen[slot_of[b]] = 1;
      }
      unsigned long long sent = 0;
      if (expected > room) {  // more than the slots hold: only after a failure somewhere
        out.inconsistent = true;
      } else if (!by_candidates.empty()) {
        positions.assign(commit_here ? std::max<unsigned long long>(expected, 1) : 0, 0);
        err = collect_pass(a, plan, chosen, expected, err, send.data() + head + info, sent,
                           commit_here ? positions.data() : nullptr);
        if (sent != expected && err == cudaSuccess) out.inconsistent = true;
        if (sent != expected) sent = 0;
      }
      std::memcpy(send.data(), &sent, 8);
      own_rows = sent;
    }
    // The digit rounds after the collect pass (which reads the marks the rounds' prefixes would
    // overwrite on the device), before the all-gather, which carries their boundaries' counts too.
    err = digit_rounds(a, fallback, err, out);
    if (commit_here) {
      // The partition (and the staged path's copies) before the all-gather, which then carries
      // this rank's status: the commit point. Its splitters: every exact one and the marks around
      // every chosen slot, whose keys then lie together, in input order, at [lsum, lsum + local);
      // the moves put them in their stable sorted order, so that any cut inside is one position.
      pre_commit_plan pc;
      pc.lo.assign(open, 0);
      pc.hi.assign(open, a.n);
      std::vector<const unsigned char*> rows;
      for (unsigned b = 0; b < open; ++b) {
        const unsigned s = slot_of[b];
        if (kind[b] == 1 || kind[b] == 3) rows.push_back(&out.prefixes[std::size_t(b) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 1) rows.push_back(&plan.marks[std::size_t(s / 2) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 0 && s > 0) rows.push_back(&plan.marks[std::size_t(s / 2 - 1) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 0 && s / 2 < plan.count()) rows.push_back(&plan.marks[std::size_t(s / 2) * row_bytes]);
        if (kind[b] == 1 || kind[b] == 2) {
          pc.lo[b] = lsum[s];
          pc.hi[b] = lsum[s] + local[s];
        } else if (kind[b] == 3) {
          pc.lo[b] = out.local_less[b];
          pc.hi[b] = out.local_less[b] + out.local_equal[b];
        }
      }
      const auto row_less = [&](const unsigned char* x, const unsigned char* y) { return row_compare(x, y, a.passes) < 0; };
      std::sort(rows.begin(), rows.end(), row_less);
      rows.erase(std::unique(rows.begin(), rows.end(),
                             [&](const unsigned char* x, const unsigned char* y) { return row_compare(x, y, a.passes) == 0; }),
                 rows.end());
      pc.splitters.assign(rows.size() * row_bytes, 0);
      for (std::size_t i = 0; i < rows.size(); ++i) std::memcpy(&pc.splitters[i * row_bytes], rows[i], row_bytes);
      if (own_rows > 0 && positions.size() >= own_rows) {
        struct own {
          const unsigned char* row;
          unsigned slot;
          unsigned long long position;
        };
        std::vector<own> mine;
        for (unsigned long long i = 0; i < own_rows; ++i) {
          const unsigned char* row = send.data() + head + info + i * depth;
          mine.push_back({row, slot_of_row(row), positions[i]});
        }
        std::sort(mine.begin(), mine.end(), [&](const own& x, const own& y) {
          if (x.slot != y.slot) return x.slot < y.slot;
          const int c = row_compare(x.row, y.row, a.passes);
          return c != 0 ? c < 0 : x.position < y.position;
        });
        unsigned long long next = 0;
        for (std::size_t i = 0; i < mine.size(); ++i) {
          if (i == 0 || mine[i].slot != mine[i - 1].slot) next = lsum[mine[i].slot];
          pc.moves.push_back(mine[i].position);
          pc.moves.push_back(next++);
        }
      }
      if (err == cudaSuccess) err = a.pre_commit(pc);
      const unsigned long long status =
          static_cast<unsigned long long>(unsigned(err)) | (out.inconsistent ? 1ull << 32 : 0ull);
      std::memcpy(send.data() + 8, &status, 8);
    }
    if (!by_candidates.empty() || a.gather_all) {
      if (a.gather_all) {
        std::memcpy(send.data() + head, out.local_less.data(), 8 * std::size_t(open));
        std::memcpy(send.data() + head + 8 * std::size_t(open), out.local_equal.data(), 8 * std::size_t(open));
      }
      all.assign(block * ranks, 0);
      MPI_Allgather(send.data(), int(block), MPI_BYTE, all.data(), int(block), MPI_BYTE, a.comm);
      ++last_collectives().splitters;
      if (a.gather_all) {  // every rank's counts as it sent them; the candidates' boundaries below
        for (std::size_t r = 0; r < ranks; ++r) {
          std::memcpy(&out.all_less[r * open], &all[r * block + head], 8 * std::size_t(open));
          std::memcpy(&out.all_equal[r * open], &all[r * block + head + 8 * std::size_t(open)], 8 * std::size_t(open));
        }
      }
      if (commit_here) {  // every rank's status: the same verdict everywhere
        out.committed = true;
        out.inconsistent = false;
        unsigned worst = 0;
        for (std::size_t r = 0; r < ranks; ++r) {
          unsigned long long status = 0;
          std::memcpy(&status, &all[r * block + 8], 8);
          worst = std::max(worst, unsigned(status & 0xffffffffull));
          if ((status >> 32) != 0) out.inconsistent = true;
        }
        out.agreed = cudaError_t(worst);
      }
      struct candidate {
        const unsigned char* row;
        int rank;
        unsigned slot;
      };
      std::vector<candidate> cands;
      for (int r = 0; r < a.p; ++r) {
        unsigned long long c = 0;
        std::memcpy(&c, &all[std::size_t(r) * block], 8);
        c = std::min(c, room);
        for (unsigned long long i = 0; i < c; ++i) {
          const unsigned char* row = &all[std::size_t(r) * block + head + info + i * depth];
          cands.push_back({row, r, slot_of_row(row)});
        }
      }
      // Grouped by slot (a counting sort), then each boundary's key is the k-th of its slot by
      // (key, rank): a selection, linear in the slot's rows, not a sort of every gathered row.
      std::vector<std::size_t> at(std::size_t(slots) + 1, 0);
      for (const candidate& c : cands) ++at[std::size_t(c.slot) + 1];
      for (unsigned s = 0; s < slots; ++s) at[s + 1] += at[s];
      std::vector<candidate> grouped(cands.size());
      {
        std::vector<std::size_t> put(at.begin(), at.end() - 1);
        for (const candidate& c : cands) grouped[put[c.slot]++] = c;
      }
      const auto before = [&](const candidate& x, const candidate& y) {
        const int c = row_compare(x.row, y.row, a.passes);
        return c != 0 ? c < 0 : x.rank < y.rank;
      };
      std::vector<unsigned long long> less_of(ranks), equal_of(ranks), rows_of(ranks);
      for (unsigned b : by_candidates) {
        const unsigned s = slot_of[b];
        const auto first = grouped.begin() + std::ptrdiff_t(at[s]);
        const auto last = grouped.begin() + std::ptrdiff_t(at[s + 1]);
        const unsigned long long k = start[b + 1] - gsum[s];
        if (std::size_t(last - first) != global[s] || k >= global[s]) {  // only after a failure
          out.inconsistent = true;
          continue;
        }
        std::nth_element(first, first + std::ptrdiff_t(k), last, before);
        const unsigned char* key = first[std::ptrdiff_t(k)].row;
        unsigned long long less = 0;
        std::fill(less_of.begin(), less_of.end(), 0);
        std::fill(equal_of.begin(), equal_of.end(), 0);
        std::fill(rows_of.begin(), rows_of.end(), 0);
        for (auto c = first; c != last; ++c) {
          const int cmp = row_compare(c->row, key, a.passes);
          ++rows_of[std::size_t(c->rank)];
          if (cmp < 0) {
            ++less;
            ++less_of[std::size_t(c->rank)];
          } else if (cmp == 0) {
            ++equal_of[std::size_t(c->rank)];
          }
        }
        unsigned long long equal_before = 0;
        for (int r = 0; r < a.rank; ++r) equal_before += equal_of[std::size_t(r)];
        std::memcpy(&out.prefixes[std::size_t(b) * row_bytes], key, depth);
        out.global_less[b] = gsum[s] + less;
        out.local_less[b] = lsum[s] + less_of[std::size_t(a.rank)];
        out.local_equal[b] = equal_of[std::size_t(a.rank)];
        out.equal_before[b] = equal_before;
        for (std::size_t r = 0; a.gather_all && r < ranks; ++r) {
          // each rank sent the slot's keys below it and its keys in the slot: its candidates
          if (rows_of[r] != out.all_equal[r * open + b]) out.inconsistent = true;
          out.all_less[r * open + b] += less_of[r];
          out.all_equal[r * open + b] = equal_of[r];
        }
      }
    }
  }
  if (!a.gather_all && (need_exscan || !fallback.empty())) {
    std::vector<unsigned long long> before(open, 0);
    MPI_Exscan(out.local_equal.data(), before.data(), int(open), MPI_UNSIGNED_LONG_LONG, MPI_SUM, a.comm);
    ++last_collectives().splitters;
    if (a.rank != 0) out.equal_before = before;
    if (a.rank == 0) out.equal_before.assign(open, 0);
  }
  return err;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
