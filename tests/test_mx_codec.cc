// MX element codecs against the independent model (tools/accuracy/mx_reference.cc): every code
// decodes right; every grid point, midpoint (tie) and their float32 neighbours, overflow, Inf,
// NaN and signed zero encode right in every mode; and 2^24 sampled float32 patterns per format
// (the exhaustive 2^32 run is `accelmath mx-sweep`). Scalar codec and SIMD array codec both.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "accelmath/mx.h"
#include "accuracy/mx_reference.h"
#include "mx_test_util.h"
#include "test_util.h"

namespace accelmath::mx {
namespace {

using test::Bits;
using test::FromBits;

using mxtest::kElems;
constexpr RoundMode kModes[] = {RoundMode::kRint, RoundMode::kRound, RoundMode::kFloor};

int CodeCount(DType t) { return 1 << reference::FormatOf(t).bits; }

bool SameFloat(double want, float got) {
  if (std::isnan(want)) return std::isnan(got);
  return want == double(got) && std::signbit(want) == std::signbit(got);
}

TEST(MxCodec, EveryCodeDecodes) {
  for (DType t : kElems) {
    const int n = CodeCount(t);
    std::vector<uint8_t> codes(n);
    std::vector<float> got(n);
    for (int c = 0; c < n; ++c) codes[c] = static_cast<uint8_t>(c);
    ASSERT_TRUE(decode(codes, got, t).ok());
    for (int c = 0; c < n; ++c) {
      const double want = reference::Value(static_cast<uint8_t>(c), t);
      EXPECT_TRUE(SameFloat(want, decode(static_cast<uint8_t>(c), t))) << dtype_name(t) << " code " << c;
      EXPECT_TRUE(SameFloat(want, got[c])) << dtype_name(t) << " array code " << c;
    }
  }
}

TEST(MxCodec, KnownValues) {
  // OCP MX v1.0 / survey section 1.
  EXPECT_EQ(decode(0x7E, DType::kFloat8E4M3FN), 448.0f);
  EXPECT_TRUE(std::isnan(decode(0x7F, DType::kFloat8E4M3FN)));
  EXPECT_EQ(decode(0x01, DType::kFloat8E4M3FN), 0x1p-9f);
  EXPECT_EQ(decode(0x7B, DType::kFloat8E5M2), 57344.0f);
  EXPECT_EQ(decode(0x7C, DType::kFloat8E5M2), std::numeric_limits<float>::infinity());
  EXPECT_EQ(decode(0x01, DType::kFloat8E5M2), 0x1p-16f);
  EXPECT_EQ(decode(0x1F, DType::kFloat6E3M2), 28.0f);
  EXPECT_EQ(decode(0x1F, DType::kFloat6E2M3), 7.5f);
  const float e2m1[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(decode(uint8_t(c), DType::kFloat4E2M1), e2m1[c]);
    EXPECT_EQ(decode(uint8_t(c | 8), DType::kFloat4E2M1), -e2m1[c]);
    EXPECT_EQ(decode(uint8_t(c), DType::kFloat4E1M2), 0.25f * c);
  }
  EXPECT_EQ(Bits(decode(0x00, DType::kFloat8E8M0)), 0x00400000u);  // 2^-127, a float32 subnormal
  EXPECT_EQ(decode(127, DType::kFloat8E8M0), 1.0f);
  EXPECT_EQ(decode(254, DType::kFloat8E8M0), 0x1p127f);
  EXPECT_TRUE(std::isnan(decode(255, DType::kFloat8E8M0)));
  // Saturation after rounding, not NaN (survey P4): 465 -> 448; Inf -> max.
  EXPECT_EQ(encode(465.0f, DType::kFloat8E4M3FN), 0x7E);
  EXPECT_EQ(encode(-INFINITY, DType::kFloat8E5M2), 0xFB);
  EXPECT_EQ(encode(-0.0f, DType::kFloat4E2M1), 0x8);
  EXPECT_EQ(encode(-0.1f, DType::kFloat4E2M1), 0x8);                      // -0
  EXPECT_EQ(encode(-0.1f, DType::kFloat4E2M1, RoundMode::kFloor), 0x9);   // floor toward -inf
  EXPECT_EQ(encode(0.75f, DType::kFloat4E2M1), 0x2);                      // tie to even: 1.0
  EXPECT_EQ(encode(0.75f, DType::kFloat4E2M1, RoundMode::kRound), 0x2);   // away: 1.0
  EXPECT_EQ(encode(1.25f, DType::kFloat4E2M1), 0x2);                      // tie to even: 1.0
  EXPECT_EQ(encode(1.25f, DType::kFloat4E2M1, RoundMode::kRound), 0x3);   // away: 1.5
  EXPECT_EQ(encode(NAN, DType::kFloat8E4M3FN), 0x7F);
  EXPECT_EQ(encode(-NAN, DType::kFloat8E4M3FN), 0xFF);
  EXPECT_EQ(encode(NAN, DType::kFloat8E5M2), 0x7E);
  EXPECT_EQ(encode(NAN, DType::kFloat4E2M1), 0x0);
}

// Checks scalar and array encode of xs against the reference in every mode.
void CheckEncode(DType t, const std::vector<float>& xs) {
  std::vector<uint8_t> got(xs.size());
  for (RoundMode m : kModes) {
    ASSERT_TRUE(encode(xs, got, t, m).ok());
    int failures = 0;
    for (size_t i = 0; i < xs.size() && failures < 10; ++i) {
      const uint8_t want = reference::Encode(xs[i], t, m);
      if (got[i] != want || encode(xs[i], t, m) != want) {
        ++failures;
        ADD_FAILURE() << dtype_name(t) << " mode " << int(m) << " x=" << xs[i] << " (0x" << std::hex << Bits(xs[i])
                      << ") want 0x" << int(want) << " array 0x" << int(got[i]) << " scalar 0x"
                      << int(encode(xs[i], t, m));
      }
    }
  }
}

TEST(MxCodec, GridPointsTiesAndNeighbours) {
  for (DType t : kElems) {
    std::vector<double> grid;
    for (int c = 0; c < CodeCount(t) / 2; ++c) {
      const double v = reference::Value(uint8_t(c), t);
      if (std::isfinite(v)) grid.push_back(v);
    }
    std::vector<float> xs;
    auto around = [&](double v) {
      const float f = static_cast<float>(v);
      for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)}) xs.push_back(g), xs.push_back(-g);
    };
    for (size_t i = 0; i < grid.size(); ++i) {
      around(grid[i]);
      if (i + 1 < grid.size()) around((grid[i] + grid[i + 1]) / 2);  // ties, exact in float
    }
    const double max = grid.back(), top_step = max - grid[grid.size() - 2];
    for (double v : {max + top_step / 2, max + top_step, 2 * max, 1e30, double(FLT_MAX), grid[1] / 2, grid[1] / 4})
      around(v);
    for (float v : {INFINITY, -INFINITY, NAN, -NAN, 0.0f, -0.0f, 0x1p-149f, -0x1p-149f, 0x1p-126f, -0x1p-126f})
      xs.push_back(v);
    CheckEncode(t, xs);
  }
}

TEST(MxCodec, Sampled2to24PerFormat) {
  std::mt19937 rng(24);
  std::vector<float> xs(1 << 24);
  for (DType t : kElems) {
    for (auto& x : xs) x = FromBits(static_cast<uint32_t>(rng()));
    // Half the samples in the format's own range, where the grid is dense: |x| < 4 * max.
    const float range = 4 * reference::Value(uint8_t((CodeCount(t) / 2) - 1), t) ;
    for (size_t i = 0; i < xs.size(); i += 2) {
      if (!std::isfinite(range)) break;
      xs[i] = std::ldexp(static_cast<float>(rng() >> 8) * 0x1p-24f, static_cast<int>(rng() % 24) - 20) * range * (rng() & 1 ? 1 : -1);
    }
    CheckEncode(t, xs);
  }
}

TEST(MxCodec, ArrayErrors) {
  std::vector<float> x(4);
  std::vector<uint8_t> c(3);
  Error e = encode(x, c, DType::kFloat8E4M3FN);
  EXPECT_EQ(e.code, kErrParamInvalid);
  EXPECT_EQ(e.param, "codes");
  e = encode(x, std::span<uint8_t>(c.data(), 0), DType::kFloat8E8M0);
  EXPECT_EQ(e.param, "type");
  e = decode(c, std::span<float>(x.data(), 3), DType::kFloat32);
  EXPECT_EQ(e.param, "type");
}

}  // namespace
}  // namespace accelmath::mx
