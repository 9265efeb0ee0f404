#!/usr/bin/env python3
"""Warp-instructions per key of a segmented sort's tiny segments (the sub-warp network in the
classification's own launch, segment_classify_sort_kernel), from a cubin built with -lineinfo.

The network's regions are marked in include/ringsweep/agent/subwarp_sort.cuh (`// sass: net_*`, the
same markers sass_phases.py reads). Its loops across lanes run a number of times that depends on
the lanes a segment takes, so the count is a model over the static SASS of each region (straight
code, each loop body once, as ptxas laid it out) times its trip count:

    group(L) = net_load + net_within + sum over kl = 2, 4 .. L of
               (net_flip + (log2(kl) - 1) x net_across + net_clean) + net_keys + net_values
    per key  = (other + L x group(L)) / (32 x s)

for segments of s keys taking L lanes each (their lanes full: a partial lane's guarded loads and stores
are `cold`, as are the collectives' out-of-line paths) (L = the power of two with L x ITEMS >= s; ITEMS = 16
keys per lane for images of at most 32 bits, 8 up to 64, 4 above): a warp takes 32 segments (the kernel's
`other`: their bounds, classification and queue, counted once; the call that classifies a segment
that is not tiny is marked cold: a warp whose 32 segments are all tiny never makes it),
then sorts them in L rounds of 32 / L sub-warps, every lane of the warp issuing each instruction
once per round. `per key` is warp-instructions (one issue slot of one warp) per key. Segments of
at most ITEMS / 2 keys take one lane of the smaller network in one round instead (its call is the
region `net_one_lane`): per key = (other + net_one_lane) / (32 x s).

    segment_sass.py --cubin sm_90=X.cubin [--markdown] [--shapes ringsweep_tile_shapes]
                    [--budget bench/results/segment_budget.csv --check] [--cub DIR]

With --cub, the markdown adds CUB's DeviceSegmentedSort kernels of the same toolkit (segment_cub.py);
they are for comparison and no budget holds them.

With --shapes, --check and --write-budget also take the block classes' rows (compact, medium and
small segments: segment_blocks_kernel).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_phases  # noqa: E402

REGIONS = ["net_load", "net_within", "net_flip", "net_across", "net_clean", "net_keys", "net_values", "net_one_lane"]
SIZES = [4, 8, 16, 64, 128, 256, 512]  # segment sizes the report and the budget name
KERNEL = re.compile(r"segment_classify_sort_kernel<ringsweep::[a-z0-9_]+::detail::sort_config<(.*)>, "
                    r"ringsweep::[a-z0-9_]+::detail::segment_offsets<[^<>]*>, "
                    r"ringsweep::[a-z0-9_]+::detail::segment_in_place>\(")


# The block classes' kernel (segment_blocks_kernel<config, output>): its regions `compact_class`,
# `medium_class` and `small_class` hold each class's path (its `large_offsets` region is on no
# segment's path); within them small_sort's `nibble_pass` is the per-pass loop body.
SMALL_KERNEL = re.compile(r"segment_blocks_kernel<ringsweep::[a-z0-9_]+::detail::sort_config<(.*)>, "
                          r"ringsweep::[a-z0-9_]+::detail::segment_in_place>\(")
CLASS_REGIONS = {"compact_class": "compact", "medium_class": "medium", "small_class": "small"}
BLOCK_SIZES = [256, 512, 600, 1024, 1920, 4096, 9216]  # segment sizes of the block classes' rows
PASSES = {8: 1, 16: 2, 32: 4, 64: 8, 128: 16}  # digit passes of the whole key
NIBBLE_PASSES = {b: 2 * p for b, p in PASSES.items()}  # 4-bit passes (block_thread_rank's)


def config_case(args):
    """(case, key bits) of a sort_config's (policy, key, value, hooks) arguments: keys_u32,
    pairs_u32_u32 ... (values by their words: value_words<4, 4> is u32, 16 bytes v16), else None."""
    key = sass_phases.key_name(args[1])
    if key is None:
        return None
    value = args[2]
    if value.endswith("null_value"):
        return "keys_" + key, 8 * sass_phases.TYPE_BYTES[key]
    words = re.search(r"value_words<(\d+), ?\d+>", value)
    v = {"1": "u8", "2": "u16", "4": "u32", "8": "u64", "16": "v16"}.get(words.group(1)) if words else \
        sass_phases.TYPE_NAMES.get(value)
    if v is None:
        return None
    return "pairs_%s_%s" % (key, v), 8 * sass_phases.TYPE_BYTES[key]


def block_case(demangled):
    """(policy, case, key bits) of a segment_blocks_kernel, else None."""
    m = SMALL_KERNEL.search(demangled)
    if not m:
        return None
    args = sass_phases.split_args(m.group(1))
    if len(args) != 4:
        return None
    kc = config_case(args)
    if kc is None:
        return None
    case, bits = kc
    return args[0].split("::")[-1], case, bits


def class_counts(insns, regions):
    """Instructions of segment_blocks_kernel's path (before its last EXIT, as `counts`) by class:
    {class: {"other": n, "nibble_pass": n}} for the compact, medium and small classes' regions
    (an instruction inlined into a class's region, in small_sort's pass loop or not), "front": the
    front list's chunk (`front_chunk`: its items put in their classes' queues, counted on the compact
    and medium classes' paths), and "kernel": those of no class and not the large segments'
    offsets (the prologue, the loops over the lists), counted on every class's path; "cold" after
    the last EXIT."""
    c = {cls: {"other": 0, "nibble_pass": 0} for cls in CLASS_REGIONS.values()}
    c["kernel"] = 0
    c["front"] = 0
    c["cold"] = 0
    for text, chain in on_path(insns, c):
        phases = [regions.phase(path, line) for path, line in chain]
        if "cold" in phases:
            c["cold"] += 1
            continue
        cls = next((CLASS_REGIONS[p] for p in phases if p in CLASS_REGIONS), None)
        if cls is None:
            if "front_chunk" in phases:
                c["front"] += 1
            elif "large_offsets" not in phases:
                c["kernel"] += 1
            continue
        c[cls]["nibble_pass" if "nibble_pass" in phases else "other"] += 1
    return c


def kernel_case(demangled):
    """(policy, case, key bits) of a segment_classify_sort_kernel over offset arrays, else None."""
    m = KERNEL.search(demangled)
    if not m:
        return None
    args = sass_phases.split_args(m.group(1))
    if len(args) != 4:
        return None
    kc = config_case(args)
    if kc is None:
        return None
    return args[0].split("::")[-1], kc[0], kc[1]


def on_path(insns, c):
    """The (text, inline chain) of each instruction on the kernel's path: those before its last
    EXIT, padding (NOP) and the closing self-branch left out; those after it are counted in
    `c["cold"]`."""
    last_exit = max([i for i, (text, _) in enumerate(insns) if text.split()[-1:] == ["EXIT"]] or [len(insns)])
    for at, (text, chain) in enumerate(insns):
        if at > last_exit:
            c["cold"] += 1
        elif not (text.startswith("NOP") or text == "BRA `(.L_x_0)"):
            yield text, chain


def counts(insns, regions, names=REGIONS):
    """Instructions per region on the kernel's path: those before its last EXIT. ptxas places the
    out-of-line paths of the warp collectives after it (`BRA.DIV` targets: a shuffle or ballot
    reached by a diverged warp), which never run here (every collective is reached by the whole
    warp); they are counted as `cold`."""
    c = {r: 0 for r in names}
    c["other"] = 0
    c["cold"] = 0
    for text, chain in on_path(insns, c):
        phase = None
        for path, line in chain:
            p = regions.phase(path, line)
            if p == "cold":  # a partial lane's guarded path, wherever it is inlined
                phase = "cold"
                break
            if p and phase is None:
                phase = p
        c[phase if phase in c else "other"] += 1
    return c


def lane_items(key_bits):
    """Keys per lane of the network's full variant (subwarp_lane_items)."""
    return 16 if key_bits <= 32 else 8 if key_bits <= 64 else 4


def tiny_limit(key_bits):
    """The shipped policies' tiny limit: min(SEGMENT_TINY_KEYS = 512, 32 lanes' keys)."""
    return min(512, 32 * lane_items(key_bits))


def per_key(c, key_bits, size):
    items = lane_items(key_bits)
    if size <= items // 2 and c["net_one_lane"] > 0:  # the one-lane class: 32 segments at once
        return (c["other"] + c["net_one_lane"]) / (32.0 * size), 1
    lanes = 1
    while lanes * items < size:
        lanes *= 2
    group = c["net_load"] + c["net_within"] + c["net_keys"] + c["net_values"]
    kl = 2
    while kl <= lanes:
        group += c["net_flip"] + (kl.bit_length() - 2) * c["net_across"] + c["net_clean"]
        kl *= 2
    return (c["other"] + lanes * group) / (32.0 * size), lanes


def analyse(cubin, nvdisasm, arch):
    kernels, names, regs = sass_phases.kernels_where(cubin, nvdisasm, lambda n: kernel_case(n) is not None)
    regions = sass_phases.Regions()
    rows = []
    for mangled, insns in kernels.items():
        kc = kernel_case(names[mangled])
        if kc is None or len(insns) < 100:  # a policy compiled out of this architecture
            continue
        policy, case, bits = kc
        c = counts(insns, regions)
        for size in SIZES:
            if size > tiny_limit(bits):
                continue
            value, lanes = per_key(c, bits, size)
            row = {"arch": arch, "policy": policy, "case": case, "segment_keys": size, "lanes": lanes,
                   "per_key": round(value, 2), "regs": regs.get(mangled, 0)}
            row.update(c)
            rows.append(row)
    rows.sort(key=lambda r: (r["arch"], r["case"], r["segment_keys"]))
    return rows


def analyse_blocks(cubin, nvdisasm, arch, threads_of):
    """Rows for the block classes of segment_blocks_kernel: warp-instructions per key of a segment
    of s keys sorted by one group of the block (compact, medium) or the whole block (small) =
    warps of the group x (kernel + class other (+ front for compact and medium) + passes x
    nibble_pass) / s, passes = key bits / 4
    (block_thread_rank's 4-bit passes; a partial warp segment's guarded loads are cold, as in the
    network's rows; every warp of the group runs every instruction, padding or not; `kernel`, the
    instructions on no class's path, is charged in full to every segment). `threads_of(policy, case,
    class)` gives the group's threads, the class's largest segment and the group's shape
    (threads x keys a thread)."""
    kernels, names, regs = sass_phases.kernels_where(cubin, nvdisasm, lambda n: block_case(n) is not None)
    regions = sass_phases.Regions()
    rows = []
    for mangled, insns in kernels.items():
        bc = block_case(names[mangled])
        if bc is None or len(insns) < 100:
            continue
        policy, case, bits = bc
        c = class_counts(insns, regions)
        for cls in ("compact", "medium", "small"):
            shape = threads_of(policy, case, cls)
            if shape is None or c[cls]["nibble_pass"] == 0:
                continue
            threads, tile, label = shape
            other = c["kernel"] + c[cls]["other"] + (c["front"] if cls != "small" else 0)
            for size in BLOCK_SIZES:
                if size > tile or size <= tiny_limit(bits):  # tiny ones: the network's
                    continue
                warp_insns = threads // 32 * (other + NIBBLE_PASSES[bits] * c[cls]["nibble_pass"])
                rows.append({"arch": arch, "policy": policy, "case": case, "class": cls, "threads": threads,
                             "tile": tile, "block": label, "segment_keys": size, "per_key": round(warp_insns / size, 2),
                             "regs": regs.get(mangled, 0), "other": other, "small_pass": c[cls]["nibble_pass"],
                             "passes": NIBBLE_PASSES[bits], "cold": c["cold"]})
    rows.sort(key=lambda r: (r["arch"], r["case"], r["class"], r["segment_keys"]))
    return rows


def markdown_blocks(rows):
    head = ["arch", "case", "class", "block", "segment keys", "warp-instr. /key", "registers", "other", "passes",
            "per pass"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["arch"], r["case"], r["class"], r["block"],
                r["segment_keys"], r["per_key"], r["regs"], r["other"], r["passes"], r["small_pass"]]
        out.append("| " + " | ".join(str(v) for v in vals) + " |")
    return "\n".join(out)


def markdown(rows):
    head = ["arch", "case", "segment keys", "lanes", "warp-instr. /key", "registers", "other"] + REGIONS + ["cold"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["arch"], r["case"], r["segment_keys"], r["lanes"], r["per_key"], r["regs"], r["other"]]
        vals += [r[x] for x in REGIONS] + [r["cold"]]
        out.append("| " + " | ".join(str(v) for v in vals) + " |")
    return "\n".join(out)


def check_budget(rows, path):
    failures = []
    budget = sass_phases.read_budget(path)
    by_key = {(r["arch"], r["policy"], r["case"], str(r["segment_keys"])): r for r in rows}
    for b in budget:
        k = (b["arch"], b["policy"], b["case"], b["segment_keys"])
        r = by_key.get(k)
        if r is None:
            failures.append("%s %s %s %s keys: no such kernel in the cubin (budget row stale?)" % k)
        elif sass_phases.over_budget(r["per_key"], b["max_per_key"]):
            failures.append("%s %s %s %s keys: %.2f warp-instructions per key, budget %s" % (k + (r["per_key"], b["max_per_key"])))
        elif r["regs"] > int(b["max_regs"]):
            failures.append("%s %s %s %s keys: %d registers, budget %s" % (k + (r["regs"], b["max_regs"])))
        else:
            print("ok   %s %s %s %s keys: %.2f per key (budget %s), %d registers (budget %s)"
                  % (k + (r["per_key"], b["max_per_key"], r["regs"], b["max_regs"])))
    return failures


def write_budget(rows, path):
    import math
    out = ["# The segmented sort's tiny segments (the sub-warp network in segment_classify_sort_kernel), checked",
           "# by the segment_sass_budget test (bench/report/segment_sass.py over the spill gate's cubins):",
           "# warp-instructions per key for segments of `segment_keys` keys (every lane full) and registers.",
           "# A kernel more than 1% above its row fails the test. Lower a row when a change removes instructions; raise",
           "# one only with the reason in the commit (segment_sass.py --write-budget writes every row anew).",
           "# Rows of policy segment_compact:<policy>: the compact segments' group of segment_blocks_kernel",
           "# (segment_compact_policy's threads), warps x (other + passes x nibble_pass) / segment_keys",
           "# (--shapes); rows of segment_block:<policy>: the medium segments' group (segment_block_policy)",
           "# at the sizes above the compact tile; rows of segment_small:<policy>: the small segments' whole",
           "# block (segment_small_policy) at the sizes above the medium tile. Every block class ranks by",
           "# per-thread counters over 4-bit digits, its passes 4-bit ones (nibble_pass).",
           "arch,policy,case,segment_keys,max_per_key,max_regs"]
    for r in rows:
        if r["case"] == "pairs_u32_u64":  # the positions of gathered values, not a shape of its own
            continue
        out.append("%s,%s,%s,%d,%.2f,%d" % (r["arch"], r["policy"], r["case"], r["segment_keys"],
                                           math.ceil(r["per_key"] * 100 - 1e-9) / 100, r["regs"]))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def budget_block_rows(rows):
    """The block rows the budget holds: the compact, medium and small classes' at the sizes they
    sort (their policies named `segment_compact:<policy>`, `segment_block:<policy>` and
    `segment_small:<policy>`, as tile_shapes names their shapes)."""
    out = [dict(r, policy="segment_compact:" + r["policy"]) for r in rows if r["class"] == "compact"]
    compact_tile = {(r["arch"], r["policy"], r["case"]): r["tile"] for r in rows if r["class"] == "compact"}
    out += [dict(r, policy="segment_block:" + r["policy"]) for r in rows if r["class"] == "medium" and
            r["segment_keys"] > compact_tile.get((r["arch"], r["policy"], r["case"]), 0)]
    medium_tile = {(r["arch"], r["policy"], r["case"]): r["tile"] for r in rows if r["class"] == "medium"}
    out += [dict(r, policy="segment_small:" + r["policy"]) for r in rows if r["class"] == "small" and
            r["segment_keys"] > medium_tile.get((r["arch"], r["policy"], r["case"]), 0)]
    return out


def block_rows(args):
    import subprocess
    if os.access(args.shapes, os.X_OK) and not args.shapes.endswith(".csv"):
        text = subprocess.run([args.shapes], check=True, capture_output=True, text=True).stdout
    else:
        with open(args.shapes) as f:
            text = f.read()
    lines = [l.split(",") for l in text.strip().split("\n")]
    head = lines[0]
    table = [dict(zip(head, l)) for l in lines[1:]]

    def shape(name, case):
        for r in table:
            if r.get("policy") == name and r.get("case") == case:
                return int(r["threads"]), int(r["threads"]) * int(r["items"]), "%s x %s" % (r["threads"], r["items"])
        return None

    def threads_of(policy, case, cls):
        """The group's threads and the class's largest segment: the small class's block holds at
        least one onesweep tile, the class ends at it."""
        if cls == "small":
            block, tile = shape("segment_small:" + policy, case), shape(policy, case)
            return (block[0], tile[1], block[2]) if block and tile else None
        return shape({"medium": "segment_block:", "compact": "segment_compact:"}[cls] + policy, case)
    nvdisasm = sass_phases.find_nvdisasm(args.nvdisasm)
    rows = []
    for spec in args.cubin:
        arch, path = spec.split("=", 1)
        rows += analyse_blocks(path, nvdisasm, arch, threads_of)
    return rows


def main():
    ap = sass_phases.budget_arguments(__doc__)
    ap.add_argument("--shapes", help="tile_shapes' CSV (a file or the program): adds the block classes' table")
    ap.add_argument("--write-budget", action="store_true", help="write --budget from these cubins (then review the diff)")
    ap.add_argument("--cub", metavar="DIR", help="with --markdown: CUB's DeviceSegmentedSort beside them (segment_cub.py; "
                    "nvcc builds bench/report/segment_cub.cu into DIR, about 40 s, reused when there)")
    args = ap.parse_args()
    nvdisasm = sass_phases.nvdisasm_or_skip(args.nvdisasm, "segment_sass")
    if nvdisasm is None:
        return 0
    rows = sass_phases.rows_of_cubins(args.cubin, lambda path, arch: analyse(path, nvdisasm, arch))
    budgeted = rows
    if args.shapes and (args.check or args.write_budget):
        budgeted = rows + budget_block_rows(block_rows(args))
    if args.markdown:
        print(markdown(rows))
        if args.shapes:
            print()
            print(markdown_blocks(block_rows(args)))
        if args.cub:
            import segment_cub
            print()
            print(segment_cub.markdown(segment_cub.rows(args.cub, nvdisasm)))
    return sass_phases.conclude(args, rows, write_budget, check_budget, budgeted)


if __name__ == "__main__":
    sys.exit(main())
