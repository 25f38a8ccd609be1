# SPDX-License-Identifier: GPL-2.0
"""leap-bench lockprobe: a kprobe at the entry of the qspinlock slow path
(native_queued_spin_lock_slowpath, its lock's address in %di) and a
kretprobe at its return, as lock-wait and switch-trace trace them.
Interrupts or preemption are off between the two on one CPU (a
spinlock's slow path runs with preemption off), so each entry pairs
with the next return on its CPU: a stay covers the waiter's spinning
and any time the host takes its vCPU away. An uncontended lock never
enters the slow path and is not seen.

Parsing is O(events). Needs CONFIG_KPROBE_EVENTS and tracefs, as root.
"""
import collections
import re

SLOWPATH = "native_queued_spin_lock_slowpath"
EVENTS = ("kprobes/lw_in", "kprobes/lw_out")
EVENT = re.compile(r"\[(\d+)\].*?\s(\d+\.\d+): lw_(in|out):(?:.*\slock=0x([0-9a-f]+))?")


def setup(tw):
    """Define and enable the two probes; @tw(name, text) writes a tracefs
    file. OSError if the kernel cannot (no CONFIG_KPROBE_EVENTS)."""
    # one write: tracefs files take no append-mode open (its seek)
    tw("kprobe_events", f"p:lw_in {SLOWPATH} lock=%di:x64\nr:lw_out {SLOWPATH}\n")
    for e in EVENTS:
        tw(f"events/{e}/enable", "1")


def teardown(tw):
    """Disable and remove the two probes."""
    for e in EVENTS:
        tw(f"events/{e}/enable", "0")
    tw("kprobe_events", "")


def stays(lines):
    """Each CPU's stays in the slow path in the trace @lines: cpu ->
    [(entry, return, lock address)], times in s."""
    open_, res = {}, collections.defaultdict(list)
    for line in lines:
        m = EVENT.search(line)
        if not m:
            continue
        cpu, ts = int(m[1]), float(m[2])
        if m[3] == "in":
            if m[4]:
                open_[cpu] = (ts, int(m[4], 16))
        elif cpu in open_:
            t0, a = open_.pop(cpu)
            res[cpu].append((t0, ts, a))
    return res
