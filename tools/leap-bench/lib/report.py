# SPDX-License-Identifier: GPL-2.0
"""leap-bench report: ratios of medians with bootstrap intervals, the A/A
noise floor, JSON + markdown + PNG plots.

Statistics, per workload metric and kernel label:
- the median of all samples of all runs (boots) of that label;
- ratio = median(label) / median(baseline);
- 95% interval: hierarchical bootstrap (B resamples): draw the runs with
  replacement, then the samples inside each drawn run with replacement,
  take the ratio of the pooled medians; the interval is the 2.5 and 97.5
  percentiles. Drawing runs first carries boot-to-boot variance into the
  interval, not only the variance between samples of one boot. With 2+
  boots a side the interval is widened to cover the pooled t interval of
  the ratio of the geometric means of the per-boot medians (a bootstrap
  over 2-4 boots is far too narrow: it sees (n-1)/n of the variance and
  no t-tail);
- A/A: the baseline's runs split in two interleaved halves (runs 1, 3, ..
  against 2, 4, ..; with a single run, its samples alternately), the same
  ratio and interval; the noise floor is the larger distance of that
  interval's ends from 1.0, or, if larger, the half-width of the t
  interval an A/A comparison with as many boots a side would have, from
  the baseline's boot-to-boot spread;
- verdict: "better"/"worse" when the interval excludes 1.0 and the ratio
  is further from 1.0 than the noise floor, else "~" (no difference shown);
  "n/a" when a side has a single sample (its interval is one point).
"""
import json
import math
import os

import numpy as np

B = 2000
SEED = 612


def _boot_medians(runs, rng, b=B):
    """Bootstrap distribution (b values) of the pooled median of `runs`
    (a list of lists of samples), resampling runs then samples."""
    runs = [np.asarray(r, dtype=float) for r in runs if len(r)]
    if not runs:
        return None
    sizes = {len(r) for r in runs}
    if len(sizes) == 1:
        arr = np.stack(runs)                      # R x S
        nr, ns = arr.shape
        ri = rng.integers(0, nr, size=(b, nr))    # which runs
        si = rng.integers(0, ns, size=(b, nr, ns))  # which samples
        pooled = arr[ri[:, :, None], si]          # b x R x S
        return np.median(pooled.reshape(b, -1), axis=1)
    out = np.empty(b)
    for i in range(b):
        pick = rng.integers(0, len(runs), size=len(runs))
        pooled = np.concatenate([runs[j][rng.integers(0, len(runs[j]), len(runs[j]))]
                                 for j in pick])
        out[i] = np.median(pooled)
    return out


# two-sided 95% quantiles of Student's t, df 1..30 (no scipy needed)
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    if df < 1:
        df = 1
    return T975[int(df) - 1] if df <= 30 else 1.96


def boot_logs(runs):
    return [math.log(np.median(r)) for r in runs if len(r) and np.median(r) > 0]


def welch_log(num_runs, den_runs):
    """Pooled-variance t interval (df = nA + nB - 2) of the ratio of the
    geometric means of per-boot medians (boots are the units): (lo, hi),
    or None with < 2 boots a side. Pooled rather than Welch: with 2 boots
    a side Welch's df falls to ~1 and the interval to [0, inf)."""
    a = [math.log(np.median(r)) for r in num_runs if len(r) and np.median(r) > 0]
    b = [math.log(np.median(r)) for r in den_runs if len(r) and np.median(r) > 0]
    if len(a) < 2 or len(b) < 2:
        return None
    df = len(a) + len(b) - 2
    sp2 = ((len(a) - 1) * np.var(a, ddof=1) + (len(b) - 1) * np.var(b, ddof=1)) / df
    se = math.sqrt(sp2 * (1.0 / len(a) + 1.0 / len(b)))
    if se == 0:
        return None
    d = np.mean(a) - np.mean(b)
    h = t975(df) * se
    return math.exp(d - h), math.exp(d + h)


def ratio_ci(num_runs, den_runs, rng):
    """(ratio of pooled medians, lo, hi) or None. The interval is the
    union of the hierarchical bootstrap's and the Welch one's: with a
    handful of boots the bootstrap alone underestimates the boot-to-boot
    variance (with 2 boots it sees half of it)."""
    num = [x for r in num_runs for x in r]
    den = [x for r in den_runs for x in r]
    if not num or not den:
        return None
    md = float(np.median(den))
    mn = float(np.median(num))
    if md == 0:
        return None
    bn = _boot_medians(num_runs, rng)
    bd = _boot_medians(den_runs, rng)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = bn / bd
    r = r[np.isfinite(r)]
    if not len(r):
        return None
    lo, hi = np.percentile(r, [2.5, 97.5])
    w = welch_log(num_runs, den_runs)
    if w:
        lo, hi = min(lo, w[0]), max(hi, w[1])
    return mn / md, float(lo), float(hi)


def split_aa(runs):
    """Two interleaved halves of the baseline's runs for the A/A ratio."""
    runs = [r for r in runs if len(r)]
    if len(runs) >= 2:
        return runs[0::2], runs[1::2], "runs"
    if len(runs) == 1 and len(runs[0]) >= 2:
        return [runs[0][0::2]], [runs[0][1::2]], "samples"
    return None, None, None


def verdict(ratio, lo, hi, better, floor, nmin=2):
    """nmin: the fewer samples of the two sides; with one, the bootstrap
    interval is a single point and says nothing about the noise."""
    if ratio is None or nmin < 2:
        return "n/a"
    if lo <= 1.0 <= hi:
        return "~"
    if floor is not None and abs(ratio - 1.0) <= floor:
        return "~"
    up = ratio > 1.0
    return "better" if (up == (better == "higher")) else "worse"


def like_with_like(by, labels, warnings):
    """Check that every column is the kernel its label says and that the
    columns differ in the scheduler only. Returns (errors, table rows)."""
    import benchlib as bl
    errors, table = [], []
    for lab in labels:
        exp = bl.expected_scheduler(lab)
        scheds = sorted({str(r.get("scheduler")) for r in by[lab]})
        for r in by[lab]:
            got = str(r.get("scheduler"))
            if exp and not (got == exp or (exp == "Project C" and got.startswith("Project C"))):
                errors.append(f"label '{lab}' ({r.get('tag', '')}, {r.get('_file', '?')}) "
                              f"names {exp}, but that kernel runs {got} (told by: "
                              f"{'; '.join(r.get('scheduler_evidence') or ['?'])}): the image "
                              "is not the kernel its label says")
        if len(scheds) > 1:
            errors.append(f"label '{lab}': its boots ran different schedulers: {scheds}")
        full = sorted({str(r.get("config_hash")) for r in by[lab]})
        if len(full) > 1:
            errors.append(f"label '{lab}': its boots ran different configs: {full}")
        # uname -v: the build's number and time, new at every relink (a
        # run resumed after the kernel was rebuilt mixes two kernels)
        builds = sorted({f"{r.get('kernel', {}).get('release')} "
                         f"{r.get('kernel', {}).get('version')}" for r in by[lab]})
        if len(builds) > 1:
            errors.append(f"label '{lab}': its boots ran different builds of the kernel "
                          f"(uname -r -v): {builds}; a resumed run must use the same images")
        if not exp:
            warnings.append(f"label '{lab}' names no scheduler (stock/eevdf, leap, bore, pds, "
                            f"bmq, prjc): its scheduler ({', '.join(scheds)}) is not checked "
                            "against it")
        r0 = by[lab][0]
        table.append({"label": lab, "expected": exp, "scheduler": ", ".join(scheds),
                      "evidence": "; ".join(r0.get("scheduler_evidence") or ["-"]),
                      "flavor": r0.get("config_flavor"), "base_hash": r0.get("config_base_hash"),
                      "sched_options": " ".join(r0.get("config_sched_options") or []) or "-",
                      "cpus": r0.get("cpus"), "profile": r0.get("profile"),
                      "scale": r0.get("scale"), "kbuild_source": r0.get("kbuild_source")})
    runs = [r for lab in labels for r in by[lab]]
    for key, what in (("cpus", "CPU count"), ("profile", "profile"), ("scale", "scale"),
                      ("reps", "samples per workload"),
                      ("config_flavor", "config flavour (debug/perf/kasan)"),
                      ("config_base_hash", "config beyond the scheduler's own options"),
                      ("kbuild_source", "kernel source of the make -j workload")):
        vals, missing = {}, []
        for r in runs:
            v = r.get(key)
            if v in (None, "unknown"):
                missing.append(f"{r['label']} {r.get('tag', '')}".strip())
                continue
            vals.setdefault(str(v), set()).add(r["label"])
        if missing and key in ("config_flavor", "config_base_hash"):
            warnings.append(f"no {key} in {', '.join(missing)} (no config could be read, "
                            "or results from before 2026-11-25): not checked for them")
        if len(vals) > 1:
            errors.append(f"the kernels differ in {what}: " + "; ".join(
                f"{v}: {', '.join(sorted(ls))}" for v, ls in sorted(vals.items()))
                + " (like with like: same CPUs, profile, scale, flavour and config but "
                "the scheduler)")
    return errors, table


def run_order_key(r):
    return (r.get("tag", ""), r.get("started", ""))


def build(results, baseline=None, order=None):
    """The report as a dict (what report.json holds)."""
    rng = np.random.default_rng(SEED)
    labels = []
    for r in results:
        if r["label"] not in labels:
            labels.append(r["label"])
    if order:
        labels = [x for x in order if x in labels] + [x for x in labels if x not in order]
    if baseline is None:
        cands = [x for x in labels if x in ("stock", "eevdf", "EEVDF")]
        baseline = cands[0] if cands else labels[0]
    if baseline not in labels:
        raise SystemExit(f"report: baseline '{baseline}' has no results (labels: {labels})")
    labels.remove(baseline)
    labels.insert(0, baseline)
    others = labels[1:]
    by = {lab: sorted([r for r in results if r["label"] == lab], key=run_order_key)
          for lab in labels}

    warnings = []
    errors, like = like_with_like(by, labels, warnings)
    hashes = {lab: sorted({str(r.get("config_hash")) for r in by[lab]}) for lab in labels}

    runs_meta = []
    for lab in labels:
        for r in by[lab]:
            st = None
            if r.get("steal_ticks_before") is not None and r.get("steal_ticks_after") is not None:
                st = r["steal_ticks_after"] - r["steal_ticks_before"]
            runs_meta.append({"label": lab, "tag": r.get("tag", ""), "file": r.get("_file"),
                              "scheduler": r.get("scheduler"),
                              "release": r["kernel"]["release"], "cpus": r.get("cpus"),
                              "config_hash": r.get("config_hash"), "profile": r.get("profile"),
                              "scale": r.get("scale"), "seconds": r.get("seconds"),
                              "steal_ticks": st,
                              "failed": sorted(k for k, w in r["workloads"].items()
                                               if w["status"] == "fail")})
            tot = (r.get("seconds") or 0) * (r.get("cpus") or 1) * 100
            if st and tot and st > 0.01 * tot:
                warnings.append(f"{lab} {r.get('tag', '')}: steal time {st} ticks "
                                f"({100.0 * st / tot:.1f}% of the run): a noisy host")
            for k, w in r["workloads"].items():
                if w["status"] == "fail":
                    warnings.append(f"{lab} {r.get('tag', '')}: {k} failed: {w.get('error')}")

    # workloads and metrics in the order of the first run that has them
    wl_order = []
    for r in results:
        for k, w in r["workloads"].items():
            for m in w["metrics"]:
                if (k, m) not in wl_order:
                    wl_order.append((k, m))

    rows = []
    for wl, m in wl_order:
        runs = {}
        unit = better = None
        for lab in labels:
            runs[lab] = []
            for r in by[lab]:
                w = r["workloads"].get(wl)
                if not w or w["status"] != "ok" or m not in w["metrics"]:
                    continue
                spec = w["metrics"][m]
                unit, better = spec["unit"], spec["better"]
                if spec["samples"]:
                    runs[lab].append(spec["samples"])
        if unit is None:
            continue
        row = {"workload": wl, "metric": m, "unit": unit, "better": better,
               "median": {}, "runs": {}, "samples": {}, "ratio": {}}
        row["boot_medians"] = {}
        for lab in labels:
            flat = [x for rr in runs[lab] for x in rr]
            row["median"][lab] = float(np.median(flat)) if flat else None
            row["boot_medians"][lab] = [float(np.median(rr)) for rr in runs[lab] if len(rr)]
            row["runs"][lab] = len(runs[lab])
            row["samples"][lab] = len(flat)
        h1, h2, how = split_aa(runs[baseline])
        aa = ratio_ci(h1, h2, rng) if h1 else None
        floor = max(abs(aa[1] - 1.0), abs(aa[2] - 1.0)) if aa else None
        # what an A/A comparison of this many boots a side can resolve,
        # from the baseline's boot-to-boot spread
        bl_ = boot_logs(runs[baseline])
        if len(bl_) >= 2:
            nb = len(bl_)
            half = t975(2 * nb - 2) * float(np.std(bl_, ddof=1)) * math.sqrt(2.0 / nb)
            floor = max(floor or 0.0, math.exp(half) - 1.0)
        row["aa"] = ({"ratio": aa[0], "lo": aa[1], "hi": aa[2], "noise_floor": floor,
                      "split": how} if aa else None)
        for lab in others:
            rc = ratio_ci(runs[lab], runs[baseline], rng)
            if rc:
                row["ratio"][lab] = {"ratio": rc[0], "lo": rc[1], "hi": rc[2],
                                     "verdict": verdict(rc[0], rc[1], rc[2], better, floor,
                                                        min(row["samples"][lab],
                                                            row["samples"][baseline]))}
            else:
                row["ratio"][lab] = None
        rows.append(row)

    # pooled latency distributions for the CDF plots
    dists = {}
    for lab in labels:
        for r in by[lab]:
            for wl, w in r["workloads"].items():
                if w["status"] != "ok":
                    continue
                for d, qs in w.get("dist", {}).items():
                    dists.setdefault(f"{wl}:{d}", {}).setdefault(lab, []).extend(
                        x for q in qs for x in q)
    return {"schema": "leap-bench-report/1", "baseline": baseline, "labels": labels,
            "errors": errors, "like_with_like": like, "config_hashes": hashes, "bootstrap": {"resamples": B, "seed": SEED},
            "runs": runs_meta, "warnings": warnings, "rows": rows,
            "policy_floor": policy_floor(by, labels, rng), "_dists": dists}


# cyclictest's two policies under the same load: SCHED_FIFO at priority
# 90 preempts every normal task at once, so its latency is the floor that
# the timer, the wakeup and the switch set on that kernel and host; a
# SCHED_OTHER thread can at best match it.
FLOOR_PAIR = ("cyclictest-other", "cyclictest-fifo")
FLOOR_METRICS = ("p50", "p99", "p99.9")
FLOOR_OVER_US = 30000


def _hist_over(r, wl, over):
    """(wakeups, wakeups over @over us) of workload @wl in result @r,
    summed over its samples' histograms (overflows count as over)."""
    w = r["workloads"].get(wl)
    if not w or w["status"] != "ok":
        return 0, 0
    n = big = 0
    for x in w.get("raw", []):
        h = {int(k): c for k, c in x.get("histogram", {}).items()}
        ov = x.get("overflows", 0)
        n += sum(h.values()) + ov
        big += sum(c for k, c in h.items() if k > over) + ov
    return n, big


def policy_floor(by, labels, rng):
    """Per kernel, cyclictest-other over cyclictest-fifo of the same boots
    (ratio of medians with its interval, as the main table's) at p50,
    p99 and p99.9, and the share of each policy's wakeups over
    FLOOR_OVER_US; None when no kernel ran both."""
    out = {}
    for lab in labels:
        other, fifo = FLOOR_PAIR
        row = {"ratio": {}, "median": {}, "over": {}}
        for m in FLOOR_METRICS:
            runs = {}
            for wl in FLOOR_PAIR:
                runs[wl] = [r["workloads"][wl]["metrics"][m]["samples"] for r in by[lab]
                            if r["workloads"].get(wl, {}).get("status") == "ok" and
                            m in r["workloads"][wl]["metrics"] and
                            r["workloads"][wl]["metrics"][m]["samples"]]
            rc = ratio_ci(runs[other], runs[fifo], rng)
            if rc is None:
                continue
            row["ratio"][m] = {"ratio": rc[0], "lo": rc[1], "hi": rc[2]}
            row["median"][m] = {wl: float(np.median([x for rr in runs[wl] for x in rr]))
                                for wl in FLOOR_PAIR}
        if not row["ratio"]:
            continue
        for wl in FLOOR_PAIR:
            n = big = 0
            for r in by[lab]:
                a, b = _hist_over(r, wl, FLOOR_OVER_US)
                n, big = n + a, big + b
            row["over"][wl] = {"wakeups": n, "over": big,
                               "per_10k": 1e4 * big / n if n else None}
        out[lab] = row
    return {"over_us": FLOOR_OVER_US, "kernels": out} if out else None


def fmt(x):
    if x is None:
        return "-"
    a = abs(x)
    if a >= 1000:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 0.1:
        return f"{x:.3f}"
    return f"{x:.4g}"


def fmt_ratio(rc):
    if not rc:
        return "-"
    return f"{rc['ratio']:.3f} [{rc['lo']:.3f}, {rc['hi']:.3f}]"


def fmt_floor(aa):
    """The A/A noise floor of a row, as a percentage."""
    nf = aa["noise_floor"] if aa else None
    if nf is None:
        return "-"
    return f"±{100 * nf:.1f}%" if nf < 10 else ">±1000%"


def short_table(rep):
    """The ratios of medians in fewer columns, for a README: per kernel
    its median and its ratio with interval and verdict in one cell."""
    base, others = rep["baseline"], rep["labels"][1:]
    head = ["workload", "metric", f"{base} median"]
    for o in others:
        head += [f"{o} median", f"{o}/{base} [95% CI] verdict"]
    head.append("noise floor")
    L = ["## Short table", "",
         "The table above in fewer columns (the same numbers; `~`: no difference "
         "beyond the noise floor).", "",
         "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rep["rows"]:
        cells = [row["workload"], f"{row['metric']} ({row['unit']})",
                 fmt(row["median"][base])]
        for o in others:
            rc = row["ratio"].get(o)
            cells += [fmt(row["median"].get(o)),
                      f"{fmt_ratio(rc)} {rc['verdict']}" if rc else "-"]
        cells.append(fmt_floor(row["aa"]))
        L.append("| " + " | ".join(cells) + " |")
    L.append("")
    return L


def markdown(rep, title, plots):
    base, labels = rep["baseline"], rep["labels"]
    others = labels[1:]
    L = [f"# {title}", ""]
    L.append(f"Baseline: **{base}**. Ratio = median({'|'.join(others) or '-'}) / median({base}), "
             f"95% hierarchical bootstrap interval ({rep['bootstrap']['resamples']} resamples: "
             "boots, then samples within a boot). A/A = the baseline's boots split in two "
             "interleaved halves; noise floor = the larger of the A/A interval's distance from 1 "
             "and the t half-width an A/A comparison with this many boots would have. "
             "Verdict *better*/*worse* only when the interval excludes 1.0 and the ratio "
             "lies outside the noise floor.")
    L.append("")
    L.append("## Runs")
    L.append("")
    L.append("| label | tag | scheduler | release | CPUs | config | profile | scale | seconds | steal ticks | failed |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rep["runs"]:
        L.append(f"| {r['label']} | {r['tag']} | {r['scheduler']} | {r['release']} | {r['cpus']} | "
                 f"{r['config_hash']} | {r['profile']} | {r['scale']} | {r['seconds']} | "
                 f"{r['steal_ticks']} | {', '.join(r['failed']) or '-'} |")
    L.append("")
    L.append("## Like with like")
    L.append("")
    L.append("What each kernel is, told by the kernel itself (its sysctls and config), "
             "checked against the label; the config's hash leaves out the scheduler's own "
             "options and must be the same for all.")
    L.append("")
    L.append("| label | label names | scheduler (from the kernel) | evidence | flavour | "
             "config minus scheduler | scheduler options | CPUs | profile | scale |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for t in rep.get("like_with_like", []):
        L.append(f"| {t['label']} | {t['expected'] or '(none)'} | {t['scheduler']} | "
                 f"{t['evidence']} | {t['flavor']} | {t['base_hash']} | {t['sched_options']} | "
                 f"{t['cpus']} | {t['profile']} | {t['scale']} |")
    L.append("")
    if rep.get("errors"):
        L.append("## ERRORS: the columns are not like with like")
        L.append("")
        L += [f"- **{e}**" for e in rep["errors"]]
        L.append("")
        L.append("The ratios below compare unlike kernels or runs; do not use them.")
        L.append("")
    if rep["warnings"]:
        L.append("## Warnings")
        L.append("")
        L += [f"- {w}" for w in rep["warnings"]]
        L.append("")
    L.append("## Ratios of medians")
    L.append("")
    head = ["workload", "metric", "unit", "better", f"{base} median"]
    for o in others:
        head += [f"{o} median", f"{o}/{base} [95% CI]", "verdict"]
    head += ["A/A ratio [95% CI]", "noise floor"]
    L.append("| " + " | ".join(head) + " |")
    L.append("|" + "---|" * len(head))
    for row in rep["rows"]:
        cells = [row["workload"], row["metric"], row["unit"], row["better"],
                 fmt(row["median"][base])]
        for o in others:
            rc = row["ratio"].get(o)
            cells += [fmt(row["median"].get(o)), fmt_ratio(rc), rc["verdict"] if rc else "n/a"]
        cells += [fmt_ratio(row["aa"]), fmt_floor(row["aa"])]
        L.append("| " + " | ".join(cells) + " |")
    L.append("")
    if others:
        L += short_table(rep)
        L.append("## Summary")
        L.append("")
        for o in others:
            v = [r["ratio"][o]["verdict"] for r in rep["rows"] if r["ratio"].get(o)]
            m = len([x for x in v if x != "n/a"])
            L.append(f"- {o}: {v.count('better')} metrics better, {v.count('worse')} worse, "
                     f"{v.count('~')} without a difference beyond the noise, of {len(v)}. "
                     f"Of the {m} with a verdict, about {0.05 * m:.1f} would fall outside "
                     "their 95% interval by chance alone if the kernels did not differ at "
                     "all (fewer get a verdict, which also needs the noise floor; metrics "
                     "of one workload move together, so chance verdicts come in clumps).")
        inside = [r for r in rep["rows"] if r["aa"]]
        if inside:
            ok = sum(1 for r in inside if r["aa"]["lo"] <= 1.0 <= r["aa"]["hi"])
            L.append(f"- A/A column ({base}'s boots split in two halves): {ok} of {len(inside)} "
                     "intervals include 1.0. With one boot per half that interval holds only "
                     "the within-boot variance; the noise floor adds the boot-to-boot spread.")
        L.append("")
    L += floor_table(rep)
    if plots:
        L.append("## Plots")
        L.append("")
        for p in plots:
            L.append(f"![{p}]({p})")
            L.append("")
    return "\n".join(L)


def floor_table(rep):
    """The markdown of policy_floor(), or nothing."""
    pf = rep.get("policy_floor")
    if not pf:
        return []
    other, fifo = FLOOR_PAIR
    L = ["## SCHED_OTHER against the realtime floor", "",
         f"Each kernel's {other} over its own {fifo} (the same boots and load): a "
         "SCHED_FIFO thread preempts every normal task at once, so its latency is what "
         "the timer, the wakeup and the switch cost on that kernel and host, and no "
         "policy for SCHED_OTHER goes below it. A ratio near 1 leaves a SCHED_OTHER "
         "policy nothing to win; against another kernel, compare the floors too. "
         f"Wakeups over {pf['over_us'] / 1000:g} ms are counted from the histograms, "
         "per 10000.", "",
         "| kernel | metric | fifo median (us) | other median (us) | other/fifo [95% CI] |",
         "|---|---|---|---|---|"]
    for lab, row in pf["kernels"].items():
        for m in FLOOR_METRICS:
            rc = row["ratio"].get(m)
            if rc:
                L.append(f"| {lab} | {m} | {fmt(row['median'][m][fifo])} | "
                         f"{fmt(row['median'][m][other])} | {fmt_ratio(rc)} |")
        o, f = row["over"][other], row["over"][fifo]
        L.append(f"| {lab} | over {pf['over_us'] / 1000:g} ms (per 10000) | "
                 f"{fmt(f['per_10k'])} ({f['over']} of {f['wakeups']}) | "
                 f"{fmt(o['per_10k'])} ({o['over']} of {o['wakeups']}) | - |")
    L.append("")
    return L


def plot_floor(rep, path):
    """policy_floor()'s ratios, a group of bars a kernel; False if none."""
    pf = rep.get("policy_floor")
    if not pf:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labs = list(pf["kernels"])
    fig, ax = plt.subplots(figsize=(7, 3.2))
    w = 0.8 / len(FLOOR_METRICS)
    for j, m in enumerate(FLOOR_METRICS):
        xs, ys, es = [], [], []
        for i, lab in enumerate(labs):
            rc = pf["kernels"][lab]["ratio"].get(m)
            if rc:
                xs.append(i - 0.4 + w * (j + 0.5))
                ys.append(rc["ratio"])
                es.append([rc["ratio"] - rc["lo"], rc["hi"] - rc["ratio"]])
        if xs:
            ax.bar(xs, ys, w * 0.9, color=COLORS[j % len(COLORS)], label=m)
            ax.errorbar(xs, ys, yerr=np.array(es).T, fmt="none", ecolor="0.3", capsize=2, lw=1)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(range(len(labs)))
    ax.set_xticklabels(labs)
    ax.set_yscale("log")
    ticks = [t for t in (0.5, 0.8, 1, 1.25, 1.5, 2, 3, 5, 10, 20)
             if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_ylabel("cyclictest other / fifo\n(ratio of medians, 95% interval)", fontsize=9)
    ax.legend(fontsize=8)
    ax.set_title("SCHED_OTHER latency over the same kernel's SCHED_FIFO floor")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# one colour a kernel, in every plot; no green or red: those mark verdicts
COLORS = ["#4c72b0", "#dd8452", "#8172b3", "#937860", "#da8bc3", "#64b5cd", "#8c8c8c"]


def plot_ratios(rep, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base, others = rep["baseline"], rep["labels"][1:]
    rows = [r for r in rep["rows"] if any(r["ratio"].get(o) for o in others) or r["aa"]]
    if not rows:
        return False
    n = len(rows)
    h = 0.8 / max(1, len(others))
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.28 * n))
    ys = np.arange(n)[::-1]
    for y, r in zip(ys, rows):
        if r["aa"]:
            ax.fill_between([max(r["aa"]["lo"], 1e-3), r["aa"]["hi"]], y - 0.45, y + 0.45,
                            color="0.85", lw=0,
                            label=f"A/A {base} vs {base}: 95% interval" if y == ys[0] else None)
    for i, o in enumerate(others):
        # the label's colour in every plot (the CDFs' too)
        color = COLORS[rep["labels"].index(o) % len(COLORS)]
        xs, es, yy, cs = [], [], [], []
        for y, r in zip(ys, rows):
            rc = r["ratio"].get(o)
            if not rc:
                continue
            xs.append(rc["ratio"])
            es.append([rc["ratio"] - rc["lo"], rc["hi"] - rc["ratio"]])
            yy.append(y + 0.4 - h * (i + 0.5))
            cs.append({"better": "#2a9d3a", "worse": "#c0392b"}.get(rc["verdict"], color))
        if xs:
            ax.errorbar(xs, yy, xerr=np.array(es).T, fmt="none", ecolor="0.3", capsize=2, lw=1)
            ax.scatter(xs, yy, c=cs, s=22, zorder=3, edgecolors=color,
                       linewidths=1.2, label=f"{o}/{base}")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r['workload']} {r['metric']} ({'↑' if r['better'] == 'higher' else '↓'})"
                        for r in rows], fontsize=8)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xscale("log")
    lo = min([rc["lo"] for r in rows for rc in r["ratio"].values() if rc] + [0.9])
    hi = max([rc["hi"] for r in rows for rc in r["ratio"].values() if rc] + [1.1])
    ax.set_xlim(max(lo * 0.9, 0.05), min(hi * 1.1, 20))
    x0, x1 = ax.get_xlim()
    cand = (0.1, 0.2, 0.5, 1.0, 2, 5, 10) if x1 / x0 > 4 else \
        (0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2) if x1 / x0 > 1.6 else \
        (0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25)
    ticks = [t for t in cand if x0 <= t <= x1]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(f"ratio of medians vs {base} (log scale) with 95% interval (bootstrap ∪ pooled t)\n"
                  "green = better, red = worse, the kernel's colour = no difference shown; "
                  "↑/↓: higher/lower is better", fontsize=9)
    ax.grid(axis="x", color="0.9")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("LEAP bench: ratio of medians per metric")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_cdfs(rep, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dists = rep["_dists"]
    if not dists:
        return False
    keys = list(dists)
    cols = 3 if len(keys) > 4 else 2 if len(keys) > 1 else 1
    rows = math.ceil(len(keys) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.4 * rows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        for i, lab in enumerate(rep["labels"]):
            v = dists[key].get(lab)
            if not v:
                continue
            v = np.sort(np.maximum(np.asarray(v, dtype=float), 0.01))
            y = np.arange(1, len(v) + 1) / len(v)
            ax.plot(v, y, color=COLORS[i % len(COLORS)], lw=1.4, label=lab,
                    ls="-" if i == 0 else "--" if i == 1 else ":")
        ax.set_xscale("log")
        ax.set_title(key.replace(":", ": "), fontsize=10)
        ax.set_xlabel("latency (us, log)")
        ax.set_ylabel("fraction ≤ x")
        ax.grid(color="0.9")
        ax.set_ylim(0, 1.0)
        ax.legend(fontsize=8, loc="lower right")
    for ax in axes.flat[len(keys):]:
        ax.axis("off")
    fig.suptitle("Latency CDFs (all boots and samples pooled)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


FAMILIES = ("hackbench", "perf-messaging", "perf-pipe", "cyclictest", "kbuild", "frame",
            "wakelat", "pingpong", "pinned-crowd")


def family(workload):
    for f in FAMILIES:
        if workload.startswith(f):
            return f
    return workload.split("-")[0]


def plot_families(rep, outdir):
    """One PNG a workload family (family-NAME.png): a panel a metric,
    every kernel's median as a bar beside the others, its per-boot
    medians as dots. Returns the file names."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = rep["labels"]
    fams = {}
    for r in rep["rows"]:
        fams.setdefault(family(r["workload"]), []).append(r)
    out = []
    for fam, rows in fams.items():
        cols = min(4, len(rows))
        nrow = math.ceil(len(rows) / cols)
        fig, axes = plt.subplots(nrow, cols, figsize=(3.2 * cols, 2.9 * nrow), squeeze=False)
        for ax, r in zip(axes.flat, rows):
            for i, lab in enumerate(labels):
                med = r["median"].get(lab)
                if med is None:
                    continue
                ax.bar(i, med, color=COLORS[i % len(COLORS)], width=0.7)
                pts = r.get("boot_medians", {}).get(lab, [])
                ax.scatter([i] * len(pts), pts, color="k", s=8, zorder=3)
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels(labels, fontsize=7, rotation=30)
            arrow = "↑" if r["better"] == "higher" else "↓"
            ax.set_title(f"{r['workload']}\n{r['metric']} ({r['unit']}, {arrow} better)",
                         fontsize=8)
            ax.tick_params(axis="y", labelsize=7)
            ax.grid(axis="y", color="0.9")
        for ax in axes.flat[len(rows):]:
            ax.axis("off")
        fig.suptitle(f"{fam}: median per kernel (bars), per-boot medians (dots)", fontsize=10)
        fig.tight_layout()
        name = f"family-{fam}.png"
        fig.savefig(os.path.join(outdir, name), dpi=90)
        plt.close(fig)
        out.append(name)
    return out


def write(rep, outdir, title):
    os.makedirs(outdir, exist_ok=True)
    plots = []
    if plot_ratios(rep, os.path.join(outdir, "ratios.png")):
        plots.append("ratios.png")
    if plot_cdfs(rep, os.path.join(outdir, "latency-cdf.png")):
        plots.append("latency-cdf.png")
    plots += plot_families(rep, outdir)
    if plot_floor(rep, os.path.join(outdir, "policy-floor.png")):
        plots.append("policy-floor.png")
    out = {k: v for k, v in rep.items() if not k.startswith("_")}
    out["plots"] = plots
    with open(os.path.join(outdir, "report.json"), "w") as fh:
        json.dump(out, fh, indent=1)
    with open(os.path.join(outdir, "report.md"), "w") as fh:
        fh.write(markdown(out, title, plots) + "\n")
    return out
