#include "accuracy/atomic_reference.h"

#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace accelmath::atomic::reference {
namespace {

// IEEE-style binary format: precision p (with the hidden bit), exponent field width, bias.
struct Format {
  int p, ebits, bias;
};

Format FormatOf(Type t) {
  switch (t) {
    case Type::kFloat16: return {11, 5, 15};
    case Type::kBFloat16: return {8, 8, 127};
    default: return {24, 8, 127};
  }
}

int IntBits(Type t) {
  switch (t) {
    case Type::kInt8: return 8;
    case Type::kInt16: return 16;
    case Type::kInt32: return 32;
    default: return 64;
  }
}

bool IsFloating(Type t) { return t == Type::kFloat16 || t == Type::kBFloat16 || t == Type::kFloat32; }

[[noreturn]] void Fail() { std::abort(); }  // a value the caller promised is representable is not

// a + b rounded once to the format (nearest even), subnormals and overflow to inf included.
double MpfrAdd(const Format& f, double a, double b) {
  // One set of variables per thread and precision (initializing them per call dominated the time).
  struct Vars {
    mpfr_t x, y, r;
    explicit Vars(int p) { mpfr_inits2(p, x, y, r, static_cast<mpfr_ptr>(nullptr)); }
    ~Vars() { mpfr_clears(x, y, r, static_cast<mpfr_ptr>(nullptr)); }
  };
  thread_local Vars v11(11), v8(8), v24(24);
  Vars& v = f.p == 11 ? v11 : f.p == 8 ? v8 : v24;
  const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  // MPFR's exponent convention is x = m * 2^e with m in [1/2, 1): the largest finite value is just
  // below 2^(emax), the smallest subnormal 2^(1 - bias - (p-1)) = 1/2 * 2^(emin).
  mpfr_set_emax(mpfr_exp_t(1) << (f.ebits - 1));
  mpfr_set_emin(2 - f.bias - (f.p - 1));
  if (mpfr_set_d(v.x, a, MPFR_RNDN) != 0 || mpfr_set_d(v.y, b, MPFR_RNDN) != 0) Fail();
  int inex = mpfr_add(v.r, v.x, v.y, MPFR_RNDN);
  inex = mpfr_check_range(v.r, inex, MPFR_RNDN);
  mpfr_subnormalize(v.r, inex, MPFR_RNDN);
  const double out = mpfr_get_d(v.r, MPFR_RNDN);
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  return out;
}

}  // namespace

double Decode(Type type, std::uint64_t bits) {
  const Format f = FormatOf(type);
  const int total = 1 + f.ebits + f.p - 1;
  const std::uint64_t emask = (std::uint64_t(1) << f.ebits) - 1, fmask = (std::uint64_t(1) << (f.p - 1)) - 1;
  const bool neg = (bits >> (total - 1)) & 1;
  const std::uint64_t e = (bits >> (f.p - 1)) & emask, frac = bits & fmask;
  double v;
  if (e == emask) {
    v = frac ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    v = std::ldexp(double(frac), 1 - f.bias - (f.p - 1));
  } else {
    v = std::ldexp(double(frac + fmask + 1), int(e) - f.bias - (f.p - 1));
  }
  return neg ? -v : v;
}

std::uint64_t Encode(Type type, double v) {
  const Format f = FormatOf(type);
  const int total = 1 + f.ebits + f.p - 1;
  const std::uint64_t emask = (std::uint64_t(1) << f.ebits) - 1, hidden = std::uint64_t(1) << (f.p - 1);
  if (std::isnan(v)) return (emask << (f.p - 1)) | (hidden >> 1);  // canonical quiet NaN, sign 0
  const std::uint64_t sign = std::uint64_t(std::signbit(v)) << (total - 1);
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | (emask << (f.p - 1));
  if (a == 0) return sign;
  int e2;
  std::frexp(a, &e2);  // a = m * 2^e2, m in [1/2, 1): unbiased exponent e2 - 1
  const int min_exp = 1 - f.bias;
  if (e2 - 1 < min_exp) {  // subnormal: a multiple of 2^(min_exp - (p-1))
    const double m = std::ldexp(a, -(min_exp - (f.p - 1)));
    if (m != std::floor(m) || m >= double(hidden)) Fail();
    return sign | std::uint64_t(m);
  }
  const double m = std::ldexp(a, -(e2 - 1 - (f.p - 1)));  // in [2^(p-1), 2^p)
  const std::uint64_t biased = std::uint64_t(e2 - 1 + f.bias);
  if (m != std::floor(m) || biased >= emask) Fail();
  return sign | (biased << (f.p - 1)) | (std::uint64_t(m) - hidden);
}

std::uint64_t Apply(Type type, Op op, bool saturate, std::uint64_t a, std::uint64_t b) {
  if (!IsFloating(type)) {
    const int n = IntBits(type);
    const std::uint64_t mask = n == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1;
    auto value = [&](std::uint64_t bits) {  // sign-extend the low n bits
      bits &= mask;
      const __int128 v = bits;
      return (bits >> (n - 1)) & 1 ? v - (__int128(1) << n) : v;
    };
    const __int128 x = value(a), y = value(b);
    const __int128 lo = -(__int128(1) << (n - 1)), hi = (__int128(1) << (n - 1)) - 1;
    __int128 r;
    if (op == Op::kMax) r = x > y ? x : y;
    else if (op == Op::kMin) r = x < y ? x : y;
    else if (saturate) r = x + y < lo ? lo : x + y > hi ? hi : x + y;
    else r = x + y;  // wrap: keep the low n bits below
    return std::uint64_t(r) & mask;
  }
  const double x = Decode(type, a), y = Decode(type, b);
  double r;
  if (op == Op::kAdd) {
    r = MpfrAdd(FormatOf(type), x, y);
  } else if (std::isnan(x) || std::isnan(y)) {
    r = std::numeric_limits<double>::quiet_NaN();  // NaN propagates (IEEE 754-2019 maximum/minimum)
  } else if (x == y) {
    // Equal values differ only as +0 / -0, ordered -0 < +0: max takes the positive, min the negative.
    const bool want_negative = op == Op::kMin;
    r = std::signbit(x) == want_negative ? x : y;
  } else {
    r = (op == Op::kMax) == (x > y) ? x : y;
  }
  if (saturate && type != Type::kFloat32) {  // float32 is always IEEE
    const Format f = FormatOf(type);
    const double max = std::ldexp(2.0 - std::ldexp(1.0, 1 - f.p), (1 << (f.ebits - 1)) - 1);
    if (std::isnan(r)) r = 0.0;
    else if (std::isinf(r)) r = r > 0 ? max : -max;
  }
  return Encode(type, r);
}

}  // namespace accelmath::atomic::reference
