#!/usr/bin/env python3
"""Regenerates src/kernels/gamma_coeffs.h, every constant the tgamma and lgamma kernels use.

    python3 tools/coeffs/gamma.py > src/kernels/gamma_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
Both kernels run in binary64 lanes (src/kernels/gamma-inl.h has the formulas and the error budget).
Each polynomial is the Chebyshev interpolant (mpmath chebyfit) of a smooth function, its
coefficients rounded to binary64; the error printed for each (and asserted) is the relative error of
the whole function it builds, with the coefficients as rounded, evaluated exactly on a dense grid.

  kGammaStirlingPoly  lgamma(w) = (w - 1/2) ln w - w + ln(2 pi)/2 + t P(t^2), t = 1/w, w >= 8
                      (every argument is shifted there first).
  kGammaAtanhPoly     ln m = 2 s + s z P(z), s = (m - 1)/(m + 1), z = s^2, m in [sqrt(1/2), sqrt 2)
                      (LogOfNormal, src/kernels/log-inl.h, with this longer table).
  (ln 2, log2 e, the rounding shift 1.5 2^52 and e^x, ExpFinite64, are the exp/log family's:
  tools/coeffs/exp_log.py.)
  kGammaSinPiPoly     sin(pi r) = r P(r^2), |r| <= 1/2: the reflection formula's sin(pi x), x = n + r.
  kLgammaNear1Poly    lgamma(1 + t) = t P(t), |t| <= kLgammaNearRadius: the zero of lgamma at 1.
  kLgammaNear2Poly    lgamma(2 + t) = t P(t), |t| <= kLgammaNearRadius: the zero at 2.
  kLgammaZero*        the 16 zeros x0 of lgamma in (-10, -2) (two in each (-n-1, -n), n = 2..9):
                      x0 = hi + lo (double-double), the Taylor polynomial of lgamma around x0,
                      lgamma(x0 + t) = t (c1 + c2 t + ... + c6 t^5), c_k = psi^(k-1)(x0)/k!, and the
                      radius r of the window |t| <= r where it is used (|psi(x0)| r = 2^-8).
                      Beyond -10 every zero lies closer to its pole than one ulp of the floats
                      there (checked below), so no float comes near a zero there: the nearest floats
                      have |lgamma| >= 1.2.
The script also checks the facts the kernels' comments quote: tgamma's overflow threshold and
where its negative results underflow to zero, lgamma's overflow threshold, and that the clamp of
tgamma's argument at 64 is harmless.
"""
import struct

import mpmath as mp
from polyfit import chebfit, hexd, horner, preamble

mp.mp.dps = 60

MARGIN = 1 + mp.mpf(2) ** -10
SHIFT = 8                     # every argument below SHIFT is shifted by SHIFT (Stirling for w >= 8)
CLAMP = 64                    # tgamma evaluates Gamma(min(z, CLAMP))
NEAR_RADIUS = mp.mpf(2) ** -6  # the windows around 1 and 2
ZERO_WINDOW = mp.mpf(2) ** -8  # |psi(x0)| r: |lgamma| <= about 2^-8 in the windows around the negative zeros
TRIGGER = mp.mpf(2) ** -5     # a vector with |lgamma| below this in some lane takes the zero windows' path
ZERO_TERMS = 7


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def f32_bits(x):
    return struct.unpack("I", struct.pack("f", f32(x)))[0]


def from_bits(b):
    return struct.unpack("f", struct.pack("I", b))[0]


def hexf(x):
    return float(x).hex().replace("0000000p", "p").replace("000000p", "p") + "f"


def max_rel(approx, exact, lo, hi, npts=3000):
    worst = mp.mpf(0)
    for i in range(npts + 1):
        x = lo + (hi - lo) * mp.mpf(i) / npts
        e = exact(x)
        if e == 0:
            continue
        worst = max(worst, abs(approx(x) / e - 1))
    return worst


def stirling_poly(n):
    """t P(t^2) = lgamma(w) - ((w - 1/2) ln w - w + ln(2 pi)/2), t = 1/w, w >= SHIFT."""
    umax = mp.mpf(1) / SHIFT ** 2

    def corr(w):
        return mp.loggamma(w) - ((w - mp.mpf(1) / 2) * mp.log(w) - w + mp.log(2 * mp.pi) / 2)

    def g(u):
        if u == 0:
            return mp.mpf(1) / 12
        w = 1 / mp.sqrt(u)
        return corr(w) * w
    c = chebfit(g, 0, umax, n)
    # error relative to the correction (which is at most 1/(12 w)), on a grid in t = 1/w
    err = max_rel(lambda t: t * horner(c, t * t), lambda t: corr(1 / t), mp.mpf(1) / 10 ** 6, mp.mpf(1) / SHIFT)
    return c, err


def atanh_poly(n):
    zmax = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) * MARGIN) ** 2

    def g(z):
        if z == 0:
            return mp.mpf(2) / 3
        s = mp.sqrt(z)
        return (2 * mp.atanh(s) - 2 * s) / (s * z)

    def approx(z):
        s = mp.sqrt(z)
        return 2 * s + s * z * horner(c, z)
    c = chebfit(g, 0, zmax, n)
    err = max(max_rel(approx, lambda z: 2 * mp.atanh(mp.sqrt(z)), zmax / 10 ** 6, zmax),
              max_rel(approx, lambda z: 2 * mp.atanh(mp.sqrt(z)), zmax / 10 ** 12, zmax / 1000))
    return c, err


def sinpi_poly(n):
    def g(u):
        if u == 0:
            return mp.pi
        r = mp.sqrt(u)
        return mp.sinpi(r) / r
    c = chebfit(g, 0, mp.mpf(1) / 4, n)
    err = max_rel(lambda r: r * horner(c, r * r), mp.sinpi, mp.mpf(1) / 10 ** 9, mp.mpf(1) / 2)
    return c, err


def near_poly(a, n):
    """lgamma(a + t) = t P(t), |t| <= NEAR_RADIUS (a = 1 or 2)."""
    def g(t):
        if t == 0:
            return mp.digamma(a)
        return mp.loggamma(a + t) / t
    c = chebfit(g, -NEAR_RADIUS, NEAR_RADIUS, n)
    err = max(max_rel(lambda t: t * horner(c, t), lambda t: mp.loggamma(a + t), -NEAR_RADIUS, NEAR_RADIUS),
              max_rel(lambda t: t * horner(c, t), lambda t: mp.loggamma(a + t), -NEAR_RADIUS / 1000,
                      NEAR_RADIUS / 1000))
    return c, err


def log_abs_gamma(x):
    return mp.log(abs(mp.gamma(x)))


def negative_zero(n, side):
    """The zero of ln|Gamma| in (-n-1, -n) next to -n (side 0) or next to -n-1 (side 1)."""
    xm = mp.findroot(mp.digamma, -n - mp.mpf(1) / 2)  # the minimum of |Gamma| on (-n-1, -n)
    tiny = mp.mpf(10) ** -40
    bracket = (-n - tiny, xm) if side == 0 else (xm, -n - 1 + tiny)
    return mp.findroot(log_abs_gamma, bracket, solver="illinois")


def zero_tables():
    rows = []
    worst = mp.mpf(0)
    for n in range(2, 10):
        for side in (0, 1):
            x0 = negative_zero(n, side)
            hi = float(x0)
            lo = float(x0 - mp.mpf(hi))
            psi = mp.digamma(x0)
            c = [float(mp.polygamma(k - 1, x0) / mp.factorial(k)) for k in range(1, ZERO_TERMS + 1)]
            r = float(ZERO_WINDOW / abs(psi))
            pole = -n if side == 0 else -n - 1
            assert r < abs(x0 - pole) / 64, (n, side)  # the window stays far from the pole
            x0d = mp.mpf(hi) + mp.mpf(lo)
            # the Taylor polynomial (coefficients as rounded) on the window, relative to lgamma
            err = max_rel(lambda t: t * horner(c, t), lambda t: log_abs_gamma(x0d + t), -mp.mpf(r), mp.mpf(r), 401)
            # lgamma in the window stays below TRIGGER (the kernel's whole-vector test finds every such lane)
            edge = max(abs(log_abs_gamma(x0d + r)), abs(log_abs_gamma(x0d - r)))
            assert edge < TRIGGER / 4, (n, side, edge)
            worst = max(worst, err)
            rows.append((n, side, x0, hi, lo, c, r))
    # Beyond -10 no float resolves a zero: the zeros of (-n-1, -n) lie within less than one ulp of
    # their poles (ulp 2^-19 .. for 10 < |x| < 2^23), checked for n = 10 .. 40 (they approach the
    # poles as 1/n!), and the floats next to the poles have |lgamma| >= 1.2.
    for n in range(10, 41):
        ulp = mp.mpf(2) ** (int(mp.floor(mp.log(n, 2))) - 23)
        assert 1 / mp.factorial(n) < ulp / 2
        for pole in (-n, -n - 1):
            for k in (1, -1):
                x = mp.mpf(pole) + k * mp.mpf(2) ** (int(mp.floor(mp.log(abs(pole) - (k < 0), 2))) - 23)
                if -n - 1 < x < -n:
                    assert abs(log_abs_gamma(x)) > 1.2, (n, x)
    return rows, worst


def facts():
    """Thresholds quoted by the kernels' comments, checked here (no kernel constant depends on them)."""
    big = mp.mpf(2) ** 128 - mp.mpf(2) ** 103  # float32 results at or above this round to +inf
    # tgamma overflow: the last finite input
    last = from_bits(f32_bits(35.0400963))
    assert mp.gamma(last) < big and mp.gamma(from_bits(f32_bits(last) + 1)) >= big
    # lgamma overflow
    x = f32(mp.findroot(lambda t: mp.loggamma(t) - big, mp.mpf("4.085e36")))
    b = f32_bits(x)
    while mp.loggamma(from_bits(b)) >= big:
        b -= 1
    while mp.loggamma(from_bits(b + 1)) < big:
        b += 1
    lg_last = from_bits(b)
    # tgamma of negative x: the largest |Gamma| on (-n-1, -n) is next to a pole; find the last n with a
    # float result that does not round to zero (|Gamma| > 2^-150)
    tiny = mp.mpf(2) ** -150
    last_n = None
    for n in range(30, 60):
        best = mp.mpf(0)
        for pole in (-n, -n - 1):
            ulp = mp.mpf(2) ** (int(mp.floor(mp.log(abs(pole) - 0.5, 2))) - 23)
            xx = pole + ulp if pole == -n - 1 else pole - ulp
            best = max(best, abs(mp.gamma(xx)))
        if best > tiny:
            last_n = n
    # the most negative float with a nonzero result
    lo_x = None
    for pole in (-last_n - 1, -last_n):
        for k in range(1, 200):
            ulp = mp.mpf(2) ** (int(mp.floor(mp.log(abs(pole) - 0.5, 2))) - 23)
            xx = pole + k * ulp if pole == -last_n - 1 else pole - k * ulp
            if abs(mp.gamma(xx)) > tiny and (lo_x is None or xx < lo_x):
                lo_x = xx
    # the clamp: for x < -(CLAMP - 1) the true result and the clamped one both round to zero:
    # |Gamma(x)| <= pi / (|sin(pi x)| Gamma(CLAMP)) with |sin(pi x)| >= sin(pi 2^-17) there
    assert mp.pi / (mp.sinpi(mp.mpf(2) ** -17) * mp.gamma(CLAMP)) < tiny
    assert -last_n - 1 > -(CLAMP - 1)
    assert mp.gamma(CLAMP) > big
    return last, lg_last, last_n, lo_x


def emit(name, what, coeffs, err, bound_log2):
    assert err < mp.mpf(2) ** bound_log2, (name, float(mp.log(err, 2)))
    print(f"// {what}; degree {len(coeffs) - 1}.")
    print(f"// Max relative error: {float(err):.3g} (2^{float(mp.log(err, 2)):.2f}).")
    print(f"ACCELMATH_COEFFS std::array<double, {len(coeffs)}> {name}() {{")
    body = ",\n".join(f"      {hexd(c)}" for c in coeffs)
    print("  return {{\n" + body + "}};")
    print("}\n")


def emit_table(name, what, values):
    print(f"// {what}")
    print(f"ACCELMATH_COEFFS std::array<double, {len(values)}> {name}() {{")
    lines = []
    for i in range(0, len(values), 4):
        lines.append("      " + ", ".join(hexd(v) for v in values[i:i + 4]))
    print("  return {{\n" + ",\n".join(lines) + "}};")
    print("}\n")


def main():
    print("\n".join(preamble("tools/coeffs/gamma.py", "src/kernels/gamma_coeffs.h")))
    last, lg_last, last_n, lo_x = facts()
    print("// ---- shared: the shift, Stirling's series, ln, sin(pi x) ----")
    print(f"// Thresholds (checked by the script, quoted by the kernels' comments; no constant below depends on")
    print(f"// them): tgamma's last finite input {hexf(last)} ({last!r}); tgamma of negative x rounds to +-0")
    print(f"// below {float(lo_x)!r} (the last nonzero results lie next to the poles -{last_n} and -{last_n + 1});")
    print(f"// lgamma's last finite input {hexf(lg_last)} ({lg_last!r}).")
    print("// Arguments z below kGammaShift are shifted: Gamma(z) = Gamma(z + 8) / (z (z + 1) ... (z + 7)).")
    print(f"inline constexpr double kGammaShift = {SHIFT}.0;")
    print("// tgamma evaluates Gamma(min(z, kTgammaClamp)): Gamma(64) > 2^128 (positive x >= 64 overflow either")
    print("// way), and for x < -63 pi / (|sin(pi x)| Gamma(64)) < 2^-150 (|sin(pi x)| >= sin(pi 2^-17) there):")
    print("// both the clamped and the true result round to a zero of the sign of sin(pi x).")
    print(f"inline constexpr double kTgammaClamp = {CLAMP}.0;")
    print("// ln(2 pi)/2 and pi, rounded to binary64.")
    print(f"inline constexpr double kGammaHalfLn2Pi = {hexd(mp.log(2 * mp.pi) / 2)};")
    print(f"inline constexpr double kGammaPi = {hexd(mp.pi)};")
    c, e = stirling_poly(7)
    emit("kGammaStirlingPoly", "lgamma(w) - ((w - 1/2) ln w - w + ln(2 pi)/2) = t P(t^2), t = 1/w in (0, 1/8] "
         "(error relative to that correction)", c, e, -53)
    c, e = atanh_poly(8)
    emit("kGammaAtanhPoly", "ln m = 2 s + s z P(z), s = (m - 1)/(m + 1), z = s^2 in [0, ((sqrt2 - 1)/(sqrt2 + 1))^2 "
         "(1 + 2^-10)]", c, e, -56)
    c, e = sinpi_poly(9)
    emit("kGammaSinPiPoly", "sin(pi r) = r P(r^2), |r| <= 1/2", c, e, -54)

    print("// ---- lgamma near its zeros ----")
    print("// The windows |x - 1| <= kLgammaNearRadius, |x - 2| <= kLgammaNearRadius, and the whole-vector test:")
    print("// a vector takes the zero windows' path when some lane's general result is below kLgammaTrigger in")
    print("// magnitude (every lane inside a window is: |lgamma| <= 0.0096 there).")
    print(f"inline constexpr double kLgammaNearRadius = {hexd(NEAR_RADIUS)};")
    print(f"inline constexpr double kLgammaTrigger = {hexd(TRIGGER)};")
    c, e = near_poly(1, 10)
    emit("kLgammaNear1Poly", "lgamma(1 + t) = t P(t), |t| <= 2^-6", c, e, -56)
    c, e = near_poly(2, 10)
    emit("kLgammaNear2Poly", "lgamma(2 + t) = t P(t), |t| <= 2^-6", c, e, -56)
    rows, err = zero_tables()
    assert err < mp.mpf(2) ** -46, float(mp.log(err, 2))
    print("// The zeros of lgamma in (-10, -2): entry i = 2 (n - 2) + side is the zero in (-n-1, -n) next to -n")
    print("// (side 0) or next to -n-1 (side 1):")
    for n, side, x0, hi, lo, c, r in rows:
        print(f"//   {2 * (n - 2) + side:2d}: x0 = {mp.nstr(x0, 25)}, psi(x0) = {mp.nstr(mp.digamma(x0), 8)}")
    print(f"// Taylor polynomials lgamma(x0 + t) = t (c1 + c2 t + ... + c{ZERO_TERMS} t^{ZERO_TERMS - 1}), used for |t| <= r")
    print(f"// (|psi(x0)| r = 2^-8); max relative error on the windows {float(err):.3g} (2^{float(mp.log(err, 2)):.2f}).")
    emit_table("kLgammaZeroHi", "x0 = hi + lo: hi = x0 rounded to binary64.", [row[3] for row in rows])
    emit_table("kLgammaZeroLo", "lo = x0 - hi rounded to binary64.", [row[4] for row in rows])
    emit_table("kLgammaZeroRadius", "r, the window's radius.", [row[6] for row in rows])
    flat = []
    for k in range(ZERO_TERMS):
        flat.extend(row[5][k] for row in rows)
    emit_table("kLgammaZeroTaylor", f"c_k = psi^(k-1)(x0)/k! at entry 16 (k - 1) + i, k = 1 .. {ZERO_TERMS}.", flat)
    print(f"inline constexpr int kLgammaZeroTerms = {ZERO_TERMS};")
    print("\n}  // namespace accelmath::coeffs")


if __name__ == "__main__":
    main()
