"""What every lesson-model rule sees: the parsed lesson, its record and its neighbours."""

from __future__ import annotations

from dataclasses import dataclass

from atlas_build.diagnostics import Location
from atlas_build.lesson.model import Lesson
from atlas_build.model import LessonRecord
from atlas_build.ruler import Ruler
from atlas_build.source import Source


@dataclass
class LessonSubject:
    source: Source
    record: LessonRecord
    lesson: Lesson
    known_slugs: frozenset[str]

    def at(self, offset: int) -> Location:
        return self.source.locator.content(offset)

    def field(self, pointer: str) -> Location:
        return self.source.locator.pointer(pointer)


RULES: Ruler[LessonSubject] = Ruler("lesson")
