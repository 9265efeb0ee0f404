#!/usr/bin/env python3
"""ringsweep's no-GPU performance report.

Everything here is measured or computed without a GPU:

  1. static resources of every ringsweep kernel and of CUB's onesweep kernels (registers, shared
     memory, spills, theoretical occupancy), from ONE nvcc build (-Xptxas -v, sm_80 + sm_90) of
     bench/report/kernel_resources.cu, which instantiates both libraries' sorts;
  2. temporary storage vs n (2^16..2^32): ringsweep's own size query (SIMT build) next to CUB
     onesweep's layout in the installed CCCL;
  3. global key/value traffic of a full sort, counted per kernel on the SIMT backend;
  4. the goals, each PASS / FAIL / NOT MEASURED. A missed goal is reported, never an error.

Usage (after configuring and building with CMake):

    cmake --build build --target ringsweep_report        # or:
    python3 bench/report/report.py --build build [--quick] [--n N] [--out DIR]

Writes report.md, resources.csv, temp_memory.csv, traffic.csv and temp_memory.png into
bench/results/ (or --out) and prints report.md.
"""

import argparse
import csv
import datetime
import hashlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys

MiB = 1024 * 1024

# Architecture limits used for theoretical occupancy (per SM unless noted).
ARCHS = {
    "sm_80": dict(warps=64, blocks=32, regs=65536, smem=164 * 1024, smem_block=163 * 1024),
    "sm_90": dict(warps=64, blocks=32, regs=65536, smem=228 * 1024, smem_block=227 * 1024),
}
REG_SUBPARTITIONS = 4         # the register file is split over 4 schedulers
REG_ALLOC_PER_WARP = 256      # registers are allocated per warp in units of 256
SMEM_GRANULE = 128            # shared memory allocation unit (sm_80, sm_90)
SMEM_RESERVED_PER_BLOCK = 1024  # reserved by the driver per resident block (sm_80 and newer)
STATIC_SMEM_LIMIT = 48 * 1024  # static __shared__ per block

# ringsweep dispatches policy_sm80 below sm_90 and policy_sm90 from sm_90 on.
RS_POLICY = {"sm_80": "policy_sm80", "sm_90": "policy_sm90"}

CASES = ["keys_u32", "keys_u64", "keys_f32", "pairs_u32_u32"]
CASE_BYTES = {  # (key bytes, value bytes)
    "keys_u32": (4, 0), "keys_u64": (8, 0), "keys_f32": (4, 0), "pairs_u32_u32": (4, 4),
}
TYPE_NAMES = {"unsigned int": "u32", "unsigned long": "u64", "unsigned long long": "u64", "float": "f32"}

GOAL_TEMP_BYTES = 4 * MiB
GOAL_TRAFFIC_TOLERANCE = 0.03
GOAL_SCATTER_EFFICIENCY = 0.85
TRAFFIC_ENTROPIES = "1.0,0.201"


def log(msg):
    print("report: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def fmt_mib(b):
    if b is None:
        return "n/a"
    return "%.2f" % (b / MiB) if b < 100 * MiB else "%.0f" % (b / MiB)


# ---- 1. static resources ---------------------------------------------------------------------------

def compile_resources(cfg, work):
    """One nvcc build of kernel_resources.cu for sm_80 and sm_90; cached on the inputs' content."""
    nvcc = cfg["nvcc"]
    src = os.path.join(cfg["source_dir"], "bench", "report", "kernel_resources.cu")
    exe = os.path.join(work, "kernel_resources")
    log_path = os.path.join(work, "kernel_resources.ptxas.log")
    cmd = [nvcc, "-std=c++17", "-O3", "--extended-lambda"]
    for d in cfg["include_dirs"]:
        cmd += ["-I", d]
    for sm in ("80", "90"):
        cmd += ["-gencode", "arch=compute_%s,code=sm_%s" % (sm, sm)]
    cmd += ["-Xptxas", "-v", "-keep", "-keep-dir", work, src, "-o", exe]

    h = hashlib.sha256()
    h.update(" ".join(cmd).encode())
    h.update(run([nvcc, "--version"]).stdout.encode())
    inputs = [src]
    for d in cfg["include_dirs"]:
        for root, _, files in os.walk(d):
            inputs += [os.path.join(root, f) for f in files]
    for path in sorted(inputs):
        h.update(path.encode())
        with open(path, "rb") as f:
            h.update(f.read())
    key = h.hexdigest()
    key_path = os.path.join(work, "kernel_resources.key")
    if os.path.exists(key_path) and os.path.exists(exe) and os.path.exists(log_path):
        with open(key_path) as f:
            if f.read().strip() == key:
                log("kernel resources: cached nvcc build (%s)" % log_path)
                return exe, log_path
    log("kernel resources: nvcc -Xptxas -v for sm_80 and sm_90 (about half a minute)")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log_path, "w") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        raise RuntimeError("nvcc failed (see %s):\n%s" % (log_path, p.stdout[-4000:]))
    with open(key_path, "w") as f:
        f.write(key)
    # Keep the PTX, cubins, log and tool; drop nvcc's large preprocessed intermediates.
    for name in os.listdir(work):
        if name.startswith("kernel_resources") and (name.endswith(".ii") or ".cudafe1." in name or
                                                    name.endswith(".fatbin.c")):
            os.remove(os.path.join(work, name))
    return exe, log_path


ENTRY_RE = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+)'")
SPILL_RE = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED_RE = re.compile(r"Used (\d+) registers")
SMEM_RE = re.compile(r"(\d+) bytes smem")


def parse_ptxas(log_path):
    """{(arch, mangled): {regs, smem, stack, spill_st, spill_ld}} from `-Xptxas -v` output."""
    out = {}
    cur = None
    with open(log_path) as f:
        for line in f:
            m = ENTRY_RE.search(line)
            if m:
                cur = dict(mangled=m.group(1), arch=m.group(2), regs=0, smem=0, stack=0, spill_st=0, spill_ld=0)
                out[(cur["arch"], cur["mangled"])] = cur
                continue
            if cur is None:
                continue
            m = SPILL_RE.search(line)
            if m:
                cur["stack"], cur["spill_st"], cur["spill_ld"] = (int(g) for g in m.groups())
            m = USED_RE.search(line)
            if m:
                cur["regs"] = int(m.group(1))
                s = SMEM_RE.search(line)
                cur["smem"] = int(s.group(1)) if s else 0
    return out


def parse_maxntid(ptx_path):
    """{mangled: threads} for entries with __launch_bounds__ (.maxntid) in a PTX file."""
    out = {}
    entry = None
    with open(ptx_path) as f:
        for line in f:
            m = re.match(r"\s*\.(?:visible\s+)?\.entry\s+([\w$]+)", line)
            if m:
                entry = m.group(1)
                continue
            m = re.match(r"\s*\.maxntid\s+(\d+),\s*(\d+),\s*(\d+)", line)
            if m and entry:
                out[entry] = int(m.group(1)) * int(m.group(2)) * int(m.group(3))
            if line.strip() == "{":
                entry = None
    return out


def demangle(names):
    cxxfilt = shutil.which("c++filt")
    if not cxxfilt:
        raise RuntimeError("c++filt not found (binutils): needed to name the kernels")
    p = subprocess.run([cxxfilt], input="\n".join(names) + "\n", stdout=subprocess.PIPE, text=True, check=True)
    return dict(zip(names, p.stdout.splitlines()))


RS_RE = re.compile(r"ringsweep::detail::(\w+)_kernel<([^()]*)>\(")
CUB_RE = re.compile(r"DeviceRadixSort(\w+)Kernel<[\w:]*policy_hub<([^<>]+)>::Policy\d+")
CUB_KINDS = {"Onesweep": "onesweep", "Histogram": "histogram", "ExclusiveSum": "exclusive_sum",
             "SingleTile": "single_tile"}


def split_args(s):
    """Top-level comma split of a template argument list."""
    out, depth, cur = [], 0, ""
    for c in s:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return out


def case_of(key, value):
    k = TYPE_NAMES.get(key)
    if k is None:
        return None
    if value is None:
        return "keys_" + k
    v = TYPE_NAMES.get(value)
    return "pairs_%s_%s" % (k, v) if v else None


# ringsweep's architecture namespace (ringsweep::arch_800_900::, see include/ringsweep/detail/config.cuh).
RS_ARCH_NS_RE = re.compile(r"ringsweep::(?:arch_[0-9_]+|host_only)::")


def classify(demangled):
    """(library, kernel, policy, [cases]) of one kernel, or None for kernels the report ignores."""
    demangled = RS_ARCH_NS_RE.sub("ringsweep::", demangled)
    m = RS_RE.search(demangled)
    if m:
        kind, args = m.group(1), split_args(m.group(2))
        if kind == "bins_scan":
            return "ringsweep", "bins_scan", None, list(CASES)
        config = re.match(r"ringsweep::detail::sort_config<(.*)>$", args[0])
        if config:
            # onesweep_kernel<sort_config<Policy, Key, Value, Hooks>, TileSource>,
            # small_sort_kernel<sort_config<...>>, histogram_kernel<sort_config<Policy, Key, null_value, Hooks>>:
            # Value is detail::value_words<bytes, align> (values of one size share kernels),
            # detail::null_value for keys only.
            policy, key, value = split_args(config.group(1))[:3]
            if kind == "histogram":
                cases = [c for c in CASES if c.startswith(("keys_", "pairs_")) and
                         c.split("_")[1] == TYPE_NAMES.get(key)]
                return "ringsweep", "histogram", policy.replace("ringsweep::", ""), cases
            if kind not in ("onesweep", "small_sort"):
                return None
            if kind == "onesweep" and not re.match(r"ringsweep::detail::portion_tiles<(false|\(bool\)0)>$", args[1]):
                return None  # the plain pass only (not hinted, counted or segmented)
            value = None if value.endswith("null_value") else value
            words = re.match(r".*value_words<(\d+), (\d+)>", value) if value else None
            if words:
                value = {4: "unsigned int", 8: "unsigned long"}.get(int(words.group(1)))
            return ("ringsweep", kind, policy.replace("ringsweep::", ""), [c]) if (c := case_of(key, value)) else None
        policy = args[0].replace("ringsweep::", "")
        key = args[1]
        if kind == "histogram":
            cases = [c for c in CASES if c.startswith(("keys_", "pairs_")) and
                     c.split("_")[1] == TYPE_NAMES.get(key)]
            return "ringsweep", "histogram", policy, cases
        if kind not in ("onesweep", "small_sort"):
            return None  # e.g. the pass-skipping route copy, which moves data only when passes skip
        has_values = args[3] == "true"
        value = None
        if has_values:
            words = re.match(r".*value_words<(\d+), (\d+)>", args[2])
            value = {4: "unsigned int", 8: "unsigned long"}.get(int(words.group(1))) if words else None
        c = case_of(key, value)
        return ("ringsweep", kind, policy, [c]) if c else None
    m = CUB_RE.search(demangled)
    if m:
        kind = CUB_KINDS.get(m.group(1))
        hub = split_args(m.group(2))
        value = None if hub[1].endswith("NullType") else hub[1]
        c = case_of(hub[0], value)
        if kind and c:
            return "cub", kind, "offset_" + TYPE_NAMES.get(hub[2], hub[2]), [c]
    return None


def occupancy(arch, threads, regs, smem):
    """Theoretical resident blocks per SM and what limits them (CUDA occupancy calculator rules)."""
    a = ARCHS[arch]
    wpb = -(-threads // 32)
    limits = {"warps": a["warps"] // wpb, "blocks": a["blocks"]}
    if regs > 0:
        per_warp = -(-regs * 32 // REG_ALLOC_PER_WARP) * REG_ALLOC_PER_WARP
        warps = (a["regs"] // REG_SUBPARTITIONS // per_warp) * REG_SUBPARTITIONS
        limits["regs"] = warps // wpb
    alloc = -(-(smem + SMEM_RESERVED_PER_BLOCK) // SMEM_GRANULE) * SMEM_GRANULE
    limits["smem"] = a["smem"] // alloc if smem <= a["smem_block"] else 0
    blocks = min(limits.values())
    limiter = "/".join(k for k, v in limits.items() if v == blocks)
    return blocks, blocks * wpb, limiter


def static_resources(cfg, work):
    exe, log_path = compile_resources(cfg, work)
    ptxas = parse_ptxas(log_path)
    maxntid = {}
    for arch in ARCHS:
        ptx = os.path.join(work, "kernel_resources.compute_%s.ptx" % arch[3:])
        maxntid[arch] = parse_maxntid(ptx) if os.path.exists(ptx) else {}
    shapes = {}
    for r in csv.DictReader(io.StringIO(run([exe, "shapes"]).stdout)):
        shapes[(r["arch"], r["library"], r["case"], r["kernel"])] = (int(r["threads"]), int(r["items"]))
    cccl = int(run([exe, "version"]).stdout.strip())
    cub_temp = list(csv.DictReader(io.StringIO(run([exe, "cub_temp"]).stdout)))

    names = demangle(sorted({m for (_, m) in ptxas}))
    rows = []
    for (arch, mangled), r in sorted(ptxas.items()):
        if arch not in ARCHS:
            continue
        cls = classify(names[mangled])
        if cls is None:
            continue
        lib, kind, policy, cases = cls
        dispatched = lib == "cub" or policy is None or policy == RS_POLICY[arch]
        for case in cases:
            shape = shapes.get((arch, lib, case, kind if kind != "single_tile" else "onesweep"))
            threads = maxntid[arch].get(mangled) or (shape[0] if shape else 0)
            items = shape[1] if shape and kind in ("onesweep", "histogram", "small_sort") else None
            blocks, warps, limiter = occupancy(arch, threads, r["regs"], r["smem"]) if threads else (0, 0, "?")
            rows.append(dict(arch=arch, library=lib, case=case, kernel=kind, policy=policy or "",
                             dispatched=int(dispatched), threads=threads, items=items if items else "",
                             regs=r["regs"], smem=r["smem"], stack=r["stack"], spill_st=r["spill_st"],
                             spill_ld=r["spill_ld"], blocks_per_sm=blocks, warps_per_sm=warps,
                             occupancy=warps / ARCHS[arch]["warps"], limiter=limiter,
                             demangled=names[mangled]))
    return rows, cccl, cub_temp, log_path


# ---- 2. temporary storage --------------------------------------------------------------------------

def temp_memory(cfg, cub_temp):
    exe = cfg.get("temp_query")
    rs = list(csv.DictReader(io.StringIO(run([exe]).stdout))) if exe else []
    table = {}  # (case, arch, n) -> dict
    for r in rs:
        if r["arch"] == "public":
            continue
        d = table.setdefault((r["case"], r["arch"], int(r["n"])), {})
        d["ringsweep_" + r["form"]] = int(r["bytes"])
    public_ok = all(int(r["bytes"]) == next(int(s["bytes"]) for s in rs if s["arch"] == "sm_90" and
                                            s["case"] == r["case"] and s["form"] == r["form"] and s["n"] == r["n"])
                    for r in rs if r["arch"] == "public")
    for r in cub_temp:
        d = table.setdefault((r["case"], r["arch"], int(r["n"])), {})
        d["cub%s_%s" % (r["offset_bits"], r["form"])] = int(r["bytes"])
    out = []
    for (case, arch, n), d in sorted(table.items()):
        out.append(dict(case=case, arch=arch, n=n, **d))
    return out, public_ok


TEMP_COLUMNS = ["ringsweep_in_out", "ringsweep_double_buffer", "cub32_in_out", "cub32_double_buffer",
                "cub64_in_out", "cub64_double_buffer"]


def plot_temp(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib not available: %s not written" % path)
        return False
    fig, axes = plt.subplots(2, 2, figsize=(12, 9), sharex=True)
    styles = {
        "ringsweep_double_buffer": ("ringsweep double-buffer", "C0", "-", "o"),
        "ringsweep_in_out": ("ringsweep in/out", "C0", "--", "s"),
        "cub32_double_buffer": ("CUB double-buffer (32-bit offsets)", "C3", "-", "o"),
        "cub64_double_buffer": ("CUB double-buffer (64-bit offsets)", "C1", ":", "^"),
        "cub32_in_out": ("CUB in/out (32-bit offsets)", "C3", "--", "s"),
    }
    for ax, case in zip(axes.flat, CASES):
        sel = [r for r in rows if r["case"] == case and r["arch"] == "sm_90"]
        for col, (label, color, ls, marker) in styles.items():
            pts = [(math.log2(r["n"]), r[col] / MiB) for r in sel if r.get(col)]
            if pts:
                ax.plot(*zip(*pts), color=color, linestyle=ls, marker=marker, markersize=3, label=label)
        ax.axhline(GOAL_TEMP_BYTES / MiB, color="k", linewidth=0.8, linestyle="-.", label="goal: 4 MiB")
        ax.set_yscale("log")
        ax.set_title("%s, sm_90 policies" % case)
        ax.set_xlabel("log2(n)")
        ax.set_ylabel("temporary storage (MiB)")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Temporary storage vs n: ringsweep (size query) and CUB onesweep (CUB's layout)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# ---- 3. traffic ------------------------------------------------------------------------------------

def traffic(cfg, n):
    exe = cfg.get("traffic")
    if not exe:
        return []
    log("traffic: full sorts of n = %d u32 keys (keys only, pairs) at entropy %s on the SIMT backend"
        % (n, TRAFFIC_ENTROPIES))
    p = run([exe, "--n", str(n), "--cases", "keys_u32,pairs_u32_u32", "--entropy", TRAFFIC_ENTROPIES])
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    for r in rows:
        for k in ("n", "sorted", "launches", "load_bytes", "store_bytes", "load_sectors", "store_sectors",
                  "load_accesses", "store_accesses"):
            r[k] = int(r[k])
        r["whole_run_sectors"] = int(r.get("whole_run_sectors") or 0)
        r["entropy"] = float(r["entropy"])
        m = RS_RE.search(r["kernel"])
        r["kind"] = m.group(1) if m else r["kernel"]
    return rows


def model_floor(case, passes):
    k, v = CASE_BYTES[case]
    return k * (1 + 2 * passes) + v * 2 * passes


def traffic_summary(rows):
    out = []
    for case in ("keys_u32", "pairs_u32_u32"):
        for e in sorted({r["entropy"] for r in rows}, reverse=True):
            sel = [r for r in rows if r["case"] == case and r["entropy"] == e]
            if not sel:
                continue
            n = sel[0]["n"]
            total = sum(r["load_bytes"] + r["store_bytes"] for r in sel)
            ones = [r for r in sel if r["kind"] == "onesweep"]
            st_b = sum(r["store_bytes"] for r in ones)
            st_s = sum(r["store_sectors"] for r in ones)
            ld_b = sum(r["load_bytes"] for r in ones)
            ld_s = sum(r["load_sectors"] for r in ones)
            best_s = sum(r["whole_run_sectors"] for r in ones)
            passes = 4
            floor = model_floor(case, passes)
            out.append(dict(
                case=case, entropy=e, n=n, sorted=all(r["sorted"] for r in sel), counted=total > 0,
                bytes_per_key=total / n, floor=floor, ratio=(total / n) / floor,
                by_kernel={r["kind"]: ((r["load_bytes"]) / n, r["store_bytes"] / n, r["launches"]) for r in sel},
                scatter_eff=(st_b / (st_s * 32)) if st_s else None,
                scatter_ceiling=(st_b / (best_s * 32)) if best_s else None,
                load_eff=(ld_b / (ld_s * 32)) if ld_s else None))
    return out


# ---- output ----------------------------------------------------------------------------------------

def write_csv(path, rows, columns):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def git_describe(src):
    try:
        head = run(["git", "-C", src, "rev-parse", "--short", "HEAD"]).stdout.strip()
        dirty = run(["git", "-C", src, "status", "--porcelain", "--", "include"]).stdout.strip()
        return head + (" + uncommitted changes under include/" if dirty else "")
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def cccl_str(v):
    return "%d.%d.%d" % (v // 1000000, v // 1000 % 1000, v % 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="CMake build directory (configured with bench/ enabled)")
    ap.add_argument("--out", help="output directory (default: <source>/bench/results)")
    ap.add_argument("--n", type=int, help="keys per traffic sort (default 2^22; --quick: 2^16)")
    ap.add_argument("--quick", action="store_true", help="small traffic sorts (for the ctest)")
    ap.add_argument("--skip-resources", action="store_true", help="skip the nvcc build (section 1)")
    ap.add_argument("--skip-traffic", action="store_true", help="skip the SIMT traffic count (section 3)")
    args = ap.parse_args()

    cfg_path = os.path.join(args.build, "bench", "report_config.json")
    if not os.path.exists(cfg_path):
        sys.exit("report: %s not found: configure the build with RINGSWEEP_BUILD_BENCH=ON" % cfg_path)
    with open(cfg_path) as f:
        cfg = json.load(f)
    src = cfg["source_dir"]
    out = args.out or os.path.join(src, "bench", "results")
    work = cfg["work_dir"]
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    n_traffic = args.n or (1 << 16 if args.quick else 1 << 22)
    for tool in ("temp_query", "traffic"):
        if cfg.get(tool) and not os.path.exists(cfg[tool]):
            sys.exit("report: %s not built: cmake --build %s --target ringsweep_report_%s"
                     % (cfg[tool], args.build, tool))

    errors = []  # tools that failed: reported, and the exit status is 1 (a missed goal is not an error)

    # 1. static resources (needs nvcc)
    res_rows, cccl, cub_temp, ptxas_log = [], None, [], None
    res_note = None
    if args.skip_resources:
        res_note = "skipped (--skip-resources)"
    elif not cfg.get("nvcc"):
        res_note = "skipped: no nvcc in this build"
    else:
        try:
            res_rows, cccl, cub_temp, ptxas_log = static_resources(cfg, work)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            res_note = "FAILED: %s" % describe_error(e)
            errors.append("static resources: " + res_note)

    # 2. temporary storage
    temp_rows, public_ok = [], True
    if cfg.get("temp_query"):
        try:
            temp_rows, public_ok = temp_memory(cfg, cub_temp)
        except subprocess.CalledProcessError as e:
            errors.append("temp query: FAILED: %s" % describe_error(e))

    # 3. traffic
    t_rows = []
    if not args.skip_traffic and cfg.get("traffic"):
        try:
            t_rows = traffic(cfg, n_traffic)
        except subprocess.CalledProcessError as e:
            errors.append("traffic: FAILED: %s" % describe_error(e))
    t_sum = traffic_summary(t_rows)

    # ---- files
    res_cols = ["arch", "library", "case", "kernel", "policy", "dispatched", "threads", "items", "regs", "smem",
                "stack", "spill_st", "spill_ld", "blocks_per_sm", "warps_per_sm", "occupancy", "limiter",
                "demangled"]
    if res_rows:
        write_csv(os.path.join(out, "resources.csv"), res_rows, res_cols)
    if temp_rows:
        write_csv(os.path.join(out, "temp_memory.csv"), temp_rows, ["case", "arch", "n"] + TEMP_COLUMNS)
    if t_rows:
        write_csv(os.path.join(out, "traffic.csv"), t_rows,
                  ["case", "entropy", "n", "sorted", "kind", "launches", "load_bytes", "store_bytes", "load_sectors",
                   "store_sectors", "load_accesses", "store_accesses", "whole_run_sectors", "kernel"])
    png = os.path.join(out, "temp_memory.png")
    have_png = bool(temp_rows) and plot_temp(temp_rows, png)

    # ---- goals
    goals = []
    disp = [r for r in res_rows if r["dispatched"]]
    rs_disp = [r for r in disp if r["library"] == "ringsweep"]
    if res_rows:
        spilled = sorted({"%s %s %s" % (r["arch"], r["kernel"], r["case"]) for r in rs_disp
                          if r["spill_st"] or r["spill_ld"] or r["stack"]})
        goals.append(("zero spills (every dispatched ringsweep kernel, sm_80 and sm_90)",
                      "FAIL" if spilled else "PASS",
                      ("spills/stack: " + "; ".join(spilled)) if spilled else
                      "%d kernel instances, 0 bytes spilled, 0 bytes stack" % len({(r["arch"], r["demangled"])
                                                                                   for r in rs_disp})))
        cmp_rows = onesweep_comparison(disp)
        worse = [c for c in cmp_rows if c["rs_regs"] > c["cub_regs"]]
        if worse:
            detail = "; ".join("%s %s: %d vs %d regs (%s)" % (c["arch"], c["case"], c["rs_regs"], c["cub_regs"],
                                                              c["reason"]) for c in worse)
        else:
            detail = "every arch and case"
        goals.append(("onesweep registers <= CUB's onesweep", "FAIL" if worse else "PASS", detail))
    else:
        goals.append(("zero spills", "NOT MEASURED", res_note))
        goals.append(("onesweep registers <= CUB's onesweep", "NOT MEASURED", res_note))
    if temp_rows:
        db = [(r["ringsweep_double_buffer"], r) for r in temp_rows if "ringsweep_double_buffer" in r]
        worst, wr = max(db, key=lambda x: x[0])
        goals.append(("double-buffer temp <= 4 MiB for every n (2^16..2^32)",
                      "PASS" if worst <= GOAL_TEMP_BYTES else "FAIL",
                      "largest: %s bytes (%.3f MiB), %s %s n=2^%d" % (worst, worst / MiB, wr["case"], wr["arch"],
                                                                     int(math.log2(wr["n"])))))
    else:
        goals.append(("double-buffer temp <= 4 MiB", "NOT MEASURED", "no SIMT backend in this build"))
    counted = [s for s in t_sum if s["counted"]]
    if not t_sum:
        goals.append(("traffic within 3% of the model floor", "NOT MEASURED", "traffic skipped"))
        goals.append(("scatter sector efficiency >= 85% at entropy 1.0", "NOT MEASURED", "traffic skipped"))
    elif not counted:
        why = ("the library's load/store helpers do not call __simt_trace_global, so the SIMT backend counted "
               "0 bytes")
        goals.append(("traffic within 3% of the model floor", "NOT MEASURED", why))
        goals.append(("scatter sector efficiency >= 85% at entropy 1.0", "NOT MEASURED", why))
    else:
        bad = [s for s in counted if abs(s["ratio"] - 1) > GOAL_TRAFFIC_TOLERANCE]
        goals.append(("traffic within 3% of the model floor", "FAIL" if bad else "PASS",
                      "; ".join("%s H=%.3f: %.2f B/key vs %d (%+.1f%%)" % (s["case"], s["entropy"],
                                                                          s["bytes_per_key"], s["floor"],
                                                                          100 * (s["ratio"] - 1))
                                for s in counted)))
        e1 = [s for s in counted if s["entropy"] > 0.99 and s["scatter_eff"] is not None]
        bad = [s for s in e1 if s["scatter_eff"] < GOAL_SCATTER_EFFICIENCY]
        goals.append(("scatter sector efficiency >= 85% at entropy 1.0",
                      "FAIL" if bad or not e1 else "PASS",
                      "; ".join("%s: %.1f%%%s" % (s["case"], 100 * s["scatter_eff"],
                                                 " (at most %.1f%% for any scatter of these tiles)"
                                                 % (100 * s["scatter_ceiling"]) if s["scatter_ceiling"] else "")
                                for s in e1) or "no stores"))
    if t_sum and not all(s["sorted"] for s in t_sum):
        goals.append(("traffic sorts are correct", "FAIL", "a traced sort's output differs from std::stable_sort"))

    md = render_markdown(args, cfg, cccl, goals, res_rows, res_note, ptxas_log, temp_rows, public_ok, have_png,
                         t_rows, t_sum, n_traffic)
    if errors:
        md += "\n## Errors\n\n" + "\n".join("- " + e for e in errors) + "\n"
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(md)
    print(md)
    log("wrote %s" % out)
    for e in errors:
        log(e)
    return 1 if errors else 0


def describe_error(e):
    if isinstance(e, subprocess.CalledProcessError):
        tail = (e.stderr or e.stdout or "").strip().splitlines()[-5:]
        return "%s exited with %s: %s" % (os.path.basename(str(e.cmd[0])), e.returncode, " | ".join(tail))
    return str(e).strip().splitlines()[0] if str(e).strip() else repr(e)


def onesweep_comparison(disp):
    out = []
    for arch in ARCHS:
        for case in CASES:
            rs = [r for r in disp if r["library"] == "ringsweep" and r["kernel"] == "onesweep" and
                  r["arch"] == arch and r["case"] == case]
            cub = [r for r in disp if r["library"] == "cub" and r["kernel"] == "onesweep" and
                   r["arch"] == arch and r["case"] == case]
            if not rs or not cub:
                continue
            a, b = rs[0], cub[0]
            reason = ""
            if a["regs"] > b["regs"]:
                bits = []
                if a["items"] and b["items"] and a["items"] > b["items"]:
                    bits.append("%d vs %d items/thread" % (a["items"], b["items"]))
                if a["blocks_per_sm"] >= b["blocks_per_sm"]:
                    bits.append("same or better occupancy: %d vs %d blocks/SM" % (a["blocks_per_sm"],
                                                                                 b["blocks_per_sm"]))
                else:
                    bits.append("LOWER occupancy: %d vs %d blocks/SM (limited by %s)" % (
                        a["blocks_per_sm"], b["blocks_per_sm"], a["limiter"]))
                reason = ", ".join(bits)
            out.append(dict(arch=arch, case=case, rs=a, cub=b, rs_regs=a["regs"], cub_regs=b["regs"],
                            reason=reason))
    return out


def lookback_estimate(res_rows):
    """Text: the look-back lower bound in bytes per key for the traffic cases (sm_90 tiles)."""
    parts = []
    for case in ("keys_u32", "pairs_u32_u32"):
        rs = [r for r in res_rows if r["library"] == "ringsweep" and r["kernel"] == "onesweep" and
              r["arch"] == "sm_90" and r["case"] == case and r["items"]]
        if rs:
            tile = rs[0]["threads"] * rs[0]["items"]
            per_key = 4 * 3 * 256 * 8 / tile
            parts.append("%s (tile %d keys): >= %.2f B/key, %+.1f%% of the floor"
                         % (case, tile, per_key, 100 * per_key / model_floor(case, 4)))
    return (": " + "; ".join(parts)) if parts else ""


def render_markdown(args, cfg, cccl, goals, res_rows, res_note, ptxas_log, temp_rows, public_ok, have_png,
                    t_rows, t_sum, n_traffic):
    src = cfg["source_dir"]
    L = []
    L.append("# ringsweep performance report (no GPU)")
    L.append("")
    L.append("Generated %s by `python3 bench/report/report.py --build <build>%s` (or `cmake --build <build> --target "
             "ringsweep_report`), ringsweep at %s%s. Nothing here ran on a GPU: registers and shared memory "
             "come from ptxas, temporary storage from size queries and CUB's layout, traffic from the CPU SIMT "
             "backend. Timings need a GPU: `ringsweep_sort_bench` (bench/sort_bench.cu); those measured so far are in bench/results/gpu/. SASS instructions per key by phase, beside CUB: [instructions.md](instructions.md) (`bench/report/sass_phases.py --report`)."
             % (datetime.date.today().isoformat(), " --quick" if args.quick else "", git_describe(src),
                ", CCCL %s (CCCL_VERSION %d)" % (cccl_str(cccl), cccl) if cccl else ""))
    L.append("")
    L.append("## Goals")
    L.append("")
    L.append("| goal | status | detail |")
    L.append("|---|---|---|")
    for g, s, d in goals:
        L.append("| %s | **%s** | %s |" % (g, s, d))
    L.append("")

    # 1
    L.append("## 1. Static resources (ptxas, sm_80 and sm_90)")
    L.append("")
    if not res_rows:
        L.append(res_note or "not measured")
    else:
        L.append("One nvcc build of `bench/report/kernel_resources.cu` (`-Xptxas -v`, `-gencode` for sm_80 and "
                 "sm_90), which instantiates `ringsweep::sort_keys/sort_pairs` and "
                 "`cub::DeviceRadixSort::SortKeys/SortPairs` (`int` num_items: 32-bit offsets). Threads per block "
                 "from `.maxntid` in the PTX, else the launch shape. Theoretical occupancy per SM: sm_80 64 warps, "
                 "32 blocks, 65536 registers (256 per warp granule, 4 sub-partitions), 164 KiB shared; sm_90 the "
                 "same with 228 KiB shared; 1 KiB reserved per block, 128-byte granule. Only the kernels each "
                 "library dispatches on that architecture (ringsweep: policy_sm80 on sm_80, policy_sm90 on sm_90).")
        L.append("")
        L.append("### Onesweep kernel, ringsweep vs CUB")
        L.append("")
        L.append("| arch | case | threads | items/thread rs / CUB | regs rs / CUB | smem B rs / CUB | "
                 "spill st/ld B rs / CUB | blocks/SM rs / CUB | occupancy rs / CUB | regs <= CUB |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        disp = [r for r in res_rows if r["dispatched"]]
        for c in onesweep_comparison(disp):
            a, b = c["rs"], c["cub"]
            ok = "yes" if a["regs"] <= b["regs"] else "no: " + c["reason"]
            L.append("| %s | %s | %d / %d | %s / %s | %d / %d | %d / %d | %d/%d / %d/%d | %d / %d | %.0f%% / %.0f%% | %s |"
                     % (c["arch"], c["case"], a["threads"], b["threads"], a["items"], b["items"], a["regs"],
                        b["regs"], a["smem"], b["smem"], a["spill_st"], a["spill_ld"], b["spill_st"], b["spill_ld"],
                        a["blocks_per_sm"], b["blocks_per_sm"], 100 * a["occupancy"], 100 * b["occupancy"], ok))
        L.append("")
        L.append("### Every kernel")
        L.append("")
        L.append("| arch | library | kernel | case | threads | regs | smem B | stack B | spill st/ld B | "
                 "blocks/SM | warps/SM | occupancy | limited by |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        seen = set()
        order = {"histogram": 0, "bins_scan": 1, "exclusive_sum": 1, "onesweep": 2, "small_sort": 3,
                 "single_tile": 3}
        for r in sorted(disp, key=lambda r: (r["arch"], r["library"] != "ringsweep", order.get(r["kernel"], 9),
                                              CASES.index(r["case"]))):
            key = (r["arch"], r["demangled"])
            if key in seen:
                continue
            seen.add(key)
            case = r["case"]
            if r["kernel"] == "bins_scan":
                case = "(all)"
            elif r["library"] == "ringsweep" and r["kernel"] == "histogram":
                case = "keys " + r["case"].split("_")[1]
            L.append("| %s | %s | %s | %s | %d | %d | %d | %d | %d/%d | %d | %d | %.0f%% | %s |"
                     % (r["arch"], r["library"], r["kernel"], case, r["threads"], r["regs"], r["smem"], r["stack"],
                        r["spill_st"], r["spill_ld"], r["blocks_per_sm"], r["warps_per_sm"], 100 * r["occupancy"],
                        r["limiter"]))
        L.append("")
        other = [r for r in res_rows if not r["dispatched"] and (r["spill_st"] or r["spill_ld"])]
        L.append("Not dispatched but compiled (the other ringsweep policy on each arch): %s. All rows, with the "
                 "demangled names, are in `resources.csv`; the raw ptxas output is `%s` in the build tree."
                 % ("spills in " + ", ".join(sorted({"%s %s %s" % (r["arch"], r["policy"], r["case"])
                                                     for r in other})) if other else "no spills",
                    os.path.relpath(ptxas_log, cfg["binary_dir"]) if ptxas_log else "?"))
    L.append("")

    # 2
    L.append("## 2. Temporary storage vs n")
    L.append("")
    if not temp_rows:
        L.append("not measured (no SIMT backend in this build)")
    else:
        L.append("ringsweep: the size query of `ringsweep::tuning::sort_keys/sort_pairs<policy_sm80|policy_sm90>` "
                 "(in/out and double-buffer forms), run on the SIMT backend (`ringsweep_report_temp_query`); the "
                 "public API gives the sm_90 numbers there (%s)." % (
                     "checked: identical" if public_ok else "MISMATCH: the public API differs"))
        L.append("")
        L.append("CUB onesweep (`DispatchRadixSort::InvokeOnesweep` in CCCL %s), with CUB's own policy constants "
                 "(tile = onesweep BLOCK_THREADS x ITEMS_PER_THREAD of Policy800/Policy900):"
                 % (cccl_str(cccl) if cccl else "?"))
        L.append("")
        L.append("    portion  = floor((2^28 - 1) / tile) * tile;  portions = ceil(n / portion)")
        L.append("    blocks   = ceil(min(n, portion) / tile)")
        L.append("    bytes    = r(portions*passes*256*sizeof(offset))      bins")
        L.append("             + r(blocks*256*4)                            look-back, one portion")
        L.append("             + r(n*sizeof(key)) + r(n*sizeof(value))      in/out form only (passes > 1)")
        L.append("             + r(portions*passes*4)                       counters")
        L.append("             + 255                                        r(x) = x rounded up to 256")
        L.append("")
        L.append("Offsets are 32-bit when num_items is a 4-byte integer (CUB's usual case; cannot express n = "
                 "2^32) and 64-bit for `size_t` num_items, the type ringsweep takes.")
        L.append("")
        for case in CASES:
            sel = [r for r in temp_rows if r["case"] == case and r["arch"] == "sm_90"]
            if not sel:
                continue
            L.append("**%s, sm_90** (MiB)" % case)
            L.append("")
            L.append("| n | ringsweep double-buffer | ringsweep in/out | CUB double-buffer 32-bit | "
                     "CUB double-buffer 64-bit | CUB in/out 32-bit |")
            L.append("|---|---|---|---|---|---|")
            for r in sel:
                if case != "keys_u32" and int(math.log2(r["n"])) % 4 != 0:
                    continue
                L.append("| 2^%d | %s | %s | %s | %s | %s |" % (
                    int(math.log2(r["n"])), fmt_mib(r.get("ringsweep_double_buffer")),
                    fmt_mib(r.get("ringsweep_in_out")), fmt_mib(r.get("cub32_double_buffer")),
                    fmt_mib(r.get("cub64_double_buffer")), fmt_mib(r.get("cub32_in_out"))))
            L.append("")
        n28 = [r for r in temp_rows if r["case"] == "keys_u32" and r["arch"] == "sm_90" and r["n"] == 1 << 28]
        if n28 and n28[0].get("cub32_double_buffer"):
            r = n28[0]
            L.append("Check: CUB double-buffer at n = 2^28, u32 keys, sm_90: %d bytes (%.1f MB, %.1f MiB); "
                     "ringsweep: %d bytes (%.2f MiB)." % (r["cub32_double_buffer"], r["cub32_double_buffer"] / 1e6,
                                                           r["cub32_double_buffer"] / MiB,
                                                           r["ringsweep_double_buffer"],
                                                           r["ringsweep_double_buffer"] / MiB))
            L.append("")
        L.append("Every case, both architectures, every power of two: `temp_memory.csv`.%s"
                 % (" Plot: `temp_memory.png`." if have_png else " (No PNG: matplotlib missing.)"))
        if have_png:
            L.append("")
            L.append("![temporary storage vs n](temp_memory.png)")
    L.append("")

    # 3
    L.append("## 3. Global traffic and coalescing (SIMT backend)")
    L.append("")
    if not t_sum:
        L.append("not measured")
    else:
        L.append("Full sorts of n = %d u32 keys (2^%d; keys only, and pairs with u32 values) through the public "
                 "in/out API (SIMT device = compute capability 9.0, so policy_sm90), inputs AND-ing 1 (entropy "
                 "1.0) or 5 (entropy 0.201) random words. Counted: every global key/value access the library "
                 "reports through `__simt_trace_global`; sectors = distinct 32-byte sectors per warp-wide access. "
                 "Model floor per key = key bytes x (1 + 2 x passes) + value bytes x 2 x passes (8-bit digits, "
                 "4 passes: 36 B keys only, 68 B pairs)." % (n_traffic, int(math.log2(n_traffic))))
        L.append("")
        if not any(s["counted"] for s in t_sum):
            L.append("**Nothing was counted**: the sorts ran and were checked (%s), and the backend saw the "
                     "kernels, but `include/ringsweep/detail/load_store.cuh` does not report its accesses through "
                     "`__simt_trace_global` yet, so every byte count is 0. Rerun the report once it does."
                     % ("all sorted correctly" if all(s["sorted"] for s in t_sum) else "SOME OUTPUTS WRONG"))
            L.append("")
        L.append("| case | entropy | sorted | counted B/key | floor B/key | vs floor | histogram ld | "
                 "onesweep ld / st | scatter (onesweep store) sector efficiency | best possible for these tiles | "
                 "onesweep load sector efficiency |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for s in t_sum:
            bk = s["by_kernel"]
            h = bk.get("histogram", (0, 0, 0))
            o = bk.get("onesweep", (0, 0, 0))
            L.append("| %s | %.3f | %s | %.2f | %d | %+.1f%% | %.2f | %.2f / %.2f | %s | %s | %s |" % (
                s["case"], s["entropy"], "yes" if s["sorted"] else "NO", s["bytes_per_key"], s["floor"],
                100 * (s["ratio"] - 1), h[0], o[0], o[1],
                "%.1f%%" % (100 * s["scatter_eff"]) if s["scatter_eff"] is not None else "n/a",
                "%.1f%%" % (100 * s["scatter_ceiling"]) if s["scatter_ceiling"] else "n/a",
                "%.1f%%" % (100 * s["load_eff"]) if s["load_eff"] is not None else "n/a"))
        L.append("")
        L.append("The count covers key and value accesses only (the library's load/store helpers). Look-back "
                 "status words and digit tables are not reported; their traffic per key does not grow with n "
                 "but is not zero: per pass each tile publishes RADIX 8-byte status words twice (aggregate, "
                 "then inclusive) and reads at least its predecessor's RADIX words, at least 3 x 256 x 8 B per "
                 "tile and pass%s. On a GPU these hit the 2 MiB L2-resident status buffer rather than DRAM."
                 % lookback_estimate(res_rows))
        L.append("")
        L.append("Best possible for these tiles: stored bytes over the sectors a scatter would touch if every "
                 "tile wrote each of its digit runs as one piece, so that a 32-byte sector is split only where "
                 "two runs meet (computed by replaying the passes on the host, `whole_run_sectors` in "
                 "`bench/report/traffic.cu`). With 256 digits a tile's runs average TILE / 256 keys and each "
                 "run's ends waste part of a sector, so no scatter of these tiles can reach a higher figure; "
                 "only longer runs (bigger tiles, fewer digit bits) raise it.")
        L.append("")
        L.append("Per-kernel counts (launches, bytes, sectors, accesses): `traffic.csv`.")
    L.append("")
    return "\n".join(L)


if __name__ == "__main__":
    sys.exit(main())
