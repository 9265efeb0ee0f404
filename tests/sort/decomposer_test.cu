// Custom keys sorted through a decomposer: every sort form against std::stable_sort on the
// concatenation of the fields' order-preserving images (a lexicographic comparator on the images
// for whole keys), with bit windows inside one field and across two, both orders, padding bytes
// that must travel untouched, float specials inside a struct, and sizes across tile, portion and
// status-buffer-wrap edges of the tiny test policies.
#if defined(DECOMPOSER_COMPILE_FAIL)
// Compile-fail cases (tests/sort/CMakeLists.txt: decomposer_*_compile_fail): each must stop at
// exactly one static assertion of the decomposer API.
#include <ringsweep/ringsweep.cuh>

#include <tuple>

struct plain_key {
  int a;
  bool b;
};
struct copy_counting_key {  // not trivially copyable
  int a;
  copy_counting_key() : a(0) {}
  copy_counting_key(const copy_counting_key& o) : a(o.a) {}
};
#if DECOMPOSER_COMPILE_FAIL == 1
using bad_key = plain_key;
struct decomposer_t {  // returns a reference, not a tuple
  int& operator()(plain_key& k) const { return k.a; }
};
#elif DECOMPOSER_COMPILE_FAIL == 2
using bad_key = plain_key;
struct decomposer_t {  // a bool field
  std::tuple<int&, bool&> operator()(plain_key& k) const { return {k.a, k.b}; }
};
#else
using bad_key = copy_counting_key;
struct decomposer_t {
  std::tuple<int&> operator()(copy_counting_key& k) const { return {k.a}; }
};
#endif
int main() {
  std::size_t bytes = 0;
  bad_key* keys = nullptr;
  return int(ringsweep::sort_keys(nullptr, bytes, keys, keys, 10, decomposer_t{}));
}
#else
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "sort_test_util.cuh"

#if defined(RINGSWEEP_SIMT_BACKEND)
#include <ringsweep_simt/control.hpp>  // traffic counts: the SIMT backend only
#endif

#if defined(__has_include)
#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define TEST_HAS_CUDA_STD_TUPLE 1
#endif
#endif

namespace {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;
using u128 = unsigned __int128;

// CUB's tuple where libcu++ is available (nvcc), std::tuple where it is not (the SIMT backend).
#ifdef TEST_HAS_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif
template <class... T>
using tuple_t = tup::tuple<T...>;

struct fi_key {  // 16 bytes: 4 bytes of padding after f
  float f;
  i64 i;
};
struct fi_dec {
  __host__ __device__ tuple_t<float&, i64&> operator()(fi_key& k) const { return {k.f, k.i}; }
};

struct uu_key {
  u32 hi, lo;
};
struct uu_dec {
  __host__ __device__ tuple_t<u32&, u32&> operator()(uu_key& k) const { return {k.hi, k.lo}; }
};

struct mixed_key {  // 8 bytes: one byte of padding after a
  u8 a;
  u16 b;
  u32 c;
};
struct mixed_dec {
  __host__ __device__ tuple_t<u8&, u16&, u32&> operator()(mixed_key& k) const { return {k.a, k.b, k.c}; }
};

struct d_key {
  double d;
};
struct d_dec {
  __host__ __device__ tuple_t<double&> operator()(d_key& k) const { return {k.d}; }
};

// Keys of odd sizes with naturally aligned fields: a packed struct would bind references to
// misaligned fields (undefined behaviour, and a misaligned-address fault on a GPU).
struct packed_key {  // 12 bytes, 4-byte aligned: moved as three 32-bit words
  float f;
  u32 u;
  u32 w;
};
struct packed_dec {
  __host__ __device__ tuple_t<float&, u32&, u32&> operator()(packed_key& k) const { return {k.f, k.u, k.w}; }
};

struct straddle_key {  // 16 bytes; the decomposer orders (a, d, b), so d's image straddles bit 64
  double d;
  u32 a;
  u32 b;
};
struct straddle_dec {
  __host__ __device__ tuple_t<u32&, double&, u32&> operator()(straddle_key& k) const { return {k.a, k.d, k.b}; }
};

struct tiny_key {  // 3 bytes, byte aligned; the decomposer names the fields in reverse order
  u8 lo;
  u8 mid;
  u8 hi;
};
struct tiny_dec {
  __host__ __device__ tuple_t<u8&, u8&, u8&> operator()(tiny_key& k) const { return {k.hi, k.mid, k.lo}; }
};

/// A decomposer with state (no default constructor): sorts uu_key by one field or the other.
struct pick_dec {
  int which;
  explicit pick_dec(int w) : which(w) {}
  __host__ __device__ tuple_t<u32&> operator()(uu_key& k) const { return {which == 0 ? k.hi : k.lo}; }
};

static_assert(sizeof(packed_key) == 12 && sizeof(tiny_key) == 3 && sizeof(fi_key) == 16, "test key layouts");

// ---- host reference ---------------------------------------------------------------------------

template <class F>
u64 field_image(F f) {
  return ringsweep_test::sort_key(f, ringsweep::sort_options{});
}

template <class Tuple, std::size_t... I>
u128 concat_images(Tuple t, std::index_sequence<I...>) {
  u128 img = 0;
  ((img = (img << (8 * sizeof(typename std::remove_reference<decltype(tup::get<I>(t))>::type))) |
          field_image(tup::get<I>(t))),
   ...);
  return img;
}

/// The key's concatenated image, first field most significant, and its width in bits.
template <class Key, class Dec>
u128 image_of(Key k, Dec dec, int& bits) {
  auto t = dec(k);
  constexpr std::size_t N = tup::tuple_size<decltype(t)>::value;
  bits = 0;
  tup::apply([&](auto&... f) { ((bits += int(8 * sizeof(f))), ...); }, t);
  return concat_images(t, std::make_index_sequence<N>{});
}

/// The stable order of `keys` by bits [begin_bit, end_bit) of their (complemented, descending)
/// images.
template <class Key, class Dec>
std::vector<std::size_t> reference_order(const std::vector<Key>& keys, Dec dec, ringsweep::sort_options o) {
  std::vector<u128> sk(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    int bits = 0;
    u128 img = image_of(keys[i], dec, bits);
    if (o.order == ringsweep::sort_order::descending) img = ~img;
    const int end = o.end_bit < 0 ? bits : o.end_bit;
    const int width = end - o.begin_bit;
    img >>= o.begin_bit;
    sk[i] = width <= 0 ? 0 : width >= 128 ? img : img & ((u128(1) << width) - 1);
  }
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sk[a] < sk[b]; });
  return order;
}

template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class Key>
long long first_mismatch(const std::vector<Key>& got, const std::vector<Key>& keys,
                         const std::vector<std::size_t>& order) {
  if (got.size() != order.size()) return 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!same_bytes(got[i], keys[order[i]])) return (long long)i;
  }
  return -1;
}

template <class Value>
long long first_value_mismatch(const std::vector<Value>& got, const std::vector<std::size_t>& order) {
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!same_bytes(got[i], ringsweep_test::value_of_index<Value>(order[i]))) return (long long)i;
  }
  return -1;
}

// ---- generators -------------------------------------------------------------------------------

float special_float(std::mt19937_64& rng) {
  static const float pool[] = {0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                               -std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(), 2.5f, -2.5f};
  if (rng() % 2 == 0) return pool[rng() % (sizeof(pool) / sizeof(pool[0]))];
  u32 b = u32(rng());
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// Keys with random bytes everywhere (padding too), then fields from small ranges (ties) or
/// specials.
template <class Key>
std::vector<Key> make_keys(std::size_t n, u64 seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  for (auto& k : keys) {
    unsigned char bytes[sizeof(Key)];
    for (auto& b : bytes) b = (unsigned char)rng();
    std::memcpy(static_cast<void*>(&k), bytes, sizeof(Key));
    if constexpr (std::is_same<Key, fi_key>::value || std::is_same<Key, packed_key>::value) {
      k.f = special_float(rng);
      if (rng() % 2) {
        if constexpr (std::is_same<Key, fi_key>::value) k.i = i64(rng() % 7) - 3;
        if constexpr (std::is_same<Key, packed_key>::value) k.u = rng() % 5;
      }
    } else if constexpr (std::is_same<Key, uu_key>::value) {
      k.hi = u32(rng() % 9);
    } else if constexpr (std::is_same<Key, mixed_key>::value) {
      k.a = u8(rng() % 3);
      if (rng() % 2) k.b = u16(rng() % 4);
    } else if constexpr (std::is_same<Key, d_key>::value) {
      if (rng() % 3 == 0) k.d = rng() % 2 ? -0.0 : 0.0;
      if (rng() % 5 == 0) k.d = std::numeric_limits<double>::quiet_NaN();
    } else if constexpr (std::is_same<Key, straddle_key>::value) {
      k.a = u32(rng() % 3);
      if (rng() % 2) k.d = double(int(rng() % 5) - 2);
    } else if constexpr (std::is_same<Key, tiny_key>::value) {
      k.hi = u8(rng() % 3);
    }
  }
  return keys;
}

// ---- every form -------------------------------------------------------------------------------

/// Sorts `keys` with `Policy` through every form (keys only; pairs with 4- and 8-byte values) and
/// checks each against the reference.
template <class Policy, class Key, class Dec>
void check_all_forms(const std::vector<Key>& keys, Dec dec, ringsweep::sort_options o) {
  const std::size_t n = keys.size();
  INFO("n " << n << ", " << ringsweep_test::order_name(o) << ", bits [" << o.begin_bit << ", " << o.end_bit << ")");
  const auto order = reference_order(keys, dec, o);
  namespace rt = ringsweep::tuning;
  using ringsweep_test::device_buffer;
  using ringsweep_test::device_bytes;

  {  // in/out keys
    device_buffer<Key> in(keys), out(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(rt::sort_keys<Policy>(nullptr, bytes, (const Key*)nullptr, (Key*)nullptr, n, dec, o));
    device_bytes temp(bytes);
    REQUIRE_CUDA(rt::sort_keys<Policy>(temp.data(), bytes, in.data(), out.data(), n, dec, o));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    INFO("in/out keys");
    REQUIRE(first_mismatch(out.download(), keys, order) == -1);
    REQUIRE(first_mismatch(in.download(), keys, [&] {
              std::vector<std::size_t> id(n);
              std::iota(id.begin(), id.end(), std::size_t(0));
              return id;
            }()) == -1);
  }
  const auto pairs_in_out = [&](auto value_tag) {
    using Value = decltype(value_tag);
    std::vector<Value> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<Value>(i);
    device_buffer<Key> kin(keys), kout(n);
    device_buffer<Value> vin(values), vout(n);
    std::size_t bytes = 0;
    REQUIRE_CUDA(rt::sort_pairs<Policy>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, dec, o));
    device_bytes temp(bytes);
    REQUIRE_CUDA(
        rt::sort_pairs<Policy>(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, dec, o));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    INFO("in/out pairs, value bytes " << sizeof(Value));
    REQUIRE(first_mismatch(kout.download(), keys, order) == -1);
    REQUIRE(first_value_mismatch(vout.download(), order) == -1);
  };
  pairs_in_out(u32{});
  pairs_in_out(u64{});
  {  // double-buffer keys and pairs
    std::vector<u64> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<u64>(i);
    for (int with_values = 0; with_values < 2; ++with_values) {
      device_buffer<Key> k0(keys), k1(n);
      device_buffer<u64> v0(values), v1(n);
      ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
      ringsweep::double_buffer<u64> vb(v0.data(), v1.data());
      std::size_t bytes = 0;
      const auto sort = [&](void* t) {
        return with_values ? rt::sort_pairs<Policy>(t, bytes, kb, vb, n, dec, o)
                           : rt::sort_keys<Policy>(t, bytes, kb, n, dec, o);
      };
      REQUIRE_CUDA(sort(nullptr));
      device_bytes temp(bytes);
      REQUIRE_CUDA(sort(temp.data()));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      INFO("double buffer, values " << with_values << ", selector " << kb.selector);
      REQUIRE(first_mismatch((kb.selector == 0 ? k0 : k1).download(), keys, order) == -1);
      if (with_values) {
        REQUIRE(vb.selector == kb.selector);
        REQUIRE(first_value_mismatch((vb.selector == 0 ? v0 : v1).download(), order) == -1);
      }
    }
  }
  {  // in place
    std::vector<u32> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<u32>(i);
    device_buffer<Key> k(keys), k2(keys);
    device_buffer<u32> v(values);
    REQUIRE_CUDA(rt::sort_keys<Policy>(k.data(), n, dec, o));
    REQUIRE_CUDA(rt::sort_pairs<Policy>(k2.data(), v.data(), n, dec, o));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    INFO("in place");
    REQUIRE(first_mismatch(k.download(), keys, order) == -1);
    REQUIRE(first_mismatch(k2.download(), keys, order) == -1);
    REQUIRE(first_value_mismatch(v.download(), order) == -1);
  }
}

ringsweep::sort_options window(int begin, int end, bool descending = false) {
  ringsweep::sort_options o;
  o.begin_bit = begin;
  o.end_bit = end;
  o.order = descending ? ringsweep::sort_order::descending : ringsweep::sort_order::ascending;
  return o;
}

template <class Policy, class Key, class Dec>
void check_sizes(Dec dec, const std::vector<ringsweep::sort_options>& windows,
                 std::vector<std::size_t> sizes = {1, 2, 191, 192, 193, 385, 1537, 3001}) {
  for (std::size_t n : sizes) {
    const auto keys = make_keys<Key>(n, ringsweep_test::catch_seed() * 7919 + n);
    for (const auto& o : windows) check_all_forms<Policy>(keys, dec, o);
  }
}

using ringsweep_test::policy_tiny;
using ringsweep_test::policy_tiny_radix5;

/// `keys` in the order the sort wants (stable).
template <class Key, class Dec>
std::vector<Key> sorted_for(const std::vector<Key>& keys, Dec dec, ringsweep::sort_options o) {
  const auto order = reference_order(keys, dec, o);
  std::vector<Key> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = keys[order[i]];
  return out;
}

#if defined(RINGSWEEP_SIMT_BACKEND)
/// Bytes loaded and stored per key by an in/out keys-only sort of `keys` with `Policy`.
template <class Policy, class Key, class Dec>
double bytes_per_key(const std::vector<Key>& keys, Dec dec, ringsweep::sort_options o) {
  const std::size_t n = keys.size();
  ringsweep_test::device_buffer<Key> in(keys), out(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, in.data(), out.data(), n, dec, o));
  ringsweep_test::device_bytes temp(bytes);
  simt::traffic_begin();
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, in.data(), out.data(), n, dec, o));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  unsigned long long moved = 0;
  for (const auto& k : simt::traffic_end()) moved += k.load_bytes + k.store_bytes;
  REQUIRE(first_mismatch(out.download(), keys, reference_order(keys, dec, o)) == -1);
  return double(moved) / double(n);
}
#endif

}  // namespace

TEST_CASE("decomposer: {float, int64} keys, windows inside one field and across both", "[sort][decomposer]") {
  const std::vector<ringsweep::sort_options> windows = {window(0, -1),      window(0, -1, true), window(60, 68),
                                                        window(64, 96, true), window(0, 64),     window(20, 70)};
  check_sizes<policy_tiny, fi_key>(fi_dec{}, windows);
  check_sizes<policy_tiny_radix5, fi_key>(fi_dec{}, {window(0, -1), window(61, 67, true)}, {1, 129, 700});
}

TEST_CASE("decomposer: {u32, u32} and {u8, u16, u32} keys", "[sort][decomposer]") {
  check_sizes<policy_tiny, uu_key>(uu_dec{}, {window(0, -1), window(0, -1, true), window(28, 36)});
  check_sizes<policy_tiny, mixed_key>(mixed_dec{}, {window(0, -1), window(0, -1, true), window(30, 50)});
  check_sizes<policy_tiny_radix5, mixed_key>(mixed_dec{}, {window(0, -1, true)}, {1, 129, 700});
}

TEST_CASE("decomposer: 12-, 16- and 3-byte packed keys", "[sort][decomposer]") {
  check_sizes<policy_tiny, straddle_key>(straddle_dec{}, {window(0, -1), window(0, -1, true), window(60, 68),
                                                          window(90, 100, true)}, {1, 193, 1537});
  check_sizes<policy_tiny, packed_key>(packed_dec{}, {window(0, -1), window(0, -1, true), window(56, 72)},
                                       {1, 193, 1537});
  check_sizes<policy_tiny, tiny_key>(tiny_dec{}, {window(0, -1), window(0, -1, true), window(4, 12)}, {1, 193, 1537});
}

TEST_CASE("decomposer: a stateful decomposer", "[sort][decomposer]") {
  check_sizes<policy_tiny, uu_key>(pick_dec(0), {window(0, -1)}, {193, 1537});
  check_sizes<policy_tiny, uu_key>(pick_dec(1), {window(0, -1, true)}, {193, 1537});
}

TEST_CASE("decomposer: a one-field struct sorts as its built-in key", "[sort][decomposer]") {
  for (std::size_t n : {std::size_t(1), std::size_t(193), std::size_t(3001)}) {
    const auto keys = make_keys<d_key>(n, ringsweep_test::catch_seed() + n);
    std::vector<double> plain(n);
    for (std::size_t i = 0; i < n; ++i) plain[i] = keys[i].d;
    for (const auto& o : {window(0, -1), window(0, -1, true), window(40, 60)}) {
      check_all_forms<policy_tiny>(keys, d_dec{}, o);
      ringsweep_test::device_buffer<d_key> in(keys), out(n);
      ringsweep_test::device_buffer<double> pin(plain), pout(n);
      std::size_t b1 = 0, b2 = 0;
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<policy_tiny>(nullptr, b1, in.data(), out.data(), n, d_dec{}, o));
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<policy_tiny>(nullptr, b2, pin.data(), pout.data(), n, o));
      REQUIRE(b1 == b2);
      ringsweep_test::device_bytes t1(b1), t2(b2);
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<policy_tiny>(t1.data(), b1, in.data(), out.data(), n, d_dec{}, o));
      REQUIRE_CUDA(ringsweep::tuning::sort_keys<policy_tiny>(t2.data(), b2, pin.data(), pout.data(), n, o));
      REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto a = out.download();
      const auto b = pout.download();
      for (std::size_t i = 0; i < n; ++i) REQUIRE(std::memcmp(&a[i].d, &b[i], 8) == 0);
    }
  }
}

// The pad key of a partial onesweep tile (issue #35): every digit of every pass, either direction,
// is the pass's largest, for one-field, multi-field, mixed-width and 96-bit (straddling) images.
template <class Key, class Dec>
void check_pad_digits(int image_bits) {
  using ex = ringsweep::detail::digit_extractor<ringsweep::detail::decomposed_key<Key, Dec>>;
  for (bool descending : {false, true}) {
    for (int width : {1, 5, 8}) {
      for (int shift = 0; shift + width <= image_bits; ++shift) {
        const ex d(Dec{}, descending, shift, width);
        INFO("descending " << descending << ", shift " << shift << ", width " << width);
        REQUIRE(d(d.pad) == d.mask);
      }
    }
  }
}

TEST_CASE("decomposer: sorted input skips every pass", "[sort][decomposer][sorted]") {
  // Keys already in the sort's order (whole key and windows, both orders): the histogram finds
  // them in order on their images, in the word they move as (8-byte {u32, u32} and {u8, u16, u32}
  // keys) or as two words (16-byte {float, int64} and 12-byte {float, u32, u32} keys, 96-bit
  // images), and no pass runs; one key out of place at a lane, warp, histogram-tile,
  // onesweep-tile or portion edge of policy_tiny is still sorted.
  const std::size_t n = 1700;
  const std::size_t edges[] = {0, 1, 31, 32, 127, 128, 191, 192, 1535, 1536, n / 2, n - 2, n - 1};
  const auto uu = make_keys<uu_key>(n, ringsweep_test::catch_seed());
  const auto fi = make_keys<fi_key>(n, ringsweep_test::catch_seed() + 2);
  /// The last key (the largest for the sort) moved to `at`; at the last position, the first key.
  const auto out_of_place = [&](auto keys, std::size_t at) {
    if (at + 1 < n) {
      std::rotate(keys.begin() + std::ptrdiff_t(at), keys.end() - 1, keys.end());
    } else {
      std::rotate(keys.begin(), keys.begin() + 1, keys.end());
    }
    return keys;
  };
  for (const auto& o : {window(0, -1), window(0, -1, true), window(24, 40), window(8, 56, true)}) {
    check_all_forms<policy_tiny>(sorted_for(uu, uu_dec{}, o), uu_dec{}, o);
    check_all_forms<policy_tiny>(sorted_for(make_keys<mixed_key>(n, 5), mixed_dec{}, o), mixed_dec{}, o);
    // Out of place: one window of each direction.
    if (o.order == ringsweep::sort_order::ascending ? o.begin_bit == 0 : o.begin_bit != 0) {
      for (std::size_t at : edges) {
        INFO("key out of place at " << at);
        check_all_forms<policy_tiny>(out_of_place(sorted_for(uu, uu_dec{}, o), at), uu_dec{}, o);
      }
    }
#if defined(RINGSWEEP_SIMT_BACKEND)
    // What a sorted input moves: the histogram's read and the in/out form's copy (8 + 16 bytes a
    // key); the same keys out of order take their passes.
    CHECK(bytes_per_key<policy_tiny>(sorted_for(uu, uu_dec{}, o), uu_dec{}, o) == 24.0);
    if (o.begin_bit == 0) CHECK(bytes_per_key<policy_tiny>(uu, uu_dec{}, o) > 24.0);
#endif
  }
  for (const auto& o : {window(0, -1), window(0, -1, true), window(60, 68), window(20, 90, true), window(70, 96)}) {
    check_all_forms<policy_tiny>(sorted_for(fi, fi_dec{}, o), fi_dec{}, o);
    check_all_forms<policy_tiny>(sorted_for(make_keys<packed_key>(n, 6), packed_dec{}, o), packed_dec{}, o);
    if (o.begin_bit == 20 || (o.begin_bit == 0 && o.order == ringsweep::sort_order::ascending)) {
      for (std::size_t at : {std::size_t(0), std::size_t(127), std::size_t(192), n / 2, n - 1}) {
        INFO("key out of place at " << at);
        check_all_forms<policy_tiny>(out_of_place(sorted_for(fi, fi_dec{}, o), at), fi_dec{}, o);
      }
    }
#if defined(RINGSWEEP_SIMT_BACKEND)
    CHECK(bytes_per_key<policy_tiny>(sorted_for(fi, fi_dec{}, o), fi_dec{}, o) == 48.0);  // 16 + 32
    // Unsorted keys take passes (in a narrow window every digit may be uniform).
    if (o.begin_bit == 0) CHECK(bytes_per_key<policy_tiny>(fi, fi_dec{}, o) > 48.0);
#endif
  }
}

TEST_CASE("decomposer: the pad key's digit is the largest in every pass and direction", "[sort][decomposer][pad]") {
  check_pad_digits<uu_key, uu_dec>(64);
  check_pad_digits<fi_key, fi_dec>(96);
  check_pad_digits<mixed_key, mixed_dec>(56);
  check_pad_digits<d_key, d_dec>(64);
  check_pad_digits<packed_key, packed_dec>(96);
}

TEST_CASE("decomposer: public overloads with the shipped policy", "[sort][decomposer]") {
  const std::size_t n = 9000;  // more than one shipped tile: the onesweep path
  const auto keys = make_keys<uu_key>(n, ringsweep_test::catch_seed());
  const auto o = window(0, -1, true);
  const auto order = reference_order(keys, uu_dec{}, o);
  ringsweep_test::device_buffer<uu_key> in(keys), out(n), k(keys);
  ringsweep_test::device_buffer<u32> vin(n), vout(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, in.data(), out.data(), n, uu_dec{}, o));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::sort_keys(temp.data(), bytes, in.data(), out.data(), n, uu_dec{}, o, 0));
  REQUIRE_CUDA(ringsweep::sort_keys(k.data(), n, uu_dec{}, o));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(first_mismatch(out.download(), keys, order) == -1);
  REQUIRE(first_mismatch(k.download(), keys, order) == -1);
  ringsweep::double_buffer<uu_key> kb(in.data(), out.data());
  ringsweep::double_buffer<u32> vb(vin.data(), vout.data());
  REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, kb, vb, n, uu_dec{}));
  REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, in.data(), out.data(), vin.data(), vout.data(), n, uu_dec{}));
  REQUIRE_CUDA(ringsweep::sort_pairs(k.data(), vin.data(), n, uu_dec{}));
  REQUIRE_CUDA(ringsweep::sort_keys(nullptr, bytes, kb, n, uu_dec{}));
}

TEST_CASE("decomposer: bad windows and misaligned arrays are rejected", "[sort][decomposer]") {
  const std::size_t n = 500;
  const auto keys = make_keys<fi_key>(n, 1);
  ringsweep_test::device_buffer<fi_key> in(keys), out(keys);
  std::size_t bytes = 0;
  namespace rt = ringsweep::tuning;
  CHECK(rt::sort_keys<policy_tiny>(nullptr, bytes, in.data(), out.data(), n, fi_dec{}, window(0, 97)) ==
        cudaErrorInvalidValue);
  CHECK(rt::sort_keys<policy_tiny>(nullptr, bytes, in.data(), out.data(), n, fi_dec{}, window(-1, 8)) ==
        cudaErrorInvalidValue);
  CHECK(rt::sort_keys<policy_tiny>(nullptr, bytes, in.data(), out.data(), n, fi_dec{}, window(40, 30)) ==
        cudaErrorInvalidValue);
  REQUIRE_CUDA(rt::sort_keys<policy_tiny>(nullptr, bytes, in.data(), out.data(), n, fi_dec{}, window(0, 96)));
  ringsweep_test::device_bytes temp(bytes);
  CHECK(rt::sort_keys<policy_tiny>(temp.data(), bytes, in.data(), out.data(), n, fi_dec{}, window(0, 97)) ==
        cudaErrorInvalidValue);
  CHECK(rt::sort_keys<policy_tiny>(reinterpret_cast<fi_key*>(reinterpret_cast<char*>(out.data()) + 8), n - 1,
                                   fi_dec{}) == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(first_mismatch(out.download(), keys, [&] {
            std::vector<std::size_t> id(n);
            std::iota(id.begin(), id.end(), std::size_t(0));
            return id;
          }()) == -1);  // nothing written
  // The empty window sorts nothing: the in/out form copies.
  REQUIRE_CUDA(rt::sort_keys<policy_tiny>(temp.data(), bytes, in.data(), out.data(), n, fi_dec{}, window(7, 7)));
}

#endif  // DECOMPOSER_COMPILE_FAIL
