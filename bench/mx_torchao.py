#!/usr/bin/env python3
"""accelmath MX quantize vs torchao's MX quantize on the CPU, single thread, in one run.

What it measures
  * torchao: torchao.prototype.mx_formats.mx_tensor.to_mx(x, elem_dtype, block_size=32,
    scaling_mode=ScaleCalculationMode.FLOOR) (the default scaling mode), eager PyTorch on the
    CPU with torch.set_num_threads(1), plus a torch memcpy anchor (dst.copy_(x)) timed the
    same way. Timing: warm-up, calibrate the iteration count so one repetition takes
    >= --min-time s, then --reps repetitions; the median time per call is reported.
  * accelmath: build/bench_mx (Google Benchmark; quantize is single-threaded) run as a
    subprocess with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true; the
    medians of quantize/<in>-><fmt>/<n>/real_time and its own memcpy/<in>/<n> anchor are used.
  Same data as bench_mx: Gaussian * 2^((i/32) % 16 - 8), bfloat16 by truncating float32,
  shape [n/1024, 1024], blocks of 32 along the last axis. Ratios "x/memcpy" are throughput
  ratios (memcpy time / quantize time, both moving the same input bytes); each library is
  compared with its own memcpy anchor, so the two ratio columns are comparable even though
  the absolute memcpy times of the two anchors differ somewhat.

How to run (from the repository root, after `cmake --build build --target bench_mx`, with a
virtual environment holding tools/mx/requirements.txt)
  VENV/bin/python bench/mx_torchao.py [--bench build/bench_mx]
      [--sizes 65536,16777216] [--inputs float32,bfloat16] [--quick]

Caveats
  * torchao's CPU path is the eager, op-by-op PyTorch reference (no torch.compile, no custom
    CPU kernel): each call materialises several float32 temporaries, so this is the baseline a
    CPU user of to_mx gets, not the best torchao can do on a GPU.
  * Both produce e8m0 scales with FLOOR scaling. torchao's FP6 output is unpacked (one byte per
    element), accelmath's is packed; FP4 (e2m1) is nibble-packed by both (torchao: pack_uint4).
  * torchao does not implement E1M2 (FP4 e1m2) or float16 input: those rows show n/a.
  * The machine may be shared and noisy: only medians are reported; rerun to check stability.
  * bench_mx's anchor is glibc memcpy. On some CPUs/VMs (seen: AMD EPYC VM, glibc 2.36, FSRM)
    glibc's `rep movsb` path is ~15x slower than a vector loop for L2-sized copies, which
    inflates accelmath/memcpy (torch's copy_ does not go through it). The script warns when
    the two anchors disagree by > 2x; --no-rep-movsb runs bench_mx with
    GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4294967295 (quantize itself is unaffected).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import torchao
from torchao.prototype.mx_formats.config import ScaleCalculationMode
from torchao.prototype.mx_formats.constants import DTYPE_FP6_E2M3, DTYPE_FP6_E3M2
from torchao.prototype.mx_formats.mx_tensor import to_mx

FORMATS = {  # accelmath name -> torchao elem_dtype (None: not supported by torchao)
    "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "e3m2": DTYPE_FP6_E3M2,
    "e2m3": DTYPE_FP6_E2M3, "e2m1": torch.float4_e2m1fn_x2, "e1m2": None,
}
TORCH_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
TORCHAO_INPUTS = ("float32", "bfloat16")  # to_mx asserts bf16 or fp32 input


def make_input(name, n):
    """bench_mx's Input(): Gaussian times 2^((i/32) % 16 - 8), deterministic."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, generator=g, dtype=torch.float32)
    k = (torch.arange(n) // 32) % 16 - 8
    x = (x * torch.pow(2.0, k.to(torch.float32))).reshape(n // 1024, 1024).contiguous()
    if name == "bfloat16":  # truncation, as bench_mx
        return (x.view(torch.int32) >> 16).to(torch.int16).view(torch.bfloat16)
    return x.to(TORCH_DTYPES[name])


def time_per_call(fn, reps, min_time):
    """Median seconds per call over `reps` repetitions of a calibrated number of iterations."""
    for _ in range(2):
        fn()
    iters = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time:
            break
        iters = max(iters * 2, int(iters * min_time * 1.2 / max(dt, 1e-9)) + 1)
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        samples.append((time.perf_counter() - t0) / iters)
    return statistics.median(samples)


def run_bench_mx(path, inputs, sizes, reps, no_rep_movsb):
    """Runs bench_mx once for all needed names; returns {run_name: median seconds}."""
    filt = "^(memcpy/(%s)|quantize/(%s)->(%s))/(%s)/real_time$" % (
        "|".join(inputs), "|".join(inputs), "|".join(FORMATS), "|".join(map(str, sizes)))
    cmd = [path, "--benchmark_filter=" + filt, "--benchmark_format=json",
           "--benchmark_repetitions=%d" % reps, "--benchmark_report_aggregates_only=true"]
    env = dict(os.environ)
    if no_rep_movsb:
        env["GLIBC_TUNABLES"] = "glibc.cpu.x86_rep_movsb_threshold=4294967295"
    print("accelmath command: %s%s" % ("GLIBC_TUNABLES=%s " % env["GLIBC_TUNABLES"] if no_rep_movsb else "",
                                       " ".join(cmd[:1] + ["'%s'" % cmd[1]] + cmd[2:])), flush=True)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    data = json.loads(out)
    unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    med = {b["run_name"]: b["real_time"] * unit[b["time_unit"]]
           for b in data["benchmarks"] if b.get("aggregate_name") == "median"}
    return med, data.get("context", {})


def fmt_time(s):
    if s is None:
        return "n/a"
    for scale, u in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if s >= scale:
            return "%.3g %s" % (s / scale, u)
    return "%.3g ns" % (s / 1e-9)


def fmt_ratio(r):
    return "n/a" if r is None else "%.3g" % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", "build", "bench_mx"))
    ap.add_argument("--sizes", default="65536,16777216", help="comma-separated element counts (multiples of 1024)")
    ap.add_argument("--inputs", default="float32,bfloat16", help="comma-separated: float32,bfloat16,float16")
    ap.add_argument("--no-rep-movsb", action="store_true", help="bench_mx with glibc rep movsb off (see caveats)")
    ap.add_argument("--quick", action="store_true", help="3 repetitions of >= 0.05 s (default 5 of >= 0.2 s)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    inputs = args.inputs.split(",")
    assert all(n % 1024 == 0 for n in sizes) and all(i in TORCH_DTYPES for i in inputs)
    reps, min_time = (3, 0.05) if args.quick else (5, 0.2)

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    print("torch %s, torchao %s, python %s" % (torch.__version__, torchao.__version__, sys.version.split()[0]))
    print("torch threads: intra-op %d, inter-op %d; OMP_NUM_THREADS=%s; os.cpu_count()=%d" % (
        torch.get_num_threads(), torch.get_num_interop_threads(), os.environ.get("OMP_NUM_THREADS", "unset"),
        os.cpu_count()))
    print("python timing: median of %d reps, each >= %.2f s; torchao scaling_mode=FLOOR, block_size=32" % (reps, min_time))

    # accelmath first (its own process, single-threaded quantize), then torch: never concurrently.
    am, ctx = run_bench_mx(os.path.normpath(args.bench), inputs, sizes, reps, args.no_rep_movsb)
    print("bench_mx: %s CPUs @ %s MHz, library_build_type=%s" % (
        ctx.get("num_cpus"), ctx.get("mhz_per_cpu"), ctx.get("library_build_type")), flush=True)

    rows, anchors = [], []
    with torch.inference_mode():
        for inp in inputs:
            for n in sizes:
                x = make_input(inp, n)
                dst = torch.empty_like(x)
                t_copy = time_per_call(lambda: dst.copy_(x), reps, min_time)
                am_copy = am.get("memcpy/%s/%d/real_time" % (inp, n))
                anchors.append((inp, n, am_copy, t_copy))
                for f, elem in FORMATS.items():
                    t_ao = None
                    if elem is not None and inp in TORCHAO_INPUTS:
                        t_ao = time_per_call(lambda: to_mx(x, elem, block_size=32,
                                                           scaling_mode=ScaleCalculationMode.FLOOR), reps, min_time)
                    t_am = am.get("quantize/%s->%s/%d/real_time" % (inp, f, n))
                    rows.append((inp, f, n, t_am, t_ao,
                                 am_copy / t_am if am_copy and t_am else None,
                                 t_copy / t_ao if t_ao else None,
                                 t_ao / t_am if t_ao and t_am else None))
                    print("  %s->%s n=%d: accelmath %s, torchao %s" % (inp, f, n, fmt_time(t_am), fmt_time(t_ao)),
                          file=sys.stderr, flush=True)

    print("\n| input | format | n | accelmath / call | torchao / call | accelmath/memcpy | torchao/memcpy | accelmath vs torchao |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for inp, f, n, t_am, t_ao, r_am, r_ao, sp in rows:
        print("| %s | %s | %d | %s | %s | %s | %s | %s |" % (
            inp, f, n, fmt_time(t_am), fmt_time(t_ao), fmt_ratio(r_am), fmt_ratio(r_ao),
            "n/a" if sp is None else "%.1fx" % sp))
    print("\nmemcpy anchors (per call): " + "; ".join(
        "%s n=%d: bench_mx %s, torch copy_ %s" % (i, n, fmt_time(a), fmt_time(t)) for i, n, a, t in anchors))
    if any(a and (a > 2 * t or t > 2 * a) for _, _, a, t in anchors):
        print("WARNING: the bench_mx and torch memcpy anchors differ by > 2x, so the two x/memcpy columns are "
              "not comparable (see the glibc rep movsb caveat; try --no-rep-movsb)")


if __name__ == "__main__":
    main()
