#!/usr/bin/env python3
"""Regenerates src/kernels/erf_coeffs.h, every constant the error function kernels use (erf, erfc,
erfcx, normcdf; src/kernels/erf-inl.h).

    python3 tools/coeffs/erf.py > src/kernels/erf_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this prints).
erf runs in float32 lanes, the others in binary64 lanes.

  kErfPiece*        erf(x): eight pieces of [0, 4), each a degree-6 polynomial with float32
                    coefficients (Chebyshev interpolants, then rounded; the constant term of the
                    pieces away from 0 kept as two floats): piece 0 is erf(a) = a + a P(a^2) on
                    [0, 1/2], piece k = 1..7 is erf(a) = erf(x_k) + t P_k(t), t = a - x_k, on
                    [k/2, k/2 + 1/2], erf(x_k) as two floats. The error printed is that of the
                    rounded tables in exact arithmetic (asserted below 1/32 of an ulp of the result).
One rational approximation, a minimax fit of relative error (rational Remez exchange on a dense
grid, started from Loeb's iterated weighted least squares; both written below):

  kErfcxNum/Den     erfcx(a) = exp(a^2) erfc(a) = P(a)/Q(a) for every a >= 0 up to +inf: P of degree 6,
                    Q of degree 7 (so that a P/Q tends to a constant, 1/sqrt(pi) up to the fit's
                    error), P(0) = Q(0) = 1 (erfcx(0) = 1 exactly). Fitted in t = a/(a + 3) on
                    [0, 1); the error is measured up to a = 2^128 (asymptotic series beyond a = 30).
                    Every coefficient is positive: no cancellation in either polynomial.
  (e^(+-x^2) is ExpFinite64 of the exp/log family: tools/coeffs/exp_log.py.)

Every error printed in the header is that of the coefficients as rounded (to binary64, float32 for
erf), evaluated exactly, on a grid denser than the fit's. Thresholds (the largest/smallest float32 where a result
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


def hexf(x):
    """x (a float32 value) as a C float hex literal."""
    mant, exp = float(x).hex().split("p")
    return mant.rstrip("0").rstrip(".") + "p" + exp + "f"


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

# erf saturates: from ERF_FIRST_ONE on erf(x) >= 1 - 2^-25, which rounds to 1 (ties to even: 1).
ERF_FIRST_ONE = last_float(lambda x: mp.erf(x) >= ONE_MINUS_HALF_ULP, 4, 3)
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


# erf in float32 lanes: eight pieces of [0, 4), the row k of each table chosen per lane.
#   k = 0, a = |x| in [0, 1/2]:      erf(a) = a + a P_0(a^2), P_0(w) ~ erf(sqrt w)/sqrt w - 1 on [0, 1/4];
#   k = 1..7, a in [k/2, k/2 + 1/2]: erf(a) = hi_k + lo_k + t P_k(t), t = a - x_k (exact), x_k = k/2 + 1/4,
#                                    hi_k + lo_k = erf(x_k) to 2^-48, P_k ~ (erf(x_k + t) - erf(x_k))/t
#                                    on [-1/4, 1/4].
# Each P_k has degree 6 (float32 coefficients; its constant term also as c0 + c0lo, two floats, for
# k >= 1). The kernel reads k = round(2 max(min(a, clamp), 1/4) - 1/2) from the low bits of
# 2 m + (2^23 - 1/2) (ties to even: a = 1/2 falls in piece 0), and a >= clamp gives 1.
ERF_PIECES = 8
ERF_DEGREE = 6
ERF_CLAMP = mp.mpf(struct.unpack("<f", struct.pack("<I", 0x407FF800))[0])  # 3.99951171875
assert 2 * ERF_CLAMP - mp.mpf(1) / 2 < ERF_PIECES - mp.mpf(1) / 2  # still piece 7
# erf(clamp) rounds to 1, and not near the tie 1 - 2^-25: the polynomial's few 2^-30 cannot move it.
assert 1 - mp.erf(ERF_CLAMP) < mp.mpf(2) ** -25 * mp.mpf(0.6)
ERF_MAGIC = mp.mpf(2) ** 23 - mp.mpf(1) / 2


def erf_piece(k):
    """x_k, hi_k, lo_k, c0lo_k and the degree-6 coefficients of piece k (mpf, float32 values)."""
    if k == 0:
        c = [f32(v) for v in reversed(mp.chebyfit(lambda w: erf_over_x(w) - 1, [0, mp.mpf(1) / 4], ERF_DEGREE + 1))]
        return mp.mpf(0), mp.mpf(0), mp.mpf(0), mp.mpf(0), c
    xk = mp.mpf(k) / 2 + mp.mpf(1) / 4
    e = mp.erf(xk)
    hi = f32(e)
    lo = f32(e - hi)

    def g(t):
        return 2 / mp.sqrt(mp.pi) * mp.exp(-xk * xk) if t == 0 else (mp.erf(xk + t) - e) / t

    c = list(reversed(mp.chebyfit(g, [-mp.mpf(1) / 4, mp.mpf(1) / 4], ERF_DEGREE + 1)))
    c0 = f32(c[0])
    return xk, hi, lo, f32(c[0] - c0), [c0] + [f32(v) for v in c[1:]]


ERF_ROWS = [erf_piece(k) for k in range(ERF_PIECES)]


def erf_model(a, row):
    """What the float32 tables give, evaluated exactly: the error of the approximation alone."""
    xk, hi, lo, c0lo, c = row
    if xk == 0:
        return a + a * horner(c, a * a)
    t = a - xk
    return hi + lo + t * (horner(c, t) + c0lo)


def erf_piece_error(k):
    """Max |model - erf| over piece k, in units of 2^-24 (the ulp of erf in [1/2, 1)) for k >= 1,
    relative to erf (in 2^-24) for k = 0."""
    lo, hi = (mp.mpf(0), mp.mpf(1) / 2) if k == 0 else (mp.mpf(k) / 2, min(mp.mpf(k) / 2 + mp.mpf(1) / 2, ERF_CLAMP))
    worst = mp.mpf(0)
    for i in range(601):
        a = lo + (hi - lo) * i / 600
        if a == 0:
            continue
        err = abs(erf_model(a, ERF_ROWS[k]) - mp.erf(a))
        worst = max(worst, err / mp.erf(a) if k == 0 else err)
    return worst * mp.mpf(2) ** 24


ERF_ERRORS = [erf_piece_error(k) for k in range(ERF_PIECES)]
assert max(ERF_ERRORS) < mp.mpf(2) ** -5, ERF_ERRORS  # below 1/32 ulp: the rest is float32 rounding


def ftable(name, vals, what):
    emit(f"ACCELMATH_COEFFS std::array<float, {len(vals)}> {name}() {{  // {what}")
    emit("  return {{")
    emit(",\n".join("      " + ", ".join(hexf(v) for v in vals[i:i + 4]) for i in range(0, len(vals), 4)) + "}};")
    emit("}")


emit("// erf in float32 lanes, eight pieces of [0, 4) (row k of each table; see tools/coeffs/erf.py):")
emit("//   k = 0, |x| <= 1/2:  erf = a + a P_0(a^2);  k >= 1, |x| in [k/2, k/2 + 1/2]: erf = hi + lo + t P_k(t),")
emit("//   t = a - x_k. P_k of degree 6; its constant term is c0 + c0lo (c0lo = 0 in row 0).")
emit("// Approximation error of the rounded tables (exact arithmetic), per piece, in 2^-24 (relative for")
emit("// k = 0): " + ", ".join(mp.nstr(e, 2) for e in ERF_ERRORS) + ".")
ftable("kErfPieceX", [r[0] for r in ERF_ROWS], "x_k")
ftable("kErfPieceHi", [r[1] for r in ERF_ROWS], "hi_k (row 0 unused: the kernel adds a)")
ftable("kErfPieceLo", [r[2] for r in ERF_ROWS], "lo_k")
ftable("kErfPieceC0Lo", [r[3] for r in ERF_ROWS], "c0lo_k")
emit(f"ACCELMATH_COEFFS std::array<std::array<float, {ERF_PIECES}>, {ERF_DEGREE + 1}> kErfPiecePoly() {{  "
     "// [i][k]: coefficient i of P_k")
emit("  return {{")
emit(",\n".join("      {{" + ", ".join(hexf(r[4][j]) for r in ERF_ROWS) + "}}" for j in range(ERF_DEGREE + 1)) + "}};")
emit("}")
emit(f"// Clamp of |x| (still piece 7; erf there is 1 - {mp.nstr(1 - mp.erf(ERF_CLAMP), 3)}, which rounds to 1)")
emit(f"// and 2^23 - 1/2: the low bits of 2 m + kErfPieceMagic are round(2 m - 1/2).")
emit(f"inline constexpr float kErfPieceClamp = {hexf(ERF_CLAMP)};")
emit(f"inline constexpr float kErfPieceMagic = {hexf(ERF_MAGIC)};")
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
emit(f"// erf(x) rounds to 1 from x = {mp.nstr(ERF_FIRST_ONE, 9)} on;")
emit(f"// normcdf(x) rounds to 1 from x = {mp.nstr(NORMCDF_FIRST_ONE, 9)} on;")
emit(f"// erfc(x) rounds to 2 from x = -{mp.nstr(ERFC_FIRST_TWO, 9)} down.")
emit("")
emit("}  // namespace accelmath::coeffs")
print("\n".join(out))
