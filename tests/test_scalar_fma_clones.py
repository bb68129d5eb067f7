"""The per-element API's fma clones (src/dispatch/scalar.cc: x86-64, GCC) reach no call to libm's fma.

Each function of accelmath::scalar and each scalar-lane array loop is compiled twice, for the
default target and for CPUs with FMA; a kernel function left out of line is compiled once, for
the default target, so that in the fma clone every fma in it is a call to libm's fma (the same
bits, several times slower). This disassembles the library (objdump) and follows every call from
each fma clone through the library's own functions (also through its PLT: the library calls its
exported templates there); any path to fma@plt or fmaf@plt fails, naming the clone. It fails on
the library before the scalar lane was forced inline (30 of the 71 per-element functions and 52 of
the loops reached libm's fma). Exit 77 (skipped) where the library has no fma clones.

Usage: test_scalar_fma_clones.py LIBACCELMATH
"""
import re
import shutil
import subprocess
import sys

from cli_util import check, failures


def main():
    lib = sys.argv[1]
    objdump = shutil.which("objdump")
    if objdump is None:
        print("skipped: no objdump")
        return 77
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", lib], capture_output=True, text=True, check=True).stdout
    calls, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            cur = m.group(1)
            calls[cur] = []
            continue
        m = re.search(r"\scall\s+[0-9a-f]+ <(.*)>", line)
        if m and cur is not None:
            calls[cur].append(m.group(1))
    clones = [f for f in calls if f.endswith(".fma")]
    if not clones:
        print("skipped: the library has no fma clones (not an x86-64 GCC build)")
        return 77
    bad = []
    for clone in clones:
        seen, stack = set(), list(calls[clone])
        while stack:
            c = stack.pop()
            if c in seen:
                continue
            seen.add(c)
            if c in ("fma@plt", "fmaf@plt"):
                bad.append(clone)
                break
            own = c[:-4] if c.endswith("@plt") else c
            if own in calls and not own.endswith(".fma"):
                stack.extend(calls[own])
    # Every function compiled with clones has both: the default clone's name with .fma for .default.
    defaults = {f[: -len(".default")] for f in calls if f.endswith(".default")}
    check(defaults and defaults == {f[: -len(".fma")] for f in clones},
          f"{len(clones)} fma clones, one per default clone ({len(defaults)}: the per-element functions and loops)")
    check(not bad, f"no fma clone reaches libm's fma (reach it: {len(bad)}, e.g. {bad[:3]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
