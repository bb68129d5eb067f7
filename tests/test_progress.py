#!/usr/bin/env python3
"""The progress display of the long-running commands (src/cli/progress.h) on stderr.

Usage: test_progress.py ACCELMATH pipe|tty
  pipe: stderr is a pipe: plain lines, no carriage returns, a final line with the rate; periodic
        lines (ACCELMATH_PROGRESS_INTERVAL shortens the 10 s period); --quiet prints nothing;
        stdout carries no progress.
  tty:  stderr is a pseudo-terminal: one line rewritten in place with "\\r", then the final line.
"""
import os
import pty
import re
import subprocess
import sys

from cli_util import check, failures

EXE, MODE = sys.argv[1], sys.argv[2]

# "sweep exp: 16777216 inputs in 2.1 s, 8.03 M inputs/s"
FINAL = r"{label}: (\d+) {unit} in [0-9.]+ s, [0-9.]+( [kMGT])? {unit}/s"
# "sweep exp   42.7%  7168000 / 16777216 inputs  8.03 M inputs/s  0.9 s elapsed, ~1.2 s left"
PERIODIC = r"{label} +[0-9.]+%  \d+ / (\d+) {unit}  [0-9.]+( [kMGT])? {unit}/s  \S+ s elapsed, \S+ s left"


def run(*args, env=None):
    p = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def final_line(err, label, unit):
    lines = err.splitlines()
    return re.fullmatch(FINAL.format(label=re.escape(label), unit=unit), lines[-1]) if lines else None


def pipe_tests():
    cases = [
        (["sweep", "exp", "--sample", 20000, "--threads", 2], "sweep exp", "inputs"),
        (["mx-sweep", "--dst", "e2m1", "--round", "rint", "--sample", 70000, "--threads", 2], "mx-sweep e2m1 rint",
         "inputs"),
        (["atomic-sweep", "--dtype", "half", "--sample", 20000, "--threads", 2], "atomic-sweep half", "pairs"),
        (["oracle-check", "exp", "--samples", 2000], "oracle-check exp", "inputs"),
    ]
    for args, label, unit in cases:
        name = " ".join(map(str, args[:1]))
        rc, out, err = run(*args)
        check(rc == 0, f"{name}: exit 0 (got {rc}; stderr {err!r})")
        check("\r" not in err, f"{name}: no carriage return when stderr is a pipe")
        m = final_line(err, label, unit)
        check(m is not None, f"{name}: the last stderr line is the final line with the rate ({err.splitlines()[-1:]!r})")
        check(m is None or int(m.group(1)) > 0, f"{name}: the final line counts the {unit}")
        check(f" {unit}/s" not in out and "elapsed" not in out, f"{name}: no progress on stdout")
        rc_q, out_q, err_q = run(*args, "--quiet")
        check(rc_q == 0 and err_q == "", f"{name} --quiet: no progress (stderr {err_q!r})")
        check(len(out_q.splitlines()) == len(out.splitlines()), f"{name} --quiet: the same stdout lines")

    # sweep --all names each function and its place among them.
    rc, out, err = run("sweep", "--all", "--sample", 1000, "--threads", 2)
    lines = err.splitlines()
    check(rc == 0, "sweep --all: exit 0")
    # (a function of several inputs counts pairs, triples, quadruples; of rows, rows)
    units = "(?:inputs|pairs|triples|quadruples|rows)"
    check(len(lines) > 1 and all(re.fullmatch(FINAL.format(label=r"sweep \S+ \[\d+/\d+\]", unit=units), l)
                                 for l in lines), f"sweep --all: one final line per function ({lines[:2]!r})")
    check(bool(lines) and re.search(rf"\[{len(lines)}/{len(lines)}\]", lines[-1]) is not None,
          "sweep --all: the last line is function n of n")

    # Periodic plain lines: a run of about a second (ndtri is among the slowest) with a 0.1 s period.
    env = dict(os.environ, ACCELMATH_PROGRESS_INTERVAL="0.1")
    rc, _, err = run("sweep", "ndtri", "--sample", 2000000, "--threads", 1, env=env)
    lines = err.splitlines()
    periodic = [l for l in lines if re.fullmatch(PERIODIC.format(label="sweep ndtri", unit="inputs"), l)]
    check(rc == 0 and "\r" not in err, "periodic: exit 0, no carriage return")
    check(len(periodic) >= 2, f"periodic: at least 2 plain progress lines ({len(periodic)}: {lines[:3]!r})")
    check(final_line(err, "sweep ndtri", "inputs") is not None, "periodic: then the final line")
    # Without the variable the period is 10 s: only the final line for a short run.
    env = {k: v for k, v in os.environ.items() if k != "ACCELMATH_PROGRESS_INTERVAL"}
    rc, _, err = run("sweep", "exp", "--sample", 20000, "--threads", 2, env=env)
    check(len(err.splitlines()) == 1, f"default period: a short run prints just the final line ({err!r})")


def tty_tests():
    # stderr on a pseudo-terminal, stdout a pipe; a run of a second or two, so that the 0.5 s
    # ticker rewrites the line at least once.
    master, slave = pty.openpty()
    p = subprocess.Popen([EXE, "sweep", "ndtri", "--sample", "3000000", "--threads", "1"], stdout=subprocess.PIPE,
                         stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    out = p.stdout.read().decode()
    rc = p.wait()
    err = b"".join(chunks).decode()
    check(rc == 0, f"tty: exit 0 (got {rc})")
    inplace = re.findall(r"\r(sweep ndtri +[0-9.]+%  \d+ / \d+ inputs  [^\r\n]* inputs/s  [^\r\n]* left)", err)
    check(len(inplace) >= 1, f"tty: the progress line is rewritten in place with \\r ({err[:200]!r})")
    # The terminal turns "\n" into "\r\n"; the final line overwrites the progress line.
    last = err.replace("\r\n", "\n").rstrip("\n").split("\n")[-1].split("\r")[-1].rstrip()
    check(re.fullmatch(FINAL.format(label="sweep ndtri", unit="inputs"), last) is not None,
          f"tty: the final line with the rate ({last!r})")
    check("\r" not in out and " inputs/s" not in out and "elapsed" not in out, "tty: no progress on stdout")


if MODE == "pipe":
    pipe_tests()
elif MODE == "tty":
    tty_tests()
else:
    sys.exit(f"usage: {sys.argv[0]} ACCELMATH pipe|tty")
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
