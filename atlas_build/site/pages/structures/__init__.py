"""The structures the lesson model recognised, shown as what they are.

A published lesson is a flattened export: a symbol table arrives as one-line paragraphs,
a quiz answer right after its question, a specification table as label / value /
context paragraphs. The lesson model (`atlas_build/lesson/`) recognises these by shape,
whatever their wording; here their rendered parts become a symbol table
(`glossary.py`), a collapsed answer (`quiz.py`), a note block (`notes.py`) and
specification tables (`specs.py`). Rendering only: the cells are the parts as rendered
and sanitised (claim marks, anchors and math included), and anything that does not line
up with the model renders as before.
"""

from __future__ import annotations

from atlas_build.lesson.model import Lesson
from atlas_build.site.pages.markup import Part
from atlas_build.site.pages.structures import glossary, notes, quiz, specs
from atlas_build.site.pages.structures.parts import Parts, Replacement, apply

__all__ = ["arrange"]


def arrange(parts: list[Part], model: Lesson) -> list[Part]:
    """The rendered parts of `model.content` with its structures merged into single parts."""
    located = Parts(parts, model.content)
    found: list[Replacement | None] = []
    found += [glossary.table(item, located) for item in model.glossaries]
    found += specs.tables(model.specifications, located)
    found += [notes.note(item, located) for item in model.assumptions]
    found += [quiz.fold(item, located) for item in model.quizzes]
    return apply(parts, [item for item in found if item is not None])
