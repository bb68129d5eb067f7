// The inverse trig and hyperbolic family beyond what the registry-wide tests check: the traps that
// float32 implementations fall into (an accelerator header we measured was 1.7e7 ulp off for tiny
// arguments, 1.1e7 for large atan arguments, ~1000 near +-1 for asin/acos), each lane against the
// exact tier of its oracle (MPFR at 128 bits): tiny arguments return x itself (correctly rounded) down
// to 2^-149 and stay <= 1 ulp above; atan up to +-inf; asin/acos on the 2^16 floats next to +-1;
// sinh/cosh overflow exactly where the correctly rounded result does; atan2 with ratios that would
// underflow or overflow in float32; vectors mixing all of these lane by lane.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/registry.h"
#include "accelmath/scalar.h"
#include "accuracy/oracle.h"
#include "oracle_test_util.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::Bits;
using accelmath::test::FromBits;

constexpr float kInf = std::numeric_limits<float>::infinity();

using accelmath::test::ArrayOf;
using accelmath::test::ScalarOf;
using accelmath::test::Binades;
using accelmath::test::CheckLanes;

// f(x) = x (1 + c x^2 + ...) with |c| <= 1/3: for |x| < 2^-12, |c| x^2 < 2^-25.58, below half an
// ulp relative, so the correctly rounded result is x itself, subnormals included; and every float
// from there up to 1/2 is within the bound.
TEST(InvTrigHyp, TinyArgumentsGiveXAndStayWithinOneUlpUpToOneHalf) {
  const std::vector<float> tiny = Binades(0, 127 - 13, 40961);  // |x| < 2^-12
  const std::vector<float> small = Binades(127 - 12, 127 - 2, 4099);
  for (const char* name : {"tanh", "sinh", "asinh", "atanh", "asin", "atan"}) {
    const auto* f = accelmath::find_function(name);
    ASSERT_NE(f, nullptr);
    std::vector<float> y(tiny.size());
    ASSERT_EQ(ArrayOf(*f, y, tiny, tiny.size()), Status::kOk);
    for (std::size_t i = 0; i < tiny.size(); ++i) {
      ASSERT_EQ(Bits(y[i]), Bits(tiny[i])) << name << "(" << std::hexfloat << tiny[i] << ") = " << y[i];
    }
    EXPECT_LE(CheckLanes(name, small, f->bound_ulp), f->bound_ulp) << name;
  }
}

// atan for |x| from 1e4 (2^13) to the largest float and +-inf: pi/2 - 1/x, no clamp.
TEST(InvTrigHyp, AtanOfLargeArgumentsUpToInfinity) {
  std::vector<float> xs = Binades(127 + 13, 254, 8191);
  xs.push_back(kInf);
  xs.push_back(-kInf);
  EXPECT_LE(CheckLanes("atan", xs, 1.0), 1.0);
  EXPECT_EQ(accelmath::scalar::atan(kInf), 0x1.921fb6p+0f);
  EXPECT_EQ(accelmath::scalar::atan(-kInf), -0x1.921fb6p+0f);
}

// asin and acos on every one of the 2^16 floats below 1 in magnitude (where a float32 kernel loses
// digits to 1 - |x|), both signs, and +-1 itself.
TEST(InvTrigHyp, AsinAcosNextToPlusMinusOne) {
  std::vector<float> xs;
  for (std::uint32_t b = 0x3F800000u - (1u << 16); b <= 0x3F800000u; ++b) {
    xs.push_back(FromBits(b));
    xs.push_back(-FromBits(b));
  }
  EXPECT_LE(CheckLanes("asin", xs, 1.0), 1.0);
  EXPECT_LE(CheckLanes("acos", xs, 1.0), 1.0);
  // Outside [-1, 1]: the canonical NaN, 0x7fc00000, on every CPU (the NaN a square root makes of a
  // negative number is negative on x86 and positive on Arm; Targets.* holds every target to the
  // scalar lane). A NaN input stays that NaN.
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> out = {FromBits(0x3F800001u), -FromBits(0x3F800001u), 2.0f, -1e30f, inf, -inf, FromBits(0xFFC00001u)};
  for (const char* name : {"asin", "acos"}) {
    const auto* f = accelmath::find_function(name);
    ASSERT_NE(f, nullptr);
    std::vector<float> y(out.size());
    ASSERT_EQ(ArrayOf(*f, y, out, out.size()), Status::kOk);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::uint32_t want = i + 1 < out.size() ? 0x7FC00000u : 0xFFC00001u;
      EXPECT_EQ(Bits(y[i]), want) << name << "(" << std::hexfloat << out[i] << ")";
      EXPECT_EQ(Bits(ScalarOf(*f, out[i])), want) << name << "(" << std::hexfloat << out[i] << ")";
    }
  }
}

// sinh and cosh overflow exactly where the correctly rounded float result does: for 2000 floats
// around ln(2^129), the result is +-inf iff the exact value (MPFR) is at least 2^128 - 2^103 (the
// midpoint between the largest float and 2^128), and finite results are within the bound.
TEST(InvTrigHyp, SinhCoshOverflowAtTheRoundingThreshold) {
  mpfr_t r, threshold;
  mpfr_init2(r, 128);
  mpfr_init2(threshold, 128);
  mpfr_set_d(threshold, 0x1p128 - 0x1p103, MPFR_RNDN);
  int overflows = 0;
  for (const char* name : {"sinh", "cosh"}) {
    const auto* o = accelmath::oracle::find_oracle(name);
    const auto* f = accelmath::find_function(name);
    ASSERT_NE(o, nullptr);
    for (std::uint32_t b = 0x42B2D4FCu - 1000; b < 0x42B2D4FCu + 1000; ++b) {
      for (const float x : {FromBits(b), -FromBits(b)}) {
        o->exact(r, x);
        mpfr_abs(r, r, MPFR_RNDN);
        const bool exact_overflows = mpfr_cmp(r, threshold) >= 0;
        const float y = ScalarOf(*f, x);
        ASSERT_EQ(std::isinf(y), exact_overflows) << name << "(" << std::hexfloat << x << ") = " << y;
        overflows += exact_overflows;
        if (!exact_overflows) {
          ASSERT_LE(accelmath::oracle::ulp_error_exact(*o, x, y), f->bound_ulp);
        }
      }
    }
  }
  EXPECT_GT(overflows, 2000);  // both sides of the threshold were seen
  mpfr_clear(r);
  mpfr_clear(threshold);
}

// Vectors that mix tiny, moderate, huge, out-of-domain and special arguments in every lane position:
// each lane against the scalar lane and the oracle.
TEST(InvTrigHyp, MixedLanesMatchTheScalarLaneAndTheOracle) {
  const std::vector<float> base = {1e-30f, 3.4e38f, 1.0f, -1e10f, 0x1p-149f, 100.0f, -0.0f, 0.5f, -0.99999994f,
                                   0x1p-126f, -7.0f, 89.4159f, -89.5f, 1e5f, 0.17f, -0.1716f, 1.0000001f, 2.414f,
                                   0.41421f, kInf, -kInf, NAN, 9.01f};
  std::vector<float> xs;
  for (std::size_t r = 0; r < base.size(); ++r) {
    for (std::size_t i = 0; i < base.size(); ++i) xs.push_back(base[(i + r) % base.size()]);
  }
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 8192; ++i) xs.push_back(FromBits(bits(rng)));
  for (const char* name : {"asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"}) {
    EXPECT_LE(CheckLanes(name, xs, 1.0), 1.0) << name;
  }
}

// atan2(y, x) against MPFR's atan2 (128 bits) where the float32 ratio y/x would underflow or
// overflow (tiny over huge, huge over tiny, subnormal over subnormal), on the diagonals and in
// every sign combination; the array (SIMD) result equals the scalar one.
TEST(InvTrigHyp, Atan2RatiosThatFloat32CannotHold) {
  std::vector<float> ys, xs;
  const float mags[] = {0x1p-149f, 0x1.8p-140f, 0x1p-126f, 1e-30f, 0x1.fffffep+127f, 1e30f, 3.0f, 0x1.2p+100f};
  for (const float a : mags) {
    for (const float b : mags) {
      for (const float sy : {1.0f, -1.0f}) {
        for (const float sx : {1.0f, -1.0f}) {
          ys.push_back(sy * a), xs.push_back(sx * b);
          ys.push_back(sy * std::nextafter(a, kInf)), xs.push_back(sx * b);  // near the diagonal
        }
      }
    }
  }
  std::vector<float> out(ys.size());
  ASSERT_EQ(accelmath::atan2(out, ys, xs), Status::kOk);
  mpfr_t r, ty, tx;
  mpfr_inits2(128, r, ty, tx, static_cast<mpfr_ptr>(nullptr));
  for (std::size_t i = 0; i < ys.size(); ++i) {
    ASSERT_EQ(Bits(out[i]), Bits(accelmath::scalar::atan2(ys[i], xs[i]))) << ys[i] << ", " << xs[i];
    mpfr_set_flt(ty, ys[i], MPFR_RNDN);
    mpfr_set_flt(tx, xs[i], MPFR_RNDN);
    mpfr_atan2(r, ty, tx, MPFR_RNDN);
    const double e = accelmath::oracle::ulp_error_f32(out[i], mpfr_get_d(r, MPFR_RNDN));
    EXPECT_LE(e, 1.0) << "atan2(" << std::hexfloat << ys[i] << ", " << xs[i] << ") = " << out[i];
  }
  mpfr_clears(r, ty, tx, static_cast<mpfr_ptr>(nullptr));
  // 2^-149 / 2^127.99: the quotient underflows to +0 in float32 and in the result (atan2 ~ 2^-277).
  EXPECT_EQ(Bits(accelmath::scalar::atan2(0x1p-149f, 0x1.fffffep+127f)), Bits(0.0f));
  // 2^-149 / 2^-126: 2^-23, far from underflow, though a float32 kernel forming 1/x first is not.
  EXPECT_EQ(accelmath::scalar::atan2(0x1p-149f, 0x1p-126f), 0x1p-23f);
}

}  // namespace
