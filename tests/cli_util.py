"""Shared helpers of the CLI end-to-end tests: a PASS/FAIL line per check, and running the tool."""
import subprocess

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def run(exe, *args):
    p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
