"""Shared helpers of the CLI end-to-end tests: a PASS/FAIL line per check, and running the tool."""
import os
import stat
import struct
import subprocess

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def run(exe, *args, timeout=None):
    """(exit code, stdout, stderr); exit code None if the tool was killed after `timeout` seconds."""
    try:
        p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "(killed after %s s)" % timeout
    return p.returncode, p.stdout, p.stderr


def npy_bytes(header, data=b"", major=1):
    """A crafted .npy file: the magic, version `major`, the header text as given (padded with spaces
    and a newline to a multiple of 64 bytes, as NumPy does), then `data`."""
    pre = 10 if major == 1 else 12
    h = header.encode("latin1")
    h += b" " * ((64 - (pre + len(h) + 1) % 64) % 64) + b"\n"
    return b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<H" if major == 1 else "<I", len(h)) + h + data


def _state(path):
    """What is at `path`, without following a link: (kind, content)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", tuple(sorted(os.listdir(path))))
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", f.read(), st.st_ino)
    return ("other", st.st_mode, st.st_ino)


def check_refused(exe, args, word, what, watch=(), timeout=60):
    """The command exits 2 with one line on stderr that contains `word`, and leaves every path in
    `watch` (its outputs: prepared beforehand, or absent) exactly as it was, with no new file
    (a temporary) in their folders."""
    folders = {os.path.dirname(p) or "." for p in watch}
    folders = {d for d in folders if os.path.isdir(d)}
    before = {p: _state(p) for p in watch}
    listing = {d: sorted(os.listdir(d)) for d in folders}
    rc, _, err = run(exe, *args, timeout=timeout)
    lines = err.strip().splitlines()
    same = all(_state(p) == before[p] for p in watch) and all(sorted(os.listdir(d)) == listing[d] for d in folders)
    check(rc == 2 and len(lines) == 1 and word in lines[0] and same,
          f"{what}: exit {rc}, {lines}, outputs {'untouched' if same else 'CHANGED'}")


def _tasks_of(uid):
    """Processes and threads that `uid` runs now (what RLIMIT_NPROC counts)."""
    n = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat("/proc/" + pid).st_uid == uid:
                    n += len(os.listdir("/proc/%s/task" % pid))
            except OSError:
                pass
    return n


def run_limited(exe, *args, timeout=60, mem=None, nproc=None, stdout=None):
    """run() under limits: killed after `timeout` s (exit code None); at most `mem` bytes of address
    space; at most `nproc` processes and threads beyond those the user runs now (root, whom that
    limit does not bind, runs the tool as user nobody, who runs none); stdout into the file at path
    `stdout` (e.g. /dev/full) instead of captured. Exit code "skip" if the tool could not be started
    as nobody (a build folder that others cannot read)."""
    import resource
    limit = None
    if nproc is not None:
        limit = nproc if os.getuid() == 0 else _tasks_of(os.getuid()) + nproc

    # AddressSanitizer reserves terabytes of address space at start: under it (the sanitizer build's
    # tests set ACCELMATH_SANITIZER) the memory limit is left off; ASan itself catches runaway growth.
    if os.environ.get("ACCELMATH_SANITIZER"):
        mem = None

    def limits():
        if mem is not None:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        if limit is not None:
            if os.getuid() == 0:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))

    out = open(stdout, "w") if stdout else subprocess.PIPE
    try:
        p = subprocess.run([exe, *map(str, args)], stdout=out, stderr=subprocess.PIPE, text=True, timeout=timeout,
                           preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return None, "", "(killed after %s s)" % timeout
    except (PermissionError, subprocess.SubprocessError):
        return "skip", "", ""
    finally:
        if stdout:
            out.close()
    if limit is not None and p.returncode in (126, 127):
        return "skip", p.stdout or "", p.stderr
    return p.returncode, p.stdout or "", p.stderr


def check_usage_error(exe, args, words, what, outputs=(), timeout=60, mem=2 << 30):
    """The command exits 2 with exactly one line on stderr, containing every one of `words` (the
    option or file, the rule), and no file appears at any path of `outputs`. Killed after `timeout`
    s and held to `mem` bytes, so that a tool that would run or grow without end fails the check."""
    for o in outputs:
        if os.path.exists(o):
            os.remove(o)
    rc, _, err = run_limited(exe, *args, timeout=timeout, mem=mem)
    lines = err.strip().splitlines()
    made = [o for o in outputs if os.path.exists(o)]
    check(rc == 2 and len(lines) == 1 and all(w in lines[0] for w in words) and not made,
          f"{what}: exit {rc}, stderr {lines[:3]}{', wrote ' + str(made) if made else ''}")
