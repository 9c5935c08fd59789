"""Diagnostics: every spec mistake becomes one `FILE:LINE:COL: error: MESSAGE` line."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Mark:
    """A position in a spec file, 1-based line and column."""

    file: str
    line: int
    col: int

    def shifted(self, cols: int) -> "Mark":
        return Mark(self.file, self.line, self.col + cols)


@dataclass(frozen=True, order=True)
class Diagnostic:
    mark: Mark
    message: str

    def __str__(self) -> str:
        return f"{self.mark.file}:{self.mark.line}:{self.mark.col}: error: {self.message}"


class Diagnostics:
    """Collects errors; the generator prints them all, sorted by position, and exits 1."""

    def __init__(self) -> None:
        self._items: list[Diagnostic] = []

    def error(self, mark: Mark, message: str) -> None:
        # One line each, whatever spec text the message quotes (a newline would break the
        # FILE:LINE:COL format that editors and CI parse).
        self._items.append(Diagnostic(mark, " ".join(message.split())))

    def __len__(self) -> int:
        return len(self._items)

    def count(self) -> int:
        return len(self._items)

    def sorted(self) -> list[Diagnostic]:
        # Stable and deterministic: by file, line, column, then message; duplicates dropped.
        return sorted(set(self._items))
