#!/usr/bin/env python3
"""Regenerates src/kernels/pow_roots_coeffs.h, every constant the pow and cube-root kernels use.

    python3 tools/coeffs/pow_roots.py > src/kernels/pow_roots_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
Both kernels run in binary64 lanes. Each polynomial is the Chebyshev interpolant (mpmath chebyfit)
of a smooth function, its coefficients rounded to binary64; the error that matters (the relative
error of the whole function it builds) is measured on a dense grid of its interval with the
coefficients as rounded and evaluated exactly, printed in the header and asserted below the bound
each kernel's error budget needs (src/kernels/pow_roots-inl.h).

  kPowAtanhPoly  atanh(s) = s + s z P(z), z = s^2 <= ((sqrt2 - 1)/(sqrt2 + 1))^2 (1 + 2^-10): the
                 logarithm of pow, log(m) = 2 atanh((m - 1)/(m + 1)), m in [sqrt(1/2), sqrt 2).
                 pow's |y log2 x| reaches 151 before the result underflows, so log2 x needs about
                 2^-46 relative: asserted below 2^-47.
  kPowExp2Poly   2^r = 1 + r P(r), |r| <= 1/2 (1 + 2^-10): pow's 2^t = 2^k 2^r, k = round(t);
                 asserted below 2^-47.
  kCbrtInitPoly  m^(-1/3) ~ P(m), m in [1, 2], float32 coefficients (cbrt and rcbrt run in float32
                 lanes): the first guess of the inverse cube root, refined by two Newton steps
                 z' = z + z (1 - w z^3)/3, each of which squares the relative error and doubles it
                 (e' = -2 e^2). Measured with the coefficients as rounded to float32; asserted below
                 2^-14, so the first (float32) step is limited by float32 rounding (2^-23) and the
                 second (exact residual) reaches about 2^-44.
  kCbrtInvCbrt2/4  2^(-1/3), 2^(-2/3) in float32: w^(-1/3) = 2^(-r/3) m^(-1/3) for w = 2^r m.
"""
import struct

import mpmath as mp
from polyfit import chebfit, hexd, horner, preamble

mp.mp.dps = 50

MARGIN = 1 + mp.mpf(2) ** -10
S_LOG = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
R_EXP2 = mp.mpf(1) / 2


def max_rel(approx, exact, lo, hi, npts=4000):
    worst = mp.mpf(0)
    for i in range(npts + 1):
        x = lo + (hi - lo) * mp.mpf(i) / npts
        if x == 0:
            continue
        worst = max(worst, abs(approx(x) / exact(x) - 1))
    return worst


def atanh_poly(n):
    zmax = (S_LOG * MARGIN) ** 2

    def g(z):
        if z == 0:
            return mp.mpf(1) / 3
        t = mp.sqrt(z)
        return (mp.atanh(t) / t - 1) / z
    c = chebfit(g, 0, zmax, n)
    # the error near z = 0 matters as much as anywhere: measure on a grid denser there, too
    err = max(max_rel(lambda z: mp.sqrt(z) * (1 + z * horner(c, z)), lambda z: mp.atanh(mp.sqrt(z)), 0, zmax),
              max_rel(lambda z: mp.sqrt(z) * (1 + z * horner(c, z)), lambda z: mp.atanh(mp.sqrt(z)), 0, zmax / 1000))
    return c, err


def exp2_poly(n):
    r = R_EXP2 * MARGIN

    def g(x):
        if x == 0:
            return mp.log(2)
        return (mp.power(2, x) - 1) / x
    c = chebfit(g, -r, r, n)
    err = max_rel(lambda x: 1 + x * horner(c, x), lambda x: mp.power(2, x), -r, r)
    return c, err


def to_f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def hexf(x):
    return float(x).hex().replace("0000000p", "p").replace("000000p", "p") + "f"


def cbrt_init_poly(n):
    c = [to_f32(v) for v in chebfit(lambda m: mp.power(m, mp.mpf(-1) / 3), 1, 2, n)]
    err = max_rel(lambda m: horner(c, m), lambda m: mp.power(m, mp.mpf(-1) / 3), 1, 2)
    return c, err


def emit(name, what, coeffs, err, bound_log2, ctype="double"):
    assert err < mp.mpf(2) ** bound_log2, (name, float(mp.log(err, 2)))
    print(f"// {what}; degree {len(coeffs) - 1}.")
    print(f"// Max relative error of the function: {float(err):.3g} (2^{float(mp.log(err, 2)):.2f}).")
    print(f"ACCELMATH_COEFFS std::array<{ctype}, {len(coeffs)}> {name}() {{")
    body = ",\n".join(f"      {hexd(c) if ctype == 'double' else hexf(c)}" for c in coeffs)
    print("  return {{\n" + body + "}};")
    print("}\n")


def main():
    print("\n".join(preamble("tools/coeffs/pow_roots.py", "src/kernels/pow_roots_coeffs.h")))
    c, e = atanh_poly(6)
    emit("kPowAtanhPoly", "atanh(s) = s + s z P(z), z = s^2 in [0, ((sqrt2 - 1)/(sqrt2 + 1))^2 (1 + 2^-10)]", c, e, -47)
    c, e = exp2_poly(10)
    emit("kPowExp2Poly", "2^r = 1 + r P(r), |r| <= 1/2 (1 + 2^-10)", c, e, -47)
    c, e = cbrt_init_poly(6)
    emit("kCbrtInitPoly", "m^(-1/3) ~ P(m), m in [1, 2] (first guess, refined by two Newton steps)", c, e, -14, "float")
    print("// 2/ln 2 (log2(m) = 2 atanh(s) / ln 2) rounded to binary64; 2^(-1/3), 2^(-2/3) rounded to float32.")
    print(f"inline constexpr double kPowTwoOverLn2 = {hexd(2 / mp.log(2))};")
    print(f"inline constexpr float kCbrtInvCbrt2 = {hexf(to_f32(mp.power(2, mp.mpf(-1) / 3)))};")
    print(f"inline constexpr float kCbrtInvCbrt4 = {hexf(to_f32(mp.power(2, mp.mpf(-2) / 3)))};")
    print("\n}  // namespace accelmath::coeffs")


if __name__ == "__main__":
    main()
