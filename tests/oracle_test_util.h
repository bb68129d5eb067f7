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
// for bit and against the exact oracle within `max_ulp` (negative: the row's bound). Returns the
// results; the largest error seen goes into *worst.
inline std::vector<float> CheckResults(const char* name, const std::vector<float>& xs, double max_ulp = -1,
                                       double* worst = nullptr) {
  const auto* f = accelmath::find_function(name);
  const auto* o = accelmath::oracle::find_oracle(name);
  EXPECT_NE(f, nullptr) << name;
  EXPECT_NE(o, nullptr) << name;
  std::vector<float> y(xs.size());
  if (f == nullptr || o == nullptr) {
    if (worst != nullptr) *worst = INFINITY;
    return y;
  }
  if (max_ulp < 0) max_ulp = f->bound_ulp;
  EXPECT_EQ(ArrayOf(*f, y, xs, xs.size()), accelmath::Status::kOk);
  double w = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_EQ(Bits(y[i]), Bits(ScalarOf(*f, xs[i]))) << name << "(" << std::hexfloat << xs[i] << ") lane " << i % 16;
    const double e = accelmath::oracle::ulp_error_exact(*o, xs[i], y[i]);
    EXPECT_LE(e, max_ulp) << name << "(" << std::hexfloat << xs[i] << ") = " << y[i];
    w = std::max(w, e);
  }
  if (worst != nullptr) *worst = std::max(*worst, w);
  return y;
}

// The same, returning the largest error.
inline double CheckLanes(const char* name, const std::vector<float>& xs, double max_ulp = -1) {
  double worst = 0;
  CheckResults(name, xs, max_ulp, &worst);
  return worst;
}

// f over xs overflows exactly where round to nearest does: +-inf where the exact value's magnitude is
// at least 2^128 - 2^103 (the oracle's error of an infinite result, (2^128 - |exact|)/2^104 ulp, is
// at most 0.5 there), finite elsewhere; every lane also within the row's bound (CheckResults).
// Returns how many lanes overflowed.
inline int CheckOverflow(const char* name, const std::vector<float>& xs) {
  const auto* o = accelmath::oracle::find_oracle(name);
  EXPECT_NE(o, nullptr) << name;
  if (o == nullptr) return 0;
  const std::vector<float> y = CheckResults(name, xs);
  int overflows = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const bool exact_overflows = accelmath::oracle::ulp_error_exact(*o, xs[i], std::copysign(INFINITY, y[i])) <= 0.5;
    EXPECT_EQ(std::isinf(y[i]), exact_overflows) << name << "(" << std::hexfloat << xs[i] << ") = " << y[i];
    overflows += exact_overflows;
  }
  return overflows;
}

// Every float from bits b - k to b + k, at a stride (same sign: b's neighbours by magnitude).
inline std::vector<float> Around(std::uint32_t b, std::uint32_t k, std::uint32_t stride = 1) {
  std::vector<float> v;
  for (std::uint32_t i = b - k; i <= b + k; i += stride) v.push_back(FromBits(i));
  return v;
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
