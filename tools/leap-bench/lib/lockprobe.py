# SPDX-License-Identifier: GPL-2.0
"""leap-bench lockprobe: a kprobe at the entry of the qspinlock slow path
(native_queued_spin_lock_slowpath, its lock's address in %di) and a
kretprobe at its return, as lock-wait and switch-trace trace them.
Interrupts or preemption are off between the two on one CPU (a
spinlock's slow path runs with preemption off), so each entry pairs
with the next return on its CPU: a stay covers the waiter's spinning
and any time the host takes its vCPU away. An uncontended lock never
enters the slow path and is not seen.

With stacks, a stacktrace trigger on the entry probe records each
waiter's kernel stack, and each stay names the function that took the
lock: the first frame past the slow path that is not the lock's own
code (the frames above the slow path are the probe's).

Parsing is O(events). Needs CONFIG_KPROBE_EVENTS and tracefs, as root;
stacks need CONFIG_STACKTRACE.
"""
import collections
import re

SLOWPATH = "native_queued_spin_lock_slowpath"
EVENTS = ("kprobes/lw_in", "kprobes/lw_out")
EVENT = re.compile(r"\[(\d+)\].*?\s(\d+\.\d+): lw_(in|out):(?:.*\slock=0x([0-9a-f]+))?")
STACK = re.compile(r"\[(\d+)\].*?\s\d+\.\d+: <stack trace>")
# Frames of the lock itself and of the probe, above the lock's taker.
NOT_TAKER = re.compile(r"(optimized_callback|kprobe\w*|0x[0-9a-f]+|\w*queued_spin_lock\w*|"
                       r"_raw_spin_\w*lock\w*|do_raw_spin_\w*|\w*raw_spin_rq_\w*lock\w*|"
                       r"rq_lock\w*|__task_rq_lock|task_rq_lock|double_rq_lock|"
                       r"_double_lock_balance|double_lock_balance)(\.\w+)*")


def setup(tw, stacks=False):
    """Define and enable the two probes, and with @stacks the entry's
    stacktrace trigger; @tw(name, text) writes a tracefs file. OSError
    if the kernel cannot (no CONFIG_KPROBE_EVENTS, or CONFIG_STACKTRACE
    for @stacks)."""
    # one write: tracefs files take no append-mode open (its seek)
    tw("kprobe_events", f"p:lw_in {SLOWPATH} lock=%di:x64\nr:lw_out {SLOWPATH}\n")
    if stacks:
        tw(f"events/{EVENTS[0]}/trigger", "stacktrace")
    for e in EVENTS:
        tw(f"events/{e}/enable", "1")


def teardown(tw, stacks=False):
    """Disable and remove the two probes (and the trigger of @stacks)."""
    for e in EVENTS:
        tw(f"events/{e}/enable", "0")
    if stacks:
        tw(f"events/{EVENTS[0]}/trigger", "!stacktrace")
    tw("kprobe_events", "")


def taker(frames):
    """The function that took the lock: of @frames (innermost first), the
    first past the slow path's own that is not the lock's code (the
    frames before the slow path are the probe's, and the unwinder may
    put a stale one among them); "?" if none."""
    fs = [f.split("+", 1)[0].strip() for f in frames]
    if SLOWPATH in fs:
        fs = fs[fs.index(SLOWPATH) + 1:]
    for f in fs:
        if f and not NOT_TAKER.fullmatch(f):
            return f
    return "?"


def stays(lines, stacks=False):
    """Each CPU's stays in the slow path in the trace @lines: cpu ->
    [(entry, return, lock address)], times in s; with @stacks a fourth
    member, the lock's taker (taker() of the stack that followed the
    entry on its CPU; "?" without one)."""
    open_, res = {}, collections.defaultdict(list)
    frames = None
    for line in lines:
        if line.startswith(" => "):
            if frames is not None:
                frames.append(line[4:])
            continue
        frames = None
        m = EVENT.search(line)
        if not m:
            m = STACK.search(line) if stacks else None
            if m and int(m[1]) in open_:
                frames = open_[int(m[1])][2]
            continue
        cpu, ts = int(m[1]), float(m[2])
        if m[3] == "in":
            if m[4]:
                open_[cpu] = (ts, int(m[4], 16), [])
        elif cpu in open_:
            t0, a, st = open_.pop(cpu)
            res[cpu].append((t0, ts, a, taker(st)) if stacks else (t0, ts, a))
    return res
