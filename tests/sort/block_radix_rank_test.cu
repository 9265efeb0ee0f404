// block_radix_rank alone: a tiny kernel ranks random digits; ranks, counts and tile starts must
// match a host stable ranking, also for ragged tiles and a narrow radix.
#include <catch2/catch.hpp>

#include <ringsweep/block/block_radix_rank.cuh>
#include <ringsweep/detail/load_store.cuh>

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
  REQUIRE_CUDA(sort_test::launch(rank_kernel<THREADS, ITEMS, RADIX_BITS>, 1, THREADS, d_digits.data(), valid,
                                 d_ranks.data(), d_counts.data(), d_starts.data(), d_early.data()));
  REQUIRE_CUDA_LAUNCH();
  std::vector<u32> ranks = d_ranks.download();
  ranks.resize(valid);
  CHECK(ranks == expected_rank);
  CHECK(d_counts.download() == expected_count);
  CHECK(d_early.download() == expected_count);
  CHECK(d_starts.download() == expected_start);
}

}  // namespace

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
