"""The SIMT wrap step's rewrite of `extern __shared__` (dynamic shared memory) declarations.

Used by ringsweep_simt_chevrons.py (the wrap step) on a client .cu file's text:

    text, count = rewrite_extern_shared(text, mask, defines)

A host compiler cannot give an array a per-block address, so each declaration
`extern __shared__ [alignment] T name[];` (alignment: `__align__(n)`, `alignas(...)`,
`__attribute__((...))`; the buffer is 256-byte aligned) becomes, in a function body or a #define,

    [[maybe_unused]] auto& name = ::simt::dynamic_shared_array<T>();

(a reference to the running block's buffer, ringsweep_simt/dynamic_shared.hpp). At file or namespace
scope the declaration is removed and every later use of `name` in the file (also `ns::name` and
`::name`; not `x.name` or `p->name`) becomes `(::simt::dynamic_shared_array<T>())`, so the name
must not be reused for anything else in that file. Line numbers are kept.

Refused (`file:line: error:`): a declaration that is not one array of unknown size, or that has no
terminating `;`; a file-scope name declared again later in the file (`int name;`, a member `T name`).
Not detected: a later parameter or variable declared as `T* name` or `T& name` (it is replaced too).
"""
import re


class SharedDeclError(Exception):
    """A refused declaration; `line` (1-based) where it is known from a rewritten text, else pos."""
    def __init__(self, pos, message, line=None):
        super().__init__(message)
        self.pos = pos
        self.line = line


DECLARATION = re.compile(r"\bextern\s+__shared__\b|\b__shared__\s+extern\b")
ALIGNMENT = re.compile(r"\b(__align__|alignas|__attribute__|__declspec)\s*\(|\[\[")
ARRAY = re.compile(r"^(?P<type>.*?\S)\s*\b(?P<name>[A-Za-z_]\w*)\s*\[\s*\]$", re.S)
EXPRESSION_KEYWORDS = {"return", "case", "sizeof", "alignof", "throw", "delete", "else", "do",
                       "co_return", "co_yield", "co_await"}
NAMESPACE_BRACE = re.compile(r'(\bnamespace(\s+[\w:]+)?|\bextern\s*"C(\+\+)?")\s*$')


def _close(flat, i, opener, closer):
    """Index just past the bracket matching flat[i] == opener."""
    depth = 0
    for j in range(i, len(flat)):
        depth += flat[j] == opener
        depth -= flat[j] == closer
        if depth == 0:
            return j + 1
    return len(flat)


def _strip_alignment(flat):
    out, i = [], 0
    while True:
        m = ALIGNMENT.search(flat, i)
        if not m:
            out.append(flat[i:])
            return " ".join(out)
        out.append(flat[i:m.start()])
        if m.group(0) == "[[":
            i = _close(flat, m.start(), "[", "]")
        else:
            i = _close(flat, m.end() - 1, "(", ")")


def _file_scope(text, mask, defines, pos):
    """Whether pos lies outside every brace but namespace and extern "C" ones."""
    stack, i = [], 0
    for s, e in defines + [(len(text), len(text))]:
        while i < min(s, pos):
            if mask[i] and text[i] == "{":
                stack.append(bool(NAMESPACE_BRACE.search(text, max(0, i - 200), i)))
            elif mask[i] and text[i] == "}" and stack:
                stack.pop()
            i += 1
        if s >= pos:
            break
        i = max(i, e)
    return all(stack)


def _define_of(defines, pos):
    return next(((s, e) for s, e in defines if s <= pos < e), None)


def _one_type(type_):
    """Whether a declaration's text before `name[]` is one type (not `T a[], b`)."""
    depth = 0
    for c in type_:
        depth += c in "<("
        depth -= c in ">)"
        if depth == 0 and c in ",[]=":
            return False
    return True


def _declaration(text, mask, m, limit):
    """(end, type, name, semicolon) of the declaration whose `extern __shared__` m matched; it ends
    at its ';' or, in a #define without one, at `limit` (the end of the macro body)."""
    end = m.end()
    while end < limit and not (mask[end] and text[end] in ";{}"):
        end += 1
    semicolon = end < limit and text[end] == ";"
    if not semicolon and (end < limit or limit == len(text)):
        raise SharedDeclError(m.start(), "`extern __shared__` declaration without a terminating ';'")
    body = text[m.end():end]
    flat = "".join(c if mask[m.end() + k] else " " for k, c in enumerate(body))
    flat = re.sub(r"\s+", " ", flat.replace("\\\n", " ")).strip()
    decl = ARRAY.match(_strip_alignment(flat).strip())
    if not decl or not _one_type(decl.group("type")):
        raise SharedDeclError(m.start(), "the SIMT backend rewrites `extern __shared__ T name[];` only "
                                         "(one array of unknown size per declaration)")
    return end + semicolon, decl.group("type").strip(), decl.group("name"), semicolon


def _substitute(text, mask, name, expression, start):
    """text with each use of file-scope `name` after `start` replaced by expression."""
    edits = []
    for m in re.finditer(r"\b%s\b" % re.escape(name), text):
        if m.start() < start or not mask[m.start()]:
            continue
        begin = m.start()
        while True:  # qualified: ns::name or ::name
            j = begin - 1
            while j >= 0 and text[j].isspace():
                j -= 1
            if j < 1 or text[j - 1:j + 1] != "::":
                break
            begin = j - 1
            k = begin - 1
            while k >= 0 and text[k].isspace():
                k -= 1
            q = re.compile(r"[A-Za-z_]\w*$").search(text, 0, k + 1)
            if q:
                begin = q.start()
        j = begin - 1
        while j >= 0 and text[j].isspace():
            j -= 1
        if j >= 0 and (text[j] == "." or text[j - 1:j + 1] == "->"):
            continue  # a member of the same name
        before = re.compile(r"[A-Za-z_]\w*$").search(text, 0, j + 1)
        if begin == m.start() and before and before.group(0) not in EXPRESSION_KEYWORDS:
            raise SharedDeclError(m.start(), line=text.count("\n", 0, m.start()) + 1, message=f"`{name}` is declared again after the file-scope `extern __shared__` "
                                             f"of that name; the SIMT backend replaces that name everywhere after it "
                                             f"in the file: give one of them another name")
        edits.append((begin, m.end()))
    for s, e in reversed(edits):
        text = text[:s] + expression + text[e:]
    return text


def rewrite_extern_shared(text, code_mask, define_spans):
    """(rewritten text, number of declarations rewritten); code_mask and define_spans are the wrap
    step's lexer functions (mask[i]: text[i] is code; the #define directives' spans)."""
    mask = code_mask(text)
    matches = [m for m in DECLARATION.finditer(text) if mask[m.start()]]
    if not matches:
        return text, 0
    defines = define_spans(text, mask)
    out, pos, file_scope = [], 0, []
    for m in matches:
        define = _define_of(defines, m.start())
        in_define = define is not None
        end, type_, name, semicolon = _declaration(text, mask, m, define[1] if define else len(text))
        newlines = text.count("\n", m.start(), end)
        kept = (" \\\n" if in_define else "\n") * newlines
        out.append(text[pos:m.start()])
        expression = f"::simt::dynamic_shared_array<{type_}>()"
        if in_define or not _file_scope(text, mask, defines, m.start()):
            out.append(f"[[maybe_unused]] auto& {name} = {expression}{';' if semicolon else ''}{kept}")
        else:
            out.append(kept)
            file_scope.append((name, f"({expression})", len("".join(out))))
        pos = end
    out.append(text[pos:])
    result = "".join(out)
    for name, expression, start in reversed(file_scope):  # later ones first: earlier starts stay valid
        result = _substitute(result, code_mask(result), name, expression, start)
    return result, len(matches)
