#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a deliberately broken kernel/sched/skiplist.c (stdin -> stdout).

The fuzz test must catch each mutant; this proves that it can fail.
  fifo    equal keys go before each other instead of after (LIFO)
  shrink  the top level never shrinks after deletes
  prev    delete forgets to fix prev[] on level 1 and up
  nextkey insert forgets to update the predecessor's copy of the next key
"""
import sys

MUTANTS = {
    "fifo": ("while ((link = &cur->link[i])->next_key <= key)",
             "while ((link = &cur->link[i])->next_key < key)"),
    "shrink": ("\t\t\tsl->level--;", "\t\t\tbreak;"),
    "prev": ("\t\tnode->link[i].next->prev[i] = prev;",
             "\t\tif (!i)\n\t\t\tnode->link[i].next->prev[i] = prev;"),
    "nextkey": ("\t\t\tlink->next_key = key;", ""),
}

src = sys.stdin.read()
old, new = MUTANTS[sys.argv[1]]
if src.count(old) != 1:
    sys.exit("mutate.py: pattern for %s not found once" % sys.argv[1])
sys.stdout.write(src.replace(old, new))
