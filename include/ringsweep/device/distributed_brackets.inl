// The splitter search's brackets (included by distributed_splitters.inl, after <mpi.h>): the plan
// of the brackets from the gathered sample (marks, slots, candidate slots) on the host, and the
// two reads of the keys by bracket_kernel.cuh: the count pass (keys per slot) and the collect pass
// (the chosen slots' keys). docs/design.md, section 14, step 3.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "../kernels/bracket_kernel.cuh"
#include "distributed_search_args.inl"
#include "distributed_search_settings.inl"
#include "launch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

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

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
