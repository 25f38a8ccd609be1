# SPDX-License-Identifier: GPL-2.0
"""leap-bench: shared helpers for the runner, the orchestrator and the report.

Only the Python standard library here: the runner must work on any
machine. The report's statistics (numpy) live in report.py.
"""
import gzip
import hashlib
import json
import os
import re
import signal
import subprocess
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


def c_source(here, name):
    """The C source of helper @name of the bench in @here
    (tools/leap-bench): src/NAME.c; the crowd is the selftests'
    leap_crowd.c, which the suite's group-share check runs too."""
    if name == "crowd":
        return os.path.join(here, "..", "testing", "selftests", "leap", "leap_crowd.c")
    return os.path.join(here, "src", f"{name}.c")


def hackbench_loop(groups):
    """The load of the latency workloads: `hackbench -g GROUPS -f 10`
    (processes, sockets) restarted until stop_load(); its own session."""
    return subprocess.Popen(
        ["sh", "-c", f"while :; do hackbench -s 100 -g {groups} -f 10 -l 1000 "
                     ">/dev/null 2>&1 || sleep 0.1; done"],
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_load(p):
    """Kill a load of hackbench_loop() (its whole session) and reap it."""
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass
    p.wait()


def read_steal():
    """Steal time in USER_HZ ticks, summed over CPUs (the `cpu` line)."""
    try:
        with open("/proc/stat") as fh:
            f = fh.readline().split()
        return int(f[8]) if len(f) > 8 else 0
    except OSError:
        return None


def read_config(path=None):
    """The running kernel's config text and where it came from:
    /proc/config.gz, else `path` (the build's .config, given by ab-run),
    else /boot/config-RELEASE; (None, "none") without any."""
    try:
        with gzip.open("/proc/config.gz", "rt") as fh:
            return fh.read(), "/proc/config.gz"
    except OSError:
        pass
    for f in (path, f"/boot/config-{os.uname().release}"):
        if f and os.path.isfile(f):
            with open(f) as fh:
                return fh.read(), f
    return None, "none"


# Options that belong to the choice of scheduler, not to the machine: the
# scheduler patches add them (LEAP: SCHED_LEAP, SKIPLIST; BORE:
# SCHED_BORE, MIN_BASE_SLICE_NS; Project C: SCHED_ALT, SCHED_PDS/BMQ) or
# hide them (group scheduling, core scheduling, uclamp, autogroup, NUMA
# balancing, PSI and sched_ext depend on the mainline class). The rest of
# the config must be the same for every kernel of a comparison.
SCHED_OPTS = re.compile(r"^(# )?CONFIG_(SCHED_\w+|SKIPLIST\w*|LEAP\w*|UCLAMP\w*|"
                        r"FAIR_GROUP_SCHED|RT_GROUP_SCHED|CFS_BANDWIDTH|GROUP_SCHED_\w+|"
                        r"EXT_GROUP_SCHED|NUMA_BALANCING\w*|PSI\w*|MIN_BASE_SLICE_NS|"
                        r"LOCALVERSION\w*)[ =]")


def config_facts(text):
    """{hash, base_hash, flavor, sched_options} of a config text: hash of
    all of it, hash without the scheduler's own options (SCHED_OPTS), the
    workbench flavour (kasan, debug = lockdep, else perf) and the
    scheduler options that are set."""
    if not text:
        return {"hash": None, "base_hash": None, "flavor": None, "sched_options": []}
    lines = [ln.strip() for ln in text.splitlines()]
    opts = [ln for ln in lines if ln.startswith("CONFIG_")]
    base = [ln for ln in lines if ln and (ln.startswith("CONFIG_") or ln.endswith("is not set"))
            and not SCHED_OPTS.match(ln)]
    setopts = set(opts)
    flavor = "kasan" if "CONFIG_KASAN=y" in setopts else \
        "debug" if "CONFIG_PROVE_LOCKING=y" in setopts else "perf"
    return {"hash": hashlib.sha256(text.encode()).hexdigest()[:16],
            "base_hash": hashlib.sha256("\n".join(sorted(base)).encode()).hexdigest()[:16],
            "flavor": flavor,
            "sched_options": sorted(ln for ln in opts if SCHED_OPTS.match(ln)
                                    and re.match(r"CONFIG_(SCHED_(LEAP|BORE|ALT|PDS|BMQ|EEVDF)"
                                                 r")=y", ln))}


def tree_version(src):
    """VERSION.PATCHLEVEL.SUBLEVEL of a Linux source tree's Makefile."""
    try:
        with open(os.path.join(src, "Makefile")) as fh:
            head = fh.read(2000)
    except OSError:
        return None
    v = [re.search(rf"^{k}\s*=\s*(\d*)", head, re.M) for k in
         ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    return ".".join(m.group(1) for m in v if m and m.group(1)) or None


def file_hash(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]


# The schedulers the runner tells apart, in the order it tries them: name,
# default label, the sysctls (kernel.*) that all must exist, the config
# options of which one suffices. Project C is refined by its variant.
SCHEDULERS = (
    ("LEAP", "leap", ("rr_interval", "iso_cpu"), ("SCHED_LEAP",)),
    ("EEVDF+BORE", "bore", ("sched_bore",), ("SCHED_BORE",)),
    ("Project C", "prjc", ("yield_type",), ("SCHED_ALT",)),
)
PRJC_VARIANTS = {"PDS": "pds", "BMQ": "bmq"}


def detect_scheduler(config_text=None):
    """The booted kernel's CPU scheduler, told by the kernel itself: the
    sysctls each scheduler adds and its config options (SCHEDULERS), else
    EEVDF. Returns (name, evidence)."""
    cfg = set((config_text or "").splitlines())
    for name, _, sysctls, opts in SCHEDULERS:
        ev = []
        if all(os.path.exists(f"/proc/sys/kernel/{f}") for f in sysctls):
            ev.append("sysctl " + " and ".join(f"kernel.{f}" for f in sysctls))
        ev += [f"CONFIG_{o}=y" for o in opts if f"CONFIG_{o}=y" in cfg]
        if not ev:
            continue
        if name == "Project C":
            for v in PRJC_VARIANTS:
                if f"CONFIG_SCHED_{v}=y" in cfg:
                    ev.append(f"CONFIG_SCHED_{v}=y")
                    name = f"Project C {v}"
        return name, ev
    return "EEVDF", ["none of the above" + ("" if cfg else " (no config to read)")]


DEFAULT_LABEL = {name: label for name, label, _, _ in SCHEDULERS}
DEFAULT_LABEL.update({f"Project C {v}": lab for v, lab in PRJC_VARIANTS.items()},
                     EEVDF="eevdf")


def expected_scheduler(label):
    """The scheduler a label names (its first word: stock, eevdf,
    mainline; leap; bore; pds, bmq, prjc), or None for a label that names
    none (then nothing is checked)."""
    word = re.split(r"[-_.+]", label.lower())[0]
    names = {lab: name for name, lab in DEFAULT_LABEL.items()}
    names.update(stock="EEVDF", mainline="EEVDF")
    return names.get(word)


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
