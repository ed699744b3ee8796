"""What every integrity rule sees: one schema-valid record and its derived facts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from atlas_build.canonical import SectionSpan, canonicalize, line_starts, sections
from atlas_build.diagnostics import Location
from atlas_build.model import LessonRecord
from atlas_build.ruler import Ruler
from atlas_build.source import LineIndex, Source


@dataclass(frozen=True)
class Options:
    require_record_hash: bool = False


@dataclass
class Subject:
    source: Source
    record: LessonRecord
    known_ids: frozenset[str]
    options: Options

    @property
    def path(self) -> str:
        return self.source.path

    def at(self, pointer: str) -> Location:
        return self.source.locator.pointer(pointer)

    @cached_property
    def canonical(self) -> str:
        return canonicalize(self.record.content)

    @cached_property
    def sections(self) -> list[SectionSpan]:
        return sections(self.canonical)

    @cached_property
    def _canonical_lines(self) -> LineIndex:
        return LineIndex(self.canonical)

    @cached_property
    def _raw_starts(self) -> list[int]:
        return line_starts(self.record.content)

    def content_position(self, canonical_offset: int) -> tuple[int, int]:
        """1-based line:col in the content (the same in canonical and shipped form)."""
        return self._canonical_lines.position(min(canonical_offset, len(self.canonical)))

    def content_at(self, canonical_offset: int) -> Location:
        """File location of a canonical-form offset (padding only moves text within a line)."""
        line, column = self._canonical_lines.position(min(canonical_offset, len(self.canonical)))
        starts = self._raw_starts
        raw = starts[min(line, len(starts)) - 1] + column - 1
        return self.source.locator.content(min(raw, len(self.record.content)))


RULES: Ruler[Subject] = Ruler("integrity")
