"""Shared by the Python benchmarks (bench/*_python.py)."""
import time


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
