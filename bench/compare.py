#!/usr/bin/env python3
"""Compares two ringsweep_sort_bench runs through CUB: for every configuration both runs have,
ringsweep's throughput relative to CUB's in each run, and the change.

    python3 bench/compare.py bench/results/gpu/h100_sort_bench.json new.json [--entropy 1.0] [--min-log2 20]

CUB is timed in the same process as ringsweep, so the ratio ringsweep / CUB is comparable across
runs on the same GPU model even when clocks or the machine differ; absolute times are printed
too. Rows: mode, type, entropy, log2(n); columns: ratio before, ratio after, change in percent
(> 0: ringsweep gained on CUB), ringsweep ms before and after. Segmented rows (two CUB sorts) are
compared with the faster CUB sort of each run (plot.cub_rows). Plain Python 3, no matplotlib.
"""

import argparse
import math
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
from plot import cub_rows, load, median_of  # noqa: E402  (same parsing as the plots)


def ratios(path):
    runs, context = load([path])
    out = {}
    for cfg in {k[:4] for k in runs}:
        rs, cub = runs.get(cfg + ("ringsweep",), []), cub_rows(runs, cfg)
        rk, ck = median_of(rs, "keys_per_s"), median_of(cub, "keys_per_s")
        if rk and ck:
            out[cfg] = (rk / ck, cfg[3] / rk * 1e3)
    return out, context


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--entropy", type=float, default=None, help="only this entropy (default: all)")
    ap.add_argument("--min-log2", type=int, default=0, help="only n >= 2^this")
    args = ap.parse_args()
    a, ca = ratios(args.before)
    b, cb = ratios(args.after)
    if ca.get("device") != cb.get("device"):
        print("note: different devices: %s / %s" % (ca.get("device"), cb.get("device")))
    common = sorted(set(a) & set(b), key=lambda c: (c[0], c[1], -c[2], c[3]))
    if not common:
        sys.exit("compare.py: the two runs share no configuration")
    print("%-6s %-4s %-7s %-5s %9s %9s %8s %11s %11s" % ("mode", "type", "entropy", "log2n", "rs/cub A",
                                                         "rs/cub B", "change", "rs ms A", "rs ms B"))
    changes = []
    for c in common:
        if args.entropy is not None and abs(c[2] - args.entropy) > 1e-3:
            continue
        if c[3] < (1 << args.min_log2):
            continue
        (ra, ta), (rb, tb) = a[c], b[c]
        change = 100.0 * (rb / ra - 1.0)
        changes.append(change)
        print("%-6s %-4s %-7.3f %-5d %9.3f %9.3f %+7.1f%% %11.3f %11.3f" % (c[0], c[1], c[2], int(math.log2(c[3])),
                                                                          ra, rb, change, ta, tb))
    if changes:
        changes.sort()
        print("rows %d, median change %+.1f%%, worst %+.1f%%, best %+.1f%%"
              % (len(changes), changes[len(changes) // 2], changes[0], changes[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
