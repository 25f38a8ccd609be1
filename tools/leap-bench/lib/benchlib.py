# SPDX-License-Identifier: GPL-2.0
"""leap-bench: shared helpers for the runner, the orchestrator and the report.

Only the Python standard library here: the runner must work on any
machine. The report's statistics (numpy) live in report.py.
"""
import gzip
import hashlib
import json
import os
import sys
import time

SCHEMA = "leap-bench/1"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


PREFIX = "[leap-bench]"


def log(msg):
    """One progress line, flushed (the orchestrator streams it)."""
    sys.stdout.write(f"{PREFIX} {msg}\n")
    sys.stdout.flush()


def fmt_secs(s):
    s = int(max(0, s))
    return f"{s // 60}:{s % 60:02d}"


def read_steal():
    """Steal time in USER_HZ ticks, summed over CPUs (the `cpu` line)."""
    try:
        with open("/proc/stat") as fh:
            f = fh.readline().split()
        return int(f[8]) if len(f) > 8 else 0
    except OSError:
        return None


def config_hash():
    """sha256[:16] of /proc/config.gz's text, or None without it."""
    try:
        with gzip.open("/proc/config.gz", "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()[:16]
    except OSError:
        return None


def file_hash(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]


def detect_scheduler():
    """The booted kernel's CPU scheduler, told by the sysctls it adds."""
    if os.path.exists("/proc/sys/kernel/rr_interval"):
        return "LEAP"
    if os.path.exists("/proc/sys/kernel/sched_bore"):
        return "EEVDF+BORE"
    if os.path.exists("/proc/sys/kernel/yield_type"):
        return "Project C"
    return "EEVDF"


def load_results(paths):
    """All result JSON files under the given files/directories."""
    out = []
    for p in paths:
        if os.path.isfile(p):
            files = [p]
        else:
            files = []
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names
                          if n.startswith("result") and n.endswith(".json")]
        for f in sorted(files):
            with open(f) as fh:
                r = json.load(fh)
            if r.get("schema") == SCHEMA:
                r["_file"] = f
                out.append(r)
    return out


def now():
    return time.monotonic()
