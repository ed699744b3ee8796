"""An assumptions paragraph (`Assumptions The variance argument ...`) as a note block whose
title is the paragraph's first word and whose body is the rest, as written."""

from __future__ import annotations

import re

from atlas_build.lesson import shapes
from atlas_build.lesson.model import Assumption
from atlas_build.site.pages.html import esc
from atlas_build.site.pages.structures.parts import Parts, Replacement

_LEADING = re.compile(r"(?P<word>[A-Z][a-z]+)[:.]?\s+(?P<rest>\S.*)", re.DOTALL)


def _note(title: str, body: str) -> str:
    return (
        '<div class="admonition note atlas-assumptions">'
        f'<p class="admonition-title">{esc(title)}</p>\n{body.strip()}\n</div>'
    )


def _label(inner: str | None) -> str | None:
    """The paragraph's text when it is only the word (`Assumptions`, `Assumptions:`)."""
    if inner is None:
        return None
    word = inner.strip().rstrip(":.")
    return word if word.casefold() in shapes.ASSUMPTION_WORDS else None


def note(assumption: Assumption, parts: Parts) -> Replacement | None:
    """The replacement for an assumption's part (and its label paragraph, when it has one
    of its own), or None when the part is not a paragraph or list as read."""
    index = parts.at(assumption.offset)
    if index is None or parts.is_heading(index):
        return None
    inner = parts.inner(index)
    if inner is not None:
        match = _LEADING.fullmatch(inner)
        if match and match["word"].casefold() in shapes.ASSUMPTION_WORDS:
            return Replacement(index, index, _note(match["word"], f"<p>{match['rest']}</p>"))
    before = index - 1 if index > 0 and not parts.is_heading(index - 1) else None
    title = _label(parts.inner(before)) if before is not None else None
    if title is not None and before is not None:
        return Replacement(before, index, _note(title, parts.html(index)))
    if inner is None:
        return None
    return Replacement(index, index, _note("Assumptions", parts.html(index)))
