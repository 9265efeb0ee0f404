#!/usr/bin/env python3
"""SASS instructions per key of the onesweep kernels, by phase, from a cubin built with -lineinfo.

The instruction report of issue #35 (bench/results/report.md, section "Instructions per key") and
the CI budget check (`sass_budget` test) both come from here. No GPU and no recompilation: nvdisasm
(`-c -gi`: code with the inlining chain of every instruction) over a cubin that nvcc already built
(-lineinfo changes no instruction, only adds the line table).

How an instruction finds its phase. Every instruction carries the chain of source lines it was
inlined through, outermost (the kernel) to innermost. Source regions name phases:
  - ringsweep: marker comments in include/ringsweep, `// sass: <phase>` opening a region and
    `// sass: end` closing it (regions do not nest; an opening marker closes the previous region);
  - CUB: the bodies of the agent's and the ranking's member functions (CUB_FUNCTIONS below).
The instruction's phase is that of the OUTERMOST frame of its chain that lies in a region (so a
digit extraction called from the counting loop counts as `counts`); no such frame: `other`. A
region named `cold` (or a CUB call line in CUB_COLD_LINES) takes the instruction off the full-tile
path: partial tiles, tiles of one digit. `per key` = the phase's static instruction count over the
kernel's keys per thread: straight-line code, each loop body once, as ptxas laid it out.

    sass_phases.py --cubin X.cubin --shapes "$(tile_shapes)" [--json OUT] [--markdown]
    sass_phases.py --cubin X.cubin --shapes ... --budget bench/results/sass_budget.csv --check
    sass_phases.py --report bench/results        # instructions.md/.csv: ringsweep beside CUB
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys

# The phases reported per key (full-tile path), in tile order. `load`: ticket and key loads;
# `publish`: the tile's counts to the look-back; `lookback`: the global offsets (per tile, not per
# key); `other`: everything no region names (set-up, barriers between phases).
PHASES = ["load", "counts", "publish", "rank", "exchange", "lookback", "keys_scatter", "values_load",
          "values_exchange", "values_scatter", "other"]
PER_KEY_PHASES = ["counts", "rank", "exchange", "keys_scatter", "values_load", "values_exchange", "values_scatter"]

# CUB 3.0's onesweep agent (agent_radix_sort_onesweep.cuh) and BlockRadixRankMatchEarlyCounts
# (block_radix_rank.cuh): member function -> phase.
CUB_FUNCTIONS = {
    "agent_radix_sort_onesweep.cuh": [
        ("LoadKeys", "load"), ("LookbackPartial", "publish"), ("TryShortCircuit", "publish"),
        ("ShortCircuitCopy", "cold"), ("LookbackGlobal", "lookback"), ("LoadBinsToOffsetsGlobal", "lookback"),
        ("UpdateBinsGlobal", "lookback"), ("ScatterKeysShared", "exchange"), ("ScatterKeysGlobal", "keys_scatter"),
        ("ScatterKeysGlobalDirect", "keys_scatter"), ("ScatterKeysGlobalAligned", "keys_scatter"),
        ("ComputeKeyDigits", "values_exchange"), ("LoadValues", "values_load"),
        ("ScatterValuesShared", "values_exchange"), ("ScatterValuesGlobal", "values_scatter"),
        ("ScatterValuesGlobalDirect", "values_scatter"),
    ],
    "block_radix_rank.cuh": [
        ("ComputeHistogramsWarp", "counts"), ("ComputeOffsetsWarpUpsweep", "counts"),
        ("ComputeOffsetsWarpDownsweep", "rank"), ("ComputeRanksItem", "rank"),
    ],
}
# Call lines of CUB's partial-tile paths (the full-tile path calls the <true> instances).
CUB_COLD_LINES = {
    "agent_radix_sort_onesweep.cuh": [r"ScatterKeysGlobalDirect<false>\(\)", r"ScatterValuesGlobalDirect<false>\(",
                                      r"num_items - tile_offset, Twiddle::DefaultKey",
                                      r"LoadDirectWarpStriped\(threadIdx.x, d_values_in \+ tile_offset, values, tile_items\)"],
}

MARKER = re.compile(r"//\s*sass:\s*([a-z_]+)")
INSN = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
LINE = re.compile(r'^\s*//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?')
FUNC = re.compile(r"^\.text\.(\S+):$")


def find_nvdisasm(explicit=None):
    """nvdisasm: --nvdisasm, $NVDISASM, PATH, the toolkit next to nvcc, or PyPI's nvidia-cuda-nvdisasm."""
    for c in [explicit, os.environ.get("NVDISASM"), shutil.which("nvdisasm")]:
        if c and os.path.exists(c):
            return c
    nvcc = shutil.which("nvcc")
    if nvcc:
        c = os.path.join(os.path.dirname(os.path.realpath(nvcc)), "nvdisasm")
        if os.path.exists(c):
            return c
    try:
        import nvidia  # PyPI's nvidia-cuda-nvdisasm installs nvidia/cu13/bin/nvdisasm
        for base in nvidia.__path__:
            for sub in ("cu13", "cuda_nvdisasm", "cu12"):
                c = os.path.join(base, sub, "bin", "nvdisasm")
                if os.path.exists(c):
                    return c
    except ImportError:
        pass
    return None


class Regions:
    """Source line -> phase, read lazily per file."""

    def __init__(self):
        self.cache = {}

    def phase(self, path, line):
        table = self.cache.get(path)
        if table is None:
            table = self.cache[path] = self._read(path)
        return table.get(line)

    def _read(self, path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
        except OSError:
            return {}
        base = os.path.basename(path)
        table = {}
        if "/ringsweep/" in path.replace("\\", "/"):
            current = None
            for i, text in enumerate(lines, 1):
                m = MARKER.search(text)
                if m:
                    current = None if m.group(1) == "end" else m.group(1)
                    continue
                if current:
                    table[i] = current
        if "/cub/" in path.replace("\\", "/"):
            for name, phase in CUB_FUNCTIONS.get(base, []):
                for start, end in function_spans(lines, name):
                    for i in range(start, end + 1):
                        table[i] = phase
            for pattern in CUB_COLD_LINES.get(base, []):
                rx = re.compile(pattern)
                for i, text in enumerate(lines, 1):
                    if rx.search(text):
                        table[i] = "cold"
        return table


def function_spans(lines, name):
    """(first, last) 1-based lines of each definition body of member function `name`."""
    rx = re.compile(r"\b" + re.escape(name) + r"\s*\(")
    spans = []
    i = 0
    while i < len(lines):
        text = lines[i]
        if rx.search(text) and not text.strip().endswith(";") and "return" not in text and not re.search(
                r"(\.|->)\s*" + re.escape(name), text):
            # the body: from the first '{' at or after this line to its matching '}'
            depth, started, j = 0, False, i
            while j < len(lines):
                t = re.sub(r"//.*", "", lines[j])
                if not started and ";" in t and "{" not in t and j > i:
                    break  # a declaration
                for ch in t:
                    if ch == "{":
                        depth += 1
                        started = True
                    elif ch == "}":
                        depth -= 1
                if started and depth == 0:
                    spans.append((i + 1, j + 1))
                    break
                j += 1
            i = j + 1 if spans and spans[-1][0] == i + 1 else i + 1
        else:
            i += 1
    return spans


def onesweep_symbols(cubin):
    """Symbol-table indices of the cubin's functions that kernel_case() reports: nvdisasm -fun takes
    them, so that only those kernels are disassembled (13 s -> 2.6 s for the spill gate's sm_90 cubin,
    48 of its 564 functions). None when the cubin is not a 64-bit ELF."""
    return symbols_where(cubin, lambda name: kernel_case(name) is not None)


def symbols_where(cubin, wanted):
    """Symbol-table indices of the cubin's functions whose demangled name `wanted` accepts (for
    nvdisasm -fun); None when the cubin is not a 64-bit ELF."""
    import struct
    with open(cubin, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    functions = {}
    for h in headers:
        if h[1] != 2:  # SHT_SYMTAB; Elf64_Sym: name (4), info (1), ...; STT_FUNC = 2
            continue
        strtab = headers[h[6]][4]
        for i in range(h[5] // 24):
            st_name, st_info = struct.unpack_from("<IB", data, h[4] + 24 * i)
            if st_info & 0xF == 2:
                end = data.index(b"\0", strtab + st_name)
                functions[i] = data[strtab + st_name:end].decode(errors="replace")
    names = demangle(list(functions.values()))
    return [i for i, n in functions.items() if wanted(names[n])]


def kernels_where(cubin, nvdisasm, wanted):
    """The functions whose demangled name `wanted` accepts, disassembled (disassemble), with
    {mangled: demangled} and {mangled: registers}: what every instruction script reads first."""
    kernels = disassemble(nvdisasm, cubin, symbols_where(cubin, wanted))
    return kernels, demangle(list(kernels)), registers(cubin)


# nvcc 13.0 does not always emit the same SASS for the same source and command line: two builds of
# the spill gate's sm_80 object in a row (2026-11-30, one machine) gave segment_blocks_kernel's
# u32/u32 pairs 9.10 and 9.09 instructions per key for its compact class, 12.01 and 12.06 for its
# medium one (0.4%), and a budget written from one build failed on the other. A per-key count fails
# a budget only when it is more than BUDGET_NOISE above it; registers are compared exactly.
BUDGET_NOISE = 0.01


def over_budget(value, limit):
    """Whether a per-key instruction count exceeds its budget row by more than the compiler's noise."""
    return value > float(limit) * (1 + BUDGET_NOISE)


def read_budget(path):
    """A budget CSV's rows (dicts by its header), its `#` comment lines left out."""
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def disassemble(nvdisasm, cubin, only=None):
    """{mangled kernel: [(opcode text, [(file, line) outermost..innermost])]}; `only`: symbol indices
    (onesweep_symbols) to restrict nvdisasm to, None for every function."""
    if only is not None and not only:
        return {}
    fun = ["-fun", ",".join(str(i) for i in only)] if only else []
    out = subprocess.run([nvdisasm, "-c", "-gi"] + fun + [cubin], check=True, capture_output=True, text=True).stdout
    kernels = {}
    current = None
    chain = []  # innermost first, as nvdisasm prints it; reset by each new annotation block
    pending = []
    for raw in out.split("\n"):
        m = FUNC.match(raw.strip())
        if m:
            current = kernels.setdefault(m.group(1), [])
            pending, chain = [], []
            continue
        m = LINE.match(raw)
        if m:
            pending.append((m.group(1), int(m.group(2))))
            continue
        m = INSN.match(raw)
        if m and current is not None:
            if pending:
                chain = list(reversed(pending))  # outermost first
                pending = []
            current.append((m.group(2), chain))
    return kernels


def registers(cubin):
    """{mangled kernel: registers}, from the cubin's .nv.info section: attribute EIATTR_REGCOUNT (0x2f),
    a (symbol index, registers) pair per function, symbols from .symtab."""
    import struct
    with open(cubin, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return {}
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    # (name, type, flags, addr, offset, size, link, info, addralign, entsize)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]

    def cstr(table_offset, at):
        end = data.index(b"\0", table_offset + at)
        return data[table_offset + at:end].decode(errors="replace")

    names = [cstr(headers[shstrndx][4], h[0]) for h in headers]
    symbols = []
    for h, name in zip(headers, names):
        if h[1] == 2:  # SHT_SYMTAB
            strtab = headers[h[6]][4]
            for i in range(h[5] // 24):
                st_name, = struct.unpack_from("<I", data, h[4] + 24 * i)
                symbols.append(cstr(strtab, st_name))
    regs = {}
    for h, name in zip(headers, names):
        if name != ".nv.info":
            continue
        at, end = h[4], h[4] + h[5]
        while at + 4 <= end:
            fmt, attr, value = struct.unpack_from("<BBH", data, at)
            at += 4
            if fmt == 0x04:  # EIFMT_SVAL: `value` bytes follow
                if attr == 0x2F and value >= 8:
                    sym, count = struct.unpack_from("<II", data, at)
                    if sym < len(symbols):
                        regs[symbols[sym]] = count
                at += value
    return regs


def classify(insns, regions):
    counts = {p: 0 for p in PHASES}
    counts["cold"] = 0
    for text, chain in insns:
        if text.startswith("NOP") or text == "BRA `(.L_x_0)":
            continue
        phase = None
        cold = False
        for path, line in chain:
            p = regions.phase(path, line)
            if p == "cold":
                cold = True
                break
            if p and phase is None:
                phase = p
        if cold:
            counts["cold"] += 1
        else:
            counts[phase or "other"] += 1
    return counts


def demangle(names):
    cxxfilt = shutil.which("c++filt")
    if not cxxfilt or not names:
        return {n: n for n in names}
    out = subprocess.run([cxxfilt], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return dict(zip(names, out))


TYPE_NAMES = {"unsigned int": "u32", "int": "i32", "float": "f32", "unsigned long": "u64", "long": "i64",
              "unsigned long long": "u64", "long long": "i64", "double": "f64", "unsigned char": "u8",
              "unsigned short": "u16", "short": "i16", "signed char": "i8", "char": "i8", "__half": "f16",
              "__int128": "i128", "unsigned __int128": "u128"}
TYPE_BYTES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "f16": 2, "u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8, "i128": 16, "u128": 16}


def key_name(arg):
    """The case's name of a sort_config's key argument (TYPE_NAMES), the 128-bit integers
    included: the kernels see them as a custom key of two 64-bit fields (int128_halves<SIGNED>)."""
    m = re.search(r"int128_halves<(true|false|\(bool\)1|\(bool\)0)>", arg)
    if m:
        return "i128" if m.group(1) in ("true", "(bool)1") else "u128"
    return TYPE_NAMES.get(arg)


def split_args(s):
    args, depth, cur = [], 0, ""
    for ch in s:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def kernel_case(demangled):
    """(library, policy, case) of a onesweep kernel, else None.

    ringsweep: onesweep_kernel<sort_config<policy_smXX, Key, Value, no_hooks>, portion_tiles<false>> (a
    plain pass without hints or hooks), and the segmented sort's large-segment passes,
    onesweep_chain_kernel<sort_config<...>, segment_tiles, N> (every pass chained in one kernel, its
    blocks looping over tiles: case "segmented_" + the plain case, the plain kernel's shape); CUB:
    DeviceRadixSortOnesweepKernel<..., KeyT, ValueT, ...>."""
    m = re.search(r"ringsweep::[a-z0-9_]+::detail::onesweep_(?:chain_)?kernel<ringsweep::[a-z0-9_]+::detail::"
                  r"sort_config<(.*)>, ringsweep::[a-z0-9_]+::detail::"
                  r"(portion_tiles<(?:false|\(bool\)0)> ?|segment_tiles, \d+)>\(", demangled)
    if m:
        prefix = "segmented_" if m.group(2).startswith("segment_tiles") else ""
        args = split_args(m.group(1))
        if len(args) != 4 or not args[3].endswith("::no_hooks"):
            return None
        policy = args[0].split("::")[-1]
        key = key_name(args[1])
        value = args[2] if len(args) > 2 else "null_value"
        if key is None:
            return None
        if value.endswith("null_value"):
            return ("ringsweep", policy, prefix + "keys_" + key)
        vname = TYPE_NAMES.get(value)
        m = re.search(r"value_words<(\d+), ?(\d+)>", value)
        if m:  # values move as words of their size (4 bytes: u32)
            vname = "u%d" % (8 * int(m.group(1)))
        if "index_values" in value:
            return None  # argsort: the pairs kernel with made values; not in the report's cases
        return ("ringsweep", policy, prefix + "pairs_%s_%s" % (key, vname)) if vname else None
    m = re.search(r"cub::[A-Za-z0-9_:]*DeviceRadixSortOnesweepKernel<(.*)>\(", demangled)
    if m:
        args = split_args(m.group(1))
        # <ChainedPolicyT, SortOrder (or IS_DESCENDING), KeyT, ValueT, OffsetT, PortionOffsetT, DecomposerT>
        if len(args) < 4 or args[1] not in ("false", "(bool)0", "(cub::SortOrder)0", "(cub::CUB_300001_SM_900::SortOrder)0") \
                and not re.fullmatch(r"\(cub::[A-Za-z0-9_:]*SortOrder\)0", args[1]):
            return None
        key = TYPE_NAMES.get(args[2])
        if key is None:
            return None
        if "NullType" in args[3]:
            return ("cub", "", "keys_" + key)
        v = TYPE_NAMES.get(args[3])
        return ("cub", "", "pairs_%s_%s" % (key, v)) if v else None
    return None


def parse_shapes(text):
    """`tile_shapes` output: policy,key,value,threads,items per line -> {(policy, case): items}."""
    shapes = {}
    for row in csv.DictReader(text.strip().split("\n")):
        shapes[(row["policy"], row["case"])] = int(row["items"])
    return shapes


def analyse(cubin, shapes, nvdisasm, arch, cub_items=None):
    """Rows: one per onesweep kernel of the cubin that the report covers."""
    kernels = disassemble(nvdisasm, cubin, onesweep_symbols(cubin))
    regs = registers(cubin)
    names = demangle(list(kernels))
    regions = Regions()
    rows = []
    for mangled, insns in kernels.items():
        kc = kernel_case(names[mangled])
        if kc is None:
            continue
        library, policy, case = kc
        if library == "ringsweep":
            items = shapes.get((policy, case[len("segmented_"):] if case.startswith("segmented_") else case))
        else:
            items = (cub_items or {}).get((arch, case))
        if not items or len(insns) < 200:  # a policy compiled out of this architecture: an empty body
            continue
        c = classify(insns, regions)
        hot = sum(c[p] for p in PHASES)
        row = {"arch": arch, "library": library, "policy": policy, "case": case, "items": items,
               "regs": regs.get(mangled, 0),
               "total": len(insns), "cold": c["cold"], "hot": hot, "per_key_hot": round(hot / items, 1),
               "per_key_phases": round(sum(c[p] for p in PER_KEY_PHASES) / items, 1)}
        for p in PHASES:
            row[p] = round(c[p] / items, 1)
        rows.append(row)
    rows.sort(key=lambda r: (r["arch"], r["case"], r["library"] != "ringsweep", r["policy"]))
    return rows


def markdown(rows):
    cols = ["arch", "library", "case", "items", "regs", "per_key_hot", "per_key_phases"] + PHASES[:-1] + ["other", "cold"]
    head = ["arch", "library", "case", "keys/thread", "registers", "full-tile path /key", "per-key phases /key", "load", "counts",
            "publish", "rank", "exchange", "look-back", "keys scatter", "values load", "values exchange",
            "values scatter", "other", "cold (whole kernel)"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = []
        for c in cols:
            v = r[c]
            if c == "cold":
                v = r["cold"]
            vals.append(str(v))
        out.append("| " + " | ".join(vals) + " |")
    return "\n".join(out)


def check_budget(rows, budget_path):
    """Fails (returns messages) when a kernel's per-key count of the full-tile path rises above its budget."""
    failures, seen = [], set()
    budget = read_budget(budget_path)
    by_key = {(r["arch"], r["policy"], r["case"]): r for r in rows if r["library"] == "ringsweep"}
    for b in budget:
        k = (b["arch"], b["policy"], b["case"])
        r = by_key.get(k)
        if r is None:
            failures.append("%s %s %s: no such kernel in the cubin (budget row stale?)" % k)
            continue
        seen.add(k)
        limit = float(b["max_per_key"])
        max_regs = int(b["max_regs"])
        if r["items"] != int(b["items"]):
            failures.append("%s %s %s: %d keys per thread, the budget row says %s: a new shape needs a new row"
                            % (k + (r["items"], b["items"])))
        elif over_budget(r["per_key_hot"], limit):
            failures.append("%s %s %s: %.1f SASS instructions per key on the full-tile path, budget %.1f"
                            % (k + (r["per_key_hot"], limit)))
        elif r["regs"] > max_regs:
            failures.append("%s %s %s: %d registers, budget %d" % (k + (r["regs"], max_regs)))
        else:
            print("ok   %s %s %s: %.1f per key (budget %.1f), %d registers (budget %d), %d keys/thread"
                  % (k + (r["per_key_hot"], limit, r["regs"], max_regs, r["items"])))
    return failures


REPORT_CASES = ["keys_u32", "keys_i32", "keys_f32", "keys_u64", "keys_i128", "pairs_u32_u32", "pairs_u64_u32"]


def report(src, out_dir, nvdisasm):
    """bench/results/instructions.md and .csv: ringsweep (shipped policies) beside CUB, sm_80 and sm_90,
    from one nvcc build of bench/report/kernel_sass.cu (needs nvcc and a host compiler, no GPU)."""
    import tempfile
    nvcc = shutil.which("nvcc")
    cxx = shutil.which("g++") or shutil.which("c++")
    if nvcc is None or cxx is None:
        print("sass_phases: skipped: the report needs nvcc and a host C++ compiler")
        return 0
    work = os.environ.get("RS_SASS_WORK") or tempfile.mkdtemp(prefix="ringsweep_sass_")
    inc = os.path.join(src, "include")
    exe = os.path.join(work, "kernel_sass")
    cmd = [nvcc, "-std=c++17", "-O3", "--extended-lambda", "-lineinfo", "-I", inc, "-keep", "-keep-dir", work]
    for sm in ("80", "90"):
        cmd += ["-gencode", "arch=compute_%s,code=sm_%s" % (sm, sm)]
    cmd += [os.path.join(src, "bench", "report", "kernel_sass.cu"), "-o", exe]
    if not (os.environ.get("RS_SASS_WORK") and os.path.exists(exe)):  # RS_SASS_WORK: reuse a build
        print("sass_phases: nvcc (ringsweep and CUB, sm_80 and sm_90) in %s ..." % work, flush=True)
        subprocess.run(cmd, check=True)
    shapes_exe = os.path.join(work, "tile_shapes")
    subprocess.run([cxx, "-std=c++17", "-I", inc, "-I", os.path.join(src, "simt", "include"), "-x", "c++",
                    os.path.join(src, "bench", "report", "tile_shapes.cpp"), "-o", shapes_exe], check=True)
    shapes = parse_shapes(subprocess.run([shapes_exe], check=True, capture_output=True, text=True).stdout)
    cub_items = {}
    for r in csv.DictReader(subprocess.run([exe], check=True, capture_output=True, text=True).stdout.strip().split("\n")):
        cub_items[(r["arch"], r["case"])] = int(r["items"])
    rows = []
    for arch in ("sm_80", "sm_90"):
        cubins = [f for f in os.listdir(work) if f.endswith(".cubin") and arch[3:] in f]  # nvcc -keep: *.compute_90.cubin
        for f in cubins:
            rows += analyse(os.path.join(work, f), shapes, nvdisasm, arch, cub_items)
    want = {("sm_80", "policy_sm80"), ("sm_90", "policy_sm90"), ("sm_80", ""), ("sm_90", "")}
    rows = [r for r in rows if r["case"] in REPORT_CASES and (r["arch"], r["policy"]) in want]
    rows.sort(key=lambda r: (r["arch"], REPORT_CASES.index(r["case"]), r["library"] != "ringsweep"))
    os.makedirs(out_dir, exist_ok=True)
    cols = ["arch", "library", "case", "items", "regs", "per_key_hot", "per_key_phases"] + PHASES + ["cold"]
    with open(os.path.join(out_dir, "instructions.csv"), "w") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    nv = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().split("\n")[-1]
    head = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(out_dir, "instructions.md"), "w") as f:
        f.write("# SASS instructions per key of the onesweep kernels (no GPU)\n\n")
        f.write("Generated by `python3 bench/report/sass_phases.py --report bench/results` at ringsweep %s, %s, "
                "nvdisasm %s. Static counts: each phase's SASS instructions on a whole tile's path (straight-line "
                "code, loop bodies once, the partial-tile and one-digit paths left out: `cold`, whole kernel), "
                "over the keys per thread. Phases by source line through the inlining chain "
                "(`// sass:` markers in ringsweep, CUB's member functions). `per-key phases` is the sum of "
                "counts, rank, exchange, scatters and values; `full-tile path` adds the key load, the "
                "publish, the look-back (per tile) and the rest. CUB: `cub::DeviceRadixSort` of the same "
                "toolkit, 32-bit offsets. The `sass_budget` test holds every shipped kernel to "
                "`bench/results/sass_budget.csv`.\n\n" % (head, nv, os.path.basename(nvdisasm)))
        f.write(markdown(rows) + "\n")
    print(markdown(rows))
    return 0


# ---- what the report scripts share (sass_phases.py, segment_sass.py, top_k_sass.py) ------------


def budget_arguments(doc, cubin_required=True):
    """An argument parser with the options every report script takes: --cubin ARCH=path
    (repeatable), --nvdisasm, --markdown, --budget with --check (a script that writes its budget
    adds --write-budget)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cubin", action="append", required=cubin_required, help="ARCH=path (e.g. sm_90=x.cubin); repeatable")
    ap.add_argument("--nvdisasm")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--budget")
    ap.add_argument("--check", action="store_true")
    return ap


def nvdisasm_or_skip(explicit, tool):
    """nvdisasm's path, or None after printing the line CTest's SKIP_REGULAR_EXPRESSION matches."""
    nvdisasm = find_nvdisasm(explicit)
    if nvdisasm is None:
        print("%s: skipped: no nvdisasm (toolkit, PATH, $NVDISASM, or pip install nvidia-cuda-nvdisasm)" % tool)
    return nvdisasm


def rows_of_cubins(specs, analyse_one):
    """The rows of every --cubin ARCH=path: analyse_one(path, arch) each, in order."""
    rows = []
    for spec in specs:
        arch, path = spec.split("=", 1)
        rows += analyse_one(path, arch)
    return rows


def conclude(args, rows, write_budget, check_budget, budgeted=None):
    """A budget script's end, after its --markdown output: --write-budget writes `budgeted` (the
    rows by default) by write_budget(rows, path), --check returns the exit status of
    check_budget(rows, path)'s failures; with neither and no --markdown each row is printed."""
    budgeted = rows if budgeted is None else budgeted
    if args.write_budget:
        write_budget(budgeted, args.budget)
        return 0
    if args.check:
        return report_failures(check_budget(budgeted, args.budget))
    if not args.markdown:
        for r in rows:
            print(r)
    return 0


def report_failures(failures):
    """Prints each failed budget row; the exit status of a --check."""
    for m in failures:
        print("FAIL " + m)
    return 1 if failures else 0


def main():
    ap = budget_arguments(__doc__, cubin_required=False)
    ap.add_argument("--report", metavar="OUT_DIR", help="build and write the instruction report into OUT_DIR")
    ap.add_argument("--shapes", help="path of a file with tile_shapes' CSV, or a program printing it")
    ap.add_argument("--cub-items", help="CSV arch,case,items for CUB's kernels")
    ap.add_argument("--json")
    args = ap.parse_args()

    nvdisasm = nvdisasm_or_skip(args.nvdisasm, "sass_phases")
    if nvdisasm is None:
        return 0
    if args.report:
        src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        return report(src, args.report, nvdisasm)
    if not args.cubin or not args.shapes:
        ap.error("--cubin and --shapes are required (or --report)")
    if os.access(args.shapes, os.X_OK) and not args.shapes.endswith(".csv"):
        text = subprocess.run([args.shapes], check=True, capture_output=True, text=True).stdout
    else:
        with open(args.shapes) as f:
            text = f.read()
    shapes = parse_shapes(text)
    cub_items = {}
    if args.cub_items:
        with open(args.cub_items) as f:
            for r in csv.DictReader(f):
                cub_items[(r["arch"], r["case"])] = int(r["items"])
    rows = rows_of_cubins(args.cubin, lambda path, arch: analyse(path, shapes, nvdisasm, arch, cub_items))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.markdown:
        print(markdown(rows))
    if args.check:
        return report_failures(check_budget(rows, args.budget))
    if not args.markdown:
        for r in rows:
            print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
