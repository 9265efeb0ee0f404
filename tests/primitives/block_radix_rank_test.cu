// block_radix_rank alone: a tiny kernel ranks random digits; ranks, counts and tile starts must
// match a host stable ranking, also for ragged tiles and a narrow radix. And its warp match:
// the ballot form (what GPUs run) must agree with a host computation on every lane.
#include <catch2/catch.hpp>

#include <ringsweep/block/block_radix_rank.cuh>
#include <ringsweep/detail/load_store.cuh>
#include <ringsweep/warp/warp_match.cuh>

#include <vector>

#include "sort_test_util.cuh"

namespace {

using ringsweep::detail::u32;

template <int THREADS, int ITEMS, int RADIX_BITS>
__global__ void rank_kernel(const u32* digits_in, int valid, u32* ranks_out, u32* counts_out, u32* starts_out,
                            u32* early_counts_out) {
  using rank_t = ringsweep::detail::block_radix_rank<THREADS, ITEMS, RADIX_BITS>;
  constexpr int DPT = rank_t::DIGITS_PER_THREAD;
  __shared__ typename rank_t::TempStorage temp;
  const int seg = int(threadIdx.x) / 32 * 32 * ITEMS;
  const u32 lane = ringsweep::detail::lane_id();
  u32 digits[ITEMS];
  for (int k = 0; k < ITEMS; ++k) digits[k] = 0;
  ringsweep::detail::load_warp_striped(digits_in + seg, lane, valid - seg, digits);
  u32 ranks[ITEMS], counts[DPT], starts[DPT];
  rank_t(temp).rank(digits, valid, ranks, counts, starts, [&](const u32 (&c)[DPT]) {
    for (int i = 0; i < DPT; ++i) {
      const int d = rank_t::first_digit() + i;
      if (d < rank_t::RADIX) early_counts_out[d] = c[i];
    }
  });
  ringsweep::detail::store_warp_striped(ranks_out + seg, lane, valid - seg, ranks);
  for (int i = 0; i < DPT; ++i) {
    const int d = rank_t::first_digit() + i;
    if (d < rank_t::RADIX) {
      counts_out[d] = counts[i];
      starts_out[d] = starts[i];
    }
  }
}

template <int THREADS, int ITEMS, int RADIX_BITS>
void check_ranking(int valid, int distinct, std::uint64_t seed) {
  constexpr int RADIX = 1 << RADIX_BITS;
  INFO("THREADS " << THREADS << " ITEMS " << ITEMS << " RADIX_BITS " << RADIX_BITS << " valid " << valid
                  << " distinct " << distinct);
  std::vector<u32> digits = ringsweep_test::random_ints<u32>(std::size_t(valid), seed, 0u, u32(distinct - 1));
  for (auto& d : digits) d = (d * 37u) % u32(RADIX);  // spread over the radix
  std::vector<u32> expected_rank(valid), expected_count(RADIX, 0), expected_start(RADIX, 0);
  for (u32 d : digits) ++expected_count[d];
  for (int d = 1; d < RADIX; ++d) expected_start[d] = expected_start[d - 1] + expected_count[d - 1];
  std::vector<u32> seen(RADIX, 0);
  for (int i = 0; i < valid; ++i) expected_rank[i] = expected_start[digits[i]] + seen[digits[i]]++;

  ringsweep_test::device_buffer<u32> d_digits(std::max<std::size_t>(digits.size(), 1));
  if (valid > 0) REQUIRE_CUDA(cudaMemcpy(d_digits.data(), digits.data(), valid * sizeof(u32), cudaMemcpyHostToDevice));
  ringsweep_test::device_buffer<u32> d_ranks(THREADS * ITEMS), d_counts(RADIX), d_starts(RADIX), d_early(RADIX);
  REQUIRE_CUDA(ringsweep_test::launch(rank_kernel<THREADS, ITEMS, RADIX_BITS>, 1, THREADS, 0, ringsweep_test::serial,
                                      d_digits.data(), valid, d_ranks.data(), d_counts.data(), d_starts.data(),
                                      d_early.data()));
  REQUIRE_CUDA_LAUNCH();
  std::vector<u32> ranks = d_ranks.download();
  ranks.resize(valid);
  CHECK(ranks == expected_rank);
  CHECK(d_counts.download() == expected_count);
  CHECK(d_early.download() == expected_count);
  CHECK(d_starts.download() == expected_start);
}

template <int BITS>
__global__ void match_kernel(const u32* values, u32* by_ballot, u32* dispatched) {
  const u32 v = values[blockIdx.x * 32 + threadIdx.x];
  by_ballot[blockIdx.x * 32 + threadIdx.x] = ringsweep::detail::match_any_by_ballot<BITS>(v);
  dispatched[blockIdx.x * 32 + threadIdx.x] = ringsweep::detail::warp_match_any<BITS>(v);
}

template <int BITS>
void check_match(int distinct, std::uint64_t seed) {
  constexpr int WARPS = 8;
  INFO("BITS " << BITS << " distinct " << distinct);
  // Values above BITS bits too: only the low BITS bits may count.
  std::vector<u32> values = ringsweep_test::random_ints<u32>(WARPS * 32, seed, 0u, u32(distinct - 1));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = values[i] * 2654435761u;
  std::vector<u32> expected(values.size());
  const u32 mask = (1u << BITS) - 1u;
  for (int w = 0; w < WARPS; ++w) {
    for (int l = 0; l < 32; ++l) {
      u32 peers = 0;
      for (int m = 0; m < 32; ++m) {
        if ((values[w * 32 + m] & mask) == (values[w * 32 + l] & mask)) peers |= 1u << m;
      }
      expected[w * 32 + l] = peers;
    }
  }
  ringsweep_test::device_buffer<u32> d_values(values), d_ballot(values.size()), d_dispatched(values.size());
  REQUIRE_CUDA(
      ringsweep_test::launch(match_kernel<BITS>, WARPS, 32, 0, ringsweep_test::serial,
                             d_values.data(), d_ballot.data(), d_dispatched.data()));
  REQUIRE_CUDA_LAUNCH();
  CHECK(d_ballot.download() == expected);
  CHECK(d_dispatched.download() == expected);
}

}  // namespace

TEST_CASE("warp match_any: ballot form and dispatched form agree with the host", "[rank][warp]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (int distinct : {1, 2, 5, 33, 1000}) {
    check_match<8>(distinct, seed + std::uint64_t(distinct));
    check_match<5>(distinct, seed + 3 * std::uint64_t(distinct));
    check_match<1>(distinct, seed + 7 * std::uint64_t(distinct));
  }
}

TEST_CASE("block_radix_rank matches a host stable ranking", "[rank]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (int distinct : {1, 2, 7, 256}) {
    for (int valid : {1, 31, 32, 33, 100, 191, 192}) {
      check_ranking<64, 3, 8>(valid, distinct, seed + std::uint64_t(valid) * 131 + std::uint64_t(distinct));
    }
  }
}

TEST_CASE("block_radix_rank with fewer digits than threads and many warps", "[rank]") {
  const std::uint64_t seed = ringsweep_test::catch_seed();
  for (int valid : {1, 40, 255, 256}) check_ranking<128, 2, 4>(valid, 16, seed + std::uint64_t(valid));
  for (int valid : {1, 33, 500, 512}) check_ranking<256, 2, 8>(valid, 256, seed + 7 * std::uint64_t(valid));
  check_ranking<32, 5, 8>(160, 3, seed + 3);
}
