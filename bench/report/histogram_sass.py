#!/usr/bin/env python3
"""SASS instructions per key of the upfront histogram (histogram_kernel: every pass's digit counts
in one read, and the sorted-input check), from a cubin built with -lineinfo (the spill gate's).

The regions are marked in include/ringsweep/agent/histogram_tile.cuh (`// sass: hist_*`, the
markers sass_phases.py reads): `hist_load` (a full tile's vector loads), `hist_image` (each key's
order-preserving image, made once), `hist_pass` (one pass of the digit loop: each key's digit
added to the block's shared counters) and `hist_check` (the tile's order check, run while every
key the block has seen is in order). The unaligned head and the ragged last tile are `cold`, as
are the collectives' out-of-line paths (after the kernel's last EXIT: segment_sass.counts); the
block's setup, its loop control and the flush of its counters are `other`. Per key on the
full-tile path (static counts, each loop body once, as ptxas laid it out), `items` = HIST_ITEMS
(16 in every shipped policy) and `passes` the key's 8-bit digits over its whole width:

    unsorted = (hist_load + hist_image + passes x hist_pass) / items
    sorted   = unsorted + hist_check / items

A random input pays `sorted` for one tile a block (its first key out of order stops the check),
`unsorted` for every other. Cases are the key's (sass_phases.key_name), custom keys through a
decomposer `custom_` + the key's type name.

    histogram_sass.py --cubin sm_90=X.cubin [--markdown] [--budget bench/results/histogram_budget.csv --check]
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_phases  # noqa: E402
import segment_sass  # noqa: E402

REGIONS = ["hist_load", "hist_image", "hist_pass", "hist_check"]
KERNEL = re.compile(r"detail::histogram_kernel<ringsweep::[a-z0-9_]+::detail::sort_config<(.*)> ?>\(")
HIST_ITEMS = 16  # policy_defaults' (every shipped policy's)
KEY_BITS = {"u8": 8, "i8": 8, "u16": 16, "i16": 16, "f16": 16, "u32": 32, "i32": 32, "f32": 32, "u64": 64,
            "i64": 64, "f64": 64, "i128": 128, "u128": 128}
CUSTOM_BITS = {"uu_key": 64, "fi_key": 96}  # the spill gate's custom keys: {u32, u32}, {float, int64}


def kernel_case(demangled):
    """(policy, case, image bits) of a histogram kernel, else None."""
    m = KERNEL.search(demangled)
    if not m:
        return None
    args = sass_phases.split_args(m.group(1))
    if len(args) != 4 or not args[3].endswith("::no_hooks"):
        return None
    key = sass_phases.key_name(args[1])
    bits = KEY_BITS.get(key)
    if key is None:
        custom = re.search(r"decomposed_key<(?:\(anonymous namespace\)::)?([A-Za-z0-9_]+),", args[1])
        if custom is None or custom.group(1) not in CUSTOM_BITS:
            return None
        key, bits = "custom_" + custom.group(1), CUSTOM_BITS[custom.group(1)]
    return args[0].split("::")[-1], "keys_" + key, bits


def analyse(cubin, nvdisasm, arch):
    kernels, names, regs = sass_phases.kernels_where(cubin, nvdisasm, lambda n: kernel_case(n) is not None)
    regions = sass_phases.Regions()
    rows = []
    for mangled, insns in kernels.items():
        kc = kernel_case(names[mangled])
        if kc is None or len(insns) < 50:  # a policy compiled out of this architecture
            continue
        policy, case, bits = kc
        c = segment_sass.counts(insns, regions, REGIONS)
        passes = math.ceil(bits / 8)
        unsorted = (c["hist_load"] + c["hist_image"] + passes * c["hist_pass"]) / HIST_ITEMS
        row = {"arch": arch, "policy": policy, "case": case, "passes": passes, "regs": regs.get(mangled, 0),
               "unsorted": round(unsorted, 2), "sorted": round(unsorted + c["hist_check"] / HIST_ITEMS, 2)}
        row.update(c)
        rows.append(row)
    rows.sort(key=lambda r: (r["arch"], r["case"]))
    return rows


def markdown(rows):
    head = ["arch", "case", "passes", "per key (unsorted)", "per key (sorted)", "registers"] + REGIONS + \
        ["other", "cold"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["arch"], r["case"], r["passes"], r["unsorted"], r["sorted"], r["regs"]] + \
            [r[x] for x in REGIONS] + [r["other"], r["cold"]]
        out.append("| " + " | ".join(str(v) for v in vals) + " |")
    return "\n".join(out)


def check_budget(rows, path):
    failures = []
    budget = sass_phases.read_budget(path)
    by_key = {(r["arch"], r["policy"], r["case"]): r for r in rows}
    for b in budget:
        k = (b["arch"], b["policy"], b["case"])
        r = by_key.get(k)
        if r is None:
            failures.append("%s %s %s: no such kernel in the cubin (budget row stale?)" % k)
        elif sass_phases.over_budget(r["unsorted"], b["max_unsorted"]) or sass_phases.over_budget(r["sorted"], b["max_sorted"]):
            failures.append("%s %s %s: %.2f / %.2f instructions per key (unsorted / sorted), budget %s / %s"
                            % (k + (r["unsorted"], r["sorted"], b["max_unsorted"], b["max_sorted"])))
        elif r["regs"] > int(b["max_regs"]):
            failures.append("%s %s %s: %d registers, budget %s" % (k + (r["regs"], b["max_regs"])))
        else:
            print("ok   %s %s %s: %.2f / %.2f per key (budget %s / %s), %d registers (budget %s)"
                  % (k + (r["unsorted"], r["sorted"], b["max_unsorted"], b["max_sorted"], r["regs"], b["max_regs"])))
    return failures


def write_budget(rows, path):
    out = ["# The upfront histogram (histogram_kernel), checked by the histogram_sass_budget test",
           "# (bench/report/histogram_sass.py over the spill gate's cubins): SASS instructions per key on",
           "# the full-tile path, once its order check has stopped (unsorted) and while it runs (sorted),",
           "# and registers. A kernel more than 1% above its row fails the test. Lower a row when a change removes",
           "# instructions; raise one only with the reason in the commit (--write-budget writes every row).",
           "arch,policy,case,max_unsorted,max_sorted,max_regs"]
    up = lambda x: math.ceil(x * 100 - 1e-9) / 100  # noqa: E731
    for r in rows:
        out.append("%s,%s,%s,%.2f,%.2f,%d" % (r["arch"], r["policy"], r["case"], up(r["unsorted"]), up(r["sorted"]),
                                              r["regs"]))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = sass_phases.budget_arguments(__doc__)
    ap.add_argument("--write-budget", action="store_true", help="write --budget from these cubins (then review the diff)")
    args = ap.parse_args()
    nvdisasm = sass_phases.nvdisasm_or_skip(args.nvdisasm, "histogram_sass")
    if nvdisasm is None:
        return 0
    rows = sass_phases.rows_of_cubins(args.cubin, lambda path, arch: analyse(path, nvdisasm, arch))
    if args.markdown:
        print(markdown(rows))
    return sass_phases.conclude(args, rows, write_budget, check_budget)


if __name__ == "__main__":
    sys.exit(main())
