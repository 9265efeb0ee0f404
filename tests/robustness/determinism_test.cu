// Determinism: the same input gives bitwise-identical keys and values under different schedule
// seeds and worker counts (and different fault-injection timing). SIMT backend only.
#include <catch2/catch.hpp>

#include <ringsweep_simt/control.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "robustness_util.cuh"

using ringsweep_test::device_buffer;

namespace {
struct schedule {
  unsigned long long seed;
  unsigned workers;
  unsigned delay;  // per mille
};

/// Runs `run(i)` under each of `schedules` in turn (the backend's schedule seed, worker count and
/// delay), then restores the backend's settings.
template <std::size_t N, class Run>
void under_schedules(const schedule (&schedules)[N], Run run) {
  const unsigned long long saved_seed = simt::schedule_seed();
  const unsigned saved_workers = simt::workers();
  for (std::size_t i = 0; i < N; ++i) {
    simt::set_schedule_seed(schedules[i].seed);
    simt::set_workers(schedules[i].workers);
    simt::set_delay_permille(schedules[i].delay);
    INFO("seed " << schedules[i].seed << " workers " << schedules[i].workers << " delay " << schedules[i].delay);
    run(i);
  }
  simt::set_delay_permille(0);
  simt::set_workers(saved_workers);
  simt::set_schedule_seed(saved_seed);
}
}  // namespace

TEST_CASE("identical output under every schedule, worker count and delay", "[determinism]") {
  const std::size_t n = 50000;
  // Few distinct keys: stability decides where most values land.
  const auto keys = ringsweep_test::random_keys<float>(n, 77, 4);
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  device_buffer<float> k_in(keys), k_out(n);
  device_buffer<std::uint32_t> v_in(values), v_out(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, k_in.data(), k_out.data(), v_in.data(), v_out.data(), n));
  device_buffer<unsigned char> temp(bytes);

  std::vector<float> first_keys;
  std::vector<std::uint32_t> first_values;
  const schedule runs[] = {{0, 1, 0}, {1, 2, 0}, {2, 3, 20}, {3, 4, 0}, {99, 2, 50}};
  under_schedules(runs, [&](std::size_t i) {
    k_out.fill_bytes(0);
    v_out.fill_bytes(0);
    REQUIRE_CUDA(ringsweep::sort_pairs(temp.data(), bytes, k_in.data(), k_out.data(), v_in.data(), v_out.data(), n));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<float> got_keys = k_out.download();
    const std::vector<std::uint32_t> got_values = v_out.download();
    if (i == 0) {
      first_keys = got_keys;
      first_values = got_values;
      return;
    }
    CHECK(std::memcmp(got_keys.data(), first_keys.data(), n * sizeof(float)) == 0);
    CHECK(got_values == first_values);
  });
}

TEST_CASE("top-k: identical output under every schedule, worker count and delay", "[determinism][top_k]") {
  // The first k of a stable sort: among the many equal keys the earliest positions, whatever the
  // order in which blocks counted, moved and sorted the candidates (the device's policy).
  const std::size_t n = 30000, k = 1000;
  const auto keys = ringsweep_test::random_keys<float>(n, 91, 4);
  device_buffer<float> k_in(keys), k_out(k);
  device_buffer<std::uint32_t> idx(k);
  const ringsweep::sort_options desc{ringsweep::sort_order::descending};
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::top_k_indices(nullptr, bytes, k_in.data(), k_out.data(), idx.data(), n, k, desc));
  device_buffer<unsigned char> temp(bytes);

  std::vector<float> first_keys;
  std::vector<std::uint32_t> first_idx;
  const schedule runs[] = {{0, 1, 0}, {1, 2, 0}, {2, 3, 20}, {99, 2, 50}};
  under_schedules(runs, [&](std::size_t i) {
    k_out.fill_bytes(0);
    idx.fill_bytes(0);
    REQUIRE_CUDA(ringsweep::top_k_indices(temp.data(), bytes, k_in.data(), k_out.data(), idx.data(), n, k, desc));
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<float> got_keys = k_out.download();
    const std::vector<std::uint32_t> got_idx = idx.download();
    if (i == 0) {
      // The first run against the host: positions of the k largest, earliest first among equals.
      std::vector<std::uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] > keys[b]; });
      for (std::size_t j = 0; j < k; ++j) REQUIRE(got_idx[j] == order[j]);
      first_keys = got_keys;
      first_idx = got_idx;
      return;
    }
    CHECK(std::memcmp(got_keys.data(), first_keys.data(), k * sizeof(float)) == 0);
    CHECK(got_idx == first_idx);
  });
}
