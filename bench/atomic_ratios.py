#!/usr/bin/env python3
"""Ratio table of bench_atomic (docs/performance.md): median updates/s of accelmath::atomic::add and
of the two anchors measured in the same run, and accelmath's ratio to each.
  build/bench_atomic --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true \\
      --benchmark_report_aggregates_only=true --benchmark_format=json > atomic.json
  python3 bench/atomic_ratios.py atomic.json"""
import json
import sys

rate = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        pattern, dtype, impl, _, threads = b["run_name"].split("/")
        rate[(pattern, dtype, threads.split(":")[1], impl)] = b["items_per_second"]
print("| pattern | type | threads | accelmath M/s | atomic_ref M/s | mutex-stripe M/s | vs atomic_ref | vs mutex-stripe |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for (pattern, dtype, threads, impl), ours in sorted(rate.items(), key=lambda kv: (["uncontended", "contended", "random"].index(kv[0][0]), kv[0][1], kv[0][2])):
    if impl != "accelmath":
        continue
    ref = rate.get((pattern, dtype, threads, "atomic_ref"))
    mtx = rate.get((pattern, dtype, threads, "mutex_stripe"))
    fmt = lambda v: f"{v / 1e6:.0f}" if v else "-"
    ratio = lambda v: f"{ours / v:.2f}" if v else "-"
    print(f"| {pattern} | {dtype} | {threads} | {fmt(ours)} | {fmt(ref)} | {fmt(mtx)} | {ratio(ref)} | {ratio(mtx)} |")
