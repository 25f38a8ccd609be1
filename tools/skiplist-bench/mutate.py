#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a deliberately broken copy of the skip list.

  mutate.py NAME TOP OUTDIR

reads TOP/include/linux/skiplist.h and TOP/kernel/sched/skiplist.c and
writes OUTDIR/linux/skiplist.h and OUTDIR/skiplist.c with one bug in
one of them. The fuzz test must catch each mutant: a test that cannot
fail proves nothing.

  fifo       insert puts equal keys before each other (LIFO), and
             insert_head after them
  shrink     the top level never shrinks after deletes
  prev       delete forgets to fix link[].prev on level 1 and up
  nextkey    insert forgets to update the predecessor's copy of the next key
  findorder  skiplist_find_first() lets a later segment's match win
  findstop   skiplist_find_first() stops at the first match of any segment
  none       no bug: the control, built and run as the mutants are, which
             must pass (else a mutant's failure proves nothing)
"""
import os
import sys

MUTANTS = {
    "fifo": ("c", "\tbound = head ? key : key + 1;", "\tbound = head ? key + 1 : key;"),
    "shrink": ("c", "\t\t\tsl->level--;", "\t\t\tbreak;"),
    "prev": ("c", "\t\tnext->link[i].prev = prev;",
             "\t\tif (!i)\n\t\t\tnext->link[i].prev = prev;"),
    "nextkey": ("c", "\t\tlink->next_key = key;\n", ""),
    "findorder": ("h", "\t\tif (w->seq < f->found_seq) {", "\t\tif (1) {"),
    "findstop": ("h", "\t\tif (unlikely(f.found_seq == 0))", "\t\tif (f.found)"),
}

name, top, out = sys.argv[1:4]
h = open(os.path.join(top, "include/linux/skiplist.h")).read()
c = open(os.path.join(top, "kernel/sched/skiplist.c")).read()
if name != "none":
    where, old, new = MUTANTS[name]
    src = h if where == "h" else c
    if src.count(old) != 1:
        sys.exit("mutate.py: pattern for %s not found once" % name)
    src = src.replace(old, new)
    if where == "h":
        h = src
    else:
        c = src
os.makedirs(os.path.join(out, "linux"), exist_ok=True)
open(os.path.join(out, "linux/skiplist.h"), "w").write(h)
open(os.path.join(out, "skiplist.c"), "w").write(c)
