// The error function family (erf, erfc, erfcx, normcdf) beyond what the registry-wide tests check:
// the traps of float32 versions, each lane through the array API (dispatched SIMD) against the
// scalar lane bit for bit and against the exact tier of its oracle (MPFR erf/erfc, Arb erfcx and
// normcdf): erfc and normcdf deep into the tail, through the subnormal range to their last non-zero
// result and past it (a float32 x^2, or a float32 -x/sqrt(2) for normcdf, is off by up to 2^-24
// relative, which the tail turns into relative errors of x^2 2^-24 and more: tens of ulp near the
// end); erfcx for large x (~1/(x sqrt(pi)), up to the largest float, its results subnormal from
// 4.8e37 on) and its overflow
// below -9.38 (+inf exactly where the correctly rounded result is); erf odd with signed zeros, for
// tiny and subnormal x (2x/sqrt(pi)) and its saturation to +-1; vectors mixing all of these.
// Where a threshold matters (last non-zero, first +-1, last finite) it is found here by bisection
// on the exact tier, not taken from the kernels' constants.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/registry.h"
#include "accelmath/scalar.h"
#include "accuracy/oracle.h"
#include "oracle_test_util.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::ArrayOf;
using accelmath::test::Around;
using accelmath::test::CheckOverflow;
using accelmath::test::CheckResults;
using accelmath::test::Bits;
using accelmath::test::FromBits;
using accelmath::test::ScalarOf;

constexpr float kInf = std::numeric_limits<float>::infinity();

// The float32 result of `name` at x correctly rounded from its exact tier.
float CorrectlyRounded(const char* name, float x) {
  const auto* o = accelmath::oracle::find_oracle(name);
  EXPECT_NE(o, nullptr) << name;
  mpfr_t r;
  mpfr_init2(r, 128);
  o->exact(r, x);
  const float y = accelmath::oracle::round_to_f32(r);
  mpfr_clear(r);
  return y;
}

// Bit patterns of floats of one sign ordered by magnitude: the last pattern from `from` towards `to`
// (exclusive) where pred(correctly rounded result) still holds, pred holding at `from` and failing
// at `to`, by bisection (pred monotone in between).
std::uint32_t LastWhere(const char* name, std::uint32_t from, std::uint32_t to,
                        const std::function<bool(float)>& pred) {
  EXPECT_TRUE(pred(CorrectlyRounded(name, FromBits(from))));
  EXPECT_FALSE(pred(CorrectlyRounded(name, FromBits(to))));
  while ((from > to ? from - to : to - from) > 1) {
    const std::uint32_t mid = from / 2 + to / 2 + (from & to & 1);
    (pred(CorrectlyRounded(name, FromBits(mid))) ? from : to) = mid;
  }
  return from;
}

// The floats from bits lo to hi (same sign) with a stride.
std::vector<float> Range(std::uint32_t lo, std::uint32_t hi, std::uint32_t stride) {
  std::vector<float> v;
  for (std::uint32_t b = lo; b <= hi; b += stride) v.push_back(FromBits(b));
  return v;
}

// erfc from 3 to past its last non-zero result: the results cross FLT_MIN (at x ~ 9.1) and the
// whole subnormal range; every one within the bound, the last non-zero result (found on the exact
// tier) is the smallest subnormal and the next float gives +0, as does everything beyond.
TEST(Erf, ErfcTailThroughTheSubnormalsToTheLastNonZero) {
  const std::uint32_t last = LastWhere("erfc", Bits(10.0f), Bits(10.5f), [](float y) { return y > 0; });
  std::vector<float> xs = Range(Bits(3.0f), Bits(10.5f), 1999);
  const std::vector<float> end = Around(last, 1500);
  xs.insert(xs.end(), end.begin(), end.end());
  const std::vector<float> y = CheckResults("erfc", xs);
  int subnormal = 0;
  for (const float v : y) subnormal += v > 0 && v < 0x1p-126f;
  EXPECT_GT(subnormal, 1800);  // 1500 next to the end, the rest strided
  // The exact values at the last non-zero float and the next are 1e-5 relative from the tie 2^-150,
  // far more than the kernel's error: the switch to +0 is exact.
  EXPECT_EQ(accelmath::scalar::erfc(FromBits(last)), 0x1p-149f);
  EXPECT_EQ(Bits(accelmath::scalar::erfc(FromBits(last + 1))), Bits(0.0f));
  for (const float x : {10.5f, 11.0f, 27.0f, 1e10f, 3.4e38f, kInf}) {
    EXPECT_EQ(Bits(accelmath::scalar::erfc(x)), Bits(0.0f)) << x;
  }
  // The other side: erfc(x) for x < 0 up to where it rounds to 2, and 2 beyond.
  CheckResults("erfc", Range(Bits(0.0f), Bits(5.0f), 65537));
  CheckResults("erfc", Range(Bits(-0.0f), Bits(-5.0f), 65537));
  EXPECT_EQ(accelmath::scalar::erfc(-4.0f), 2.0f);
  EXPECT_EQ(accelmath::scalar::erfc(-kInf), 2.0f);
}

// normcdf from -3 down past its last non-zero result (x ~ -14.17; subnormal results below about
// -13.2), and up to where it rounds to 1.
TEST(Erf, NormcdfTailThroughTheSubnormalsToTheLastNonZero) {
  const std::uint32_t last = LastWhere("normcdf", Bits(-14.0f), Bits(-15.0f), [](float y) { return y > 0; });
  std::vector<float> xs = Range(Bits(-3.0f), Bits(-15.0f), 1999);
  const std::vector<float> end = Around(last, 3000);
  xs.insert(xs.end(), end.begin(), end.end());
  const std::vector<float> y = CheckResults("normcdf", xs);
  int subnormal = 0;
  for (const float v : y) subnormal += v > 0 && v < 0x1p-126f;
  EXPECT_GT(subnormal, 3300);
  // As for erfc: 6e-6 relative from the tie at the last non-zero float, 8e-6 at the next.
  EXPECT_EQ(accelmath::scalar::normcdf(FromBits(last)), 0x1p-149f);
  EXPECT_EQ(Bits(accelmath::scalar::normcdf(FromBits(last + 1))), Bits(0.0f));
  for (const float x : {-15.0f, -100.0f, -3.4e38f, -kInf}) {
    EXPECT_EQ(Bits(accelmath::scalar::normcdf(x)), Bits(0.0f)) << x;
  }
  const std::uint32_t below_one = LastWhere("normcdf", Bits(5.0f), Bits(6.0f), [](float y) { return y < 1; });
  CheckResults("normcdf", Range(Bits(0.0f), Bits(6.0f), 16411));
  CheckResults("normcdf", Range(Bits(-0.0f), Bits(-3.0f), 16411));
  CheckResults("normcdf", Around(below_one, 500));
  EXPECT_EQ(accelmath::scalar::normcdf(FromBits(below_one + 1)), 1.0f);  // 1 - w, w's error relative to w
  EXPECT_EQ(accelmath::scalar::normcdf(kInf), 1.0f);
}

// erfcx(x) for x from 1 to the largest float: ~1/(x sqrt(pi)), subnormal from 4.8e37 on, no
// overflow of x^2 or of the polynomials, no underflow to zero; +inf -> +0.
TEST(Erf, ErfcxOfLargeArgumentsUpToTheLargestFloat) {
  std::vector<float> xs = Range(Bits(1.0f), Bits(3.4028235e38f), 16411);
  const std::vector<float> top = Around(Bits(3.4028235e38f) - 2000, 2000);
  xs.insert(xs.end(), top.begin(), top.end());
  const std::vector<float> y = CheckResults("erfcx", xs);
  int subnormal = 0;
  for (const float v : y) subnormal += v > 0 && v < 0x1p-126f;
  EXPECT_GT(subnormal, 1800);  // 1500 next to the end, the rest strided
  EXPECT_GT(accelmath::scalar::erfcx(3.4028235e38f), 0.0f);
  EXPECT_EQ(Bits(accelmath::scalar::erfcx(kInf)), Bits(0.0f));
  CheckResults("erfcx", Range(Bits(0.0f), Bits(1.0f), 16411));
}

// erfcx(x) for x < 0 grows like 2 e^(x^2): within the bound down to -9.38, +inf exactly where the
// correctly rounded result is (the last finite float found by bisection on the exact tier: every
// float within 3000 of it checked), and +inf for everything below, -inf included.
TEST(Erf, ErfcxOverflowsAtTheRoundingThreshold) {
  const std::uint32_t last = LastWhere("erfcx", Bits(-9.0f), Bits(-10.0f), [](float y) { return std::isfinite(y); });
  std::vector<float> xs = Range(Bits(-0.0f), Bits(-9.0f), 16411);
  const std::vector<float> end = Around(last, 3000);
  xs.insert(xs.end(), end.begin(), end.end());
  EXPECT_EQ(CheckOverflow("erfcx", xs), 3000);
  EXPECT_TRUE(std::isfinite(accelmath::scalar::erfcx(FromBits(last))));
  EXPECT_EQ(accelmath::scalar::erfcx(FromBits(last + 1)), kInf);
  // Far below, to -inf: every result +inf.
  std::vector<float> far = Range(Bits(-10.0f), Bits(-3.4028235e38f), 65537);
  far.push_back(-kInf);
  EXPECT_EQ(CheckOverflow("erfcx", far), static_cast<int>(far.size()));
}

TEST(Erf, ErfOddTinyAndSaturating) {
  EXPECT_EQ(Bits(accelmath::scalar::erf(0.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(accelmath::scalar::erf(-0.0f)), Bits(-0.0f));
  // Every exponent field, mantissas strided: each checked, and erf(-x) = -erf(x) bit for bit.
  const std::vector<float> pos = Range(1, Bits(3.4028235e38f), 32771);
  std::vector<float> neg(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) neg[i] = -pos[i];
  const std::vector<float> yp = CheckResults("erf", pos);
  const std::vector<float> yn = CheckResults("erf", neg);
  for (std::size_t i = 0; i < pos.size(); ++i) {
    ASSERT_EQ(Bits(yn[i]), Bits(yp[i]) ^ 0x80000000u) << std::hexfloat << pos[i];
  }
  // Every subnormal near the bottom and near FLT_MIN, and the first normal binades.
  std::vector<float> tiny = Range(1, 4096, 1);
  const std::vector<float> near_min = Around(0x00800000u, 4096);
  tiny.insert(tiny.end(), near_min.begin(), near_min.end());
  CheckResults("erf", tiny);
  EXPECT_EQ(accelmath::scalar::erf(0x1p-149f), 0x1p-149f);  // 2^-149 1.128 rounds to 2^-149
  // Saturation.
  // The exact erf at the first float that rounds to 1 is 1 - 2^-25 (1 - 4.9e-7): 1.5e-14 from the tie,
  // closer than the float32 kernel's error, so the switch to 1 may come a few floats late (each
  // result within the bound); the results never decrease and are 1 from 3000 floats on.
  const std::uint32_t below_one = LastWhere("erf", Bits(3.5f), Bits(4.0f), [](float y) { return y < 1; });
  const std::vector<float> sat = CheckResults("erf", Around(below_one, 3000));
  for (std::size_t i = 1; i < sat.size(); ++i) EXPECT_GE(sat[i], sat[i - 1]) << i;
  EXPECT_EQ(sat.back(), 1.0f);
  EXPECT_EQ(accelmath::scalar::erf(-FromBits(below_one + 3000)), -1.0f);
  for (const float x : {4.0f, 10.0f, 1e20f, 3.4028235e38f, kInf}) {
    EXPECT_EQ(accelmath::scalar::erf(x), 1.0f) << x;
    EXPECT_EQ(accelmath::scalar::erf(-x), -1.0f) << x;
  }
}

// Vectors that mix tails, tiny, moderate, huge and special arguments in every lane position, for
// every function of the family: each lane against the scalar lane and the oracle.
TEST(Erf, MixedLanesMatchTheScalarLaneAndTheOracle) {
  const std::vector<float> base = {1e-30f, 3.4e38f, 1.0f, -1e10f, 0x1p-149f, 10.05f, -0.0f, 0.5f, -9.38f,
                                   0x1p-126f, -7.0f, 3.92f, -3.9f, 1e5f, 0.17f, -14.17f, -13.5f, 5.42f,
                                   2.0f, kInf, -kInf, NAN, 9.01f, -26.0f, 0.0f};
  std::vector<float> xs;
  for (std::size_t r = 0; r < base.size(); ++r) {
    for (std::size_t i = 0; i < base.size(); ++i) xs.push_back(base[(i + r) % base.size()]);
  }
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-16.0f, 16.0f);
  for (int i = 0; i < 4000; ++i) xs.push_back(u(rng));
  for (const char* name : {"erf", "erfc", "erfcx", "normcdf"}) CheckResults(name, xs);
}

}  // namespace
