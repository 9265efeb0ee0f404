// Bad input, one row per argument the sort must refuse: the error code is cudaErrorInvalidValue
// and not one byte of the outputs, the inputs or the temporary storage changes. Plus inputs that
// are odd but valid: misaligned pointers and sizes that are a multiple of nothing. Both backends.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "robustness_util.cuh"

using ringsweep_test::device_buffer;

namespace {

constexpr unsigned char k_fill = 0x5c;

// Device memory laid out as: keys_in | keys_out | values_in | values_out | temp, each filled
// with k_fill (inputs with data), so that any write shows up.
struct arena {
  static constexpr std::size_t n = 1000;
  device_buffer<std::uint32_t> keys{2 * n + 8};
  device_buffer<std::uint64_t> values{2 * n + 8};
  device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  std::vector<std::uint32_t> key_image;
  std::vector<std::uint64_t> value_image;
  std::vector<unsigned char> temp_image;

  arena() {
    REQUIRE(ringsweep::sort_pairs<std::uint32_t, std::uint64_t>(nullptr, temp_bytes, nullptr, nullptr, nullptr,
                                                                nullptr, n) == cudaSuccess);
    temp = device_buffer<unsigned char>(temp_bytes);
    key_image = ringsweep_test::random_keys<std::uint32_t>(keys.size(), 5);
    value_image = ringsweep_test::random_keys<std::uint64_t>(values.size(), 6);
    temp_image.assign(temp_bytes, k_fill);
    keys.upload(key_image);
    values.upload(value_image);
    temp.upload(temp_image);
  }
  std::uint32_t* k_in() { return keys.data(); }
  std::uint32_t* k_out() { return keys.data() + n; }
  std::uint64_t* v_in() { return values.data(); }
  std::uint64_t* v_out() { return values.data() + n; }
  bool untouched() const {
    return keys.download() == key_image && values.download() == value_image && temp.download() == temp_image;
  }
};

struct row {
  std::string what;
  std::function<cudaError_t(arena&)> call;
};

}  // namespace

TEST_CASE("every bad argument is refused and nothing is written", "[bad_input]") {
  using ringsweep::sort_options;
  const std::size_t n = arena::n;
  const std::vector<row> rows = {
      {"null keys_in", [&](arena& a) { return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, (const std::uint32_t*)nullptr, a.k_out(), n); }},
      {"null keys_out", [&](arena& a) { return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), (std::uint32_t*)nullptr, n); }},
      {"null values_in", [&](arena& a) { return ringsweep::sort_pairs(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), (const std::uint64_t*)nullptr, a.v_out(), n); }},
      {"null values_out", [&](arena& a) { return ringsweep::sort_pairs(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), a.v_in(), (std::uint64_t*)nullptr, n); }},
      {"temp_bytes too small", [&](arena& a) { std::size_t b = a.temp_bytes - 1; return ringsweep::sort_pairs(a.temp.data(), b, a.k_in(), a.k_out(), a.v_in(), a.v_out(), n); }},
      {"begin_bit < 0", [&](arena& a) { sort_options o; o.begin_bit = -1; return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), n, o); }},
      {"end_bit > key bits", [&](arena& a) { sort_options o; o.end_bit = 33; return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), n, o); }},
      {"begin_bit > end_bit", [&](arena& a) { sort_options o; o.begin_bit = 9; o.end_bit = 8; return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), n, o); }},
      {"keys_out aliases keys_in", [&](arena& a) { return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_in(), n); }},
      {"keys_out overlaps keys_in", [&](arena& a) { return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_in() + n / 2, n); }},
      {"values_out overlaps values_in", [&](arena& a) { return ringsweep::sort_pairs(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), a.v_in(), a.v_in() + 1, n); }},
      {"values_out aliases values_in", [&](arena& a) { return ringsweep::sort_pairs(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), a.v_in(), a.v_in(), n); }},
      {"double buffer with null alternate", [&](arena& a) { ringsweep::double_buffer<std::uint32_t> db(a.k_in(), nullptr); return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, db, n); }},
      {"double buffer whose halves overlap", [&](arena& a) { ringsweep::double_buffer<std::uint32_t> db(a.k_in(), a.k_in() + 3); return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, db, n); }},
      {"empty window beyond the key's bits", [&](arena& a) { return ringsweep::sort_keys(a.temp.data(), a.temp_bytes, a.k_in(), a.k_out(), n, sort_options{ringsweep::sort_order::descending, 40, 40}); }},
  };
  for (const row& r : rows) {
    DYNAMIC_SECTION(r.what) {
      arena a;
      CHECK(r.call(a) == cudaErrorInvalidValue);
      REQUIRE_CUDA(cudaDeviceSynchronize());
      CHECK(a.untouched());
    }
  }
}

TEST_CASE("misaligned pointers and sizes that are a multiple of nothing sort correctly", "[bad_input]") {
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(997), std::size_t(40009));
  const auto keys = ringsweep_test::random_keys<std::uint32_t>(n, 3 + n);
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
  // Every pointer one element past a 256-byte boundary: vector accesses must fall back.
  device_buffer<std::uint32_t> k_in(n + 1), k_out(n + 1), v_in(n + 1), v_out(n + 1);
  REQUIRE_CUDA(cudaMemcpy(k_in.data() + 1, keys.data(), n * 4, cudaMemcpyHostToDevice));
  REQUIRE_CUDA(cudaMemcpy(v_in.data() + 1, values.data(), n * 4, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  REQUIRE_CUDA(ringsweep::sort_pairs(nullptr, bytes, k_in.data() + 1, k_out.data() + 1, v_in.data() + 1,
                                     v_out.data() + 1, n));
  device_buffer<unsigned char> temp(bytes + 1);
  REQUIRE_CUDA(ringsweep::sort_pairs(temp.data() + 1, bytes, k_in.data() + 1, k_out.data() + 1, v_in.data() + 1,
                                     v_out.data() + 1, n));
  REQUIRE_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
  std::vector<std::uint32_t> got_k(n), got_v(n);
  REQUIRE_CUDA(cudaMemcpy(got_k.data(), k_out.data() + 1, n * 4, cudaMemcpyDeviceToHost));
  REQUIRE_CUDA(cudaMemcpy(got_v.data(), v_out.data() + 1, n * 4, cudaMemcpyDeviceToHost));
  CHECK(got_v == order);
  bool keys_ok = true;
  for (std::size_t i = 0; i < n; ++i) keys_ok = keys_ok && got_k[i] == keys[order[i]];
  CHECK(keys_ok);
}
