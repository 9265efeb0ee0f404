// One translation unit that instantiates the kernels of both ringsweep and CUB's onesweep radix
// sort for the report's cases, so that ONE nvcc build (`-Xptxas -v`, one -gencode per
// architecture) gives the registers, shared memory and spills of every kernel side by side.
//
// The device code is never run. `main` only prints, as CSV on stdout, what the host side knows at
// compile time: launch shapes (threads per block, items per thread) of both libraries per
// architecture, the CCCL version, and CUB onesweep's temporary storage for a given n, computed
// with CUB's own layout (DispatchRadixSort::InvokeOnesweep + AliasTemporaries) and CUB's policy
// constants. No CUDA runtime call is made: it runs on a machine without a GPU.
//
//     kernel_resources shapes        # arch,library,case,kernel,threads,items
//     kernel_resources cub_temp      # case,arch,offset_bits,form,n,bytes   for n = 2^16..2^32
//     kernel_resources version       # CCCL_VERSION

#include <ringsweep/ringsweep.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- instantiation: never called, only compiled ---------------------------------------------------
// The public entry points of both libraries instantiate exactly the kernels a real sort launches
// (ringsweep: both architecture policies, chosen at run time; CUB: its onesweep dispatch, with
// `int` num_items, i.e. 32-bit offsets, CUB's most common and fastest configuration).

template <class Key>
void instantiate_keys(void* t, std::size_t& b, const Key* in, Key* out, int n) {
  (void)ringsweep::sort_keys(t, b, in, out, std::size_t(n));
  (void)cub::DeviceRadixSort::SortKeys(t, b, in, out, n);
}

template <class Key, class Value>
void instantiate_pairs(void* t, std::size_t& b, const Key* kin, Key* kout, const Value* vin, Value* vout, int n) {
  (void)ringsweep::sort_pairs(t, b, kin, kout, vin, vout, std::size_t(n));
  (void)cub::DeviceRadixSort::SortPairs(t, b, kin, kout, vin, vout, n);
}

}  // namespace

// External linkage, so that no compiler drops the instantiations as unused.
void ringsweep_report_instantiate(void* t, std::size_t& b, int n) {
  instantiate_keys<u32>(t, b, nullptr, nullptr, n);
  instantiate_keys<u64>(t, b, nullptr, nullptr, n);
  instantiate_keys<float>(t, b, nullptr, nullptr, n);
  instantiate_pairs<u32, u32>(t, b, nullptr, nullptr, nullptr, nullptr, n);
}

namespace {

// ---- the report's cases ---------------------------------------------------------------------------

template <class Key, class Value, bool HasValues>
struct report_case {
  using key_type = Key;
  using value_type = Value;  // cub::NullType for keys only
  static constexpr bool has_values = HasValues;
};

using keys_u32 = report_case<u32, cub::NullType, false>;
using keys_u64 = report_case<u64, cub::NullType, false>;
using keys_f32 = report_case<float, cub::NullType, false>;
using pairs_u32_u32 = report_case<u32, u32, true>;

// ---- launch shapes --------------------------------------------------------------------------------

template <class Case, class CubPolicy, class RsPolicy>
void print_shapes(const char* arch, const char* name) {
  using onesweep = typename CubPolicy::OnesweepPolicy;
  using histogram = typename CubPolicy::HistogramPolicy;
  using exclusive_sum = typename CubPolicy::ExclusiveSumPolicy;
  std::printf("%s,cub,%s,onesweep,%d,%d\n", arch, name, int(onesweep::BLOCK_THREADS), int(onesweep::ITEMS_PER_THREAD));
  std::printf("%s,cub,%s,histogram,%d,%d\n", arch, name, int(histogram::BLOCK_THREADS),
              int(histogram::ITEMS_PER_THREAD));
  std::printf("%s,cub,%s,exclusive_sum,%d,%d\n", arch, name, int(exclusive_sum::BLOCK_THREADS), 1);

  using key = typename Case::key_type;
  using bits = typename ringsweep::key_traits<key>::bits_type;
  constexpr int value_bytes = Case::has_values ? int(sizeof(typename Case::value_type)) : 0;
  using shape = ringsweep::detail::tile_shape<RsPolicy, int(sizeof(bits)), value_bytes>;
  std::printf("%s,ringsweep,%s,onesweep,%d,%d\n", arch, name, int(shape::THREADS), int(shape::ITEMS));
  std::printf("%s,ringsweep,%s,histogram,%d,%d\n", arch, name, int(RsPolicy::HIST_THREADS), int(RsPolicy::HIST_ITEMS));
  std::printf("%s,ringsweep,%s,bins_scan,%d,%d\n", arch, name, int(ringsweep::detail::bins_scan_threads), 1);
  std::printf("%s,ringsweep,%s,small_sort,%d,%d\n", arch, name, int(shape::THREADS), int(shape::ITEMS));
}

template <class Case, class Offset>
using cub_hub = cub::detail::radix::policy_hub<typename Case::key_type, typename Case::value_type, Offset>;

template <class Case>
void print_case_shapes(const char* name) {
  print_shapes<Case, typename cub_hub<Case, u32>::Policy800, ringsweep::policy_sm80>("sm_80", name);
  print_shapes<Case, typename cub_hub<Case, u32>::Policy900, ringsweep::policy_sm90>("sm_90", name);
}

// ---- CUB onesweep temporary storage ---------------------------------------------------------------
// Mirrors DispatchRadixSort::InvokeOnesweep (cub/device/dispatch/dispatch_radix_sort.cuh):
//   portion      = floor((2^28 - 1) / tile) * tile      keys per onesweep launch
//   portions     = ceil(n / portion)
//   blocks       = ceil(min(n, portion) / tile)          tiles of one portion
//   pieces       = { bins:       portions * passes * 2^RADIX_BITS * sizeof(Offset),
//                    look-back:  blocks * 2^RADIX_BITS * 4,
//                    keys alt:   in/out form with passes > 1 ? n * sizeof(Key) : 0,
//                    values alt: same, n * sizeof(Value) for pairs,
//                    counters:   portions * passes * 4 }
//   temp bytes   = sum(round_up(piece, 256)) + 255         (AliasTemporaries)

constexpr std::size_t round256(std::size_t x) { return (x + 255) / 256 * 256; }

template <class Case, class Policy, class Offset>
unsigned long long cub_onesweep_temp(unsigned long long n, bool double_buffer) {
  using key = typename Case::key_type;
  constexpr int radix_bits = Policy::ONESWEEP_RADIX_BITS;
  constexpr unsigned long long digits = 1ull << radix_bits;
  constexpr unsigned long long tile =
      (unsigned long long)Policy::OnesweepPolicy::ITEMS_PER_THREAD * Policy::OnesweepPolicy::BLOCK_THREADS;
  constexpr unsigned long long portion = ((1ull << 28) - 1) / tile * tile;
  const unsigned long long passes = (sizeof(key) * 8 + radix_bits - 1) / radix_bits;
  const unsigned long long portions = (n + portion - 1) / portion;
  const unsigned long long blocks = ((n < portion ? n : portion) + tile - 1) / tile;
  const unsigned long long value_size = Case::has_values ? sizeof(typename Case::value_type) : 0;
  const bool alt = !double_buffer && passes > 1;
  const unsigned long long pieces[] = {
      portions * passes * digits * sizeof(Offset),
      blocks * digits * sizeof(int),
      alt ? n * sizeof(key) : 0,
      alt ? n * value_size : 0,
      portions * passes * sizeof(int),
  };
  unsigned long long bytes = 0;
  for (unsigned long long p : pieces) bytes += round256(p);
  return bytes + 255;
}

template <class Case, class Offset>
void print_cub_temp_arch(const char* name, int offset_bits) {
  for (int log_n = 16; log_n <= 32; ++log_n) {
    const unsigned long long n = 1ull << log_n;
    // 32-bit offsets (num_items of 4 bytes) cannot count 2^32 keys.
    if (sizeof(Offset) == 4 && n > 0xffffffffull) continue;
    for (int db = 0; db < 2; ++db) {
      const char* form = db ? "double_buffer" : "in_out";
      std::printf("%s,sm_80,%d,%s,%llu,%llu\n", name, offset_bits, form, n,
                  cub_onesweep_temp<Case, typename cub_hub<Case, Offset>::Policy800, Offset>(n, db != 0));
      std::printf("%s,sm_90,%d,%s,%llu,%llu\n", name, offset_bits, form, n,
                  cub_onesweep_temp<Case, typename cub_hub<Case, Offset>::Policy900, Offset>(n, db != 0));
    }
  }
}

template <class Case>
void print_cub_temp(const char* name) {
  print_cub_temp_arch<Case, u32>(name, 32);
  print_cub_temp_arch<Case, unsigned long long>(name, 64);
}

int usage() {
  std::fprintf(stderr, "usage: kernel_resources shapes|cub_temp|version\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return usage();
  if (std::strcmp(argv[1], "version") == 0) {
    std::printf("%d\n", int(CCCL_VERSION));
    return 0;
  }
  if (std::strcmp(argv[1], "shapes") == 0) {
    std::printf("arch,library,case,kernel,threads,items\n");
    print_case_shapes<keys_u32>("keys_u32");
    print_case_shapes<keys_u64>("keys_u64");
    print_case_shapes<keys_f32>("keys_f32");
    print_case_shapes<pairs_u32_u32>("pairs_u32_u32");
    return 0;
  }
  if (std::strcmp(argv[1], "cub_temp") == 0) {
    std::printf("case,arch,offset_bits,form,n,bytes\n");
    print_cub_temp<keys_u32>("keys_u32");
    print_cub_temp<keys_u64>("keys_u64");
    print_cub_temp<keys_f32>("keys_f32");
    print_cub_temp<pairs_u32_u32>("pairs_u32_u32");
    return 0;
  }
  return usage();
}
