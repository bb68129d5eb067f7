// The gamma family beyond what the registry-wide tests check: the traps of float32 gamma functions,
// each lane through the array API (dispatched SIMD) against the scalar lane bit for bit and against
// the exact tier of its oracle (MPFR): lgamma next to every zero a float can resolve (the accelerator
// header we measured was 1.35e7 ulp off near the negative zeros, and other libraries exclude those
// intervals), at 1 and 2, at the poles and up to its overflow; tgamma at its overflow threshold, on
// negative arguments down to where the result underflows (subnormal results, the sign of a zero
// result), at the negative integers, for tiny arguments; and vectors mixing all of these lane by lane.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
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

// The sign of the exact lgamma (MPFR) at x: -1, 0, 1.
int ExactLgammaSign(const accelmath::oracle::Oracle& o, float x) {
  mpfr_t r;
  mpfr_init2(r, 128);
  o.exact(r, x);
  const int s = mpfr_sgn(r);
  mpfr_clear(r);
  return s;
}

// The bits of the float nearest to the zero of lgamma between the floats lo and hi (exclusive;
// negative floats, lo nearer to 0 in magnitude, so bits(lo) < bits(hi)), where the sign of lgamma
// changes: bisection on the bit patterns with MPFR's sign.
std::uint32_t ZeroBetween(const accelmath::oracle::Oracle& o, float lo, float hi) {
  std::uint32_t a = Bits(lo), b = Bits(hi);
  const int sa = ExactLgammaSign(o, lo);
  EXPECT_NE(sa, ExactLgammaSign(o, hi));
  while (b - a > 1) {
    const std::uint32_t m = a + (b - a) / 2;
    (ExactLgammaSign(o, FromBits(m)) == sa ? a : b) = m;
  }
  return a;
}

// lgamma next to each of its zeros in (-10, -2), two in each (-n-1, -n): every float within 1000 ulp
// of the zero, and every 257th out to 2^17 ulp (past the edge of the kernel's window around it).
// Results there are as small as 1e-7 while the reflection formula's terms are O(1..20).
TEST(Gamma, LgammaNextToEveryNegativeZero) {
  const auto* o = accelmath::oracle::find_oracle("lgamma");
  ASSERT_NE(o, nullptr);
  double worst = 0;
  int zeros = 0;
  for (int n = 2; n <= 9; ++n) {
    const float pole_lo = static_cast<float>(-n), pole_hi = static_cast<float>(-n - 1);
    const float mid = static_cast<float>(-n) - 0.5f;  // |Gamma| has its minimum, below 1, near -n - 1/2
    for (const auto& [lo, hi] : {std::pair{std::nextafter(pole_lo, -kInf), mid},
                                 std::pair{mid, std::nextafter(pole_hi, 0.0f)}}) {
      if (ExactLgammaSign(*o, lo) == ExactLgammaSign(*o, hi)) continue;  // no float resolves the zero
      const std::uint32_t z = ZeroBetween(*o, lo, hi);
      ++zeros;
      std::vector<float> xs;
      for (std::uint32_t b = z - 1000; b <= z + 1000; ++b) {
        if (b > Bits(lo) && b < Bits(hi)) xs.push_back(FromBits(b));
      }
      for (std::uint32_t d = 1001; d < (1u << 17); d += 257) {
        for (const std::uint32_t b : {z - d, z + d}) {
          if (b > Bits(lo) && b < Bits(hi)) xs.push_back(FromBits(b));
        }
      }
      CheckResults("lgamma", xs, -1, &worst);
    }
  }
  // both zeros of every (-n-1, -n), n = 2 .. 8, and the one next to -9 in (-10, -9); the other one
  // there lies 0.29 ulp from -10, with no float between it and its pole
  EXPECT_EQ(zeros, 15);
  EXPECT_LE(worst, 0.51);
}

// Below -10 the zeros lie closer to their poles than a float can: the 64 floats on each side of
// every pole from -10 to -60 (the largest and smallest |lgamma| of each interval), and the zeros'
// floats there all within the bound.
TEST(Gamma, LgammaNextToThePolesBelowMinusTen) {
  double worst = 0;
  for (int n = 10; n <= 60; ++n) {
    const std::uint32_t b = Bits(static_cast<float>(-n));
    std::vector<float> xs = Around(b, 64);
    std::erase(xs, static_cast<float>(-n));
    CheckResults("lgamma", xs, -1, &worst);
  }
  EXPECT_LE(worst, 0.51);
}

// lgamma(1) = lgamma(2) = +0 (bits), every float within 2000 ulp of 1 and 2 (results down to 3.4e-8
// where the general formula's terms are about 10) and every 211th out to 2^19 ulp (past the edges of
// the kernel's windows |x - 1|, |x - 2| <= 2^-6).
TEST(Gamma, LgammaAtOneAndTwo) {
  EXPECT_EQ(Bits(accelmath::scalar::lgamma(1.0f)), 0u);
  EXPECT_EQ(Bits(accelmath::scalar::lgamma(2.0f)), 0u);
  double worst = 0;
  for (const float a : {1.0f, 2.0f}) {
    auto xs = Around(Bits(a), 2000);
    for (std::uint32_t d = 2001; d < (1u << 19); d += 211) {
      xs.push_back(FromBits(Bits(a) - d));
      xs.push_back(FromBits(Bits(a) + d));
    }
    const auto y = CheckResults("lgamma", xs, -1, &worst);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (xs[i] == a) {
        EXPECT_EQ(Bits(y[i]), 0u) << a;
      }
    }
  }
  EXPECT_LE(worst, 0.51);
}

// The poles and the far ends: +inf at 0, -0, every negative integer (every float below -2^23 is
// one) and +-inf; tiny |x| (-ln|x|, subnormals included); the overflow to +inf exactly where the
// correctly rounded result overflows (around 4.085e36), and finite results up to it.
TEST(Gamma, LgammaPolesTinyAndOverflow) {
  std::vector<float> poles = {0.0f, -0.0f, -1.0f, -2.0f, -3.0f, -10.0f, -41.0f, -1e6f, -0x1p23f, -0x1.fffffep22f * 2,
                              -1e30f, -3.4e38f, kInf, -kInf};
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> big(0xCB000000u, 0xFF7FFFFFu);  // -2^23 .. -FLT_MAX
  for (int i = 0; i < 1000; ++i) poles.push_back(FromBits(big(rng)));
  for (const float y : CheckResults("lgamma", poles)) EXPECT_EQ(y, kInf);
  // tiny |x|, both signs: every exponent, a stride of mantissas
  std::vector<float> tiny;
  for (std::uint32_t b = 1; b < 0x33800000u; b += 862433) {
    tiny.push_back(FromBits(b));
    tiny.push_back(-FromBits(b));
  }
  CheckResults("lgamma", tiny);
  // the overflow threshold: 2000 floats around it, inf iff the exact value rounds to inf
  const int lgamma_overflows = CheckOverflow("lgamma", Around(Bits(0x1.895f1ap+121f), 1000));
  EXPECT_GT(lgamma_overflows, 900);
  EXPECT_LT(lgamma_overflows, 1100);
  CheckResults("lgamma", {3.4028235e38f, 1e36f, 1e20f, 1e10f, 8.0f, 7.9999995f, 8.000001f});
}

// tgamma overflows exactly where the correctly rounded result does (the last finite input is about
// 35.04): 2000 floats around it.
TEST(Gamma, TgammaOverflowAtTheRoundingThreshold) {
  const int overflows = CheckOverflow("tgamma", Around(Bits(35.0401f), 1000));
  EXPECT_GT(overflows, 500);
  EXPECT_LT(overflows, 1500);
  for (const float x : {36.0f, 64.0f, 100.0f, 1e10f, 3.4e38f, kInf}) EXPECT_EQ(accelmath::scalar::tgamma(x), kInf) << x;
}

// tgamma on negative non-integers, through every interval (-n-1, -n) down to -70: the 150 floats
// next to each pole (the largest |Gamma| of the interval), and a stride through the interval; the
// results fall through the subnormals to zero near -41 to -42. A zero result has the sign of the
// exact value ((-1)^(n+1)); negative integers and -inf give NaN, and so does every float below -2^23.
TEST(Gamma, TgammaNegativeArgumentsDownToUnderflow) {
  int subnormal = 0, zero = 0;
  for (int n = 0; n <= 70; ++n) {
    std::vector<float> xs;
    const float a = static_cast<float>(-n), b = static_cast<float>(-n - 1);
    for (int k = 1; k <= 150; ++k) {
      if (n > 0) xs.push_back(FromBits(Bits(a) + k));  // just below -n (more negative)
      xs.push_back(FromBits(Bits(b) - k));              // just above -n-1
    }
    const std::uint32_t stride = (Bits(b) - Bits(a)) / 150;
    for (std::uint32_t bb = Bits(a) + 151; bb < Bits(b) - 151; bb += stride) xs.push_back(FromBits(bb));
    const auto y = CheckResults("tgamma", xs);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (n > 0 || xs[i] < 0) {
        EXPECT_EQ(std::signbit(y[i]), n % 2 == 0) << std::hexfloat << xs[i] << " -> " << y[i];
      }
      subnormal += y[i] != 0 && std::fabs(y[i]) < 0x1p-126f;
      zero += y[i] == 0;
    }
  }
  EXPECT_GT(subnormal, 100);
  EXPECT_GT(zero, 1000);
  std::vector<float> ints = {-1.0f, -2.0f, -3.0f, -20.0f, -41.0f, -42.0f, -1e6f, -0x1p23f, -1e30f, -3.4e38f, -kInf};
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> big(0xCB000000u, 0xFF7FFFFFu);
  for (int i = 0; i < 1000; ++i) ints.push_back(FromBits(big(rng)));
  for (const float y : CheckResults("tgamma", ints)) EXPECT_TRUE(std::isnan(y));
  // half-integers between -2^22 and -64: +-0 with the sign of the exact value
  for (const float x : {-64.5f, -65.5f, -1000.5f, -1001.5f, -4194303.5f, -4194302.5f}) {
    const float y = accelmath::scalar::tgamma(x);
    EXPECT_EQ(y, 0.0f) << x;
    const bool odd = std::fmod(std::floor(-x), 2.0f) == 1.0f;  // x in (-n-1, -n), n = floor(-x)
    EXPECT_EQ(std::signbit(y), !odd) << x;
  }
}

// tgamma(+-0) = +-inf; tiny |x|: 1/x (overflowing to +-inf below 2^-128), subnormals included.
TEST(Gamma, TgammaTinyArgumentsAndZeros) {
  EXPECT_EQ(accelmath::scalar::tgamma(0.0f), kInf);
  EXPECT_EQ(accelmath::scalar::tgamma(-0.0f), -kInf);
  std::vector<float> tiny;
  for (std::uint32_t b = 1; b < 0x33800000u; b += 862433) {
    tiny.push_back(FromBits(b));
    tiny.push_back(-FromBits(b));
  }
  for (std::uint32_t b = 0x00800000u - 3; b < 0x00800000u + 3; ++b) {
    tiny.push_back(FromBits(b));
    tiny.push_back(-FromBits(b));
  }
  const auto y = CheckResults("tgamma", tiny);
  for (std::size_t i = 0; i < tiny.size(); ++i) {
    if (std::fabs(tiny[i]) < 0x1p-128f) {
      EXPECT_EQ(y[i], std::copysign(kInf, tiny[i])) << std::hexfloat << tiny[i];
    }
  }
}

// Vectors mixing every region of both kernels in every lane position (the whole-vector tests: all
// positive, some negative, some lane near a zero of lgamma, specials): each lane against the scalar
// lane and the oracle.
TEST(Gamma, MixedLanesMatchTheScalarLaneAndTheOracle) {
  const std::vector<float> base = {1.0f, 2.0f, -2.4570248f, 0.5f, 7.99f, 8.0f, 35.0f, 35.05f, -0.0f, 0.0f, 1e-30f,
                                   -1e-30f, -3.5f, -41.00004f, -42.5f, 1.0078125f, 1.9921875f, -7.9999752f, 1e36f,
                                   -9.000003f, kInf, -kInf, NAN, -5.0f, 100.0f, 0x1p-149f, -2.7476826f, 3.0f};
  std::vector<float> xs;
  for (std::size_t r = 0; r < base.size(); ++r) {
    for (std::size_t i = 0; i < base.size(); ++i) xs.push_back(base[(i + r) % base.size()]);
  }
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-45.0f, 45.0f);
  for (int i = 0; i < 4000; ++i) xs.push_back(u(rng));
  for (const char* name : {"tgamma", "lgamma"}) {
    double worst = 0;
    CheckResults(name, xs, -1, &worst);
    EXPECT_LE(worst, 0.51) << name;
  }
}

}  // namespace
