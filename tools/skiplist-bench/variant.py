#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a layout variant of include/linux/skiplist.h (stdin -> stdout).

prevfirst: struct skiplist_node with prev[] before link[]; everything else
unchanged. Used only by the benchmark's layout experiment.
"""
import sys

src = sys.stdin.read()
nxt = "\tstruct skiplist_link\tlink[SKIPLIST_LEVELS];\n"
prv = "\tstruct skiplist_node\t*prev[SKIPLIST_LEVELS];\n"
if sys.argv[1] == "prevfirst":
    if nxt + prv not in src:
        sys.exit("variant.py: struct skiplist_node layout not found")
    src = src.replace(nxt + prv, prv + nxt)
else:
    sys.exit("variant.py: unknown variant " + sys.argv[1])
sys.stdout.write(src)
