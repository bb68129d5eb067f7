// Oracles of sinpi, cospi and tanpi (their rows: tools/accuracy/oracles.def). Glibc 2.36 and MPFR
// 4.1 have none, so both tiers reduce the argument exactly first and then call sin/cos/tan of
// pi r, r small: in binary64 (glibc sin/cos/tan of the rounded product pi r, relative error
// ~2^-52) or in MPFR (pi r at the output's precision plus 32 bits).
//   sinpi, cospi: for |x| >= 2^53 every double is an even integer: sinpi = 0, cospi = 1. Otherwise
//   n = rint(2x) and r = x - n/2 are exact, |r| <= 1/4, and with q = n mod 4
//   sinpi(x) = (sin, cos, -sin, -cos)[q](pi r), cospi(x) = (cos, -sin, -cos, sin)[q](pi r).
//   tanpi: m = rint(x), r = x - m in [-1/2, 1/2] exactly; tanpi(x) = tan(pi r), which for
//   |r| > 1/4 is 1 / tan(pi (sign(r)/2 - r)) with the difference exact; r = +-1/2 gives +-inf
//   (C23: +inf at n + 1/2 for even n, -inf for odd n, which is the sign of r since rint rounds
//   half-way cases to even). Signs of zero results are not the oracles' business (ulp error
//   ignores them); the registry's specials pin them.
#include <mpfr.h>

#include <cmath>
#include <limits>

#include "accuracy/oracle.h"

namespace accelmath::oracle {
namespace {

enum class PiFn { kSin, kCos };

// One of +-sin(pi r), +-cos(pi r) in binary64 or (out != nullptr) MPFR.
double PiPart(bool use_cos, bool negate, double r, mpfr_ptr out) {
  if (out) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(out) + 32);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_d(t, t, r, MPFR_RNDN);
    if (use_cos) {
      mpfr_cos(out, t, MPFR_RNDN);
    } else {
      mpfr_sin(out, t, MPFR_RNDN);
    }
    if (negate) mpfr_neg(out, out, MPFR_RNDN);
    mpfr_clear(t);
    return 0;
  }
  const double v = use_cos ? std::cos(M_PI * r) : std::sin(M_PI * r);
  return negate ? -v : v;
}

double SinCosPi(PiFn fn, double x, mpfr_ptr out) {
  if (!std::isfinite(x)) {
    if (out) mpfr_set_nan(out);
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (std::fabs(x) >= 0x1p53) {
    const double v = fn == PiFn::kSin ? 0.0 : 1.0;
    if (out) mpfr_set_d(out, v, MPFR_RNDN);
    return v;
  }
  const double n = std::rint(2 * x);
  const double r = x - 0.5 * n;
  const int q = static_cast<int>(static_cast<long long>(std::fmod(n, 4.0) + 4.0) % 4);
  const int k = (q + (fn == PiFn::kCos ? 1 : 0)) % 4;  // cospi(x) = sinpi(x + 1/2)
  return PiPart(k % 2 == 1, k >= 2, r, out);
}

double TanPi(double x, mpfr_ptr out) {
  if (!std::isfinite(x)) {
    if (out) mpfr_set_nan(out);
    return std::numeric_limits<double>::quiet_NaN();
  }
  const double r = std::fabs(x) >= 0x1p53 ? 0.0 : x - std::rint(x);
  if (std::fabs(r) == 0.5) {
    const double v = std::copysign(std::numeric_limits<double>::infinity(), r);
    if (out) mpfr_set_d(out, v, MPFR_RNDN);
    return v;
  }
  const bool cot = std::fabs(r) > 0.25;
  const double a = cot ? std::copysign(0.5, r) - r : r;  // exact
  if (out) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(out) + 32);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_d(t, t, a, MPFR_RNDN);
    if (cot) {
      mpfr_cot(out, t, MPFR_RNDN);
    } else {
      mpfr_tan(out, t, MPFR_RNDN);
    }
    mpfr_clear(t);
    return 0;
  }
  return cot ? 1.0 / std::tan(M_PI * a) : std::tan(M_PI * a);
}

}  // namespace

double sinpi(double x) { return SinCosPi(PiFn::kSin, x, nullptr); }
double cospi(double x) { return SinCosPi(PiFn::kCos, x, nullptr); }
double tanpi(double x) { return TanPi(x, nullptr); }
void sinpi_exact(mpfr_ptr out, double x) { SinCosPi(PiFn::kSin, x, out); }
void cospi_exact(mpfr_ptr out, double x) { SinCosPi(PiFn::kCos, x, out); }
void tanpi_exact(mpfr_ptr out, double x) { TanPi(x, out); }

}  // namespace accelmath::oracle
