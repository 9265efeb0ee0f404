#!/usr/bin/env python3
"""Fails when the docs or the code's comments speak of how the project was made instead of the project.

The docs, the results' READMEs and the sources name dates, commits and machines ("2026-11-27",
"at 5e7323a", "on an H100"), not the work periods, checkouts or programs behind them: no
"session" (but Catch2's session and the script gpu_session.sh), no worktree, no path under /work,
no "device tool", no "lent" GPU or machine, no "the lead".

    python3 tests/check_wording.py [repository root]
"""
import os
import re
import sys

# (pattern, what it stands for). Case-insensitive, whole words.
WORDS = [
    (r"\bsessions?\b", "a work period: name its date or commit"),
    (r"\bworktrees?\b", "a checkout of the project's own making"),
    (r"/work/", "a path of the machine the project was made on"),
    (r"\bdevice tool\b", "the program used to reach a GPU: say what the run does"),
    (r"\blent\s+(?:gpus?|machines?)\b", "how a GPU was reached: name the machine"),
    (r"\bthe lead\b", "a person's role in making the project"),
]
# Legitimate uses of a word above, removed from a line before the check.
ALLOWED = [
    r"\bcatch2?(?:'s)?\s+session\b",  # Catch2's test session (tests/common/catch_session.cpp)
    r"\bcatch::session\b",
    r"\bthe catch session\b",
]
SOURCES = (".cu", ".cuh", ".inl", ".h", ".hpp", ".cpp", ".py", ".sh", ".cmake", ".md", ".in")
# Folders whose text files are scanned, and folders left out (recorded output of runs).
TREES = ["README.md", "CMakeLists.txt", "docs", "include", "tests", "scripts", "bench", "simt", "cmake",
         "examples", ".ci"]


def scanned(root):
    for top in TREES:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for d, dirs, names in os.walk(path):
            rel = os.path.relpath(d, root).replace(os.sep, "/")
            dirs[:] = [x for x in dirs if not x.startswith(".")]
            for name in sorted(names):
                f = f"{rel}/{name}"
                # bench/results: only the READMEs and reports are prose; the rest is raw output.
                if f.startswith("bench/results/") and not name.endswith(".md"):
                    continue
                if name.endswith(SOURCES) or name == "CMakeLists.txt" or (top == ".ci" and "." not in name):
                    yield f


def problems_in(text, where):
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        low = line.lower()
        for a in ALLOWED:
            low = re.sub(a, " ", low)
        for pattern, why in WORDS:
            for m in re.finditer(pattern, low):
                found.append(f"{where}:{n}: \"{line[m.start():m.end()]}\": {why}")
    return found


def main():
    # The check must see each word, and let the allowed uses through.
    assert problems_in("as in session 15's run", "x") != []
    assert problems_in("measured in a helper's worktree", "x") != []
    assert problems_in("see /work/main", "x") != []
    assert problems_in("the device tool carries 64 MiB", "x") != []
    assert problems_in("on a lent GPU", "x") != []
    assert problems_in("The Catch2 session of the tests; Catch::Session().run(); gpu_session.sh stage", "x") == []
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, files = [], 0
    for f in scanned(root):
        if f == "tests/check_wording.py":
            continue  # names the words it looks for
        files += 1
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        problems += problems_in(text, f)
    for p in problems:
        print(p)
    print(f"check_wording: {files} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
