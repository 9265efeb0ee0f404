// Helpers of the sort tests: host reference sorts, key generators, checks.
#pragma once

#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_policies.cuh"
#include "test_util.cuh"

namespace ringsweep_test {

template <class Key>
using bits_of = typename ringsweep::key_traits<Key>::bits_type;

template <class Key>
bits_of<Key> raw_bits(Key k) {
  return ringsweep::key_traits<Key>::to_bits(k);
}

/// The sort key of `k` under `opts` (the bit window of the possibly complemented image).
template <class Key>
std::uint64_t sort_key(Key k, const ringsweep::sort_options& opts) {
  using T = ringsweep::key_traits<Key>;
  const int end = opts.end_bit < 0 ? T::bits : opts.end_bit;
  std::uint64_t img = T::to_ordered(T::to_bits(k));
  if (opts.order == ringsweep::sort_order::descending) img = ~img;
  const int width = end - opts.begin_bit;
  if (width <= 0) return 0;
  img >>= opts.begin_bit;
  return width >= 64 ? img : img & ((std::uint64_t(1) << width) - 1);
}

/// The stable sorting permutation of `keys` under `opts` (reference: std::stable_sort).
template <class Key>
std::vector<std::size_t> reference_order(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  std::vector<std::uint64_t> sk(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) sk[i] = sort_key(keys[i], opts);
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sk[a] < sk[b]; });
  return order;
}

/// Index of the first position where the key bits differ, or -1.
template <class Key>
long long first_key_mismatch(const std::vector<Key>& got, const std::vector<Key>& input,
                             const std::vector<std::size_t>& order) {
  if (got.size() != order.size()) return 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (raw_bits(got[i]) != raw_bits(input[order[i]])) return static_cast<long long>(i);
  }
  return -1;
}

/// A value derived from an index, spread over all of the value's bytes.
template <class Value>
Value value_of_index(std::size_t i) {
  unsigned char bytes[sizeof(Value)];
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  for (std::size_t b = 0; b < sizeof(Value); ++b) {
    bytes[b] = static_cast<unsigned char>(b % 8 == 0 ? (i >> (8 * (b / 8 % 8))) : (x >> (8 * (b % 8))));
    if (b == 0) bytes[b] = static_cast<unsigned char>(i);
  }
  if (sizeof(Value) >= 4) {
    const std::uint32_t idx = static_cast<std::uint32_t>(i);
    std::memcpy(bytes, &idx, 4);  // the index itself, readable in failures
  }
  Value v;
  std::memcpy(&v, bytes, sizeof(Value));
  return v;
}

template <class Value>
bool same_bytes(const Value& a, const Value& b) {
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

/// Key distributions of the tests.
enum class distribution { uniform, all_equal, few_distinct, sorted, reversed, high_bits_only, small_range };

inline const char* name(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::all_equal: return "all_equal";
    case distribution::few_distinct: return "few_distinct";
    case distribution::sorted: return "sorted";
    case distribution::reversed: return "reversed";
    case distribution::high_bits_only: return "high_bits_only";
    case distribution::small_range: return "small_range";
  }
  return "?";
}

/// `n` keys of a distribution; every bit pattern is a valid key (floats include NaNs and zeros).
template <class Key>
std::vector<Key> make_keys(std::size_t n, distribution d, std::uint64_t seed) {
  using bits = bits_of<Key>;
  using T = ringsweep::key_traits<Key>;
  std::vector<Key> keys;
  switch (d) {
    case distribution::uniform:
      return ringsweep_test::random_keys<Key>(n, seed, 1);
    case distribution::few_distinct:
      return ringsweep_test::random_keys<Key>(n, seed, 4);
    case distribution::all_equal:
      return std::vector<Key>(n, ringsweep_test::random_keys<Key>(1, seed, 1)[0]);
    case distribution::high_bits_only: {
      keys = ringsweep_test::random_keys<Key>(n, seed, 1);
      for (auto& k : keys) k = T::from_bits(bits(T::to_bits(k) & bits(bits(~bits(0)) << (T::bits - 5))));
      return keys;
    }
    case distribution::small_range: {
      std::mt19937_64 rng(seed);
      keys.resize(n);
      for (auto& k : keys) k = T::from_bits(bits(rng() % 3));
      return keys;
    }
    case distribution::sorted:
    case distribution::reversed: {
      keys = ringsweep_test::random_keys<Key>(n, seed, 1);
      ringsweep::sort_options asc;
      const auto order = reference_order(keys, asc);
      std::vector<Key> out(n);
      for (std::size_t i = 0; i < n; ++i) out[i] = keys[order[d == distribution::sorted ? i : n - 1 - i]];
      return out;
    }
  }
  return keys;
}


/// Bitwise equality of two key vectors (NaNs compare by bits).
template <class Key>
bool same_keys(const std::vector<Key>& a, const std::vector<Key>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (raw_bits(a[i]) != raw_bits(b[i])) return false;
  }
  return true;
}

/// Options of one order and bit window.
///
///     const auto opts = sort_options_of(ringsweep::sort_order::descending, 8, 24);
inline ringsweep::sort_options sort_options_of(ringsweep::sort_order o, int begin = 0, int end = -1) {
  ringsweep::sort_options opts;
  opts.order = o;
  opts.begin_bit = begin;
  opts.end_bit = end;
  return opts;
}

inline const char* order_name(const ringsweep::sort_options& o) {
  return o.order == ringsweep::sort_order::ascending ? "ascending" : "descending";
}

/// What a check sorted, for its failure messages: "<what>, n <n>, <order>, bits [<b>, <e>)".
inline std::string sort_case(const std::string& what, std::size_t n, const ringsweep::sort_options& opts) {
  return what + ", n " + std::to_string(n) + ", " + order_name(opts) + ", bits [" + std::to_string(opts.begin_bit) +
         ", " + std::to_string(opts.end_bit) + ")";
}

/// The values the pair checks sort beside their keys: value_of_index of each position.
template <class Value>
std::vector<Value> index_values(std::size_t n) {
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of_index<Value>(i);
  return values;
}

/// The first position where `got` is not values[order[i]] (bytewise), or got.size() when none.
template <class Value>
std::size_t first_value_mismatch(const std::vector<Value>& got, const std::vector<Value>& values,
                                 const std::vector<std::size_t>& order) {
  if (got.size() != order.size()) return 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!same_bytes(got[i], values[order[i]])) return i;
  }
  return got.size();
}

/// Requires `got_keys` to be `keys` in their stable order under `opts`, and `got_values` (when not
/// null) `*values` in that order. Per key and value type, whatever the policy that sorted them.
template <class Key, class Value = char>
void require_sorted(const std::vector<Key>& keys, const std::vector<Key>& got_keys, const ringsweep::sort_options& opts,
                    const std::vector<Value>* values = nullptr, const std::vector<Value>* got_values = nullptr) {
  const auto order = reference_order(keys, opts);
  const long long key_mismatch = first_key_mismatch(got_keys, keys, order);
  INFO("first key mismatch at " << key_mismatch);
  REQUIRE(key_mismatch == -1);
  if (values != nullptr) {
    const std::size_t value_mismatch = first_value_mismatch(*got_values, *values, order);
    INFO("first value mismatch at " << value_mismatch);
    REQUIRE(value_mismatch == got_values->size());
  }
}

/// In/out keys-only sort with `Policy`, checked against the host reference; the input must stay.
template <class Policy, class Key>
void check_sort_keys(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  INFO(sort_case("keys only", n, opts));
  ringsweep_test::device_buffer<Key> in(keys), out(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, in.data(), out.data(), n, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, in.data(), out.data(), n, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  require_sorted(keys, out.download(), opts);
  REQUIRE(same_keys(in.download(), keys));
}

/// In/out pair sort with `Policy`: values are derived from input indices, so stability is checked.
template <class Policy, class Key, class Value>
void check_sort_pairs(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  INFO(sort_case("pairs (value " + std::to_string(sizeof(Value)) + " bytes)", n, opts));
  const auto values = index_values<Value>(n);
  ringsweep_test::device_buffer<Key> kin(keys), kout(n);
  ringsweep_test::device_buffer<Value> vin(values), vout(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(),
                                                     n, opts));
  ringsweep_test::device_bytes temp(bytes);
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                     vout.data(), n, opts));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto got_values = vout.download();
  require_sorted(keys, kout.download(), opts, &values, &got_values);
  REQUIRE(same_keys(kin.download(), keys));
  const auto vin_after = vin.download();
  REQUIRE((n == 0 || std::memcmp(vin_after.data(), values.data(), n * sizeof(Value)) == 0));
}

/// Double-buffer pair (or keys-only, `WITH_VALUES` false) sort with `Policy`.
template <class Policy, class Key, class Value, bool WITH_VALUES>
void check_sort_double_buffer(const std::vector<Key>& keys, const ringsweep::sort_options& opts,
                              int expected_selector = -1) {
  const std::size_t n = keys.size();
  INFO(sort_case(WITH_VALUES ? "double buffer pairs" : "double buffer keys", n, opts));
  const auto values = index_values<Value>(n);
  ringsweep_test::device_buffer<Key> k0(keys), k1(n);
  ringsweep_test::device_buffer<Value> v0(values), v1(n);
  ringsweep::double_buffer<Key> kb(k0.data(), k1.data());
  ringsweep::double_buffer<Value> vb(v0.data(), v1.data());
  std::size_t bytes = 0;
  if (WITH_VALUES) {
    REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(nullptr, bytes, kb, vb, n, opts));
  } else {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, kb, n, opts));
  }
  REQUIRE(bytes <= std::size_t(4) << 20);
  ringsweep_test::device_bytes temp(bytes);
  if (WITH_VALUES) {
    REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(temp.data(), bytes, kb, vb, n, opts));
  } else {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(temp.data(), bytes, kb, n, opts));
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (expected_selector >= 0) REQUIRE(kb.selector == expected_selector);
  if (WITH_VALUES) REQUIRE(vb.selector == kb.selector);
  INFO("selector " << kb.selector);
  const auto got_keys = (kb.selector == 0 ? k0 : k1).download();
  if (WITH_VALUES) {
    const auto got_values = (vb.selector == 0 ? v0 : v1).download();
    require_sorted(keys, got_keys, opts, &values, &got_values);
  } else {
    require_sorted(keys, got_keys, opts);
  }
}

/// In-place sort (pairs, or keys only when `WITH_VALUES` is false) with `Policy`.
template <class Policy, class Key, class Value, bool WITH_VALUES>
void check_sort_in_place(const std::vector<Key>& keys, const ringsweep::sort_options& opts) {
  const std::size_t n = keys.size();
  INFO(sort_case(WITH_VALUES ? "in place pairs" : "in place keys", n, opts));
  const auto values = index_values<Value>(n);
  ringsweep_test::device_buffer<Key> k(keys);
  ringsweep_test::device_buffer<Value> v(values);
  if (WITH_VALUES) {
    REQUIRE_CUDA(ringsweep::tuning::sort_pairs<Policy>(k.data(), v.data(), n, opts));
  } else {
    REQUIRE_CUDA(ringsweep::tuning::sort_keys<Policy>(k.data(), n, opts));
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (WITH_VALUES) {
    const auto got_values = v.download();
    require_sorted(keys, k.download(), opts, &values, &got_values);
  } else {
    require_sorted(keys, k.download(), opts);
  }
}

}  // namespace ringsweep_test
