#!/usr/bin/env python3
"""Fails when an include in include/ringsweep runs back up design.md's layer map.

The map is the table of docs/design.md section 1: one row per layer, top to bottom, each naming
its files as backticked paths or globs relative to include/ringsweep (`device/*`,
`detail/tile_shape.cuh`). A file belongs to the first row that matches it. A file may include
files of its own row or of rows below it, never above; only the host side (`device/`) includes
`kernels/`; no header under `detail/` includes a public header (one directly in include/ringsweep),
even of its own row: the internals' vocabulary lives at or below detail/ and the public headers
include it. Every header must belong to a row, so the map cannot silently fall behind the tree.
No header may reach itself through its includes (a file-level include cycle), even within one row:
with `#pragma once`, which file of a cycle is read first decides whether the others compile.
Kernels and agents that depend on the policy take the sort's config first (`template <class Config,
...>`, a sort_config made once in radix_sort): a template in kernels/ or agent/ that names a `Policy`
parameter, or takes `Config` other than first, is a problem (templates over word types only, such
as the copy kernels', take no config).

    python3 tests/check_layers.py [repository root]
"""
import fnmatch
import os
import re
import sys


def layer_rows(design):
    """(layer name, [globs]) for each row of the map's table, top to bottom."""
    text = open(design, encoding="utf-8").read()
    start = text.index("## 1. Map")
    end = text.index("\n## ", start + 1)
    rows = []
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("layer", "") or set(cells[0]) <= set("-"):
            continue
        globs = re.findall(r"`([^`]+)`", cells[1])
        if globs:
            rows.append((cells[0], globs))
    return rows


def row_of(path, rows):
    for i, (_, globs) in enumerate(rows):
        if any(fnmatch.fnmatch(path, g) for g in globs):
            return i
    return None


def include_cycles(graph):
    """Each include cycle of `graph` (file -> files it includes) once, as a path [a, b, ..., a]."""
    cycles, done, seen = [], set(), set()

    def visit(f, path, on_path):
        for g in graph.get(f, ()):
            if g in on_path:
                cycle = path[path.index(g):] + [g]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    cycles.append(cycle)
            elif g not in done:
                on_path.add(g)
                visit(g, path + [g], on_path)
                on_path.discard(g)
        done.add(f)

    for f in sorted(graph):
        if f not in done:
            visit(f, [f], {f})
    return cycles


def template_heads(text):
    """The parameter lists of every `template <...>` in `text`, as lists of parameter names."""
    heads = []
    for m in re.finditer(r"\btemplate\s*<", text):
        depth, i = 1, m.end()
        while i < len(text) and depth > 0:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
        params, depth, cur = [], 0, ""
        for ch in text[m.end():i - 1]:
            depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                params.append(cur)
                cur = ""
            else:
                cur += ch
        params.append(cur)
        names = []
        for prm in params:
            prm = prm.split("=")[0].strip()
            w = re.findall(r"[A-Za-z_][A-Za-z_0-9]*", prm)
            if w:
                names.append(w[-1])
        heads.append((text.count("\n", 0, m.start()) + 1, names))
    return heads


def config_problems(path, text):
    """Templates of kernels/ and agent/ that take a policy instead of the config, or the config not first."""
    if not path.startswith(("kernels/", "agent/")) or path == "agent/sort_config.cuh":  # the config itself
        return []
    problems = []
    for line, names in template_heads(text):
        if "Policy" in names:
            problems.append(f"{path}:{line}: a template over `Policy`: kernels and agents take the sort's Config first")
        elif "Config" in names and names[0] != "Config":
            problems.append(f"{path}:{line}: `Config` is not the first template parameter")
    return problems


def public_include(path, target):
    """Whether `path` is an internal header (detail/) that includes a public one (directly in
    include/ringsweep): the vocabulary the internals need lives at or below detail/, and the public
    headers include it, never the reverse."""
    return path.startswith("detail/") and "/" not in target


def main():
    # The detail/ rule must see a public include and pass the rest.
    assert public_include("detail/tile_shape.cuh", "policy.cuh")
    assert not public_include("detail/tile_shape.cuh", "detail/config.cuh")
    assert not public_include("agent/sort_config.cuh", "policy.cuh")
    assert not public_include("policy.cuh", "detail/policy_vocabulary.cuh")

    # The template check must see a policy parameter and a config out of place.
    assert config_problems("kernels/x.cuh", "template <class Policy, class Key>\n__global__ void k();") != []
    assert config_problems("agent/x.cuh", "template <class Key, class Config = int>\nstruct a;") != []
    assert config_problems("agent/x.cuh", "template <class Config, class Source>\nclass t;\n"
                                          "template <int N, class T = std::pair<int, int>>\nvoid f();") == []

    # The cycle search must find a cycle where there is one (else the check below proves nothing).
    assert include_cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c", "a"]]
    assert include_cycles({"a": ["b", "c"], "b": ["c"], "c": []}) == []

    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    base = os.path.join(root, "include", "ringsweep")
    rows = layer_rows(os.path.join(root, "docs", "design.md"))
    if not rows:
        print("check_layers: no layer table found in docs/design.md section 1")
        return 1
    problems = []
    files = []
    graph = {}
    for d, _, names in os.walk(base):
        for name in names:
            if name.endswith((".cuh", ".inl", ".hpp", ".h")):
                files.append(os.path.relpath(os.path.join(d, name), base).replace(os.sep, "/"))
    for f in sorted(files):
        mine = row_of(f, rows)
        if mine is None:
            problems.append(f"{f}: in no row of design.md's layer map")
            continue
        problems += config_problems(f, open(os.path.join(base, f), encoding="utf-8").read())
        for n, line in enumerate(open(os.path.join(base, f), encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1))).replace(os.sep, "/")
            graph.setdefault(f, []).append(target)
            theirs = row_of(target, rows)
            if theirs is None:
                problems.append(f"{f}:{n}: includes {target}, which is in no row of the map")
            elif theirs < mine:
                problems.append(f"{f}:{n}: includes {target} ({rows[theirs][0]}) from {rows[mine][0]}, below it")
            elif target.startswith("kernels/") and not (f.startswith("device/") or f.startswith("kernels/")):
                problems.append(f"{f}:{n}: includes {target}; only the host side (device/) includes kernels/")
            if public_include(f, target):
                problems.append(f"{f}:{n}: includes the public header {target}; detail/ includes only detail/")
    for cycle in include_cycles(graph):
        problems.append("include cycle: " + " -> ".join(cycle))
    for p in problems:
        print(p)
    print(f"check_layers: {len(files)} headers, {len(rows)} layers, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
