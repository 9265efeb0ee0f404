// The instruction report's translation unit (bench/report/sass_phases.py --report): ringsweep's and
// CUB's onesweep kernels for the report's cases, compiled by one nvcc run for sm_80 and sm_90 with
// -lineinfo (cubins kept), so that nvdisasm can count each kernel's SASS instructions per key by
// phase. `main` prints CUB's keys per thread per case and architecture (CUB's own policies, read
// at compile time); it makes no CUDA call and runs without a GPU.
#include <ringsweep/ringsweep.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

template <class Key>
void keys(void* t, std::size_t& b, int n) {
  (void)ringsweep::sort_keys(t, b, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), std::size_t(n));
  (void)cub::DeviceRadixSort::SortKeys(t, b, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), n);
}

template <class Key, class Value>
void pairs(void* t, std::size_t& b, int n) {
  (void)ringsweep::sort_pairs(t, b, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                              static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), std::size_t(n));
  (void)cub::DeviceRadixSort::SortPairs(t, b, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                                        static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), n);
}

template <class Key, class Value>
using hub = cub::detail::radix::policy_hub<Key, Value, u32>;

template <class Key, class Value>
void row(const char* name) {
  std::printf("sm_80,%s,%d\n", name, int(hub<Key, Value>::Policy800::OnesweepPolicy::ITEMS_PER_THREAD));
  std::printf("sm_90,%s,%d\n", name, int(hub<Key, Value>::Policy900::OnesweepPolicy::ITEMS_PER_THREAD));
}

}  // namespace

// External linkage, so that no compiler drops the instantiations as unused.
void ringsweep_sass_instantiate(void* t, std::size_t& b, int n) {
  keys<u32>(t, b, n);
  keys<std::int32_t>(t, b, n);
  keys<float>(t, b, n);
  keys<u64>(t, b, n);
  keys<__int128>(t, b, n);
  pairs<u32, u32>(t, b, n);
  pairs<u64, u32>(t, b, n);
}

int main() {
  std::printf("arch,case,items\n");
  row<u32, cub::NullType>("keys_u32");
  row<std::int32_t, cub::NullType>("keys_i32");
  row<float, cub::NullType>("keys_f32");
  row<u64, cub::NullType>("keys_u64");
  row<__int128, cub::NullType>("keys_i128");
  row<u32, u32>("pairs_u32_u32");
  row<u64, u32>("pairs_u64_u32");
  return 0;
}
