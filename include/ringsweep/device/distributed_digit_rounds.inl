// The splitter search's digit rounds (included by distributed_splitters.inl, after <mpi.h>): for the
// boundaries whose bracket missed or whose candidates were too many to gather, per 8-bit digit
// from the top one read of the keys (boundary_histogram_kernel.cuh) and one MPI_Allreduce.
// docs/design.md, section 14, step 3.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "../kernels/boundary_histogram_kernel.cuh"
#include "distributed_search_args.inl"
#include "distributed_search_settings.inl"
#include "launch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

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

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
