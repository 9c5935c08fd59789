"""Checks and rewrites the C expressions of spec rules, and counts printf conversions."""
from __future__ import annotations

import re
from dataclasses import dataclass

@dataclass(frozen=True)
class RuleFunction:
    """A pure runtime function rules may call (declared in runtime/runtime.h, which every
    generated source includes): for checks a C expression cannot make, such as comparing two
    arrays element by element."""

    returns: str      # its C return type (for printf checks)
    params: tuple     # its parameters, as C declarations (their number is checked)
    doc: str          # what it returns, for docs/spec.md


# Functions rules may call besides UINT64_C and INT64_C (docs/spec.md lists them).
RULE_FUNCTIONS = {
    "cgn__mem_ops_type_change": RuleFunction(
        "uint32_t", ("const CUstreamBatchMemOpParams *a", "const CUstreamBatchMemOpParams *b",
                     "uint32_t n"),
        "the index of the first of `n` batch memory operations whose type differs between "
        "`a` and `b`, or `n` when none does"),
    "cgn__mem_ops_fixed_change": RuleFunction(
        "uint32_t", ("const CUstreamBatchMemOpParams *a", "const CUstreamBatchMemOpParams *b",
                     "uint32_t n"),
        "the index of the first of `n` batch memory operations (of the same types) that "
        "differs in something an executable cannot change (a write's flags, a wait's "
        "CU_STREAM_WAIT_VALUE_FLUSH bit, a flush's or a barrier's flags), or `n`"),
    "cgn__driver_version": RuleFunction(
        "int", (),
        "the installed driver's version (`cuDriverGetVersion` form: 12080 is 12.8), for "
        "rules that refuse a form of a node older drivers lack, with CGN_ERROR_DRIVER_TOO_OLD "
        "and a message naming both versions (conditional: SWITCH and IF/else need 12.8)"),
    "cgn__mem_op_name": RuleFunction(
        "const char *", ("CUstreamBatchMemOpType type",),
        "a batch memory operation type's name for messages (`\"write32\"`, `\"wait64\"`, "
        "`\"barrier\"`...)"),
}

# Identifiers a rule may use besides field names: sizeof, type names for casts, limits.
ALLOWED_NAMES = frozenset(RULE_FUNCTIONS) | frozenset({
    "sizeof", "NULL", "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "INT32_MAX",
    "INT32_MIN", "INT64_MAX", "INT64_MIN", "SIZE_MAX", "UINT64_C", "INT64_C",
    "CGN_MAX_COND_BODIES",
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
            lit = _INT_LIT.fullmatch(m.group(0)) if m.lastgroup == "num" else None
            if lit and _int_value(lit.group(1)) > 0xFFFFFFFFFFFFFFFF:
                problems.append(ExprProblem(pos, f"integer literal {m.group(0)} does not fit "
                                                 f"64 bits"))
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
            elif t.text in RULE_FUNCTIONS:
                self.take("(")
                for k in range(len(RULE_FUNCTIONS[t.text].params)):
                    if k:
                        self.take(",")
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


_OPERATORS = {"*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|",
              "&&", "||", "!", "~", "?", ":"}


def struct_operand(tokens, types: dict):
    """The first name of a struct type (`grid`, a cgn_dim3) an operator applies to, or None:
    C has no arithmetic or comparison of structs, so `grid == 0` would fail in the compiler.
    A struct passed to a rule function (between '(' ',' ')') or whose member is taken
    (`grid.x`) is fine. `types` maps names to CTypes; `old.<name>` reads the same table."""
    for i, t in enumerate(tokens):
        if t.kind != "ident":
            continue
        start = i  # where the operand begins: at `old` for old.<name>
        if i > 0 and tokens[i - 1].text in (".", "->"):
            if not (i >= 2 and tokens[i - 1].text == "." and tokens[i - 2].text == "old"):
                continue  # a member, not a name
            start = i - 2
        ct = types.get(t.text)
        if ct is None or ct.kind != "struct":
            continue
        after = tokens[i + 1].text if i + 1 < len(tokens) else None
        if after in (".", "->"):
            continue
        before = tokens[start - 1].text if start > 0 else None
        if before in _OPERATORS or after in _OPERATORS:
            return t
    return None


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


@dataclass(frozen=True)
class Conversion:
    """One printf conversion specification (C99 7.19.6.1), `%%` excluded."""

    offset: int           # of its '%' in the format
    text: str             # as written, e.g. "%-8llx"
    width_star: bool      # `*` width: takes an int argument before the value
    prec_star: bool       # `.*` precision: likewise
    length: str           # "", "hh", "h", "l", "ll", "j", "z", "t" or "L"
    conv: str             # the conversion letter


def printf_conversions(fmt: str):
    """(the conversions of a printf format in order, problem or None). `%n` is refused: it
    writes through its argument, which a message never should."""
    out = []
    pos = 0
    while True:
        i = fmt.find("%", pos)
        if i < 0:
            return out, None
        m = _CONV.match(fmt, i)
        if not m:
            bad = re.match(r"%[-+ #0-9.*hljztL]*.?", fmt[i:]).group(0)
            if bad.endswith("n"):
                return out, ExprProblem(i, f"printf conversion '{bad}' is not allowed: %n "
                                           f"writes through its argument")
            return out, ExprProblem(i, f"bad printf conversion '{bad}' "
                                       f"(use %% for a percent sign)")
        if m.group("conv") != "%":
            out.append(Conversion(i, m.group(0), m.group("width") == "*",
                                  m.group("prec") == "*", m.group("len") or "",
                                  m.group("conv")))
        pos = m.end()


def printf_arg_count(fmt: str):
    """(number of arguments the format consumes, problem or None)."""
    convs, problem = printf_conversions(fmt)
    return sum(1 + c.width_star + c.prec_star for c in convs), problem


# ---- argument types, for checking printf conversions ---------------------------------------
#
# A CType's `kind` is what decides which printf conversions fit it, on every platform cgn
# builds for (64-bit: CUDA 12 has no 32-bit host support):
#   int      int or unsigned int, and the narrower types that promote to int (%d %i %u %x %o %X
#            %c; gcc's -Wformat, like C's va_arg, accepts either signedness of a rank)
#   long     long / unsigned long (%lu)        llong  long long / unsigned long long (%llu)
#   size     size_t (%zu)
#   fixed64  uint64_t, int64_t, uintptr_t: long on some platforms, long long on others, so no
#            length fits everywhere (a spec cannot write PRIu64): cast to unsigned long long
#   double   double and float (%f %e %g %a)    ldouble  long double (%Lf...)
#   voidptr  void * / const void * (%p)        ptr  another object pointer: %p wants void *
#   fnptr    a function pointer (nothing fits) charptr  char * (%s)
#   struct   a struct (nothing fits; name a member)


@dataclass(frozen=True)
class CType:
    name: str    # as the spec would say it: "uint32_t", "cgn_owner *"
    kind: str


_INT_KINDS = ("int", "long", "llong", "size", "fixed64")
_NAMED_TYPES = {
    "uint32_t": "int", "int32_t": "int", "uint16_t": "int", "int16_t": "int",
    "uint8_t": "int", "int8_t": "int", "int": "int", "unsigned int": "int", "unsigned": "int",
    "signed int": "int", "signed": "int", "short": "int", "unsigned short": "int",
    "short int": "int", "unsigned short int": "int", "char": "int", "unsigned char": "int",
    "signed char": "int", "long": "long", "unsigned long": "long", "long int": "long",
    "unsigned long int": "long", "signed long": "long", "long long": "llong",
    "unsigned long long": "llong", "long long int": "llong", "unsigned long long int": "llong",
    "signed long long": "llong", "size_t": "size", "uint64_t": "fixed64",
    "int64_t": "fixed64", "uintptr_t": "fixed64",
    # cuda.h: CUdeviceptr is unsigned long long on every 64-bit host; CUmemorytype an enum.
    "CUdeviceptr": "llong", "CUmemorytype": "int",
    "CUevent": "ptr", "CUgraph": "ptr", "CUhostFn": "fnptr", "CUarray": "ptr",
    "cgn_dim3": "struct", "cgn_kernel": "struct", "cgn_arg_edits": "struct",
    "void *": "voidptr", "const void *": "voidptr", "char *": "charptr",
    "const char *": "charptr",
}
# Members of the struct types that rules may name (`grid.x`).
_STRUCT_MEMBERS = {"cgn_dim3": {"x": "uint32_t", "y": "uint32_t", "z": "uint32_t"}}
_CONSTANTS = {"UINT8_MAX": "int", "UINT16_MAX": "int", "UINT32_MAX": "unsigned int",
              "INT32_MAX": "int", "INT32_MIN": "int", "UINT64_MAX": "uint64_t",
              "INT64_MAX": "int64_t", "INT64_MIN": "int64_t", "SIZE_MAX": "size_t",
              "CGN_MAX_COND_BODIES": "unsigned int"}  # cgn.h's bounds


def ctype(name: str):
    """The CType of a C type name (a member's ctype or a cast's words), or None if unknown."""
    name = " ".join(name.replace("*", " * ").split())
    kind = _NAMED_TYPES.get(name)
    if kind is None and name.endswith("*"):
        kind = "ptr"
    return CType(name, kind) if kind is not None else None


_PREC = {"*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "<": 7, ">": 7, "<=": 7,
         ">=": 7, "==": 6, "!=": 6, "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1}
_INT = CType("int", "int")


def _common(a, b):
    """The usual arithmetic conversions, as far as they are the same on every 64-bit host;
    None where they are not (or an operand is unknown)."""
    if a is None or b is None:
        return None
    if a.kind in ("double", "ldouble") or b.kind in ("double", "ldouble"):
        if a.kind in _INT_KINDS + ("double", "ldouble") and b.kind in _INT_KINDS + ("double",
                                                                                  "ldouble"):
            return a if a.kind == "ldouble" or b.kind not in ("double", "ldouble") else b
        return None
    if a.kind not in _INT_KINDS or b.kind not in _INT_KINDS:
        return None
    if a.kind == b.kind:
        if a.name == b.name:
            return a
        unsigned = {"int": "unsigned int", "long": "unsigned long", "llong": "unsigned long long"}
        return CType(unsigned[a.kind], a.kind) if a.kind in unsigned else None
    if a.kind == "llong":  # long long absorbs every other integer type there
        return a
    if b.kind == "llong":
        return b
    if a.kind == "int":
        return b
    if b.kind == "int":
        return a
    return None  # long with size_t or uint64_t: the same type on some hosts only


def _promote(t):
    if t is not None and t.kind == "int":
        return t if t.name in ("int", "unsigned int", "uint32_t", "int32_t") else _INT
    return t


class _Typer:
    """The type of an expression the checks above accepted: precedence climbing over its
    tokens. None wherever it is not known for sure (the caller then skips its check)."""

    def __init__(self, tokens, types: dict) -> None:
        self.toks = tokens
        self.types = types
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self):
        t = self.peek()
        self.i += 1
        return t

    def expr(self):
        cond = self.binary(1)
        t = self.peek()
        if t is None or t.text != "?":
            return cond
        self.i += 1
        a = self.expr()
        self.next()  # ':'
        b = self.expr()
        if a is not None and b is not None and a.kind == b.kind and a.kind not in _INT_KINDS:
            return a if a.name == b.name else None
        return _common(_promote(a), _promote(b))

    def binary(self, min_prec: int):
        left = self.unary()
        while True:
            t = self.peek()
            if t is None or t.text not in _PREC or _PREC[t.text] < min_prec:
                return left
            self.i += 1
            right = self.binary(_PREC[t.text] + 1)
            if _PREC[t.text] in (1, 2, 6, 7):
                left = _INT
            elif t.text in ("<<", ">>"):
                known = left is not None and left.kind in _INT_KINDS
                left = _promote(left) if known else None
            else:
                left = _common(_promote(left), _promote(right))

    def type_name(self):
        words = []
        while self.peek() is not None and self.peek().text in TYPE_WORDS:
            words.append(self.next().text)
        while self.peek() is not None and self.peek().text == "*":
            words.append(self.next().text)
        return ctype(" ".join(words))

    def _cast_follows(self) -> bool:
        t = self.peek(1)
        return t is not None and t.kind == "ident" and t.text in TYPE_WORDS

    def unary(self):
        t = self.peek()
        if t.text in ("-", "+", "~"):
            self.i += 1
            v = _promote(self.unary())
            return v if v is not None and (v.kind in _INT_KINDS or t.text != "~"
                                           and v.kind in ("double", "ldouble")) else None
        if t.text == "!":
            self.i += 1
            self.unary()
            return _INT
        if t.text in ("*", "&"):
            self.i += 1
            self.unary()
            return None
        if t.text == "sizeof":
            self.i += 1
            if self.peek() is not None and self.peek().text == "(" and self._cast_follows():
                self.i += 1
                self.type_name()
                self.next()  # ')'
            else:
                self.unary()
            return CType("size_t", "size")
        if t.text == "(" and self._cast_follows():
            self.i += 1
            to = self.type_name()
            self.next()  # ')'
            self.unary()
            return to
        return self.postfix()

    def postfix(self):
        t = self.next()
        old = False
        if t.text == "(":
            v = self.expr()
            self.next()  # ')'
        elif t.kind == "num":
            v = _literal(t.text)
        elif t.text in CALLABLE:
            self.next()  # '('
            self.expr()
            self.next()  # ')'
            v = CType("uint64_t" if t.text.startswith("U") else "int64_t", "fixed64")
        elif t.text in RULE_FUNCTIONS:
            self.next()  # '('
            for k in range(len(RULE_FUNCTIONS[t.text].params)):
                if k:
                    self.next()  # ','
                self.expr()
            self.next()  # ')'
            v = ctype(RULE_FUNCTIONS[t.text].returns)
        elif t.text == "old":
            old, v = True, None
        elif t.text in _CONSTANTS:
            v = ctype(_CONSTANTS[t.text])
        else:
            v = self.types.get(t.text)
        while self.peek() is not None and self.peek().text in (".", "->", "["):
            op = self.next().text
            if op == "[":
                self.expr()
                self.next()  # ']'
                v = None
                continue
            member = self.next().text
            if old and op == ".":
                v = self.types.get(member)
            elif v is not None and op == "." and v.name in _STRUCT_MEMBERS \
                    and member in _STRUCT_MEMBERS[v.name]:
                v = ctype(_STRUCT_MEMBERS[v.name][member])
            else:
                v = None
            old = False
        return None if old else v


def _int_value(digits: str) -> int:
    return int(digits, 16) if digits[:2] in ("0x", "0X") else \
        int(digits, 8) if digits.startswith("0") else int(digits)


def _literal(text: str):
    if _FLOAT_LIT.fullmatch(text):
        return CType("long double", "ldouble") if text[-1] in "lL" \
            else CType("double", "double")
    m = _INT_LIT.fullmatch(text)
    if not m:
        return None
    suffix = (m.group(2) or "").lower()
    digits = m.group(1)
    value = _int_value(digits)
    unsigned = "u" in suffix
    if "ll" in suffix:
        return CType("unsigned long long" if unsigned else "long long", "llong")
    if "l" in suffix:
        return CType("unsigned long" if unsigned else "long", "long")
    limit = 0xFFFFFFFF if unsigned or digits[:2] in ("0x", "0X") else 0x7FFFFFFF
    return CType("unsigned int" if unsigned else "int", "int") if value <= limit else None


def expr_type(expr: str, types: dict):
    """The CType of a rule expression (one the checks above accepted) given the CTypes of the
    names it may use ({name: CType}; `old.<name>` reads the same table), or None when the
    generator cannot be sure of it: then its printf conversion goes unchecked (the C compiler,
    run with -Wformat, still checks it, though without a spec position)."""
    tokens, problems = tokenize(expr)
    if problems or syntax(tokens, len(expr)) is not None:
        return None
    typer = _Typer(tokens, types)
    try:
        return typer.expr()
    except (AttributeError, IndexError, KeyError, TypeError):  # a form it does not follow
        return None


# What each conversion letter takes, by length modifier: {length: kind}.
_INT_CONV = {"": "int", "hh": "int", "h": "int", "l": "long", "ll": "llong", "z": "size",
             "j": "intmax", "t": "ptrdiff"}
_FLOAT_CONV = {"": "double", "l": "double", "L": "ldouble"}
CONVERSION_KINDS = {
    **{c: _INT_CONV for c in "diouxX"},
    "c": {"": "int"}, "s": {"": "charptr"}, "p": {"": "voidptr"},
    **{c: _FLOAT_CONV for c in "fFeEgGaA"},
}
_LENGTH_FOR = {"int": "", "long": "l", "llong": "ll", "size": "z"}


def conversion_problem(conv: Conversion, t: CType, arg: str):
    """None when `conv` prints a value of type `t`, else what to write instead (a hint)."""
    wants = CONVERSION_KINDS[conv.conv].get(conv.length)
    if wants == t.kind and conv.length not in ("h", "hh"):
        return None
    letter = conv.conv if conv.conv in "diouxX" else "u"
    if t.kind in _LENGTH_FOR:
        return f"use %{_LENGTH_FOR[t.kind]}{letter}"
    if t.kind == "fixed64":
        return (f"{t.name} has no printf length that fits every platform: give "
                f"'(unsigned long long){arg}' in args and use %ll{letter}")
    if t.kind in ("double", "ldouble"):
        letter = conv.conv if conv.conv in "fFeEgGaA" else "g"
        return f"use %{'L' if t.kind == 'ldouble' else ''}{letter}"
    if t.kind == "voidptr":
        return "use %p"
    if t.kind == "ptr":
        return f"give '(void *){arg}' in args and use %p"
    if t.kind == "charptr":
        return "use %s"
    if t.kind == "fnptr":
        return "no printf conversion prints a function pointer"
    return "no printf conversion prints a struct; give one of its members"


def star_problem(t: CType):
    """None when a `*` width or precision argument of type `t` is an int."""
    return None if t.kind == "int" else f"a '*' width or precision takes an int, not {t.name}"
