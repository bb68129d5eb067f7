#!/usr/bin/env python3
"""Runs build/bench_ndtri (Google Benchmark, 9 repetitions in random interleaved order, medians) and
prints the ratio table of docs/performance.md: accelmath's throughput over each Boost.Math anchor's,
per size, from one run.

    python3 bench/ndtri_ratios.py [build/bench_ndtri]
"""
import json
import os
import subprocess
import sys

exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "build", "bench_ndtri")
out = subprocess.run([exe, "--benchmark_format=json", "--benchmark_repetitions=9",
                      "--benchmark_report_aggregates_only=true", "--benchmark_min_time=0.2",
                      "--benchmark_enable_random_interleaving=true"],
                     check=True, capture_output=True, text=True).stdout
rows = {}
for b in json.loads(out)["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name, n = b["run_name"].rsplit("/", 1)
    rows.setdefault(int(n), {})[name.replace("BM_", "")] = b["items_per_second"] / 1e6

cols = ["accelmath_ndtri", "accelmath_ndtri_taskbook", "accelmath_scalar_ndtri", "boost_quantile_normal_float",
        "boost_erf_inv_float"]
print("Median Melem/s of 9 repetitions (single thread); ratios = accelmath_ndtri / anchor, same run.\n")
print("| n | " + " | ".join(cols) + " | vs Boost quantile | vs Boost erf_inv |")
print("|---|" + "---|" * (len(cols) + 2))
for n in sorted(rows):
    r = rows[n]
    if not all(c in r for c in cols):
        continue
    print(f"| {n} | " + " | ".join(f"{r[c]:.1f}" for c in cols) +
          f" | {r['accelmath_ndtri'] / r['boost_quantile_normal_float']:.1f}x"
          f" | {r['accelmath_ndtri'] / r['boost_erf_inv_float']:.1f}x |")
tails = rows.get(65536, {})
if "accelmath_ndtri_tails" in tails:
    print(f"\nTail-only p (0 < p < 0.075 or p > 0.925), n = 65536: accelmath_ndtri {tails['accelmath_ndtri_tails']:.1f},"
          f" Boost quantile {tails['boost_quantile_normal_float_tails']:.1f} Melem/s,"
          f" ratio {tails['accelmath_ndtri_tails'] / tails['boost_quantile_normal_float_tails']:.1f}x")
if 1024 in rows and 65536 in rows:
    print(f"\n1K throughput / 64K throughput (accelmath_ndtri): "
          f"{rows[1024]['accelmath_ndtri'] / rows[65536]['accelmath_ndtri']:.2f}")
