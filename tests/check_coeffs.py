#!/usr/bin/env python3
"""Provenance check: every generated coefficient header equals what its script prints now."""
import pathlib
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
pairs = [("tools/coeffs/ndtri.py", "src/kernels/ndtri_coeffs.h"),
         ("tools/coeffs/exp_log.py", "src/kernels/exp_log_coeffs.h"),
         ("tools/coeffs/fresnel.py", "src/kernels/fresnel_coeffs.h"),
         ("tools/coeffs/trig.py", "src/kernels/trig_coeffs.h"),
         ("tools/coeffs/invtrig_hyp.py", "src/kernels/invtrig_hyp_coeffs.h"),
         ("tools/coeffs/pow_roots.py", "src/kernels/pow_roots_coeffs.h"),
         ("tools/coeffs/gamma.py", "src/kernels/gamma_coeffs.h"),
         ("tools/coeffs/bessel.py", "src/kernels/bessel_coeffs.h"),
         ("tools/coeffs/erf.py", "src/kernels/erf_coeffs.h")]
bad = 0
for script, header in pairs:
    fresh = subprocess.run([sys.executable, str(root / script)], check=True, capture_output=True, text=True).stdout
    if fresh != (root / header).read_text():
        print(f"{header} differs from the output of {script}: regenerate it")
        bad += 1
    else:
        print(f"{header}: matches {script}")
sys.exit(1 if bad else 0)
