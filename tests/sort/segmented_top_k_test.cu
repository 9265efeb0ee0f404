// Batched top-k (segmented_top_k_keys / pairs / indices, top_k.cuh): each segment's first k of
// std::stable_sort, sorted, in its k slots, the rest untouched. Segments of every class (empty,
// one key, tiny, small, long), offsets as pointers and iterators, long rows selected by a block
// and split among blocks at part boundaries, rows of one length (and, on the SIMT backend, the
// launches they take), many tiny segments. Custom keys: top_k_test.cu.
#include <catch2/catch.hpp>

#include <ringsweep/ringsweep.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "sort_test_util.cuh"
#include "top_k_test_policy.cuh"

#if defined(RINGSWEEP_VARIANT_SIMT)
#include <ringsweep_simt/control.hpp>
#endif

namespace {

using ringsweep::sort_order;
using ringsweep_test::distribution;
using ringsweep_test::sort_options_of;
using top_k_test::policy_tiny_top_k;
using tiny = policy_tiny_top_k;

}  // namespace

namespace {

/// Segments given as rows of one length (the rows overloads: no offsets): `begin` and `end` must
/// be rows of `size` keys from position 0.
struct as_rows {
  std::size_t size;
};

/// segmented_top_k_{keys, pairs, indices} of `keys` over the segments `[begin[i], end[i])`,
/// against each valid segment's stable sort cut to k; slots past a segment's size, and every
/// slot of an ignored segment, must keep their poison. `iters`: the offsets as a pair of
/// iterators giving `begin` and `end` (instead of device copies of them), or as_rows.
template <class Policy, class Key, class Index, class Iterators = std::nullptr_t>
void check_segmented_top_k(const std::vector<Key>& keys, const std::vector<std::int64_t>& begin,
                           const std::vector<std::int64_t>& end, std::size_t k, const ringsweep::sort_options& opts,
                           int first_form = 0, Iterators iters = nullptr) {
  const std::size_t n = keys.size(), segments = begin.size();
  INFO("n " << n << ", " << segments << " segments, k " << k << ", " << ringsweep_test::order_name(opts));
  ringsweep_test::device_buffer<Key> in(keys), out(segments * k + 1);
  ringsweep_test::device_buffer<std::int64_t> d_begin(begin), d_end(end);
  ringsweep_test::device_buffer<Index> idx(segments * k + 1);
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i * 2654435761u + 7);
  ringsweep_test::device_buffer<std::uint32_t> vin(values), vout(segments * k + 1);
  for (int form = first_form; form < 3; ++form) {
    INFO((form == 0 ? "keys" : form == 1 ? "pairs" : "indices"));
    out.fill_bytes(0xAB);
    idx.fill_bytes(0xAB);
    vout.fill_bytes(0xAB);
    // Indices with k = 8 (or 2) run without keys: every key slot keeps its poison.
    const bool no_keys = form == 2 && (k == 8 || k == 2);
    const auto forms = [&](void* t, std::size_t& b, auto d_b, auto d_e) {
      if (form == 0) {
        return ringsweep::tuning::segmented_top_k_keys<Policy>(t, b, in.data(), out.data(), n, segments, d_b, d_e, k,
                                                               opts);
      } else if (form == 1) {
        return ringsweep::tuning::segmented_top_k_pairs<Policy>(t, b, in.data(), out.data(), vin.data(), vout.data(), n,
                                                                segments, d_b, d_e, k, opts);
      }
      return ringsweep::tuning::segmented_top_k_indices<Policy>(t, b, in.data(), no_keys ? nullptr : out.data(),
                                                                idx.data(), n, segments, d_b, d_e, k, opts);
    };
    const auto call = [&](void* t, std::size_t& b) {
      if constexpr (std::is_same<Iterators, as_rows>::value) {
        if (form == 0) {
          return ringsweep::tuning::segmented_top_k_keys<Policy>(t, b, in.data(), out.data(), segments, iters.size, k,
                                                                 opts);
        } else if (form == 1) {
          return ringsweep::tuning::segmented_top_k_pairs<Policy>(t, b, in.data(), out.data(), vin.data(), vout.data(),
                                                                  segments, iters.size, k, opts);
        }
        return ringsweep::tuning::segmented_top_k_indices<Policy>(t, b, in.data(), no_keys ? nullptr : out.data(),
                                                                  idx.data(), segments, iters.size, k, opts);
      } else if constexpr (std::is_same<Iterators, std::nullptr_t>::value) {
        return forms(t, b, d_begin.data(), d_end.data());
      } else {
        return forms(t, b, iters.first, iters.second);
      }
    };
    std::size_t bytes = 0;
    REQUIRE_CUDA(call(nullptr, bytes));
    ringsweep_test::device_bytes temp(bytes);
    REQUIRE_CUDA(call(temp.data(), bytes));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto got = out.download();
    const auto got_v = vout.download();
    const auto got_i = idx.download();
    Key poison_key;
    std::memset(static_cast<void*>(&poison_key), 0xAB, sizeof(Key));
    Index poison_index;
    std::memset(&poison_index, 0xAB, sizeof(Index));
    for (std::size_t s = 0; s < segments; ++s) {
      INFO("segment " << s << " [" << begin[s] << ", " << end[s] << ")");
      const bool valid = begin[s] < end[s] && begin[s] >= 0 && std::uint64_t(end[s]) <= n;
      std::vector<Key> seg;
      for (std::int64_t i = valid ? begin[s] : 0; valid && i < end[s]; ++i) seg.push_back(keys[std::size_t(i)]);
      const auto order = ringsweep_test::reference_order(seg, opts);
      for (std::size_t j = 0; j < k; ++j) {
        INFO("slot " << j);
        const std::size_t at = s * k + j;
        if (j < seg.size()) {
          const std::size_t pos = std::size_t(begin[s]) + order[j];
          REQUIRE(ringsweep_test::raw_bits(got[at]) == ringsweep_test::raw_bits(no_keys ? poison_key : keys[pos]));
          if (form == 1) REQUIRE(got_v[at] == values[pos]);
          if (form == 2) REQUIRE(std::uint64_t(got_i[at]) == std::uint64_t(pos));
        } else {
          REQUIRE(ringsweep_test::raw_bits(got[at]) == ringsweep_test::raw_bits(poison_key));
          if (form == 1) REQUIRE(got_v[at] == 0xABABABABu);
          if (form == 2) REQUIRE(got_i[at] == poison_index);
        }
      }
    }
    CHECK(ringsweep_test::raw_bits(got[segments * k]) == ringsweep_test::raw_bits(poison_key));
  }
  CHECK(ringsweep_test::same_keys(in.download(), keys));
}

}  // namespace

TEST_CASE("segmented_top_k: empty, short, tiny, small and large segments", "[sort][top_k][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  // Sizes for policy_tiny's classes: tiny up to 128 keys (a warp), small up to 192 (a block), large
  // beyond (onesweep passes); an empty segment, one of a single key, one outside the input, a gap.
  const std::size_t sizes[] = {0, 1, 5, 8, 9, 64, 127, 128, 129, 191, 192, 193, 700, 2000, 3};
  std::vector<std::int64_t> begin, end;
  std::int64_t at = 0;
  for (std::size_t size : sizes) {
    begin.push_back(at);
    end.push_back(at + std::int64_t(size));
    at += std::int64_t(size) + (size == 64 ? 10 : 0);  // a gap after the 64-key segment
  }
  const std::size_t n = std::size_t(at);
  begin.push_back(std::int64_t(n) - 4);  // reaches past the input: ignored
  end.push_back(std::int64_t(n) + 4);
  begin.push_back(40);  // reversed: empty
  end.push_back(20);
  std::swap(begin[2], begin[5]);  // segments in any order
  std::swap(end[2], end[5]);
  for (distribution d : {distribution::uniform, distribution::small_range}) {
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(n, d, seed + 3);
    for (std::size_t k : {std::size_t(1), std::size_t(8), std::size_t(64), std::size_t(200)}) {
      for (sort_order o : {sort_order::ascending, sort_order::descending}) {
        check_segmented_top_k<tiny, std::uint32_t, std::int64_t>(keys, begin, end, k, sort_options_of(o));
      }
    }
  }
}

namespace {
/// Offsets as a user's iterator (operator[] is all the sort reads): row i starts at `i * 400` and
/// holds `(i * 97) % 400` keys (ends when `end`), so rows of every class of policy_tiny lie between
/// gaps.
struct row_bounds {
  bool end;
  __host__ __device__ std::int64_t operator[](std::ptrdiff_t i) const {
    return std::int64_t(i) * 400 + (end ? (std::int64_t(i) * 97) % 400 : 0);
  }
};
}  // namespace

TEST_CASE("segmented_top_k: offsets as iterators", "[sort][top_k][segmented]") {
  // 12 rows: empty, tiny (73, 85, 97 keys), small (170, 182) and long (267 to 388); the gaps between
  // them and after the last one are outside every segment.
  std::vector<std::int64_t> begin, end;
  for (int i = 0; i < 12; ++i) {
    begin.push_back(row_bounds{false}[i]);
    end.push_back(row_bounds{true}[i]);
  }
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(12 * 400, distribution::small_range, 7);
  for (std::size_t k : {std::size_t(64), std::size_t(200)}) {
    check_segmented_top_k<tiny, std::uint32_t, std::int64_t>(keys, begin, end, k,
                                                             sort_options_of(sort_order::descending), 0,
                                                             std::make_pair(row_bounds{false}, row_bounds{true}));
  }
}

namespace {
/// Rows of `sizes` keys one after another, of every kind by their index: random (0 to 3 and 5),
/// all equal (4), one key of 90% (6), sorted (7), reversed (8), few distinct with shared low
/// digits (9), two heavy keys and keys sharing two digits with one (10), random after that.
void long_rows(const std::vector<std::size_t>& sizes, std::uint64_t seed, std::vector<std::int64_t>& begin,
               std::vector<std::int64_t>& end, std::vector<std::uint32_t>& keys) {
  std::mt19937_64 rng(seed);
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    begin.push_back(std::int64_t(keys.size()));
    auto row = ringsweep_test::make_keys<std::uint32_t>(sizes[r], distribution::uniform, seed + r);
    switch (r) {
      case 4: std::fill(row.begin(), row.end(), 0x5a5a5a5au); break;  // all equal
      case 6:
        for (auto& key : row) {
          if (rng() % 10 != 0) key = 0x80000000u;  // one key of 90%
        }
        break;
      case 7: std::sort(row.begin(), row.end()); break;
      case 8: std::sort(row.begin(), row.end(), [](std::uint32_t a, std::uint32_t b) { return a > b; }); break;
      case 9:
        for (auto& key : row) key = std::uint32_t(rng() % 3) << 28 | 0x00012345u;  // few distinct, shared low digits
        break;
      case 10:
        // The guessed key (50%), another heavy key of its top digit (30%; the walk leaves the
        // guess there, descending), keys sharing two digits with the guess (10%).
        for (auto& key : row) {
          const auto x = rng() % 10;
          if (x < 5) key = 0x11223344u;
          else if (x < 8) key = 0x11aa5566u;
          else if (x == 8) key = 0x11220000u | std::uint32_t(rng() & 0xffffu);
        }
        break;
      default: break;
    }
    keys.insert(keys.end(), row.begin(), row.end());
    end.push_back(std::int64_t(keys.size()));
  }
}
}  // namespace

TEST_CASE("segmented_top_k: rows longer than a tile, each selected by a block", "[sort][top_k][segmented]") {
  // policy_tiny: a row of more than 192 keys gets a radix select of its own (design.md section 15)
  // and a sort of its min(k, size) candidates; k above 192 sends those through onesweep passes.
  // Rows of every kind next to each other (long_rows); exactly a tile (a block sorts it) and one
  // key more; empty and short rows. Buckets of more than an eighth of a row (and a tile) stay in
  // the row and are counted along the guessed key, so the next split may walk several levels.
  std::vector<std::int64_t> begin, end;
  std::vector<std::uint32_t> keys;
  long_rows({1000, 192, 193, 0, 2500, 7, 700, 1500, 900, 300, 1200}, ringsweep_test::catch_seed(), begin, end, keys);
  for (std::size_t k : {std::size_t(1), std::size_t(33), std::size_t(150), std::size_t(250), std::size_t(3000)}) {
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      check_segmented_top_k<tiny, std::uint32_t, std::int64_t>(keys, begin, end, k, sort_options_of(o), k == 33 ? 0 : 1);
    }
  }
  // A bit window: keys equal within it are equal (the first positions win).
  check_segmented_top_k<tiny, std::uint32_t, std::int64_t>(keys, begin, end, 40,
                                                           sort_options_of(sort_order::descending, 4, 20));
  check_segmented_top_k<tiny, std::uint32_t, std::int64_t>(keys, begin, end, 40,
                                                           sort_options_of(sort_order::ascending, 9, 9), 1);
}

namespace {
/// policy_tiny_top_k whose long rows split into parts of at least 48 keys (and k), whatever n.
struct policy_tiny_top_k_parts : policy_tiny_top_k {
  static constexpr int TOP_K_ROW_PART_MIN = 48;
  static constexpr int TOP_K_ROW_PARTS_PER_SM = 1 << 20;
};
}  // namespace

TEST_CASE("segmented_top_k: long rows split among blocks", "[sort][top_k][segmented]") {
  // A row of more than 192 keys splits into min(size / max(48, k), 192 / k) parts, one block's
  // select each; the parts' candidates, k each in part order, are the row's sorted candidates.
  // Rows at part boundaries (4 x 48 +- 1 and 5 x 48 +- 1 for k <= 48), of every kind (long_rows:
  // all equal, one key of 90% and two heavy keys cross the parts with ties), short rows between.
  // k: 1 (up to 192 parts), 8, 33, 48 (4 parts of 48: 192 candidates, one tile), 64 (3 parts),
  // 96 (2), 97 (no split).
  using parts = policy_tiny_top_k_parts;
  std::vector<std::int64_t> begin, end;
  std::vector<std::uint32_t> keys;
  long_rows({239, 240, 241, 191, 193, 9, 700, 1000, 900, 600, 1200, 287, 288, 289}, ringsweep_test::catch_seed() + 5,
            begin, end, keys);
  for (std::size_t k : {std::size_t(1), std::size_t(8), std::size_t(33), std::size_t(48), std::size_t(64),
                        std::size_t(96), std::size_t(97)}) {
    const sort_order o = k % 2 == 0 ? sort_order::ascending : sort_order::descending;
    check_segmented_top_k<parts, std::uint32_t, std::int64_t>(keys, begin, end, k, sort_options_of(o),
                                                              k == 33 ? 0 : (k == 8 || k == 64 ? 1 : 2));
  }
  check_segmented_top_k<parts, std::uint32_t, std::int64_t>(keys, begin, end, 40,
                                                            sort_options_of(sort_order::descending, 4, 20), 1);
}

TEST_CASE("segmented_top_k: rows of one length", "[sort][top_k][segmented]") {
  // The rows overloads: the same results as the offsets forms, and (SIMT) the launches of the
  // class the rows are in only. policy_tiny's classes: tiny up to 96 keys, compact to 128, medium
  // to 160, small to 192. Short rows: the classification with the tiny sorts (90 keys: one
  // launch), and their class's kernel (100: two). Long rows (split, policy_tiny_top_k_parts): the
  // list, the selects and the candidates' classification (14 parts x 4 = 56 candidates: three),
  // and their class's kernel (4 x 48 = 192 candidates, and 97 of an unsplit row: four). The offsets
  // forms launch both segmented sorts' every class.
  using parts = policy_tiny_top_k_parts;
  const struct {
    std::size_t rows, size, k;
    unsigned long long launches;
  } cases[] = {{16, 90, 8, 1}, {16, 100, 8, 2}, {4, 700, 4, 3}, {3, 193, 48, 4}, {2, 600, 97, 4}, {5, 1, 3, 1}};
  for (const auto& c : cases) {
    std::vector<std::int64_t> begin, end;
    for (std::size_t r = 0; r < c.rows; ++r) {
      begin.push_back(std::int64_t(r * c.size));
      end.push_back(std::int64_t((r + 1) * c.size));
    }
    const auto keys = ringsweep_test::make_keys<std::uint32_t>(c.rows * c.size, distribution::few_distinct,
                                                               ringsweep_test::catch_seed() + c.size);
#if defined(RINGSWEEP_VARIANT_SIMT)
    const unsigned long long before = simt::kernel_launches();
#endif
    check_segmented_top_k<parts, std::uint32_t, std::int64_t>(keys, begin, end, c.k,
                                                              sort_options_of(sort_order::descending), 0,
                                                              as_rows{c.size});
#if defined(RINGSWEEP_VARIANT_SIMT)
    // Three forms, each a size query and a call.
    INFO(c.rows << " rows of " << c.size << ", k " << c.k);
    CHECK(simt::kernel_launches() - before == 3 * c.launches);
#endif
  }
}

TEST_CASE("segmented_top_k: 2^16 tiny segments", "[sort][top_k][segmented]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> begin, end;
  std::int64_t at = 0;
  for (std::size_t s = 0; s < (std::size_t(1) << 16); ++s) {
    const std::int64_t size = std::int64_t(rng() % 4);
    begin.push_back(at);
    end.push_back(at + size);
    at += size;
  }
  const auto keys = ringsweep_test::make_keys<std::uint32_t>(std::size_t(at), distribution::few_distinct, seed);
  // Indices with keys only: each form costs seconds on the SIMT backend at 2^16 warps.
  check_segmented_top_k<tiny, std::uint32_t, std::uint32_t>(keys, begin, end, 2, sort_options_of(sort_order::descending),
                                                            2);
}
