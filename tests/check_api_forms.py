#!/usr/bin/env python3
"""Fails when a public sort form has no policy-explicit twin, or is not defined as its twin.

The public forms are the function templates the sort headers declare in namespace ringsweep
(sort.cuh, decomposer.cuh, segmented_sort.cuh, host_sort.cuh, top_k.cuh). Each must have a twin in
namespace ringsweep::tuning: the same name, `class Policy` first and then the same template
parameters, the same parameters, deprecated exactly when the public form is. The twins are
declared in tuning.cuh (and top_k.cuh's `namespace tuning` block).

One mechanism makes the twins: the twin is the one body of a form (device/tuning.inl), and every
public sort form is defined as its twin at the device's policy, `tuning::NAME<detail::for_device>`,
or as a forward to another public form (a deprecated name, the `nullptr` keys-out forms). So this
test also fails on a definition in device/sort.inl, decomposer.inl, segmented_sort.inl or
host_sort.inl whose body is anything else: a public form with a body of its own could drift from
its twin.

Not covered: the CUB names (cub.cuh, cub_segmented.cuh: CUB's own API, which has no policy
argument) and ringsweep::mpi (distributed.cuh).

    python3 tests/check_api_forms.py [repository root]
"""
import os
import re
import sys

PUBLIC_HEADERS = ["sort.cuh", "decomposer.cuh", "segmented_sort.cuh", "host_sort.cuh", "top_k.cuh"]
TWIN_HEADERS = ["tuning.cuh", "top_k.cuh"]
FORWARDING_DEFINITIONS = ["device/sort.inl", "device/decomposer.inl", "device/segmented_sort.inl",
                          "device/host_sort.inl"]

DECL = re.compile(
    r"template\s*<(?P<tparams>[^;{}]*?)>\s*(?P<attrs>(?:\[\[[^\]]*\]\]\s*)*)cudaError_t\s+"
    r"(?P<name>\w+)\s*\((?P<params>(?:[^;{}]|\{\})*?)\)\s*;")
DEFN = re.compile(
    r"template\s*<(?P<tparams>[^;{}]*?)>\s*(?P<attrs>(?:\[\[[^\]]*\]\]\s*)*)cudaError_t\s+"
    r"(?P<name>(?:tuning::)?\w+)\s*\((?P<params>[^;{}]*?)\)\s*\{(?P<body>(?:[^{}]|\{[^{}]*\})*)\}")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def split_top(s):
    """`s` split at commas outside <>, () and {}."""
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "<({":
            depth += 1
        elif c in ">)}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return parts


def normal(items):
    """Parameters without their defaults, whitespace collapsed."""
    out = []
    for p in split_top(items):
        p = re.sub(r"\s*=.*$", "", p.strip(), flags=re.S)
        out.append(re.sub(r"\s+", " ", p))
    return tuple(out)


def tuning_spans(text):
    """(start, end) of each `namespace tuning { ... }` block (braces counted)."""
    spans = []
    for m in re.finditer(r"namespace\s+tuning\s*\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        spans.append((m.start(), i))
    return spans


def forms(text, inside_tuning):
    """{(name, tparams, params, deprecated)} of the declarations inside (or outside) tuning blocks."""
    spans = tuning_spans(text)
    found = set()
    for m in DECL.finditer(text):
        inside = any(a <= m.start() < b for a, b in spans)
        if inside != inside_tuning:
            continue
        found.add((m.group("name"), normal(m.group("tparams")), normal(m.group("params")),
                   "deprecated" in m.group("attrs")))
    return found


def problems_of(public_texts, twin_texts, definition_texts):
    public = set()
    for name, text in public_texts.items():
        # A header is public outside its tuning block; tuning.cuh is all tuning (its namespace block).
        public |= {(f, name) for f in forms(strip_comments(text), False)}
    twins = set()
    for text in twin_texts.values():
        twins |= forms(strip_comments(text), True)
    problems = []
    for (name, tparams, params, deprecated), header in sorted(public):
        twin = (name, ("class Policy",) + tparams, params, deprecated)
        if twin not in twins:
            problems.append(f"{header}: {name}({', '.join(params)}) has no tuning:: twin "
                            f"(template <class Policy, {', '.join(tparams)}>{' deprecated' if deprecated else ''})")
    names = {f[0] for f, _ in public}
    for file, text in definition_texts.items():
        text = strip_comments(text)
        found = len(list(DEFN.finditer(text)))
        if found != text.count("cudaError_t"):
            problems.append(f"{file}: {text.count('cudaError_t')} functions, {found} read as definitions "
                            f"(a form this check cannot read is a form it cannot check)")
        for m in DEFN.finditer(text):
            name = m.group("name")
            if name.startswith("tuning::"):
                continue
            body = re.sub(r"\s+", " ", m.group("body")).strip()
            call = re.match(r"return (?:ringsweep::)?(tuning::)?(\w+)\s*(<[^(]*>)?\s*\(", body)
            twin_call = call and call.group(1) and call.group(2) == name and \
                call.group(3) and re.sub(r"\s", "", call.group(3)) == "<detail::for_device>"
            public_call = call and not call.group(1) and call.group(2) in names
            if not (twin_call or public_call) or body.count(";") != 1:
                problems.append(f"{file}: {name}: the body is not one forward to "
                                f"tuning::{name}<detail::for_device> (or to another public form): {body[:80]}")
    return problems, len(public)


def main():
    # The check must find what it is there to find (else a clean run proves nothing).
    pub = {"a.cuh": "template <class Key>\ncudaError_t sort_keys(Key* k, std::size_t n, sort_options o = {});\n"
                    "template <class Key>\n[[deprecated(\"use b\")]] cudaError_t old_keys(Key* k);\n"}
    twin_ok = {"t.cuh": "namespace tuning {\ntemplate <class Policy, class Key>\n"
                        "cudaError_t sort_keys(Key* k, std::size_t n, sort_options o);\n"
                        "template <class Policy, class Key>\n[[deprecated(\"use b\")]] cudaError_t old_keys(Key* k);\n}"}
    assert problems_of(pub, twin_ok, {})[0] == []
    assert len(problems_of(pub, {"t.cuh": "namespace tuning {\n}"}, {})[0]) == 2
    wrong_params = {"t.cuh": twin_ok["t.cuh"].replace("std::size_t n", "int n")}
    assert len(problems_of(pub, wrong_params, {})[0]) == 1
    good = {"d.inl": "template <class Key>\ncudaError_t sort_keys(Key* k, std::size_t n, sort_options o) {\n"
                     "  return tuning::sort_keys<detail::for_device>(k, n, o);\n}\n"}
    assert problems_of(pub, twin_ok, good)[0] == []
    own_body = {"d.inl": good["d.inl"].replace("tuning::sort_keys<detail::for_device>",
                                               "detail::radix_sort<detail::for_device>")}
    assert len(problems_of(pub, twin_ok, own_body)[0]) == 1

    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    base = os.path.join(root, "include", "ringsweep")

    def read(names):
        return {n: open(os.path.join(base, n), encoding="utf-8").read() for n in names}

    problems, count = problems_of(read(PUBLIC_HEADERS), read(TWIN_HEADERS), read(FORWARDING_DEFINITIONS))
    for p in problems:
        print(p)
    print(f"check_api_forms: {count} public forms, {len(problems)} problem(s)")
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
