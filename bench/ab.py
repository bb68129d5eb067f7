#!/usr/bin/env python3
"""This build of the library against another one, function by function, in one process: build/bench_math
--ab=LIB times each row's array function from both builds (the other loaded with RTLD_DEEPBIND, so its
kernels and dispatch are its own) in many short repetitions in random interleaved order, and this script
keeps the best (highest) throughput of each, and prints their ratio. On a shared or virtual machine whose
speed drifts by 10-20% from one second to the next, medians of long repetitions move by as much as the
change being measured; the best of many short ones, interleaved, moves much less: the same build against
a copy of itself came within 2.5% on every row timed (sin, sincos, tan, sinpi and their @huge sets, with
AVX3 and with the AVX2 code forced on that AVX-512 CPU, a Zen 5 guest, 2026-12-07; not measured on
Intel, on an AVX2-only CPU or on Arm).

Two checks before believing a ratio: the noise floor (this build against a copy of itself), and the
builds swapped, the other one linked instead (LD_LIBRARY_PATH=DIR python3 bench/ab.py --ab COPY, DIR
holding the other build as libaccelmath.so.0.1, COPY a copy of this one). Where code placement matters
the two disagree: on that Zen 5, sincos@huge of one and the same build ran 864-907 Melem/s where it was
the linked library and 1050-1072 where it was the loaded copy, while sin, sincos and tan kept within 1%.

    cp -L build/libaccelmath.so.0.1 /tmp/before.so      # before the change; rebuild after it
    python3 bench/ab.py --ab /tmp/before.so --filter sin,cos [--targets avx2,avx512] [--repetitions 60]

Ratios > 1: this build (the libaccelmath bench_math links: build/'s) is faster.

`--vs mkl_ha` (or another anchor of bench_math: sleef_u10, libmvec, hwy, glibc) in place of `--ab` times
this build against that anchor the same way, e.g. `MKL_THREADING_LAYER=SEQUENTIAL python3 bench/ab.py
--vs mkl_ha --filter ndtri --targets avx2,avx512`: the best of each side, where bench/math_ratios.py gives
medians. `--this accelmath_scalar --vs glibc` times this build's per-element functions
(accelmath/scalar.h, in the loop glibc's are called in) against the C library's instead.
"""
import argparse

from bench_util import run_json


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--ab", help="the other build's libaccelmath.so (a copy, not the file build/ links)")
    who.add_argument("--vs", choices=["mkl_ha", "sleef_u10", "libmvec", "hwy", "glibc"],
                     help="an anchor of bench_math instead of another build, timed the same way")
    p.add_argument("--this", default="accelmath", choices=["accelmath", "accelmath_scalar"],
                   help="with --vs: this build's array functions (default) or its per-element ones "
                        "(accelmath/scalar.h in a loop, e.g. --this accelmath_scalar --vs glibc)")
    p.add_argument("--exe", default="build/bench_math")
    p.add_argument("--filter", default="", help="comma-separated functions (f also times f@label)")
    p.add_argument("--targets", default="", help="comma-separated: avx2, avx512 (default: the CPU's widest)")
    p.add_argument("--repetitions", type=int, default=60)
    p.add_argument("--min-time", default="0.01")
    p.add_argument("--sizes", default="65536", help="comma-separated element counts among 1024, 65536, 16777216")
    args = p.parse_args()
    if args.ab and args.this != "accelmath":
        p.error("--this applies to --vs (--ab times the array functions of both builds)")
    this = args.this
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    names = "|".join(f.strip() for f in args.filter.split(",") if f.strip()) or "[^/]+"
    for target in [t.strip() for t in args.targets.split(",") if t.strip()] or [None]:
        other = "accelmath_ab" if args.ab else args.vs
        cmd = [args.exe, "--benchmark_format=json", f"--benchmark_repetitions={args.repetitions}",
               f"--benchmark_min_time={args.min_time}", "--benchmark_enable_random_interleaving=true",
               f"--benchmark_filter=^({names})(@[a-z0-9]+)?/({this}|{other})/({'|'.join(sizes)})$"]
        if args.ab:
            cmd.insert(1, f"--ab={args.ab}")
        if target:
            cmd.insert(1, f"--target={target}")
        data = run_json(cmd)
        best = {}
        for b in data["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            fn, impl, n = b["run_name"].split("/")
            key = (fn, int(n))
            best.setdefault(key, {})
            best[key][impl] = max(best[key].get(impl, 0.0), b["items_per_second"] / 1e6)
        ctx = data["context"]
        what = ctx.get("accelmath_ab", args.ab) if args.ab else args.vs + (
            f" ({ctx.get('mkl_vm_library', '?')})" if args.vs == "mkl_ha" else "")
        print(f"target {ctx.get('accelmath_target', '?')} (Highway {ctx.get('hwy_target', '?')}); this build: "
              f"{args.exe}'s {this}; other: {what}; best of {args.repetitions} interleaved "
              f"repetitions of {args.min_time} s, Melem/s")
        print(f"{'function':24s} {'n':>9s} {'this':>9s} {'other':>9s} {'this/other':>10s}")
        order = ctx.get("functions", "").split(",")
        for (fn, n), r in sorted(best.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order else len(order), kv[0][1])):
            if this in r and other in r:
                print(f"{fn:24s} {n:9d} {r[this]:9.0f} {r[other]:9.0f} {r[this] / r[other]:10.3f}")
            else:
                print(f"{fn:24s} {n:9d} (the other has no such row, or it failed bench_math's check)")
        print()


if __name__ == "__main__":
    main()
