#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Drive the runqueue-structure benchmark and write its report.

Timing: bench is run RUNS times (REPS phases each, median per run), the
median of the runs is reported. Instructions and cache misses: one run of
`bench --callgrind` per n under callgrind with its cache simulator (the
cachegrind model; valgrind 3.19's cachegrind cannot exclude the set-up,
callgrind's client requests can), every phase dumped separately.

Writes OUT/results.json, OUT/table.md, OUT/skiplist-bench.png,
OUT/skiplist-bench-instr.png.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

STRUCTS = ["skiplist", "rbtree", "array", "bfs", "list"]
LABEL = {
    "skiplist": "skip list (LEAP)",
    "rbtree": "rbtree (lib/rbtree.c, cached)",
    "array": "sorted array of pointers",
    "bfs": "BFS 0.406 list+bitmap",
    "list": "sorted linked list",
}
OPS = ["insert", "delete", "pick", "scan"]
NS = [16, 64, 256, 1024, 4096, 16384, 65536]
# Simulated caches: this host's L1d and its L3 (32 MiB, 16-way).
CACHE = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64"]


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def timing(binary, ns, reps, runs, extra=(), structs=STRUCTS):
    """{(struct, n): {metric: median over runs}}"""
    acc = {}
    for _ in range(runs):
        for r in run_json([binary, "-r", str(reps), "-n", ",".join(map(str, ns)),
                           "-s", ",".join(structs), *extra]):
            acc.setdefault((r["struct"], r["n"]), []).append(r)
    res = {}
    for key, rows in acc.items():
        res[key] = {k: statistics.median(r[k] for r in rows)
                    for k in rows[0] if k.endswith(("_ns", "_tsc", "_skipped"))}
        res[key]["tsc_ghz"] = rows[0]["tsc_ghz"]
    return res


def callgrind(binary, n, extra=(), structs=STRUCTS):
    """{(struct, n): {op: {Ir, D1, LL per op}}} from one callgrind run."""
    tmp = tempfile.mkdtemp(prefix="slbench-cg.")
    try:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes", *CACHE,
               "--collect-atstart=no", "--callgrind-out-file=" + out,
               binary, "--callgrind", "-n", str(n), "-s", ",".join(structs), *extra]
        counts = {}
        for r in run_json(cmd):
            counts[r["struct"]] = r
        res = {}
        for f in glob.glob(out + ".*"):
            desc = events = totals = None
            for line in open(f):
                if line.startswith("desc: Trigger: Client Request: phase "):
                    desc = line.split("phase ", 1)[1].split()
                elif line.startswith("events: "):
                    events = line.split()[1:]
                elif line.startswith("totals: "):
                    totals = [int(x) for x in line.split()[1:]]
            if not desc:
                continue
            s, op, nn = desc[0], desc[1], int(desc[2])
            totals += [0] * (len(events) - len(totals))
            ev = dict(zip(events, totals))
            c = counts[s]
            div = c["scan_skipped"] if op == "scan" else c[op]
            res.setdefault((s, nn), {})[op] = {
                "Ir": ev["Ir"] / div,
                "D1": (ev["D1mr"] + ev["D1mw"]) / div,
                "LL": (ev["ILmr"] + ev["DLmr"] + ev["DLmw"]) / div,
            }
        return res
    finally:
        shutil.rmtree(tmp)


def fmt(x):
    if x >= 1000:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    return "%.2f" % x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("--from-json", help="only rewrite table and plots from a results.json")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=BIN: a layout variant of the skip list (variant.py)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-valgrind", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.from_json:
        with open(a.from_json) as f:
            report(json.load(f), a.out)
        return
    reps, runs = (11, 1) if a.quick else (31, 5)

    print("timing, %d runs x %d phases ..." % (runs, reps), file=sys.stderr)
    t = timing(a.bin, NS, reps, runs)
    cg = {}
    if not a.no_valgrind and shutil.which("valgrind"):
        for n in NS:
            print("callgrind n=%d ..." % n, file=sys.stderr)
            cg.update(callgrind(a.bin, n))

    # Layout experiment on the skip list alone.
    layouts = [
        ("shipped: key, level, link[16] {next, next_key, prev}; "
         "node starts a cache line", a.bin, []),
        ("shipped, node 40 bytes into a cache line", a.bin, ["--node-off", "40"]),
        ("shipped, predicate word in the node's first line "
         "(node_off 8, cpus_off 64)", a.bin, ["--node-off", "8", "--cpus-off", "64"]),
    ]
    VDESC = {
        "split": "key, level, link[16] {next, next_key}, prev[16]",
        "nocache": "search compares next->key, not the copy in the link",
    }
    for v in a.variant:
        vname, vbin = v.split("=", 1)
        layouts.insert(1, ("variant: " + VDESC.get(vname, vname), vbin, []))
    lay = []
    for name, binary, extra in layouts:
        print("layout: %s ..." % name, file=sys.stderr)
        lt = timing(binary, [1024, 16384], reps, runs, extra, ["skiplist"])
        lc = {}
        if cg:
            for n in (1024, 16384):
                lc.update(callgrind(binary, n, extra, ["skiplist"]))
        for n in (1024, 16384):
            row = {"layout": name, "n": n}
            row.update({k: v for k, v in lt[("skiplist", n)].items()})
            if lc:
                row.update({"%s_%s" % (op, k): v for op, d in lc[("skiplist", n)].items()
                            for k, v in d.items()})
            lay.append(row)

    ghz = next(iter(t.values()))["tsc_ghz"]
    results = {
        "tsc_ghz": ghz, "reps": reps, "runs": runs, "cache_sim": CACHE,
        "rows": [], "layouts": lay,
    }
    for (s, n), v in sorted(t.items(), key=lambda x: (STRUCTS.index(x[0][0]), x[0][1])):
        row = {"struct": s, "n": n}
        row.update(v)
        for op, d in cg.get((s, n), {}).items():
            for k, x in d.items():
                row["%s_%s" % (op, k)] = x
        results["rows"].append(row)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)

    report(results, a.out)


def report(results, out):
    by = {(r["struct"], r["n"]): r for r in results["rows"]}
    lay = results["layouts"]
    ghz = results["tsc_ghz"]
    md = []
    md.append("TSC %.3f GHz (cycles = ns x %.3f). Timing: median of %d runs, each the "
              "median of %d phases. Instructions and cache misses per op: callgrind "
              "with the cachegrind cache model (%s), set-up excluded. Each cell: "
              "**ns** / instructions / D1 misses / LL misses. `scan` is per entry "
              "skipped." % (ghz, ghz, results["runs"], results["reps"],
                            " ".join(results["cache_sim"])))
    md.append("")
    for n in NS:
        md.append("### n = %d" % n)
        md.append("")
        md.append("| structure | insert | delete | pick | scan, per entry skipped |")
        md.append("|---|---|---|---|---|")
        for s in STRUCTS:
            r = by.get((s, n))
            if not r:
                continue
            cells = [LABEL[s]]
            for op in OPS:
                ns = r["scan_ns_per_skipped" if op == "scan" else op + "_ns"]
                c = "**%s**" % fmt(ns)
                for k in ("Ir", "D1", "LL"):
                    x = r.get("%s_%s" % (op, k))
                    c += " / " + ("-" if x is None else fmt(x))
                cells.append(c)
            md.append("| " + " | ".join(cells) + " |")
        md.append("")
    if lay:
        md.append("### Skip-list node layout (same code, different layout)")
        md.append("")
        md.append("| layout | n | insert | delete | scan, per entry skipped |")
        md.append("|---|---|---|---|---|")
        for r in lay:
            cells = [r["layout"], str(r["n"])]
            for op in ("insert", "delete", "scan"):
                ns = r["scan_ns_per_skipped" if op == "scan" else op + "_ns"]
                cells.append("**%s** / %s / %s" % (fmt(ns), fmt(r.get(op + "_Ir", 0)),
                                                   fmt(r.get(op + "_D1", 0))))
            md.append("| " + " | ".join(cells) + " |")
        md.append("")
        md.append("Layout cells: **ns** / instructions / D1 misses.")
        md.append("")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))

    # Plots
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for suffix, key, ylabel in (("", "ns", "ns per op"), ("-instr", "Ir", "instructions per op")):
        fig, axes = plt.subplots(1, 4, figsize=(18, 4.8))
        for ax, op in zip(axes, OPS):
            for s in STRUCTS:
                xs, ys = [], []
                for n in NS:
                    r = by.get((s, n))
                    if not r:
                        continue
                    if key == "ns":
                        y = r["scan_ns_per_skipped" if op == "scan" else op + "_ns"]
                    else:
                        y = r.get("%s_Ir" % op)
                    if y is not None and y > 0:
                        xs.append(n)
                        ys.append(y)
                if xs:
                    ax.plot(xs, ys, marker="o", label=LABEL[s])
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(op + (" (per entry skipped)" if op == "scan" else ""))
            ax.set_xlabel("n (queued entries)")
            ax.set_ylabel(ylabel)
            ax.grid(True, which="both", alpha=0.3)
        axes[0].legend(fontsize=8)
        fig.suptitle("Runqueue structures: %s vs n (log-log)" % ylabel)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "skiplist-bench%s.png" % suffix), dpi=110)
        plt.close(fig)
    print("wrote %s/{results.json,table.md,skiplist-bench.png,skiplist-bench-instr.png}"
          % out, file=sys.stderr)


if __name__ == "__main__":
    main()
