// The reference oracle: the double-precision ndtri against MPFR, and the ulp measure.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "accuracy/oracle.h"
#include "accuracy/sweep.h"

namespace {

using namespace accelmath::oracle;

// Far below 0.01 ulp of float32: the double oracle must be within 1e-6 float32 ulp of MPFR.
TEST(Oracle, DoubleOracleAgreesWithMpfr) {
  const auto in = accelmath::sweep::sample(1500, 99);
  double worst = 0;
  int n = 0;
  for (float p : in) {
    if (!(p > 0 && p < 1) || (n++ % 2 && p > 0.01f && p < 0.99f)) continue;  // weight the tails
    const double ref = ndtri_mpfr(p);
    const double e = std::fabs(ndtri(p) - ref) / ulp_f32(ref);
    worst = std::max(worst, e);
    ASSERT_LE(e, 1e-6) << "p = " << p << " oracle " << ndtri(p) << " mpfr " << ref;
  }
  std::printf("  max |oracle - mpfr| = %.3e float32 ulp\n", worst);
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
}

}  // namespace
