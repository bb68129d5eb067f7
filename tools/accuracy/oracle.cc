#include "accuracy/oracle.h"

#include <mpfr.h>

#include <algorithm>
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

void ndtri_exact(mpfr_ptr out, double p) {
  if (!(p > 0.0 && p < 1.0) || p == 0.5) {
    mpfr_set_d(out, ndtri(p), MPFR_RNDN);
    return;
  }
  constexpr int kBits = 200;
  const bool upper = p > 0.5;
  mpfr_t x, t, f, dens, tmp;
  mpfr_inits2(kBits, x, t, f, dens, tmp, static_cast<mpfr_ptr>(nullptr));
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
  mpfr_set(out, x, MPFR_RNDN);
  mpfr_clears(x, t, f, dens, tmp, static_cast<mpfr_ptr>(nullptr));
}

double ndtri_mpfr(double p) {
  mpfr_t r;
  mpfr_init2(r, 53);
  ndtri_exact(r, p);
  const double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  return out;
}

double ulp_f32(double r) {
  r = std::fabs(r);
  if (r < 0x1p-126) return 0x1p-149;
  if (r >= 0x1p127) return 0x1p104;
  int e = 0;
  std::frexp(r, &e);  // r = m 2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 1 - 23);
}

double ulp_error_f32(float y, double r) {
  if (std::isnan(r)) return std::isnan(y) ? 0.0 : INFINITY;
  if (std::isinf(r)) return double(y) == r ? 0.0 : INFINITY;
  if (std::isnan(y)) return INFINITY;
  if (std::isinf(y)) {  // the rounding overflowed: y stands for 2^128 with its sign
    if ((y > 0) != (r > 0)) return INFINITY;
    return std::fabs(r) >= 0x1p128 ? 0.0 : (0x1p128 - std::fabs(r)) / 0x1p104;
  }
  return std::fabs(double(y) - r) / ulp_f32(r);
}

double ulp_error_exact(const Oracle& o, double x, float y) { return ulp_error_exact(o, x, 0.0, y); }

double ulp_error_exact(const Oracle& o, double x1, double x2, float y) {
  mpfr_t r, d;
  mpfr_init2(r, 128);
  mpfr_init2(d, 192);
  o.exact_at(r, x1, x2);
  double e;
  if (mpfr_nan_p(r)) {
    e = std::isnan(y) ? 0.0 : INFINITY;
  } else if (mpfr_inf_p(r)) {
    e = double(y) == mpfr_get_d(r, MPFR_RNDN) ? 0.0 : INFINITY;
  } else if (std::isnan(y)) {
    e = INFINITY;
  } else {
    const bool r_neg = mpfr_sgn(r) < 0;
    mpfr_abs(r, r, MPFR_RNDN);
    // ulp: 2^(E - 24) for |r| = m 2^E, m in [1/2, 1); at least 2^-149; at most 2^104.
    const long E = mpfr_zero_p(r) ? -1000 : static_cast<long>(mpfr_get_exp(r));
    const long ulp_exp = std::min(104L, std::max(-149L, E - 24));
    if (std::isinf(y)) {
      if ((y < 0) != r_neg) {
        e = INFINITY;
      } else if (mpfr_cmp_ui_2exp(r, 1, 128) >= 0) {
        e = 0.0;
      } else {
        mpfr_set_ui_2exp(d, 1, 128, MPFR_RNDN);
        mpfr_sub(d, d, r, MPFR_RNDN);
        e = mpfr_get_d(d, MPFR_RNDN) * std::ldexp(1.0, -ulp_exp);
      }
    } else {
      mpfr_set_d(d, std::fabs(double(y)), MPFR_RNDN);
      if ((y < 0) != r_neg) mpfr_neg(d, d, MPFR_RNDN);  // d = y with r's sign folded out
      mpfr_sub(d, d, r, MPFR_RNDN);  // exact when y and r are close
      mpfr_abs(d, d, MPFR_RNDN);
      mpfr_mul_2si(d, d, -ulp_exp, MPFR_RNDN);
      e = mpfr_get_d(d, MPFR_RNDN);
    }
  }
  mpfr_clear(r);
  mpfr_clear(d);
  return e;
}

namespace {
#define ACCELMATH_ORACLE(name, source, fast, exact) Oracle{#name, source, fast, exact},
#define ACCELMATH_ORACLE_PAIR(name, part1, part2) \
  Oracle{#name, "= " #part1 ", " #part2 " bit for bit", nullptr, nullptr, #part1, #part2},
#define ACCELMATH_ORACLE2(name, source, fast, exact) Oracle{#name, source, nullptr, nullptr, nullptr, nullptr, fast, exact},
const Oracle kOracles[] = {
#include "accuracy/oracles.def"
};
#undef ACCELMATH_ORACLE
#undef ACCELMATH_ORACLE_PAIR
#undef ACCELMATH_ORACLE2
}  // namespace

std::span<const Oracle> oracles() noexcept { return kOracles; }

const Oracle* find_oracle(std::string_view name) noexcept {
  for (const Oracle& o : kOracles) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

}  // namespace accelmath::oracle
