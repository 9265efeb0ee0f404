// Shadow of <cooperative_groups/reduce.h> for the ringsweep SIMT backend: cg::reduce over a
// thread_block_tile<N> or a coalesced_group, with cg::plus, less (min), greater (max), bit_and,
// bit_or, bit_xor or any callable. Every member gets the reduction of all members' values.
//
//   namespace cg = cooperative_groups;
//   auto tile = cg::tiled_partition<16>(cg::this_thread_block());
//   int sum = cg::reduce(tile, value, cg::plus<int>());
//   unsigned low = cg::reduce(cg::coalesced_threads(), key, cg::less<unsigned>());
//
// Built from the group's shuffles, each over exactly its mask; values are combined in rank order
// (rank 0 first), so a non-associative operation gives the same result on every member and run.
// T must fit a warp shuffle (at most 8 bytes).
#pragma once

#include "../cooperative_groups.h"
#include "ringsweep_simt/cg_functional.hpp"

namespace cooperative_groups {

template <class Group, class T, class Op>
T reduce(const Group& group, T value, Op op) {
  T acc = group.shfl(value, 0);
  for (unsigned r = 1; r < group.num_threads(); ++r) acc = op(acc, group.shfl(value, r));
  return acc;
}

}  // namespace cooperative_groups
