// ringsweep::mpi::sort_keys / sort_pairs (distributed.cuh) over 1-4 MPI ranks: ctest runs this one
// program under mpiexec with -n 1, 2, 3 and 4 (tests/distributed/CMakeLists.txt). Every test case
// is collective: each rank makes its share of the data from the same seed, sorts, and rank 0
// gathers inputs and outputs and compares the concatenation over ranks with std::stable_sort of
// the gathered input (bit for bit, keys and values; values carry each item's global input index,
// so any unstable order or imbalance shows). Assertions that could differ between ranks are
// broadcast first, so that every rank runs the same collectives whatever fails.
#include <mpi.h>

#include <cuda_runtime.h>
#include <ringsweep/distributed.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "catch_session.hpp"
#include "test_util.cuh"

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
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
namespace rmpi = ringsweep::mpi;

#ifdef TEST_HAS_CUDA_STD_TUPLE
namespace tup = cuda::std;
#else
namespace tup = std;
#endif

// The communicator the test cases sort over and check on: MPI_COMM_WORLD, or a part of it.
MPI_Comm test_comm = MPI_COMM_WORLD;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(test_comm, &r);
  return r;
}
int world_size() {
  int p = 1;
  MPI_Comm_size(test_comm, &p);
  return p;
}

// ---- the reference order: each key's order-preserving image, written here independently --------
u64 image_of(u8 k) { return k; }
u64 image_of(u32 k) { return k; }
u64 image_of(u64 k) { return k; }
u64 image_of(std::int32_t k) { return u64(u32(k) ^ 0x80000000u); }
u64 image_of(float k) {
  u32 b;
  std::memcpy(&b, &k, 4);
  if (b == 0x80000000u) b = 0;  // -0.0 equals +0.0
  return u64((b >> 31) != 0 ? ~b : (b | 0x80000000u));
}

struct particle {  // a custom key: by cell, then depth
  std::int32_t cell;
  float depth;
};
struct by_cell_depth {
  __host__ __device__ tup::tuple<std::int32_t&, float&> operator()(particle& p) const { return {p.cell, p.depth}; }
};
u64 image_of(particle k) { return (image_of(k.cell) << 32) | image_of(k.depth); }
using u128 = unsigned __int128;
u128 image_of(__int128 k) { return u128(k) ^ (u128(1) << 127); }

template <class K>
constexpr int bits_of() {
  return int(sizeof(K) * 8);
}

/// The key's image as the sort orders it: complemented when descending, cut to the bit window.
template <class K>
u128 sort_image(const K& k, const ringsweep::sort_options& o) {
  const int w = bits_of<K>();
  const u128 all = w == 128 ? ~u128(0) : (u128(1) << w) - 1;
  u128 img = image_of(k);
  if (o.order == ringsweep::sort_order::descending) img = ~img & all;
  const int end = o.end_bit == -1 ? w : o.end_bit;
  const int width = end - o.begin_bit;
  if (width == 0) return 0;
  img >>= o.begin_bit;
  return width == 128 ? img : img & ((u128(1) << width) - 1);
}

/// A value carrying the item's global input index in its first bytes (truncated for 1-2 bytes).
struct v16 {
  u64 lo, hi;
};
template <class V>
V tag_value(u64 global_index) {
  V v;
  unsigned char bytes[sizeof(V)];
  for (std::size_t i = 0; i < sizeof(V); ++i) bytes[i] = static_cast<unsigned char>((global_index >> (8 * (i % 8))) + i / 8);
  std::memcpy(&v, bytes, sizeof(V));
  return v;
}

template <class T>
std::vector<unsigned char> gather_bytes(const std::vector<T>& mine, std::vector<u64>& counts_out) {
  const int p = world_size();
  const u64 n = mine.size();
  std::vector<u64> counts(std::size_t(p), 0);
  MPI_Allgather(&n, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, test_comm);
  std::vector<int> bytes(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  int total = 0;
  for (int r = 0; r < p; ++r) {
    bytes[r] = int(counts[r] * sizeof(T));
    displs[r] = total;
    total += bytes[r];
  }
  std::vector<unsigned char> all(std::size_t(total) + 1);
  MPI_Gatherv(mine.data(), int(n * sizeof(T)), MPI_BYTE, all.data(), bytes.data(), displs.data(), MPI_BYTE, 0,
              test_comm);
  all.resize(std::size_t(total));
  counts_out = counts;
  return all;
}

/// Every rank's status, and whether they are all `expected`.
bool all_ranks_returned(cudaError_t mine, cudaError_t expected) {
  int local = mine == expected ? 1 : 0;
  int all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, test_comm);
  return all == 1;
}

bool on_all_ranks(bool mine) { return all_ranks_returned(mine ? cudaSuccess : cudaErrorUnknown, cudaSuccess); }

/// Sorts this rank's `keys` (and values made by tag_value when HAS_VALUES) with `sort`, then
/// checks the global result on rank 0. Returns whether it is right, on every rank.
template <class V, bool HAS_VALUES, class K, class Sort>
bool sorts_right(const std::vector<K>& keys, const ringsweep::sort_options& opts, Sort sort) {
  const int rank = world_rank();
  const std::size_t n = keys.size();
  u64 first = 0;  // global index of this rank's first item
  const u64 n64 = n;
  MPI_Exscan(&n64, &first, 1, MPI_UINT64_T, MPI_SUM, test_comm);
  if (rank == 0) first = 0;
  std::vector<V> values;
  if (HAS_VALUES) {
    for (std::size_t i = 0; i < n; ++i) values.push_back(tag_value<V>(first + i));
  }
  ringsweep_test::device_buffer<K> d_keys(keys);
  ringsweep_test::device_buffer<V> d_values(HAS_VALUES ? values : std::vector<V>{});
  const cudaError_t status = sort(d_keys.data(), HAS_VALUES ? d_values.data() : nullptr, n);
  CHECK(status == cudaSuccess);
  const bool all_ok = all_ranks_returned(status, cudaSuccess);
  const std::vector<K> out_keys = d_keys.download();
  const std::vector<V> out_values = HAS_VALUES ? d_values.download() : std::vector<V>{};

  std::vector<u64> counts, counts_out;
  const std::vector<unsigned char> in_k = gather_bytes(keys, counts);
  const std::vector<unsigned char> out_k = gather_bytes(out_keys, counts_out);
  const std::vector<unsigned char> in_v = gather_bytes(values, counts);
  const std::vector<unsigned char> out_v = gather_bytes(out_values, counts_out);
  int right = 1;
  if (rank == 0) {
    const std::size_t total = in_k.size() / sizeof(K);
    std::vector<K> all_keys(total);
    if (total > 0) std::memcpy(static_cast<void*>(all_keys.data()), in_k.data(), in_k.size());
    std::vector<std::size_t> order(total);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::vector<u128> img(total);
    for (std::size_t i = 0; i < total; ++i) img[i] = sort_image(all_keys[i], opts);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return img[a] < img[b]; });
    std::vector<unsigned char> want_k(in_k.size()), want_v(in_v.size());
    for (std::size_t i = 0; i < total; ++i) {
      std::memcpy(&want_k[i * sizeof(K)], &in_k[order[i] * sizeof(K)], sizeof(K));
      if (HAS_VALUES) std::memcpy(&want_v[i * sizeof(V)], &in_v[order[i] * sizeof(V)], sizeof(V));
    }
    right = all_ok && want_k == out_k && want_v == out_v ? 1 : 0;
    if (!right) {
      std::size_t first_wrong = 0;
      while (first_wrong < total && std::memcmp(&want_k[first_wrong * sizeof(K)], &out_k[first_wrong * sizeof(K)],
                                                 sizeof(K)) == 0 &&
             (!HAS_VALUES ||
              std::memcmp(&want_v[first_wrong * sizeof(V)], &out_v[first_wrong * sizeof(V)], sizeof(V)) == 0)) {
        ++first_wrong;
      }
      UNSCOPED_INFO("first wrong item " << first_wrong << " of " << total << " (status agreed: " << all_ok << ")");
    }
  }
  MPI_Bcast(&right, 1, MPI_INT, 0, test_comm);
  return right == 1;
}

template <class K, class V = u32>
bool pairs_right(const std::vector<K>& keys, ringsweep::sort_options opts = {}) {
  return sorts_right<V, true>(keys, opts, [&](K* k, V* v, std::size_t n) {
    return rmpi::sort_pairs(test_comm, k, v, n, opts);
  });
}

template <class K>
bool keys_right(const std::vector<K>& keys, ringsweep::sort_options opts = {}) {
  return sorts_right<u8, false>(keys, opts, [&](K* k, u8*, std::size_t n) {
    return rmpi::sort_keys(test_comm, k, n, opts);
  });
}

// ---- the data shapes ----------------------------------------------------------------------------
enum class shape { uniform, all_equal, dominant, sorted, reversed, one_rank, some_empty, all_empty, ragged };
const char* name_of(shape s) {
  const char* names[] = {"uniform", "all equal", "one dominant key", "sorted", "reversed", "all data on one rank",
                         "some ranks empty", "every rank empty", "very different n_local"};
  return names[int(s)];
}

/// This rank's keys of a shape: from one seed, so that ranks draw different but reproducible data.
std::vector<u32> make_u32(shape s, u64 seed) {
  const int rank = world_rank();
  const int p = world_size();
  std::size_t n = 1500 + 397 * std::size_t(rank);
  if (s == shape::one_rank) n = rank == 0 ? 5000 : 0;
  if (s == shape::some_empty) n = rank % 2 == 1 ? 0 : 2100 + 300 * std::size_t(rank);
  if (s == shape::all_empty) n = 0;
  if (s == shape::ragged) {
    const std::size_t sizes[] = {1, 12000, 0, 3};
    n = sizes[rank % 4];
  }
  std::mt19937_64 rng(seed * 1000 + u64(rank));
  std::vector<u32> k(n);
  // global index of this rank's first key, for the globally sorted and reversed shapes
  u64 first = 0;
  const u64 n64 = n;
  MPI_Exscan(&n64, &first, 1, MPI_UINT64_T, MPI_SUM, test_comm);
  if (rank == 0) first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    switch (s) {
      case shape::all_equal: k[i] = 0xC0FFEEu; break;
      case shape::dominant: k[i] = rng() % 10 < 9 ? 77u : u32(rng() % 200); break;
      case shape::sorted: k[i] = u32((first + i) / 3); break;
      case shape::reversed: k[i] = u32(100000 - (first + i) / 2); break;
      default: k[i] = u32(rng()); break;
    }
  }
  (void)p;
  return k;
}

u64 seed() { return ringsweep_test::catch_seed(); }

}  // namespace

TEST_CASE("distributed pairs: every data shape, exact balance and stable", "[distributed]") {
  for (shape s : {shape::uniform, shape::all_equal, shape::dominant, shape::sorted, shape::reversed, shape::one_rank,
                  shape::some_empty, shape::all_empty, shape::ragged}) {
    INFO("shape: " << name_of(s) << ", ranks: " << world_size());
    CHECK(pairs_right(make_u32(s, seed())));
  }
}

// The splitter search in O(1) rounds: on random keys, after the sample that rides on agreement 1,
// one all-reduce (the bracket pass's counts) and one all-gather (the candidates, and every rank's
// keys below and equal to each boundary's slot, so that every rank knows every run length, and
// every rank's status: the commit point): two collectives, three from the start to the exchange on
// a communicator sorted on before (agreement 1 and the two; 6 until 2026-11-29: the communicator's
// duplicate made by every call, the run lengths' all-to-all and agreement 2 besides; the digit
// rounds took P + 1 = 5 and 9 for u32 keys).
// Skewed keys whose boundary falls on a heavily sampled key take the same two; brackets that miss
// (forced: a sample of 4 keys per rank, no margin) fall back to the digit rounds. Every result
// exactly balanced and stable; the sample smaller than n_local, so that sampled keys stand for
// several, and the default one (every key sampled at these sizes).
TEST_CASE("distributed splitters: two collectives on random keys, skewed keys and misses fall back",
          "[distributed]") {
  auto& tuning = rmpi::detail_mpi::splitter_tuning();
  const auto saved = tuning;
  const int p = world_size();
  const auto& counted = rmpi::detail_mpi::last_collectives();
  tuning.sample = 256;  // the default samples every key at these sizes, as the other tests do
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 15)));  // the communicator's duplicate made
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 16)));
  CHECK(counted.splitters == (p > 1 ? 2u : 0u));
  CHECK(counted.before_exchange == (p > 1 ? 3u : 1u));
  const int rank = world_rank();
  std::mt19937_64 rng(seed() * 13 + u64(rank));
  std::vector<u32> two(1800 + 300 * std::size_t(rank)), heavy(2000 + 200 * std::size_t(rank));
  for (auto& k : two) k = u32(rng() % 2);
  // p + 1 heavy keys (multiples of 1000) with light ones between: every boundary inside a run
  for (auto& k : heavy) k = u32(rng() % u64(p + 1)) * 1000 + (rng() % 8 == 0 ? u32(rng() % 1000) : 0);
  struct setting {
    unsigned sample;
    double margin;
    const char* what;
  };
  for (const setting& st : {setting{256, -1.0, "sampled"}, setting{4, 0.0, "brackets that miss"}}) {
    tuning.sample = st.sample;
    tuning.margin = st.margin;
    unsigned most = 0;
    const bool miss = st.margin == 0;
    for (shape sh : {shape::uniform, shape::all_equal, shape::sorted, shape::reversed, shape::some_empty}) {
      if ((sh == shape::uniform) != miss) continue;  // sampled: uniform above; misses: uniform only
      INFO(st.what << ", " << name_of(sh) << ", ranks " << p);
      CHECK(keys_right(make_u32(sh, seed() + 17)));
      most = std::max(most, counted.splitters);
      if (st.margin < 0) CHECK(counted.splitters <= 2u);  // an all-reduce, an all-gather
    }
    INFO(st.what << ": two values, and a heavy key at every boundary; ranks " << p);
    if (!miss) CHECK(pairs_right(two));  // values: the stable order of equal keys shows
    CHECK(keys_right(heavy));
    most = std::max(most, counted.splitters);
    if (st.margin < 0) CHECK(counted.splitters <= 2u);  // no exclusive scan: the all-gather counts
    if (st.margin < 0) CHECK(counted.before_exchange <= 3u);
    if (st.margin == 0 && p > 1) CHECK(most >= 1u + 4u + 1u);  // the digit rounds ran: 4 for u32 keys
  }
  // Sampled brackets for other keys: 64-bit keys (8 digits), descending floats with -0.0 and
  // NaNs, a custom key through its decomposer (a window of its first field).
  tuning = saved;
  tuning.sample = 256;
  std::vector<u64> k64(2100 + 300 * std::size_t(rank));
  for (auto& k : k64) k = rng() % 3 == 0 ? u64(rng() % 5) << 40 : rng();
  CHECK(keys_right(k64));
  std::vector<float> kf(2200 + 250 * std::size_t(rank));
  for (auto& k : kf) {
    const float specials[] = {-0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), -1.5f};
    k = rng() % 4 == 0 ? specials[rng() % 4] : float(int(rng() % 4001) - 2000) / 16.0f;
  }
  ringsweep::sort_options desc;
  desc.order = ringsweep::sort_order::descending;
  CHECK(keys_right(kf, desc));
  std::vector<particle> parts(1900 + 400 * std::size_t(rank));
  for (auto& q : parts) q = {int(rng() % 300) - 100, float(rng() % 9)};
  ringsweep::sort_options cell_only;
  cell_only.begin_bit = 32;
  CHECK(sorts_right<u32, true>(parts, cell_only, [&](particle* k, u32* v, std::size_t n) {
    return rmpi::sort_pairs(test_comm, k, v, n, by_cell_depth{}, cell_only);
  }));
  if (p > 1) CHECK(counted.splitters <= 2u);
  tuning = saved;
}

// Past splitter_settings::gather_ranks ranks (forced here: 0) the all-gather carries no counts:
// the run lengths go by MPI_Alltoall and heavy keys take an exclusive scan, the older way, and
// agreement 2 is the commit point: two collectives more on random keys; results the same.
TEST_CASE("distributed splitters: the older ways (the run lengths' all-to-all, agreement 2)", "[distributed]") {
  auto& tuning = rmpi::detail_mpi::splitter_tuning();
  const auto saved = tuning;
  const int p = world_size();
  const int rank = world_rank();
  const auto& counted = rmpi::detail_mpi::last_collectives();
  tuning.sample = 256;
  tuning.gather_ranks = 0;
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 40)));
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 41)));  // the duplicate cached
  CHECK(counted.splitters == (p > 1 ? 2u : 0u));
  CHECK(counted.before_exchange == (p > 1 ? 5u : 1u));
  std::mt19937_64 rng(seed() * 31 + u64(rank));
  std::vector<u32> heavy(2000 + 200 * std::size_t(rank));
  for (auto& k : heavy) k = u32(rng() % u64(p + 1)) * 1000 + (rng() % 8 == 0 ? u32(rng() % 1000) : 0);
  CHECK(pairs_right(heavy));
  for (shape sh : {shape::all_equal, shape::some_empty, shape::dominant}) {
    INFO(name_of(sh) << ", ranks " << p);
    CHECK(pairs_right(make_u32(sh, seed() + 42)));
  }
  // Every rank's counts gathered, but the commit point after the partition (agreement 2), as where
  // the chosen slots' moves do not fit the tables: 4 on random keys.
  tuning.gather_ranks = saved.gather_ranks;
  tuning.commit_at_gather = false;
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 46)));
  CHECK(counted.before_exchange == (p > 1 ? 4u : 1u));
  CHECK(pairs_right(heavy));
  CHECK(pairs_right(make_u32(shape::dominant, seed() + 47)));
  tuning = saved;
}

// The communicator's duplicate (the sort's messages never meet the caller's) is made by the first
// sort on a communicator, one collective, and kept with its buffers: later sorts make none, also
// after release_buffers (which frees memory only, and stays local); MPI_Comm_free of the
// communicator frees it (the cache's delete callback, inside the caller's collective free).
// Random keys: 3 collectives before the exchange, 4 with the duplicate.
TEST_CASE("distributed: the communicator's duplicate is made once and freed with it", "[distributed]") {
  const auto& counted = rmpi::detail_mpi::last_collectives();
  const int p = world_size();
  const int live = rmpi::detail_mpi::live_duplicates();
  MPI_Comm own = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &own);
  test_comm = own;
  const unsigned steady = p > 1 ? 3u : 1u;  // random keys: agreement 1, the search's two
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 43)));
  CHECK(counted.before_exchange == steady + 1);  // the duplicate: made now
  CHECK(rmpi::detail_mpi::live_duplicates() == live + 1);
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 44)));
  CHECK(counted.before_exchange == steady);
  CHECK(rmpi::release_buffers(own) == cudaSuccess);
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 45)));
  CHECK(counted.before_exchange == steady);  // kept through the release
  CHECK(rmpi::detail_mpi::live_duplicates() == live + 1);
  test_comm = MPI_COMM_WORLD;
  MPI_Comm_free(&own);
  CHECK(rmpi::detail_mpi::live_duplicates() == live);
}

// The splitter search leaves no per-key work to the host: what a rank copies back from the device
// during a sort is its sample, the slot counts (at most 129 marks per boundary, two slots each)
// and the keys of the slots that hold a boundary (about 1/128 of a bracket each), never the keys
// of the brackets (here, with a sample of 256 keys per rank, about a fifth to a half of them).
TEST_CASE("distributed splitters: the host sees slot counts and the chosen slots' keys only", "[distributed]") {
#if defined(RINGSWEEP_VARIANT_SIMT)
  auto& tuning = rmpi::detail_mpi::splitter_tuning();
  const auto saved = tuning;
  tuning.sample = 256;
  const int p = world_size();
  const int rank = world_rank();
  std::mt19937_64 rng(seed() * 29 + u64(rank));
  std::vector<u32> keys(20000 + 500 * std::size_t(rank));
  for (auto& k : keys) k = u32(rng());
  unsigned long long copied = 0;
  CHECK(sorts_right<u8, false>(keys, {}, [&](u32* k, u8*, std::size_t n) {
    const unsigned long long before = simt::device_to_host_bytes();
    const cudaError_t e = rmpi::sort_keys(test_comm, k, n);
    copied = simt::device_to_host_bytes() - before;
    return e;
  }));
  const unsigned long long sample_bytes = 256 * 4, count_bytes = (2 * u64(p - 1) * 129 + 2) * 8;
  const unsigned long long bound = sample_bytes + count_bytes + keys.size() * 4 / 16;
  INFO("bytes copied to the host by rank " << rank << " of " << p << ": " << copied << ", bound " << bound);
  CHECK(on_all_ranks(copied <= bound));
  tuning = saved;
#endif
}

TEST_CASE("distributed keys: descending and bit windows", "[distributed]") {
  ringsweep::sort_options desc;
  desc.order = ringsweep::sort_order::descending;
  ringsweep::sort_options window;
  window.begin_bit = 4;
  window.end_bit = 13;
  ringsweep::sort_options desc_window = window;
  desc_window.order = ringsweep::sort_order::descending;
  ringsweep::sort_options empty_window;
  empty_window.begin_bit = 9;
  empty_window.end_bit = 9;
  for (shape s : {shape::uniform, shape::dominant, shape::ragged}) {
    INFO("shape: " << name_of(s) << ", ranks: " << world_size());
    const std::vector<u32> k = make_u32(s, seed() + 1);
    CHECK(pairs_right(k, desc));
    CHECK(keys_right(k, window));  // keys equal in the window but not in their bits: stability shows
    CHECK(pairs_right(k, desc_window));
  }
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 2), empty_window));
}

TEST_CASE("distributed keys: u8, u64 and f32 with specials", "[distributed]") {
  const int rank = world_rank();
  std::mt19937_64 rng(seed() * 77 + u64(rank));
  std::vector<u8> k8(2000 + 500 * std::size_t(rank));
  for (auto& k : k8) k = u8(rng() % 5);
  CHECK(pairs_right(k8));
  CHECK(keys_right(k8));
  std::vector<u64> k64(1800 + 700 * std::size_t(rank % 2));
  for (auto& k : k64) k = rng() & (rng() % 2 == 0 ? ~u64(0) : 0xFFFF00000000FFFFull);
  CHECK(pairs_right(k64));
  ringsweep::sort_options high;
  high.begin_bit = 40;
  CHECK(pairs_right(k64, high));
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(), 1.0f, -1.0f,
                            std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
  std::vector<float> kf(2500 + 300 * std::size_t(rank));
  for (auto& k : kf) {
    k = rng() % 3 == 0 ? specials[rng() % 12] : float(int(rng() % 2001) - 1000) / 8.0f;
  }
  CHECK(keys_right(kf));  // -0.0 and +0.0 equal: their order shows in the keys' bits
  ringsweep::sort_options desc;
  desc.order = ringsweep::sort_order::descending;
  CHECK(pairs_right(kf, desc));
}

TEST_CASE("distributed keys: 128-bit integers (two 64-bit fields to the kernels)", "[distributed][int128]") {
  const int rank = world_rank();
  std::mt19937_64 rng(seed() * 83 + u64(rank));
  std::vector<__int128> keys(1900 + 600 * std::size_t(rank));
  for (auto& k : keys) {  // negatives and positives, keys equal in the high half, repeats
    const u64 hi = rng() % 3 == 0 ? (rng() % 2 == 0 ? ~u64(0) : 7) : rng();
    k = __int128((u128(hi) << 64) | u128(rng() % 5));
  }
  CHECK(pairs_right(keys));
  ringsweep::sort_options desc;
  desc.order = ringsweep::sort_order::descending;
  CHECK(keys_right(keys, desc));
  ringsweep::sort_options across;  // a window across the halves: equal keys there keep their order
  across.begin_bit = 60;
  across.end_bit = 70;
  CHECK(pairs_right(keys, across));
}

TEST_CASE("distributed custom keys through a decomposer", "[distributed]") {
  const int rank = world_rank();
  std::mt19937_64 rng(seed() * 91 + u64(rank));
  std::vector<particle> parts(2200 + 900 * std::size_t(rank));
  for (auto& q : parts) q = {int(rng() % 20) - 5, rng() % 4 == 0 ? -0.0f : float(rng() % 7)};
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    ringsweep::sort_options opts;
    opts.order = order;
    CHECK(sorts_right<u32, true>(parts, opts, [&](particle* k, u32* v, std::size_t n) {
      return rmpi::sort_pairs(test_comm, k, v, n, by_cell_depth{}, opts);
    }));
    CHECK(sorts_right<u8, false>(parts, opts, [&](particle* k, u8*, std::size_t n) {
      return rmpi::sort_keys(test_comm, k, n, by_cell_depth{}, opts);
    }));
  }
  ringsweep::sort_options cell_only;  // the window of the first field: depth is not sorted on
  cell_only.begin_bit = 32;
  CHECK(sorts_right<u32, true>(parts, cell_only, [&](particle* k, u32* v, std::size_t n) {
    return rmpi::sort_pairs(test_comm, k, v, n, by_cell_depth{}, cell_only);
  }));
}

TEST_CASE("distributed pairs: values of 1, 2, 4, 8 and 16 bytes", "[distributed]") {
  const std::vector<u32> k = make_u32(shape::dominant, seed() + 3);
  CHECK(pairs_right<u32, u8>(k));
  CHECK(pairs_right<u32, u16>(k));
  CHECK(pairs_right<u32, u32>(k));
  CHECK(pairs_right<u32, u64>(k));
  CHECK(pairs_right<u32, v16>(k));
}

/// Values the device sort gathers (device/value_gather.cuh): 3, 12, 24 and 64 bytes, over-aligned.
template <int N>
struct bytes_of {
  unsigned char b[N];
};
struct float3_like {
  float x, y, z;
};
struct position_index {
  double x, y;
  u64 index;
};
struct words8x8 {
  u64 w[8];
};
struct alignas(32) aligned32 {
  u32 w[8];
};

// Values of other sizes move as words through the partition and as bytes through the exchange;
// the final local sort gathers them. One dominant key (most boundaries fall inside its run: the
// (rank, position) split), both orders, both exchange paths for the 24-byte value; the device
// memory of a 24-byte value: the second array and the gathered sort's storage.
TEST_CASE("distributed pairs: values of any size", "[distributed][any_size]") {
  const std::vector<u32> k = make_u32(shape::dominant, seed() + 21);
  for (auto order : {ringsweep::sort_order::ascending, ringsweep::sort_order::descending}) {
    INFO("order " << int(order));
    const ringsweep::sort_options opts{order};
    CHECK(pairs_right<u32, bytes_of<3>>(k, opts));
    CHECK(pairs_right<u32, float3_like>(k, opts));
    CHECK(pairs_right<u32, position_index>(k, opts));
    CHECK(pairs_right<u32, words8x8>(k, opts));
    CHECK(pairs_right<u32, aligned32>(k, opts));
  }
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  for (auto path : {rmpi::exchange_path::direct, rmpi::exchange_path::staged}) {
    rmpi::exchange_settings s = saved;
    s.path = path;
    s.chunk_bytes = 1000;  // messages that cut values
    rmpi::set_exchange_settings(s);
    INFO("path " << int(path));
    CHECK(pairs_right<u32, position_index>(k));
  }
  rmpi::set_exchange_settings(saved);
#if defined(RINGSWEEP_VARIANT_SIMT)
  const std::size_t n = k.size();
  ringsweep_test::device_buffer<u32> d_keys(k);
  const std::vector<position_index> zeros(n, position_index{});
  ringsweep_test::device_buffer<position_index> d_values(zeros);
  ringsweep::double_buffer<u32> kb(d_keys.data(), d_keys.data());
  ringsweep::double_buffer<position_index> vb(d_values.data(), d_values.data());
  std::size_t temp = 0;
  REQUIRE(ringsweep::sort_pairs(nullptr, temp, kb, vb, n) == cudaSuccess);
  int device = 0;
  cudaGetDevice(&device);
  CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);
  simt::reset_peak_device_bytes();
  const std::size_t held = simt::peak_device_bytes(device);
  const cudaError_t e = rmpi::sort_pairs(test_comm, d_keys.data(), d_values.data(), n);
  const std::size_t used = simt::peak_device_bytes(device) - held;
  CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);
  const std::size_t allowed = n * (4 + 24) + temp + 16 * 1024;
  INFO("n_local " << n << ", sort held " << used << " bytes, allowed " << allowed << " (temp " << temp << ")");
  CHECK(all_ranks_returned(e, cudaSuccess));
  CHECK(on_all_ranks(used <= allowed));
  CHECK(on_all_ranks(used >= n * (4 + 24)));
#endif
}

TEST_CASE("distributed exchange: direct and staged paths, messages in chunks", "[distributed]") {
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  CHECK(rmpi::get_exchange_settings().chunk_bytes == std::size_t(1) << 30);  // the default: below 2^31
#if defined(RINGSWEEP_VARIANT_SIMT)
  CHECK(rmpi::cuda_aware_mpi());  // the backend's device memory is host memory
#endif
  for (auto path : {rmpi::exchange_path::direct, rmpi::exchange_path::staged}) {
    if (path == rmpi::exchange_path::direct && !rmpi::cuda_aware_mpi()) {
      WARN("this MPI takes no device buffers: the direct path is not tested");
      continue;
    }
    for (std::size_t chunk : {std::size_t(1) << 30, std::size_t(100)}) {
      INFO("path " << int(path) << ", chunk " << chunk << " bytes");
      rmpi::exchange_settings s;
      s.path = path;
      s.chunk_bytes = chunk;  // 100: every run of more than 25 keys travels in several messages
      rmpi::set_exchange_settings(s);
      CHECK(pairs_right<u32, v16>(make_u32(shape::uniform, seed() + 4)));
      CHECK(keys_right(make_u32(shape::ragged, seed() + 5)));
      // Boundaries inside a heavy key's equal keys: the staged path copies what may leave (all
      // but the run's sure part) before the commit at the all-gather.
      if (chunk == 100) CHECK(pairs_right(make_u32(shape::dominant, seed() + 48)));
    }
  }
  rmpi::set_exchange_settings(saved);
}

namespace {

/// Runs `sort` on this rank's uniform pairs and checks that every rank returned `expected` with
/// its keys and values bit-identical to before.
template <class Sort>
bool fails_untouched(cudaError_t expected, Sort sort) {
  const std::vector<u32> keys = make_u32(shape::uniform, seed() + 6);
  std::vector<u64> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = keys[i] * 3ull + i;
  ringsweep_test::device_buffer<u32> d_keys(keys);
  ringsweep_test::device_buffer<u64> d_values(values);
  const cudaError_t status = sort(d_keys.data(), d_values.data(), keys.size());
  CHECK(status == expected);
  const bool agreed = all_ranks_returned(status, expected);
  const bool untouched = on_all_ranks(d_keys.download() == keys && d_values.download() == values);
  return agreed && untouched;
}

}  // namespace

TEST_CASE("distributed errors: disagreeing or bad arguments on one rank fail every rank, data untouched",
          "[distributed]") {
  const int rank = world_rank();
  const int last = world_size() - 1;
  // one rank sorts descending
  CHECK(fails_untouched(cudaErrorInvalidValue, [&](u32* k, u64* v, std::size_t n) {
    ringsweep::sort_options o;
    if (rank == last && last > 0) o.order = ringsweep::sort_order::descending;
    if (last == 0) o.end_bit = 33;  // one rank: a bad window instead
    return rmpi::sort_pairs(test_comm, k, v, n, o);
  }));
  // a negative count on the last rank
  CHECK(fails_untouched(cudaErrorInvalidValue, [&](u32* k, u64* v, std::size_t n) {
    return rmpi::sort_pairs(test_comm, k, v, rank == last ? std::size_t(-1) : n);
  }));
  // a bad bit window on rank 0 only
  CHECK(fails_untouched(cudaErrorInvalidValue, [&](u32* k, u64* v, std::size_t n) {
    ringsweep::sort_options o;
    if (rank == 0) o.end_bit = 40;
    return rmpi::sort_pairs(test_comm, k, v, n, o);
  }));
  // a null value array on the last rank
  CHECK(fails_untouched(cudaErrorInvalidValue, [&](u32* k, u64* v, std::size_t n) {
    return rmpi::sort_pairs(test_comm, k, rank == last ? static_cast<u64*>(nullptr) : v, n);
  }));
  // the chunk size differs between ranks
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  CHECK(fails_untouched(cudaErrorInvalidValue, [&](u32* k, u64* v, std::size_t n) {
    rmpi::exchange_settings s = saved;
    s.chunk_bytes = rank == last ? 4096 : 8192;
    if (last == 0) s.chunk_bytes = std::size_t(1) << 40;  // one rank: beyond an int
    rmpi::set_exchange_settings(s);
    const cudaError_t e = rmpi::sort_pairs(test_comm, k, v, n);
    rmpi::set_exchange_settings(saved);
    return e;
  }));
  // and after all that, a sort still works
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 7)));
}

#if defined(RINGSWEEP_VARIANT_SIMT)
TEST_CASE("distributed errors: a failed allocation on one rank fails every rank, data untouched",
          "[distributed]") {
  const int last = world_size() - 1;
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  // The device allocation (the first allocation call of the sort), then the staged path's
  // page-locked host buffers (the second), each failing on the last rank only.
  for (unsigned long long call : {1ull, 2ull}) {
    INFO("allocation call " << call << " fails on rank " << last);
    rmpi::exchange_settings s = saved;
    s.path = call == 2 ? rmpi::exchange_path::staged : rmpi::exchange_path::direct;
    rmpi::set_exchange_settings(s);
    CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);  // nothing cached: the sort allocates
    const bool staged_host = call == 2 && world_size() == 1;  // one rank stages nothing
    CHECK(fails_untouched(staged_host ? cudaSuccess : cudaErrorMemoryAllocation, [&](u32* k, u64* v, std::size_t n) {
      if (world_rank() == last && !staged_host) simt::fail_allocation(call);
      const cudaError_t e = rmpi::sort_pairs(test_comm, k, v, n);
      simt::fail_allocation(0);
      return e;
    }) == !staged_host);
    rmpi::set_exchange_settings(saved);
  }
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 8)));
}

namespace {

/// Pairs of u32 keys and u64 values (each value the item's global input index).
struct pairs_u32 {
  std::vector<u32> keys;
  std::vector<u64> values;
  bool operator==(const pairs_u32& o) const { return keys == o.keys && values == o.values; }
};

/// `in` sorted stably by key.
pairs_u32 stably_sorted(const pairs_u32& in) {
  std::vector<std::size_t> order(in.keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return in.keys[a] < in.keys[b]; });
  pairs_u32 out;
  for (std::size_t i : order) {
    out.keys.push_back(in.keys[i]);
    out.values.push_back(in.values[i]);
  }
  return out;
}

/// This rank's part of the global stable order of every rank's `mine` (gathered on every rank).
pairs_u32 part_of_result(const pairs_u32& mine, u64 first) {
  const int p = world_size();
  const int n = int(mine.keys.size());
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, test_comm);
  int total = 0;
  for (int r = 0; r < p; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  pairs_u32 all;
  all.keys.resize(std::size_t(total) + 1);
  all.values.resize(std::size_t(total) + 1);
  MPI_Allgatherv(mine.keys.data(), n, MPI_UINT32_T, all.keys.data(), counts.data(), displs.data(), MPI_UINT32_T,
                 test_comm);
  MPI_Allgatherv(mine.values.data(), n, MPI_UINT64_T, all.values.data(), counts.data(), displs.data(), MPI_UINT64_T,
                 test_comm);
  all.keys.resize(std::size_t(total));
  all.values.resize(std::size_t(total));
  const pairs_u32 sorted = stably_sorted(all);
  pairs_u32 part;
  part.keys.assign(sorted.keys.begin() + std::ptrdiff_t(first), sorted.keys.begin() + std::ptrdiff_t(first) + n);
  part.values.assign(sorted.values.begin() + std::ptrdiff_t(first), sorted.values.begin() + std::ptrdiff_t(first) + n);
  return part;
}

}  // namespace

// A copy that fails on one rank (simt::fail_copy: the copy returns cudaErrorLaunchFailure, its
// destination garbage), each copy call of the sort in turn, on the direct and the staged path: every
// rank returns the error (none hangs: ctest's timeout), and every rank, the failing one included,
// holds either its input, byte for byte, or its part of the sorted result, never a mix: the input
// when the copy comes before the commit point (agreement 2: the splitter search's copies, the
// splitters' upload, the staged path's copies of the runs to the host), the result after it (the
// copies into the caller's arrays, whose sources are intact, so the failing rank makes them again).
TEST_CASE("distributed errors: a failed copy on one rank fails every rank, nothing lost", "[distributed]") {
  const int rank = world_rank();
  const int p = world_size();
  const int failing = p - 1;
  pairs_u32 mine;
  mine.keys = make_u32(shape::uniform, seed() + 12);
  u64 first = 0;
  const u64 n64 = mine.keys.size();
  MPI_Exscan(&n64, &first, 1, MPI_UINT64_T, MPI_SUM, test_comm);
  if (rank == 0) first = 0;
  for (std::size_t i = 0; i < mine.keys.size(); ++i) mine.values.push_back(first + i);
  const pairs_u32 part = part_of_result(mine, first);
  // Whether this rank sends any item to another rank (values are global input indices).
  std::size_t kept = 0;
  for (u64 v : part.values) kept += v >= first && v < first + n64 ? 1 : 0;
  unsigned long long sends_away = kept < mine.keys.size() ? 1 : 0;
  MPI_Bcast(&sends_away, 1, MPI_UNSIGNED_LONG_LONG, failing, test_comm);
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  for (auto path : {rmpi::exchange_path::direct, rmpi::exchange_path::staged}) {
    rmpi::exchange_settings s = saved;
    s.path = path;
    rmpi::set_exchange_settings(s);
    // The copy calls of a sort that works, counted on the failing rank.
    unsigned long long calls = 0;
    {
      ringsweep_test::device_buffer<u32> d_keys(mine.keys);
      ringsweep_test::device_buffer<u64> d_values(mine.values);
      const unsigned long long before = simt::copy_calls();
      const cudaError_t e = rmpi::sort_pairs(test_comm, d_keys.data(), d_values.data(), mine.keys.size());
      calls = simt::copy_calls() - before;
      REQUIRE(all_ranks_returned(e, cudaSuccess));
      CHECK(on_all_ranks(pairs_u32{d_keys.download(), d_values.download()} == part));
    }
    MPI_Bcast(&calls, 1, MPI_UNSIGNED_LONG_LONG, failing, test_comm);
    // The copies before the commit point (the all-gather, which carries every rank's status), on
    // the failing rank: none with one rank (nothing to agree on: the sort is the result); else
    // the sample down (before agreement 1), the count pass's two (the marks up, the slot counts
    // down), the collect pass's four (the chosen slots' flags up, the number of their keys down,
    // their keys and positions down; no digit rounds on these keys), the partition's splitters
    // up, the moves of the chosen slots' keys up, and on the staged path the keys and values of
    // all but its own run's sure part down to the host stage (the last rank's own run ends its
    // partition, so that is one range: one copy per array), if it sends any.
    const bool staged = path == rmpi::exchange_path::staged;
    const unsigned long long committed = p == 1 ? 0 : 1 + 2 + 4 + 1 + 1 + (staged && sends_away != 0 ? 2 : 0);
    if (p > 1) REQUIRE(calls > committed);  // copies after the commit point too: the own run's
    for (unsigned long long k = 1; k <= calls; ++k) {
      INFO("path " << int(path) << ": copy call " << k << " of " << calls << " fails on rank " << failing
                   << " (the commit point after call " << committed << ")");
      ringsweep_test::device_buffer<u32> d_keys(mine.keys);
      ringsweep_test::device_buffer<u64> d_values(mine.values);
      if (rank == failing) simt::fail_copy(k);
      const cudaError_t e = rmpi::sort_pairs(test_comm, d_keys.data(), d_values.data(), mine.keys.size());
      simt::fail_copy(0);
      cudaGetLastError();
      CHECK(e == cudaErrorLaunchFailure);
      CHECK(all_ranks_returned(e, cudaErrorLaunchFailure));
      const pairs_u32 held{d_keys.download(), d_values.download()};
      if (k <= committed) {
        CHECK(on_all_ranks(held == mine));  // untouched, byte for byte
      } else {
        CHECK(on_all_ranks(held == part));  // fully sorted
      }
    }
  }
  rmpi::set_exchange_settings(saved);
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 13)));
}

// Device memory: the sort holds one more array of the rank's items and the device sort's
// temporary storage (the splitter search's and the partition's tables share it), plus the
// splitters' prefixes: 2x the local data (with the caller's arrays) and a constant, kept for the
// communicator until release_buffers (measured from an empty cache; nothing held after the
// release). Both paths, ragged counts (a rank of 12000 items).
TEST_CASE("distributed memory: one more array and the sort's temporary storage", "[distributed]") {
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  for (auto path : {rmpi::exchange_path::direct, rmpi::exchange_path::staged}) {
    rmpi::exchange_settings s = saved;
    s.path = path;
    rmpi::set_exchange_settings(s);
    for (shape sh : {shape::uniform, shape::ragged}) {
      const std::vector<u32> keys = make_u32(sh, seed() + 14);
      const std::size_t n = keys.size();
      std::vector<u64> values(n, 7);
      ringsweep_test::device_buffer<u32> d_keys(keys);
      ringsweep_test::device_buffer<u64> d_values(values);
      ringsweep::double_buffer<u32> kb(d_keys.data(), d_keys.data());
      ringsweep::double_buffer<u64> vb(d_values.data(), d_values.data());
      std::size_t temp = 0;
      REQUIRE(ringsweep::sort_pairs(nullptr, temp, kb, vb, n) == cudaSuccess);
      int device = 0;
      cudaGetDevice(&device);
      CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);  // the call allocates what it uses
      simt::reset_peak_device_bytes();
      const std::size_t held = simt::peak_device_bytes(device);
      const cudaError_t e = rmpi::sort_pairs(test_comm, d_keys.data(), d_values.data(), n);
      const std::size_t used = simt::peak_device_bytes(device) - held;
      CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);
      simt::reset_peak_device_bytes();
      CHECK(on_all_ranks(simt::peak_device_bytes(device) == held));  // nothing else kept
      // the tables and prefixes: a few KiB; room for the moves of the chosen slots' keys: 16 bytes
      // per 64 keys (since 2026-11-29)
      const std::size_t allowed = n * (4 + 8) + temp + 16 * (n / 64) + 16 * 1024;
      INFO("path " << int(path) << ", " << name_of(sh) << ": n_local " << n << ", sort held " << used
                   << " bytes, allowed " << allowed << " (temp " << temp << ")");
      CHECK(all_ranks_returned(e, cudaSuccess));
      CHECK(on_all_ranks(used <= allowed));
      CHECK(on_all_ranks(n == 0 || used >= n * (4 + 8)));  // the second array: the measure measures
    }
  }
  rmpi::set_exchange_settings(saved);
}

// The buffers kept per communicator: the staged path pins its host stages on the first call and
// again only when a call needs more (n_local growing), never when it needs as much or less; the
// cache is kept between calls and freed by release_buffers and by MPI_Comm_free (nothing left:
// SIMT page-locked and device bytes back where they were). Counted around the sort call alone, on
// a communicator of its own.
TEST_CASE("distributed buffers: pinned once per communicator, grown when needed, freed with it",
          "[distributed]") {
  const rmpi::exchange_settings saved = rmpi::get_exchange_settings();
  rmpi::exchange_settings s = saved;
  s.path = rmpi::exchange_path::staged;
  rmpi::set_exchange_settings(s);
  MPI_Comm own = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &own);
  test_comm = own;
  int device = 0;
  cudaGetDevice(&device);
  auto device_held = [&]() {
    simt::reset_peak_device_bytes();
    return simt::peak_device_bytes(device);
  };
  const bool stages = world_size() > 1;  // one rank stages nothing
  const std::size_t pinned_before = simt::pinned_host_bytes();
  const std::size_t device_before = device_held();
  const std::size_t base = 1500 + 397 * std::size_t(world_rank());
  std::size_t most = 0;  // the largest n_local so far
  struct step {
    std::size_t n;
    const char* what;
  };
  for (const step& st : {step{base, "first call"}, step{base, "the same n"}, step{2 * base + 100, "n grows"},
                         step{base / 2, "n shrinks"}}) {
    INFO(st.what << ": n_local " << st.n << ", ranks " << world_size());
    std::mt19937_64 rng(seed() * 5 + st.n);
    std::vector<u32> keys(st.n);
    for (auto& k : keys) k = u32(rng());
    unsigned long long pins = 0, allocations = 0;
    CHECK(sorts_right<u32, true>(keys, {}, [&](u32* k, u32* v, std::size_t n) {
      const unsigned long long before = simt::host_allocation_calls(), all_before = simt::allocation_calls();
      const cudaError_t e = rmpi::sort_pairs(test_comm, k, v, n);
      pins = simt::host_allocation_calls() - before;
      allocations = simt::allocation_calls() - all_before;
      return e;
    }));
    const bool grows = st.n > most;
    most = std::max(most, st.n);
    CHECK(on_all_ranks(pins == (stages && grows ? 1u : 0u)));
    // the device block (cudaMalloc) too: grown with n_local, else reused
    CHECK(on_all_ranks(allocations == (grows ? 1u + pins : 0u)));
    // kept between calls: both stages of the largest n_local so far (u32 keys and values)
    CHECK(on_all_ranks(simt::pinned_host_bytes() - pinned_before >= (stages ? 2 * most * 8 : 0)));
  }
  CHECK(on_all_ranks(device_held() >= device_before + most * 8));  // the cached second array
  CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);
  CHECK(on_all_ranks(simt::pinned_host_bytes() == pinned_before));
  CHECK(on_all_ranks(device_held() == device_before));
  CHECK(rmpi::release_buffers(test_comm) == cudaSuccess);  // nothing left to release
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 15)));
  CHECK(on_all_ranks(simt::pinned_host_bytes() > pinned_before || !stages));
  CHECK(on_all_ranks(device_held() > device_before));
  test_comm = MPI_COMM_WORLD;
  MPI_Comm_free(&own);  // the attribute's delete callback frees the cache
  CHECK(on_all_ranks(simt::pinned_host_bytes() == pinned_before));
  CHECK(on_all_ranks(device_held() == device_before));
  CHECK(rmpi::release_buffers(MPI_COMM_NULL) == cudaErrorInvalidValue);
  rmpi::set_exchange_settings(saved);
}

// Registered as distributed_sort_test_simt_fail_alloc_env (tests/distributed/CMakeLists.txt): three
// ranks, the last started with RINGSWEEP_SIMT_FAIL_ALLOC=3, so that its third allocation call (after
// the test's two device arrays: the sort's own) fails, set from outside the program.
TEST_CASE("distributed errors: RINGSWEEP_SIMT_FAIL_ALLOC on one rank fails every rank", "[.][fail_alloc_env]") {
  const char* env = std::getenv("RINGSWEEP_SIMT_FAIL_ALLOC");
  CHECK(on_all_ranks(world_rank() == world_size() - 1 ? env != nullptr : env == nullptr));
  CHECK(fails_untouched(cudaErrorMemoryAllocation, [&](u32* k, u64* v, std::size_t n) {
    if (env != nullptr) CHECK(simt::allocation_calls() + 1 == std::strtoull(env, nullptr, 10));
    return rmpi::sort_pairs(test_comm, k, v, n);
  }));
}
#endif

// The splitter search's histogram and the partition with more boundaries than 4 ranks make (what
// 20 to 100 ranks would need), run on each rank's device directly and checked against host
// counts: 40 groups (three slices of 16 along the grid) in a second round, and a stable partition
// by 100 splitters (201 slots, several blocks), values carrying input positions.
TEST_CASE("distributed kernels: histogram and partition with many boundaries", "[distributed]") {
  namespace rd = ringsweep::detail;
  std::mt19937_64 rng(seed() * 31 + u64(world_rank()));
  const std::size_t n = 9000;
  std::vector<u32> keys(n);
  for (auto& k : keys) k = u32(rng() % 60) << 24 | u32(rng() % 5) << 16 | u32(rng() % 3);  // many equal keys
  rd::key_digits<u32> digits{};
  for (int t = 0; t < 4; ++t) digits.digit[t] = rd::digit_extractor<u32>(false, 24 - 8 * t, 8);
  ringsweep_test::device_buffer<u32> d_keys(keys);

  // Round 1: groups are 40 distinct top digits (some no key has); count each group's second digit.
  std::vector<unsigned char> prefixes(40 * rd::probe_max_digits, 0);
  for (unsigned g = 0; g < 40; ++g) prefixes[g * rd::probe_max_digits] = static_cast<unsigned char>(g * 3 / 2);
  ringsweep_test::device_buffer<unsigned char> d_prefixes(prefixes);
  ringsweep_test::device_buffer<unsigned long long> d_counts(std::vector<unsigned long long>(40 * 256, 0));
  rd::boundary_histogram_params<u32> h{};
  h.keys = d_keys.data();
  h.n = n;
  h.digits = digits;
  h.prefixes = d_prefixes.data();
  h.groups = 40;
  h.depth = 1;
  h.buckets = 256;
  h.counts = d_counts.data();
  h.x_blocks = 2;
  REQUIRE(rd::launch(rd::boundary_histogram_kernel<u32>, 2 * 3, rd::boundary_histogram_threads, 0,
                     rd::launch_order::serial, h) == cudaSuccess);
  std::vector<unsigned long long> want(40 * 256, 0);
  for (u32 k : keys) {
    for (unsigned g = 0; g < 40; ++g) {
      if (k >> 24 == g * 3 / 2) ++want[g * 256 + ((k >> 16) & 255)];
    }
  }
  CHECK(d_counts.download() == want);

  // The partition by 100 distinct full-depth splitters.
  std::vector<u32> split;
  for (std::size_t i = 0; split.size() < 100; ++i) split.push_back(keys[i * 37 % n]);
  std::sort(split.begin(), split.end());
  split.erase(std::unique(split.begin(), split.end()), split.end());
  while (split.size() < 100) split.push_back(split.back() + 1);  // distinct, increasing
  std::sort(split.begin(), split.end());
  const unsigned count = unsigned(split.size());
  std::vector<unsigned char> table(count * rd::probe_max_digits, 0);
  for (unsigned i = 0; i < count; ++i) {
    for (int t = 0; t < 4; ++t) {
      table[i * rd::probe_max_digits + t] = static_cast<unsigned char>(split[i] >> (24 - 8 * t));
    }
  }
  std::vector<u32> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  ringsweep_test::device_buffer<u32> d_positions(positions), d_keys_out(n), d_positions_out(n);
  ringsweep_test::device_buffer<unsigned char> d_table(table);
  using raw = rd::value_raw<u32>;
  rd::slot_partition_params<u32, raw> sp{};
  sp.keys_in = d_keys.data();
  sp.keys_out = d_keys_out.data();
  sp.values_in = reinterpret_cast<const raw*>(d_positions.data());
  sp.values_out = reinterpret_cast<raw*>(d_positions_out.data());
  sp.n = n;
  sp.blocks = rmpi::detail_mpi::partition_blocks(n, 2 * count + 1);
  CHECK(sp.blocks > 1);
  sp.span = (n + sp.blocks - 1) / sp.blocks;
  sp.digits = digits;
  sp.splitters = d_table.data();
  sp.count = count;
  sp.depth = 4;
  ringsweep_test::device_buffer<unsigned long long> d_offsets(std::size_t(2 * count + 1) * sp.blocks);
  sp.offsets = d_offsets.data();
  auto partition = [&](bool block_wide) {
    REQUIRE(rd::launch(block_wide ? rd::slot_count_block_kernel<u32, raw> : rd::slot_count_kernel<u32, raw>,
                       sp.blocks, block_wide ? rd::slot_block_threads : rd::slot_partition_threads, 0,
                       rd::launch_order::serial, sp) == cudaSuccess);
    REQUIRE(rd::launch(rd::slot_scan_kernel, 1, rd::slot_scan_threads, 0, rd::launch_order::serial, sp.offsets,
                       std::size_t(2 * count + 1) * sp.blocks) == cudaSuccess);
    REQUIRE(rd::launch(block_wide ? rd::slot_scatter_block_kernel<u32, raw> : rd::slot_scatter_kernel<u32, raw>,
                       sp.blocks, block_wide ? rd::slot_block_threads : rd::slot_partition_threads, 0,
                       rd::launch_order::serial, sp) == cudaSuccess);
  };
  auto slot = [&](u32 k) {
    const std::size_t i = std::size_t(std::lower_bound(split.begin(), split.end(), k) - split.begin());
    return 2 * i + (i < split.size() && split[i] == k ? 1 : 0);
  };
  std::vector<u32> order(positions);
  std::stable_sort(order.begin(), order.end(), [&](u32 a, u32 b) { return slot(keys[a]) < slot(keys[b]); });
  std::vector<u32> want_keys(n);
  for (std::size_t i = 0; i < n; ++i) want_keys[i] = keys[order[i]];
  // One warp per block (what more than 512 ranks take), then block-wide (what fewer take).
  for (bool block_wide : {false, true}) {
    INFO((block_wide ? "block-wide" : "one warp per block") << " partition, " << sp.blocks << " blocks");
    partition(block_wide);
    CHECK(d_positions_out.download() == order);
    CHECK(d_keys_out.download() == want_keys);
    CHECK(cudaMemset(d_positions_out.data(), 0, n * sizeof(u32)) == cudaSuccess);
    CHECK(cudaMemset(d_keys_out.data(), 0, n * sizeof(u32)) == cudaSuccess);
  }
  CHECK(2 * count + 1 <= rd::slot_block_max_slots);
  CHECK(rmpi::detail_mpi::partition_blocks(std::size_t(1) << 30, 65535) == 32);  // the counters' cap
}

TEST_CASE("distributed: a communicator of some ranks; a null one", "[distributed]") {
  // Even and odd ranks of the world sort apart, at the same time.
  MPI_Comm part = MPI_COMM_NULL;
  int world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_split(MPI_COMM_WORLD, world % 2, world, &part);
  test_comm = part;
  CHECK(pairs_right(make_u32(world % 2 == 0 ? shape::dominant : shape::uniform, seed() + 10)));
  test_comm = MPI_COMM_WORLD;
  MPI_Comm_free(&part);
  u32* none = nullptr;
  CHECK(rmpi::sort_keys(MPI_COMM_NULL, none, 0) == cudaErrorInvalidValue);
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 11)));
}

TEST_CASE("distributed: phase times are recorded", "[distributed]") {
  CHECK(pairs_right(make_u32(shape::uniform, seed() + 9)));
  const rmpi::phase_times t = rmpi::last_phase_times();
  CHECK(t.total > 0);
  CHECK(t.local_sort == 0);  // no local sort before the exchange any more
  CHECK(t.final_sort > 0);
  if (world_size() > 1) CHECK(t.splitters > 0);
  CHECK(t.splitters + t.partition + t.exchange + t.final_sort <= t.total * 1.001 + 1e-6);
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank();
#if defined(RINGSWEEP_VARIANT_GPU)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (rank == 0) std::printf("distributed test: SKIPPED, no CUDA device\n");
    MPI_Finalize();
    return 77;
  }
  cudaSetDevice(rank % devices);  // ranks share the GPUs there are
#endif
  if (rank == 0) std::printf("distributed test: %d ranks\n", world_size());
  std::fflush(stdout);
  const int failed = ringsweep_test::run_catch(argc, argv);
  int any = failed != 0 ? 1 : 0;
  int all = 0;
  MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return all;
}
