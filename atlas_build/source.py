"""The loaded lesson that flows from the load stage to every later stage.

A `Source` is one lesson file as read from disk (a published `record.json` or an
authored `lesson.md`), reduced to the record dictionary the rest of the pipeline
works on, plus a `Locator` that maps JSON pointers and content offsets back to
file positions so later stages can report `file:line:col` without knowing the
file format.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from atlas_build.diagnostics import Diagnostic, Location


class Locator(Protocol):
    """Maps record-level references to positions in the file the record came from."""

    path: str

    def pointer(self, pointer: str) -> Location:
        """Location of the value at a JSON pointer (or the nearest existing parent)."""
        ...

    def key(self, pointer: str) -> Location:
        """Location of the key naming the value at a pointer (the value's own for arrays)."""
        ...

    def content(self, offset: int) -> Location:
        """Location of a code-point offset into the record's `content` as shipped."""
        ...


_NEWLINE = re.compile("\n")


def pointer_segment(part: object) -> str:
    """One RFC 6901 reference token: `~` and `/` escaped."""
    return str(part).replace("~", "~0").replace("/", "~1")


def json_pointer(parts: Iterable[object]) -> str:
    return "".join("/" + pointer_segment(part) for part in parts)


class LineIndex:
    """1-based line:col (in code points) for character offsets of a text.

    Line starts are kept in a flat integer array: 8 bytes a line, so a 5 MB text of
    newlines costs 40 MB, not a Python int object each.
    """

    def __init__(self, text: str) -> None:
        self._starts = array("q", [0])
        self._starts.extend(match.end() for match in _NEWLINE.finditer(text))

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def offset(self, line: int, column: int) -> int:
        """Inverse of `position` for 1-based line and column."""
        return self._starts[line - 1] + column - 1


@dataclass
class Source:
    """One lesson file after loading: the record dictionary and how to locate things in it."""

    path: str
    kind: str  # "record" (record.json) or "lesson" (lesson.md)
    locator: Locator
    data: dict[str, Any] | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    slug: str | None = None
    claims_path: str | None = None

    @property
    def ok(self) -> bool:
        return self.data is not None
