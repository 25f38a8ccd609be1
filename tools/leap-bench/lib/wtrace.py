# SPDX-License-Identifier: GPL-2.0
"""leap-bench: where a cyclictest wakeup's latency goes, from a trace.

Shared by tools/leap-bench/wakeup-trace (the instrument, with its tables
and --compare) and the runner's wakeup-sched-* workloads (the same split
as benchmark metrics). Five trace events (timer:hrtimer_start,
timer:hrtimer_expire_entry, sched:sched_waking, sched:sched_wakeup,
sched:sched_switch) split each wakeup of a cyclictest measuring thread
into:

  timer   the timer interrupt's lateness: hrtimer_expire_entry's `now`
          less the sleep's soft expiry (hrtimer_start's `softexpires`,
          the time cyclictest asked for), both on the hrtimer's clock;
          no scheduler is involved yet;
  wake    from the expiry handler's entry to sched_waking of the thread;
  sched   from sched_waking to the sched_switch that runs the thread:
          the scheduler's part (the runqueue lock, the choice of a CPU,
          the preemption or its deferral, the pick, the IPI), itself
          split at sched_wakeup (the task queued and the preemption
          decided) into
    enqueue   sched_waking to sched_wakeup: the locks, the choice of a
              CPU, queueing, and whom to preempt;
    switch    sched_wakeup to the switch: the IPI, the wait for the
              running task to reach a preemption point, the pick.

Cost: parse() is O(events) time and O(threads) memory; summarize() sorts,
O(w log w) for w wakeups. Tracing: 8 MiB of buffer a CPU. Only the
Python standard library. No locking: one tracer at a time (tracefs is
global; the caller owns it while it runs).
"""
import collections
import os
import re
import subprocess
import threading
import time

import benchlib as bl

TRACEFS = "/sys/kernel/tracing"
EVENTS = ("timer/hrtimer_start", "timer/hrtimer_expire_entry",
          "sched/sched_waking", "sched/sched_wakeup", "sched/sched_switch")
FILTERS = {
    "sched/sched_waking": 'comm == "cyclictest"',
    "sched/sched_wakeup": 'comm == "cyclictest"',
    "sched/sched_switch": 'next_comm == "cyclictest"',
}
LINE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+(?:\(\s*\S+\)\s+)?\[(?P<cpu>\d+)\]"
                  r"\s+\S+\s+(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s+(?P<rest>.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")
PARTS = ("timer", "wake", "sched", "total")


class NoTrace(Exception):
    """The kernel has no tracefs (CONFIG_FTRACE off) or we are not root."""


def fields(rest):
    return dict(FIELD.findall(rest))


def parse(lines, main_pid):
    """Wakeups of cyclictest's measuring threads from trace lines: a list
    of {timer, wake, sched, total, enqueue (us; None without its
    sched_wakeup), cross (bool: another CPU ran it), prev (what that CPU
    ran before it, the comm less any "/N"), left (how that task left the
    CPU: "preempted" if still runnable, "blocked" if it slept, "idle")}.
    The main thread (@main_pid) sleeps too and is left out."""
    armed = {}      # hrtimer pointer -> (pid, soft expiry ns)
    pending = {}    # pid -> the wakeup under way
    out = []
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        ev, ts = m.group("ev"), float(m.group("ts"))
        f = fields(m.group("rest"))
        if ev == "hrtimer_start":
            pid = int(m.group("pid"))
            if (m.group("comm") == "cyclictest" and pid != main_pid and
                    f.get("function") == "hrtimer_wakeup"):
                armed[f["hrtimer"]] = (pid, int(f["softexpires"]))
        elif ev == "hrtimer_expire_entry":
            a = armed.pop(f.get("hrtimer"), None)
            if a:
                pending[a[0]] = {"timer": (int(f["now"]) - a[1]) / 1e3, "t_irq": ts,
                                 "cpu_irq": int(m.group("cpu"))}
        elif ev == "sched_waking":
            w = pending.get(int(f.get("pid", -1)))
            if w and "t_wake" not in w:
                w["t_wake"] = ts
        elif ev == "sched_wakeup":
            w = pending.get(int(f.get("pid", -1)))
            if w and "t_wake" in w and "t_woken" not in w:
                w["t_woken"] = ts
        elif ev == "sched_switch":
            pid = int(f.get("next_pid", -1))
            w = pending.get(pid)
            if w and "t_wake" in w:
                del pending[pid]
                s = {"timer": max(w["timer"], 0.0),
                     "wake": (w["t_wake"] - w["t_irq"]) * 1e6,
                     "sched": (ts - w["t_wake"]) * 1e6,
                     "enqueue": ((w["t_woken"] - w["t_wake"]) * 1e6
                                 if "t_woken" in w else None),
                     "cross": int(m.group("cpu")) != w["cpu_irq"],
                     "prev": f.get("prev_comm", "?").split("/")[0],
                     "left": left(f)}
                s["total"] = s["timer"] + s["wake"] + s["sched"]
                out.append(s)
    return out


def left(f):
    """How the task a sched_switch's fields @f name left the CPU: the
    idle task, one still runnable (prev_state R, R+: the scheduler took
    the CPU from it), or one that slept (S, D, ...: the CPU was free only
    then; no preemption came first)."""
    if f.get("prev_pid") == "0":
        return "idle"
    return "preempted" if f.get("prev_state", "").startswith("R") else "blocked"


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


def quants(xs):
    """p50, p99, p99.9 and max of @xs (not empty)."""
    return {"p50": quantile(xs, 50), "p99": quantile(xs, 99),
            "p99.9": quantile(xs, 99.9), "max": max(xs)}


def summarize(samples):
    """Quantiles of each part and of sched's enqueue (None if no wakeup
    had its sched_wakeup), the parts' shares of the slowest 1 %,
    enqueue's share of the slowest 1 % of sched, and the ten slowest
    scheduler parts one by one; None for no samples."""
    if not samples:
        return None
    res = {"n": len(samples), "cross_pct": 100.0 * sum(s["cross"] for s in samples) /
           len(samples)}
    for p in PARTS:
        res[p] = quants([s[p] for s in samples])
    xs = [s["enqueue"] for s in samples if s["enqueue"] is not None]
    res["enqueue"] = quants(xs) if xs else None
    cut = res["total"]["p99"]
    tail = [s for s in samples if s["total"] >= cut]
    tot = sum(s["total"] for s in tail) or 1.0
    res["tail"] = {"n": len(tail), "cross_pct": 100.0 * sum(s["cross"] for s in tail) /
                   len(tail)}
    for p in PARTS[:3]:
        res["tail"][p + "_pct"] = 100.0 * sum(s[p] for s in tail) / tot
        res["tail"][p + "_mean"] = sum(s[p] for s in tail) / len(tail)
    cut = res["sched"]["p99"]
    slow = [s for s in samples if s["sched"] >= cut]
    res["sched_tail"] = {"n": len(slow), "mean": sum(s["sched"] for s in slow) / len(slow),
                         "prev": dict(collections.Counter(s["prev"] for s in slow)),
                         "left": dict(collections.Counter(s["left"] for s in slow))}
    # the ten slowest, one by one: p99.9 is a few wakeups in a run
    res["sched_slowest"] = [{k: s[k] for k in ("sched", "enqueue", "prev", "left", "cross")}
                            for s in sorted(samples, key=lambda s: -s["sched"])[:10]]
    enq = [s for s in slow if s["enqueue"] is not None]
    res["sched_tail"]["enqueue_pct"] = (100.0 * sum(s["enqueue"] for s in enq) /
                                        (sum(s["sched"] for s in enq) or 1.0)
                                        if enq else None)
    return res


def metrics(res):
    """The bench's metrics of a summarize() result (us): the scheduler's
    part at p50, p99 and p99.9, its enqueue at p99 (None without
    sched_wakeup events), the timer's lateness at p50 and p99, and the
    wakeup's own part and the total at p50 (where a median that differs
    lies when the scheduler's part does not)."""
    m = {f"sched_{q}": res["sched"][q] for q in ("p50", "p99", "p99.9")}
    m["enqueue_p99"] = res["enqueue"]["p99"] if res["enqueue"] else None
    m["timer_p50"] = res["timer"]["p50"]
    m["timer_p99"] = res["timer"]["p99"]
    m["wake_p50"] = res["wake"]["p50"]
    m["total_p50"] = res["total"]["p50"]
    return m


def tw(name, val):
    with open(os.path.join(TRACEFS, name), "w") as fh:
        fh.write(val)


def setup(events=EVENTS, filters=FILTERS, kb=8192):
    """Trace @events (the five above unless told), with @filters, into an
    empty @kb-KiB-a-CPU buffer, tracing still off (on(True) starts it).
    Raises NoTrace without tracefs."""
    if not os.path.exists(os.path.join(TRACEFS, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=False,
                       stderr=subprocess.DEVNULL)
    if not os.path.exists(os.path.join(TRACEFS, "trace")) or os.geteuid() != 0:
        raise NoTrace("no tracefs at /sys/kernel/tracing: a kernel with CONFIG_FTRACE=y "
                      "(the perf and debug flavours have it), run as root")
    tw("tracing_on", "0")
    tw("set_event", "")
    tw("buffer_size_kb", str(kb))
    tw("trace", "")
    for e in events:
        if e in filters:
            tw(f"events/{e}/filter", filters[e])
        tw(f"events/{e}/enable", "1")


def on(yes):
    tw("tracing_on", "1" if yes else "0")


def read():
    """The trace's lines, and whether the buffer lost events."""
    with open(os.path.join(TRACEFS, "trace")) as fh:
        lines = fh.readlines()
    return lines, any("LOST" in x for x in lines[:200])


def teardown(events=EVENTS, filters=FILTERS):
    """Tracing off, the events and their filters as before setup()."""
    on(False)
    for e in events:
        tw(f"events/{e}/enable", "0")
        if e in filters:
            tw(f"events/{e}/filter", "0")
    tw("trace", "")


def traced_cyclictest(cmd, groups, seconds):
    """Run cyclictest @cmd, traced, under benchlib's hackbench loop of
    @groups groups: its wakeups (parse()), whether the buffer lost
    events, and cyclictest's exit status. A timer kills a cyclictest that
    runs ten times its @seconds and two minutes. Raises NoTrace."""
    setup()
    load = bl.hackbench_loop(groups)
    try:
        time.sleep(0.5)
        on(True)
        cyc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        # a blocking wait: Popen.wait(timeout) polls, and its wakeups
        # would be among the tasks the trace measures against
        guard = threading.Timer(120 + seconds * 10, cyc.kill)
        guard.start()
        try:
            rc = cyc.wait()
        finally:
            guard.cancel()
        on(False)
        lines, lost = read()
    finally:
        teardown()
        bl.stop_load(load)
    return parse(lines, cyc.pid), lost, rc
