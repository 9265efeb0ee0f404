#!/usr/bin/env python3
"""Summarises ringsweep_tune logs: every variant against the case's default policy, over runs.

    python3 bench/tune_summary.py runA/tune_2e28.txt runB/tune_2e28.txt [...] [--default policy_sm90]

Each log is one `ringsweep_tune` run (several sizes and cases may be mixed; a case is its label
and n). For each case it prints the variants with their median time in every run, the ratio
CUB / variant (> 1: faster than CUB) and the speed-up over the default (the row named
`--default`, or the first variant of the case), then the verdict of issue #22's rule: a variant
WINS where it beats the default in every run by more than twice the run-to-run spread, the spread
being the largest relative difference between runs of the default or of the variant (0 with one
run: then nothing can win). Plain Python 3.
"""

import argparse
import collections
import re
import sys

ROW = re.compile(r"^(?P<label>.*?)\s+n=2\^(?P<lg>\d+)\s+(?P<name>.*?)\s+(?P<ms>[\d.]+) ms\s+(?P<gk>[\d.]+) Gkeys/s"
                 r"\s+(?:cub/this\s+(?P<ratio>[\d.]+)|\(entropy words (?P<words>\d+)\))(?P<bad>\s+MISMATCH)?")


def read(path):
    """{(label, lg): {name: ms}} and the mismatches of one log."""
    cases = collections.defaultdict(dict)
    bad = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if not m:
                continue
            key = (m.group("label").strip(), int(m.group("lg")))
            cases[key][m.group("name").strip()] = float(m.group("ms"))
            if m.group("bad"):
                bad.append("%s n=2^%s %s" % (key[0], key[1], m.group("name").strip()))
    return cases, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--default", default="policy_sm90", help="the variant the others are compared with")
    args = ap.parse_args()
    runs = [read(p) for p in args.logs]
    for path, (_, bad) in zip(args.logs, runs):
        for b in bad:
            print("MISMATCH in %s: %s" % (path, b))
    keys = []
    for cases, _ in runs:
        keys += [k for k in cases if k not in keys]
    winners = []
    for key in keys:
        per_run = [cases.get(key, {}) for cases, _ in runs]
        names = []
        for r in per_run:
            names += [n for n in r if n not in names]
        default = args.default if args.default in names else next((n for n in names if n != "cub"), None)
        if default is None:
            continue
        print("\n%s n=2^%d (default: %s; %d run%s)" % (key[0], key[1], default, len(per_run),
                                                        "" if len(per_run) == 1 else "s"))
        print("  %-36s %s  %-18s %-18s %s" % ("variant", " ".join("%9s" % ("ms run%d" % (i + 1))
                                                                 for i in range(len(per_run))),
                                             "cub/this", "default/this", "verdict"))

        def spread(name):
            ms = [r[name] for r in per_run if name in r]
            if len(ms) < 2:
                return None
            mean = sum(ms) / len(ms)
            return (max(ms) - min(ms)) / mean

        for name in names:
            ms = [r.get(name) for r in per_run]
            cub = [r.get("cub") for r in per_run]
            base = [r.get(default) for r in per_run]
            ratio = ["%.3f" % (c / m) if c and m else "-" for c, m in zip(cub, ms)]
            gain = ["%.3f" % (b / m) if b and m else "-" for b, m in zip(base, ms)]
            verdict = ""
            if name not in ("cub", default) and all(ms) and all(base):
                s = [x for x in (spread(name), spread(default)) if x is not None]
                noise = max(s) if len(s) == 2 else None
                worst = min(b / m for b, m in zip(base, ms)) - 1.0
                if noise is None:
                    verdict = "one run: no verdict"
                elif worst > 2 * noise:
                    verdict = "WINS (+%.1f%% > 2 x %.1f%% spread)" % (worst * 100, noise * 100)
                    winners.append((key, name, worst, noise))
                else:
                    verdict = "no (worst %+.1f%%, spread %.1f%%)" % (worst * 100, noise * 100)
            print("  %-36s %s  %-18s %-18s %s" % (name, " ".join("%9s" % ("%.3f" % m if m else "-") for m in ms),
                                                 ",".join(ratio), ",".join(gain), verdict))
    print("\nWinners (rule of issue #22):" if winners else "\nNo variant beat the default by more than twice the spread.")
    for key, name, worst, noise in winners:
        print("  %s n=2^%d: %s (+%.1f%%, spread %.1f%%)" % (key[0], key[1], name, worst * 100, noise * 100))
    return 1 if any(bad for _, bad in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
