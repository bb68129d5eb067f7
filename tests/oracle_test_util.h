// Test helpers that compare a registry function with its exact oracle (tools/accuracy/oracle.h):
// shared by the per-family trap tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "test_util.h"

namespace accelmath::test {

// f over xs through the array API (SIMD, dispatched), each lane checked against the scalar lane bit
// for bit and against the exact oracle within `max_ulp`. Returns the largest error seen.
inline double CheckLanes(const char* name, const std::vector<float>& xs, double max_ulp) {
  const auto* f = accelmath::find_function(name);
  const auto* o = accelmath::oracle::find_oracle(name);
  EXPECT_NE(f, nullptr) << name;
  EXPECT_NE(o, nullptr) << name;
  if (f == nullptr || o == nullptr) return INFINITY;
  std::vector<float> y(xs.size());
  EXPECT_EQ(ArrayOf(*f, y, xs, xs.size()), accelmath::Status::kOk);
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_EQ(Bits(y[i]), Bits(ScalarOf(*f, xs[i]))) << name << "(" << std::hexfloat << xs[i] << ") lane " << i % 16;
    const double e = accelmath::oracle::ulp_error_exact(*o, xs[i], y[i]);
    EXPECT_LE(e, max_ulp) << name << "(" << std::hexfloat << xs[i] << ") = " << y[i];
    worst = std::max(worst, e);
  }
  return worst;
}

// +-x for every exponent field from `e_lo` to `e_hi` (0: subnormals) and a stride of mantissas.
inline std::vector<float> Binades(std::uint32_t e_lo, std::uint32_t e_hi, std::uint32_t stride) {
  std::vector<float> v;
  for (std::uint32_t e = e_lo; e <= e_hi; ++e) {
    for (std::uint32_t m = e == 0 ? 1 : 0; m < (1u << 23); m += (m < 8 || m > (1u << 23) - 8) ? 1 : stride) {
      v.push_back(FromBits(e << 23 | m));
      v.push_back(-FromBits(e << 23 | m));
    }
  }
  return v;
}

}  // namespace accelmath::test
