"""bench_math --ab=LIB and bench/ab.py: another build of the library (here a copy of this one, a file of
its own, so the dynamic loader maps it a second time) timed beside this build in one run; a path that
is not a build of the library is a one-line error with exit 2; ab.py --vs ANCHOR times an anchor instead,
--this accelmath_scalar our per-element functions.

Usage: test_bench_ab.py BENCH_MATH_EXE LIBACCELMATH SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cli_util import check, failures, run


def main():
    exe, lib, source = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "libaccelmath-other.so")
        shutil.copyfile(lib, copy)
        rc, out, err = run(exe, f"--ab={copy}", "--benchmark_filter=^(exp|sincos)/accelmath(_ab)?/1024$",
                           "--benchmark_min_time=0.001", timeout=300)
        check(rc == 0, f"bench_math --ab=COPY exits 0 (got {rc}: {err.strip()[-300:]})")
        for row in ("exp/accelmath/1024", "exp/accelmath_ab/1024", "sincos/accelmath/1024", "sincos/accelmath_ab/1024"):
            check(re.search(r"^" + re.escape(row) + r"\s.*items_per_second=", out, re.M) is not None, f"a timed row {row}")

        for bad, word in ((os.path.join(tmp, "missing.so"), "missing.so"), (os.path.join(tmp, "not-a-library.so"), "not-a-library.so")):
            if word == "not-a-library.so":
                with open(bad, "w") as f:
                    f.write("not an ELF file\n")
            rc, out, err = run(exe, f"--ab={bad}", "--benchmark_filter=^exp/accelmath/1024$", timeout=300)
            # Other lines may come before it: "MKL not found ..." where MKL is absent.
            lines = [line for line in err.strip().splitlines() if "--ab=" in line]
            check(rc == 2 and len(lines) == 1 and word in lines[0],
                  f"--ab={word}: exit 2 and one line naming it (got {rc}: {err.strip()[-300:]})")
        # A shared library that is not the library's build: its registry is missing.
        libm = next((p for p in ("/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
                                 "/lib64/libm.so.6", "/usr/lib64/libm.so.6") if os.path.exists(p)), None)
        if libm:
            rc, out, err = run(exe, f"--ab={libm}", "--benchmark_filter=^exp/accelmath/1024$", timeout=300)
            check(rc == 2 and "not a build of accelmath" in err, f"--ab=libm: exit 2, not a build of accelmath (got {rc})")

        script = os.path.join(source, "bench", "ab.py")
        p = subprocess.run([sys.executable, script, "--ab", copy, "--exe", exe, "--filter", "exp", "--repetitions", "3",
                            "--min-time", "0.001", "--sizes", "1024"], capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"bench/ab.py exits 0 (got {p.returncode}: {p.stderr.strip()[-300:]})")
        m = re.search(r"^exp\s+1024\s+(\d+)\s+(\d+)\s+(\d+\.\d+)$", p.stdout, re.M)
        check(m is not None and float(m.group(1)) > 0 and float(m.group(2)) > 0, "bench/ab.py prints exp's row with both builds' speed")
        if m:
            ratio = float(m.group(1)) / float(m.group(2))
            check(abs(ratio - float(m.group(3))) < 0.01, "its ratio is this / other")
        # --vs: an anchor in place of another build (glibc's scalar expf: always there).
        p = subprocess.run([sys.executable, script, "--vs", "glibc", "--exe", exe, "--filter", "exp", "--repetitions", "3",
                            "--min-time", "0.001", "--sizes", "1024"], capture_output=True, text=True, timeout=300)
        m = re.search(r"^exp\s+1024\s+(\d+)\s+(\d+)\s+(\d+\.\d+)$", p.stdout, re.M)
        check(p.returncode == 0 and m is not None and "other: glibc" in p.stdout, "bench/ab.py --vs glibc prints exp's row")
        # --this accelmath_scalar: the per-element functions (accelmath::scalar::expf's loop) against glibc's.
        p = subprocess.run([sys.executable, script, "--this", "accelmath_scalar", "--vs", "glibc", "--exe", exe, "--filter",
                            "exp", "--repetitions", "3", "--min-time", "0.001", "--sizes", "1024"],
                           capture_output=True, text=True, timeout=300)
        m = re.search(r"^exp\s+1024\s+(\d+)\s+(\d+)\s+(\d+\.\d+)$", p.stdout, re.M)
        check(p.returncode == 0 and m is not None and "accelmath_scalar; other: glibc" in p.stdout,
              "bench/ab.py --this accelmath_scalar --vs glibc prints exp's row")
        p = subprocess.run([sys.executable, script, "--this", "accelmath_scalar", "--ab", copy, "--exe", exe],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 2 and "--this" in p.stderr, "bench/ab.py --this with --ab: a usage error")
        p = subprocess.run([sys.executable, script, "--exe", exe, "--filter", "exp"], capture_output=True, text=True, timeout=300)
        check(p.returncode == 2 and "--ab" in p.stderr, "bench/ab.py without --ab or --vs: a usage error")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
