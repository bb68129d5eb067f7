"""Shared by the Python benchmarks (bench/*_python.py) and the scripts over bench_math's JSON."""
import json
import subprocess
import sys
import time


def run_json(cmd):
    """The JSON of a Google Benchmark program run as `cmd` (with --benchmark_format=json); exits with
    the command and its stderr where it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def median_times(fns, n, reps_large=7, reps_small=51):
    """Median time of each fn; the fns take turns within every repetition, so that the machine's
    drift (it is shared and noisy) hits all of them alike. reps_large repetitions for n >= 2^20,
    reps_small below."""
    reps = reps_large if n >= 1 << 20 else reps_small
    times = [[] for _ in fns]
    for f in fns:
        f()
    for _ in range(reps):
        for k, f in enumerate(fns):
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    return [sorted(t)[len(t) // 2] for t in times]
