#include "accuracy/oracle.h"

#include <mpfr.h>

#include <cmath>
#include <limits>

namespace accelmath::oracle {
namespace {

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// Start value, |error| < 4.5e-4 (Abramowitz & Stegun 26.2.23) for t in (0, 1/2]: x with Phi(x) = t.
double Start(double t) {
  const double s = std::sqrt(-2.0 * std::log(t));
  return -(s - (2.515517 + s * (0.802853 + s * 0.010328)) / (1.0 + s * (1.432788 + s * (0.189269 + s * 0.001308))));
}

// Newton on F(x) = Phi(x) - p, with F evaluated without cancellation:
// lower tail p < 1/4: Phi(x) - p = erfc(-x/sqrt2)/2 - p; centre: erf(x/sqrt2)/2 - (p - 1/2).
double NewtonLowerOrCentre(double p) {
  const bool centre = p >= 0.25;
  const double q = p - 0.5;  // exact for p >= 1/4
  double x = centre ? (q < 0 ? Start(p) : -Start(1.0 - p)) : Start(p);
  for (int it = 0; it < 20; ++it) {
    const double f = centre ? 0.5 * std::erf(x * kInvSqrt2) - q : 0.5 * std::erfc(-x * kInvSqrt2) - p;
    const double dx = f / (kInvSqrt2Pi * std::exp(-0.5 * x * x));
    x -= dx;
    if (it >= 2 && std::fabs(dx) <= 0x1p-60 * std::fabs(x)) break;
  }
  return x;
}

}  // namespace

double ndtri(double p) {
  if (!(p >= 0.0 && p <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  if (p == 0.5) return 0.0;
  if (p > 0.75) return -NewtonLowerOrCentre(1.0 - p);  // 1 - p is exact for a float p > 1/2
  return NewtonLowerOrCentre(p);
}

double ndtri_mpfr(double p, int bits) {
  if (!(p > 0.0 && p < 1.0)) return ndtri(p);
  if (p == 0.5) return 0.0;
  const bool upper = p > 0.5;
  mpfr_t x, t, f, dens, tmp;
  mpfr_inits2(bits, x, t, f, dens, tmp, static_cast<mpfr_ptr>(nullptr));
  // t = min(p, 1 - p) exactly; solve Phi(x) = t for x < 0, then flip the sign if upper.
  mpfr_set_d(t, p, MPFR_RNDN);
  if (upper) mpfr_ui_sub(t, 1, t, MPFR_RNDN);
  mpfr_set_d(x, upper ? -ndtri(p) : ndtri(p), MPFR_RNDN);
  for (int it = 0; it < 8; ++it) {
    // f = erfc(-x / sqrt 2) / 2 - t
    mpfr_sqrt_ui(tmp, 2, MPFR_RNDN);
    mpfr_div(f, x, tmp, MPFR_RNDN);
    mpfr_neg(f, f, MPFR_RNDN);
    mpfr_erfc(f, f, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);
    mpfr_sub(f, f, t, MPFR_RNDN);
    // dens = exp(-x^2 / 2) / sqrt(2 pi)
    mpfr_sqr(dens, x, MPFR_RNDN);
    mpfr_div_2ui(dens, dens, 1, MPFR_RNDN);
    mpfr_neg(dens, dens, MPFR_RNDN);
    mpfr_exp(dens, dens, MPFR_RNDN);
    mpfr_const_pi(tmp, MPFR_RNDN);
    mpfr_mul_2ui(tmp, tmp, 1, MPFR_RNDN);
    mpfr_sqrt(tmp, tmp, MPFR_RNDN);
    mpfr_div(dens, dens, tmp, MPFR_RNDN);
    mpfr_div(f, f, dens, MPFR_RNDN);
    mpfr_sub(x, x, f, MPFR_RNDN);
  }
  if (upper) mpfr_neg(x, x, MPFR_RNDN);
  const double out = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clears(x, t, f, dens, tmp, static_cast<mpfr_ptr>(nullptr));
  return out;
}

double ulp_f32(double r) {
  r = std::fabs(r);
  if (r < 0x1p-126) return 0x1p-149;
  int e = 0;
  std::frexp(r, &e);  // r = m 2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 1 - 23);
}

double ulp_error_f32(float y, double r) {
  if (std::isnan(r)) return std::isnan(y) ? 0.0 : INFINITY;
  if (std::isinf(r)) return double(y) == r ? 0.0 : INFINITY;
  if (!std::isfinite(y)) return INFINITY;
  return std::fabs(double(y) - r) / ulp_f32(r);
}

}  // namespace accelmath::oracle
