#!/usr/bin/env python3
"""ndtri from Python through the package (accelmath.ndtri, not ctypes), single thread, in one run:
accelmath, scipy.special.ndtri and torch.special.ndtri on the same float32 inputs (uniform random p
in (0, 1)) at 1K, 4K, 64K and 16M elements, out= given to all three; then the per-call overhead.
Median of repeated, interleaved timings; ratios are accelmath's throughput over each anchor's.

    scripts/python-test          # builds the wheel and installs it into build/python-venv
    build/python-venv/bin/python bench/ndtri_python.py

Per-call overhead: the median time of one call on a 1-element array (with out= and without), and at
1K elements the call's time minus 1024 times the per-element time at 64K (where the overhead is
negligible). torch is limited to one thread (torch.set_num_threads(1)).
"""
import os
import platform
import sys
import time

import numpy as np
from scipy import special

import accelmath

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_util import median_times  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None


def per_call(fn, calls=2000, reps=15):
    """Median over reps batches of the mean time of one call in a batch of `calls` calls."""
    fn()
    best = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best.append((time.perf_counter() - t0) / calls)
    return sorted(best)[len(best) // 2]


rng = np.random.default_rng(42)
print(f"accelmath {accelmath.__version__} ({accelmath.__file__}), numpy {np.__version__}, "
      f"scipy {__import__('scipy').__version__}, torch {torch.__version__ if torch else 'not installed'}, "
      f"Python {platform.python_version()}")
print("| n | accelmath Melem/s | SciPy Melem/s | torch Melem/s | vs SciPy | vs torch |")
print("|---|---|---|---|---|---|")
per_element_64k = None
for n in [1 << 10, 1 << 12, 1 << 16, 1 << 24]:
    p = rng.uniform(0, 1, n).astype(np.float32)
    p[p == 0] = 0.5
    out = np.empty_like(p)
    accelmath.ndtri(p, out=out)
    ref = special.ndtri(p.astype(np.float64))
    assert np.max(np.abs(out - ref) / np.spacing(np.abs(ref).astype(np.float32))) <= 1.0
    f = accelmath.ndtri
    sp_out = np.empty_like(p)
    fns = [lambda: f(p, out=out), lambda: special.ndtri(p, out=sp_out)]
    if torch is not None:
        tp = torch.from_numpy(p)
        t_out = torch.empty_like(tp)
        fns.append(lambda: torch.special.ndtri(tp, out=t_out))
    if n <= 1 << 16:  # small calls: batches, so the timer's own cost does not count
        ts = [per_call(fn, calls=max(20, (1 << 20) // n)) for fn in fns]
    else:
        ts = median_times(fns, n)
    if n == 1 << 16:
        per_element_64k = ts[0] / n
    if n == 1 << 10:
        t_1k = ts[0]
    t_ours, t_scipy = ts[0], ts[1]
    t_torch = ts[2] if torch is not None else None
    row = [f"{n}", f"{n / t_ours / 1e6:.1f}", f"{n / t_scipy / 1e6:.1f}",
           f"{n / t_torch / 1e6:.1f}" if torch is not None else "-", f"{t_scipy / t_ours:.1f}x",
           f"{t_torch / t_ours:.1f}x" if torch is not None else "-"]
    print("| " + " | ".join(row) + " |")

one = np.float32([0.3])
one_out = np.empty_like(one)
print()
print("| per-call overhead | µs |")
print("|---|---|")
print(f"| accelmath.ndtri(x, out=out), 1 element | {per_call(lambda: accelmath.ndtri(one, out=one_out)) * 1e6:.2f} |")
print(f"| accelmath.ndtri(x), 1 element (allocates the result) | {per_call(lambda: accelmath.ndtri(one)) * 1e6:.2f} |")
print(f"| accelmath.ndtri at 1K minus 1024 x its per-element time at 64K | {(t_1k - 1024 * per_element_64k) * 1e6:.2f} |")
print(f"| scipy.special.ndtri(x, out=out), 1 element (a NumPy ufunc) | {per_call(lambda: special.ndtri(one, out=one_out)) * 1e6:.2f} |")
if torch is not None:
    t1, t1_out = torch.from_numpy(one), torch.empty(1)
    print(f"| torch.special.ndtri(x, out=out), 1 element | {per_call(lambda: torch.special.ndtri(t1, out=t1_out)) * 1e6:.2f} |")
