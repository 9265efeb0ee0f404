// Segment offsets as iterators: the segmented sorts (ringsweep's names and CUB's) take any
// random-access iterator for the begin and end offsets, as CUB's do, copied by value into the
// classification kernel and read there only. Offsets given as pointers (non-const ones too), a
// counting iterator (rows of one size), a transform of one (rows of mixed sizes with gaps) and a
// user's own `begin + i * K` iterator beside a pointer of another offset type; each through the
// native and the CUB names (keys, pairs, double buffers), against std::stable_sort per segment,
// with positions outside every segment unwritten. Sizes cross the device policy's classes (tiny:
// at most 128 keys, small: at most one 9216-key u32 tile, large beyond). One key and one value
// type keep the sort kernels to two sets: the iterators change only the classification.
#if defined(SEGMENTED_OFFSETS_COMPILE_FAIL)
// Compile-fail cases (tests/sort/CMakeLists.txt: segmented_offsets_*_compile_fail): each must stop
// at the static assertion of segment_offsets.
#include <cstddef>
#include <ringsweep/ringsweep.cuh>

struct float_offsets {  // offsets of a floating-point type
  __host__ __device__ float operator[](std::ptrdiff_t i) const { return float(i); }
};
struct copy_counting_offsets {  // not trivially copyable
  int copies = 0;
  copy_counting_offsets() = default;
  copy_counting_offsets(const copy_counting_offsets& o) : copies(o.copies + 1) {}
  __host__ __device__ int operator[](std::ptrdiff_t i) const { return int(i); }
};
#if SEGMENTED_OFFSETS_COMPILE_FAIL == 1
using bad_offsets = float_offsets;
#else
using bad_offsets = copy_counting_offsets;
#endif
int main() {
  std::size_t bytes = 0;
  return int(ringsweep::segmented_sort_keys(nullptr, bytes, static_cast<const int*>(nullptr),
                                            static_cast<int*>(nullptr), 8, 2, bad_offsets{}, bad_offsets{}));
}
#else
#include <catch2/catch.hpp>

#include <ringsweep/cub.cuh>
#include <ringsweep/ringsweep.cuh>

#if defined(RINGSWEEP_VARIANT_GPU)
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- iterators -------------------------------------------------------------------------------------

/// A counting iterator (as cuda::counting_iterator): `first + i * step`.
template <class T>
struct counting {
  T first;
  T step;
  __host__ __device__ T operator[](std::ptrdiff_t i) const { return T(first + T(i) * step); }
  __host__ __device__ T operator*() const { return first; }
  __host__ __device__ counting operator+(std::ptrdiff_t i) const { return {T(first + T(i) * step), step}; }
};

/// A transform iterator (as cuda::transform_iterator): `f(it[i])`.
template <class It, class F>
struct transform {
  It it;
  F f;
  __host__ __device__ auto operator[](std::ptrdiff_t i) const { return f(it[i]); }
  __host__ __device__ auto operator*() const { return f(*it); }
  __host__ __device__ transform operator+(std::ptrdiff_t i) const { return {it + i, f}; }
};

/// Row sizes crossing every class of the device policy: empty, one key (copied), tiny, tiny's
/// edge and one more, small, a tile and one more (large), short; rows start every `STRIDE` keys,
/// so each is followed by a gap.
constexpr int ROWS = 10;
constexpr long long STRIDE = 9300;
struct row_sizes {
  int size[ROWS] = {3000, 0, 1, 7, 128, 129, 9216, 9217, 200, 5};
};
/// Where row i starts or ends: `i * STRIDE`, plus its size for an end (a functor of a transform).
struct row_edge {
  bool end;
  row_sizes sizes;
  __host__ __device__ long long operator()(int row) const { return row * STRIDE + (end ? sizes.size[row % ROWS] : 0); }
};

/// A user's own iterator, `begin + i * K` of 64-bit unsigned offsets (clients pass such instead of
/// an offsets array).
struct strided_begin {
  u64 begin;
  u64 k;
  __host__ __device__ u64 operator[](std::ptrdiff_t i) const { return begin + u64(i) * k; }
  __host__ __device__ u64 operator*() const { return begin; }
  __host__ __device__ strided_begin operator+(std::ptrdiff_t i) const { return {begin + u64(i) * k, k}; }
};

// ---- CUB's signatures, with iterators ---------------------------------------------------------------

using it_keys_fn = cudaError_t (*)(void*, std::size_t&, const u32*, u32*, int, int, counting<int>, strided_begin, int,
                                   int, cudaStream_t);
using it_stable_pairs_db_fn = cudaError_t (*)(void*, std::size_t&, ringsweep::DoubleBuffer<u32>&,
                                              ringsweep::DoubleBuffer<u32>&, int, int, strided_begin, const long long*,
                                              cudaStream_t);
[[maybe_unused]] constexpr it_keys_fn it_keys =
    &ringsweep::DeviceSegmentedRadixSort::SortKeys<u32, int, int, counting<int>, strided_begin>;
[[maybe_unused]] constexpr it_stable_pairs_db_fn it_stable_pairs_db =
    &ringsweep::DeviceSegmentedSort::StableSortPairs<ringsweep::DoubleBuffer, ringsweep::DoubleBuffer, u32, u32, int,
                                                     int, strided_begin, const long long*>;

// ---- the check ---------------------------------------------------------------------------------------

/// The segments' host view (for the reference), as the iterators give them.
struct segments_view {
  std::size_t n = 0;
  std::vector<long long> begin, end;
};

/// Per position, the input index whose key (and value) lands there; ~0 where no segment is.
std::vector<std::size_t> expected(const std::vector<u32>& keys, const segments_view& s, bool descending) {
  std::vector<std::size_t> from(keys.size(), ~std::size_t(0));
  ringsweep::sort_options opts;
  opts.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  for (std::size_t i = 0; i < s.begin.size(); ++i) {
    const long long b = s.begin[i], e = s.end[i];
    if (!(b < e) || b < 0 || std::size_t(e) > keys.size()) continue;
    const std::vector<u32> part(keys.begin() + b, keys.begin() + e);
    const auto order = ringsweep_test::reference_order(part, opts);
    for (std::size_t j = 0; j < order.size(); ++j) from[std::size_t(b) + j] = std::size_t(b) + order[j];
  }
  return from;
}

/// The forms run for each kind of offsets: ringsweep's in/out keys and pairs and double-buffer
/// pairs, CUB's radix in/out pairs and keys descending, and DeviceSegmentedSort's double-buffer
/// StableSortPairs and SortKeysDescending.
constexpr int FORMS = 7;
const char* const form_names[FORMS] = {"segmented_sort_keys",
                                       "segmented_sort_pairs descending",
                                       "segmented_sort_pairs (double_buffer)",
                                       "DeviceSegmentedRadixSort::SortPairs",
                                       "DeviceSegmentedRadixSort::SortKeysDescending",
                                       "DeviceSegmentedSort::StableSortPairs (DoubleBuffer)",
                                       "DeviceSegmentedSort::SortKeysDescending (DoubleBuffer)"};

/// Every form with the offsets `(b, e)`, whose host view is `s`; keys and values are checked in
/// every segment, and the result buffers hold their 0xAB poison everywhere else.
template <class BeginIt, class EndIt>
void check_forms(const segments_view& s, BeginIt b, EndIt e, std::uint64_t seed) {
  const std::size_t n = s.n;
  const int num = int(s.begin.size());
  const auto keys = ringsweep_test::make_keys<u32>(n, ringsweep_test::distribution::few_distinct, seed);
  std::vector<u32> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = u32(i);
  for (int form = 0; form < FORMS; ++form) {
    INFO(form_names[form]);
    const bool descending = form == 1 || form == 4 || form == 6;
    const bool pairs = form == 1 || form == 2 || form == 3 || form == 5;
    const bool buffers = form == 2 || form == 5 || form == 6;
    ringsweep_test::device_buffer<u32> kin(keys), kout(n), vin(index), vout(n);
    kout.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
    ringsweep::double_buffer<u32> nk(kin.data(), kout.data()), nv(vin.data(), vout.data());
    ringsweep::DoubleBuffer<u32> ck(kin.data(), kout.data()), cv(vin.data(), vout.data());
    ringsweep::sort_options desc;
    desc.order = ringsweep::sort_order::descending;
    std::size_t bytes = 0;
    const auto sort = [&](void* temp) -> cudaError_t {
      switch (form) {
        case 0:
          return ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), n, s.begin.size(), b, e);
        case 1:
          return ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                                 s.begin.size(), b, e, desc);
        case 2:
          return ringsweep::segmented_sort_pairs(temp, bytes, nk, nv, n, s.begin.size(), b, e);
        case 3:
          return ringsweep::DeviceSegmentedRadixSort::SortPairs(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                                vout.data(), int(n), num, b, e);
        case 4:
          return ringsweep::DeviceSegmentedRadixSort::SortKeysDescending(temp, bytes, kin.data(), kout.data(), int(n),
                                                                         num, b, e);
        case 5:
          return ringsweep::DeviceSegmentedSort::StableSortPairs(temp, bytes, ck, cv, int(n), num, b, e);
        default:
          return ringsweep::DeviceSegmentedSort::SortKeysDescending(temp, bytes, ck, int(n), num, b, e);
      }
    };
    REQUIRE_CUDA(sort(nullptr));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(sort(temp.data()));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    if (buffers) {  // the result is in the alternate buffers (kout, vout), the selectors flipped
      REQUIRE((form == 2 ? nk.selector : ck.selector) == 1);
      if (pairs) REQUIRE((form == 2 ? nv.selector : cv.selector) == 1);
    } else {
      REQUIRE(ringsweep_test::same_keys(kin.download(), keys));
    }
    const auto from = expected(keys, s, descending);
    const auto got_keys = kout.download();
    const auto got_values = vout.download();
    for (std::size_t i = 0; i < n; ++i) {
      INFO("position " << i);
      const bool outside = from[i] == ~std::size_t(0);
      REQUIRE(got_keys[i] == (outside ? 0xABABABABu : keys[from[i]]));
      if (pairs) REQUIRE(got_values[i] == (outside ? 0xABABABABu : u32(from[i])));
    }
  }
}

/// The rows of row_sizes at `i * STRIDE` over `n` keys (the last one reaches past `n` when `n` ends
/// within it: ignored).
segments_view mixed_rows(std::size_t n) {
  segments_view s;
  s.n = n;
  const row_edge begins{false, {}}, ends{true, {}};
  for (int i = 0; i < ROWS; ++i) {
    s.begin.push_back(begins(i));
    s.end.push_back(ends(i));
  }
  return s;
}

}  // namespace

TEST_CASE("Segment offsets as pointers, const or not", "[sort][segmented][offsets]") {
  const segments_view s = mixed_rows(std::size_t(9 * STRIDE + 2));  // row 9 [83700, 83705) reaches past n
  std::vector<int> begin(s.begin.begin(), s.begin.end()), end(s.end.begin(), s.end.end());
  ringsweep_test::device_buffer<int> b(begin), e(end);
  check_forms(s, static_cast<const int*>(b.data()), static_cast<const int*>(e.data()), 21);
  check_forms(s, b.data(), e.data(), 22);  // int*: the same kernels as const int*
}

TEST_CASE("Segment offsets as counting iterators: rows of one size", "[sort][segmented][offsets]") {
  // Rows of K keys back to back, row i being [i * K, (i + 1) * K): tiny, small and large rows.
  for (int k : {5, 300, 9217}) {
    const int rows = k > 9216 ? 3 : 40;
    INFO(rows << " rows of " << k);
    segments_view s;
    s.n = std::size_t(rows) * std::size_t(k);
    for (int i = 0; i < rows; ++i) {
      s.begin.push_back(i * (long long)k);
      s.end.push_back((i + 1) * (long long)k);
    }
    check_forms(s, counting<int>{0, k}, counting<int>{k, k}, 30 + std::uint64_t(k));
  }
}

TEST_CASE("Segment offsets as transform iterators: rows of mixed sizes with gaps", "[sort][segmented][offsets]") {
  const segments_view s = mixed_rows(std::size_t(9 * STRIDE + 2));
  const transform<counting<int>, row_edge> begin{{0, 1}, {false, {}}}, end{{0, 1}, {true, {}}};
  check_forms(s, begin, end, 41);
}

TEST_CASE("Segment offsets as a user's begin + i * K iterator beside a pointer", "[sort][segmented][offsets]") {
  // Begins from a strided_begin (64-bit unsigned), ends from a pointer to long long: two iterator
  // types, two offset types. The keys between rows (and after the last one) stay untouched.
  const segments_view s = mixed_rows(std::size_t(10 * STRIDE));
  REQUIRE(*(strided_begin{5, 7} + 2) == 19);  // an iterator: * and + as [], which the sort reads
  ringsweep_test::device_buffer<long long> e(s.end);
  check_forms(s, strided_begin{0, u64(STRIDE)}, static_cast<const long long*>(e.data()), 51);
}

TEST_CASE("Segment offsets: a null pointer beside an iterator is invalid, nothing written",
          "[sort][segmented][offsets][errors]") {
  const std::size_t n = 1000;
  const auto keys = ringsweep_test::make_keys<u32>(n, ringsweep_test::distribution::uniform, 61);
  ringsweep_test::device_buffer<u32> kin(keys), kout(n);
  kout.fill_bytes(0xAB);
  const auto before = kout.download();
  const counting<int> rows{0, 100};
  const int* no_offsets = nullptr;
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::segmented_sort_keys(nullptr, bytes, kin.data(), kout.data(), n, 9, rows, rows + 1));
  ringsweep_test::device_bytes temp(bytes);
  CHECK(ringsweep::segmented_sort_keys(temp.data(), bytes, kin.data(), kout.data(), n, 9, no_offsets, rows + 1) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::DeviceSegmentedRadixSort::SortKeys(temp.data(), bytes, kin.data(), kout.data(), int(n), 9, rows,
                                                      no_offsets) == cudaErrorInvalidValue);
  ringsweep::DoubleBuffer<u32> db(kin.data(), kout.data());
  CHECK(ringsweep::DeviceSegmentedSort::SortKeys(temp.data(), bytes, db, int(n), 9, no_offsets, rows + 1) ==
        cudaErrorInvalidValue);
  CHECK(db.selector == 0);
  // No segments: null offsets are fine, and nothing is sorted.
  CHECK(ringsweep::segmented_sort_keys(temp.data(), bytes, kin.data(), kout.data(), n, 0, no_offsets, no_offsets) ==
        cudaSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(ringsweep_test::same_keys(kout.download(), before));
  REQUIRE(ringsweep_test::same_keys(kin.download(), keys));
}

#if defined(RINGSWEEP_VARIANT_GPU)
namespace {
struct times_k {
  int k;
  __host__ __device__ int operator()(int i) const { return i * k; }
};
}  // namespace

TEST_CASE("Segment offsets as thrust's counting and transform iterators", "[sort][segmented][offsets]") {
  // Rows of 300 keys (small) from thrust's iterators, as CUB's users pass them.
  segments_view s;
  s.n = 40 * 300;
  for (int i = 0; i < 40; ++i) {
    s.begin.push_back(i * 300);
    s.end.push_back((i + 1) * 300);
  }
  const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), times_k{300});
  check_forms(s, begin, begin + 1, 71);
}
#endif

#endif  // SEGMENTED_OFFSETS_COMPILE_FAIL
