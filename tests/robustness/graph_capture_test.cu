// Sorts captured into CUDA graphs and replayed with new input (both backends). Capture fails if a
// sort makes any call that could synchronise the host with the stream (the SIMT backend refuses
// them as a GPU does), so a clean capture is the test of "no hidden host synchronisation"; the
// replays check that what was recorded is the whole sort: the memset, every launch with its
// parameters, and (in-place form) the temporary allocation that lives with the graph.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

#include "robustness_util.cuh"

using ringsweep_test::device_buffer;

namespace {

using ringsweep_test::capture;
using ringsweep_test::stream_guard;

template <class Key>
std::vector<std::size_t> stable_order(const std::vector<Key>& keys) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

template <class Key>
std::vector<Key> sorted(std::vector<Key> v) {
  std::stable_sort(v.begin(), v.end());
  return v;
}

// Tile of the device policy for 4-byte keys, and sizes around the paths a sort can take.
constexpr std::size_t device_tile = ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE;
const std::vector<std::size_t> sizes{0, 1, 1000, 3 * device_tile + 77};

}  // namespace

TEST_CASE("captured in/out key sorts replay with new input", "[graph]") {
  stream_guard sg;
  for (std::size_t n : sizes) {
    INFO("n " << n);
    device_buffer<std::uint32_t> in(std::max<std::size_t>(n, 1)), out(std::max<std::size_t>(n, 1));
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, n));
    ringsweep_test::device_bytes temp(bytes);
    const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) {
      return ringsweep::sort_keys(temp.data(), bytes, in.data(), out.data(), n, {}, s);
    });
    for (int replay = 0; replay < 3; ++replay) {
      INFO("replay " << replay);
      const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 40 + replay + n);
      if (n > 0) REQUIRE_CUDA(cudaMemcpy(in.data(), keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
      REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
      REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
      auto got = out.download();
      got.resize(n);
      CHECK(got == sorted(keys));
    }
    REQUIRE_CUDA(cudaGraphExecDestroy(exec));
  }
}

TEST_CASE("captured double-buffer pair sorts replay with new input, descending, bit window", "[graph]") {
  stream_guard sg;
  ringsweep::sort_options opts;
  opts.order = ringsweep::sort_order::descending;
  opts.end_bit = 48;
  for (std::size_t n : sizes) {
    INFO("n " << n);
    const std::size_t cap = std::max<std::size_t>(n, 1);
    device_buffer<std::uint64_t> k0(cap), k1(cap);
    device_buffer<std::uint32_t> v0(cap), v1(cap);
    ringsweep::double_buffer<std::uint64_t> kb(k0.data(), k1.data());
    ringsweep::double_buffer<std::uint32_t> vb(v0.data(), v1.data());
    std::size_t bytes = 0;
    REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, kb, vb, n, opts));
    ringsweep_test::device_bytes temp(bytes);
    const cudaGraphExec_t exec =
        capture(sg.s, [&](cudaStream_t s) { return ringsweep::sort_pairs(temp.data(), bytes, kb, vb, n, opts, s); });
    // The selectors were set at capture time and hold for every replay.
    const auto& keys_out = kb.selector == 0 ? k0 : k1;
    const auto& values_out = vb.selector == 0 ? v0 : v1;
    for (int replay = 0; replay < 2; ++replay) {
      INFO("replay " << replay);
      const auto keys = ringsweep_test::random_keys<std::uint64_t>(n, 70 + replay + n);
      std::vector<std::uint32_t> index(n);
      std::iota(index.begin(), index.end(), 0u);
      if (n > 0) {
        REQUIRE_CUDA(cudaMemcpy(k0.data(), keys.data(), n * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
        REQUIRE_CUDA(cudaMemcpy(v0.data(), index.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
      }
      REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
      REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
      // Reference: descending on bits [0, 48), stable.
      std::vector<std::uint64_t> sort_keys(n);
      for (std::size_t i = 0; i < n; ++i) sort_keys[i] = ~keys[i] & ((std::uint64_t(1) << 48) - 1);
      const auto order = stable_order(sort_keys);
      auto got_keys = keys_out.download();
      auto got_values = values_out.download();
      std::size_t bad = n;
      for (std::size_t i = 0; i < n && bad == n; ++i) {
        if (got_keys[i] != keys[order[i]] || got_values[i] != std::uint32_t(order[i])) bad = i;
      }
      INFO("first mismatch at " << bad);
      CHECK(bad == n);
    }
    REQUIRE_CUDA(cudaGraphExecDestroy(exec));
  }
}

TEST_CASE("captured in-place sorts: the temporary allocation lives with the graph", "[graph]") {
  stream_guard sg;
  const std::size_t n = 2 * device_tile + 5;
  device_buffer<float> keys_d(n);
  const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) { return ringsweep::sort_keys(keys_d.data(), n, {}, s); });
  for (int replay = 0; replay < 3; ++replay) {
    INFO("replay " << replay);
    std::vector<float> keys(n);
    const auto bits = ringsweep_test::random_keys<std::uint32_t>(n, 90 + replay);
    for (std::size_t i = 0; i < n; ++i) keys[i] = float(int(bits[i] % 20001u) - 10000) / 8.0f;
    REQUIRE_CUDA(cudaMemcpy(keys_d.data(), keys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
    REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
    CHECK(keys_d.download() == sorted(keys));
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}

TEST_CASE("captured sorts with the tiny policy: many portion launches, buffer wraps", "[graph]") {
  using tiny = ringsweep_test::policy_tiny;
  stream_guard sg;
  const std::size_t n = 20 * 192 + 5;  // 21 tiles: three 8-tile portions per pass
  device_buffer<std::uint32_t> kin(n), kout(n), vin(n), vout(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  ringsweep_test::device_bytes temp(bytes);
  const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) {
    return ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                               {}, s);
  });
  for (int replay = 0; replay < 2; ++replay) {
    const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 11 + replay, 3);  // entropy 0.544: ties
    std::vector<std::uint32_t> index(n);
    std::iota(index.begin(), index.end(), 0u);
    REQUIRE_CUDA(cudaMemcpy(kin.data(), keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemcpy(vin.data(), index.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
    REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
    const auto order = stable_order(keys);
    std::vector<std::uint32_t> want_keys(n), want_values(n);
    for (std::size_t i = 0; i < n; ++i) {
      want_keys[i] = keys[order[i]];
      want_values[i] = std::uint32_t(order[i]);
    }
    CHECK(kout.download() == want_keys);
    CHECK(vout.download() == want_values);
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}

TEST_CASE("a captured sort skips other passes on each replay", "[graph][skip]") {
  // Which passes run, where each writes and whether a final copy runs are decided on the device:
  // one graph serves inputs with every pass, two, three or none executed.
  using tiny = ringsweep_test::policy_tiny;
  stream_guard sg;
  const std::size_t n = 20 * 192 + 5;
  device_buffer<std::uint32_t> kin(n), kout(n), vin(n), vout(n), k0(n), k1(n);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::tuning::sort_pairs<tiny>(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n));
  ringsweep_test::device_bytes temp(bytes);
  std::size_t db_bytes = 0;
  ringsweep::double_buffer<std::uint32_t> kb(k0.data(), k1.data());
  REQUIRE_CUDA(ringsweep::tuning::sort_keys<tiny>(nullptr, db_bytes, kb, n));
  ringsweep_test::device_bytes db_temp(db_bytes);
  const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) {
    cudaError_t e = ringsweep::tuning::sort_pairs<tiny>(temp.data(), bytes, kin.data(), kout.data(), vin.data(),
                                                        vout.data(), n, {}, s);
    return e != cudaSuccess ? e : ringsweep::tuning::sort_keys<tiny>(db_temp.data(), db_bytes, kb, n, {}, s);
  });
  REQUIRE(kb.selector == 0);  // four passes: the result is in the current buffer
  const std::uint32_t limits[] = {~0u, 0xFFFFu, 0xFFFFFFu, 0u, 0xFFu, ~0u};
  for (std::uint32_t limit : limits) {
    INFO("keys up to " << limit);
    auto keys = ringsweep_test::random_ints<std::uint32_t>(n, 300 + limit, 0u, limit);
    if (limit == 0u) keys.assign(n, 0xABCDEF01u);  // constant keys: no pass runs
    std::vector<std::uint32_t> index(n);
    std::iota(index.begin(), index.end(), 0u);
    REQUIRE_CUDA(cudaMemcpy(kin.data(), keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemcpy(vin.data(), index.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemcpy(k0.data(), keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
    REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
    const auto order = stable_order(keys);
    std::vector<std::uint32_t> want_keys(n), want_values(n);
    for (std::size_t i = 0; i < n; ++i) {
      want_keys[i] = keys[order[i]];
      want_values[i] = std::uint32_t(order[i]);
    }
    CHECK(kout.download() == want_keys);
    CHECK(vout.download() == want_values);
    CHECK(k0.download() == want_keys);
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}

TEST_CASE("a rejected sort inside a capture records nothing and leaves the capture valid", "[graph]") {
  stream_guard sg;
  device_buffer<std::uint32_t> d(std::vector<std::uint32_t>(100, 5u));
  std::size_t bytes = 0;
  const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) {
    const cudaError_t e = ringsweep::sort_keys<std::uint32_t>(d.data(), bytes, nullptr, d.data(), 100, {}, s);
    CHECK(e == cudaErrorInvalidValue);  // null input with n > 0
    cudaGetLastError();
    return cudaSuccess;
  });
  REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
  REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
  CHECK(d.download() == std::vector<std::uint32_t>(100, 5u));
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}

TEST_CASE("captured segmented sorts replay with new offsets and keys", "[graph][segmented]") {
  // The host reads no offset: one capture serves replays whose segments change class (tiny, small,
  // large) and count of large tiles, because the device classifies them at each replay.
  stream_guard sg;
  const std::size_t n = 3 * device_tile + 500, segments = 4;
  device_buffer<std::uint32_t> in(n), out(n), values_in(n), values_out(n);
  device_buffer<long long> begin(segments), end(segments);
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::segmented_sort_pairs(nullptr, bytes, in.data(), out.data(), values_in.data(),
                                               values_out.data(), n, segments, begin.data(), end.data()));
  ringsweep_test::device_bytes temp(bytes);
  const cudaGraphExec_t exec = capture(sg.s, [&](cudaStream_t s) {
    return ringsweep::segmented_sort_pairs(temp.data(), bytes, in.data(), out.data(), values_in.data(),
                                           values_out.data(), n, segments, begin.data(), end.data(), {}, s);
  });
  const std::vector<std::vector<long long>> layouts = {
      {0, 10, 300, long(n)},                        // tiny, small (290), large
      {0, long(device_tile + 1), long(n) - 5, long(n)},  // large, large, tiny
      {0, 0, 0, long(n)},                           // empty, empty, one large segment holding all
  };
  for (std::size_t replay = 0; replay < layouts.size(); ++replay) {
    INFO("replay " << replay);
    const auto& bounds = layouts[replay];
    std::vector<long long> b(bounds.begin(), bounds.end() - 1), e(bounds.begin() + 1, bounds.end());
    b.push_back(0);  // a fourth, empty segment
    e.push_back(0);
    const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 90 + replay);
    std::vector<std::uint32_t> index(n);
    std::iota(index.begin(), index.end(), 0u);
    in.upload(keys);
    values_in.upload(index);
    begin.upload(b);
    end.upload(e);
    REQUIRE_CUDA(cudaGraphLaunch(exec, sg.s));
    REQUIRE_CUDA(cudaStreamSynchronize(sg.s));
    const auto got = out.download();
    const auto got_values = values_out.download();
    for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
      const std::vector<std::uint32_t> part(keys.begin() + bounds[s], keys.begin() + bounds[s + 1]);
      const auto order = stable_order(part);
      for (std::size_t j = 0; j < order.size(); ++j) {
        INFO("segment " << s << ", position " << j);
        REQUIRE(got[std::size_t(bounds[s]) + j] == part[order[j]]);
        REQUIRE(got_values[std::size_t(bounds[s]) + j] == std::uint32_t(bounds[s] + long(order[j])));
      }
    }
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
}
