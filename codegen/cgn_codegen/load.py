"""Loads a spec file into a tree of positioned nodes (YMap, YSeq, YScalar).

yaml.compose gives nodes with start marks; values are built from them here, so every value
keeps the line and column it came from. YAML syntax errors, duplicate keys, non-scalar keys
and merge keys become diagnostics, never exceptions.
"""
from __future__ import annotations

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


def _mark(file: str, m) -> Mark:
    return Mark(file, m.line + 1, m.column + 1)


class _Builder:
    def __init__(self, file: str, diags: Diagnostics) -> None:
        self.file = file
        self.diags = diags
        self.ctor = yaml.constructor.SafeConstructor()

    def build(self, node) -> YNode:
        mark = _mark(self.file, node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _MERGE:
                self.diags.error(mark, "YAML merge keys (<<) are not supported in specs")
                return YScalar(None, node.value, node.style, mark, _mark(self.file, node.end_mark))
            try:
                value = self.ctor.construct_object(node, deep=True)
            except yaml.YAMLError as e:  # e.g. a malformed !!int
                self.diags.error(mark, f"bad YAML scalar: {getattr(e, 'problem', None) or e}")
                value = node.value
            if node.tag not in (_INT, _STR, _BOOL, _NULL, _FLOAT):
                self.diags.error(mark, f"unsupported YAML tag {node.tag}")
            return YScalar(value, node.value, node.style, mark, _mark(self.file, node.end_mark))
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


def _error_mark(file: str, text: str, e: yaml.YAMLError) -> Mark:
    m = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    if m is not None:
        return _mark(file, m)
    pos = getattr(e, "position", None)  # ReaderError
    if isinstance(pos, int):
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        return Mark(file, line, col)
    return Mark(file, 1, 1)


def _error_text(e: yaml.YAMLError) -> str:
    if isinstance(e, yaml.MarkedYAMLError):
        parts = [p for p in (e.context, e.problem) if p]
        return "YAML syntax: " + ", ".join(parts) if parts else "YAML syntax error"
    return f"YAML: {e}"


def load_text(file: str, text: str, diags: Diagnostics) -> Optional[YNode]:
    """Parses one spec; None (with diagnostics) when it is not YAML or is empty."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        diags.error(_error_mark(file, text, e), _error_text(e))
        return None
    if root is None:
        diags.error(Mark(file, 1, 1), "the spec is empty")
        return None
    return _Builder(file, diags).build(root)


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
