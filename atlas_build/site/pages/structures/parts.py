"""Where the lesson model's structures sit among the rendered parts, and their HTML pieces.

The model (`atlas_build/lesson/`) gives each structure as content offsets; the renderer
gives one `Part` per top-level block with the content lines it covers. Both parse the
same text with the same markdown configuration, so a block starts on a part's first
line; anything that does not line up (a claim mark that changed how a line parses, a
block that is not the paragraph the model read) makes the structure render as before.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from atlas_build.canonical import line_starts
from atlas_build.site.pages.html import esc
from atlas_build.site.pages.markup import Part

_PARAGRAPH = re.compile(r"<p>(?P<inner>.*)</p>\s*", re.DOTALL)


@dataclass(frozen=True)
class Replacement:
    """Parts `first..last` (inclusive) shown as `html`."""

    first: int
    last: int
    html: str


class Parts:
    """The rendered parts of one lesson, looked up by content offset."""

    def __init__(self, parts: list[Part], content: str) -> None:
        self.parts = parts
        self._starts = line_starts(content)
        self._by_line = {part.first_line: index for index, part in enumerate(parts)}

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) - 1

    def at(self, offset: int | None) -> int | None:
        """The part a block starting at `offset` was rendered as."""
        return None if offset is None else self._by_line.get(self.line(offset))

    def within(self, start: int, end: int) -> list[int]:
        """Indices of the parts that start in content[start:end], in order."""
        first, last = self.line(start), self.line(max(start, end - 1))
        return [i for i, part in enumerate(self.parts) if first <= part.first_line <= last]

    def is_heading(self, index: int) -> bool:
        return self.parts[index].heading is not None

    def html(self, index: int) -> str:
        return self.parts[index].html

    def inner(self, index: int | None) -> str | None:
        """The inner HTML of a part that is one paragraph, else None."""
        if index is None or self.is_heading(index):
            return None
        match = _PARAGRAPH.fullmatch(self.parts[index].html)
        if match is None or "<p>" in match["inner"] or "</p>" in match["inner"]:
            return None
        return match["inner"]


def consecutive(indices: list[int | None]) -> list[int] | None:
    """The indices when each follows the one before, else None."""
    if not indices or any(i is None for i in indices):
        return None
    found = [i for i in indices if i is not None]
    return found if all(b == a + 1 for a, b in zip(found, found[1:], strict=False)) else None


def apply(parts: list[Part], replacements: list[Replacement]) -> list[Part]:
    """The parts with each replacement's range merged into one part; a replacement that
    overlaps one before it is dropped (its structure renders as before)."""
    out: list[Part] = []
    cursor = 0
    for item in sorted(replacements, key=lambda r: (r.first, r.last)):
        if item.first < cursor or item.last < item.first:
            continue
        out.extend(parts[cursor : item.first])
        out.append(Part(item.html, parts[item.first].first_line, parts[item.last].last_line))
        cursor = item.last + 1
    out.extend(parts[cursor:])
    return out


def scroll_box(html: str, css: str, label: str) -> str:
    """A wide table in its own horizontally scrolling box, reachable by keyboard."""
    return (
        f'<div class="atlas-scroll {esc(css)}" role="region" aria-label="{esc(label)}" '
        f'tabindex="0">\n{html}\n</div>'
    )
