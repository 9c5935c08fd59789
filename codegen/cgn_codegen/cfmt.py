"""Small C formatting helpers (line wrapping like clang-format's bin packing, literals)."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

WIDTH = 100
INDENT = "    "


@dataclass(frozen=True)
class Call:
    """A statement `head arg, arg, ... tail` that may wrap: continuation lines align after
    `head` (which ends with an opening parenthesis or brace)."""

    head: str
    args: tuple
    tail: str
    sep: str = ", "

    def format(self, **kw) -> "Call":
        return Call(self.head.format(**kw), tuple(a.format(**kw) for a in self.args),
                    self.tail.format(**kw), self.sep)


def wrap_call(indent: str, call: Call, width: int = WIDTH) -> list:
    """Lines of `call` at `indent`, bin-packing the arguments."""
    args = list(call.args)
    one = indent + call.head + call.sep.join(args) + call.tail
    if len(one) <= width or not args:
        return [one]
    align = " " * (len(indent) + len(call.head))
    lines = []
    cur = indent + call.head
    fresh = True  # nothing after the head / alignment yet
    for i, arg in enumerate(args):
        piece = arg + (call.tail if i == len(args) - 1 else call.sep.rstrip())
        sep = "" if fresh else " "
        if fresh or len(cur) + len(sep) + len(piece) <= width:
            cur += sep + piece
        else:
            lines.append(cur)
            cur = align + piece
        fresh = False
    lines.append(cur)
    return lines


def render_lines(indent: str, items) -> list:
    """Lines for a sequence of `str` (indented verbatim, "" stays empty) and `Call`s."""
    out = []
    for item in items:
        if isinstance(item, Call):
            out.extend(wrap_call(indent, item))
        elif item == "":
            out.append("")
        else:
            out.append(indent + item)
    return out


def comment_block(text: str, indent: str = "", width: int = WIDTH) -> list:
    """A /* ... */ comment wrapped to width; paragraphs separated by newlines in `text`."""
    lines = []
    for para in text.split("\n"):
        # room for the "/* " or " * " lead and for a closing " */"
        lines.extend(textwrap.wrap(para, width=width - len(indent) - 6,
                                   break_long_words=False, break_on_hyphens=False) or [""])
    out = []
    for i, line in enumerate(lines):
        lead = "/* " if i == 0 else " * "
        out.append((indent + lead + line).rstrip())
    out[-1] += " */"
    return out


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def c_string(text: str) -> str:
    """A C string literal for `text` (printable ASCII kept, the rest escaped)."""
    out = []
    for i, ch in enumerate(text):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "?" and i > 0 and text[i - 1] == "?":
            out.append("\\?")  # "??/" and friends are trigraphs in C11
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            for b in ch.encode("utf-8"):
                out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


_PLAIN_INT = re.compile(r"^(0|[1-9][0-9]*|0[xX][0-9a-fA-F]+)$")


def c_int(value: int, text: str = "") -> str:
    """An integer literal, keeping the spec's spelling (decimal or hex) where it is plain."""
    lit = text.lower() if _PLAIN_INT.match(text or "") else str(value)
    if value < 0:
        return str(value)
    if value > 0xFFFFFFFF:
        return f"UINT64_C({lit})"
    if value > 0x7FFFFFFF:
        return lit + "u"
    return lit


def version_text(v: int) -> str:
    """12020 -> "12.2"."""
    return f"{v // 1000}.{(v % 1000) // 10}"
