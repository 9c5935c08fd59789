"""Checks and rewrites the C expressions of spec rules, and counts printf conversions."""
from __future__ import annotations

import re
from dataclasses import dataclass

# Identifiers a rule may use besides field names: sizeof, type names for casts, limits.
ALLOWED_NAMES = frozenset({
    "sizeof", "NULL", "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "INT32_MAX",
    "INT32_MIN", "INT64_MAX", "INT64_MIN", "SIZE_MAX", "UINT64_C", "INT64_C",
    "char", "short", "int", "long", "signed", "unsigned", "const", "void",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "size_t", "uintptr_t", "CUdeviceptr", "cgn_dim3", "cgn_arg",
})

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>->|<<|>>|<=|>=|==|!=|&&|\|\||[()\[\].!~*/%+\-<>&^|?:,])
""", re.X)

_BAD_PUNCT = re.compile(r"\+\+|--|[-+*/%&|^]=|<<=|>>=|(?<![=!<>])=(?!=)")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    offset: int


@dataclass(frozen=True)
class ExprProblem:
    offset: int
    message: str


def tokenize(expr: str):
    """(tokens, problems) for a C expression; problems carry character offsets."""
    tokens, problems = [], []
    pos = 0
    while pos < len(expr):
        bad = _BAD_PUNCT.match(expr, pos)
        if bad:
            problems.append(ExprProblem(pos, f"'{bad.group(0)}' is not allowed: rules are "
                                             f"expressions without side effects"))
            pos = bad.end()
            continue
        m = _TOKEN.match(expr, pos)
        if not m:
            problems.append(ExprProblem(pos, f"unexpected character '{expr[pos]}'"))
            pos += 1
            continue
        if m.lastgroup != "ws":
            tokens.append(Token(m.lastgroup, m.group(0), pos))
        pos = m.end()
    depth = 0
    for t in tokens:
        if t.text in "([":
            depth += 1
        elif t.text in ")]":
            depth -= 1
            if depth < 0:
                problems.append(ExprProblem(t.offset, f"unbalanced '{t.text}'"))
                depth = 0
    if depth > 0:
        problems.append(ExprProblem(len(expr), "unbalanced parentheses"))
    if not tokens and not problems:
        problems.append(ExprProblem(0, "empty expression"))
    return tokens, problems


def names(tokens):
    """Identifier tokens that are not members (not after '.' or '->')."""
    out = []
    prev = None
    for t in tokens:
        if t.kind == "ident" and not (prev is not None and prev.text in (".", "->")):
            out.append(t)
        prev = t
    return out


def rewrite(expr: str, fields: set, prefix: str = "d->") -> str:
    """`expr` with every field name (not a member) prefixed; runs of whitespace become one."""
    tokens, _ = tokenize(expr)
    out = expr
    for t in reversed(names(tokens)):
        if t.text in fields:
            out = out[:t.offset] + prefix + out[t.offset:]
    return " ".join(out.split())


_CONV = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|[0-9]+)?(?:\.(?P<prec>\*|[0-9]+))?"
                   r"(?P<len>hh|h|ll|l|j|z|t|L)?(?P<conv>[diouxXeEfFgGaAcsp%])")


def printf_arg_count(fmt: str):
    """(number of arguments the format consumes, problem or None)."""
    count = 0
    pos = 0
    while True:
        i = fmt.find("%", pos)
        if i < 0:
            return count, None
        m = _CONV.match(fmt, i)
        if not m:
            bad = re.match(r"%[-+ #0-9.*hljztL]*.?", fmt[i:]).group(0)
            return count, ExprProblem(i, f"bad printf conversion '{bad}' "
                                         f"(use %% for a percent sign)")
        if m.group("conv") != "%":
            count += 1 + (m.group("width") == "*") + (m.group("prec") == "*")
        pos = m.end()
