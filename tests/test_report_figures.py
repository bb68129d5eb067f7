"""`accelmath report --out DIR`: report.md and every PNG figure it names, each a valid image of the
size tools/report/figures.py documents, not blank; the data behind the accuracy figures complete;
a folder that cannot be written is a one-line error with exit 2.

Usage: test_report_figures.py ACCELMATH_EXE SOURCE_DIR
"""
import os
import re
import struct
import sys
import tempfile
import zlib

import numpy as np

from cli_util import check, failures, run

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the IHDR chunk, after checking the signature and the chunk CRCs."""
    with open(path, "rb") as f:
        blob = f.read()
    if not blob.startswith(PNG_SIGNATURE):
        return None
    pos, size, idat = 8, None, b""
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos:pos + 4])
        kind, body = blob[pos + 4:pos + 8], blob[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", blob[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return None
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    zlib.decompress(idat)  # raises on a corrupt image
    return size


def main():
    exe, source = sys.argv[1], sys.argv[2]
    # The sizes tools/report/figures.py promises (100 dpi): fixed, except the atomic table's height,
    # 0.6 in + 0.22 in per row of the published table plus its header.
    with open(os.path.join(source, "tests/data/atomic/atomic-boundary.csv")) as f:
        atomic_rows = sum(1 for line in f if line.strip()) - 1
    expected = {"mx.png": (1100, 420), "atomic.png": (1000, round(100 * (0.6 + 0.22 * (atomic_rows + 1))))}
    if os.access(os.path.join(os.path.dirname(exe), "bench_math"), os.X_OK):  # the speed figure needs it
        expected["speed.png"] = (1400, 900)
    _, listing, _ = run(exe, "list")
    # Columns: function, family, shape, signature, driver, eval, bound, ...; a figure per function of
    # one input and one float result (shape Unary) with oracle tiers: not the exact ones (bound 0),
    # which are checked bit for bit against a reference instead.
    one_result = [ln.split()[0] for ln in listing.splitlines()[1:]
                  if ln.split() and ln.split()[2] == "Unary" and float(ln.split()[6]) != 0]
    check(len(one_result) >= 10, f"`accelmath list` names the one-input, one-result functions ({len(one_result)})")
    for name in one_result:
        expected[f"accuracy-{name}.png"] = (1100, 420)

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r")
        rc, stdout, stderr = run(exe, "report", "--out", out)
        check(rc == 0, f"report --out exits 0 (got {rc}; stderr tail: {stderr[-300:]!r})")
        check("accelmath report: every math function" in stdout, "the text report is printed as without --out")
        md_path = os.path.join(out, "report.md")
        check(os.path.exists(md_path), "report.md is written")
        md = open(md_path).read() if os.path.exists(md_path) else ""
        named = re.findall(r"!\[[^\]]*\]\(fig/([^)]+)\)", md)
        check(sorted(named) == sorted(expected), f"report.md shows exactly the expected figures ({len(named)})")
        for name, size in expected.items():
            path = os.path.join(out, "fig", name)
            got = png_size(path) if os.path.exists(path) else None
            check(got == size, f"{name}: a valid PNG of {size[0]}x{size[1]} (got {got})")
        import matplotlib.image  # decodes every pixel: a blank (one-colour) figure fails
        for name in expected:
            path = os.path.join(out, "fig", name)
            if os.path.exists(path):
                img = matplotlib.image.imread(path)
                check(img.std() > 0.05, f"{name} is not blank (pixel std {img.std():.3f})")
        # The accuracy data: 64 inputs in every binade of both signs (fewer where a subnormal binade
        # holds fewer: 1, 2, 4, 8, 16, 32 values), the oracle and the library's results.
        per_sign = (1 + 2 + 4 + 8 + 16 + 32) + 64 * (277 - 6)
        for name in one_result:
            path = os.path.join(out, "data", f"{name}.accuracy.npy")
            a = np.load(path) if os.path.exists(path) else np.zeros((0, 3))
            x = a[:, 0] if len(a) else a
            check(a.shape[0] == 2 * per_sign and a.shape[1] in (3, 4) and len(np.unique(x)) == 2 * per_sign,
                  f"{name}: {2 * per_sign} distinct sample inputs, 3 or 4 columns (got {a.shape})")
        # Each function's line under its figure: accelmath's max error over the sample within its bound.
        bounds = {ln.split()[0]: float(ln.split()[6]) for ln in listing.splitlines()[1:] if ln.split()}
        for name, worst in re.findall(r"### (\S+)\n\n.*?\n\nMax ulp over the sample: accelmath ([0-9.e+-]+)", md):
            check(float(worst) <= bounds[name], f"{name}: accelmath's max over the sample {worst} <= {bounds[name]}")

        rc, _, stderr = run(exe, "report", "--out", "/proc/accelmath-cannot-write-here")
        check(rc == 2 and stderr.count("\n") == 1 and "--out" in stderr,
              f"an unwritable --out: exit 2 and one line naming it (got {rc}, {stderr!r})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
