"""Loads a spec file into a tree of positioned nodes (YMap, YSeq, YScalar).

yaml.compose gives nodes with start marks; values are built from them here, so every value
keeps the line and column it came from. YAML syntax errors, duplicate keys, non-scalar keys
and merge keys become diagnostics, never exceptions.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Optional, Union

import yaml

from .diag import Diagnostics, Mark

_INT = "tag:yaml.org,2002:int"
_STR = "tag:yaml.org,2002:str"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_MERGE = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class YScalar:
    value: object          # str, int, bool, float or None
    text: str              # the scalar as written (without quotes)
    style: Optional[str]   # None for plain, "'" or '"' for quoted, "|" or ">" for blocks
    mark: Mark
    end: Mark              # one past the last character

    def kind(self) -> str:
        if self.value is None:
            return "null"
        if isinstance(self.value, bool):
            return "boolean"
        if isinstance(self.value, int):
            return "integer"
        if isinstance(self.value, float):
            return "number"
        return "string"

    def mark_at(self, offset: int) -> Mark:
        """The position of character `offset` of a one-line scalar (the start otherwise)."""
        if self.mark.line != self.end.line:
            return self.mark
        width = self.end.col - self.mark.col
        if self.style is None and width == len(self.text):
            return self.mark.shifted(offset)
        if self.style in ("'", '"') and width == len(self.text) + 2:
            return self.mark.shifted(offset + 1)
        return self.mark


@dataclass(frozen=True)
class YSeq:
    items: tuple
    mark: Mark

    def kind(self) -> str:
        return "list"


@dataclass(frozen=True)
class YMap:
    items: tuple  # ((YScalar key, node), ...) in file order
    mark: Mark

    def kind(self) -> str:
        return "mapping"

    def get(self, key: str):
        for k, v in self.items:
            if k.value == key:
                return v
        return None

    def key_node(self, key: str) -> Optional[YScalar]:
        for k, _ in self.items:
            if k.value == key:
                return k
        return None

    def keys(self) -> list:
        return [k.value for k, _ in self.items]


YNode = Union[YScalar, YSeq, YMap]


class _Positions:
    """Line and column of a PyYAML mark counted in '\n'-separated lines, as editors and the
    FILE:LINE:COL convention count them: PyYAML also breaks lines at U+0085, U+2028 and U+2029,
    which would point past the end of the file."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def mark(self, m) -> Mark:
        index = m.index if m.index is not None else 0
        line = bisect.bisect_right(self.starts, index) - 1
        return Mark(self.file, line + 1, index - self.starts[line] + 1)


class _Builder:
    def __init__(self, pos: _Positions, diags: Diagnostics) -> None:
        self.file = pos.file
        self.pos = pos
        self.diags = diags
        self.ctor = yaml.constructor.SafeConstructor()

    def build(self, node) -> YNode:
        mark = self.pos.mark(node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _MERGE:
                self.diags.error(mark, "YAML merge keys (<<) are not supported in specs")
                return YScalar(None, node.value, node.style, mark, self.pos.mark(node.end_mark))
            if node.tag not in (_INT, _STR, _BOOL, _NULL, _FLOAT):
                # Not constructed: PyYAML's constructors for other tags raise plain Python
                # errors on malformed values (`!!timestamp x`: AttributeError).
                self.diags.error(mark, f"unsupported YAML tag {node.tag}")
                return YScalar(node.value, node.value, node.style, mark,
                               self.pos.mark(node.end_mark))
            if node.tag in (_INT, _FLOAT) and node.value.strip() == "":
                # PyYAML indexes the empty text (`update: !!int`): IndexError, not YAMLError.
                self.diags.error(mark, f"bad YAML scalar: {node.tag} with no value")
                return YScalar(node.value, node.value, node.style, mark,
                               self.pos.mark(node.end_mark))
            try:
                value = self.ctor.construct_object(node, deep=True)
            except yaml.YAMLError as e:  # e.g. a malformed !!int
                self.diags.error(mark, f"bad YAML scalar: {getattr(e, 'problem', None) or e}")
                value = node.value
            except (ValueError, ArithmeticError) as e:  # `!!float x`; an int of 5000 digits
                self.diags.error(mark, f"bad YAML scalar: integer of {len(node.value)} "
                                       f"characters is too long" if node.tag == _INT
                                 and len(node.value) > 1000 else f"bad YAML scalar: {e}")
                value = node.value
            return YScalar(value, node.value, node.style, mark, self.pos.mark(node.end_mark))
        if isinstance(node, yaml.SequenceNode):
            return YSeq(tuple(self.build(n) for n in node.value), mark)
        items = []
        seen = {}
        for knode, vnode in node.value:
            key = self.build(knode)
            value = self.build(vnode)
            if not isinstance(key, YScalar) or not isinstance(key.value, str):
                self.diags.error(key.mark, "mapping keys must be plain strings")
                continue
            if key.value in seen:
                prev = seen[key.value]
                self.diags.error(key.mark, f"duplicate key '{key.value}' (first at line {prev.line})")
                continue
            seen[key.value] = key.mark
            items.append((key, value))
        return YMap(tuple(items), mark)


def _error_mark(pos: _Positions, text: str, e: yaml.YAMLError) -> Mark:
    file = pos.file
    m = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    if m is not None:
        return pos.mark(m)
    offset = getattr(e, "position", None)  # ReaderError
    if isinstance(offset, int):
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return Mark(file, line, col)
    return Mark(file, 1, 1)


def _error_text(e: yaml.YAMLError) -> str:
    if isinstance(e, yaml.MarkedYAMLError):
        parts = [p for p in (e.context, e.problem) if p]
        return "YAML syntax: " + ", ".join(parts) if parts else "YAML syntax error"
    if isinstance(e, yaml.reader.ReaderError) and isinstance(e.character, int):
        # str(e) adds a second line with the position, which the mark already gives
        return f"YAML: unacceptable character #x{e.character:04x}: {e.reason}"
    return f"YAML: {e}"


# Deeper collections are refused while composing: PyYAML's composer (and the builder above)
# recurse once per level and would end in a RecursionError. Specs nest five levels deep.
MAX_DEPTH = 32


class _Refused(Exception):
    def __init__(self, mark, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


class _SpecLoader(yaml.SafeLoader):
    """SafeLoader that refuses, before it recurses, nesting deeper than MAX_DEPTH and aliases,
    which a spec never needs and whose expansion can grow exponentially
    (`a1: [*a0, *a0, ...]`, `a2: [*a1, *a1, ...]`, ...)."""

    _depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(event.start_mark,
                           f"YAML aliases (*{event.anchor}) are not supported in specs")
        if self._depth >= MAX_DEPTH:
            raise _Refused(event.start_mark, f"YAML nested more than {MAX_DEPTH} levels deep")
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_text(file: str, text: str, diags: Diagnostics) -> Optional[YNode]:
    """Parses one spec; None (with diagnostics) when it is not YAML or is empty."""
    pos = _Positions(file, text)
    try:
        root = yaml.compose(text, Loader=_SpecLoader)
    except yaml.YAMLError as e:
        diags.error(_error_mark(pos, text, e), _error_text(e))
        return None
    except _Refused as e:
        diags.error(pos.mark(e.mark), e.message)
        return None
    if root is None:
        diags.error(Mark(file, 1, 1), "the spec is empty")
        return None
    return _Builder(pos, diags).build(root)


def load_file(path: str, display: str, diags: Diagnostics) -> Optional[YNode]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        diags.error(Mark(display, 1, 1), f"cannot read: {e.strerror}")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        diags.error(Mark(display, line, col), "the spec is not valid UTF-8")
        return None
    return load_text(display, text, diags)
