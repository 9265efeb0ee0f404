// key_traits: the order-preserving images of every key type, -0.0 == +0.0, NaN placement, and
// digit extraction (bit windows, descending, a narrow last digit).
#include <catch2/catch.hpp>

#include <ringsweep/key_traits.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

template <class Key>
typename ringsweep::key_traits<Key>::bits_type image(Key k) {
  using T = ringsweep::key_traits<Key>;
  return T::to_ordered(T::to_bits(k));
}

template <class Key>
void require_strictly_increasing(const std::vector<Key>& keys) {
  for (std::size_t i = 1; i < keys.size(); ++i) {
    INFO("index " << i);
    REQUIRE(image(keys[i - 1]) < image(keys[i]));
  }
}

template <class Bits, class Key>
Key from_raw(Bits b) {
  Key k;
  std::memcpy(&k, &b, sizeof(Key));
  return k;
}

}  // namespace

TEMPLATE_TEST_CASE("integer images keep the integer order", "[key_traits]", std::uint8_t, std::uint16_t,
                   std::uint32_t, std::uint64_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t) {
  using T = ringsweep::key_traits<TestType>;
  using lim = std::numeric_limits<TestType>;
  STATIC_REQUIRE(sizeof(typename T::bits_type) == sizeof(TestType));
  STATIC_REQUIRE(T::bits == int(8 * sizeof(TestType)));
  std::vector<TestType> keys;
  if (lim::is_signed) {
    keys = {lim::min(), TestType(lim::min() + 1), TestType(-2), TestType(-1), TestType(0), TestType(1),
            TestType(lim::max() - 1), lim::max()};
  } else {
    keys = {TestType(0), TestType(1), TestType(2), TestType(lim::max() / 2 + 1), TestType(lim::max() - 1), lim::max()};
  }
  require_strictly_increasing(keys);
  for (TestType k : keys) REQUIRE(T::from_bits(T::from_ordered(image(k))) == k);
  if (lim::is_signed) {
    REQUIRE(image(lim::min()) == 0);
    REQUIRE(image(TestType(-1)) == T::high_bit - 1);
  } else {
    REQUIRE(image(TestType(5)) == 5);
  }
}

TEMPLATE_TEST_CASE("float images: order, zeros, infinities, denormals, NaNs", "[key_traits]", float, double) {
  using T = ringsweep::key_traits<TestType>;
  using lim = std::numeric_limits<TestType>;
  using bits = typename T::bits_type;
  const bits sign = T::high_bit;
  const TestType pos_nan = from_raw<bits, TestType>(T::to_bits(lim::quiet_NaN()) & bits(~sign));
  const TestType neg_nan = from_raw<bits, TestType>(bits(T::to_bits(lim::quiet_NaN()) | sign));
  const TestType big_neg_nan = from_raw<bits, TestType>(bits(~bits(0)));  // all ones
  require_strictly_increasing<TestType>({big_neg_nan, neg_nan, -lim::infinity(), -lim::max(), TestType(-1),
                                         -lim::min(), -lim::denorm_min(), TestType(0), lim::denorm_min(), lim::min(),
                                         TestType(1), lim::max(), lim::infinity(), pos_nan});
  REQUIRE(image(TestType(-0.0)) == image(TestType(0.0)));
  REQUIRE(image(TestType(0.0)) == sign);
  // Round trip (all but -0.0, which maps to +0.0's image).
  for (TestType k : {TestType(-2.5), TestType(3.25), lim::infinity(), -lim::denorm_min()}) {
    REQUIRE(T::to_bits(T::from_bits(T::from_ordered(image(k)))) == T::to_bits(k));
  }
}

TEMPLATE_TEST_CASE("half-precision images", "[key_traits]", __half, __nv_bfloat16) {
  using T = ringsweep::key_traits<TestType>;
  STATIC_REQUIRE(sizeof(typename T::bits_type) == 2);
  auto key = [](unsigned short b) { return T::from_bits(b); };
  // -NaN, -inf, -1, -denorm, -0, +0, +denorm, 1, +inf, +NaN as raw bits of each format.
  const bool half = std::is_same<TestType, __half>::value;
  const unsigned short inf = half ? 0x7c00 : 0x7f80, one = half ? 0x3c00 : 0x3f80, nan = half ? 0x7e00 : 0x7fc0;
  std::vector<TestType> keys{key(0x8000 | nan), key(0x8000 | inf), key(0x8000 | one), key(0x8001),
                             key(0x0000), key(0x0001), key(one), key(inf), key(nan)};
  require_strictly_increasing(keys);
  REQUIRE(image(key(0x8000)) == image(key(0x0000)));
}

TEST_CASE("digit extraction: windows, descending, narrow digits", "[key_traits]") {
  using ringsweep::detail::digit_extractor;
  const std::uint32_t k = 0xA1B2C3D4u;
  REQUIRE(digit_extractor<std::uint32_t>(false, 0, 8)(k) == 0xD4u);
  REQUIRE(digit_extractor<std::uint32_t>(false, 8, 8)(k) == 0xC3u);
  REQUIRE(digit_extractor<std::uint32_t>(false, 24, 8)(k) == 0xA1u);
  REQUIRE(digit_extractor<std::uint32_t>(false, 28, 4)(k) == 0xAu);
  REQUIRE(digit_extractor<std::uint32_t>(false, 3, 5)(k) == ((k >> 3) & 31u));
  REQUIRE(digit_extractor<std::uint32_t>(true, 0, 8)(k) == (~k & 0xffu));
  REQUIRE(digit_extractor<std::int32_t>(false, 24, 8)(std::uint32_t(-1)) == 0x7fu);
  // Signed keys: the sign flip and the descending complement fold into one XOR.
  REQUIRE(digit_extractor<std::int32_t>(true, 24, 8)(std::uint32_t(-1)) == 0x80u);
  REQUIRE(digit_extractor<std::int32_t>(true, 0, 8)(std::uint32_t(-1)) == 0x00u);
  REQUIRE(digit_extractor<std::int8_t>(false, 0, 8)(std::uint8_t(0x80)) == 0x00u);
  REQUIRE(digit_extractor<std::int8_t>(true, 0, 8)(std::uint8_t(0x80)) == 0xffu);
  REQUIRE(digit_extractor<std::int16_t>(true, 8, 8)(std::uint16_t(0x0102)) == 0x7eu);
  // Floats: the image of -1.0f complemented for descending.
  REQUIRE(digit_extractor<float>(true, 24, 8)(0xBF800000u) == 0xBFu);
  REQUIRE(digit_extractor<std::uint8_t>(true, 4, 4)(std::uint8_t(0x3c)) == 0xcu);
  REQUIRE(digit_extractor<std::uint64_t>(false, 56, 8)(0x8877665544332211ull) == 0x88u);
  // -0.0 and +0.0 give equal digits in every pass.
  for (int shift = 0; shift < 32; shift += 8) {
    digit_extractor<float> d(false, shift, 8);
    REQUIRE(d(0x80000000u) == d(0x00000000u));
  }
}

// The pad key a partial onesweep tile is filled with (issue #35): in every pass, of every width and
// direction, its digit is the pass's largest, so it ranks after every real key; and a float pad
// is a NaN no real -0.0/+0.0 is mistaken for.
TEMPLATE_TEST_CASE("digit extraction: the pad key's digit is the largest in every pass and direction",
                   "[key_traits][pad]", std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                   std::int32_t, std::uint64_t, std::int64_t, float, double, __half, __nv_bfloat16) {
  using ringsweep::detail::digit_extractor;
  using bits = typename ringsweep::key_traits<TestType>::bits_type;
  const int width_bits = int(8 * sizeof(bits));
  for (bool descending : {false, true}) {
    for (int width = 1; width <= 8; ++width) {
      for (int shift = 0; shift + width <= width_bits; ++shift) {
        const digit_extractor<TestType> d(descending, shift, width);
        INFO("descending " << descending << ", shift " << shift << ", width " << width);
        REQUIRE(d(d.pad) == d.mask);
        // and no real key's digit is above it: the largest and smallest keys of the order
        REQUIRE(d(bits(0)) <= d.mask);
        REQUIRE(d(bits(~bits(0))) <= d.mask);
      }
    }
  }
}
