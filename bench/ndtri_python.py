#!/usr/bin/env python3
"""ndtri throughput from Python, single thread, in one run: accelmath (through its C ABI, ctypes),
scipy.special.ndtri and torch.special.ndtri (when torch is installed) on the same float32 inputs
(uniform random p in (0, 1)) at 1K, 4K, 8K, 16K, 32K, 64K and 16M elements. Median of repeated,
interleaved timings; ratios are accelmath's throughput over each anchor's.

    python3 bench/ndtri_python.py [build/libaccelmath.so]

Every call pays Python's call overhead (about 0.5-1 us, ctypes included); at 1K elements that is a
visible part of the time. torch is limited to one thread (torch.set_num_threads(1)).
"""
import ctypes
import os
import sys
import time

import numpy as np
from scipy import special

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_util import median_times  # noqa: E402

lib_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "build", "libaccelmath.so")
lib = ctypes.CDLL(lib_path)
lib.accelmath_ndtri_f32.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.accelmath_ndtri_f32.restype = ctypes.c_int

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None


rng = np.random.default_rng(42)
print(f"numpy {np.__version__}, scipy {special.__name__ and __import__('scipy').__version__}, "
      f"torch {torch.__version__ if torch else 'not installed'}")
print("| n | accelmath Melem/s | SciPy Melem/s | torch Melem/s | vs SciPy | vs torch |")
print("|---|---|---|---|---|---|")
for n in [1 << 10, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 24]:
    p = rng.uniform(0, 1, n).astype(np.float32)
    p[p == 0] = 0.5
    out = np.empty_like(p)
    assert lib.accelmath_ndtri_f32(out.ctypes.data, p.ctypes.data, n) == 0
    ref = special.ndtri(p.astype(np.float64))
    assert np.max(np.abs(out - ref) / np.spacing(np.abs(ref).astype(np.float32))) <= 1.0
    fn, dst, src = lib.accelmath_ndtri_f32, out.ctypes.data, p.ctypes.data  # look-ups outside the timing
    sp_out = np.empty_like(p)
    fns = [lambda: fn(dst, src, n), lambda: special.ndtri(p, out=sp_out)]
    if torch is not None:
        tp = torch.from_numpy(p)
        t_out = torch.empty_like(tp)
        fns.append(lambda: torch.special.ndtri(tp, out=t_out))
    ts = median_times(fns, n)
    t_ours, t_scipy = ts[0], ts[1]
    t_torch = ts[2] if torch is not None else None
    row = [f"{n}", f"{n / t_ours / 1e6:.1f}", f"{n / t_scipy / 1e6:.1f}",
           f"{n / t_torch / 1e6:.1f}" if torch is not None else "-", f"{t_scipy / t_ours:.1f}x",
           f"{t_torch / t_ours:.1f}x" if torch is not None else "-"]
    print("| " + " | ".join(row) + " |")
