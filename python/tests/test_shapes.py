"""The registry shapes beyond one float input: their Python signatures, result types and values against
NumPy (or exact rationals for fma), and their argument checks.

NumPy differs from accelmath (that is, from C23 and glibc) in a few places, noted where they are
tested: np.fmin/np.fmax may return either zero of (+0, -0) (accelmath: -0 < +0, C23
fminimum_num/fmaximum_num), np.round rounds halves to even (accelmath.round is C's roundf, halves
away from zero; accelmath.rint is np.rint), and NumPy has no ilogb (its frexp gives the exponent)."""
from fractions import Fraction

import numpy as np
import pytest

import accelmath
from conftest import bits, sample

X = sample(4096 - 64, seed=11)  # 4096 values of every class, the specials at the end
INT_MIN, INT_MAX = -2**31, 2**31 - 1


def others(seed):
    """A second (third, ...) float input of X's shape: another sample, reversed (specials meet randoms)."""
    return np.ascontiguousarray(sample(4096 - 64, seed=seed)[::-1])


def same(got, want):
    """Bit for bit, but a NaN matches any NaN (payloads and their signs are not specified)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    nan = np.isnan(got) & np.isnan(want)
    np.testing.assert_array_equal(np.where(nan, 0, bits(got)), np.where(nan, 0, bits(want)))


def ulp_error(y, ref):
    """Max |y - ref| / ulp(ref) over the finite normal-range ref; classes (NaN, inf) must agree."""
    y, ref = np.asarray(y, np.float64), np.asarray(ref, np.float64)
    assert np.array_equal(np.isnan(y), np.isnan(ref)), "NaN where the reference has none, or none where it has"
    inf = np.isinf(ref)
    assert np.array_equal(y[inf], ref[inf]), "infinities differ"
    fin = np.isfinite(ref) & (np.abs(ref) > 1e-37) & (np.abs(ref) < 3.4e38)
    spacing = np.spacing(np.abs(ref[fin]).astype(np.float32)).astype(np.float64)
    return float(np.max(np.abs(y[fin] - ref[fin]) / spacing, initial=0.0))


def round_to_f32(q):
    """The float32 nearest to the rational q (ties to even, subnormals rounded once, overflow to inf)."""
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    lsb = max(e, -126) - 23
    scaled = q / Fraction(2) ** lsb
    m = scaled.numerator // scaled.denominator
    rest = scaled - m
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and m % 2 == 1):
        m += 1
    v = m * 2.0 ** lsb
    return sign * (np.inf if v >= 2.0 ** 128 else v)


def fma_exact(a, b, c):
    """x * y + z rounded once to float32 (exact rationals; NaN, inf and exact zeros by IEEE's rules)."""
    out = np.empty(a.shape, np.float32)
    for i, (p, q, r) in enumerate(zip(a.ravel().tolist(), b.ravel().tolist(), c.ravel().tolist())):
        exact = None if not np.all(np.isfinite([p, q, r])) else Fraction(p) * Fraction(q) + Fraction(r)
        if exact is None or (p * q == 0 and r == 0):
            with np.errstate(all="ignore"):
                out.flat[i] = np.float32(np.float64(p) * np.float64(q) + np.float64(r))  # no rounding at stake
        else:
            out.flat[i] = np.float32(round_to_f32(exact))  # an exact zero from nonzeros: +0
    return out


# ---- three and four inputs -------------------------------------------------------------------------

def test_fma_is_rounded_once():
    y, z = others(12), others(13)
    got = accelmath.fma(X, y, z)
    assert got.dtype == np.float32 and got.shape == X.shape
    same(got, fma_exact(X, y, z))
    # Cancellation: z = -round(x y) leaves exactly the rounding error of x y, which one rounding keeps.
    x = np.float32([1 + 2**-23, 0.1, 3.0, 1e20])
    w = np.float32([1 - 2**-23, 0.3, 1 / 3, 1e-20])
    z = -(x.astype(np.float64) * w).astype(np.float32)
    same(accelmath.fma(x, w, z), fma_exact(x, w, z))
    assert accelmath.fma(x, w, z)[0] == np.float32(-2.0**-46)
    # Keywords, as named.
    same(accelmath.fma(x=X, y=y, z=others(13)), fma_exact(X, y, others(13)))


@pytest.mark.parametrize("name, k", [("norm3d", 3), ("rnorm3d", 3), ("norm4d", 4), ("rnorm4d", 4)])
def test_norms_of_three_and_four(name, k):
    xs = [X] + [others(20 + j) for j in range(k - 1)]
    got = getattr(accelmath, name)(*xs)
    assert got.dtype == np.float32 and got.shape == X.shape
    v = [a.astype(np.float64) for a in xs]
    with np.errstate(all="ignore"):
        n = np.sqrt(sum(a * a for a in v))
        n[np.any([np.isinf(a) for a in v], axis=0)] = np.inf  # an infinite coordinate wins over a NaN
        ref = 1 / n if name.startswith("r") else n
    assert ulp_error(got, ref) <= 1.0
    names = ("x", "y", "z", "w")[:k]
    fn = getattr(accelmath, name)
    assert fn.__code__.co_varnames[:k] == names


@pytest.mark.parametrize("name", ["fma", "norm3d", "norm4d"])
def test_several_inputs_contract(name):
    """Every input of one shape (no broadcasting), any strides, out= any input; errors name the argument."""
    fn = getattr(accelmath, name)
    k = next(f.inputs for f in accelmath.functions if f.name == name)
    xs = [X] + [others(30 + j) for j in range(k - 1)]
    want = fn(*xs)
    strided = [a.reshape(64, -1).T for a in xs]
    np.testing.assert_array_equal(bits(fn(*strided)), bits(fn(*[np.ascontiguousarray(a) for a in strided])))
    for j in range(k):  # out = input j (in place)
        ys = [a.copy() for a in xs]
        assert fn(*ys, out=ys[j]) is ys[j]
        np.testing.assert_array_equal(bits(ys[j]), bits(want))
    buf = xs[-1].copy()  # out overlapping the last input shifted by one: as if read whole first
    fn(*[a[1:] for a in xs[:-1]], buf[:-1], out=buf[1:])
    np.testing.assert_array_equal(bits(buf[1:]), bits(fn(*[a[1:] for a in xs[:-1]], xs[-1][:-1])))
    out = np.full(X.shape, 5, np.float32)
    last = ("x", "y", "z", "w")[k - 1]
    with pytest.raises(ValueError, match=rf"^{last}: shape \(4095,\) is not x's shape \(4096,\)"):
        fn(*xs[:-1], xs[-1][1:], out=out)
    with pytest.raises(TypeError, match=r"^y: expected float32, got ndarray of dtype float64"):
        fn(xs[0], xs[1].astype(np.float64), *xs[2:], out=out)
    assert (out == 5).all()


# ---- two inputs ------------------------------------------------------------------------------------

def test_pow_hypot_against_numpy():
    x1, x2 = X, others(40)
    with np.errstate(all="ignore"):
        assert ulp_error(accelmath.pow(x1, x2), np.power(x1.astype(np.float64), x2.astype(np.float64))) <= 1.0
        assert ulp_error(accelmath.hypot(x1, x2), np.hypot(x1.astype(np.float64), x2.astype(np.float64))) <= 1.0
        assert ulp_error(accelmath.rhypot(x1, x2), 1 / np.hypot(x1.astype(np.float64), x2.astype(np.float64))) <= 1.0
    # Annex F: a negative base and an integer exponent give a real result (NumPy agrees); pow(1, NaN) = 1.
    np.testing.assert_array_equal(accelmath.pow(np.float32([-2, -2, 1, np.nan]), np.float32([3, 2, np.nan, 0])),
                                  np.float32([-8, 4, 1, 1]))


def test_fmin_fmax_copysign():
    zero_pairs = np.float32([[0.0, -0.0], [-0.0, 0.0], [0.0, 0.0], [-0.0, -0.0]])
    x1, x2 = np.concatenate([X, zero_pairs[:, 0]]), np.concatenate([others(41), zero_pairs[:, 1]])
    lo, hi = accelmath.fmin(x1, x2), accelmath.fmax(x1, x2)
    zeros = (x1 == 0) & (x2 == 0)
    # NumPy's fmin/fmax: the same but for (+0, -0), where NumPy may return either zero.
    same(lo[~zeros], np.fmin(x1, x2)[~zeros])
    same(hi[~zeros], np.fmax(x1, x2)[~zeros])
    assert zeros.any()
    assert np.all(np.signbit(lo[zeros]) == (np.signbit(x1[zeros]) | np.signbit(x2[zeros])))
    assert np.all(np.signbit(hi[zeros]) == (np.signbit(x1[zeros]) & np.signbit(x2[zeros])))
    z = np.float32([0.0, -0.0, np.nan, np.nan])
    w = np.float32([-0.0, 0.0, 1.0, np.nan])
    np.testing.assert_array_equal(bits(accelmath.fmin(z, w)[:3]), bits(np.float32([-0.0, -0.0, 1.0])))
    np.testing.assert_array_equal(bits(accelmath.fmax(z, w)[:3]), bits(np.float32([0.0, 0.0, 1.0])))
    assert np.isnan(accelmath.fmin(z, w)[3]) and np.isnan(accelmath.fmax(z, w)[3])
    same(accelmath.copysign(x1, x2), np.copysign(x1, x2))


# ---- one input, exact ------------------------------------------------------------------------------

def test_rounding_and_bits_against_numpy():
    same(accelmath.fabs(X), np.fabs(X))
    same(accelmath.floor(X), np.floor(X))
    same(accelmath.ceil(X), np.ceil(X))
    same(accelmath.trunc(X), np.trunc(X))
    same(accelmath.rint(X), np.rint(X))
    # round: halves away from zero (C roundf); np.round takes halves to even.
    away = np.trunc(X.astype(np.float64) + np.copysign(0.5, X.astype(np.float64))).astype(np.float32)
    same(accelmath.round(X), away)
    np.testing.assert_array_equal(accelmath.round(np.float32([0.5, 2.5, -0.5])), np.float32([1, 3, -1]))
    np.testing.assert_array_equal(np.round(np.float32([0.5, 2.5])), np.float32([0, 2]))
    same(accelmath.sqrt(X), np.sqrt(X))  # both correctly rounded
    with np.errstate(all="ignore"):
        assert ulp_error(accelmath.cbrt(X), np.cbrt(X.astype(np.float64))) <= 1.0
        assert ulp_error(accelmath.rsqrt(X), 1 / np.sqrt(X.astype(np.float64))) <= 1.0
        assert ulp_error(accelmath.rcbrt(X), 1 / np.cbrt(X.astype(np.float64))) <= 1.0


def test_exponent_functions():
    m, e = np.frexp(X)
    got_m, got_e = accelmath.frexp(X)
    assert got_m.dtype == np.float32 and got_e.dtype == np.int32
    same(got_m, m)
    np.testing.assert_array_equal(got_e, e)
    ilogb = accelmath.ilogb(X)
    assert ilogb.dtype == np.int32 and ilogb.shape == X.shape
    fin = np.isfinite(X) & (X != 0)
    np.testing.assert_array_equal(ilogb[fin], e[fin] - 1)
    np.testing.assert_array_equal(ilogb[np.isnan(X) | (X == 0)], INT_MIN)
    np.testing.assert_array_equal(ilogb[np.isinf(X)], INT_MAX)
    logb = accelmath.logb(X)
    np.testing.assert_array_equal(logb[fin], (e[fin] - 1).astype(np.float32))
    assert np.all(logb[X == 0] == -np.inf) and np.all(logb[np.isinf(X)] == np.inf) and np.isnan(logb[np.isnan(X)]).all()
    # Two results into out=(m, e); a float32 array for e is refused, nothing written.
    om, oe = np.zeros_like(X), np.zeros(X.shape, np.int32)
    r = accelmath.frexp(X, out=(om, oe))
    assert r[0] is om and r[1] is oe
    np.testing.assert_array_equal(oe, e)
    keep = np.full(X.shape, 7, np.float32)
    with pytest.raises(TypeError, match=r"^out\[1\]: expected int32, got ndarray of dtype float32"):
        accelmath.frexp(X, out=(keep, np.zeros_like(X)))
    assert (keep == 7).all()
    with pytest.raises(TypeError, match=r"^out: expected int32, got ndarray of dtype int64"):
        accelmath.ilogb(X, out=np.zeros(X.shape, np.int64))


def test_ldexp():
    rng = np.random.default_rng(5)
    n = rng.integers(-300, 301, X.shape).astype(np.int32)
    n[:4] = [INT_MIN, INT_MAX, -150, 277]
    got = accelmath.ldexp(X, n)
    assert got.dtype == np.float32
    same(got, np.ldexp(X, n))  # NumPy's ldexpf: exact too
    # n as a Python int (or a NumPy integer) for every element; keywords as named.
    same(accelmath.ldexp(X, 3), np.ldexp(X, np.int32(3)))
    same(accelmath.ldexp(X, np.int64(-149)), np.ldexp(X, np.int32(-149)))
    same(accelmath.ldexp(x=X, n=INT_MIN), np.ldexp(X, np.int32(INT_MIN)))
    # Strided x and n.
    xs, ns = X.reshape(64, -1).T, n.reshape(64, -1)[:, ::-1].T
    np.testing.assert_array_equal(bits(accelmath.ldexp(xs, ns)),
                                  bits(accelmath.ldexp(np.ascontiguousarray(xs), np.ascontiguousarray(ns))))
    out = np.full(X.shape, 5, np.float32)
    with pytest.raises(TypeError, match=r"^n: expected int32, got ndarray of dtype int64"):
        accelmath.ldexp(X, n.astype(np.int64), out=out)
    with pytest.raises(TypeError, match=r"^n: expected int32, got ndarray of dtype float32"):
        accelmath.ldexp(X, X, out=out)
    with pytest.raises(ValueError, match=r"^n: 2147483648 is not an int32"):
        accelmath.ldexp(X, 2**31, out=out)
    with pytest.raises(ValueError, match=r"^n: shape \(4095,\) is not x's shape \(4096,\)"):
        accelmath.ldexp(X, n[1:], out=out)
    with pytest.raises(TypeError, match=r"^x: expected float32"):
        accelmath.ldexp(n, n)
    assert (out == 5).all()


def test_predicates_return_bool():
    for name, ref in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)]:
        fn = getattr(accelmath, name)
        got = fn(X)
        assert got.dtype == np.bool_ and got.shape == X.shape
        np.testing.assert_array_equal(got, ref(X))
        # out: a bool or a uint8 array (the same 0/1 bytes), any strides.
        ob = np.zeros(X.shape, np.bool_)
        assert fn(X, out=ob) is ob
        np.testing.assert_array_equal(ob, ref(X))
        ou = np.full(X.shape, 9, np.uint8)
        fn(X, out=ou)
        np.testing.assert_array_equal(ou, ref(X).astype(np.uint8))
        strided = np.zeros((2, X.size), np.bool_)[1, ::-1]
        fn(X[::-1], out=strided)
        np.testing.assert_array_equal(strided, ref(X[::-1]))
        keep = np.full(X.shape, 5, np.float32)
        with pytest.raises(TypeError, match=r"^out: expected bool \(or uint8\), got ndarray of dtype float32"):
            fn(X, out=keep)
        assert (keep == 5).all()
    np.testing.assert_array_equal(accelmath.isnan(np.float32([np.nan, -np.nan, np.inf, 0])), [True, True, False, False])


# ---- rows --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(7, 5), (3, 4, 6), (9,), (1, 1), (64, 65)])
def test_norm_reduces_the_last_axis(shape):
    a = np.resize(sample(8000, seed=50), shape).astype(np.float32)
    n = accelmath.norm(a)
    r = accelmath.rnorm(a)
    assert n.shape == r.shape == shape[:-1] and n.dtype == np.float32
    v = a.astype(np.float64)
    with np.errstate(all="ignore"):
        ref = np.sqrt((v * v).sum(axis=-1))
        ref = np.where(np.isinf(v).any(axis=-1), np.inf, ref)
        assert ulp_error(n, ref) <= 1.0
        assert ulp_error(r, 1 / ref) <= 1.0


def test_norm_rows_any_strides_and_empty_rows():
    a = np.abs(sample(4096 - 64, seed=51)).reshape(64, 64)
    a[np.isnan(a) | np.isinf(a)] = 1.0
    want = accelmath.norm(np.ascontiguousarray(a))
    # Transposed, sliced, reversed views: the same result as their contiguous copies.
    for v in (a.T, a[:, ::2], a[::-1, ::-3], a[::2]):
        np.testing.assert_array_equal(bits(accelmath.norm(v)), bits(accelmath.norm(np.ascontiguousarray(v))))
    np.testing.assert_array_equal(bits(accelmath.norm(a[::-1])), bits(want[::-1]))
    # out: of a.shape[:-1], any strides; overlapping a: as if a were read first.
    out = np.zeros(128, np.float32)[::2]
    assert accelmath.norm(a, out=out) is out
    np.testing.assert_array_equal(bits(out), bits(want))
    buf = a.copy()
    accelmath.norm(buf, out=buf[:, 0])
    np.testing.assert_array_equal(bits(buf[:, 0]), bits(want))
    # Empty rows give 0 (rnorm: inf); no rows give an empty result; a 1-D array is one row.
    np.testing.assert_array_equal(accelmath.norm(np.zeros((3, 0), np.float32)), np.zeros(3, np.float32))
    np.testing.assert_array_equal(accelmath.rnorm(np.zeros((3, 0), np.float32)), np.full(3, np.inf, np.float32))
    assert accelmath.norm(np.zeros((0, 5), np.float32)).shape == (0,)
    one = accelmath.norm(np.float32([3, 4]))
    assert one.shape == () and one == 5
    # An infinite element wins over a NaN; a NaN alone gives NaN.
    np.testing.assert_array_equal(accelmath.norm(np.float32([[np.nan, np.inf], [np.nan, 1.0]]))[:1], [np.inf])
    assert np.isnan(accelmath.norm(np.float32([[np.nan, 1.0]]))[0])


def test_norm_errors():
    a = np.ones((3, 4), np.float32)
    with pytest.raises(ValueError, match=r"^a: a 0-d array has no last axis"):
        accelmath.norm(np.float32(3))
    with pytest.raises(ValueError, match=r"^out: shape \(4,\) is not a's shape without its last axis, \(3,\)"):
        accelmath.norm(a, out=np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=r"^out: shape \(3, 4\) is not a's shape without its last axis"):
        accelmath.norm(a, out=np.zeros((3, 4), np.float32))
    with pytest.raises(TypeError, match=r"^a: expected float32, got ndarray of dtype float64"):
        accelmath.norm(np.ones((3, 4)))
    assert accelmath.norm.__code__.co_varnames[:2] == ("a", "out")


def test_torch_tensors_of_every_result_type():
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(X.copy())
    b = accelmath.isnan(t)
    assert isinstance(b, torch.Tensor) and b.dtype == torch.bool
    np.testing.assert_array_equal(b.numpy(), np.isnan(X))
    ob = torch.zeros(X.shape, dtype=torch.bool)  # torch's DLPack has no bool: read through a uint8 view
    assert accelmath.isinf(t, out=ob) is ob
    np.testing.assert_array_equal(ob.numpy(), np.isinf(X))
    e = accelmath.ilogb(t)
    assert isinstance(e, torch.Tensor) and e.dtype == torch.int32
    m, k = accelmath.frexp(t)
    assert m.dtype == torch.float32 and k.dtype == torch.int32
    y = accelmath.ldexp(t, torch.from_numpy(np.full(X.shape, 2, np.int32)))
    same(y.numpy(), np.ldexp(X, np.int32(2)))
    rows = torch.from_numpy(np.abs(X).reshape(64, 64))
    n = accelmath.norm(rows)
    assert isinstance(n, torch.Tensor) and tuple(n.shape) == (64,)
    np.testing.assert_array_equal(bits(n.numpy()), bits(accelmath.norm(np.abs(X).reshape(64, 64))))
