#!/usr/bin/env python3
"""Regenerates src/kernels/erf_coeffs.h, every constant the error function kernels use (erf, erfc,
erfcx, normcdf; src/kernels/erf-inl.h).

    python3 tools/coeffs/erf.py > src/kernels/erf_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
All kernels run in binary64 lanes. Two rational approximations, each a minimax fit of relative error
(rational Remez exchange on a dense grid, started from Loeb's iterated weighted least squares; both
written below), and one polynomial:

  kErfNum/kErfDen   erf(x) = x P(z)/Q(z), z = x^2 in [0, kErfOneX^2], P, Q of degree 7, Q(0) = 1.
                    The kernel clamps x to +-kErfOneX, where erf rounds to +-1 (asserted below: at
                    least 2^-29 from the tie), as it does for every float beyond.
  kErfcxNum/Den     erfcx(a) = exp(a^2) erfc(a) = P(a)/Q(a) for every a >= 0 up to +inf: P of degree 6,
                    Q of degree 7 (so that a P/Q tends to a constant, 1/sqrt(pi) up to the fit's
                    error), P(0) = Q(0) = 1 (erfcx(0) = 1 exactly). Fitted in t = a/(a + 3) on
                    [0, 1); the error is measured up to a = 2^128 (asymptotic series beyond a = 30).
                    Every coefficient is positive: no cancellation in either polynomial.
  (e^(+-x^2) is ExpFinite64 of the exp/log family: tools/coeffs/exp_log.py.)

Every error printed in the header is that of the coefficients as rounded to binary64, evaluated
exactly, on a grid denser than the fit's. Thresholds (the largest/smallest float32 where a result
stops being finite/non-zero/below 1) are computed here for the kernels' comments and clamps.
"""
import struct
import sys

import mpmath as mp
from polyfit import chebfit, hexd, horner, preamble

mp.mp.dps = 40

K_MAX_REL = mp.mpf(2) ** -34


# ---- rational minimax (relative error) ---------------------------------------------------------
def ratval(p, q, x):
    return horner(p, x) / horner(q, x)


def _solve(rows, rhs):
    """Least squares (or the square system) at 120 digits, rows scaled to unit max entry."""
    with mp.workdps(120):
        sc = [1 / max(abs(v) for v in row) for row in rows]
        a = mp.matrix([[v * c for v in row] for row, c in zip(rows, sc)])
        b = mp.matrix([v * c for v, c in zip(rhs, sc)])
        if a.rows == a.cols:
            return mp.lu_solve(a, b)
        return mp.qr_solve(a, b)[0]


def _unpack(sol, n, m, p0):
    np_ = n + (1 if p0 is None else 0)
    p = ([p0] if p0 is not None else []) + [sol[j] for j in range(np_)]
    q = [mp.mpf(1)] + [sol[np_ + j] for j in range(m)]
    return p, q


def _row(x, f, n, m, p0):
    """The linear form P(x) - f (Q(x) - 1) in the free coefficients."""
    return [x ** j for j in range(0 if p0 is None else 1, n + 1)] + [-f * x ** j for j in range(1, m + 1)]


def _alternating(err, npts):
    """Indices of npts alternating-sign local extrema of err (the ends always candidates), keeping
    the largest of each same-sign run and dropping the smaller end while too many."""
    n = len(err)
    ext = [i for i in range(n)
           if i == 0 or i == n - 1 or (abs(err[i]) >= abs(err[i - 1]) and abs(err[i]) >= abs(err[i + 1]))]
    alt = []
    for i in ext:
        if alt and (err[alt[-1]] > 0) == (err[i] > 0):
            if abs(err[i]) > abs(err[alt[-1]]):
                alt[-1] = i
        else:
            alt.append(i)
    while len(alt) > npts:
        alt.pop(0 if abs(err[alt[0]]) < abs(err[alt[-1]]) else -1)
    return alt


def rat_minimax(xs, fs, n, m, p0=None, iters=40):
    """P/Q (degrees n, m, Q(0) = 1, P(0) = p0 if given) minimising max |P/Q / f - 1| over the sorted
    grid xs (values fs): Loeb's iterated weighted least squares on a Chebyshev subset of the grid,
    then the Remez exchange (the linear system at the reference with the previous Q in the levelled
    error term, iterated). Returns p, q (mpf, lowest degree first)."""
    free = n + m + (0 if p0 is not None else 1)
    npts = len(xs)
    sub = sorted(set(int(round((npts - 1) * (1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / (6 * free))) / 2))
                     for i in range(6 * free)))
    qs = [mp.mpf(1)] * len(sub)
    for _ in range(10):
        rows, rhs = [], []
        for k, i in enumerate(sub):
            w = 1 / (fs[i] * qs[k])
            rows.append([w * v for v in _row(xs[i], fs[i], n, m, p0)])
            rhs.append(w * (fs[i] - (p0 if p0 is not None else 0)))
        p, q = _unpack(_solve(rows, rhs), n, m, p0)
        qs = [horner(q, xs[i]) for i in sub]
    err = [ratval(p, q, x) / f - 1 for x, f in zip(xs, fs)]
    best = (p, q, max(abs(e) for e in err))
    for _ in range(iters):
        ref = _alternating(err, free + 1)
        if len(ref) < free + 1:
            break
        qv = [horner(q, xs[i]) for i in ref]
        for _ in range(5):
            rows, rhs = [], []
            for k, i in enumerate(ref):
                rows.append(_row(xs[i], fs[i], n, m, p0) + [-(-1) ** k * fs[i] * qv[k]])
                rhs.append(fs[i] - (p0 if p0 is not None else 0))
            sol = _solve(rows, rhs)
            p, q = _unpack(sol, n, m, p0)
            level = sol[len(sol) - 1]
            qv = [horner(q, xs[i]) for i in ref]
        err = [ratval(p, q, x) / f - 1 for x, f in zip(xs, fs)]
        emax = max(abs(e) for e in err)
        if emax < best[2]:
            best = (p, q, emax)
        if emax <= abs(level) * (1 + mp.mpf(10) ** -3):
            break
    return best[0], best[1]


def rounded(c):
    return [mp.mpf(float(v)) for v in c]


# ---- the functions -----------------------------------------------------------------------------
def erfcx(a):
    """exp(a^2) erfc(a), a >= 0: directly below 30, the asymptotic series beyond (terms to 1e-45)."""
    if a < 30:
        return mp.exp(a * a) * mp.erfc(a)
    u = 1 / (2 * a * a)
    total, term, k = mp.mpf(0), 1 / (a * mp.sqrt(mp.pi)), 0
    while abs(term) > mp.mpf(10) ** -45 * total or k == 0:
        total += term
        k += 1
        term *= -(2 * k - 1) * u
    return total


def erf_over_x(z):
    """erf(sqrt z)/sqrt z."""
    return 2 / mp.sqrt(mp.pi) if z == 0 else mp.erf(mp.sqrt(z)) / mp.sqrt(z)


def f32(x):
    with mp.workprec(24):
        return +mp.mpf(x)


def _key(x):
    """float32 x (mpf) as an integer ordered like the floats."""
    b = struct.unpack("<I", struct.pack("<f", float(x)))[0]
    return b if b < 2 ** 31 else -(b - 2 ** 31)


def _unkey(k):
    b = k if k >= 0 else 2 ** 31 - k
    return mp.mpf(struct.unpack("<f", struct.pack("<I", b))[0])


def last_float(pred, x0, x1):
    """pred monotone on the floats between x0 (where it holds) and x1 (where it fails): the last
    float32 from x0 towards x1 where it holds (bisection on the bit patterns)."""
    a, b = _key(f32(x0)), _key(f32(x1))
    assert pred(_unkey(a)) and not pred(_unkey(b))
    while abs(b - a) > 1:
        mid = (a + b) // 2
        if pred(_unkey(mid)):
            a = mid
        else:
            b = mid
    return _unkey(a)


TWO_M150 = mp.mpf(2) ** -150          # below it a result rounds to +0
FLT_MAX = (2 - mp.mpf(2) ** -23) * mp.mpf(2) ** 127
OVERFLOW = mp.mpf(2) ** 128 - mp.mpf(2) ** 103  # from it on a result rounds to +inf
ONE_MINUS_HALF_ULP = 1 - mp.mpf(2) ** -25       # from it on a result in (0.5, 1] rounds to 1

# erf saturates: from kErfOneX on erf(x) >= 1 - 2^-25, which rounds to 1 (ties to even: 1).
ERF_ONE_X = mp.mpf(3.9375)
assert mp.erf(ERF_ONE_X) > 1 - mp.mpf(2) ** -25 * (1 - mp.mpf(2) ** -4)  # far from the tie at 1 - 2^-25
ERF_FIRST_ONE = last_float(lambda x: mp.erf(x) >= ONE_MINUS_HALF_ULP, ERF_ONE_X, 3)
# erfc and normcdf underflow: the arguments are clamped to these (the results there are below 2^-150).
ERFC_CLAMP = mp.mpf(10.5)
assert mp.erfc(ERFC_CLAMP) < TWO_M150 / 1e3
NORMCDF_CLAMP = mp.mpf(14.875)
assert mp.erfc(NORMCDF_CLAMP / mp.sqrt(2)) / 2 < TWO_M150 / 1e3 and NORMCDF_CLAMP / mp.sqrt(2) <= 10.6
ERFC_LAST = last_float(lambda x: mp.erfc(x) > TWO_M150, 10, ERFC_CLAMP)
NORMCDF_LAST = last_float(lambda x: mp.erfc(-x / mp.sqrt(2)) / 2 > TWO_M150, -14, -NORMCDF_CLAMP)
NORMCDF_FIRST_ONE = last_float(lambda x: mp.erfc(x / mp.sqrt(2)) / 2 <= mp.mpf(2) ** -25, 6, 5)
ERFC_FIRST_TWO = last_float(lambda x: mp.erfc(x) <= mp.mpf(2) ** -24, 4, 3)
# erfcx overflows below ERFCX_LAST_FINITE; x^2 is clamped to ERFCX_EXP_CLAMP there: 2 e^clamp is far
# above FLT_MAX (so the float32 result is +inf, as it must be, for every clamped lane) and finite in
# binary64.
ERFCX_LAST_FINITE = last_float(lambda x: 2 * mp.exp(x * x) - erfcx(-x) < OVERFLOW, -9, -10)
ERFCX_EXP_CLAMP = mp.mpf(100)
assert 2 * mp.exp(ERFCX_EXP_CLAMP) > 2 * OVERFLOW and ERFCX_EXP_CLAMP < ERFCX_LAST_FINITE ** 2 + 20
assert mp.sqrt(ERFCX_EXP_CLAMP) > -ERFCX_LAST_FINITE

out = []
emit = out.append
out.extend(preamble("tools/coeffs/erf.py", "src/kernels/erf_coeffs.h"))


def table(name, c, what):
    emit(f"ACCELMATH_COEFFS std::array<double, {len(c)}> {name}() {{  // {what}")
    emit("  return {{")
    emit(",\n".join(f"      {hexd(v)}" for v in c) + "}};")
    emit("}")


def lg(e):
    return mp.nstr(mp.log(e, 2), 4)


# erf(x) = x P(z)/Q(z).
z_hi = ERF_ONE_X ** 2
zs = [z_hi * mp.mpf(i) / 1200 for i in range(1201)]
p, q = rat_minimax(zs, [erf_over_x(z) for z in zs], 7, 7)
p, q = rounded(p), rounded(q)
err_erf = max(abs(ratval(p, q, z) / erf_over_x(z) - 1) for z in (z_hi * mp.mpf(i) / 4000 for i in range(4001)))
assert err_erf < K_MAX_REL and all(v > 0 for v in p + q), err_erf
emit(f"// erf(x) = x P(z)/Q(z), z = x^2 in [0, {mp.nstr(ERF_ONE_X, 5)}^2]; rational minimax of relative error,")
emit("// degrees 7/7.")
emit(f"// Max relative error: {mp.nstr(err_erf, 3)} (2^{lg(err_erf)}). Every coefficient positive.")
table("kErfNum", p, "P")
table("kErfDen", q, "Q, Q(0) = 1")
emit("")

# erfcx(a) = P(a)/Q(a), a in [0, inf).
K = 3
ts = [mp.mpf(i) / 1200 for i in range(1, 1200)] + [1 - mp.mpf(10) ** -k for k in range(4, 7)]
xs = [K * t / (1 - t) for t in ts]
p, q = rat_minimax(xs, [erfcx(x) for x in xs], 6, 7, p0=mp.mpf(1))
p, q = rounded(p), rounded(q)
check = [K * (mp.mpf(i) / 4000) / (1 - mp.mpf(i) / 4000) for i in range(4000)]
check += [mp.mpf(2) ** k for k in range(5, 129)]
err_erfcx = max(abs(ratval(p, q, x) / erfcx(x) - 1) for x in check)
assert err_erfcx < K_MAX_REL and all(v > 0 for v in p + q) and p[0] == 1 and q[0] == 1, err_erfcx
emit("// erfcx(a) = exp(a^2) erfc(a) = P(a)/Q(a) for a in [0, +inf) (checked up to 2^128); rational minimax")
emit("// of relative error, degrees 6/7 (a P(a)/Q(a) tends to P[6]/Q[7], 1/sqrt(pi) up to the error), P(0) = Q(0) = 1.")
emit(f"// Max relative error: {mp.nstr(err_erfcx, 3)} (2^{lg(err_erfcx)}). Every coefficient positive.")
table("kErfcxNum", p, "P")
table("kErfcxDen", q, "Q")
emit("")

CONSTS = [
    ("kErfRsqrt2", 1 / mp.sqrt(2), "1/sqrt(2)"),
    ("kErfOneX", ERF_ONE_X,
     f"erf's clamp: erf(kErfOneX) rounds to 1, as erf(x) does from x = {mp.nstr(ERF_FIRST_ONE, 9)} on"),
    ("kErfcClamp", ERFC_CLAMP,
     f"erfc(x) < 2^-150 from here; the last non-zero float32 result is at x = {mp.nstr(ERFC_LAST, 9)}"),
    ("kNormcdfClamp", NORMCDF_CLAMP,
     f"normcdf(-x) < 2^-150 from here; the last non-zero is at x = {mp.nstr(NORMCDF_LAST, 9)}"),
    ("kErfcxExpClamp", ERFCX_EXP_CLAMP,
     f"x^2 clamp of erfcx(x < 0): +inf for every x clamped; the last finite is at x = {mp.nstr(ERFCX_LAST_FINITE, 9)}"),
]
emit("// Constants: the binary64 values nearest the exact ones.")
for name, v, what in CONSTS:
    emit(f"// {what}.")
    emit(f"inline constexpr double {name} = {hexd(v)};")
emit(f"// normcdf(x) rounds to 1 from x = {mp.nstr(NORMCDF_FIRST_ONE, 9)} on;")
emit(f"// erfc(x) rounds to 2 from x = -{mp.nstr(ERFC_FIRST_TWO, 9)} down.")
emit("")
emit("}  // namespace accelmath::coeffs")
print("\n".join(out))
