// cyl_bessel_i0 and cyl_bessel_i1 beyond what the registry-wide tests check: the traps, each lane
// against the exact oracle (Arb's arb_hypgeom_bessel_i) through the array API, with the scalar lane
// bit for bit beside it (CheckLanes).
//  - the float32 overflow (I0, I1 ~ e^a/sqrt(2 pi a) pass 2^128 near a = 91.9): [88, 96] sampled
//    and every float near 91.9, so that +inf appears exactly where the exact value rounds to it, with no intermediate
//    overflow before (e^a alone passes 2^128 at 88.7) and none of the clamp after;
//  - I1 odd, signed zeros, and subnormal arguments, where a/2 lies halfway between two floats: the
//    result must round the way the exact value (just above a/2) does;
//  - the edge between the power-series and exponential regions (a = 8), and mixed-lane vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/scalar.h"
#include "oracle_test_util.h"
#include "test_util.h"

namespace {

using accelmath::test::Binades;
using accelmath::test::Bits;
using accelmath::test::CheckLanes;
using accelmath::test::CheckOverflow;
using accelmath::test::FromBits;

constexpr float kInf = std::numeric_limits<float>::infinity();

// The floats from lo up to hi (both positive), every `stride`-th, and their negatives.
std::vector<float> EveryFloat(float lo, float hi, std::uint32_t stride = 1) {
  std::vector<float> v;
  for (std::uint32_t b = Bits(lo); b <= Bits(hi); b += stride) {
    v.push_back(FromBits(b));
    v.push_back(-FromBits(b));
  }
  return v;
}

TEST(Bessel, OverflowAtTheRoundingThresholdAndNoEarlier) {
  // [88, 96] sampled, and every float within 2^-7 of 91.9 (the thresholds: 0x1.6fc3..p+6 for I0).
  std::vector<float> xs = EveryFloat(88.0f, 96.0f, 509);
  const std::vector<float> near = EveryFloat(91.9f - 0x1p-7f, 91.9f + 0x1p-7f);
  xs.insert(xs.end(), near.begin(), near.end());
  // +inf exactly where round to nearest overflows, and a good share of both kinds of lanes.
  for (const char* name : {"cyl_bessel_i0", "cyl_bessel_i1"}) {
    const int overflows = CheckOverflow(name, xs);
    EXPECT_GT(overflows, 100) << name;
    EXPECT_LT(overflows, static_cast<int>(xs.size()) - 100) << name;
  }
  EXPECT_EQ(accelmath::scalar::cyl_bessel_i0(91.0f) < kInf, true);
  EXPECT_EQ(accelmath::scalar::cyl_bessel_i1(-93.0f), -kInf);
}

TEST(Bessel, I1IsOddAndRoundsSubnormalResultsLikeTheExactValue) {
  // Every subnormal and the smallest normals: I1(x) = x/2 (1 + x^2/8 + ...) > |x/2|, so a result at
  // an exact midpoint of x/2 must round away from zero in magnitude, never to even.
  const std::vector<float> tiny = Binades(0, 2, 997);
  std::vector<float> y(tiny.size());
  ASSERT_EQ(accelmath::cyl_bessel_i1(y, tiny), accelmath::Status::kOk);
  for (std::size_t i = 0; i < tiny.size(); ++i) {
    const double half = 0.5 * double(tiny[i]);
    const float up = static_cast<float>(std::nextafter(half, 2 * half));  // the exact value's side
    ASSERT_EQ(Bits(y[i]), Bits(up)) << std::hexfloat << tiny[i];
  }
  EXPECT_EQ(Bits(accelmath::scalar::cyl_bessel_i1(0x1p-149f)), Bits(0x1p-149f));
  EXPECT_EQ(Bits(accelmath::scalar::cyl_bessel_i1(-0x1p-149f)), Bits(-0x1p-149f));
  EXPECT_EQ(Bits(accelmath::scalar::cyl_bessel_i1(-0.0f)), Bits(-0.0f));
  EXPECT_LE(CheckLanes("cyl_bessel_i1", tiny, 0.5), 0.5);
  // Odd, bit for bit, over every scale.
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0x42c00000u);  // |x| <= 96
  std::vector<float> xs(4096), neg(4096), a(4096), b(4096);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xs[i] = FromBits(bits(rng));
    neg[i] = -xs[i];
  }
  ASSERT_EQ(accelmath::cyl_bessel_i1(a, xs), accelmath::Status::kOk);
  ASSERT_EQ(accelmath::cyl_bessel_i1(b, neg), accelmath::Status::kOk);
  for (std::size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(Bits(b[i]), Bits(-a[i])) << std::hexfloat << xs[i];
  EXPECT_EQ(Bits(accelmath::scalar::cyl_bessel_i0(0x1p-149f)), Bits(1.0f));
}

TEST(Bessel, AcrossTheRegionEdgeAndInMixedLanes) {
  std::vector<float> xs = EveryFloat(7.999f, 8.001f);
  // Every lane of a vector in a different region or class: tiny, series, exponential, overflow,
  // infinite, NaN.
  const float classes[] = {0x1p-140f, 0.75f, 7.5f, 8.0f, 8.5f, 30.0f, 91.5f, 95.0f, kInf, -kInf,
                           std::numeric_limits<float>::quiet_NaN(), -3.0f, -50.0f, 0.0f, -0.0f, 1e-20f};
  for (int rep = 0; rep < 64; ++rep) {
    for (std::size_t k = 0; k < std::size(classes); ++k) xs.push_back(classes[(k * 7 + rep) % std::size(classes)]);
  }
  for (const char* name : {"cyl_bessel_i0", "cyl_bessel_i1"}) EXPECT_LE(CheckLanes(name, xs, 1.0), 1.0) << name;
}

}  // namespace
