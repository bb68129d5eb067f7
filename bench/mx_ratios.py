#!/usr/bin/env python3
"""Ratio table of bench_mx (docs/performance.md): throughput of each quantize case as a fraction of
the memcpy of its input, of each dequantize case as a fraction of the memcpy of its output (a memcpy
of float32/bfloat16/float16 data of the same element count), in the same run (medians; --best: the
best repetition of each, from a JSON with every repetition).
  build/bench_mx --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true \\
      --benchmark_report_aggregates_only=true --benchmark_format=json > mx.json
  python3 bench/mx_ratios.py mx.json
  build/bench_mx --benchmark_repetitions=25 --benchmark_min_time=0.02 \\
      --benchmark_enable_random_interleaving=true --benchmark_format=json > mx.json
  python3 bench/mx_ratios.py --best mx.json
Random interleaving matters on a shared machine: it spreads the noise over anchor and cases alike.
The last column is each row's spread over its repetitions (the coefficient of variation of its time,
from the JSON's cv aggregate; "-" where the run lacks it): on a shared machine the memcpy anchor can
vary more than the cases it divides (docs/performance.md, MX, the ninth session)."""
import json
import sys

# --best: each row's best repetition instead of the median (a JSON with every repetition, not
# --benchmark_report_aggregates_only), as bench/ab.py does for bench_math; the memcpy anchor's best too.
best = sys.argv[1] == "--best"
benchmarks = json.load(open(sys.argv[2 if best else 1]))["benchmarks"]
runs = {}
for b in benchmarks:
    if best and b.get("run_type") == "iteration":
        if b["run_name"] not in runs or b["bytes_per_second"] > runs[b["run_name"]]["bytes_per_second"]:
            runs[b["run_name"]] = b
    elif not best and b.get("aggregate_name") == "median":
        runs[b["run_name"]] = b
# the spread of each row over its repetitions: coefficient of variation of the time, in percent
cv = {b["run_name"]: 100 * b["real_time"] for b in benchmarks if b.get("aggregate_name") == "cv"}
memcpy = {}
for name, b in runs.items():
    if name.startswith("memcpy/"):
        _, dtype, n, _ = name.split("/")
        memcpy[(dtype, n)] = b["bytes_per_second"]
print("| case | n | GB/s | vs memcpy (quantize: of the input; dequantize: of the output) | cv % |")
print("|---|---:|---:|---:|---:|")
spread = lambda name: f"{cv[name]:.1f}" if name in cv else "-"
for name, b in sorted(runs.items(), key=lambda kv: (kv[0].split("/")[1].split("->")[0], kv[0])):
    kind, case, n, _ = name.split("/")
    if kind == "memcpy":
        print(f"| memcpy {case} | {n} | {b['bytes_per_second'] / 1e9:.2f} | 1 | {spread(name)} |")
        continue
    src, dst = case.split("->")
    anchor = src if kind.startswith("quantize") else dst  # dequantize counts output bytes
    ratio = b["bytes_per_second"] / memcpy[(anchor, n)] if (anchor, n) in memcpy else None
    print(f"| {kind} {case} | {n} | {b['bytes_per_second'] / 1e9:.2f} | {'%.2f' % ratio if ratio else '-'} | {spread(name)} |")
