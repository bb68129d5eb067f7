#!/usr/bin/env python3
"""Regenerates src/kernels/bessel_coeffs.h, every constant the modified Bessel kernels use
(cyl_bessel_i0, cyl_bessel_i1).

    python3 tools/coeffs/bessel.py > src/kernels/bessel_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
Both kernels run in binary64 lanes on a = |x|, in two regions split at a = T (kBesselSmallMax):

  kI0Small   I0(a) = 1 + y P(y), y = a^2/4 in [0, T^2/4]: the power series sum y^k/(k!)^2 has
  kI1Small   only positive terms; P is the Chebyshev interpolant of (I0 - 1)/y (fewer terms than
             the truncated series; the leading 1 stays exact, so I0(tiny) = 1). I1(a) = h + h y Q(y),
             h = a/2, Q the interpolant of (I1(2 sqrt y)/sqrt y - 1)/y (sum y^k/(k! (k+1)!) = 1 + y Q).
  kI0Large   I0(a) = e^a G(t)/sqrt(a), t = 1/a in (0, 1/T]: G(t) = sqrt(a) e^(-a) I0(a) is smooth on
  kI1Large   [0, 1/T] and tends to 1/sqrt(2 pi) (its asymptotic series 1 + t/8 + 9 t^2/128 + ...
             diverges, but the interpolant converges on the interval); the same for I1.

Each polynomial's relative error (coefficients rounded to binary64, evaluated exactly) is measured
on a dense grid of its interval, printed in the header and asserted below 2^-35: with the other
rounding errors of the kernel (ExpFinite64's 2^-44.5, a few 2^-53) the value before the final
rounding to float32 is within about 2^-11 float32 ulp of the exact one.
"""
import mpmath as mp
from polyfit import chebfit, hexd, horner, preamble

mp.mp.dps = 40

K_MAX_REL = mp.mpf(2) ** -35
T = 8  # the split between the regions; at a = 8 both fits are accurate
Y_MAX = mp.mpf(T) ** 2 / 4
T_MAX = 1 / mp.mpf(T)
N_SMALL = 13  # coefficients of kI0Small, kI1Small
N_LARGE = 12  # coefficients of kI0Large, kI1Large


def i0_small(y):
    return mp.besseli(0, 2 * mp.sqrt(y))


def i1_small(y):
    return mp.besseli(1, 2 * mp.sqrt(y)) / mp.sqrt(y) if y > 0 else mp.mpf(1)


def tail(fn, c0):
    """(fn(y) - c0)/y, its limit fn'(0) at y = 0 (by a Taylor series of fn)."""
    def g(y):
        if y == 0:
            return mp.taylor(fn, 0, 1)[1]
        return (fn(y) - c0) / y
    return g


def large(nu):
    def g(t):
        if t == 0:
            return 1 / mp.sqrt(2 * mp.pi)
        a = 1 / t
        return mp.sqrt(a) * mp.exp(-a) * mp.besseli(nu, a)
    return g


def max_rel(approx, fn, hi, npts=1500):
    worst = mp.mpf(0)
    for i in range(npts + 1):
        z = hi * mp.mpf(i) / npts
        worst = max(worst, abs(approx(z) / fn(z) - 1))
    return worst


def table(name, c, err, what):
    out = [f"// {name}: {what}; degree {len(c) - 1}, max relative error {mp.nstr(err, 3)} (2^{mp.nstr(mp.log(err, 2), 4)}).",
           f"ACCELMATH_COEFFS std::array<double, {len(c)}> {name}() {{",
           "  return {" + ", ".join(hexd(v) for v in c) + "};",
           "}", ""]
    return out


def main():
    lines = preamble("tools/coeffs/bessel.py", "src/kernels/bessel_coeffs.h")
    lines += [f"// a <= kBesselSmallMax: the power-series region; above it, the exponential region.",
              f"inline constexpr double kBesselSmallMax = {hexd(T)};",
              "// Above this, I0 and I1 overflow float32 (I0(91.9) ~ 3.4e38): a is clamped to it so that",
              "// e^a stays finite in binary64 and the result rounds to +inf.",
              "inline constexpr double kBesselClamp = 0x1.9p+6;  // 100",
              ""]
    for name, fn, hi, n, small, what in [
            ("kI0Small", i0_small, Y_MAX, N_SMALL, True, "I0(a) = 1 + y P(y), y = a^2/4, a <= 8"),
            ("kI1Small", i1_small, Y_MAX, N_SMALL, True, "I1(a) = (a/2) (1 + y P(y)), y = a^2/4, a <= 8"),
            ("kI0Large", large(0), T_MAX, N_LARGE, False, "I0(a) = e^a P(1/a)/sqrt(a), a > 8"),
            ("kI1Large", large(1), T_MAX, N_LARGE, False, "I1(a) = e^a P(1/a)/sqrt(a), a > 8")]:
        if small:
            c = chebfit(tail(fn, 1), 0, hi, n)
            err = max_rel(lambda y: 1 + y * horner(c, y), fn, hi)
        else:
            c = chebfit(fn, 0, hi, n)
            err = max_rel(lambda t: horner(c, t), fn, hi)
        assert err < K_MAX_REL, (name, err)
        lines += table(name, c, err, what)
    lines += ["}  // namespace accelmath::coeffs", ""]
    print("\n".join(lines), end="")


if __name__ == "__main__":
    main()
