// Shadow of <cooperative_groups.h> for the ringsweep SIMT backend: the block, grid, static tile and
// coalesced groups, built on the backend's barriers and warp collectives (so a tile's collectives meet, and
// are checked, like the __*_sync intrinsics they map to).
//
//   namespace cg = cooperative_groups;
//   __global__ void k(int* out) {
//     cg::thread_block block = cg::this_thread_block();
//     cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
//     int v = tile.shfl_down(int(tile.thread_rank()), 1);
//     if (tile.any(v == 3)) out[cg::this_grid().thread_rank()] = tile.meta_group_rank();
//     block.sync();
//   }
//
// Provided: this_thread_block() (sync, thread_rank, size/num_threads, group_index, thread_index,
// dim_threads, group_dim); this_grid() (thread_rank, size/num_threads, block_rank, num_blocks,
// block_index, dim_blocks, thread_index, dim_threads, group_dim, is_valid, sync);
// tiled_partition<N>(block or tile) for N in 1, 2, 4, 8, 16, 32 (shfl, shfl_up, shfl_down,
// shfl_xor, any, all, ballot, match_any, sync, thread_rank, size/num_threads, meta_group_rank,
// meta_group_size); coalesced groups (coalesced_group.hpp): coalesced_threads() (the warp's
// live lanes, so not inside a divergent branch), binary_partition(tile or coalesced group, pred)
// and labeled_partition(group, label), whose collectives meet over exactly their member lanes
// (thread_rank, size/num_threads, meta_group_rank, meta_group_size, shfl/shfl_up/shfl_down,
// any, all, ballot, match_any, sync); the free functions sync, thread_rank and group_size. cg::reduce and
// inclusive/exclusive_scan over tiles and coalesced groups are in <cooperative_groups/reduce.h>
// and <cooperative_groups/scan.h>.
//
//   cg::coalesced_group odd = cg::binary_partition(cg::tiled_partition<32>(block), v % 2 != 0);
//   int odd_sum = cg::reduce(odd, v, cg::plus<int>());  // over this lane's side of the split
//
// grid_group::sync() needs a cooperative launch, as on a GPU: cudaLaunchKernelEx with the
// attribute cudaLaunchAttributeCooperative, whose grid must fit on the device at once (at most
// cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiProcessorCount blocks, else the launch
// returns cudaErrorCooperativeLaunchTooLarge). The backend then runs every block on an OS thread
// of its own. In any other launch is_valid() is false and sync() stops the process with a
// diagnostic (a GPU traps).
#pragma once

#include "cuda_runtime.h"

namespace simt {
namespace detail {
bool grid_is_cooperative();
void grid_sync();
}  // namespace detail
}  // namespace simt

namespace cooperative_groups {

class thread_block;
class grid_group;
thread_block this_thread_block();
grid_group this_grid();

/// The calling thread's block. `cg::this_thread_block().sync()` is __syncthreads().
class thread_block {
  friend thread_block this_thread_block();
  thread_block() = default;

 public:
  static void sync() { __syncthreads(); }
  static unsigned int thread_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
  static unsigned int num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
  static unsigned int size() { return num_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return blockDim; }
  static dim3 group_dim() { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

/// Every thread of the launch. `cg::this_grid().thread_rank()` is the global linear thread id.
class grid_group {
  friend grid_group this_grid();
  grid_group() = default;

 public:
  bool is_valid() const { return simt::detail::grid_is_cooperative(); }
  void sync() const { simt::detail::grid_sync(); }
  static unsigned long long block_rank() {
    return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  }
  static unsigned long long num_blocks() { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
  static unsigned long long thread_rank() { return block_rank() * thread_block::num_threads() + thread_block::thread_rank(); }
  static unsigned long long num_threads() { return num_blocks() * thread_block::num_threads(); }
  static unsigned long long size() { return num_threads(); }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 group_dim() { return gridDim; }
  static dim3 dim_threads() { return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z); }
  static dim3 thread_index() {
    return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                blockIdx.z * blockDim.z + threadIdx.z);
  }
};
inline grid_group this_grid() { return grid_group(); }

template <unsigned int Size, class ParentT = void>
class thread_block_tile;
namespace details {
template <unsigned int Size, class ParentT>
thread_block_tile<Size, ParentT> make_tile(const ParentT& parent);
}  // namespace details

/// A tile of Size consecutive threads (by block thread rank) of one warp. Its collectives run on
/// the tile's lanes only: `tile.shfl(v, 0)` is __shfl_sync(tile mask, v, 0, Size).
template <unsigned int Size>
class thread_block_tile<Size, void> {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "Size must be one of 1/2/4/8/16/32");

 public:
  static unsigned int thread_rank() { return thread_block::thread_rank() & (Size - 1); }
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }

  static void sync() { __syncwarp(mask()); }
  template <class T>
  T shfl(T v, int src_rank) const { return __shfl_sync(mask(), v, src_rank, Size); }
  template <class T>
  T shfl_up(T v, unsigned int delta) const { return __shfl_up_sync(mask(), v, delta, Size); }
  template <class T>
  T shfl_down(T v, unsigned int delta) const { return __shfl_down_sync(mask(), v, delta, Size); }
  template <class T>
  T shfl_xor(T v, unsigned int lane_mask) const { return __shfl_xor_sync(mask(), v, static_cast<int>(lane_mask), Size); }
  int any(int predicate) const { return __ballot_sync(mask(), predicate) != 0; }
  int all(int predicate) const { return __ballot_sync(mask(), predicate) == mask(); }
  /// Bit r set where the tile's thread of rank r passed a true predicate.
  unsigned int ballot(int predicate) const { return __ballot_sync(mask(), predicate) >> first_lane(); }
  template <class T>
  unsigned int match_any(T v) const { return __match_any_sync(mask(), v) >> first_lane(); }

 protected:
  thread_block_tile(unsigned int meta_rank, unsigned int meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}

 private:
  static unsigned int first_lane() { return (thread_block::thread_rank() % 32u) & ~(Size - 1); }
  static unsigned int mask() { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << first_lane(); }

  unsigned int meta_rank_;
  unsigned int meta_size_;
};

/// The tile as returned by tiled_partition<Size>(parent); converts to thread_block_tile<Size>.
template <unsigned int Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
  template <unsigned int S, class P>
  friend thread_block_tile<S, P> details::make_tile(const P& parent);

  explicit thread_block_tile(const ParentT& parent)
      : thread_block_tile<Size, void>(parent.thread_rank() / Size, (parent.num_threads() + Size - 1) / Size) {}
};

namespace details {
template <unsigned int Size, class ParentT>
thread_block_tile<Size, ParentT> make_tile(const ParentT& parent) {
  return thread_block_tile<Size, ParentT>(parent);
}
}  // namespace details

/// The block's threads in tiles of Size: `auto warp = cg::tiled_partition<32>(cg::this_thread_block());`
template <unsigned int Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block& parent) {
  return details::make_tile<Size>(parent);
}
/// A tile split into smaller tiles; meta_group_rank counts within the parent tile.
template <unsigned int Size, unsigned int ParentSize, class GrandParentT>
thread_block_tile<Size, thread_block_tile<ParentSize, GrandParentT>> tiled_partition(
    const thread_block_tile<ParentSize, GrandParentT>& parent) {
  static_assert(Size <= ParentSize, "a tile cannot be larger than its parent");
  return details::make_tile<Size>(parent);
}

template <class Group>
void sync(const Group& g) { g.sync(); }
template <class Group>
auto thread_rank(const Group& g) -> decltype(g.thread_rank()) { return g.thread_rank(); }
template <class Group>
auto group_size(const Group& g) -> decltype(g.num_threads()) { return g.num_threads(); }

}  // namespace cooperative_groups

#include "ringsweep_simt/coalesced_group.hpp"
