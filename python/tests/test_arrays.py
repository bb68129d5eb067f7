"""The array contract of accelmath.<name>(x, out=None): shapes, strides, out=, aliasing, the errors
(TypeError/ValueError naming the argument, nothing written), the GIL, threads."""
import pickle
import threading

import numpy as np
import pytest

import accelmath
from conftest import bits, sample

X = sample(4096 - 64, seed=7)  # 4096 values, the specials at the end


def contiguous_result(name, x):
    return getattr(accelmath, name)(np.ascontiguousarray(x))


@pytest.mark.parametrize("view", [
    lambda a: a.reshape(64, -1)[:, ::3],          # strided rows
    lambda a: a.reshape(64, -1).T,                 # Fortran order
    lambda a: a[::-2],                             # negative stride
    lambda a: a.reshape(8, 16, -1)[::2, 3:, ::-5],  # 3-D, mixed
    lambda a: a[5:6].reshape(()),                  # 0-d
    lambda a: a[:0].reshape(0, 4),                 # empty
    lambda a: a.reshape(2, -1)[:, 1:1000],         # offset rows
])
@pytest.mark.parametrize("name", ["sin", "ndtri", "sincos"])
def test_any_strides_give_the_contiguous_results(view, name):
    x = view(X)
    got = getattr(accelmath, name)(x)
    want = contiguous_result(name, x)
    for g, w in zip(got if name == "sincos" else (got,), want if name == "sincos" else (want,)):
        assert g.shape == x.shape
        np.testing.assert_array_equal(bits(g), bits(w))
    # out= with other strides than x
    outs = tuple(np.full(x.shape[::-1], 7, np.float32).T for _ in range(2 if name == "sincos" else 1))
    r = getattr(accelmath, name)(x, out=outs if name == "sincos" else outs[0])
    for g, w in zip(outs, want if name == "sincos" else (want,)):
        np.testing.assert_array_equal(bits(g), bits(w))
    assert (r[0] if name == "sincos" else r) is outs[0]


def test_fortran_input_gives_fortran_output():
    x = np.asfortranarray(X.reshape(64, -1))
    assert accelmath.exp(x).flags.f_contiguous


def test_in_place_and_overlap():
    x = X.copy()
    want = accelmath.log1p(X)
    assert accelmath.log1p(x, out=x) is x
    np.testing.assert_array_equal(bits(x), bits(want))
    # out overlaps x shifted by one element: the result is as if x were read first
    y = X.copy()
    accelmath.cos(y[:-1], out=y[1:])
    np.testing.assert_array_equal(bits(y[1:]), bits(accelmath.cos(X[:-1])))
    assert bits(y[:1]) == bits(X[:1])
    # interleaved views of one buffer
    z = X.copy()
    accelmath.tan(z[::2], out=z[1::2])
    np.testing.assert_array_equal(bits(z[1::2]), bits(accelmath.tan(X[::2])))
    # two outputs may not share memory
    buf = np.zeros(2 * len(X), np.float32)
    with pytest.raises(ValueError, match="^out: the two output arrays share memory"):
        accelmath.sincos(X, out=(buf[:len(X)], buf[len(X) // 2:len(X) // 2 + len(X)]))
    assert not buf.any()


def raises(exc, pattern, fn, *args, **kw):
    with pytest.raises(exc, match=pattern):
        fn(*args, **kw)


def test_errors_name_the_argument_and_write_nothing():
    good = np.ones(4, np.float32)
    out = np.full(4, 5, np.float32)
    raises(TypeError, r"^x: expected float32, got ndarray of dtype float64", accelmath.exp, np.ones(4), out=out)
    raises(TypeError, r"^x: expected a float32 array .*got list", accelmath.exp, [1.0, 2.0])
    raises(TypeError, r"^x: expected a float32 array .*got float", accelmath.exp, 1.0)
    raises(TypeError, r"^x: expected float32, got ndarray of dtype float16", accelmath.exp, np.ones(4, np.float16))
    raises(TypeError, r"^out: expected float32, got ndarray of dtype float64", accelmath.exp, good, out=np.ones(4))
    raises(ValueError, r"^out: shape \(5,\) is not x's shape \(4,\)", accelmath.exp, good, out=np.ones(5, np.float32))
    raises(ValueError, r"^out: shape \(4, 1\) is not x's shape \(4,\)", accelmath.exp, good, out=np.ones((4, 1), np.float32))
    ro = np.full(4, 5, np.float32)
    ro.flags.writeable = False
    raises(ValueError, r"^out: the array is read-only", accelmath.exp, good, out=ro)
    np.testing.assert_array_equal(ro, 5)
    # two results: a bad second output leaves the first untouched
    raises(ValueError, r"^out\[1\]: the array is read-only", accelmath.sincos, good, out=(out, ro))
    raises(ValueError, r"^out\[1\]: shape \(3,\) is not", accelmath.sincos, good, out=(out, np.ones(3, np.float32)))
    raises(TypeError, r"^out: sincos has two results", accelmath.sincos, good, out=out)
    raises(ValueError, r"^out: expected 2 arrays, got 3", accelmath.sincos, good, out=(out, out, out))
    np.testing.assert_array_equal(out, 5)
    # read-only inputs are fine
    x = np.float32([0.5, 0.25])
    x.flags.writeable = False
    np.testing.assert_array_equal(bits(accelmath.ndtri(x)), bits(accelmath.ndtri(x.copy())))


def test_functions_pickle_by_name():
    for f in accelmath.functions:
        fn = getattr(accelmath, f.name)
        assert pickle.loads(pickle.dumps(fn)) is fn


def test_gil_is_released_during_the_call():
    x = np.linspace(-100, 100, 1 << 24, dtype=np.float32)
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    try:
        accelmath.exp(x[:16])  # warm up
        before = count[0]
        accelmath.sin(x)  # tens of milliseconds; the counter runs only if the GIL is released
        during = count[0] - before
    finally:
        stop.set()
        t.join()
    assert during > 0


def test_threads_share_the_functions():
    x = np.linspace(-10, 10, 1 << 20, dtype=np.float32)
    want = accelmath.expm1(x)
    results = [None] * 4

    def work(k):
        results[k] = accelmath.expm1(x)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(bits(r), bits(want))
