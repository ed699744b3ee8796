"""Lesson-model stage: parse the body once; rules check the parts Atlas lessons use.

`canonical(text)` turns a glossary symbol as written (`N₀`, `x̂_i`, `T_q,T_k`) into the
names the LaTeX parser gives the same symbols, for any stage that looks glossary
entries up by symbol.
"""

from __future__ import annotations

from atlas_build.diagnostics import Diagnostic
from atlas_build.lesson import checks, structure
from atlas_build.lesson.context import RULES, LessonSubject
from atlas_build.lesson.model import Lesson
from atlas_build.lesson.parse import parse_blocks, unwrapped
from atlas_build.lesson.symbols import canonical
from atlas_build.ruler import Timings

__all__ = ["RULES", "Lesson", "LessonSubject", "build", "canonical", "checks", "run"]


def build(content: str) -> Lesson:
    """The model of `content`, whose text is read with soft line breaks as spaces
    (`parse.unwrapped`): a lesson wrapped at 80 columns reads as the same lesson."""
    blocks = parse_blocks(content)
    content = unwrapped(content, blocks)
    return Lesson(
        content=content,
        blocks=blocks,
        glossaries=structure.glossaries(blocks),
        quizzes=structure.quizzes(blocks, content),
        assumptions=structure.assumptions(blocks),
        sources=structure.sources(blocks),
        specifications=structure.specifications(blocks),
    )


def run(subject: LessonSubject, timings: Timings | None = None) -> list[Diagnostic]:
    return RULES.run(subject, subject.field(""), timings)
