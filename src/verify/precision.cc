#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "accelmath/verify.h"

namespace accelmath::verify {

double default_dual_threshold(DType t) noexcept {
  return t == DType::kFloat16 || t == DType::kBFloat16 ? 1e-3 : 1e-4;
}

double default_mere_threshold(DType t) noexcept {
  switch (t) {
    case DType::kFloat16:
      return 0x1p-10;
    case DType::kBFloat16:
      return 0x1p-7;
    default:
      return 0x1p-13;
  }
}

double ulp(DType t, double x) noexcept {
  int mant_bits = 23, min_exp = -126;  // float32: 23 stored bits, smallest normal 2^-126
  switch (t) {
    case DType::kFloat16:
      mant_bits = 10, min_exp = -14;
      break;
    case DType::kBFloat16:
      mant_bits = 7, min_exp = -126;
      break;
    case DType::kFloat64:
      mant_bits = 52, min_exp = -1022;
      break;
    case DType::kFloat32:
      break;
  }
  x = std::fabs(x);
  int e = min_exp;
  if (x >= std::ldexp(1.0, min_exp)) {
    std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
    e -= 1;
  }
  return std::ldexp(1.0, e - mant_bits);
}

Report check(std::span<const double> golden, std::span<const double> actual, const Options& o) {
  if (golden.size() != actual.size()) throw std::invalid_argument("golden and actual differ in size");
  Report r;
  r.standard = o.standard;
  r.count = golden.size();
  r.atol = o.atol >= 0 ? o.atol : default_dual_threshold(o.dtype);
  r.rtol = o.rtol >= 0 ? o.rtol : default_dual_threshold(o.dtype);
  r.max_error_ratio = o.max_error_ratio >= 0 ? o.max_error_ratio : default_dual_threshold(o.dtype);
  r.mere_threshold = o.mere_threshold >= 0 ? o.mere_threshold : default_mere_threshold(o.dtype);

  // Keeps the worst_count worst elements in a heap whose top is the mildest of them.
  const auto worse = [](const Element& x, const Element& y) {
    if (x.class_mismatch != y.class_mismatch) return x.class_mismatch;
    return x.rel_error > y.rel_error;
  };
  std::vector<Element> heap;
  double mere_sum = 0;
  std::size_t mere_n = 0;
  for (std::size_t i = 0; i < golden.size(); ++i) {
    const double g = golden[i], a = actual[i];
    Element e;
    e.index = i, e.golden = g, e.actual = a;
    bool error = false;
    if (!std::isfinite(g)) {
      const bool same_class = std::isnan(g) ? std::isnan(a) : a == g;
      e.class_mismatch = !same_class;
      e.abs_error = e.rel_error = e.ulp_error = same_class ? 0 : INFINITY;
      error = !same_class;
      if (error) ++r.class_mismatches;
    } else if (!std::isfinite(a)) {
      e.abs_error = e.rel_error = e.ulp_error = INFINITY;
      error = true;
      mere_sum = INFINITY, ++mere_n;
    } else {
      e.abs_error = std::fabs(a - g);
      e.ulp_error = e.abs_error / ulp(o.dtype, g);
      const double dual_rel = e.abs_error / std::max(std::fabs(g), r.atol);
      const double mere_rel = e.abs_error / (std::fabs(g) + 1e-7);
      e.rel_error = o.standard == Standard::kDualThreshold ? dual_rel : mere_rel;
      error = dual_threshold_error(g, a, r.atol, r.rtol);
      r.max_abs = std::max(r.max_abs, e.abs_error);
      r.max_rel = std::max(r.max_rel, g != 0 ? e.abs_error / std::fabs(g) : (e.abs_error != 0 ? INFINITY : 0.0));
      r.max_ulp = std::max(r.max_ulp, e.ulp_error);
      mere_sum += mere_rel, ++mere_n;
      r.mare = std::max(r.mare, mere_rel);
    }
    if (!std::isfinite(a) && std::isfinite(g)) r.mare = INFINITY;
    if (error) ++r.errors;
    if ((e.class_mismatch || e.rel_error > 0) && o.worst_count > 0) {
      if (heap.size() < o.worst_count) {
        heap.push_back(e);
        std::push_heap(heap.begin(), heap.end(), worse);
      } else if (worse(e, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), worse);
        heap.back() = e;
        std::push_heap(heap.begin(), heap.end(), worse);
      }
    }
  }
  r.error_ratio = r.count ? double(r.errors) / double(r.count) : 0.0;
  r.mere = mere_n ? mere_sum / double(mere_n) : 0.0;
  if (o.standard == Standard::kDualThreshold) {
    r.pass = r.error_ratio <= r.max_error_ratio;
  } else {
    r.pass = r.class_mismatches == 0 && r.mere < r.mere_threshold && r.mare < 10 * r.mere_threshold;
  }
  std::sort_heap(heap.begin(), heap.end(), worse);
  r.worst = std::move(heap);
  return r;
}

}  // namespace accelmath::verify
