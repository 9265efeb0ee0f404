#!/usr/bin/env python3
"""The SIMT backend's wrap step: a CUDA source made into a C++ source for the host compiler.

    ringsweep_simt_chevrons.py SOURCE.cu OUTPUT.cpp

Run at build time by ringsweep_simt_wrap_sources() (simt/cmake/RingsweepSimt.cmake). A source with
nothing to rewrite becomes `#include "SOURCE.cu"` (diagnostics name it, quoted includes resolve
next to it). Otherwise OUTPUT is `#line 1 "SOURCE.cu"` and the rewritten text, line for line:

- `K<<<grid, block[, smem[, stream]]>>>(args)` becomes
  `::simt::detail::chevron_launch(<address of K>, <call of K>, chevron_launch_config(grid, ...))(args)`
  (ringsweep_simt/chevron.hpp). K is the postfix expression before `<<<`: a name, qualified or
  not, with template arguments (nested `<>`, parentheses, commas), a subscript, a call, a
  parenthesised expression. The configuration and the arguments are kept as written (lambdas,
  nested parentheses and commas included). A launch inside a `#define` of this file is rewritten
  in place when its kernel, `<<<...>>>` and argument list are all in the macro body.
- `extern __shared__ T name[];` becomes a reference to the running block's dynamic shared memory
  (ringsweep_simt_shared.py says how, at function and at file scope).
- `cudaLaunchKernel((void*)k, ...)` and `cudaLaunchCooperativeKernel(...)` lose a void-pointer
  cast of their first argument, so the typed overloads see the kernel's parameter types.

Refused, with `file:line: error:` and exit status 1: `<<<` without `>>>`, no kernel expression
before `<<<`, no `(` after `>>>`, an argument list that is not closed, a launch split between
a macro body and the code outside it, and an `extern __shared__` declaration that is not one array of
unknown size. Not seen: launches and `extern __shared__` in headers (only the .cu is rewritten).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ringsweep_simt_shared  # noqa: E402  (extern __shared__ declarations)

KEYWORDS_BEFORE_EXPRESSION = {"return", "else", "do", "case", "throw", "co_return", "co_yield", "co_await", "goto"}
LAUNCH_APIS = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel")


class RewriteError(Exception):
    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos


def code_mask(text):
    """mask[i] is True where text[i] is code: not in a comment, string or character literal."""
    n = len(text)
    mask = [True] * n
    i = 0
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            while j < n and j > 0 and text[j - 1] == "\\":  # a comment continued by a backslash
                k = text.find("\n", j + 1)
                j = n if k < 0 else k
            mask[i:j] = [False] * (j - i)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            mask[i:j] = [False] * (j - i)
            i = j
        elif c.isalpha() or c == "_":
            m = re.compile(r"[A-Za-z_0-9]*").match(text, i)
            word = m.group(0)
            j = m.end()
            if j < n and text[j] == '"' and word in ("R", "LR", "uR", "UR", "u8R"):
                m2 = re.compile(r'"([^()\\\s]{0,16})\(').match(text, j)
                if m2:
                    end = text.find(")" + m2.group(1) + '"', m2.end())
                    end = n if end < 0 else end + len(m2.group(1)) + 2
                    mask[j:end] = [False] * (end - j)
                    i = end
                    continue
            i = j
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_.'" or
                             (text[j] in "+-" and text[j - 1] in "eEpP")):
                j += 1
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            mask[i:j] = [False] * (j - i)
            i = j
        else:
            i += 1
    return mask


def define_spans(text, mask):
    """(start, end) of each #define directive, continuation lines included."""
    spans = []
    for m in re.finditer(r"(?m)^[ \t]*#[ \t]*define\b", text):
        if not mask[m.end() - 1]:
            continue
        end = m.end()
        while True:
            nl = text.find("\n", end)
            if nl < 0:
                end = len(text)
                break
            if nl > 0 and text[nl - 1] == "\\":
                end = nl + 1
                continue
            end = nl
            break
        spans.append((m.start(), end))
    return spans


class Rewriter:
    def __init__(self, text):
        self.text = text
        self.mask = code_mask(text)
        self.defines = define_spans(text, self.mask)

    def code(self, i):
        return 0 <= i < len(self.text) and self.mask[i]

    def skip_back(self, i):
        """Index of the last code character at or before i that is not whitespace."""
        while i >= 0 and (not self.mask[i] or self.text[i].isspace() or
                          (self.text[i] == "\\" and self.text.startswith("\n", i + 1))):
            i -= 1
        return i

    def skip_forward(self, i):
        while i < len(self.text) and (not self.mask[i] or self.text[i].isspace() or
                                      (self.text[i] == "\\" and self.text.startswith("\n", i + 1))):
            i += 1
        return i

    def match_back(self, close, i):
        """Index of the opener matching the closer at i. Inside template arguments `<`/`>` nest;
        inside parentheses or brackets they are comparisons."""
        openers = {")": "(", "]": "[", "}": "{", ">": "<"}
        stack = [close]
        i -= 1
        while i >= 0:
            c = self.text[i]
            if self.mask[i]:
                if c == ">" and self.text[i - 1:i + 1] != "->":
                    if stack[-1] == ">":
                        stack.append(c)
                elif c in ")]}":
                    stack.append(c)
                elif c in "([{<":
                    if openers[stack[-1]] == c:
                        stack.pop()
                        if not stack:
                            return i
                    elif c != "<":
                        raise RewriteError(i, "unbalanced brackets before a '<<<' launch")
            i -= 1
        raise RewriteError(0, "unbalanced brackets before a '<<<' launch")

    def match_forward(self, i):
        """Index of the ')' matching the '(' at i, or -1 (none, or another bracket closes first)."""
        pairs, stack = {")": "(", "]": "[", "}": "{"}, []
        while i < len(self.text):
            if self.mask[i]:
                c = self.text[i]
                if c in "([{":
                    stack.append(c)
                elif c in ")]}":
                    if not stack or stack.pop() != pairs[c]:
                        return -1
                    if not stack:
                        return i
            i += 1
        return -1

    def kernel_start(self, lt):
        """Start of the postfix expression that ends just before the '<<<' at lt (lt if none)."""
        i = self.skip_back(lt - 1)
        start = lt
        while i >= 0:
            c = self.text[i]
            if c in ")]>" and not (c == ">" and self.text[i - 1:i + 1] == "->"):
                o = self.match_back(c, i)
                start, i = o, self.skip_back(o - 1)
                if c == ">" or (i >= 0 and (self.text[i].isalnum() or self.text[i] in "_)]>")):
                    continue  # template arguments need a name; a call or subscript continues
                break
            m = re.compile(r"[A-Za-z_0-9]+$").search(self.text, 0, i + 1)
            if not m or m.group(0)[0].isdigit():
                break
            if m.group(0) in KEYWORDS_BEFORE_EXPRESSION:
                break
            start, i = m.start(), self.skip_back(m.start() - 1)
            for joiner in ("::", "->", ".", "##"):
                if i >= len(joiner) - 1 and self.text[i - len(joiner) + 1:i + 1] == joiner:
                    start, i = i - len(joiner) + 1, self.skip_back(i - len(joiner))
                    break
            else:
                break
        return start

    def define_of(self, pos):
        for s, e in self.defines:
            if s <= pos < e:
                return (s, e)
        return None

    def rewrite_launch(self, lt, out):
        text = self.text
        start = self.kernel_start(lt)
        if start == lt:
            raise RewriteError(lt, "'<<<' launch without a kernel expression before it; the SIMT backend "
                                   "rewrites `kernel<<<grid, block, smem, stream>>>(args)` only")
        gt, depth, i = -1, 0, lt + 3
        while i < len(text):
            if self.mask[i]:
                if text.startswith(">>>", i) and depth == 0:
                    gt = i
                    break
                if text.startswith("<<<", i):
                    break
                depth += text[i] in "([{"
                depth -= text[i] in ")]}"
            i += 1
        if gt < 0:
            raise RewriteError(lt, "'<<<' without a matching '>>>'")
        paren = self.skip_forward(gt + 3)
        if paren >= len(text) or text[paren] != "(":
            raise RewriteError(gt, "'>>>' must be followed by the kernel's argument list '(...)'")
        close = self.match_forward(paren)
        if close < 0:
            raise RewriteError(paren, "the argument list of this '<<<' launch is not closed")
        macro = self.define_of(lt)
        if self.define_of(start) != macro or self.define_of(close) != macro:
            raise RewriteError(lt, "a '<<<' launch split between a macro body and the code outside it "
                                   "cannot be rewritten: keep the kernel, <<<...>>> and (...) in one place")
        kernel = text[start:lt]
        kernel_flat = re.sub(r"\s+", " ", "".join(ch if self.mask[start + k] else " "
                                                   for k, ch in enumerate(kernel)).replace("\\\n", " ")).strip()
        config = text[lt + 3:gt]
        newlines = kernel.count("\n")
        kept = (" \\\n" if macro else "\n") * newlines
        out.append("::simt::detail::chevron_launch("
                   f"[&](auto __simt_d) -> decltype(::simt::detail::chevron_kernel_pointer(__simt_d, {kernel_flat})) "
                   f"{{ return ::simt::detail::chevron_kernel_pointer(__simt_d, {kernel_flat}); }}, "
                   f"[&](auto&&... __simt_a) {{ {kernel_flat}(static_cast<decltype(__simt_a)&&>(__simt_a)...); }}, "
                   f"::simt::detail::chevron_launch_config({config})){kept}")
        return start, gt + 3

    def strip_casts(self):
        """Removes a void-pointer cast from the first argument of cudaLaunchKernel & co."""
        text = self.text
        edits = []
        for m in re.finditer(r"\b(%s)\s*\(" % "|".join(LAUNCH_APIS), text):
            if not self.code(m.start()):
                continue
            a = self.skip_forward(m.end())
            c_style = re.compile(r"\(\s*(const\s+)?void\s*\*\s*\)").match(text, a)
            cpp_style = re.compile(r"(reinterpret_cast|static_cast)\s*<\s*(const\s+)?void\s*\*\s*>\s*\(").match(text, a)
            if c_style:
                edits.append((c_style.start(), c_style.end(), ""))
            elif cpp_style:
                close = self.match_forward(cpp_style.end() - 1)
                if close > 0:
                    edits.append((close, close + 1, ""))
                    edits.append((cpp_style.start(), cpp_style.end(), ""))
        for s, e, r in sorted(edits, reverse=True):
            text = text[:s] + r + text[e:]
        return text

    def run(self):
        out, pos, count = [], 0, 0
        for m in re.finditer(r"<<<", self.text):
            lt = m.start()
            if lt < pos or not self.code(lt):
                continue
            before = self.skip_back(lt - 1)
            if re.compile(r"\boperator$").search(self.text, 0, before + 1):
                continue  # operator<< <T>, a template specialisation of operator<<
            start, end = self.rewrite_launch(lt, [])
            out.append(self.text[pos:start])
            self.rewrite_launch(lt, out)
            pos = end
            count += 1
        out.append(self.text[pos:])
        rewritten = "".join(out)
        casts = Rewriter(rewritten).strip_casts()
        shared, declarations = ringsweep_simt_shared.rewrite_extern_shared(casts, code_mask, define_spans)
        return shared, count + (casts != rewritten) + declarations


def line_of(text, pos):
    return text.count("\n", 0, max(pos, 0)) + 1


def wrap(source, text):
    """The C++ source for `source` (path) whose content is `text`."""
    rewritten, changes = Rewriter(text).run()
    if changes == 0:
        return f'// Generated by the SIMT wrap step (simt/cmake/ringsweep_simt_chevrons.py); edit {source} instead.\n' \
               f'#include "{source}"\n'
    return f'#line 1 "{source}"\n' + rewritten


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: ringsweep_simt_chevrons.py SOURCE OUTPUT\n")
        return 2
    source, output = argv[1], argv[2]
    with open(source, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    try:
        result = wrap(source, text)
    except (RewriteError, ringsweep_simt_shared.SharedDeclError) as e:
        line = getattr(e, "line", None) or line_of(text, e.pos)
        sys.stderr.write(f"{source}:{line}: error: {e}\n")
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
