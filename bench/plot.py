#!/usr/bin/env python3
"""Plots ringsweep_sort_bench results: throughput vs n per key type, ringsweep vs CUB.

    ringsweep_sort_bench --benchmark_format=json > run.json       # or --benchmark_out=run.json
    python3 bench/plot.py run.json [more.json ...] --out plots/ [--metric keys_per_s|GBps] [--summary-only]

Writes one PNG per (keys|pairs, key type): top, throughput vs log2(n) for each entropy (ringsweep
solid, CUB dashed); bottom, ringsweep / CUB throughput (> 1: ringsweep faster). Also writes
summary.csv (one row per configuration, median over repetitions) and summary.md (per entropy, a
Markdown table of ringsweep / CUB at n = 2^16, 2^20, 2^24 and the largest n; then the narrow,
sorted, segmented and argsort rows). The PNGs need matplotlib (Agg backend, no display);
--summary-only writes the two summaries alone, without it.

Segmented rows (issue #25) have two CUB sorts, cub_segradix (cub::DeviceSegmentedRadixSort) and
cub_segsort (cub::DeviceSegmentedSort): where a configuration has no `cub` row, "CUB" in
summary.csv (and in compare.py) is the faster of the two, and summary.md shows ringsweep against
each.

Host-resident rows (issue #26, ringsweep_host_sort_bench: host/<type>/<keys|pairs>/n:<n>/<memory>/
<budget>/<sort>) are read as mode "host" (type "u32 keys", lib "<memory>/<budget>/<sort>"); they
have no CUB row, so summary.csv leaves them out and compare.py ignores them. summary.md gains a
table per key type: each ringsweep configuration's G keys/s and fraction of the bus limit
(of_bus_limit), and the host sorts' G keys/s. Several JSON files (one per size) may be given.
"""

import argparse
import collections
import csv
import json
import math
import os
import re
import statistics
import sys

NAME_RE = re.compile(r"^(keys|pairs)/(\w+)/entropy:([\d.]+)/n:(\d+)/(cub|ringsweep)$")
# The narrow-key and sorted-input rows, read as modes "narrow" (type "u32<2^16") and "sorted"
# (type "keys u32"), entropy 1.0.
NARROW_RE = re.compile(r"^narrow/(\w+)/below:2\^(\d+)/n:(\d+)/(cub|ringsweep)$")
SORTED_RE = re.compile(r"^sorted/(\w+)/(keys|pairs)/n:(\d+)/(cub|ringsweep)$")
# Issue #25's rows, read as modes "segmented" (type "keys u32 segments:64") and "argsort" (type
# "u32 keys_out"), entropy 1.0.
SEGMENTED_RE = re.compile(r"^segmented/(\w+)/(keys|pairs)/segments:(\w+)/n:(\d+)/(cub_segradix|cub_segsort|ringsweep)$")
ARGSORT_RE = re.compile(r"^argsort/(\w+)/(keys_out|no_keys_out)/n:(\d+)/(cub|ringsweep)$")
# Issue #26's rows (ringsweep_host_sort_bench), read as mode "host".
HOST_RE = re.compile(r"^host/(\w+)/(keys|pairs)/n:(\d+)/(pinned|pageable)/([^/]+)/"
                     r"(std_sort|std_sort_threads|std_sort_par|ringsweep|ringsweep_alloc)$")
# The host table's columns: (lib, heading).
HOST_COLUMNS = [("pinned/budget:1_8/ringsweep", "pinned, budget 1/8"),
                ("pageable/budget:1_8/ringsweep", "pageable, budget 1/8"),
                ("pinned/budget:1_8/ringsweep_alloc", "pinned, 1/8, scratch allocated by the call"),
                ("pinned/budget:all/ringsweep", "pinned, fits"),
                ("pageable/cpu/std_sort", "std::sort"),
                ("pageable/cpu/std_sort_threads", "std::sort, all threads"),
                ("pageable/cpu/std_sort_par", "std::sort(par)")]
SEGMENT_LAYOUTS = ["1", "64", "4096", "262144", "powerlaw"]
TYPES = ["u32", "i32", "f32", "u64"]
LIBS = ["ringsweep", "cub"]


def load(paths):
    """{(mode, type, entropy, n, lib): [counters dict per run]}."""
    runs = collections.defaultdict(list)
    context = {}
    for path in paths:
        with open(path) as f:
            text = f.read()
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            sys.exit("plot.py: %s is not Google Benchmark JSON; it starts with: %s" % (path, text[:200].strip()))
        context = doc.get("context", context)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            name = b.get("run_name", b["name"])
            name = re.sub(r"(/iterations:\d+|/repeats:\d+|/manual_time)+$", "", name)
            if "keys_per_s" not in b:
                continue
            m, mn, ms = NAME_RE.match(name), NARROW_RE.match(name), SORTED_RE.match(name)
            mg, ma, mh = SEGMENTED_RE.match(name), ARGSORT_RE.match(name), HOST_RE.match(name)
            if m:
                mode, typ, entropy, n, lib = m.groups()
                runs[(mode, typ, float(entropy), int(n), lib)].append(b)
            elif mn:
                typ, bits, n, lib = mn.groups()
                runs[("narrow", "%s<2^%s" % (typ, bits), 1.0, int(n), lib)].append(b)
            elif ms:
                typ, mode, n, lib = ms.groups()
                runs[("sorted", "%s %s" % (mode, typ), 1.0, int(n), lib)].append(b)
            elif mg:
                typ, mode, layout, n, lib = mg.groups()
                runs[("segmented", "%s %s segments:%s" % (mode, typ, layout), 1.0, int(n), lib)].append(b)
            elif ma:
                typ, form, n, lib = ma.groups()
                runs[("argsort", "%s %s" % (typ, form), 1.0, int(n), lib)].append(b)
            elif mh:
                typ, mode, n, memory, budget, lib = mh.groups()
                runs[("host", "%s %s" % (typ, mode), 1.0, int(n), "%s/%s/%s" % (memory, budget, lib))].append(b)
    return runs, context


def median_of(rows, key):
    vals = [r[key] for r in rows if key in r]
    return statistics.median(vals) if vals else None


def cub_rows(runs, cfg):
    """CUB's rows of a configuration: its `cub` rows, else (segmented) those of the faster of
    cub_segradix and cub_segsort by median keys/s; [] when there are none."""
    if runs.get(cfg + ("cub",)):
        return runs[cfg + ("cub",)]
    best, best_keys = [], None
    for lib in ("cub_segradix", "cub_segsort"):
        rows = runs.get(cfg + (lib,), [])
        k = median_of(rows, "keys_per_s")
        if k and (best_keys is None or k > best_keys):
            best, best_keys = rows, k
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="Google Benchmark JSON output of ringsweep_sort_bench")
    ap.add_argument("--out", default="bench_plots", help="output directory")
    ap.add_argument("--metric", default="keys_per_s", choices=["keys_per_s", "GBps"])
    ap.add_argument("--summary-only", action="store_true", help="write summary.csv and summary.md only (no matplotlib)")
    args = ap.parse_args()

    runs, context = load(args.json)
    if not runs:
        sys.exit("plot.py: no ringsweep_sort_bench rows in %s" % ", ".join(args.json))
    plt = None
    if not args.summary_only:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.exit("plot.py: matplotlib is required (apt-get install python3-matplotlib), or --summary-only")
    os.makedirs(args.out, exist_ok=True)

    # Median per configuration.
    med = {k: median_of(v, args.metric) for k, v in runs.items()}
    keys_med = {k: median_of(v, "keys_per_s") for k, v in runs.items()}

    with open(os.path.join(args.out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mode", "type", "entropy", "n", "ringsweep_keys_per_s", "cub_keys_per_s", "rs_over_cub",
                    "ringsweep_GBps", "cub_GBps", "temp_bytes_ringsweep", "temp_bytes_cub"])
        configs = sorted({k[:4] for k in runs if k[0] != "host"})
        for c in configs:
            rs, cub = runs.get(c + ("ringsweep",), []), cub_rows(runs, c)
            rk, ck = median_of(rs, "keys_per_s"), median_of(cub, "keys_per_s")
            any_row = (rs or cub or [{}])[0]
            w.writerow([c[0], c[1], "%.3f" % c[2], c[3], rk or "", ck or "",
                        "%.4f" % (rk / ck) if rk and ck else "", median_of(rs, "GBps") or "",
                        median_of(cub, "GBps") or "", int(any_row.get("temp_bytes_ringsweep", 0)),
                        int(any_row.get("temp_bytes_cub", 0))])

    write_markdown(os.path.join(args.out, "summary.md"), runs, context)
    if plt is None:
        print(os.path.join(args.out, "summary.csv"))
        print(os.path.join(args.out, "summary.md"))
        return 0

    unit, scale = ("G keys/s", 1e-9) if args.metric == "keys_per_s" else ("GB/s (ideal traffic)", 1.0)
    device = context.get("device", "GPU")
    written = []
    for mode in ("keys", "pairs"):
        for typ in TYPES:
            sel = {k: v for k, v in med.items() if k[0] == mode and k[1] == typ and v}
            if not sel:
                continue
            entropies = sorted({k[2] for k in sel}, reverse=True)
            fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True,
                                              gridspec_kw=dict(height_ratios=[3, 2]))
            for i, e in enumerate(entropies):
                color = "C%d" % i
                for lib, ls, marker in (("ringsweep", "-", "o"), ("cub", "--", "s")):
                    pts = sorted((math.log2(k[3]), v * scale) for k, v in sel.items() if k[2] == e and k[4] == lib)
                    if pts:
                        top.plot(*zip(*pts), color=color, linestyle=ls, marker=marker, markersize=3,
                                 label="%s, entropy %.3f" % ("ringsweep" if lib == "ringsweep" else "CUB", e))
                ratio = []
                for k, v in keys_med.items():
                    if k[:3] == (mode, typ, e) and k[4] == "ringsweep" and v:
                        c = keys_med.get(k[:4] + ("cub",))
                        if c:
                            ratio.append((math.log2(k[3]), v / c))
                if ratio:
                    bottom.plot(*zip(*sorted(ratio)), color=color, marker="o", markersize=3,
                                label="entropy %.3f" % e)
            bottom.axhline(1.0, color="k", linewidth=0.8)
            top.set_ylabel(unit)
            top.set_title("%s %s%s: ringsweep vs CUB onesweep on %s" % (
                mode, typ, " / u32 values" if mode == "pairs" else "", device))
            top.grid(True, alpha=0.3)
            top.legend(fontsize=7, ncol=2)
            bottom.set_ylabel("ringsweep / CUB (keys/s)")
            bottom.set_xlabel("log2(n)")
            bottom.grid(True, alpha=0.3)
            bottom.legend(fontsize=7)
            fig.tight_layout()
            path = os.path.join(args.out, "throughput_%s_%s.png" % (mode, typ))
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
    for p in written:
        print(p)
    print(os.path.join(args.out, "summary.csv"))
    print(os.path.join(args.out, "summary.md"))
    return 0


def write_markdown(path, runs, context):
    """Per entropy: rows (mode, type), columns n; each cell 'ratio (ringsweep / CUB G keys/s)'."""
    configs = sorted({k[:4] for k in runs})
    all_n = sorted({c[3] for c in configs if c[0] in ("keys", "pairs")})
    if len(all_n) <= 8:
        cols = all_n
    else:
        cols = [n for n in (1 << 16, 1 << 20, 1 << 24) if n in all_n]
        if all_n and all_n[-1] not in cols:
            cols.append(all_n[-1])
    lines = ["Device: %s (compute capability %s), CCCL %s. Cells: ringsweep / CUB throughput "
             "(> 1: ringsweep faster), then ringsweep and CUB in G keys/s; medians over repetitions."
             % (context.get("device", "?"), context.get("compute_capability", "?"),
                context.get("cccl_version", "?")), ""]
    for e in sorted({c[2] for c in configs if c[0] in ("keys", "pairs")}, reverse=True):
        lines.append("Entropy %.3f:" % e)
        lines.append("")
        lines.append("| sort | " + " | ".join("n = 2^%d" % int(math.log2(n)) for n in cols) + " |")
        lines.append("|---|" + "---|" * len(cols))
        for mode in ("keys", "pairs"):
            for typ in TYPES:
                cells, any_cell = [], False
                for n in cols:
                    c = (mode, typ, e, n)
                    rk = median_of(runs.get(c + ("ringsweep",), []), "keys_per_s")
                    ck = median_of(runs.get(c + ("cub",), []), "keys_per_s")
                    if rk and ck:
                        cells.append("**%.2f** (%.2f / %.2f)" % (rk / ck, rk * 1e-9, ck * 1e-9))
                        any_cell = True
                    else:
                        cells.append("")
                if any_cell:
                    label = "%s %s%s" % (mode, typ, " / u32" if mode == "pairs" else "")
                    lines.append("| " + label + " | " + " | ".join(cells) + " |")
        lines.append("")
    for mode, title in (("narrow", "Narrow keys (uniform below 2^b; the full key width sorted)"),
                        ("sorted", "Sorted input (ascending keys, every digit varying)")):
        sel = [c for c in configs if c[0] == mode]
        if not sel:
            continue
        ns = sorted({c[3] for c in sel})
        lines.append(title + ":")
        lines.append("")
        lines.append("| sort | " + " | ".join("n = 2^%d" % int(math.log2(n)) for n in ns) + " |")
        lines.append("|---|" + "---|" * len(ns))
        for typ in sorted({c[1] for c in sel}):
            cells = []
            for n in ns:
                c = (mode, typ, 1.0, n)
                rk = median_of(runs.get(c + ("ringsweep",), []), "keys_per_s")
                ck = median_of(runs.get(c + ("cub",), []), "keys_per_s")
                cells.append("**%.2f** (%.2f / %.2f)" % (rk / ck, rk * 1e-9, ck * 1e-9) if rk and ck else "")
            lines.append("| %s %s | " % (mode, typ) + " | ".join(cells) + " |")
        lines.append("")
    lines += segmented_markdown(runs, configs) + argsort_markdown(runs, configs) + host_markdown(runs, configs, context)
    with open(path, "w") as f:
        f.write("\n".join(lines))


def ratio_cell(runs, c, cub_lib):
    """'**ringsweep / CUB** (ringsweep / CUB G keys/s)' for one configuration, or ''."""
    rk = median_of(runs.get(c + ("ringsweep",), []), "keys_per_s")
    ck = median_of(runs.get(c + (cub_lib,), []), "keys_per_s")
    return "**%.2f** (%.2f / %.2f)" % (rk / ck, rk * 1e-9, ck * 1e-9) if rk and ck else ""


def segmented_markdown(runs, configs):
    """Issue #25's segmented rows: per sort (keys, pairs) and CUB sort, one line; columns the
    segment layouts of n keys (n = 2^24 in ringsweep_sort_bench)."""
    sel = [c for c in configs if c[0] == "segmented"]
    if not sel:
        return []
    lines = []
    for n in sorted({c[3] for c in sel}):
        sorts = sorted({c[1].rsplit(" segments:", 1)[0] for c in sel if c[3] == n})
        layouts = {c[1].rsplit(" segments:", 1)[1] for c in sel if c[3] == n}
        cols = [l for l in SEGMENT_LAYOUTS if l in layouts] + sorted(layouts - set(SEGMENT_LAYOUTS))
        lines.append("Segmented sorts of 2^%d keys (columns: equal segments, or power-law sizes; cells: ringsweep "
                     "against cub::DeviceSegmentedRadixSort, then cub::DeviceSegmentedSort):" % int(math.log2(n)))
        lines.append("")
        lines.append("| sort | vs | " + " | ".join("%s segments" % l if l != "powerlaw" else "power law"
                                                  for l in cols) + " |")
        lines.append("|---|---|" + "---|" * len(cols))
        for sort in sorts:
            for cub_lib, label in (("cub_segradix", "SegmentedRadixSort"), ("cub_segsort", "SegmentedSort")):
                cells = [ratio_cell(runs, ("segmented", "%s segments:%s" % (sort, l), 1.0, n), cub_lib) for l in cols]
                if any(cells):
                    lines.append("| %s | %s | " % (sort, label) + " | ".join(cells) + " |")
        lines.append("")
    return lines


def argsort_markdown(runs, configs):
    """Issue #25's argsort rows: ringsweep::argsort against 0..n-1 plus cub::DeviceRadixSort::SortPairs."""
    sel = [c for c in configs if c[0] == "argsort"]
    if not sel:
        return []
    ns = sorted({c[3] for c in sel})
    lines = ["argsort (u32 indices; CUB: a sequence kernel plus DeviceRadixSort::SortPairs, both timed):", "",
             "| sort | " + " | ".join("n = 2^%d" % int(math.log2(n)) for n in ns) + " |", "|---|" + "---|" * len(ns)]
    for typ in sorted({c[1] for c in sel}):
        lines.append("| argsort %s | " % typ + " | ".join(ratio_cell(runs, ("argsort", typ, 1.0, n), "cub")
                                                         for n in ns) + " |")
    lines.append("")
    return lines


def host_markdown(runs, configs, context):
    """Issue #26's rows: per key type, one line per n; ringsweep cells 'fraction of the bus limit
    (G keys/s)', host sort cells G keys/s."""
    sel = [c for c in configs if c[0] == "host"]
    if not sel:
        return []
    libs = {k[4] for k in runs if k[0] == "host"}
    # The streamed rows' budget: 1_8 unless the run set another --rs_budget_div.
    budgets = sorted({l.split("/")[1] for l in libs if l.split("/")[1].startswith("budget:1_")})
    budget = budgets[0] if budgets else "budget:1_8"
    columns = []
    for lib, heading in HOST_COLUMNS:
        lib, heading = lib.replace("budget:1_8", budget), heading.replace("1/8", budget.replace("budget:1_", "1/"))
        if lib in libs:
            columns.append((lib, heading))
    lines = ["Host-resident sorts (ringsweep_host_sort_bench; pinned cudaMemcpy H2D %s GB/s, D2H %s GB/s, both at once "
             "%s GB/s; %s host threads). ringsweep cells: fraction of the bus limit (bytes crossing the bus / "
             "the measured H2D and D2H rates), then G keys/s; host sort cells: G keys/s; medians over repetitions."
             % (context.get("pinned_h2d_GBps", "?"), context.get("pinned_d2h_GBps", "?"),
                context.get("pinned_duplex_GBps", "?"), context.get("host_threads", "?")), ""]
    for typ in sorted({c[1] for c in sel}):
        lines.append("| %s | " % typ + " | ".join(h for _, h in columns) + " |")
        lines.append("|---|" + "---|" * len(columns))
        for n in sorted({c[3] for c in sel if c[1] == typ}):
            cells = []
            for lib, _ in columns:
                rows = runs.get(("host", typ, 1.0, n, lib), [])
                k, f = median_of(rows, "keys_per_s"), median_of(rows, "of_bus_limit")
                if k and f is not None:
                    cells.append("**%.2f** (%.3f)" % (f, k * 1e-9))
                else:
                    cells.append("%.3f" % (k * 1e-9) if k else "")
            lines.append("| n = 2^%d | " % int(math.log2(n)) + " | ".join(cells) + " |")
        lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
