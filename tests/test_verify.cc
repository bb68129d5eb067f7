// The precision-standard checker (include/accelmath/verify.h), on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "accelmath/verify.h"

namespace {

using namespace accelmath::verify;

TEST(Verify, DualThresholdRuleNeedsBothThresholds) {
  EXPECT_TRUE(dual_threshold_error(1.0, 1.0 + 2e-4, 1e-4, 1e-4));       // abs 2e-4, rel 2e-4
  EXPECT_FALSE(dual_threshold_error(1e-5, 6e-5, 1e-4, 1e-4));           // abs 5e-5 <= atol
  EXPECT_FALSE(dual_threshold_error(1000.0, 1000.05, 1e-4, 1e-4));     // rel 5e-5 <= rtol
  EXPECT_TRUE(dual_threshold_error(0.0, 2e-4, 1e-4, 1e-4));             // rel = abs / max(|g|, 1e-4) = 2
  EXPECT_FALSE(dual_threshold_error(1.0, 1.0 + 0.5e-4, 1e-4, 1e-4));
}

TEST(Verify, ErrorRatioBoundaryIsInclusive) {
  std::vector<double> g(10000, 1.0), a(10000, 1.0);
  a[17] = 1.001;
  Report r = check(g, a, {});
  EXPECT_EQ(r.errors, 1u);
  EXPECT_DOUBLE_EQ(r.error_ratio, 1e-4);
  EXPECT_TRUE(r.pass);
  a[18] = 0.998;
  r = check(g, a, {});
  EXPECT_EQ(r.errors, 2u);
  EXPECT_FALSE(r.pass);
  ASSERT_EQ(r.worst.size(), 2u);
  EXPECT_EQ(r.worst[0].index, 18u);  // the larger error first
  EXPECT_EQ(r.worst[1].index, 17u);
  EXPECT_NEAR(r.max_abs, 2e-3, 1e-12);
}

TEST(Verify, NanAndInfAreComparedByClass) {
  const double inf = INFINITY, nan = NAN;
  Report r = check(std::vector<double>{nan, inf, -inf, 1.0}, std::vector<double>{nan, inf, -inf, 1.0}, {});
  EXPECT_EQ(r.errors, 0u);
  EXPECT_TRUE(r.pass);
  Options o;
  o.max_error_ratio = 0;
  r = check(std::vector<double>{nan, inf, -inf, 1.0}, std::vector<double>{1.0, -inf, nan, inf}, o);
  EXPECT_EQ(r.class_mismatches, 3u);
  EXPECT_EQ(r.errors, 4u);  // + a NaN/Inf output for a finite golden
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.worst[0].class_mismatch);
}

TEST(Verify, MereMare) {
  Options o;
  o.standard = Standard::kMereMare;
  std::vector<double> g(1000, 1.0), a(1000, 1.0 + 1e-4);  // T = 2^-13 = 1.22e-4
  Report r = check(g, a, o);
  EXPECT_NEAR(r.mere, 1e-4 / (1 + 1e-7), 1e-10);
  EXPECT_TRUE(r.pass);
  a[5] = 1.0 + 1.3e-3;  // MARE >= 10 T = 1.22e-3
  r = check(g, a, o);
  EXPECT_FALSE(r.pass);
  EXPECT_NEAR(r.mare, 1.3e-3 / (1 + 1e-7), 1e-9);
  a[5] = 1.0 + 1e-4;
  std::fill(a.begin(), a.end(), 1.0 + 1.3e-4);  // MERE over T
  EXPECT_FALSE(check(g, a, o).pass);
  o.mere_threshold = 0x1p-10;
  EXPECT_TRUE(check(g, a, o).pass);
}

TEST(Verify, DefaultsFollowTheDtype) {
  EXPECT_EQ(default_dual_threshold(DType::kFloat32), 1e-4);
  EXPECT_EQ(default_dual_threshold(DType::kFloat16), 1e-3);
  EXPECT_EQ(default_mere_threshold(DType::kFloat32), 0x1p-13);
  EXPECT_EQ(default_mere_threshold(DType::kFloat16), 0x1p-10);
  EXPECT_EQ(default_mere_threshold(DType::kBFloat16), 0x1p-7);
  Options o;
  o.dtype = DType::kFloat16;
  std::vector<double> g(100, 1.0), a(100, 1.0005);
  EXPECT_TRUE(check(g, a, o).pass);  // 5e-4 is inside the 1e-3 dual threshold
  o.dtype = DType::kFloat32;
  EXPECT_FALSE(check(g, a, o).pass);
}

TEST(Verify, UlpOfEachType) {
  EXPECT_EQ(ulp(DType::kFloat32, 1.0), 0x1p-23);
  EXPECT_EQ(ulp(DType::kFloat32, 1.5), 0x1p-23);
  EXPECT_EQ(ulp(DType::kFloat32, -2.0), 0x1p-22);
  EXPECT_EQ(ulp(DType::kFloat32, 1e-40), 0x1p-149);
  EXPECT_EQ(ulp(DType::kFloat16, 1.0), 0x1p-10);
  EXPECT_EQ(ulp(DType::kFloat16, 1e-6), 0x1p-24);
  EXPECT_EQ(ulp(DType::kBFloat16, 1.0), 0x1p-7);
  EXPECT_EQ(ulp(DType::kFloat64, 1.0), 0x1p-52);
}

TEST(Verify, SizeMismatchThrows) {
  EXPECT_THROW(check(std::vector<double>(3), std::vector<double>(4), {}), std::invalid_argument);
}

}  // namespace
