// Shadow of <cooperative_groups/scan.h> for the ringsweep SIMT backend: cg::inclusive_scan and
// cg::exclusive_scan over a thread_block_tile<N> or a coalesced_group (default operation cg::plus),
// in rank order.
//
//   namespace cg = cooperative_groups;
//   auto tile = cg::tiled_partition<32>(cg::this_thread_block());
//   int offset = cg::exclusive_scan(tile, count);              // sum over lower ranks; rank 0: 0
//   int best = cg::inclusive_scan(tile, score, cg::greater<int>());
//
// Built from the group's shuffles over exactly its mask. exclusive_scan gives rank 0 T{} (CUDA
// leaves it undefined for operations other than plus).
#pragma once

#include "../cooperative_groups.h"
#include "ringsweep_simt/cg_functional.hpp"

namespace cooperative_groups {

template <class Group, class T, class Op = plus<T>>
T inclusive_scan(const Group& group, T value, Op op = Op()) {
  const unsigned me = group.thread_rank();
  T acc = group.shfl(value, 0);
  for (unsigned r = 1; r < group.num_threads(); ++r) {
    const T v = group.shfl(value, r);  // every member takes part in every shuffle
    if (r <= me) acc = op(acc, v);
  }
  return acc;
}

template <class Group, class T, class Op = plus<T>>
T exclusive_scan(const Group& group, T value, Op op = Op()) {
  const unsigned me = group.thread_rank();
  T acc{};
  for (unsigned r = 0; r + 1 < group.num_threads(); ++r) {
    const T v = group.shfl(value, r);
    if (r < me) acc = r == 0 ? v : op(acc, v);
  }
  return acc;
}

}  // namespace cooperative_groups
