// tile_shapes: the onesweep shape (threads, keys per thread) of each shipped policy for the cases
// of the instruction report, as CSV, for bench/report/sass_phases.py to turn a kernel's static
// instruction count into instructions per key (and segment_sass.py the segmented block classes'). Host code only (the policies are constexpr), built
// by the host compiler against the SIMT backend's headers: no kernel, no nvcc.
#include <ringsweep/detail/policy_for_arch.cuh>  // segment_block_policy, segment_compact_policy, segment_small_policy
#include <ringsweep/detail/tile_shape.cuh>
#include <ringsweep/policy.cuh>  // the shipped policies

#include <cstdio>

namespace {

template <class Policy, int KeyBytes, int ValueBytes, bool FloatKey = false>
void row(const char* policy, const char* name) {
  using shape = ringsweep::detail::tile_shape<Policy, KeyBytes, ValueBytes, FloatKey>;
  std::printf("%s,%s,%d,%d\n", policy, name, shape::THREADS, shape::ITEMS);
}

template <class Policy>
void rows(const char* policy) {
  row<Policy, 1, 0>(policy, "keys_u8");
  row<Policy, 2, 0>(policy, "keys_u16");
  row<Policy, 4, 0>(policy, "keys_u32");
  row<Policy, 4, 0>(policy, "keys_i32");
  row<Policy, 4, 0, true>(policy, "keys_f32");
  row<Policy, 8, 0>(policy, "keys_u64");
  row<Policy, 8, 0>(policy, "keys_i64");
  row<Policy, 8, 0, true>(policy, "keys_f64");
  row<Policy, 16, 0>(policy, "keys_i128");  // two 64-bit fields of a custom key to the kernels
  row<Policy, 16, 4>(policy, "pairs_u128_u32");
  row<Policy, 4, 4>(policy, "pairs_u32_u32");
  row<Policy, 8, 4>(policy, "pairs_u64_u32");
  row<Policy, 8, 8>(policy, "pairs_u64_u64");
  row<Policy, 8, 16>(policy, "pairs_u64_v16");
}

}  // namespace

int main() {
  std::printf("policy,case,threads,items\n");
  rows<ringsweep::policy_sm80>("policy_sm80");
  rows<ringsweep::policy_sm90>("policy_sm90");
  // The groups that sort a segmented sort's medium and compact segments (segment_sass.py's block table).
  rows<ringsweep::detail::segment_block_policy<ringsweep::policy_sm80>>("segment_block:policy_sm80");
  rows<ringsweep::detail::segment_block_policy<ringsweep::policy_sm90>>("segment_block:policy_sm90");
  rows<ringsweep::detail::segment_compact_policy<ringsweep::policy_sm80>>("segment_compact:policy_sm80");
  rows<ringsweep::detail::segment_compact_policy<ringsweep::policy_sm90>>("segment_compact:policy_sm90");
  // The block of segment_blocks_kernel, which sorts a small segment whole (SEGMENT_SMALL_THREADS).
  rows<ringsweep::detail::segment_small_policy<ringsweep::policy_sm80>>("segment_small:policy_sm80");
  rows<ringsweep::detail::segment_small_policy<ringsweep::policy_sm90>>("segment_small:policy_sm90");
  return 0;
}
