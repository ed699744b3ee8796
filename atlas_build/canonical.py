"""The canonical form of lesson markdown, and the sections computed from it.

Published records hash and measure their content after list markers are padded
the way pandoc writes them: a bullet marker is followed by spaces up to column 4
(`- x` -> `-   x`), an ordered marker likewise (`1. x` -> `1.  x`, `10. x` stays),
and every continuation line of the item moves with its content. Line endings
are LF. `canonicalize` is idempotent; the seed's `contentHash`, `contentLength`
and section offsets are all measured on this form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from atlas_build import markdown

TAB_STOP = 4
_QUOTE = re.compile(r"[ ]{0,3}>[ ]?")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading found by the markdown parser: its text, level and 0-based source line."""

    title: str
    level: int
    line: int


@dataclass(frozen=True, slots=True)
class SectionSpan:
    id: str
    title: str
    start: int
    end: int

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "title": self.title, "start": self.start, "end": self.end}


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _marker_width(token_markup: str, info: str) -> int:
    return len(info) + len(token_markup) if info else len(token_markup)


def _split(line: str, quotes: int) -> tuple[int, int, int]:
    """After up to `quotes` blockquote markers: (prefix end, indentation end, indent columns)."""
    position = 0
    for _ in range(quotes):
        marker = _QUOTE.match(line, position)
        if marker is None:
            break
        position = marker.end()
    end, columns = position, 0
    while end < len(line) and line[end] in " \t":
        columns = columns + 1 if line[end] == " " else (columns // TAB_STOP + 1) * TAB_STOP
        end += 1
    return position, end, columns


def _quote_depth(line: str) -> int:
    depth, position = 0, 0
    while (marker := _QUOTE.match(line, position)) is not None:
        depth, position = depth + 1, marker.end()
    return depth


@lru_cache(maxsize=64)
def canonicalize(text: str) -> str:
    """Pad list markers pandoc-style and use LF line endings (see module docstring).

    Markers are only ever padded, never trimmed: trimming an over-padded marker can
    turn an indented line into a nested list, which would change the document.
    """
    text = normalize_newlines(text)
    lines = text.split("\n")
    shift = [0] * len(lines)  # indentation change each line inherits from enclosing items
    depth = [0] * len(lines)  # blockquote markers before that indentation
    for token in markdown.parse_blocks(text)[0]:
        if token.type != "list_item_open" or token.map is None:
            continue
        first, end = token.map
        line = lines[first]
        quotes = _quote_depth(line)
        _, marker_at, columns = _split(line, quotes)
        width = _marker_width(token.markup, token.info)
        after = marker_at + width
        spaces = len(line) - after - len(line[after:].lstrip(" "))
        wanted = max(1, TAB_STOP - width)
        if not 1 <= spaces < wanted or after + spaces >= len(line) or line[after + spaces] == "\t":
            continue  # already padded, empty, or tab/indented code after the marker
        delta = wanted - spaces
        old_content = columns + width + spaces
        lines[first] = line[:after] + " " * wanted + line[after + spaces :]
        for number in range(first + 1, min(end, len(lines))):
            body = lines[number]
            if body.strip() and _split(body, quotes)[2] >= old_content:
                shift[number] += delta
                depth[number] = quotes
    for number, delta in enumerate(shift):
        if delta:
            line = lines[number]
            prefix_end, indent_end, columns = _split(line, depth[number])
            lines[number] = line[:prefix_end] + " " * (columns + delta) + line[indent_end:]
    return "\n".join(lines)


def headings(text: str) -> list[Heading]:
    """Headings in document order, found by the parser (a `#` line in a fence is none)."""
    return list(_headings(text))


@lru_cache(maxsize=16)
def _headings(text: str) -> tuple[Heading, ...]:
    found: list[Heading] = []
    tokens, env = markdown.parse_blocks(text)
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            title = markdown.inline_text(tokens[index + 1], env)
            found.append(Heading(title, int(token.tag[1]), token.map[0]))
    return tuple(found)


def line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(match.end() for match in re.finditer("\n", text))
    return starts


@lru_cache(maxsize=64)
def _sections(canonical: str) -> tuple[SectionSpan, ...]:
    return tuple(_compute_sections(canonical))


def sections(canonical: str) -> list[SectionSpan]:
    """Sections of a canonical text (memoised: emission and integrity ask for the same)."""
    return list(_sections(canonical))


def _compute_sections(canonical: str) -> list[SectionSpan]:
    """One flat section per heading: `section-N`, heading text, start of its line, next start."""
    starts = line_starts(canonical)
    found = headings(canonical)
    offsets = [starts[heading.line] for heading in found] + [len(canonical)]
    return [
        SectionSpan(f"section-{number}", heading.title, offsets[number - 1], offsets[number])
        for number, heading in enumerate(found, start=1)
    ]
