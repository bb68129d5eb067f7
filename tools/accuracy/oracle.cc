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

double ulp_error_exact(const Oracle& o, double x, float y) { return ulp_error_exact(o, Args{{x, 0, 0, 0}}, y); }

double ulp_error_exact(const Oracle& o, double x1, double x2, float y) {
  return ulp_error_exact(o, Args{{x1, x2, 0, 0}}, y);
}

double ulp_error_exact(const Oracle& o, const Args& a, float y) {
  mpfr_t r;
  mpfr_init2(r, 128);
  o.exact_at(r, a);
  const double e = ulp_error_mpfr(r, y);
  mpfr_clear(r);
  return e;
}

double ulp_error_mpfr(mpfr_srcptr exact, float y) {
  mpfr_t r, d;
  mpfr_init2(r, mpfr_get_prec(exact));
  mpfr_init2(d, mpfr_get_prec(exact) + 64);
  mpfr_set(r, exact, MPFR_RNDN);
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

float round_to_f32(mpfr_srcptr r) { return mpfr_get_flt(r, MPFR_RNDN); }  // subnormals rounded once (MPFR 4)

float correctly_rounded_f32(const Oracle& o, const Args& a, mpfr_prec_t bits) {
  mpfr_t r;
  mpfr_init2(r, bits);
  o.exact_at(r, a);
  const float y = round_to_f32(r);
  mpfr_clear(r);
  return y;
}

void Oracle::reference_at(const Value* in, Value* out) const {
  const Reference& ref = reference;
  if (ref.unary) {
    out[0].f = ref.unary(in[0].f);
  } else if (ref.binary) {
    out[0].f = ref.binary(in[0].f, in[1].f);
  } else if (ref.to_int) {
    out[0].i = ref.to_int(in[0].f);
  } else if (ref.split) {
    int e = 0;
    out[0].f = ref.split(in[0].f, &e);
    out[1].i = e;
  } else if (ref.scale) {
    out[0].f = ref.scale(in[0].f, in[1].i);
  }
}

// ---- pow, roots and norms ------------------------------------------------------------------------

double rsqrt(double x) { return 1.0 / std::sqrt(x); }  // +-inf at +-0 (sqrt(-0) = -0), NaN below

void rsqrt_exact(mpfr_ptr out, double x) {
  if (x == 0) {
    mpfr_set_inf(out, std::signbit(x) ? -1 : 1);
    return;
  }
  Mpfr<mpfr_rec_sqrt>(out, x);
}

double rcbrt(double x) { return 1.0 / std::cbrt(x); }

namespace {

// 1 / v, v computed by f at out's precision + 64 bits: one correctly rounded division of a value
// within 2^-(p+63) relative of v, so within 2^-p of 1/v's own rounding.
template <class F>
void Reciprocal(mpfr_ptr out, F f) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(out) + 64);
  f(t);
  mpfr_ui_div(out, 1, t, MPFR_RNDN);
  mpfr_clear(t);
}

// Sum of squares of n values (floats, or doubles holding floats) in long double: each square is
// exact (48 bits), each sum rounded to 64 bits. *inf: some element is infinite.
template <class T>
long double SumOfSquares(const T* a, std::size_t n, bool* inf) {
  long double s = 0;
  *inf = false;
  for (std::size_t i = 0; i < n; ++i) {
    const long double v = a[i];
    *inf |= std::isinf(v);
    s += v * v;
  }
  return s;
}

template <class T>
double NormOf(const T* a, std::size_t n, bool reciprocal) {
  bool inf = false;
  const long double s = SumOfSquares(a, n, &inf);
  if (inf) return reciprocal ? 0.0 : INFINITY;  // an infinite element wins over a NaN
  const long double r = std::sqrt(s);               // NaN stays NaN
  return static_cast<double>(reciprocal ? 1.0L / r : r);
}

// The exact sum of squares: squares of floats are 48-bit numbers between 2^-298 and 2^256, so 1100
// bits hold any sum of up to 2^500 of them exactly.
template <class T>
void NormOfExact(mpfr_ptr out, const T* a, std::size_t n, bool reciprocal) {
  bool inf = false, nan = false;
  for (std::size_t i = 0; i < n; ++i) inf |= std::isinf(a[i]), nan |= std::isnan(a[i]);
  if (inf) {
    reciprocal ? mpfr_set_zero(out, 1) : mpfr_set_inf(out, 1);
    return;
  }
  if (nan) {
    mpfr_set_nan(out);
    return;
  }
  mpfr_t s, sq;
  mpfr_init2(s, 1100);
  mpfr_init2(sq, 64);
  mpfr_set_zero(s, 1);
  for (std::size_t i = 0; i < n; ++i) {
    mpfr_set_d(sq, static_cast<double>(a[i]), MPFR_RNDN);
    mpfr_sqr(sq, sq, MPFR_RNDN);  // exact: 48 bits
    mpfr_add(s, s, sq, MPFR_RNDN);  // exact
  }
  if (reciprocal) {
    mpfr_rec_sqrt(out, s, MPFR_RNDN);  // +inf at +0
  } else {
    mpfr_sqrt(out, s, MPFR_RNDN);
  }
  mpfr_clear(s);
  mpfr_clear(sq);
}

}  // namespace

void rcbrt_exact(mpfr_ptr out, double x) {  // 1 / cbrt: -inf at -0, -0 at -inf
  Reciprocal(out, [x](mpfr_ptr t) { Mpfr<mpfr_cbrt>(t, x); });
}

double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }  // hypot(inf, NaN) = inf: 0

void rhypot_exact(mpfr_ptr out, double x, double y) {
  Reciprocal(out, [x, y](mpfr_ptr t) { Mpfr2<mpfr_hypot>(t, x, y); });
}

double norm3d(double x, double y, double z) {
  const double a[] = {x, y, z};
  return NormOf(a, 3, false);
}
double rnorm3d(double x, double y, double z) {
  const double a[] = {x, y, z};
  return NormOf(a, 3, true);
}
void norm3d_exact(mpfr_ptr out, double x, double y, double z) {
  const double a[] = {x, y, z};
  NormOfExact(out, a, 3, false);
}
void rnorm3d_exact(mpfr_ptr out, double x, double y, double z) {
  const double a[] = {x, y, z};
  NormOfExact(out, a, 3, true);
}
double norm4d(double x, double y, double z, double w) {
  const double a[] = {x, y, z, w};
  return NormOf(a, 4, false);
}
double rnorm4d(double x, double y, double z, double w) {
  const double a[] = {x, y, z, w};
  return NormOf(a, 4, true);
}
void norm4d_exact(mpfr_ptr out, double x, double y, double z, double w) {
  const double a[] = {x, y, z, w};
  NormOfExact(out, a, 4, false);
}
void rnorm4d_exact(mpfr_ptr out, double x, double y, double z, double w) {
  const double a[] = {x, y, z, w};
  NormOfExact(out, a, 4, true);
}
double norm_row(const float* a, std::size_t n) { return NormOf(a, n, false); }
double rnorm_row(const float* a, std::size_t n) { return NormOf(a, n, true); }
void norm_row_exact(mpfr_ptr out, const float* a, std::size_t n) { NormOfExact(out, a, n, false); }
void rnorm_row_exact(mpfr_ptr out, const float* a, std::size_t n) { NormOfExact(out, a, n, true); }

// ---- the references of the exact functions ------------------------------------------------------

float fmin_ref(float x, float y) {
  if (std::isnan(x)) return std::isnan(y) ? std::numeric_limits<float>::quiet_NaN() : y;
  if (std::isnan(y)) return x;
  if (x < y) return x;
  if (y < x) return y;
  return std::signbit(x) ? x : y;  // equal: -0 and +0 give -0
}

float fmax_ref(float x, float y) {
  if (std::isnan(x)) return std::isnan(y) ? std::numeric_limits<float>::quiet_NaN() : y;
  if (std::isnan(y)) return x;
  if (x > y) return x;
  if (y > x) return y;
  return std::signbit(x) ? y : x;  // equal: -0 and +0 give +0
}

int isnan_ref(float x) { return std::isnan(x) ? 1 : 0; }
int isinf_ref(float x) { return std::isinf(x) ? 1 : 0; }
int isfinite_ref(float x) { return std::isfinite(x) ? 1 : 0; }

float logb_ref(float x) { return static_cast<float>(::logb(static_cast<double>(x))); }

int ilogb_ref(float x) {
  if (std::isnan(x) || x == 0) return std::numeric_limits<int>::min();
  if (std::isinf(x)) return std::numeric_limits<int>::max();
  return ::ilogbf(x);
}

float frexp_ref(float x, int* e) {
  if (!std::isfinite(x) || x == 0) {
    *e = 0;
    return x;
  }
  return ::frexpf(x, e);
}

namespace {
// (The parameters are not named like the members they initialise: a macro would replace those too.)
#define ACCELMATH_ORACLE(N, S, F, E) Oracle{.name = #N, .source = S, .fast = F, .exact = E},
#define ACCELMATH_ORACLE_PAIR(N, P1, P2) Oracle{.name = #N, .source = "= " #P1 ", " #P2 " bit for bit", .part1 = #P1, .part2 = #P2},
#define ACCELMATH_ORACLE2(N, S, F, E) Oracle{.name = #N, .source = S, .fast2 = F, .exact2 = E},
#define ACCELMATH_ORACLE3(N, S, F, E) Oracle{.name = #N, .source = S, .fast3 = F, .exact3 = E},
#define ACCELMATH_ORACLE4(N, S, F, E) Oracle{.name = #N, .source = S, .fast4 = F, .exact4 = E},
#define ACCELMATH_ORACLE_ROWS(N, S, F, E) Oracle{.name = #N, .source = S, .fast_row = F, .exact_row = E},
#define ACCELMATH_ORACLE_EXACT(N, S, R) Oracle{.name = #N, .source = S, .reference = MakeReference(R)},
const Oracle kOracles[] = {
#include "accuracy/oracles.def"
};
#undef ACCELMATH_ORACLE
#undef ACCELMATH_ORACLE_PAIR
#undef ACCELMATH_ORACLE2
#undef ACCELMATH_ORACLE3
#undef ACCELMATH_ORACLE4
#undef ACCELMATH_ORACLE_ROWS
#undef ACCELMATH_ORACLE_EXACT
}  // namespace

std::span<const Oracle> oracles() noexcept { return kOracles; }

const Oracle* find_oracle(std::string_view name) noexcept {
  for (const Oracle& o : kOracles) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

}  // namespace accelmath::oracle
