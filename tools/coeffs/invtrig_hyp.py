#!/usr/bin/env python3
"""Regenerates src/kernels/invtrig_hyp_coeffs.h, every constant the inverse trig and hyperbolic
kernels use (asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh).

    python3 tools/coeffs/invtrig_hyp.py > src/kernels/invtrig_hyp_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
All kernels run in binary64 lanes; each polynomial is the Chebyshev interpolant (mpmath chebyfit)
of a smooth function of z = t^2, its coefficients rounded to binary64, and the error that matters
(the relative error of the whole odd or even function it builds) is measured on a dense grid of its
interval, with the coefficients as rounded and evaluated exactly, printed in the header and
asserted below 2^-35: with the other rounding errors of a kernel (a few 2^-53) the value
before the final rounding to float32 is then within about 2^-11 float32 ulp of the exact one.

  kAtanPoly   atan(t) = t + t z P(z), z = t^2 <= tan(pi/8)^2 (1 + 2^-10): the reduced argument of
              atan and atan2 (t = a, (a - b)/(a + b) or -b/a).
  kAsinPoly   asin(s) = s + s z P(z), z = s^2 <= 1/4 (1 + 2^-10): |x| <= 1/2 (s = |x|) and, for
              1/2 < |x| <= 1, s = sqrt((1 - |x|)/2) (asin = pi/2 - 2 asin(s), acos = 2 asin(s), ...).
  kAtanhPoly  atanh(s) = s + s z P(z), z = s^2 <= ((sqrt2 - 1)/(sqrt2 + 1))^2 (1 + 2^-10): the
              logarithm log(2^e m) = e ln2 + 2 atanh((m - 1)/(m + 1)), m in [sqrt(1/2), sqrt 2),
              and atanh(a) itself for a <= kAtanhDirectMax.
  kCoshPoly   cosh(r) = 1 + z P(z) and
  kSinhPoly   sinh(r) = r + r z P(z), z = r^2, |r| <= ln(2)/2 (1 + 2^-10): e^(+-r) = cosh(r) +- sinh(r)
              for sinh, cosh, tanh after x = k ln2 + r.
"""
import mpmath as mp
from polyfit import chebfit, hexd, horner, preamble

mp.mp.dps = 50

K_MAX_REL = mp.mpf(2) ** -35
MARGIN = 1 + mp.mpf(2) ** -10
T_ATAN = mp.tan(mp.pi / 8)
S_LOG = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
R_EXP = mp.log(2) / 2


def max_rel(approx, exact, zmax, npts=3000):
    """max |approx(z)/exact(z) - 1| over a grid of (0, zmax] (denser near 0, where relative errors
    are measured against the smallest values)."""
    worst = mp.mpf(0)
    for i in range(1, npts + 1):
        z = zmax * (mp.mpf(i) / npts) ** 2
        worst = max(worst, abs(approx(z) / exact(z) - 1))
    return worst


def odd_fit(fn, zmax, n):
    """fn odd (fn(t) = t + O(t^3)): P with fn(t) = t + t z P(z), z = t^2."""
    def g(z):
        if z == 0:
            return taylor3(fn)
        t = mp.sqrt(z)
        return (fn(t) / t - 1) / z
    c = chebfit(g, 0, zmax, n)
    err = max_rel(lambda z: mp.sqrt(z) * (1 + z * horner(c, z)), lambda z: fn(mp.sqrt(z)), zmax)
    return c, err


def taylor3(fn):
    """The coefficient of t^3 of an odd function with fn'(0) = 1 (the limit of (fn(t)/t - 1)/t^2)."""
    return mp.taylor(fn, 0, 3)[3]


POLYS = [
    # name, function, zmax, coefficients, kind, comment
    ("kAtanPoly", mp.atan, (T_ATAN ** 2) * MARGIN, 7, "odd",
     "atan(t) = t + t z P(z), z = t^2 in [0, tan(pi/8)^2 (1 + 2^-10)]"),
    ("kAsinPoly", mp.asin, mp.mpf(1) / 4 * MARGIN, 8, "odd",
     "asin(s) = s + s z P(z), z = s^2 in [0, 1/4 (1 + 2^-10)]"),
    ("kAtanhPoly", mp.atanh, (S_LOG ** 2) * MARGIN, 4, "odd",
     "atanh(s) = s + s z P(z), z = s^2 in [0, ((sqrt2 - 1)/(sqrt2 + 1))^2 (1 + 2^-10)]"),
    ("kSinhPoly", mp.sinh, (R_EXP ** 2) * MARGIN, 3, "odd",
     "sinh(r) = r + r z P(z), z = r^2 in [0, (ln(2)/2)^2 (1 + 2^-10)]"),
    ("kCoshPoly", mp.cosh, (R_EXP ** 2) * MARGIN, 4, "even",
     "cosh(r) = 1 + z P(z), z = r^2 in [0, (ln(2)/2)^2 (1 + 2^-10)]"),
]

out = []
emit = out.append
out.extend(preamble("tools/coeffs/invtrig_hyp.py", "src/kernels/invtrig_hyp_coeffs.h"))

for name, fn, zmax, n, kind, comment in POLYS:
    if kind == "odd":
        c, err = odd_fit(fn, zmax, n)
    else:
        def g(z, fn=fn):
            return mp.taylor(fn, 0, 2)[2] if z == 0 else (fn(mp.sqrt(z)) - 1) / z
        c = chebfit(g, 0, zmax, n)
        err = max_rel(lambda z: 1 + z * horner(c, z), lambda z: fn(mp.sqrt(z)), zmax)
    assert err < K_MAX_REL, (name, err)
    emit(f"// {comment}; degree {n - 1} in z.")
    emit(f"// Max relative error of the function: {mp.nstr(err, 3)} (2^{mp.nstr(mp.log(err, 2), 4)}).")
    emit(f"ACCELMATH_COEFFS std::array<double, {n}> {name}() {{")
    emit("  return {{")
    emit(",\n".join(f"      {hexd(v)}" for v in c) + "}};")
    emit("}")
    emit("")

# Constants of the reductions, each the binary64 value nearest the exact one.
CONSTS = [
    ("kInvTrigPi", mp.pi, "pi"),
    ("kInvTrigPiOver2", mp.pi / 2, "pi/2"),
    ("kInvTrigPiOver4", mp.pi / 4, "pi/4"),
    ("kHypLn2", mp.log(2), "ln 2"),
    ("kHypLog2e", 1 / mp.log(2), "log2(e)"),
    ("kAtanTanPiOver8", T_ATAN, "tan(pi/8): atan's reduction boundary (region edges need not be exact)"),
    ("kAtanTan3PiOver8", mp.tan(3 * mp.pi / 8), "tan(3pi/8)"),
]
emit("// Constants: the binary64 values nearest the exact ones.")
for name, v, what in CONSTS:
    emit(f"inline constexpr double {name} = {hexd(v)};  // {what}")
emit("")
emit("}  // namespace accelmath::coeffs")
print("\n".join(out))
