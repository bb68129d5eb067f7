// The last step of the SumOfSquares driver (Rows rows: norm, rnorm): the definition of the order in
// which a row's partial sums combine. The scalar lane (src/backend/lane_functions.h, also CUDA
// device code) runs it as it is; the Highway loops (src/drivers/rows-inl.h) run the same additions on
// whole vectors. Plain code, compiled for every CPU (included before any target's attribute region).
#pragma once

#include <limits>

#include "kernels/kernel_api.h"

namespace accelmath::detail {

// A row's sum of squares from its 16 binary64 partial sums p (element j of the row went into
// p[j % 16] by p = fma(x, x, p), x widened exactly), combined by one fixed pairwise tree:
// p[i] + p[i + 8], then + 4, + 2, + 1. Every path (each Highway width, the scalar lane) adds them in
// this order, so the sum has the same bits everywhere (NaN payloads aside: the kernels canonicalise
// a NaN sum). +inf if any element was infinite (an infinite element wins over a NaN one); an empty
// row gives +0. p is overwritten.
ACCELMATH_KERNEL double SumOfSquaresTree(double* p, bool any_infinite) {
  for (int w = 8; w >= 1; w /= 2) {
    for (int i = 0; i < w; ++i) p[i] = p[i] + p[i + w];
  }
  return any_infinite ? std::numeric_limits<double>::infinity() : p[0];
}

}  // namespace accelmath::detail
