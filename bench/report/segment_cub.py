#!/usr/bin/env python3
"""CUB's DeviceSegmentedSort beside ringsweep's segmented sort: warp-instructions per key of the
kernel that sorts a segment of a given size, from bench/report/segment_cub.cu built for sm_80 and
sm_90 with -lineinfo (the toolkit's CCCL), by segment_sass.py --cub DIR.

Which kernel, from CUB's policy for the case (segment_cub prints it): a segment of at most the
small policy's tile goes to DeviceSegmentedSortKernelSmall's small path (a sub-warp of `threads`
lanes, merge sort), one of at most the medium tile to its medium path (the same, more lanes), a
larger one to DeviceSegmentedSortKernelLarge (a 256-thread block radix sort: one pass over shared
memory below the block's tile, `radix_bits` per pass). That is the partitioned dispatch, taken
from PARTITIONING_THRESHOLD segments on; fewer take one fallback launch that is not counted here,
nor is the three-way partition launch (DeviceThreeWayPartitionKernel) that classifies segments.

The count is a lane's SASS on the path times each loop's trip count, times lanes per segment / 32,
over the segment's keys. The path: the kernel's own lines for that branch (by the outermost frame
of each instruction's inlining chain), less the two-key short cut (ShortCircuit), the multi-pass
branch of the large kernel and what ptxas placed after the kernel's last EXIT (the collectives'
out-of-line paths). Loops are the SASS's backward branches, named by the source line of the
branch: the merge rounds (log2 lanes), the merge path's binary search inside each round (modelled:
the longest search among the segment's lanes for that round, its worst case, the runs clamped to
the segment's keys as CUB clamps them), and the radix passes (ceil(key bits / radix bits); the last
pass's exchange to striped once, the exchange to blocked once fewer). Any other loop counts once
and is listed. Padding keys (CUB fills a partial tile with the largest key) cost as real ones.
"""
import csv
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_phases  # noqa: E402
import top_k_sass  # noqa: E402

SIZES = [16, 64, 1024, 4096]
KERNEL = re.compile(r"segmented_sort::DeviceSegmentedSortKernel(Small|Large)<\(cub::[A-Za-z0-9_]+::SortOrder\)0, "
                    r"cub::[A-Za-z0-9_]+::detail::segmented_sort::policy_hub<(.*?)>::")
LABEL = re.compile(r"^\s*(\.L_x_\d+):\s*$")
TARGET = re.compile(r"`\((\.L_x_\d+)\)")
SHARED_PER_SM = {"sm_80": 164 * 1024, "sm_90": 228 * 1024}


def case_of(hub_args):
    args = [a.strip() for a in sass_phases.split_args(hub_args)]
    if len(args) != 2 or args[0] != "unsigned int":
        return None
    return "keys_u32" if args[1].endswith("NullType") else "pairs_u32_u32" if args[1] == "unsigned int" else None


def disassemble(nvdisasm, cubin, only):
    """{mangled: [(address, text, chain outermost first)]}, {mangled: {label: address}}."""
    out = subprocess.run([nvdisasm, "-c", "-gi", "-fun", ",".join(str(i) for i in only), cubin],
                         check=True, capture_output=True, text=True).stdout
    code, labels = {}, {}
    current, pending, chain, label_wait = None, [], [], []
    for raw in out.split("\n"):
        m = sass_phases.FUNC.match(raw.strip())
        if m:
            current = m.group(1)
            code[current], labels[current] = [], {}
            pending, chain, label_wait = [], [], []
            continue
        m = LABEL.match(raw)
        if m and current:
            label_wait.append(m.group(1))
            continue
        m = sass_phases.LINE.match(raw)
        if m:
            pending.append((m.group(1), int(m.group(2))))
            continue
        m = sass_phases.INSN.match(raw)
        if m and current:
            if pending:
                chain, pending = list(reversed(pending)), []
            address = int(m.group(1), 16)
            for lb in label_wait:
                labels[current][lb] = address
            label_wait = []
            code[current].append((address, m.group(2), chain))
    return code, labels


class Source:
    """Line spans in CUB's headers, found by their text (so another CCCL's line numbers follow)."""

    def __init__(self):
        self.cache = {}

    def lines(self, path):
        if path not in self.cache:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    self.cache[path] = f.read().split("\n")
            except OSError:
                self.cache[path] = []
        return self.cache[path]

    def span(self, path, name):
        spans = sass_phases.function_spans(self.lines(path), name)
        return spans[0] if spans else (0, -1)

    def find(self, path, text, start=1, end=None):
        lines = self.lines(path)
        for i in range(start, min(end or len(lines), len(lines)) + 1):
            if text in lines[i - 1]:
                return i
        return None


def radix_line(chain, path, end):
    return any(p == path for p, _ in chain) and any(p == path and l <= end for p, l in chain)


def within(span, line):
    return span[0] <= line <= span[1]


def merge_path_trips(threads, items, keys):
    """The merge path's binary search trips per round: the longest among the segment's lanes
    (worst case: bit length of the search range), the runs clamped to `keys` as CUB's Sort does."""
    trips = []
    m = 1
    while 2 * m <= threads:
        worst = 0
        for t in range(threads):
            mask = 2 * m - 1
            start = items * (~mask & t)
            diag = min(keys, items * (mask & t))
            k1b = min(keys, start)
            k1e = min(keys, k1b + items * m)
            k2e = min(keys, k1e + items * m)
            lo = 0 if diag < k2e - k1e else diag - (k2e - k1e)
            hi = min(diag, k1e - k1b)
            worst = max(worst, max(0, hi - lo).bit_length())
        trips.append(worst)
        m *= 2
    return trips


def count(insns, labels, src, kernel, branch, shape, keys):
    """(lane instructions on the path with loops by their trips, straight count, loops counted once)."""
    threads, items, bits, radix_bits = shape
    dispatch = next((p for _, _, c in insns for p, _ in c[:1] if p.endswith("dispatch_segmented_sort.cuh")), None)
    if dispatch is None:
        return None
    k0, k1 = src.span(dispatch, "DeviceSegmentedSortKernel" + kernel)
    if kernel == "Small":
        split = src.find(dispatch, "if (bid < medium_blocks)", k0, k1)
        other = src.find(dispatch, "else", split, k1)
        off = (split, other - 1) if branch == "small" else (other, k1)
    else:
        single = src.find(dispatch, "agent.ProcessSinglePass(", k0, k1)
        off = (src.find(dispatch, "else", single, k1), k1)
    last_exit = max(i for i, (_, text, _) in enumerate(insns) if text.split()[-1:] == ["EXIT"])
    radix = None
    for path in {p for _, _, c in insns for p, _ in c if p.endswith("block_radix_sort.cuh")}:
        start = src.find(path, "void SortBlockedToStriped(")
        loop = src.find(path, "while (true)", start or 1)
        last = src.find(path, "if (begin_bit >= end_bit)", loop or 1)
        brk = src.find(path, "break;", last or 1)
        end = src.find(path, "Untwiddle", brk or 1)
        rank = src.find(path, "RankKeys(unsigned_keys, ranks", loop or 1)
        if start and loop and last and brk and end and rank:
            radix = (path, last, brk, end, rank, loop)

    def on_path(at, chain):
        if at > last_exit:
            return False
        if chain and chain[0][0] == dispatch and off[0] <= chain[0][1] <= off[1]:
            return False
        for p, l in chain:
            base = os.path.basename(p)
            if base == "agent_sub_warp_merge_sort.cuh" and within(src.span(p, "ShortCircuit"), l):
                return False
            if base == "agent_segmented_radix_sort.cuh" and within(src.span(p, "ProcessIterative"), l):
                return False
        return True

    # loops: backward branches on the path, by the innermost source line of the branch
    loops = []
    for at, (address, text, chain) in enumerate(insns):
        m = TARGET.search(text)
        if not on_path(at, chain) or not m or "BRA" not in text or labels.get(m.group(1), address + 1) > address:
            continue
        path, line = chain[-1] if chain else ("", 0)
        base = os.path.basename(path)
        kind = "other"
        if base == "block_merge_sort.cuh":
            mp = src.span(path, "MergePath")
            kind = "merge_path" if mp[0] <= line <= mp[1] else \
                "merge_round" if "target_merged_threads_number" in src.lines(path)[line - 1] else "other"
        lo = labels[m.group(1)]
        if kind == "other" and radix and any(lo <= a <= address and radix_line(c, radix[0], radix[3])
                                             for a, _, c in insns):
            kind = "radix_pass"
        loops.append((lo, address, kind))
    rounds = max(threads.bit_length() - 1, 0)
    mp_trips = merge_path_trips(threads, items, keys) if kernel == "Small" else []
    passes = -(-bits // radix_bits) if kernel == "Large" else 0
    free_mp = sorted(lo for lo, hi, k in loops if k == "merge_path" and not any(
        k2 == "merge_round" and lo2 <= lo and hi <= hi2 for lo2, hi2, k2 in loops))
    # the passes' loop (sm_90: the first pass's ranking peeled off before it, the last pass's
    # exchange after it; sm_80: the loop holds the exit): its trips from the ranking's copies
    loop_radix = [(lo, hi) for lo, hi, k in loops if k == "radix_pass"]
    if radix and loop_radix:
        lo, hi = loop_radix[0]
        rank_in = sum(1 for at, (a, _, c) in enumerate(insns) if lo <= a <= hi and on_path(at, c)
                      and any(p == radix[0] and l == radix[4] for p, l in c))
        rank_out = sum(1 for at, (a, _, c) in enumerate(insns) if not lo <= a <= hi and on_path(at, c)
                       and any(p == radix[0] and l == radix[4] for p, l in c))
        trips = passes - round(rank_out / rank_in) if rank_in else 1
        exit_inside = any(lo <= a <= hi and any(p == radix[0] and radix[1] <= l <= radix[2] for p, l in c)
                          for a, _, c in insns)
    else:
        radix = None
    total = straight = 0
    for at, (address, text, chain) in enumerate(insns):
        if text.startswith("NOP") or not on_path(at, chain):
            continue
        mult = 1
        for lo, hi, kind in loops:
            if not lo <= address <= hi:
                continue
            if kind == "merge_round":
                mult *= rounds
            elif kind == "merge_path":
                inside = any(k2 == "merge_round" and lo2 <= lo and hi <= hi2 for lo2, hi2, k2 in loops)
                mult *= sum(mp_trips) / rounds if inside and rounds else \
                    (mp_trips[free_mp.index(lo)] if free_mp.index(lo) < len(mp_trips) else 1)
            elif kind == "radix_pass":
                lines = [l for p, l in chain if p == radix[0]]
                mult *= 1 if any(radix[1] <= l <= radix[2] for l in lines) else \
                    trips - 1 if exit_inside and any(radix[2] < l <= radix[3] for l in lines) else trips
        total += mult
        straight += 1
    unknown = sum(1 for _, _, k in loops if k == "other")
    return total, straight, unknown


def blocks_per_sm(arch, threads, regs, shared):
    warps = -(-threads // 32)
    by_regs = 65536 // (((regs * 32 + 255) // 256) * 256 * warps) if regs else 32
    by_shared = SHARED_PER_SM.get(arch, 100 * 1024) // (shared + 1024)
    return min(by_regs, by_shared, 2048 // threads, 32)


def analyse(cubin, nvdisasm, arch, shapes):
    """Rows for `arch` from segment_cub's cubin; shapes: {(arch, case, class): (threads, items, bits, block)}."""
    only = sass_phases.symbols_where(cubin, lambda n: KERNEL.search(n) is not None)
    code, labels = disassemble(nvdisasm, cubin, only)
    names = sass_phases.demangle(list(code))
    regs = sass_phases.registers(cubin)
    shared = top_k_sass.shared_bytes(cubin)
    src = Source()
    rows = []
    for mangled, insns in code.items():
        m = KERNEL.search(names[mangled])
        case = case_of(m.group(2)) if m else None
        if case is None:
            continue
        kernel = m.group(1)
        for size in SIZES:
            small, medium = shapes[(arch, case, "small")], shapes[(arch, case, "medium")]
            cls = "small" if size <= small[0] * small[1] else "medium" if size <= medium[0] * medium[1] else "large"
            if (kernel == "Large") != (cls == "large"):
                continue
            threads, items, bits, block = shapes[(arch, case, cls)]
            c = count(insns, labels[mangled], src, kernel, cls, (threads, items, 32, bits), size)
            if c is None:
                continue
            total, straight, unknown = c
            r = regs.get(mangled, 0)
            rows.append({"arch": arch, "case": case, "segment_keys": size, "kernel": "DeviceSegmentedSortKernel" + kernel,
                         "class": cls, "shape": "%d x %d" % (threads, items), "per_key": round(total * threads / 32.0 / size, 2),
                         "lane_insns": round(total), "straight": straight, "loops_once": unknown, "regs": r,
                         "blocks_per_sm": blocks_per_sm(arch, block, r, shared.get(mangled, 0))})
    rows.sort(key=lambda r: (r["arch"] != "sm_90", r["case"], r["segment_keys"]))
    return rows


def build(src_dir, work):
    """nvcc segment_cub.cu for sm_80 and sm_90 into `work` (reused when there); the policy shapes."""
    nvcc = subprocess.run(["sh", "-c", "command -v nvcc || echo /usr/local/cuda/bin/nvcc"],
                          capture_output=True, text=True).stdout.strip()
    exe = os.path.join(work, "segment_cub")
    if not os.path.exists(exe):
        os.makedirs(work, exist_ok=True)
        cmd = [nvcc, "-std=c++17", "-O3", "-lineinfo", "-keep", "-keep-dir", work]
        for sm in ("80", "90"):
            cmd += ["-gencode", "arch=compute_%s,code=sm_%s" % (sm, sm)]
        subprocess.run(cmd + [os.path.join(src_dir, "bench", "report", "segment_cub.cu"), "-o", exe], check=True)
    shapes = {}
    for r in csv.DictReader(subprocess.run([exe], check=True, capture_output=True, text=True).stdout.strip().split("\n")):
        block = int(r["threads"]) if r["class"] == "large" else int(r["block"])  # large: its threshold there
        shapes[(r["arch"], r["case"], r["class"])] = (int(r["threads"]), int(r["items"]), int(r["radix_bits"]), block)
    return shapes, {a: os.path.join(work, "segment_cub.compute_%s.cubin" % a[3:]) for a in ("sm_80", "sm_90")}


def rows(work, nvdisasm):
    src_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shapes, cubins = build(src_dir, work)
    out = []
    for arch, cubin in cubins.items():
        out += analyse(cubin, nvdisasm, arch, shapes)
    return out


def markdown(rows):
    head = ["arch", "case", "segment keys", "kernel", "class", "lanes x keys", "warp-instr. /key", "lane instr.",
            "static", "loops once", "registers", "blocks / SM"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["arch"], r["case"], r["segment_keys"], r["kernel"], r["class"], r["shape"], r["per_key"],
                r["lane_insns"], r["straight"], r["loops_once"], r["regs"], r["blocks_per_sm"]]
        out.append("| " + " | ".join(str(v) for v in vals) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    nv = sass_phases.find_nvdisasm()
    print(markdown(rows(sys.argv[1], nv)))
