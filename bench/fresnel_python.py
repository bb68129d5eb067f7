#!/usr/bin/env python3
"""The Fresnel integrals from Python, single thread, in one run: accelmath's `fresnel` (C and S of each
input, through its C ABI, ctypes) against scipy.special.fresnel (float64, both results per call) on the
same float32 inputs, and the accuracy of both against mpmath (50 digits) on a subsample.

    python3 bench/fresnel_python.py [build/libaccelmath.so]

Input sets: uniform in [-10, 10]; |x| log-uniform in [1e-6, 1e6] with random signs. Sizes 64K and 16M.
Median of interleaved timings. The error of SciPy's float64 result is given in float32 ulps both as it is
and after rounding to float32 (what a float32 user would keep).
"""
import ctypes
import os
import sys
import time

import mpmath
import numpy as np
from scipy import special

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_util import median_times  # noqa: E402

lib_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "build", "libaccelmath.so")
lib = ctypes.CDLL(lib_path)
lib.accelmath_fresnel_f32.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.accelmath_fresnel_f32.restype = ctypes.c_int


def ours(x, c, s):
    rc = lib.accelmath_fresnel_f32(c.ctypes.data, s.ctypes.data, x.ctypes.data, x.size)
    assert rc == 0


def ulp32(v):
    """float32 spacing at |v| (exact values as mpf or float)."""
    a = abs(float(v))
    if a < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (np.floor(np.log2(a)) - 23)


def errors(x, c, s, scipy_s, scipy_c, k=2000):
    """Max float32-ulp error of ours, SciPy's float64 and SciPy rounded to float32, vs mpmath."""
    mpmath.mp.dps = 50
    idx = np.linspace(0, x.size - 1, k).astype(int)
    worst = {"accelmath": 0.0, "scipy (float64)": 0.0, "scipy -> float32": 0.0}
    for i in idx:
        xi = mpmath.mpf(float(x[i]))
        for exact, mine, theirs in ((mpmath.fresnelc(xi), c[i], scipy_c[i]), (mpmath.fresnels(xi), s[i], scipy_s[i])):
            u = ulp32(exact)
            worst["accelmath"] = max(worst["accelmath"], float(abs(mpmath.mpf(float(mine)) - exact)) / u)
            worst["scipy (float64)"] = max(worst["scipy (float64)"], float(abs(mpmath.mpf(float(theirs)) - exact)) / u)
            t32 = float(np.float32(theirs))
            worst["scipy -> float32"] = max(worst["scipy -> float32"], float(abs(mpmath.mpf(t32) - exact)) / u)
    return worst


def main():
    rng = np.random.default_rng(3)
    sets = {
        "uniform in [-10, 10]": lambda n: rng.uniform(-10, 10, n),
        "|x| log-uniform in [1e-6, 1e6], random sign": lambda n: np.exp(rng.uniform(np.log(1e-6), np.log(1e6), n))
        * rng.choice([-1.0, 1.0], n),
    }
    print("| inputs | n | accelmath fresnel (Melem/s) | scipy.special.fresnel (Melem/s) | ratio |")
    print("|---|---:|---:|---:|---:|")
    accuracy = {}
    for name, gen in sets.items():
        for n in (1 << 16, 1 << 24):
            x = gen(n).astype(np.float32)
            c, s = np.empty_like(x), np.empty_like(x)
            t_ours, t_scipy = median_times([lambda: ours(x, c, s), lambda: special.fresnel(x.astype(np.float64))],
                                           n, 5, 31)
            print(f"| {name} | {n >> 10}K | {n / t_ours / 1e6:.0f} | {n / t_scipy / 1e6:.1f} | {t_scipy / t_ours:.1f}x |")
            if n == 1 << 16:
                ss, sc = special.fresnel(x.astype(np.float64))
                ours(x, c, s)
                accuracy[name] = errors(x, c, s, ss, sc)
    print()
    print("Max error in float32 ulp vs mpmath (50 digits), C and S, 2000 inputs per set spread over the 64K:")
    print()
    print("| inputs | accelmath | SciPy float64 | SciPy rounded to float32 |")
    print("|---|---:|---:|---:|")
    for name, w in accuracy.items():
        print(f"| {name} | {w['accelmath']:.3f} | {w['scipy (float64)']:.2e} | {w['scipy -> float32']:.3f} |")


if __name__ == "__main__":
    main()
