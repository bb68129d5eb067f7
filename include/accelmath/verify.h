// Precision-standard checker: compares an output against a golden array under the two
// acceptance standards of docs/ndtri.md ("Precision standards"), with thresholds as parameters.
//
//  - Dual threshold: element i is an error when |a - g| > atol AND |a - g| / max(|g|, atol) > rtol.
//    The check passes when errors / count <= max_error_ratio. Defaults 1e-4 for float32/float64
//    ("双万分之一"), 1e-3 for float16/bfloat16 ("双千分之一").
//  - MERE/MARE: r_i = |a - g| / (|g| + 1e-7); MERE = mean r_i, MARE = max r_i; passes when
//    MERE < T and MARE < 10 T. Default T = 2^-13 (float32/float64), 2^-10 (float16), 2^-7 (bfloat16).
// Under both, a NaN golden requires a NaN output and an infinite golden an infinity of the same
// sign ("class check"); such elements are not part of the means. A class mismatch is an error
// (dual threshold) or fails the check outright (MERE/MARE). A NaN or infinite output for a finite
// golden is an error.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace accelmath::verify {

enum class Standard { kDualThreshold, kMereMare };
// Element type of the compared data: sets the ulp used in reports and the default thresholds.
enum class DType { kFloat16, kBFloat16, kFloat32, kFloat64 };

struct Options {
  Standard standard = Standard::kDualThreshold;
  DType dtype = DType::kFloat32;
  double atol = -1;             // < 0: the default of `dtype`
  double rtol = -1;             // < 0: the default of `dtype`
  double max_error_ratio = -1;  // < 0: the default of `dtype`
  double mere_threshold = -1;   // T; < 0: the default of `dtype`
  std::size_t worst_count = 10;
};

struct Element {
  std::size_t index = 0;
  double golden = 0, actual = 0;
  double abs_error = 0, rel_error = 0, ulp_error = 0;
  bool class_mismatch = false;
};

struct Report {
  Standard standard = Standard::kDualThreshold;
  bool pass = false;
  std::size_t count = 0;
  std::size_t errors = 0;            // dual threshold: elements over both thresholds (+ class mismatches)
  std::size_t class_mismatches = 0;  // NaN/Inf class check failures
  double error_ratio = 0;            // errors / count
  double mere = 0, mare = 0;
  double max_abs = 0, max_rel = 0, max_ulp = 0;  // over elements with finite golden and output
  // Thresholds actually used (defaults resolved).
  double atol = 0, rtol = 0, max_error_ratio = 0, mere_threshold = 0;
  std::vector<Element> worst;  // largest relative errors first; class mismatches lead
};

double default_dual_threshold(DType t) noexcept;
double default_mere_threshold(DType t) noexcept;
// Spacing of `t` at the magnitude of x (subnormal spacing below the normal range).
double ulp(DType t, double x) noexcept;

// The dual-threshold rule for one finite element pair.
inline bool dual_threshold_error(double golden, double actual, double atol, double rtol) noexcept {
  const double abs_err = actual > golden ? actual - golden : golden - actual;
  const double mag = golden < 0 ? -golden : golden;
  return abs_err > atol && abs_err / (mag > atol ? mag : atol) > rtol;
}

// Compares element by element. golden and actual must have the same size
// (std::invalid_argument otherwise).
Report check(std::span<const double> golden, std::span<const double> actual, const Options& options);

}  // namespace accelmath::verify
