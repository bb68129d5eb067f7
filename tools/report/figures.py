#!/usr/bin/env python3
"""The figures of `accelmath report --out DIR`, and DIR/report.md around them.

The CLI writes the data (DIR/report.txt and DIR/data/) and runs this script, built into it, as
`python3 - DIR EXE_DIR`; `python3 tools/report/figures.py DIR [EXE_DIR]` redraws from the same data.
Needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib); SciPy is an optional anchor.

Figures (PNG, 100 dpi, sizes fixed here and checked by tests/test_report_figures.py):
  fig/accuracy-<f>.png   1100 x 420  per one-result function: max ulp error per binade of |x|, for
                                     x > 0 and x < 0, accelmath and every anchor that runs here, the
                                     bound as a line (reference: the oracle's binary64 tier)
  fig/speed.png          1400 x 900  accelmath / anchor throughput ratio per function at 1K and 64K
                                     elements, one thread, from bench_math's run (when it is built)
  fig/mx.png             1100 x 420  MX round-trip relative RMSE per format (Gaussian, Student t(2))
                                     and quantize/dequantize bandwidth against memcpy, from the text
  fig/atomic.png         1000 x (60 + 22 per row)  the float16 boundary table with pass marks
"""
import csv
import ctypes
import json
import os
import re
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 100
ACCURACY_SIZE = (11.0, 4.2)
SPEED_SIZE = (14.0, 9.0)
MX_SIZE = (11.0, 4.2)
ATOMIC_WIDTH = 10.0
ATOMIC_ROW = 0.22  # inches per table row (the header counts as one); plus 0.6 for the title
CLIP_ULP = 3.0     # errors above (and wrong classes, e.g. NaN for a number) are drawn here, or at
                   # 1.5 x the bound where that is higher
COLORS = {"accelmath": "#1f4e9c", "glibc": "#d9822b", "sleef_u10": "#3a9a4a", "mkl_ha": "#c23b3b",
          "numpy": "#8a5fbf", "scipy": "#6b6b6b", "libmvec": "#b8a21e", "hwy": "#2fa3b5",
          "boost": "#a0522d"}


# ---- ulp errors (as tools/accuracy/oracle.cc ulp_error_f32) ------------------------------------
def ulp_f32(r):
    """2^(floor(log2 |r|) - 23), at least 2^-149; 2^104 at and above 2^128."""
    a = np.abs(r)
    _, e = np.frexp(np.where(a > 0, a, 1.0))
    u = np.ldexp(1.0, (e - 1 - 23).astype(np.int64))
    u = np.where(a > 0, u, 2.0 ** -149)
    return np.clip(u, 2.0 ** -149, 2.0 ** 104)


def ulp_error(y, r):
    """|y - r| in float32 ulps of r; 0 for the same non-finite class, inf for a different class."""
    y = y.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(y - r) / ulp_f32(r)
        # y = +-inf against a finite r: the rounding overflowed, y stands for 2^128
        over = np.isinf(y) & np.isfinite(r)
        err = np.where(over, np.where(np.sign(y) == np.sign(r),
                                      np.maximum(2.0 ** 128 - np.abs(r), 0) / 2.0 ** 104, np.inf), err)
        err = np.where(np.isnan(y) & ~np.isnan(r), np.inf, err)
        err = np.where(np.isnan(r), np.where(np.isnan(y), 0.0, np.inf), err)
        err = np.where(np.isinf(r), np.where(y == r, 0.0, np.inf), err)
    return err


# ---- the anchors (those that run in this process) -------------------------------------------------
def load(name):
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def scalar_fn(lib, symbol):
    f = getattr(lib, symbol, None) if lib else None
    if f is None:
        return None
    f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
    return lambda x: np.array([f(float(v)) for v in x], dtype=np.float32)


def find_mkl(exe_dir):
    dirs = [os.environ["ACCELMATH_MKL_LIB_DIR"]] if os.environ.get("ACCELMATH_MKL_LIB_DIR") else []
    dirs.append(os.path.join(exe_dir, "mkl"))
    for d in dirs:
        need = ["libmkl_rt.so.3", "libmkl_core.so.3", "libmkl_sequential.so.3", "libmkl_intel_lp64.so.3"]
        if all(os.access(os.path.join(d, n), os.R_OK) for n in need):
            os.environ["MKL_THREADING_LAYER"] = "SEQUENTIAL"
            return load(os.path.join(d, "libmkl_rt.so.3"))
    return None


def anchors(row, libs):
    """{label: f(x float32 array) -> float32 array} for one registry row."""
    name, libm, mkl = row["name"], row["libm"], row["mkl"]
    out = {}
    if libm:
        f = scalar_fn(libs["libm"], libm)
        if f:
            out["glibc"] = f
    sleef = {"sinpi": "Sleef_sinpif_u05", "cospi": "Sleef_cospif_u05"}.get(name, f"Sleef_{libm}_u10" if libm else "")
    if sleef:
        f = scalar_fn(libs["sleef"], sleef)
        if f:
            out["sleef_u10"] = f
    if mkl and libs["mkl"] is not None:
        vm = getattr(libs["mkl"], "vms" + mkl, None)
        if vm is not None:
            vm.restype = None
            vm.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]

            def run(x, vm=vm):
                x = np.ascontiguousarray(x, dtype=np.float32)
                y = np.empty_like(x)
                vm(len(x), x.ctypes.data, y.ctypes.data, 0x2)  # VML_HA
                return y
            out["mkl_ha"] = run
    numpy_fns = {"exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
                 "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tan": np.tan}
    if name in numpy_fns:
        def run_numpy(x, f=numpy_fns[name]):
            with np.errstate(all="ignore"):
                return f(x.astype(np.float32))
        out["numpy"] = run_numpy
    sp = libs["scipy"]
    if sp is not None:
        scipy_fns = {"ndtri": sp.ndtri, "exp10": sp.exp10, "exp2": sp.exp2, "expm1": sp.expm1, "log1p": sp.log1p,
                     "fresnel_s": lambda x: sp.fresnel(x)[0], "fresnel_c": lambda x: sp.fresnel(x)[1]}
        if name in scipy_fns:
            def run_scipy(x, f=scipy_fns[name]):
                with np.errstate(all="ignore"):
                    return np.asarray(f(x.astype(np.float32))).astype(np.float32)
            out["scipy"] = run_scipy
    return out


# ---- figures ----------------------------------------------------------------------------------------
def binned_max(x, err):
    """Max error per (sign, binade of |x|): arrays [2, 277] over floor(log2 |x|) = -149 .. 127."""
    _, e = np.frexp(np.abs(x))
    b = (e - 1 + 149).astype(np.int64)
    s = (np.signbit(x)).astype(np.int64)
    m = np.full((2, 277), np.nan)
    ok = ~np.isnan(err)
    for sign in (0, 1):
        sel = ok & (s == sign)
        if sel.any():
            np.fmax.at(m[sign], b[sel], err[sel])
    return m


def accuracy_figure(row, data, libs, figdir):
    x, ref, ours = data[:, 0], data[:, 1], data[:, 2].astype(np.float32)
    xf = x.astype(np.float32)
    defined = ~np.isnan(ref)  # outside the domain (NaN results) is not drawn
    results = {"accelmath": ours}
    if data.shape[1] > 3:  # Boost.Math's float function, run by the CLI (C++ templates)
        results["boost"] = data[:, 3].astype(np.float32)
    for label, f in anchors(row, libs).items():
        try:
            results[label] = f(xf)
        except Exception as e:  # an anchor that fails here is left out, with the reason in report.md
            print(f"figures: {row['name']}: anchor {label} failed: {e}", file=sys.stderr)
    fig, axes = plt.subplots(1, 2, figsize=ACCURACY_SIZE, dpi=DPI, sharey=True)
    binade = np.arange(-149, 128)
    bound = float(row["bound"])
    top = max(CLIP_ULP, 1.5 * bound)
    summary = {}
    for label, y in results.items():
        err = np.where(defined, ulp_error(y, ref), np.nan)
        summary[label] = float(np.nanmax(err)) if np.any(defined) else float("nan")
        m = binned_max(x, err)
        for sign, ax in enumerate(axes):
            ax.plot(binade, np.minimum(m[sign], top), "-", lw=1.8 if label == "accelmath" else 1.0,
                    color=COLORS.get(label), label=label, zorder=3 if label == "accelmath" else 2)
    for sign, ax in enumerate(axes):
        ax.axhline(bound, color="black", ls="--", lw=1, label=f"bound {bound:g} ulp")
        ax.set_ylim(0, top * 1.04)
        ax.set_xlim(-150, 128)
        ax.set_xlabel("log2 |x| (binade)")
        ax.set_title(f"{row['name']}(x), x {'>' if sign == 0 else '<'} 0")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("max ulp error in the binade")
    axes[1].legend(loc="upper left", fontsize=8, ncol=3)
    fig.suptitle(f"{row['name']}: 64 inputs per binade, both signs; reference: the oracle (binary64 tier)\n"
                 f"errors above {top:g} ulp or of the wrong class (NaN for a number...) drawn at {top:g}; "
                 "no line: NaN results there", fontsize=9)
    fig.subplots_adjust(left=0.06, right=0.98, top=0.83, bottom=0.13, wspace=0.05)
    path = os.path.join(figdir, f"accuracy-{row['name']}.png")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path, summary


def speed_figure(bench, figdir):
    """Ratios accelmath / anchor per function (and input set) at 1K and 64K from bench_math's JSON."""
    ctx = bench.get("context", {})
    rates = {}
    for b in bench.get("benchmarks", []):
        parts = b["name"].split("/")
        if len(parts) != 3 or "items_per_second" not in b:
            continue
        rates[(parts[0], parts[1], int(parts[2]))] = b["items_per_second"]
    cases = ctx.get("functions", "").split(",") if ctx.get("functions") else sorted({k[0] for k in rates})
    labels = [lb for lb in ["mkl_ha", "sleef_u10", "libmvec", "glibc", "hwy"] if any(k[1] == lb for k in rates)]
    alone = [c for c in cases if not any(k[0] == c and k[1] in labels for k in rates)]  # no anchor has it
    cases = [c for c in cases if c not in alone]
    fig, axes = plt.subplots(2, 1, figsize=SPEED_SIZE, dpi=DPI, sharex=True)
    width = 0.8 / max(1, len(labels))
    for ax, n in zip(axes, (1024, 65536)):
        for j, lb in enumerate(labels):
            xs, ys = [], []
            for i, c in enumerate(cases):
                ours, theirs = rates.get((c, "accelmath", n)), rates.get((c, lb, n))
                if ours and theirs:
                    xs.append(i + (j - (len(labels) - 1) / 2) * width)
                    ys.append(ours / theirs)
            ax.bar(xs, ys, width=width, color=COLORS.get(lb), label=f"vs {lb}")
        ax.axhline(1.0, color="black", lw=1)
        ax.set_yscale("log")
        ax.set_ylabel(f"accelmath / anchor, n = {n // 1024}K")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[1].set_xticks(range(len(cases)))
    axes[1].set_xticklabels(cases, rotation=60, ha="right", fontsize=8)
    axes[0].legend(loc="upper right", fontsize=8, ncol=len(labels))
    target = ctx.get("hwy_target", "?")
    fig.suptitle(f"Throughput ratio accelmath / anchor (> 1: accelmath faster), one thread, same run; SIMD target: "
                 f"accelmath {target}, anchors {ctx.get('simd_anchor_width', '?')}\nMKL: "
                 f"{ctx.get('mkl', '?')[:90]}", fontsize=9)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.92, bottom=0.14, hspace=0.08)
    path = os.path.join(figdir, "speed.png")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path, alone, ctx


def parse_mx(text):
    memcpy = re.search(r"vs memcpy of the input \(([\d.]+) GB/s", text)
    rows = []
    for m in re.finditer(r"^(e\dm\d)\s+([\d.e+-]+)\s+([\d.e+-]+)\s+(\w+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$",
                         text, re.M):
        rows.append({"format": m[1], "gauss": float(m[2]), "t2": float(m[3]), "model": m[4],
                     "quant": float(m[5]), "dequant": float(m[7])})
    return rows, float(memcpy[1]) if memcpy else None


def mx_figure(rows, memcpy, figdir):
    fig, (a, b) = plt.subplots(1, 2, figsize=MX_SIZE, dpi=DPI)
    names = [r["format"] for r in rows]
    i = np.arange(len(rows))
    a.bar(i - 0.2, [r["gauss"] for r in rows], 0.4, label="Gaussian", color="#1f4e9c")
    a.bar(i + 0.2, [r["t2"] for r in rows], 0.4, label="Student t(2)", color="#d9822b")
    a.set_xticks(i)
    a.set_xticklabels(names)
    a.set_ylabel("round-trip relative RMSE")
    a.set_title("MX round trip (axis -1, block 32, rint, OCP scale)", fontsize=9)
    a.legend(fontsize=8)
    a.grid(True, axis="y", alpha=0.3)
    b.bar(i - 0.2, [r["quant"] for r in rows], 0.4, label="quantize", color="#3a9a4a")
    b.bar(i + 0.2, [r["dequant"] for r in rows], 0.4, label="dequantize", color="#8a5fbf")
    if memcpy:
        b.axhline(memcpy, color="black", ls="--", lw=1, label=f"memcpy {memcpy:g} GB/s")
        b.set_ylim(0, memcpy * 1.3)
    b.set_xticks(i)
    b.set_xticklabels(names)
    b.set_ylabel("GB/s (float32 side), one thread")
    b.set_title("MX bandwidth, float32 [1024, 1024] (from cache)", fontsize=9)
    b.legend(fontsize=8, loc="upper left", ncol=3)
    b.grid(True, axis="y", alpha=0.3)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.9, bottom=0.1, wspace=0.25)
    path = os.path.join(figdir, "mx.png")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def atomic_size(n_rows):
    return ATOMIC_WIDTH, 0.6 + ATOMIC_ROW * (n_rows + 1)


def atomic_figure(rows, figdir):
    w, h = atomic_size(len(rows))
    fig = plt.figure(figsize=(w, h), dpi=DPI)
    ax = fig.add_axes([0.01, 0.01, 0.98, 1 - 0.6 / h - 0.01])
    ax.axis("off")
    cols = ["op", "a", "b", "inf/nan mode", "pass", "saturation mode", "pass"]
    cells, colors = [], []
    for r in rows:
        ok1, ok2 = r["pass_inf_nan"] == "1", r["pass_saturation"] == "1"
        cells.append([r["op"], r["operand_a"], r["operand_b"], r["result_inf_nan_mode"], "\u2713" if ok1 else "\u2717",
                      r["result_saturation_mode"], "\u2713" if ok2 else "\u2717"])
        good, bad = "#d8f0d8", "#f6cccc"
        colors.append(["white"] * 4 + [good if ok1 else bad, "white", good if ok2 else bad])
    t = ax.table(cellText=cells, colLabels=cols, cellColours=colors, loc="upper center", cellLoc="center",
                 colWidths=[0.08, 0.17, 0.21, 0.17, 0.05, 0.17, 0.05])
    t.auto_set_font_size(False)
    t.set_fontsize(8)
    t.scale(1, 1.0)
    for (i, _), c in t.get_celld().items():
        c.set_height(ATOMIC_ROW / (h - 0.6) * (1 - 0.01 * h))
    passed = sum(r["pass_inf_nan"] == "1" and r["pass_saturation"] == "1" for r in rows)
    fig.suptitle(f"float16 atomic boundary table (published) vs the library: {passed}/{len(rows)} rows pass "
                 "(each operand pair in both orders)", fontsize=9, y=1 - 0.15 / h)
    path = os.path.join(figdir, "atomic.png")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


# ---- report.md ------------------------------------------------------------------------------------
def main(argv):
    if len(argv) < 2:
        print("usage: figures.py DIR [EXE_DIR]", file=sys.stderr)
        return 2
    root = argv[1]
    exe_dir = argv[2] if len(argv) > 2 else "."
    data, figdir = os.path.join(root, "data"), os.path.join(root, "fig")
    os.makedirs(figdir, exist_ok=True)
    text = open(os.path.join(root, "report.txt")).read()
    with open(os.path.join(data, "functions.csv")) as f:
        rows = list(csv.DictReader(f))
    try:
        import scipy.special as sp
    except ImportError:
        sp = None
    libs = {"libm": load("libm.so.6"), "sleef": load("libsleef.so.3"), "mkl": find_mkl(exe_dir), "scipy": sp}
    machine = dict(line.strip().split("=", 1) for line in open(os.path.join(data, "machine.txt")) if "=" in line)
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")

    md = ["# accelmath report", "",
          f"Machine: {cpu}; accelmath dispatched to Highway {machine.get('hwy_target', '?')}. "
          "Generated by `accelmath report --out DIR` (figures: tools/report/figures.py).", "",
          "## The text report", "", "```text", text.rstrip(), "```", "", "## Accuracy", "",
          "Max error in float32 ulps per binade of |x| (64 random inputs in each binade, both signs), against "
          "the function's oracle (its binary64 tier: tools/accuracy/oracles.def). Anchors run here: glibc's float "
          "function, SLEEF's scalar u10 (u05 for sinpi/cospi), Intel MKL VM in HA mode when its libraries are found "
          "($ACCELMATH_MKL_LIB_DIR, or `mkl/` beside the CLI: bench/fetch_mkl.sh), NumPy's float32 ufunc and SciPy "
          "where they have the function, and Boost.Math's float function (run by the CLI) for sinpi, cospi, expm1, "
          "log1p and ndtri (its normal quantile). "
          "The exhaustive numbers (every float32) are in docs/accuracy.md.", ""]
    for row in rows:
        shape = row.get("shape", "Unary")
        if shape == "UnaryPair":
            md += [f"- **{row['name']}**: two results, bit-identical to its parts (the text report checks it).", ""]
            continue
        if row.get("inputs", "1") != "1" or shape == "Rows":
            what = "rows" if shape == "Rows" else f"{row['inputs']} inputs"
            md += [f"- **{row['name']}**: {what}, no per-binade figure (the text report measures it on its "
                   "structured sample, as `accelmath sweep` does).", ""]
            continue
        if shape != "Unary" or float(row["bound"]) == 0:
            md += [f"- **{row['name']}**: exact, no per-binade figure (the text report and `accelmath sweep` check "
                   "every result bit for bit against its reference).", ""]
            continue
        path = os.path.join(data, f"{row['name']}.accuracy.npy")
        if not os.path.exists(path):
            continue
        png, summary = accuracy_figure(row, np.load(path), libs, figdir)
        worst = ", ".join(f"{k} {v:.3g}" if np.isfinite(v) else f"{k} wrong class somewhere"
                          for k, v in summary.items())
        md += [f"### {row['name']}", "", f"![{row['name']}](fig/{os.path.basename(png)})", "",
               f"Max ulp over the sample: {worst} (bound {float(row['bound']):g}).", ""]

    md += ["## Speed", ""]
    bench_path = os.path.join(data, "bench.json")
    if os.path.exists(bench_path):
        png, alone, ctx = speed_figure(json.load(open(bench_path)), figdir)
        md += [f"![speed](fig/{os.path.basename(png)})", "",
               f"bench_math in the same run as the anchors, at 1K and 64K elements, one thread, 0.02 s per case "
               f"(bench/math_ratios.py runs the longer, repeated measurement of docs/performance.md). "
               f"accelmath on Highway {ctx.get('hwy_target', '?')}; MKL: {ctx.get('mkl', '?')}, "
               f"{ctx.get('mkl_vm_library', 'no VM library loaded')}. "
               f"No anchor has {', '.join(alone) if alone else '(none missing)'}.", ""]
    else:
        md += ["Not measured: bench_math is not beside this `accelmath` (it is built in the build tree, not "
               "installed); run the report from the build tree for the throughput figure.", ""]

    md += ["## MX block quantization", ""]
    mx_rows, memcpy = parse_mx(text)
    if mx_rows:
        png = mx_figure(mx_rows, memcpy, figdir)
        md += [f"![mx](fig/{os.path.basename(png)})", "", "From the text report's MX table above.", ""]

    md += ["## Atomics", ""]
    with open(os.path.join(data, "atomic-rows.csv")) as f:
        arows = list(csv.DictReader(f))
    if arows:
        png = atomic_figure(arows, figdir)
        md += [f"![atomic](fig/{os.path.basename(png)})", "",
               "Each row of the published float16 table (tests/data/atomic/atomic-boundary.csv), every operand "
               "listed, in both orders, through the library's array API.", ""]
    with open(os.path.join(root, "report.md"), "w") as f:
        f.write("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
