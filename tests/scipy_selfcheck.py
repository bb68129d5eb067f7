#!/usr/bin/env python3
"""The modelled self-verification, with SciPy goldens: shapes 1, 32, 1023, 2048 and 65536 of
uniform(0, 1) inputs (seed 20260715, clipped to (0, 1)) plus the fixed cases and the tail logspace
values of the modelled gen_data. For each shape and function (ndtri, ndtri_taskbook): accelmath run, then accelmath verify
against scipy.special.ndtri (dual threshold 1e-4); ndtri must also be within 1 ulp
of SciPy's double-precision value. Usage: scipy_selfcheck.py ACCELMATH."""
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import special

EXE = sys.argv[1]
f32 = np.float32
tiny = np.nextafter(f32(0), f32(1))
below_one = np.nextafter(f32(1), f32(0))
fixed = [0, 1, 0.5, tiny, np.nextafter(np.finfo(f32).tiny, f32(0)), np.finfo(f32).tiny, below_one,
         1e-30, 1e-20, 1e-10, np.nextafter(f32(0.075), f32(0)), np.nextafter(f32(0.075), f32(1)),
         np.nextafter(f32(0.925), f32(0)), np.nextafter(f32(0.925), f32(1)),
         np.nextafter(f32(np.exp(-25)), f32(0)), np.nextafter(f32(np.exp(-25)), f32(1)),
         1e-2, 1e-5, 1 - 1e-2, 1 - 1e-5, -0.1, 1.1, np.inf, -np.inf, np.nan]
fixed = np.array(fixed, dtype=f32)


def inputs(n, rng):
    p = np.clip(rng.uniform(0, 1, n).astype(f32), tiny, below_one)
    k = n // 8
    if k:
        left = np.logspace(-45, -2, k // 2 + k % 2).astype(f32)
        right = (1 - np.logspace(-7, -2, k // 2)).astype(f32)
        p[:k] = np.concatenate([left, right])
    m = min(n, len(fixed))
    p[k:k + m] = fixed[:m] if k + m <= n else fixed[: n - k]
    return p


failures = 0
rng = np.random.default_rng(20260715)
with tempfile.TemporaryDirectory() as d:
    for n in [1, 32, 1023, 2048, 65536]:
        p = inputs(n, rng)
        golden64 = special.ndtri(p.astype(np.float64))
        np.save(os.path.join(d, "p.npy"), p)
        np.save(os.path.join(d, "g.npy"), golden64.astype(f32))
        for variant in ["ndtri", "ndtri_taskbook"]:
            out = os.path.join(d, "x.npy")
            subprocess.run([EXE, "run", "--op", variant, "--in", os.path.join(d, "p.npy"),
                            "--out", out], check=True)
            v = subprocess.run([EXE, "verify", "--golden", os.path.join(d, "g.npy"), "--actual", out, "--show", "0"],
                               capture_output=True, text=True)
            x = np.load(out)
            src_after = np.load(os.path.join(d, "p.npy"))
            fin = np.isfinite(golden64)
            spacing = np.spacing(np.abs(golden64[fin]).astype(f32)).astype(np.float64)
            ulp = float(np.max(np.abs(x[fin] - golden64[fin]) / spacing)) if fin.any() else 0.0
            same_class = np.array_equal(np.isnan(x), np.isnan(golden64)) and np.array_equal(x[~fin & ~np.isnan(golden64)],
                                                                                          golden64[~fin & ~np.isnan(golden64)])
            ratio = [l for l in v.stdout.splitlines() if l.startswith("errors")]
            ok = v.returncode == 0 and same_class and (variant != "ndtri" or ulp <= 1.0)
            ok = ok and np.array_equal(src_after.view(np.uint32), p.view(np.uint32))
            print(f"{'ok  ' if ok else 'FAIL'} n={n:6d} {variant:8s} verify exit {v.returncode} ({ratio[0] if ratio else ''}),"
                  f" max ulp vs SciPy {ulp:.4f}")
            failures += not ok
print(f"{10 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
