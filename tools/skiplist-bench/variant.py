#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate a node-layout variant of the skip list for the benchmark.

  variant.py NAME TOP OUTDIR

reads TOP/include/linux/skiplist.h and TOP/kernel/sched/skiplist.c and
writes OUTDIR/linux/skiplist.h and OUTDIR/skiplist.c, changed only as
NAME says. Used by the layout experiment of "make bench", nowhere else.

  prevfirst    prev[] before link[] in struct skiplist_node
  interleaved  prev folded into struct skiplist_link: {next, next_key, prev}
               per level, so a node of level <= 1 fits in one cache line
"""
import os
import re
import sys

name, top, out = sys.argv[1:4]
h = open(os.path.join(top, "include/linux/skiplist.h")).read()
c = open(os.path.join(top, "kernel/sched/skiplist.c")).read()
LINK = "\tstruct skiplist_link\tlink[SKIPLIST_LEVELS];\n"
PREV = "\tstruct skiplist_node\t*prev[SKIPLIST_LEVELS];\n"


def sub(text, old, new):
    if text.count(old) != 1:
        sys.exit("variant.py %s: pattern not found once: %r" % (name, old[:50]))
    return text.replace(old, new)


if name == "prevfirst":
    h = sub(h, LINK + PREV, PREV + LINK)
elif name == "interleaved":
    h = sub(h, "\tu64\t\t\tnext_key;\n};",
            "\tu64\t\t\tnext_key;\n\tstruct skiplist_node\t*prev;\n};")
    h = sub(h, LINK + PREV, LINK)
    h = re.sub(r"prev\[(\w+)\]", r"link[\1].prev", h)
    c = re.sub(r"prev\[(\w+)\]", r"link[\1].prev", c)
    # whole-link copies would now copy prev too: copy next and next_key only
    c = sub(c, "\t\tnode->link[i] = *link;\n",
            "\t\tnode->link[i].next = link->next;\n"
            "\t\tnode->link[i].next_key = link->next_key;\n")
    c = sub(c, "\t\tprev->link[i] = node->link[i];\n",
            "\t\tprev->link[i].next = node->link[i].next;\n"
            "\t\tprev->link[i].next_key = node->link[i].next_key;\n")
else:
    sys.exit("variant.py: unknown variant " + name)

os.makedirs(os.path.join(out, "linux"), exist_ok=True)
open(os.path.join(out, "linux/skiplist.h"), "w").write(h)
open(os.path.join(out, "skiplist.c"), "w").write(c)
