// Oracles of the error function, gamma and Bessel I families (their rows: tools/accuracy/oracles.def)
// that the C library or MPFR do not give directly. Each double tier is independent of the library's
// kernels and validated against its exact tier by `accelmath oracle-check` (CTest oracle_check_all).
//
// erfcx(x) = exp(x^2) erfc(x):
//   double: x < 10: glibc erfc(x) times glibc exp(x^2) (x^2 = h + l exactly, exp(h) (1 + l); +inf once
//     exp overflows, where the float32 result has overflowed long before, below -9.38); x >= 10: the
//     asymptotic series 1/(x sqrt(pi)) sum_n (-1)^n (2n-1)!!/(2x^2)^n, summed while the terms fall
//     (below 1e-20 of the sum after 25 terms at x = 10).
//   exact: Arb erfc(x) exp(x^2) in ball arithmetic.
// normcdf(x) = erfc(-x/sqrt 2)/2:
//   double: x >= 0: 1 - erfc(x/sqrt 2)/2; x < 0: erfcx(t) exp(-x^2/2)/2, t = -x/sqrt 2 (rounded; erfcx
//     varies slowly, relative sensitivity ~ |dt|/t), x^2/2 exact.
//   exact: Arb erfc(-x/sqrt 2)/2.
// erfinv(x): |x| <= 1/2: Newton on glibc erf from ndtri((1 + x)/2)/sqrt 2; |x| > 1/2:
//   -+ndtri((1 - |x|)/2)/sqrt 2 (1 - |x| exact for a float |x| >= 1/2). exact: Arb arb_hypgeom_erfinv.
// erfcinv(y) = -ndtri(y/2)/sqrt 2 (y/2 exact). exact: Arb arb_hypgeom_erfcinv.
// lgamma: exact tier mpfr_lgamma (log |Gamma(x)|; +inf at the poles).
// cyl_bessel_i0/i1: double Boost.Math cyl_bessel_i (+-inf beyond |x| = 700, before Boost's overflow at
//   713.98); exact Arb arb_hypgeom_bessel_i.
#include <arb_hypgeom.h>
#include <mpfr.h>

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <limits>

#include "accuracy/oracle.h"

namespace accelmath::oracle {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSqrt2 = 1.4142135623730950488;
constexpr double kInvSqrtPi = 0.56418958354775628695;

void ErfcxArb(arb_t y, const arb_t x, slong prec) {
  arb_t e;
  arb_init(e);
  arb_sqr(e, x, prec);
  arb_exp(e, e, prec);
  arb_hypgeom_erfc(y, x, prec);
  arb_mul(y, y, e, prec);
  arb_clear(e);
}

void NormcdfArb(arb_t y, const arb_t x, slong prec) {
  arb_t s;
  arb_init(s);
  arb_sqrt_ui(s, 2, prec);
  arb_div(y, x, s, prec);
  arb_neg(y, y);
  arb_hypgeom_erfc(y, y, prec);
  arb_mul_2exp_si(y, y, -1);
  arb_clear(s);
}

template <int kNu>
void BesselIArb(arb_t y, const arb_t x, slong prec) {
  arb_t nu;
  arb_init(nu);
  arb_set_si(nu, kNu);
  arb_hypgeom_bessel_i(y, nu, x, prec);
  arb_clear(nu);
}

// The special values of each function, answered before Arb (which returns no finite ball there).
bool Special(mpfr_ptr out, double fast_value, bool special) {
  if (!special) return false;
  mpfr_set_d(out, fast_value, MPFR_RNDN);
  return true;
}

}  // namespace

double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 10.0) {  // exp(h + l) = exp(h) (1 + l), x^2 = h + l exactly (the rounding of x^2 matters for
                   // a double x: normcdf's t; it would cost up to 1e-14 relative)
    const double h = x * x, l = std::fma(x, x, -h);
    if (h > 709.0) return kInf;  // x < -26.6 (also -inf): exp overflows, and e l could be inf * 0
    const double e = std::exp(h);
    return std::erfc(x) * (e + e * l);
  }
  if (x == kInf) return 0.0;
  const double w = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 60; ++n) {
    const double next = -term * (2 * n - 1) * w;
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    sum += term;
    if (std::fabs(term) < 1e-20 * std::fabs(sum)) break;
  }
  return sum * kInvSqrtPi / x;
}

void erfcx_exact(mpfr_ptr out, double x) {
  if (Special(out, erfcx(x), !std::isfinite(x) || x < -27.0)) return;
  Arb<ErfcxArb>(out, x);
}

double normcdf(double x) {
  if (std::isnan(x)) return x;
  if (x >= 0) return 1.0 - 0.5 * std::erfc(x / kSqrt2);
  if (x == -kInf) return 0.0;
  return 0.5 * erfcx(-x / kSqrt2) * std::exp(-(x * x) * 0.5);
}

void normcdf_exact(mpfr_ptr out, double x) {
  if (Special(out, normcdf(x), !std::isfinite(x) || x < -40.0)) return;
  Arb<NormcdfArb>(out, x);
}

double erfinv(double x) {
  if (!(std::fabs(x) <= 1.0)) return kNaN;
  if (std::fabs(x) == 1.0) return std::copysign(kInf, x);
  if (x == 0.0) return x;
  if (std::fabs(x) > 0.5) {
    const double r = -ndtri((1.0 - std::fabs(x)) / 2) / kSqrt2;
    return std::copysign(r, x);
  }
  double y = ndtri((1.0 + x) / 2) / kSqrt2;
  for (int i = 0; i < 3; ++i) y -= (std::erf(y) - x) / (2 * kInvSqrtPi * std::exp(-y * y));
  return y;
}

void erfinv_exact(mpfr_ptr out, double x) {
  if (Special(out, erfinv(x), !(std::fabs(x) < 1.0) || x == 0.0)) return;
  Arb<arb_hypgeom_erfinv>(out, x);
}

double erfcinv(double y) {
  if (!(y >= 0.0 && y <= 2.0)) return kNaN;
  return -ndtri(y / 2) / kSqrt2;
}

void erfcinv_exact(mpfr_ptr out, double y) {
  if (Special(out, erfcinv(y), !(y > 0.0 && y < 2.0) || y == 1.0)) return;
  Arb<arb_hypgeom_erfcinv>(out, y);
}

void lgamma_exact(mpfr_ptr out, double x) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_d(t, x, MPFR_RNDN);
  int sign = 0;
  mpfr_lgamma(out, &sign, t, MPFR_RNDN);
  mpfr_clear(t);
}

double bessel_i0(double x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) > 700.0) return kInf;  // I0 overflows binary64 at 713.98 (float32 at 91.9)
  return boost::math::cyl_bessel_i(0, x);
}

double bessel_i1(double x) {
  if (std::isnan(x)) return x;
  if (x == 0.0 || std::isinf(x)) return x;
  if (std::fabs(x) > 700.0) return std::copysign(kInf, x);
  const double r = boost::math::cyl_bessel_i(1, std::fabs(x));
  return std::copysign(r, x);
}

void bessel_i0_exact(mpfr_ptr out, double x) {
  if (Special(out, bessel_i0(x), !std::isfinite(x) || std::fabs(x) > 800.0)) return;
  Arb<BesselIArb<0>>(out, x);
}

void bessel_i1_exact(mpfr_ptr out, double x) {
  if (Special(out, bessel_i1(x), !std::isfinite(x) || x == 0.0 || std::fabs(x) > 800.0)) return;
  Arb<BesselIArb<1>>(out, x);
}

}  // namespace accelmath::oracle
