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


TYPE_WORDS = frozenset({
    "char", "short", "int", "long", "signed", "unsigned", "const", "void",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "size_t", "uintptr_t", "CUdeviceptr", "cgn_dim3", "cgn_arg",
})
CALLABLE = frozenset({"UINT64_C", "INT64_C"})
# In C precedence order (the parser ignores precedence; the listing is for docs/spec.md).
BINARY_OPERATORS = ("*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
                    "&", "^", "|", "&&", "||")
UNARY_OPERATORS = ("!", "~", "-", "+", "*", "&")
# What _BAD_PUNCT refuses, as docs/spec.md lists it.
FORBIDDEN_OPERATORS = ("=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=",
                       ">>=")
_BINARY = frozenset(BINARY_OPERATORS)
_UNARY = frozenset(UNARY_OPERATORS)
_INT_LIT = re.compile(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uU](ll|LL|l|L)?|(ll|LL|l|L)[uU]?)?")
_FLOAT_LIT = re.compile(r"(([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)[fFlL]?")


class _Syntax(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.problem = ExprProblem(offset, message)


class _Parser:
    """Recursive descent over the C expression forms rules use: operands (names, numbers,
    UINT64_C(...)), members, indexing, unary operators, casts to the allowed types, sizeof,
    binary operators and ?:. It only accepts or refuses; precedence does not matter for that."""

    def __init__(self, tokens, end: int) -> None:
        self.toks = tokens
        self.i = 0
        self.end = end

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, what: str):
        t = self.peek()
        if t is None:
            raise _Syntax(self.end, f"the expression ends where {what} should follow")
        raise _Syntax(t.offset, f"expected {what}, got '{t.text}'")

    def take(self, text: str) -> None:
        t = self.peek()
        if t is None or t.text != text:
            self.fail(f"'{text}'")
        self.i += 1

    def whole(self) -> None:
        self.expr()
        if self.peek() is not None:
            self.fail("an operator")

    def expr(self) -> None:
        self.unary()
        while True:
            t = self.peek()
            if t is not None and t.text in _BINARY:
                self.i += 1
                self.unary()
            elif t is not None and t.text == "?":
                self.i += 1
                self.expr()
                self.take(":")
                self.expr()
                return
            else:
                return

    def _type_follows(self) -> bool:
        t = self.peek(1)
        return t is not None and t.kind == "ident" and t.text in TYPE_WORDS

    def type_name(self) -> None:
        n = 0
        while self.peek() is not None and self.peek().text in TYPE_WORDS:
            self.i += 1
            n += 1
        if not n:
            self.fail("a type name")
        while self.peek() is not None and self.peek().text == "*":
            self.i += 1

    def unary(self) -> None:
        t = self.peek()
        if t is None:
            self.fail("an operand")
        if t.text in _UNARY:
            self.i += 1
            self.unary()
        elif t.text == "sizeof":
            self.i += 1
            if self.peek() is not None and self.peek().text == "(" and self._type_follows():
                self.i += 1
                self.type_name()
                self.take(")")
            else:
                self.unary()
        elif t.text == "(" and self._type_follows():
            self.i += 1
            self.type_name()
            self.take(")")
            self.unary()
        else:
            self.postfix()

    def postfix(self) -> None:
        t = self.peek()
        if t.text == "(":
            self.i += 1
            self.expr()
            self.take(")")
        elif t.kind == "num":
            if not (_INT_LIT.fullmatch(t.text) or _FLOAT_LIT.fullmatch(t.text)):
                raise _Syntax(t.offset, f"'{t.text}' is not a C number")
            self.i += 1
        elif t.kind == "ident" and t.text not in TYPE_WORDS and t.text != "sizeof":
            self.i += 1
            if t.text in CALLABLE:
                self.take("(")
                self.expr()
                self.take(")")
        else:
            self.fail("an operand")
        while self.peek() is not None and self.peek().text in (".", "->", "["):
            op = self.peek().text
            self.i += 1
            if op == "[":
                self.expr()
                self.take("]")
            else:
                m = self.peek()
                if m is None or m.kind != "ident":
                    self.fail("a member name")
                self.i += 1


def syntax(tokens, end: int):
    """None when the tokens form one C expression, else an ExprProblem. end: the length of the
    text (where a missing operand is reported)."""
    try:
        _Parser(tokens, end).whole()
    except _Syntax as e:
        return e.problem
    return None


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
