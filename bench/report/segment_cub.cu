// CUB's segmented sort beside ringsweep's in the segmented instruction report
// (bench/report/segment_sass.py --cub): cub::DeviceSegmentedSort::SortKeys (u32) and SortPairs
// (u32 keys, u32 values) with int offsets, from the toolkit's CCCL, compiled by one nvcc run for
// sm_80 and sm_90 with -lineinfo (cubins kept) so that nvdisasm can count the kernels' SASS.
// `main` prints the shapes CUB's own policies give each kernel per case and architecture (read at
// compile time); it makes no CUDA call and runs without a GPU.
#include <cub/device/device_segmented_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

using u32 = std::uint32_t;

void keys(void* t, std::size_t& b, int n, int segments, const int* offsets) {
  (void)cub::DeviceSegmentedSort::SortKeys(t, b, static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr), n,
                                           segments, offsets, offsets + 1);
}

void pairs(void* t, std::size_t& b, int n, int segments, const int* offsets) {
  (void)cub::DeviceSegmentedSort::SortPairs(t, b, static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr),
                                            static_cast<const u32*>(nullptr), static_cast<u32*>(nullptr), n,
                                            segments, offsets, offsets + 1);
}

// One line per kernel class: small and medium (sub-warp merge sort: threads per segment, keys per
// thread), large (block radix sort: block threads, keys per thread, radix bits), and the
// partitioning threshold (fewer segments than this: one fallback launch, no partition).
template <class Policy>
void row(const char* arch, const char* name) {
  using SM = typename Policy::SmallAndMediumSegmentedSortPolicyT;
  using L = typename Policy::LargeSegmentPolicy;
  std::printf("%s,%s,small,%d,%d,0,%d\n", arch, name, int(SM::SmallPolicyT::WARP_THREADS),
              int(SM::SmallPolicyT::ITEMS_PER_THREAD), int(SM::BLOCK_THREADS));
  std::printf("%s,%s,medium,%d,%d,0,%d\n", arch, name, int(SM::MediumPolicyT::WARP_THREADS),
              int(SM::MediumPolicyT::ITEMS_PER_THREAD), int(SM::BLOCK_THREADS));
  std::printf("%s,%s,large,%d,%d,%d,%d\n", arch, name, int(L::BLOCK_THREADS), int(L::ITEMS_PER_THREAD),
              int(L::RADIX_BITS), int(Policy::PARTITIONING_THRESHOLD));
}

template <class Key, class Value>
using hub = cub::detail::segmented_sort::policy_hub<Key, Value>;

}  // namespace

// External linkage, so that no compiler drops the instantiations as unused.
void ringsweep_segment_cub_instantiate(void* t, std::size_t& b, int n, int segments, const int* offsets) {
  keys(t, b, n, segments, offsets);
  pairs(t, b, n, segments, offsets);
}

int main() {
  std::printf("arch,case,class,threads,items,radix_bits,block\n");
  row<hub<u32, cub::NullType>::Policy800>("sm_80", "keys_u32");
  row<hub<u32, cub::NullType>::Policy860>("sm_90", "keys_u32");  // sm_90 runs the 860 policy
  row<hub<u32, u32>::Policy800>("sm_80", "pairs_u32_u32");
  row<hub<u32, u32>::Policy860>("sm_90", "pairs_u32_u32");
  return 0;
}
