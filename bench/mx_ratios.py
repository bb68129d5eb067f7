#!/usr/bin/env python3
"""Ratio table of bench_mx (docs/performance.md): throughput of each quantize case as a fraction of
the memcpy of its input, of each dequantize case as a fraction of the memcpy of its output (a memcpy
of float32/bfloat16/float16 data of the same element count), in the same run (medians).
  build/bench_mx --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true \\
      --benchmark_report_aggregates_only=true --benchmark_format=json > mx.json
  python3 bench/mx_ratios.py mx.json
Random interleaving matters on a shared machine: it spreads the noise over anchor and cases alike."""
import json
import sys

runs = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
memcpy = {}
for name, b in runs.items():
    if name.startswith("memcpy/"):
        _, dtype, n, _ = name.split("/")
        memcpy[(dtype, n)] = b["bytes_per_second"]
print("| case | n | GB/s | vs memcpy (quantize: of the input; dequantize: of the output) |")
print("|---|---:|---:|---:|")
for name, b in sorted(runs.items(), key=lambda kv: (kv[0].split("/")[1].split("->")[0], kv[0])):
    kind, case, n, _ = name.split("/")
    if kind == "memcpy":
        print(f"| memcpy {case} | {n} | {b['bytes_per_second'] / 1e9:.2f} | 1 |")
        continue
    src, dst = case.split("->")
    anchor = src if kind.startswith("quantize") else dst  # dequantize counts output bytes
    ratio = b["bytes_per_second"] / memcpy[(anchor, n)] if (anchor, n) in memcpy else None
    print(f"| {kind} {case} | {n} | {b['bytes_per_second'] / 1e9:.2f} | {'%.2f' % ratio if ratio else '-'} |")
