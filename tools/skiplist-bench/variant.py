#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate a node-layout variant of the skip list for the benchmark.

  variant.py NAME TOP OUTDIR

reads TOP/include/linux/skiplist.h and TOP/kernel/sched/skiplist.c and
writes OUTDIR/linux/skiplist.h and OUTDIR/skiplist.c, changed only as
NAME says. Used by the layout experiment of "make bench", nowhere else.

  split    prev out of struct skiplist_link into its own array after
           link[]: key, level, link[16] {next, next_key}, prev[16]
  nocache  searches compare through the pointer (next->key) instead of
           the copy in the link (the copy is still kept, just not read)
"""
import os
import re
import sys

name, top, out = sys.argv[1:4]
h = open(os.path.join(top, "include/linux/skiplist.h")).read()
c = open(os.path.join(top, "kernel/sched/skiplist.c")).read()


def sub(text, old, new, count=1):
    if text.count(old) != count:
        sys.exit("variant.py %s: pattern not found %d times: %r" % (name, count, old[:50]))
    return text.replace(old, new)


if name == "split":
    h = sub(h, "\tu64\t\t\tnext_key;\n\tstruct skiplist_node\t*prev;\n};",
            "\tu64\t\t\tnext_key;\n};")
    h = sub(h, "\tstruct skiplist_link\tlink[SKIPLIST_LEVELS];\n};",
            "\tstruct skiplist_link\tlink[SKIPLIST_LEVELS];\n"
            "\tstruct skiplist_node\t*prev[SKIPLIST_LEVELS];\n};")
    h = re.sub(r"link\[(\w+)\]\.prev", r"prev[\1]", h)
    c = re.sub(r"link\[(\w+)\]\.prev", r"prev[\1]", c)
elif name == "nocache":
    c = sub(c, "while (link->next_key <= key) {", "while (link->next->key <= key) {", 2)
else:
    sys.exit("variant.py: unknown variant " + name)

os.makedirs(os.path.join(out, "linux"), exist_ok=True)
open(os.path.join(out, "linux/skiplist.h"), "w").write(h)
open(os.path.join(out, "skiplist.c"), "w").write(c)
