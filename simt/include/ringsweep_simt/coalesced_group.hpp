// ringsweep SIMT backend: cooperative_groups::coalesced_group, a group of any lanes of one warp
// given by its mask; ranks count the group's lanes in lane order. Part of <cooperative_groups.h>.
//
//   auto active = cg::coalesced_threads();                    // the warp's live lanes
//   auto odd = cg::binary_partition(active, lane % 2 == 1);   // the lanes with the same predicate
//   int first = odd.shfl(value, 0);                           // from the group's rank-0 lane
//
// Every collective is the __*_sync intrinsic over exactly the group's mask, so it is checked as
// they are. coalesced_threads() is __activemask(): the backend does not know which lanes took a
// branch (no lockstep), so there it is every live lane of the warp. Inside a divergent branch, form
// the group with binary_partition or labeled_partition, or a collective of it is reported as one
// whose lanes never all arrive.
#pragma once

namespace cooperative_groups {

class coalesced_group {
 public:
  explicit coalesced_group(unsigned int mask) : mask_(mask) {}

  unsigned int thread_rank() const { return __popc(mask_ & ((1u << lane()) - 1u)); }
  unsigned int num_threads() const { return __popc(mask_); }
  unsigned int size() const { return num_threads(); }
  unsigned int meta_group_rank() const { return 0; }
  unsigned int meta_group_size() const { return 1; }
  unsigned int mask() const { return mask_; }

  void sync() const { __syncwarp(mask_); }
  template <class T>
  T shfl(T v, unsigned int src_rank) const { return __shfl_sync(mask_, v, lane_of(src_rank % num_threads())); }
  template <class T>
  T shfl_up(T v, unsigned int delta) const {
    const unsigned r = thread_rank();
    return __shfl_sync(mask_, v, lane_of(r >= delta ? r - delta : r));
  }
  template <class T>
  T shfl_down(T v, unsigned int delta) const {
    const unsigned r = thread_rank();
    return __shfl_sync(mask_, v, lane_of(r + delta < num_threads() ? r + delta : r));
  }
  int any(int predicate) const { return __ballot_sync(mask_, predicate) != 0; }
  int all(int predicate) const { return __ballot_sync(mask_, predicate) == mask_; }
  /// Bit r set where the group's thread of rank r passed a true predicate.
  unsigned int ballot(int predicate) const { return compress(__ballot_sync(mask_, predicate)); }
  template <class T>
  unsigned int match_any(T v) const { return compress(__match_any_sync(mask_, v)); }

 private:
  static unsigned int lane() { return (cooperative_groups::thread_block::thread_rank()) % 32u; }
  int lane_of(unsigned int rank) const {
    unsigned m = mask_;
    for (unsigned i = 0; i < rank; ++i) m &= m - 1;
    return __ffs(static_cast<int>(m)) - 1;
  }
  unsigned int compress(unsigned int lanes) const {
    unsigned r = 0, bit = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (mask_ & (1u << l)) r |= ((lanes >> l) & 1u) << bit++;
    return r;
  }

  unsigned int mask_;
};

/// The warp's live lanes (see above for divergent code).
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

namespace details {
template <class Group>
unsigned int lane_mask_of(const Group&) {  // a thread_block_tile<N>: its lanes in the warp
  const unsigned n = Group::num_threads(), lane = thread_block::thread_rank() % 32u;
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u) << (lane & ~(n - 1u));
}
inline unsigned int lane_mask_of(const coalesced_group& g) { return g.mask(); }
}  // namespace details

/// The lanes of `parent` whose predicate equals the caller's.
template <class Group>
coalesced_group binary_partition(const Group& parent, bool predicate) {
  const unsigned m = details::lane_mask_of(parent), yes = __ballot_sync(m, predicate);
  return coalesced_group(predicate ? yes : m & ~yes);
}
/// The lanes of `parent` whose label equals the caller's.
template <class Group, class Label>
coalesced_group labeled_partition(const Group& parent, Label label) {
  return coalesced_group(__match_any_sync(details::lane_mask_of(parent), label));
}

}  // namespace cooperative_groups
