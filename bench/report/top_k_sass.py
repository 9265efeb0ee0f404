#!/usr/bin/env python3
"""SASS instructions per key of top-k's first read (top_k_count_kernel) and of a pass of the candidates'
one-launch sort (top_k_sort_kernel, keys only), registers and blocks per SM of the select's kernels
(count, levels), of that sort and of the batched top-k's per-row select (top_k_rows_kernel, one block
per row or part of a row), from a cubin built with -lineinfo (the spill gate's).

The first read's regions are marked in include/ringsweep/agent/top_k_count.cuh (`// sass: first_*`,
the markers sass_phases.py reads): `first_load` (a whole tile's vector loads), `first_count` and
`first_speculate` (each key's digit and shared atomic, its candidate ballot), `first_append` (a tile's
scan of the candidate counts and the loop that writes them: once per tile), `first_plain` (a whole tile
counted once its range stopped speculating). The partial tiles, the head of an unaligned range and the
first tile's guess are `cold`, as are the ballots' out-of-line paths for a diverged warp (after the
kernel's last EXIT: segment_sass.counts). Per key on the full-tile path, `keys` = the keys a thread
reads at once (HIST_ITEMS = 16 of the shipped policies, at most 64 bytes' worth, 16 for 2-byte floats):

    speculating  = (first_load + first_count + first_speculate + first_append) / keys
    plain        = (first_load + first_plain) / keys

static counts (each loop body once, as ptxas laid it out). The sort's pass (regions `sort_*` in
include/ringsweep/agent/top_k_sort.cuh; its offsets, once per tile, are `other`), per key of the
keys-only sort tile (THREADS x ITEMS of tile_shapes, hence --shapes; without it no sort rows):

    sort pass    = (sort_load + sort_rank + sort_scatter) / ITEMS

Blocks per SM: the fewest that registers (a warp's in units of 256), shared memory (the kernel's
.nv.shared section plus 1 KiB reserved) and threads (2048 an SM) allow, at most 32. Budget rows of
the sort have the case "sort_" + the key's case.

    top_k_sass.py --cubin sm_90=X.cubin [--shapes tile_shapes] [--markdown]
                  [--budget bench/results/top_k_budget.csv --check]
"""
import csv
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_phases  # noqa: E402
import segment_sass  # noqa: E402

REGIONS = ["first_load", "first_count", "first_speculate", "first_append", "first_plain"]
SORT_REGIONS = ["sort_load", "sort_rank", "sort_scatter", "sort_values"]
KERNEL = re.compile(r"detail::(top_k_(count|levels)_kernel)<ringsweep::[a-z0-9_]+::detail::sort_config<(.*)> ?>\(")
# The batched top-k's per-row select: registers and blocks per SM only (its loops walk a row of
# any length); case "rows_" + the key's case + the form (keys, pairs: the values' bytes, indices).
ROWS_KERNEL = re.compile(r"detail::(top_k_rows_kernel)<ringsweep::[a-z0-9_]+::detail::sort_config<(.*?no_hooks)>, "
                         r"(.*), (true|false), (true|false) ?>\(")
SORT_KERNEL = re.compile(r"detail::(top_k_sort_kernel)<ringsweep::[a-z0-9_]+::detail::sort_config<(.*)>, "
                         r"ringsweep::[a-z0-9_]+::detail::top_k_no_values ?>\(")
HIST_ITEMS = 16  # policy_defaults' (every shipped policy's)
SHARED_PER_SM = {"sm_75": 64 * 1024, "sm_80": 164 * 1024, "sm_90": 228 * 1024}
THREADS = 128  # HIST_THREADS of the shipped policies


def kernel_case(demangled):
    """(kernel, policy, case, key bytes) of a select kernel for a built-in key, else None."""
    m = KERNEL.search(demangled)
    rows_form = None
    if m:
        kernel, config = m.group(1), m.group(3)
    elif ROWS_KERNEL.search(demangled):
        m = ROWS_KERNEL.search(demangled)
        kernel, config = m.group(1), m.group(2)
        words = re.search(r"value_words<(\d+), ", m.group(3))
        rows_form = ("pairs" + (words.group(1) if words else "") if m.group(4) == "true"
                     else "indices" if m.group(5) == "true" else "keys")
    else:
        m = SORT_KERNEL.search(demangled)
        if not m:
            return None
        kernel, config = m.group(1), m.group(2)
    args = sass_phases.split_args(config)
    if len(args) != 4:
        return None
    kc = segment_sass.config_case(args)
    if kc is None:
        return None
    case = kc[0] if rows_form is None else "rows_%s_%s" % (kc[0], rows_form)
    return kernel, args[0].split("::")[-1], case, kc[1] // 8


def shared_bytes(cubin):
    """{mangled kernel: static shared bytes}: the sizes of the cubin's .nv.shared.<kernel> sections."""
    with open(cubin, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return {}
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx][4]
    out = {}
    for h in headers:
        end = data.index(b"\0", strtab + h[0])
        name = data[strtab + h[0]:end].decode(errors="replace")
        if name.startswith(".nv.shared."):
            out[name[len(".nv.shared."):]] = h[5]
    return out


def blocks_per_sm(arch, regs, shared, threads=THREADS):
    by_regs = 65536 // (((regs * 32 + 255) // 256) * 256 * (threads // 32)) if regs else 32
    by_shared = SHARED_PER_SM.get(arch, 100 * 1024) // (shared + 1024)
    return min(by_regs, by_shared, 2048 // threads, 32)


def analyse(cubin, nvdisasm, arch, shapes=None):
    kernels, names, regs = sass_phases.kernels_where(cubin, nvdisasm, lambda n: kernel_case(n) is not None)
    shared = shared_bytes(cubin)
    regions = sass_phases.Regions()
    rows = []
    for mangled, insns in kernels.items():
        kc = kernel_case(names[mangled])
        if kc is None or len(insns) < 100:  # a policy compiled out of this architecture
            continue
        kernel, policy, case, key_bytes = kc
        r = regs.get(mangled, 0)
        row = {"arch": arch, "kernel": kernel, "policy": policy, "case": case, "regs": r,
               "shared": shared.get(mangled, 0), "blocks_per_sm": blocks_per_sm(arch, r, shared.get(mangled, 0))}
        if kernel == "top_k_sort_kernel":
            shape = (shapes or {}).get((policy, case))
            if shape is None:
                continue
            threads, items = shape
            row["blocks_per_sm"] = blocks_per_sm(arch, r, row["shared"], threads)
            c = segment_sass.counts(insns, regions, SORT_REGIONS)
            row["keys"] = items
            row["per_key"] = round((c["sort_load"] + c["sort_rank"] + c["sort_scatter"]) / items, 2)
            row.update(c)
        if kernel == "top_k_count_kernel":
            c = segment_sass.counts(insns, regions, REGIONS)
            # 2-byte floats: 16 bytes' worth (their ordered image takes registers of its own)
            keys = min(HIST_ITEMS, (16 if case in ("keys_f16", "keys_bf16") else 64) // key_bytes)
            row["keys"] = keys
            row["per_key"] = round((c["first_load"] + c["first_count"] + c["first_speculate"] + c["first_append"]) / keys, 2)
            row["plain_per_key"] = round((c["first_load"] + c["first_plain"]) / keys, 2)
            row.update(c)
        rows.append(row)
    rows.sort(key=lambda r: (r["arch"], r["kernel"], r["policy"], r["case"]))
    return rows


def markdown(rows):
    head = ["arch", "kernel", "case", "registers", "shared bytes", "blocks / SM", "keys / thread",
            "instr. / key (speculating; sort: a pass)", "instr. / key (plain)"] + REGIONS + SORT_REGIONS + ["other", "cold"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["arch"], r["kernel"], r["case"], r["regs"], r["shared"], r["blocks_per_sm"]]
        vals += [r.get(x, "") for x in ["keys", "per_key", "plain_per_key"] + REGIONS + SORT_REGIONS + ["other", "cold"]]
        out.append("| " + " | ".join(str(v) for v in vals) + " |")
    return "\n".join(out)


def check_budget(rows, path):
    failures = []
    budget = sass_phases.read_budget(path)
    by_key = {(r["arch"], r["policy"], budget_case(r)): r for r in rows if budget_case(r)}
    for b in budget:
        k = (b["arch"], b["policy"], b["case"])
        r = by_key.get(k)
        if r is None:
            failures.append("%s %s %s: no such kernel in the cubin (budget row stale? --shapes for sort rows)" % k)
        elif sass_phases.over_budget(r["per_key"], b["max_per_key"]):
            failures.append("%s %s %s: %.2f instructions per key, budget %s" % (k + (r["per_key"], b["max_per_key"])))
        elif r["regs"] > int(b["max_regs"]):
            failures.append("%s %s %s: %d registers, budget %s" % (k + (r["regs"], b["max_regs"])))
        elif r["blocks_per_sm"] < int(b["min_blocks_per_sm"]):
            failures.append("%s %s %s: %d blocks per SM, budget %s" % (k + (r["blocks_per_sm"], b["min_blocks_per_sm"])))
        else:
            print("ok   %s %s %s: %.2f per key (budget %s), %d registers (budget %s), %d blocks per SM"
                  % (k + (r["per_key"], b["max_per_key"], r["regs"], b["max_regs"], r["blocks_per_sm"])))
    return failures


def budget_case(row):
    """The budget's case of a row: the first read's key case, "sort_" + it for the sort; else None."""
    if row["kernel"] == "top_k_count_kernel":
        return row["case"]
    if row["kernel"] == "top_k_sort_kernel" and "per_key" in row:
        return "sort_" + row["case"]
    return None


def write_budget(rows, path):
    import math
    out = ["# top-k's first read (top_k_count_kernel) and its candidates' one-launch sort (top_k_sort_kernel,",
           "# cases sort_*), checked by the top_k_sass_budget test (bench/report/top_k_sass.py over the spill",
           "# gate's cubins): SASS instructions per key on the first read's full-tile path while speculating,",
           "# or of a sort pass; registers and resident blocks per SM. A kernel more than 1% past its row",
           "# fails the test. Lower a row when a change removes instructions; raise one only with the reason",
           "# in the commit (top_k_sass.py --write-budget writes every row anew).",
           "arch,policy,case,max_per_key,max_regs,min_blocks_per_sm"]
    for r in rows:
        if budget_case(r) is None:
            continue
        out.append("%s,%s,%s,%.2f,%d,%d" % (r["arch"], r["policy"], budget_case(r),
                                            math.ceil(r["per_key"] * 100 - 1e-9) / 100, r["regs"], r["blocks_per_sm"]))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = sass_phases.budget_arguments(__doc__)
    ap.add_argument("--write-budget", action="store_true", help="write --budget from these cubins (then review the diff)")
    ap.add_argument("--shapes", help="tile_shapes' CSV, or the program printing it (the sort's rows)")
    args = ap.parse_args()
    nvdisasm = sass_phases.nvdisasm_or_skip(args.nvdisasm, "top_k_sass")
    if nvdisasm is None:
        return 0
    shapes = None
    if args.shapes:
        if os.access(args.shapes, os.X_OK) and not args.shapes.endswith(".csv"):
            text = subprocess.run([args.shapes], check=True, capture_output=True, text=True).stdout
        else:
            with open(args.shapes) as f:
                text = f.read()
        shapes = {(r["policy"], r["case"]): (int(r["threads"]), int(r["items"]))
                  for r in csv.DictReader(text.strip().split("\n"))}
    rows = sass_phases.rows_of_cubins(args.cubin, lambda path, arch: analyse(path, nvdisasm, arch, shapes))
    if args.markdown:
        print(markdown(rows))
    return sass_phases.conclude(args, rows, write_budget, check_budget)


if __name__ == "__main__":
    sys.exit(main())
