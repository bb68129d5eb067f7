// The reference oracles: each row's double tier against its exact tier, the Arb exact tier against
// MPFR, the ndtri oracle's known values, and the ulp measure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"

namespace {

using namespace accelmath::oracle;

// Far below 0.01 ulp of float32: every double tier must be within 1e-6 float32 ulp of its exact
// tier (the sweeper's kExactMargin, 1e-5, relies on it). ndtri's exact tier is slow: fewer inputs.
TEST(Oracle, DoubleTierAgreesWithExactTier) {
  mpfr_t r;
  mpfr_init2(r, 128);
  for (const auto& o : oracles()) {
    const auto* f = accelmath::find_function(o.name);
    ASSERT_NE(f, nullptr);
    if (!o.has_tiers()) continue;  // a pair's row: no tiers of its own
    const bool slow = std::string(o.name).rfind("ndtri", 0) == 0;
    // The inputs, or a two-input row's pairs (its structured sample: every exponent pair, the
    // diagonals, the axes) as (in, in2).
    std::vector<float> in, in2;
    if (f->inputs() == 2) {
      accelmath::sweep::PairSample(20000, 99, f).materialise(in, in2);
    } else {
      in = accelmath::sweep::sample(slow ? 600 : 20000, 99, f);
      in2.assign(in.size(), 0.0f);
    }
    double worst = 0;
    for (std::size_t i = 0; i < in.size(); i += slow ? 3 : 1) {
      const double fast = o.fast_at(in[i], in2[i]);
      if (!(std::fabs(fast) < 0x1p128) || fast == 0) continue;  // beyond float32 the result is inf either way
      o.exact_at(r, in[i], in2[i]);
      const double exact = mpfr_get_d(r, MPFR_RNDN);
      const double e = std::fabs(fast - exact) / ulp_f32(exact);
      worst = std::max(worst, e);
      ASSERT_LE(e, 1e-6) << o.name << "(" << in[i] << (f->inputs() == 2 ? ", " + std::to_string(in2[i]) : "")
                         << "): fast " << fast << " exact " << exact;
    }
    std::printf("  %-15s max |fast - exact| = %.3e float32 ulp\n", o.name, worst);
  }
  mpfr_clear(r);
}

// The Arb path of the exact tier (for the functions MPFR lacks) agrees with MPFR where both exist.
TEST(Oracle, ArbExactTierAgreesWithMpfr) {
  mpfr_t a, m;
  mpfr_init2(a, 128);
  mpfr_init2(m, 128);
  for (double x : {-100.0, -1e-30, 1e-300, 0.5, 1.0, 3.0, 88.5, 1e6}) {
    Arb<arb_exp>(a, x);
    Mpfr<mpfr_exp>(m, x);
    EXPECT_EQ(mpfr_cmp(a, m), 0) << "exp(" << x << ")";
    if (x > 0) {
      Arb<arb_log>(a, x);
      Mpfr<mpfr_log>(m, x);
      EXPECT_EQ(mpfr_cmp(a, m), 0) << "log(" << x << ")";
    }
  }
  Arb<arb_log>(a, -1.0);  // undefined: not a finite ball
  EXPECT_TRUE(mpfr_nan_p(a));
  mpfr_clear(a);
  mpfr_clear(m);
}

TEST(Oracle, KnownValues) {
  // Published quantiles (e.g. the 97.5% point 1.959963984540054) and special values.
  EXPECT_NEAR(ndtri(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(ndtri_mpfr(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(ndtri(0.001), -3.090232306167813, 1e-14);
  EXPECT_EQ(ndtri(0.5), 0.0);
  EXPECT_EQ(ndtri(0.0), -INFINITY);
  EXPECT_EQ(ndtri(1.0), INFINITY);
  EXPECT_TRUE(std::isnan(ndtri(-0.5)));
  EXPECT_TRUE(std::isnan(ndtri(NAN)));
}

TEST(Oracle, UlpError) {
  EXPECT_EQ(ulp_f32(1.0), 0x1p-23);
  EXPECT_EQ(ulp_f32(0.75), 0x1p-24);
  EXPECT_EQ(ulp_f32(-14.1), 0x1p-20);
  EXPECT_EQ(ulp_f32(0x1p-140), 0x1p-149);
  EXPECT_EQ(ulp_error_f32(1.0f, 1.0 + 0x1p-24), 0.5);
  EXPECT_EQ(ulp_error_f32(-INFINITY, -INFINITY), 0.0);
  EXPECT_EQ(ulp_error_f32(INFINITY, -INFINITY), INFINITY);
  EXPECT_EQ(ulp_error_f32(NAN, NAN), 0.0);
  EXPECT_EQ(ulp_error_f32(0.0f, NAN), INFINITY);
  EXPECT_EQ(ulp_error_f32(NAN, 1.0), INFINITY);
  // Overflow: +inf stands for 2^128, the value the rounding overflowed to.
  EXPECT_EQ(ulp_f32(0x1p130), 0x1p104);
  EXPECT_EQ(ulp_error_f32(INFINITY, 0x1p128), 0.0);
  EXPECT_EQ(ulp_error_f32(INFINITY, 0x1p128 - 0x1p103), 0.5);
  EXPECT_EQ(ulp_error_f32(-INFINITY, 0x1p128), INFINITY);
  EXPECT_EQ(ulp_error_f32(0x1.fffffep127f, 0x1p129), 0x1p129 / 0x1p104 - 0x1.fffffep127 / 0x1p104);
}

TEST(Oracle, ExactUlpErrorMatchesTheDoubleOneAwayFromTies) {
  const Oracle& exp = *find_oracle("exp");
  for (float x : {-103.0f, -20.5f, -1.0f, 0.3f, 1.0f, 10.0f, 88.0f}) {
    const float y = float(std::exp(double(x)));
    EXPECT_NEAR(ulp_error_exact(exp, x, y), ulp_error_f32(y, std::exp(double(x))), 1e-6) << x;
  }
  EXPECT_EQ(ulp_error_exact(exp, 100.0, INFINITY), 0.0);       // e^100 > 2^128
  EXPECT_LT(ulp_error_exact(exp, -1000.0, 0.0f), 1e-200);       // e^-1000 is far below 2^-149
  EXPECT_EQ(ulp_error_exact(exp, NAN, NAN), 0.0);
  EXPECT_EQ(ulp_error_exact(exp, 1.0, NAN), INFINITY);
  EXPECT_NEAR(ulp_error_exact(exp, -104.0, 0x1p-149f), std::fabs(0x1p-149 - std::exp(-104.0)) / 0x1p-149, 1e-9);
}

// The structured sample of two-input rows (tools/accuracy/sweep.h): its parts have the sizes it
// promises, every (exponent, exponent, sign, sign) cell gets the same share of the grid, the
// diagonal and axis pairs are what they say, and the pairs depend on (n, seed) alone.
TEST(PairSample, CoversEveryCellEvenlyAndIsDeterministic) {
  using accelmath::sweep::PairSample;
  constexpr std::uint64_t kCells = 1 << 18;
  const PairSample s(3 * kCells, 4);
  EXPECT_EQ(s.grid(), 3 * kCells);
  EXPECT_EQ(s.diagonal(), 3 * kCells / 16);
  EXPECT_EQ(s.axes(), 3 * kCells / 16);
  EXPECT_GE(s.edges(), 33u * 33u);
  EXPECT_EQ(s.size(), s.grid() + s.diagonal() + s.axes() + s.edges());
  std::vector<float> x1, x2;
  s.materialise(x1, x2);
  ASSERT_EQ(x1.size(), s.size());
  std::vector<int> per_cell(kCells, 0);
  const auto bits = [](float f) { std::uint32_t b; std::memcpy(&b, &f, 4); return b; };
  std::size_t zeros = 0, infs = 0, nans = 0, subnormals = 0;
  for (std::uint64_t i = 0; i < s.grid(); ++i) {
    const std::uint32_t a = bits(x1[i]), b = bits(x2[i]);
    ++per_cell[(a >> 31) << 17 | (b >> 31) << 16 | ((a >> 23) & 255) << 8 | ((b >> 23) & 255)];
    zeros += x1[i] == 0, infs += std::isinf(x1[i]), nans += std::isnan(x1[i]), subnormals += std::fpclassify(x1[i]) == FP_SUBNORMAL;
  }
  EXPECT_EQ(*std::min_element(per_cell.begin(), per_cell.end()), 3);
  EXPECT_EQ(*std::max_element(per_cell.begin(), per_cell.end()), 3);
  // Exponent 0 (1/256 of the grid): one in 8 a zero; exponent 255: half infinities, half NaN.
  EXPECT_NEAR(double(zeros) / double(s.grid() / 256), 1.0 / 8, 0.02);
  EXPECT_NEAR(double(infs) / double(s.grid() / 256), 0.5, 0.02);
  EXPECT_NEAR(double(nans) / double(s.grid() / 256), 0.5, 0.02);
  EXPECT_NEAR(double(subnormals) / double(s.grid() / 256), 7.0 / 8, 0.02);
  for (std::uint64_t i = s.grid(); i < s.grid() + s.diagonal(); ++i) {  // |x1| within 8 ulp of |x2|, both finite
    const std::int64_t d = std::int64_t(bits(x1[i]) & 0x7FFFFFFFu) - std::int64_t(bits(x2[i]) & 0x7FFFFFFFu);
    ASSERT_TRUE(d >= -8 && d <= 8 && std::isfinite(x1[i]) && std::isfinite(x2[i])) << i;
  }
  for (std::uint64_t i = s.grid() + s.diagonal(); i < s.grid() + s.diagonal() + s.axes(); ++i) {  // one input tiny
    const auto tiny = [&](float v) { return (bits(v) & 0x7FFFFFFFu) <= 0x00800008u; };
    ASSERT_TRUE(tiny(x1[i]) || tiny(x2[i])) << i;
  }
  // Pair i alone: the same from any starting point, and for the same (n, seed) only.
  float a = 0, b = 0;
  s.at(12345, &a, &b);
  EXPECT_EQ(bits(a), bits(x1[12345]));
  EXPECT_EQ(bits(b), bits(x2[12345]));
  PairSample(3 * kCells, 5).at(12345, &a, &b);
  EXPECT_NE(bits(a) ^ bits(b), bits(x1[12345]) ^ bits(x2[12345]));
  // The default is at least 2^32 pairs.
  EXPECT_GE(PairSample(accelmath::sweep::kDefaultPairSample, 1).size(), std::uint64_t{1} << 32);
}

}  // namespace
