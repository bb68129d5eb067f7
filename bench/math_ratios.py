#!/usr/bin/env python3
"""Runs build/bench_math once per instruction set this CPU has (avx2, avx512), each time with
9 repetitions in random interleaved order, and prints the tables of docs/performance.md: per function,
the median throughput of accelmath and of each anchor at 64K elements, and accelmath's ratio to
Intel MKL VM (HA), SLEEF u10 and libmvec at 1K, 64K and 16M elements, all from the same run. A row
"f@label" is f on another input set (sin@huge: |x| up to 1e30; pow@negbase: negative bases and
integer exponents; norm@row1024: rows of 1024; the inputs line says which). The SLEEF column is
SLEEF's u10 function, or its u05 or exact one where it has no u10 (sqrt, hypot, fma, floor, ...: the
line under the table names them). Sizes count elements: a function of rows (norm) runs n / 16 rows
of 16 (n / 1024 rows of 1024).

    python3 bench/math_ratios.py [--exe build/bench_math] [--filter exp,log,...] [--targets avx2,avx512]
                                 [--mkl direct|dispatch]

MKL is optional (bench/fetch_mkl.sh); without it the MKL column says so. The MKL column is MKL's HA
kernel for the target's instruction set, called directly (--mkl direct, the default: the code MKL runs
on an Intel CPU, on any CPU), or what MKL's dispatch picks on this CPU (--mkl dispatch: its generic
code on CPUs other than Intel's); the table's first line names the library. Takes about 30 minutes per
target for every function with 5 repetitions on a 2-core Zen 4 guest (MKL's I0 and I1 at 16M take
much of it); --filter and --repetitions make it shorter.
"""
import argparse
import datetime
import os
import re
import sys

from bench_util import run_json

ANCHORS = ["mkl_ha", "sleef_u10", "libmvec", "hwy", "glibc"]
LABELS = {"mkl_ha": "MKL HA", "sleef_u10": "SLEEF u10", "libmvec": "libmvec", "hwy": "hwy", "glibc": "glibc"}
RATIO_ANCHORS = ["mkl_ha", "sleef_u10", "libmvec"]
SIZES = [1 << 10, 1 << 16, 1 << 24]
TABLE_SIZE = 1 << 16
NEEDS = {"avx2": {"avx2", "fma"}, "avx512": {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl"}}


def cpu():
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model", "flags") and key not in info:
                info[key] = value.strip()
            if not line.strip() and info:
                break
    model = f"{info.get('model name', '?')} (family {info.get('cpu family', '?')}, model {info.get('model', '?')})"
    return model, set(info.get("flags", "").split())


def size_name(n):
    return f"{n >> 20}M" if n >= 1 << 20 else f"{n >> 10}K"


def run(exe, target, args):
    cmd = [exe, f"--target={target}", f"--mkl={args.mkl}", "--benchmark_format=json", f"--benchmark_repetitions={args.repetitions}",
           "--benchmark_report_aggregates_only=true", f"--benchmark_min_time={args.min_time}",
           "--benchmark_enable_random_interleaving=true"]
    if args.filter:
        names = "|".join(f.strip() for f in args.filter.split(",") if f.strip())
        cmd.append(f"--benchmark_filter=^({names})(@[a-z0-9]+)?/")  # sin also times sin@huge
    data = run_json(cmd)
    rows = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        fn, impl, n = b["run_name"].split("/")
        rows.setdefault(fn, {}).setdefault(impl, {})[int(n)] = b["items_per_second"] / 1e6
    context = data["context"]
    order = context.get("functions", "").split(",")
    rows = dict(sorted(rows.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
    return context, rows


def table(target, model, context, rows, args):
    mkl = context.get("mkl", "?")
    m = re.search(r"Version (\S+?)-Product Build (\d+)", mkl)
    mkl_text = (f"oneMKL {m.group(1) + ' build ' + m.group(2) if m else mkl}, {context.get('mkl_vm_library', '?')}, "
                "VML_HA, sequential"
                if "not found" not in mkl else "not found (bench/fetch_mkl.sh), so no MKL column")
    print(f"### {target}: {model}")
    print()
    print(f"`bench_math --target={target}`, {datetime.date.today().isoformat()}: accelmath and hwy dispatched to "
          f"Highway {context.get('hwy_target', '?')}; MKL: {mkl_text}; SLEEF u10 and libmvec "
          f"{context.get('simd_anchor_width', '?').split(' ')[0]} lanes; glibc scalar.")
    print(f"Median Melem/s of {args.repetitions} interleaved repetitions at n = {size_name(TABLE_SIZE)}, single thread; "
          f"\"vs X\" = accelmath / X at n = " + " / ".join(size_name(n) for n in SIZES) + ", same run.")
    print()
    anchors = [a for a in ANCHORS if any(a in r for r in rows.values())]
    ratios = [a for a in RATIO_ANCHORS if a in anchors]
    print("| function | accelmath | " + " | ".join(LABELS[a] for a in anchors) + " | " +
          " | ".join(f"vs {LABELS[a]}" for a in ratios) + " |")
    print("|---|" + "---:|" * (1 + len(anchors) + len(ratios)))

    def cell(fn, impl, n):
        v = rows[fn].get(impl, {}).get(n)
        return f"{v:.0f}" if v is not None else "—"

    for fn, r in rows.items():
        ours = r.get("accelmath", {})
        line = [fn, cell(fn, "accelmath", TABLE_SIZE)] + [cell(fn, a, TABLE_SIZE) for a in anchors]
        for a in ratios:
            if a not in r:
                line.append("—")
                continue
            line.append(" / ".join(f"{ours[n] / r[a][n]:.2f}" if n in ours and n in r[a] else "—" for n in SIZES))
        print("| " + " | ".join(line) + " |")
    print()
    short = [f"{fn} {r['accelmath'][TABLE_SIZE] / r['mkl_ha'][TABLE_SIZE]:.2f}" for fn, r in rows.items()
             if TABLE_SIZE in r.get("accelmath", {}) and TABLE_SIZE in r.get("mkl_ha", {})
             and r["accelmath"][TABLE_SIZE] < r["mkl_ha"][TABLE_SIZE]]
    if "mkl_ha" in anchors:
        print(f"Below 1.0x MKL HA at {size_name(TABLE_SIZE)}: " + (", ".join(short) if short else "none") + ".")
        print()
    print("Inputs (fixed seed): " + "; ".join(f"{fn} {context.get('inputs_' + fn, '?')}" for fn in rows) + ".")
    sleef = [f"{fn} {context['sleef_' + fn]}" for fn in rows if "sleef_" + fn in context]
    if sleef:
        print()
        print("SLEEF functions other than u10 in the SLEEF column: " + "; ".join(sleef) + ".")
    print()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default=os.path.join(here, "..", "build", "bench_math"))
    ap.add_argument("--filter", help="comma-separated function names (default: every function)")
    ap.add_argument("--targets", help="comma-separated subset of avx2,avx512 (default: those this CPU has)")
    ap.add_argument("--repetitions", type=int, default=9)
    ap.add_argument("--mkl", choices=["direct", "dispatch"], default="direct",
                    help="MKL's HA kernel of the target called directly, or through MKL's CPU dispatch")
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per repetition of each benchmark")
    args = ap.parse_args()

    model, flags = cpu()
    have = [t for t in NEEDS if NEEDS[t] <= flags]
    targets = args.targets.split(",") if args.targets else have
    for t in targets:
        if t not in have:
            sys.exit(f"target {t}: this CPU lacks it (has: {', '.join(have) or 'neither avx2 nor avx512'})")
    if not targets:
        sys.exit("this CPU has neither AVX2+FMA nor AVX-512: nothing to compare")
    for t in targets:
        context, rows = run(args.exe, t, args)
        table(t, model, context, rows, args)


if __name__ == "__main__":
    main()
