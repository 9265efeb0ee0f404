// Sorts whose count lives on the device (device_count): every form (in/out and double-buffer keys
// and pairs, argsort with and without keys) with counts 0, 1, max_n, between, negative and above
// max_n, across tile and portion edges of the tiny policies (one block per tile, and the persistent
// pipelined kernel), the single-tile and copy paths, every Count type; the temporary storage of
// max_n; the argument checks; graph replays that change the count.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "sort_test_util.cuh"

namespace {

using tiny = ringsweep_test::policy_tiny;
using pipelined = ringsweep_test::policy_tiny_pipelined;
using ringsweep_test::device_buffer;
using ringsweep_test::distribution;
constexpr std::size_t tile = 192;          // policy_tiny's tile for 4-byte keys and pairs
constexpr std::size_t portion = 8 * tile;  // its portion

/// The forms a counted sort takes.
enum class form { keys, pairs, db_keys, db_pairs, argsort_keys, argsort_only };
const char* name(form f) {
  switch (f) {
    case form::keys: return "in/out keys";
    case form::pairs: return "in/out pairs";
    case form::db_keys: return "double-buffer keys";
    case form::db_pairs: return "double-buffer pairs";
    case form::argsort_keys: return "argsort with keys";
    case form::argsort_only: return "argsort, indices only";
  }
  return "?";
}
bool double_buffered(form f) { return f == form::db_keys || f == form::db_pairs; }
bool with_values(form f) { return f != form::keys && f != form::db_keys; }

/// The count the device word `count` (as a Count) stands for, with bound `max_n`.
template <class Count>
std::size_t effective(long long count, std::size_t max_n) {
  const Count c = Count(count);
  if constexpr (std::is_signed<Count>::value) {
    if (c < 0) return 0;
  }
  return std::size_t(std::min<std::uint64_t>(std::uint64_t(c), max_n));
}

/// The four arrays of a sort: keys k0 (input, or a double buffer's current one), k1 (output, or
/// its alternate) and values v0, v1 (argsort writes its indices to v1). k1 and v1 start as 0xAB.
template <class Key, class Value>
struct arrays {
  device_buffer<Key> k0, k1;
  device_buffer<Value> v0, v1;
  arrays(const std::vector<Key>& keys, const std::vector<Value>& values)
      : k0(keys), k1(keys.size()), v0(values), v1(values.size()) {
    k1.fill_bytes(0xAB);
    v1.fill_bytes(0xAB);
  }
};

/// Sorts `a` in form `f` with `Policy` (the device's when void) and count `n` (a device_count or
/// a host std::size_t); `selector`: where a double buffer's result is.
template <class Policy, class Key, class Value, class N>
cudaError_t run_form(form f, void* temp, std::size_t& bytes, arrays<Key, Value>& a, N n,
                     const ringsweep::sort_options& opts, cudaStream_t stream, int& selector) {
  ringsweep::double_buffer<Key> kb(a.k0.data(), a.k1.data());
  ringsweep::double_buffer<Value> vb(a.v0.data(), a.v1.data());
  Key* const k0 = a.k0.data();
  Key* const k1 = a.k1.data();
  Value* const v0 = a.v0.data();
  Value* const v1 = a.v1.data();
  cudaError_t e = cudaErrorInvalidValue;
  if constexpr (std::is_void<Policy>::value) {
    switch (f) {
      case form::keys: e = ringsweep::sort_keys(temp, bytes, k0, k1, n, opts, stream); break;
      case form::pairs: e = ringsweep::sort_pairs(temp, bytes, k0, k1, v0, v1, n, opts, stream); break;
      case form::db_keys: e = ringsweep::sort_keys(temp, bytes, kb, n, opts, stream); break;
      case form::db_pairs: e = ringsweep::sort_pairs(temp, bytes, kb, vb, n, opts, stream); break;
      case form::argsort_keys: e = ringsweep::argsort(temp, bytes, k0, k1, v1, n, opts, stream); break;
      case form::argsort_only: e = ringsweep::argsort(temp, bytes, k0, nullptr, v1, n, opts, stream); break;
    }
  } else {
    namespace t = ringsweep::tuning;
    switch (f) {
      case form::keys: e = t::sort_keys<Policy>(temp, bytes, k0, k1, n, opts, stream); break;
      case form::pairs: e = t::sort_pairs<Policy>(temp, bytes, k0, k1, v0, v1, n, opts, stream); break;
      case form::db_keys: e = t::sort_keys<Policy>(temp, bytes, kb, n, opts, stream); break;
      case form::db_pairs: e = t::sort_pairs<Policy>(temp, bytes, kb, vb, n, opts, stream); break;
      case form::argsort_keys: e = t::argsort<Policy>(temp, bytes, k0, k1, v1, n, opts, stream); break;
      case form::argsort_only:
        e = t::argsort<Policy>(temp, bytes, k0, static_cast<Key*>(nullptr), v1, n, opts, stream);
        break;
    }
  }
  selector = kb.selector;
  if (f == form::db_pairs && e == cudaSuccess) CHECK(vb.selector == kb.selector);
  return e;
}

template <class T>
bool is_poison(const T& x) {
  unsigned char p[sizeof(T)];
  std::memset(p, 0xAB, sizeof(T));
  return std::memcmp(&x, p, sizeof(T)) == 0;
}

/// Checks the arrays after a counted sort of `keys` (values `values`) that sorted `m` keys: the
/// first m sorted (stably, against std::stable_sort), every position from m on untouched.
template <class Key, class Value>
void check_result(form f, const arrays<Key, Value>& a, int selector, const std::vector<Key>& keys,
                  const std::vector<Value>& values, std::size_t m, const ringsweep::sort_options& opts) {
  const std::size_t max_n = keys.size();
  const auto order = ringsweep_test::reference_order(std::vector<Key>(keys.begin(), keys.begin() + m), opts);
  const auto k0 = a.k0.download(), k1 = a.k1.download();
  const auto v0 = a.v0.download(), v1 = a.v1.download();
  const bool flipped = double_buffered(f) && selector == 1;
  const auto& got_keys = flipped ? k1 : double_buffered(f) ? k0 : k1;
  const auto& got_values = flipped ? v1 : double_buffered(f) ? v0 : v1;
  INFO("selector " << selector);
  if (f != form::argsort_only) {
    for (std::size_t i = 0; i < m; ++i) {
      INFO("key at " << i);
      REQUIRE(ringsweep_test::raw_bits(got_keys[i]) == ringsweep_test::raw_bits(keys[order[i]]));
    }
  }
  if (f == form::argsort_keys || f == form::argsort_only) {
    for (std::size_t i = 0; i < m; ++i) {
      INFO("index at " << i);
      REQUIRE(std::uint64_t(v1[i]) == std::uint64_t(order[i]));
    }
  } else if (with_values(f)) {
    for (std::size_t i = 0; i < m; ++i) {
      INFO("value at " << i);
      REQUIRE(ringsweep_test::same_bytes(got_values[i], values[order[i]]));
    }
  }
  // Positions from the count on: never written (k0 / v0 keep the input, k1 / v1 the poison).
  for (std::size_t i = m; i < max_n; ++i) {
    INFO("position " << i << " past the count");
    REQUIRE(ringsweep_test::raw_bits(k0[i]) == ringsweep_test::raw_bits(keys[i]));
    REQUIRE(is_poison(k1[i]));
    REQUIRE(ringsweep_test::same_bytes(v0[i], values[i]));
    REQUIRE(is_poison(v1[i]));
  }
  if (f == form::argsort_only) {
    for (std::size_t i = 0; i < max_n; ++i) REQUIRE(is_poison(k1[i]));  // no keys_out was given
  }
  if (!double_buffered(f)) {  // the in/out forms never write their input
    for (std::size_t i = 0; i < m; ++i) REQUIRE(ringsweep_test::raw_bits(k0[i]) == ringsweep_test::raw_bits(keys[i]));
  }
}

/// One counted sort of `keys` (max_n = keys.size()) with the device word `count` as a Count, in form
/// `f`, with `Policy`: the query matches the host form's for max_n, and the result is checked.
template <class Policy, class Key, class Value, class Count>
void check_counted(form f, const std::vector<Key>& keys, long long count, const ringsweep::sort_options& opts) {
  const std::size_t max_n = keys.size();
  const std::size_t m = effective<Count>(count, max_n);
  INFO(name(f) << ", max_n " << max_n << ", count " << count << " as " << sizeof(Count) << "-byte "
               << (std::is_signed<Count>::value ? "signed" : "unsigned") << " -> " << m << ", "
               << ringsweep_test::order_name(opts) << ", bits [" << opts.begin_bit << ", " << opts.end_bit << ")");
  std::vector<Value> values(max_n);
  for (std::size_t i = 0; i < max_n; ++i) values[i] = ringsweep_test::value_of_index<Value>(i + 7);
  arrays<Key, Value> a(keys, values);
  device_buffer<Count> d_n(std::vector<Count>{Count(count)});
  const ringsweep::device_count<Count> n{d_n.data(), max_n};
  int selector = 0;
  std::size_t bytes = 0, host_bytes = 0;
  REQUIRE_CUDA(run_form<Policy>(f, nullptr, bytes, a, n, opts, 0, selector));
  REQUIRE_CUDA(run_form<Policy>(f, nullptr, host_bytes, a, max_n, opts, 0, selector));
  CHECK(bytes == host_bytes);  // the temporary storage of max_n keys, whatever the count
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(run_form<Policy>(f, temp.data(), bytes, a, n, opts, 0, selector));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  check_result(f, a, selector, keys, values, m, opts);
}

/// Every form, each with its own Count type, for one max_n and count.
template <class Policy, class Key>
void check_forms(const std::vector<Key>& keys, long long count, const ringsweep::sort_options& opts) {
  check_counted<Policy, Key, std::uint32_t, std::int32_t>(form::keys, keys, count, opts);
  check_counted<Policy, Key, std::uint32_t, std::uint32_t>(form::pairs, keys, count, opts);
  check_counted<Policy, Key, std::uint32_t, std::int64_t>(form::db_keys, keys, count, opts);
  check_counted<Policy, Key, std::uint32_t, std::uint64_t>(form::db_pairs, keys, count, opts);
  check_counted<Policy, Key, std::uint32_t, std::int64_t>(form::argsort_keys, keys, count, opts);
  check_counted<Policy, Key, std::uint32_t, std::int32_t>(form::argsort_only, keys, count, opts);
}

/// Counts for a bound of `max_n`: negative, 0, 1, 2, around the tile and portion edges, half,
/// max_n - 1, max_n, above max_n and far above.
std::vector<long long> counts_for(std::size_t max_n) {
  std::vector<long long> c{-1, 0, 1, 2};
  for (std::size_t x : {tile - 1, tile, tile + 1, portion, portion + 1, max_n / 2, max_n - 1, max_n, max_n + 1}) {
    if (x <= max_n + 1 && std::find(c.begin(), c.end(), (long long)x) == c.end()) c.push_back((long long)x);
  }
  c.push_back(std::numeric_limits<long long>::max());
  return c;
}

}  // namespace

TEST_CASE("device count: every form, counts across tile and portion edges (one block per tile)",
          "[sort][device_count]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // tile - 1: the single-tile path; 5 tiles + 17: one portion; 20 tiles + 5: three portions.
  for (std::size_t max_n : {std::size_t(1), tile - 1, 5 * tile + 17, 20 * tile + 5}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(max_n, distribution::few_distinct, seed + max_n);
    for (long long count : counts_for(max_n)) check_forms<tiny>(keys, count, {});
  }
}

TEST_CASE("device count: the persistent pipelined kernel stops at the count", "[sort][device_count]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t max_n = 20 * tile + 5;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(max_n, distribution::uniform, seed);
  // 2 portions + 1: the last portion has one real tile of five, and the next pass's first launch
  // must still find the ticket where the host put its tile_base.
  for (long long count : {0ll, 1ll, (long long)tile + 1, (long long)portion + 1, 2 * (long long)portion + 1,
                          (long long)max_n - 1, (long long)max_n, -5ll}) {
    check_forms<pipelined>(keys, count, {});
  }
}

TEST_CASE("device count: tiles that pause at random (one block per tile, and pipelined)", "[sort][device_count]") {
  // A block that takes a ticket past the real tiles while the last real tile is still moving the
  // ticket counter, a portion without real tiles beside the previous one's last tiles: pauses at
  // every synchronisation point of a tile shuffle those orders.
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t max_n = 20 * tile + 5;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(max_n, distribution::uniform, seed + 9);
  for (long long count : {(long long)tile + 1, (long long)portion + 1, 2 * (long long)portion + 1, 3000ll}) {
    check_counted<ringsweep_test::policy_tiny_faulty, std::uint32_t, std::uint32_t, int>(form::pairs, keys, count, {});
    check_counted<ringsweep_test::policy_tiny_pipelined_faulty, std::uint32_t, std::uint32_t, int>(form::db_keys, keys,
                                                                                                  count, {});
  }
}

TEST_CASE("device count: descending, a bit window, 64-bit keys, and the copy path of an empty window",
          "[sort][device_count]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t max_n = 9 * tile + 3;  // two portions of 64-bit keys (the tile is smaller)
  const auto keys = ringsweep_test::make_keys<std::uint64_t>(max_n, distribution::uniform, seed + 1);
  const auto desc = ringsweep_test::sort_options_of(ringsweep::sort_order::descending, 4, 44);
  for (long long count : {0ll, 3ll, (long long)tile, (long long)max_n - 100, (long long)max_n + 1}) {
    check_counted<tiny, std::uint64_t, std::uint32_t, long long>(form::pairs, keys, count, desc);
    check_counted<tiny, std::uint64_t, std::uint32_t, std::uint32_t>(form::db_keys, keys, count, desc);
  }
  // An empty bit window (no digit pass): the in/out forms copy the count's keys, argsort writes
  // positions, the double buffers keep theirs.
  const auto empty = ringsweep_test::sort_options_of(ringsweep::sort_order::ascending, 8, 8);
  const auto small = ringsweep_test::make_keys<std::uint32_t>(5 * tile + 17, distribution::uniform, seed + 2);
  for (long long count : {-2ll, 0ll, 7ll, (long long)small.size()}) check_forms<tiny>(small, count, empty);
}

TEST_CASE("device count: the device's policy, single tile and onesweep", "[sort][device_count]") {
  using config = ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>;
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const std::size_t device_tile = std::size_t(config::TILE);
  for (std::size_t max_n : {std::size_t(1000), device_tile + 40}) {
    const auto keys = ringsweep_test::make_keys<float>(max_n, distribution::uniform, seed + max_n);
    for (long long count : {0ll, 1ll, 999ll, (long long)max_n, -1ll}) {
      check_counted<void, float, std::uint32_t, std::int32_t>(form::keys, keys, count, {});
      check_counted<void, float, std::uint32_t, std::uint64_t>(form::db_pairs, keys, count, {});
    }
  }
}

TEST_CASE("device count: argument checks", "[sort][device_count]") {
  const std::size_t max_n = 3 * tile;
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(max_n, distribution::uniform, 5);
  std::vector<std::uint32_t> values(max_n, 9u);
  arrays<std::uint32_t, std::uint32_t> a(keys, values);
  device_buffer<int> d_n(std::vector<int>{int(max_n)});
  int selector = 0;
  std::size_t bytes = 0;
  // The size query reads no pointer: a null count is fine there.
  const ringsweep::device_count<int> null_count{nullptr, max_n};
  for (form f : {form::keys, form::pairs, form::db_keys, form::db_pairs, form::argsort_keys, form::argsort_only}) {
    INFO(name(f));
    REQUIRE_CUDA(run_form<tiny>(f, nullptr, bytes, a, null_count, {}, 0, selector));
    ringsweep_test::device_bytes temp(bytes);
    // A null count with max_n > 0, too little temporary storage, a bad window: nothing written.
    CHECK(run_form<tiny>(f, temp.data(), bytes, a, null_count, {}, 0, selector) == cudaErrorInvalidValue);
    std::size_t less = bytes - 1;
    const ringsweep::device_count<int> n{d_n.data(), max_n};
    CHECK(run_form<tiny>(f, temp.data(), less, a, n, {}, 0, selector) == cudaErrorInvalidValue);
    CHECK(run_form<tiny>(f, temp.data(), bytes, a, n, ringsweep_test::sort_options_of(ringsweep::sort_order::ascending, 0, 33), 0,
                         selector) == cudaErrorInvalidValue);
    CHECK(selector == 0);
    // max_n = 0 sorts nothing, whatever the pointer.
    std::size_t zero_bytes = 0;
    REQUIRE_CUDA(run_form<tiny>(f, nullptr, zero_bytes, a, ringsweep::device_count<int>{nullptr, 0}, {}, 0, selector));
    ringsweep_test::device_bytes zero_temp(zero_bytes);
    REQUIRE_CUDA(run_form<tiny>(f, zero_temp.data(), zero_bytes, a, ringsweep::device_count<int>{nullptr, 0}, {}, 0,
                                selector));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    check_result(f, a, selector, keys, values, 0, {});
  }
  // Overlapping in/out arrays, and an argsort bound whose positions do not fit the index type.
  {
    ringsweep_test::device_bytes temp(std::size_t(1) << 20);
    std::size_t big = temp.size();
    const ringsweep::device_count<int> n{d_n.data(), max_n};
    CHECK(ringsweep::tuning::sort_keys<tiny>(temp.data(), big, a.k0.data(), a.k0.data() + 1, n) ==
          cudaErrorInvalidValue);
    std::int32_t* idx = reinterpret_cast<std::int32_t*>(a.v1.data());
    const ringsweep::device_count<int> huge{d_n.data(), (std::size_t(1) << 31) + 1};
    std::size_t query = 0;
    CHECK(ringsweep::tuning::argsort<tiny>(nullptr, query, a.k0.data(), a.k1.data(), idx, huge) ==
          cudaErrorInvalidValue);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    check_result(form::keys, a, 0, keys, values, 0, {});
  }
}

namespace {

using ringsweep_test::capture;
using ringsweep_test::stream_guard;

/// Captures one counted sort of form `f` with `Policy` and replays it with each count of `counts`
/// and new keys; every replay must sort exactly its count.
template <class Policy, class Count>
void check_replays(form f, std::size_t max_n, const std::vector<long long>& counts) {
  stream_guard sg;
  std::vector<std::uint32_t> keys(max_n), values(max_n);
  for (std::size_t i = 0; i < max_n; ++i) values[i] = std::uint32_t(i * 3 + 1);
  arrays<std::uint32_t, std::uint32_t> a(keys, values);
  device_buffer<Count> d_n(1);
  const ringsweep::device_count<Count> n{d_n.data(), max_n};
  std::size_t bytes = 0;
  int selector = 0;
  REQUIRE_CUDA(run_form<Policy>(f, nullptr, bytes, a, n, {}, 0, selector));
  ringsweep_test::device_bytes temp(bytes);
  const cudaGraphExec_t exec =
      capture(sg.s, [&](cudaStream_t s) { return run_form<Policy>(f, temp.data(), bytes, a, n, {}, s, selector); });
  for (std::size_t replay = 0; replay < counts.size(); ++replay) {
    const long long count = counts[replay];
    INFO(name(f) << ", max_n " << max_n << ", replay " << replay << " with count " << count);
    keys = ringsweep_test::make_keys<std::uint32_t>(max_n, distribution::few_distinct, 500 + replay);
    a.k0.upload(keys);
    a.v0.upload(values);
    a.k1.fill_bytes(0xAB);
    a.v1.fill_bytes(0xAB);
    d_n.upload(std::vector<Count>{Count(count)});
    REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
    REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
    check_result(f, a, selector, keys, values, effective<Count>(count, max_n), {});
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}

}  // namespace

TEST_CASE("device count: one captured graph sorts each replay's count", "[sort][device_count][graph]") {
  const std::size_t max_n = 20 * tile + 5;
  const std::vector<long long> counts{(long long)max_n, 0, 5, (long long)tile + 1, (long long)portion + 3, -3,
                                      (long long)max_n + 100, 2 * (long long)portion + 1};
  check_replays<tiny, std::int32_t>(form::pairs, max_n, counts);
  check_replays<tiny, std::uint64_t>(form::db_keys, max_n, counts);
  check_replays<pipelined, std::int64_t>(form::argsort_only, max_n, counts);
  // The single-tile path reads the count too.
  check_replays<tiny, std::uint32_t>(form::db_pairs, tile, {(long long)tile, 1, 0, 100, (long long)tile - 1});
}

namespace {

/// Sorts `rows` rows of `row_len` keys (pairs when `Value` is not void) with `Policy` (the
/// device's when void), each row checked against std::stable_sort; nothing may be written past
/// the rows.
template <class Policy, class Key, class Value>
void check_rows(std::size_t rows, std::size_t row_len, const ringsweep::sort_options& opts, std::uint64_t seed) {
  constexpr bool pairs = !std::is_void<Value>::value;
  using V = typename std::conditional<pairs, Value, std::uint32_t>::type;
  const std::size_t n = rows * row_len;
  INFO(rows << " rows of " << row_len << (pairs ? ", pairs, " : ", keys, ") << ringsweep_test::order_name(opts));
  const auto keys = ringsweep_test::make_keys<Key>(n, distribution::few_distinct, seed);
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = ringsweep_test::value_of_index<V>(i);
  device_buffer<Key> kin(keys), kout(n + 1);
  device_buffer<V> vin(values), vout(n + 1);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  const auto call = [&](void* temp, std::size_t& bytes) {
    if constexpr (pairs && std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_pairs(temp, bytes, kin.data(), kout.data(), vin.data(), vout.data(), rows,
                                             row_len, opts);
    } else if constexpr (pairs) {
      return ringsweep::tuning::segmented_sort_pairs<Policy>(temp, bytes, kin.data(), kout.data(), vin.data(),
                                                             vout.data(), rows, row_len, opts);
    } else if constexpr (std::is_void<Policy>::value) {
      return ringsweep::segmented_sort_keys(temp, bytes, kin.data(), kout.data(), rows, row_len, opts);
    } else {
      return ringsweep::tuning::segmented_sort_keys<Policy>(temp, bytes, kin.data(), kout.data(), rows, row_len, opts);
    }
  };
  std::size_t bytes = 0;
  REQUIRE_CUDA(call(nullptr, bytes));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(call(temp.data(), bytes));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got = kout.download();
  const auto got_values = vout.download();
  for (std::size_t r = 0; r < rows; ++r) {
    const std::vector<Key> row(keys.begin() + r * row_len, keys.begin() + (r + 1) * row_len);
    const auto order = ringsweep_test::reference_order(row, opts);
    for (std::size_t j = 0; j < row_len; ++j) {
      INFO("row " << r << ", position " << j);
      REQUIRE(ringsweep_test::raw_bits(got[r * row_len + j]) == ringsweep_test::raw_bits(row[order[j]]));
      if (pairs) REQUIRE(ringsweep_test::same_bytes(got_values[r * row_len + j], values[r * row_len + order[j]]));
    }
  }
  CHECK(is_poison(got[n]));
  CHECK(is_poison(got_values[n]));
  CHECK(ringsweep_test::same_keys(kin.download(), keys));
}

}  // namespace

TEST_CASE("fixed-size rows: every class of row, pairs, descending", "[sort][rows]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  const auto desc = ringsweep_test::sort_options_of(ringsweep::sort_order::descending);
  // Rows of 1 (copied), of a warp (5, 100), of a block (150, 192), of several tiles (193, 1000,
  // and 1700: rows that cross portions), and no rows at all or rows of no key.
  const std::pair<std::size_t, std::size_t> shapes[] = {{50, 1}, {0, 10}, {7, 0}, {300, 5},  {9, 100},  {4, 150},
                                                        {3, 192}, {5, 193}, {3, 1000}, {2, 1700}, {1, 977}};
  for (const auto& s : shapes) {
    check_rows<tiny, std::uint32_t, void>(s.first, s.second, {}, seed + s.second);
    check_rows<tiny, std::uint32_t, std::uint32_t>(s.first, s.second, desc, seed + s.second + 1);
  }
  check_rows<tiny, std::uint64_t, std::uint16_t>(6, 450, ringsweep_test::sort_options_of(ringsweep::sort_order::ascending, 8, 40),
                                                 seed + 3);
  // The device's policy through the public API.
  check_rows<void, float, void>(64, 300, desc, seed + 4);
  check_rows<void, std::int32_t, std::uint64_t>(3, 10000, {}, seed + 5);
}

TEST_CASE("fixed-size rows: argument checks", "[sort][rows]") {
  device_buffer<std::uint32_t> in(std::vector<std::uint32_t>(600, 3u)), out(600);
  out.fill_bytes(0xAB);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::segmented_sort_keys<tiny>(nullptr, bytes, in.data(), out.data(), 3, 200));
  ringsweep_test::device_bytes temp(bytes);
  std::size_t less = bytes - 1;
  CHECK(ringsweep::tuning::segmented_sort_keys<tiny>(temp.data(), less, in.data(), out.data(), 3, 200) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::segmented_sort_keys<tiny, std::uint32_t>(temp.data(), bytes, nullptr, out.data(), 3, 200) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::tuning::segmented_sort_keys<tiny>(temp.data(), bytes, in.data(), in.data() + 1, 3, 200) ==
        cudaErrorInvalidValue);
  // rows x length overflows std::size_t; 2^32 rows; n of 2^48 keys
  std::size_t query = 0;
  CHECK(ringsweep::segmented_sort_keys<std::uint32_t>(nullptr, query, nullptr, nullptr, std::size_t(1) << 40,
                                                      std::size_t(1) << 40) == cudaErrorInvalidValue);
  CHECK(ringsweep::segmented_sort_keys<std::uint32_t>(nullptr, query, nullptr, nullptr, std::size_t(1) << 32, 2) ==
        cudaErrorInvalidValue);
  CHECK(ringsweep::segmented_sort_keys<std::uint32_t>(nullptr, query, nullptr, nullptr, 2, std::size_t(1) << 47) ==
        cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (std::uint32_t x : out.download()) REQUIRE(is_poison(x));
}
