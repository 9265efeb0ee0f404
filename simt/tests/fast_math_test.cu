// Fast-math, rounding, conversion and device-math intrinsics against CUDA's documented accuracy
// (CUDA C++ Programming Guide, "Intrinsic Functions" and "Mathematical Functions"), each checked
// against a long double reference over a sweep of inputs. Runs on both backends: a GPU must meet
// the same bounds.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <vector>

#include "test_util.cuh"

using ringsweep_test::device_buffer;
using ringsweep_test::launch;
using ringsweep_test::serial;

namespace {

enum op : int { expf_, exp10f_, logf_, log2f_, log10f_, sinf_, cosf_, sincos_s, sincos_c, tanf_, powf_,
                fdividef_, frcp_rn, fsqrt_rn, frsqrt_rn, fdiv_rn, fmaf_rn, saturatef_, rsqrtf_, normcdff_,
                normcdfinvf_, erfinvf_, erfcinvf_, sinpif_, cospif_, rcbrtf_, rhypotf_, norm3df_, rnorm3df_ };

__device__ float apply(int o, float a, float b) {
  float s = 0, c = 0;
  switch (o) {
    case expf_: return __expf(a);
    case exp10f_: return __exp10f(a);
    case logf_: return __logf(a);
    case log2f_: return __log2f(a);
    case log10f_: return __log10f(a);
    case sinf_: return __sinf(a);
    case cosf_: return __cosf(a);
    case sincos_s: __sincosf(a, &s, &c); return s;
    case sincos_c: __sincosf(a, &s, &c); return c;
    case tanf_: return __tanf(a);
    case powf_: return __powf(a, b);
    case fdividef_: return __fdividef(a, b);
    case frcp_rn: return __frcp_rn(a);
    case fsqrt_rn: return __fsqrt_rn(a);
    case frsqrt_rn: return __frsqrt_rn(a);
    case fdiv_rn: return __fdiv_rn(a, b);
    case fmaf_rn: return __fmaf_rn(a, b, 0.25f);
    case saturatef_: return __saturatef(a);
    case rsqrtf_: return rsqrtf(a);
    case normcdff_: return normcdff(a);
    case normcdfinvf_: return normcdfinvf(a);
    case erfinvf_: return erfinvf(a);
    case erfcinvf_: return erfcinvf(a);
    case sinpif_: return sinpif(a);
    case cospif_: return cospif(a);
    case rcbrtf_: return rcbrtf(a);
    case rhypotf_: return rhypotf(a, b);
    case norm3df_: return norm3df(a, b, 0.5f);
    case rnorm3df_: return rnorm3df(a, b, 0.5f);
  }
  return 0;
}

__global__ void apply_kernel(int o, const float* a, const float* b, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = apply(o, a[i], b[i]);
}

std::vector<float> run(int o, const std::vector<float>& a, const std::vector<float>& b) {
  device_buffer<float> da(a), db(b), out(a.size());
  const int n = static_cast<int>(a.size());
  REQUIRE_CUDA(launch(apply_kernel, (n + 127) / 128, 128, 0, serial, o, da.data(), db.data(), out.data(), n));
  REQUIRE_CUDA_LAUNCH();
  return out.download();
}

std::vector<float> sweep(float lo, float hi, int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n - 1);
  return v;
}

/// |got - ref| in units of the float spacing at ref.
double ulps(float got, long double ref) {
  if (got == static_cast<float>(ref)) return 0;  // infinities included
  const float r = static_cast<float>(ref);
  const float spacing = std::nextafter(std::fabs(r), std::numeric_limits<float>::infinity()) - std::fabs(r);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / spacing);
}

template <class Ref, class Bound>
void check_ulps(int o, const std::vector<float>& a, const std::vector<float>& b, Ref ref, Bound bound) {
  const std::vector<float> got = run(o, a, b);
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("op " << o << " a=" << a[i] << " b=" << b[i] << " got " << got[i] << " ref " << static_cast<double>(ref(a[i], b[i])));
    CHECK(ulps(got[i], ref(a[i], b[i])) <= bound(a[i]));
  }
}

template <class Ref>
void check_abs(int o, const std::vector<float>& a, Ref ref, double bound) {
  const std::vector<float> got = run(o, a, a);
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("op " << o << " a=" << a[i] << " got " << got[i]);
    CHECK(std::fabs(static_cast<long double>(got[i]) - ref(a[i])) <= bound);
  }
}

using ld = long double;
auto fixed(double b) { return [b](float) { return b; }; }
constexpr ld pi = 3.14159265358979323846264338327950288L;

}  // namespace

TEST_CASE("__expf and __exp10f: 2 + floor(|1.173 x|) and 2 + floor(|2.97 x|) ulp", "[simt][fastmath]") {
  const std::vector<float> x = sweep(-20.0f, 20.0f, 1001);
  check_ulps(expf_, x, x, [](float a, float) { return std::exp(ld(a)); },
             [](float a) { return 2 + std::floor(std::fabs(1.173 * a)); });
  const std::vector<float> y = sweep(-8.0f, 8.0f, 1001);
  check_ulps(exp10f_, y, y, [](float a, float) { return std::pow(10.0L, ld(a)); },
             [](float a) { return 2 + std::floor(std::fabs(2.97 * a)); });
}

TEST_CASE("__logf, __log2f, __log10f: absolute error in [0.5, 2], ulps outside", "[simt][fastmath]") {
  const std::vector<float> in = sweep(0.5f, 2.0f, 1001);
  check_abs(logf_, in, [](float a) { return std::log(ld(a)); }, std::exp2(-21.41));
  check_abs(log2f_, in, [](float a) { return std::log2(ld(a)); }, std::exp2(-22.0));
  check_abs(log10f_, in, [](float a) { return std::log10(ld(a)); }, std::exp2(-24.0));
  std::vector<float> out;
  for (float v = 1e-30f; v < 1e30f; v *= 1.7f)
    if (v < 0.5f || v > 2.0f) out.push_back(v);
  check_ulps(logf_, out, out, [](float a, float) { return std::log(ld(a)); }, fixed(3));
  check_ulps(log2f_, out, out, [](float a, float) { return std::log2(ld(a)); }, fixed(2));
  check_ulps(log10f_, out, out, [](float a, float) { return std::log10(ld(a)); }, fixed(3));
  const std::vector<float> special = {0.0f, -1.0f, std::numeric_limits<float>::infinity()};
  const std::vector<float> got = run(logf_, special, special);
  CHECK(std::isinf(got[0]));
  CHECK(got[0] < 0);
  CHECK(std::isnan(got[1]));
  CHECK(std::isinf(got[2]));
}

TEST_CASE("__sinf, __cosf, __sincosf: absolute error in [-pi, pi]; __tanf is their quotient", "[simt][fastmath]") {
  const std::vector<float> x = sweep(-3.14159f, 3.14159f, 2001);
  check_abs(sinf_, x, [](float a) { return std::sin(ld(a)); }, std::exp2(-21.41));
  check_abs(sincos_s, x, [](float a) { return std::sin(ld(a)); }, std::exp2(-21.41));
  check_abs(cosf_, x, [](float a) { return std::cos(ld(a)); }, std::exp2(-21.19));
  check_abs(sincos_c, x, [](float a) { return std::cos(ld(a)); }, std::exp2(-21.19));
  const std::vector<float> t = sweep(-1.2f, 1.2f, 501);
  const std::vector<float> got = run(tanf_, t, t);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const ld ref = std::tan(ld(t[i]));
    INFO("x=" << t[i]);
    CHECK(std::fabs(got[i] - ref) <= 4e-6L * (1 + ref * ref));
  }
}

TEST_CASE("__powf is exp2(y * log2(x)) within its error growth", "[simt][fastmath]") {
  std::vector<float> x, y;
  for (float b = 0.01f; b < 100.0f; b *= 1.9f)
    for (float e = -6.0f; e <= 6.0f; e += 0.75f) {
      x.push_back(b);
      y.push_back(e);
    }
  const std::vector<float> got = run(powf_, x, y);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const ld ref = std::pow(ld(x[i]), ld(y[i]));
    const ld t = std::fabs(ld(y[i]) * std::log2(ld(x[i])));
    INFO("x=" << x[i] << " y=" << y[i] << " got " << got[i]);
    CHECK(std::fabs(got[i] - ref) / ref <= std::exp2(-21.0L) * (2 + 2 * std::fabs(ld(y[i])) + t));
  }
}

TEST_CASE("__fdividef: 2 ulp, and 0 for 2^126 < |y| < 2^128", "[simt][fastmath]") {
  std::vector<float> a, b;
  for (float num = -1e20f; num < 1e20f; num = num * -0.37f + 3.0f) {
    if (a.size() > 400) break;
    for (float den : {1e-30f, -3.5f, 0.1f, 7e5f, 1e30f, -2e37f}) {
      const double q = std::fabs(double(num) / den);
      if (q > 1e37 || (q < 1e-37 && num != 0)) continue;  // the quotient must be a normal float
      a.push_back(num);
      b.push_back(den);
    }
  }
  check_ulps(fdividef_, a, b, [](float n, float d) { return ld(n) / ld(d); }, fixed(2));
  const std::vector<float> big = {0x1p127f, -0x1.8p126f};
  const std::vector<float> num = {5.0f, std::numeric_limits<float>::infinity()};
  const std::vector<float> got = run(fdividef_, num, big);
  CHECK(got[0] == 0.0f);
  CHECK(std::isnan(got[1]));
}

TEST_CASE("_rn operations are correctly rounded; __saturatef clamps", "[simt][fastmath]") {
  std::vector<float> x;
  for (float v = 1e-20f; v < 1e20f; v *= 1.37f) x.push_back(v);
  check_ulps(frcp_rn, x, x, [](float a, float) { return static_cast<float>(1 / ld(a)); }, fixed(0));
  check_ulps(fsqrt_rn, x, x, [](float a, float) { return static_cast<float>(std::sqrt(ld(a))); }, fixed(0));
  check_ulps(frsqrt_rn, x, x, [](float a, float) { return static_cast<float>(1 / std::sqrt(ld(a))); }, fixed(0));
  std::vector<float> y(x.rbegin(), x.rend());
  check_ulps(fdiv_rn, x, y, [](float a, float b) { return static_cast<float>(ld(a) / ld(b)); }, fixed(0));
  check_ulps(fmaf_rn, x, y, [](float a, float b) { return static_cast<float>(ld(a) * ld(b) + 0.25L); }, fixed(0));
  const std::vector<float> s = {-3.0f, -0.0f, 0.25f, 1.0f, 7.0f, std::nanf("")};
  const std::vector<float> got = run(saturatef_, s, s);
  CHECK(got == std::vector<float>{0.0f, 0.0f, 0.25f, 1.0f, 1.0f, 0.0f});
}

TEST_CASE("device math without a C library twin, within CUDA's ulp bounds", "[simt][fastmath]") {
  std::vector<float> pos;
  for (float v = 1e-30f; v < 1e30f; v *= 1.53f) pos.push_back(v);
  check_ulps(rsqrtf_, pos, pos, [](float a, float) { return 1 / std::sqrt(ld(a)); }, fixed(2));
  check_ulps(rcbrtf_, pos, pos, [](float a, float) { return 1 / std::cbrt(ld(a)); }, fixed(1));
  const std::vector<float> z = sweep(-9.0f, 5.0f, 701);
  check_ulps(normcdff_, z, z, [](float a, float) { return std::erfc(-ld(a) / std::sqrt(2.0L)) / 2; }, fixed(5));
  const std::vector<float> p = sweep(0.001f, 0.999f, 499);
  const std::vector<float> q = run(normcdfinvf_, p, p);
  for (std::size_t i = 0; i < p.size(); ++i) {  // normcdf(normcdfinv(p)) = p
    INFO("p=" << p[i]);
    CHECK(std::fabs(std::erfc(-ld(q[i]) / std::sqrt(2.0L)) / 2 - p[i]) <= 1e-6L * p[i] + 1e-7L);
  }
  const std::vector<float> e = sweep(-0.999f, 0.999f, 499);
  const std::vector<float> ei = run(erfinvf_, e, e);
  for (std::size_t i = 0; i < e.size(); ++i) CHECK(std::fabs(std::erf(ld(ei[i])) - e[i]) <= 1e-6L);
  const std::vector<float> c = sweep(0.001f, 1.999f, 499);
  const std::vector<float> ci = run(erfcinvf_, c, c);
  for (std::size_t i = 0; i < c.size(); ++i) CHECK(std::fabs(std::erfc(ld(ci[i])) - c[i]) <= 1e-6L * c[i] + 1e-7L);
  std::vector<float> h = sweep(-4.0f, 4.0f, 801);
  for (float k = -4.0f; k <= 4.0f; k += 0.5f) h.push_back(k);
  // Exact zeros at integers (sinpi) and half-integers (cospi).
  check_ulps(sinpif_, h, h, [](float a, float) { return std::fmod(ld(a), 1.0L) == 0 ? 0.0L : std::sin(pi * ld(a)); }, fixed(1));
  check_ulps(cospif_, h, h, [](float a, float) { return std::fmod(std::fabs(ld(a)) + 0.5L, 1.0L) == 0 ? 0.0L : std::cos(pi * ld(a)); },
             fixed(1));
  const std::vector<float> v = sweep(-50.0f, 50.0f, 401), w = sweep(3.0f, -70.0f, 401);
  check_ulps(rhypotf_, v, w, [](float a, float b) { return 1 / std::hypot(ld(a), ld(b)); }, fixed(2));
  check_ulps(norm3df_, v, w, [](float a, float b) { return std::sqrt(ld(a) * a + ld(b) * b + 0.25L); }, fixed(3));
  check_ulps(rnorm3df_, v, w, [](float a, float b) { return 1 / std::sqrt(ld(a) * a + ld(b) * b + 0.25L); }, fixed(2));
}
