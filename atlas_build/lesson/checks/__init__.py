"""Lesson-model rules; each module registers itself on `atlas_build.lesson.context.RULES`."""

from atlas_build.lesson.checks import citations, glossary, html, links, math, quiz, units

__all__ = ["citations", "glossary", "html", "links", "math", "quiz", "units"]
