"""Lesson markdown -> sanitised HTML parts, with math, heading anchors and claim marks.

The lesson is parsed with the shared markdown-it configuration (so headings, math
and sections agree with every other stage) and each top-level block is rendered on
its own: the page assembler can then put figures after the block a claim quotes,
and top-level headings become MkDocs headings (for the table of contents) while
the rest stays raw HTML. Headings get the record's section ids (`section-N`, in
document order, as `canonical.sections` numbers them) plus the usual slug anchor.

Claim quotes are highlighted by inserting private-use sentinel characters at the
quote's offsets before parsing; after rendering they become `<mark id="claim-...">`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Any
from urllib.parse import urlsplit

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token

from atlas_build import markdown
from atlas_build.canonical import line_starts
from atlas_build.latex import mathml
from atlas_build.site.pages.sanitize import clean, trusted_id, untrusted
from atlas_build.text import slugify

_OPEN, _CLOSE = 0x100000, 0x108000
_SENTINEL = re.compile("[\U00100000-\U0010ffef]")  # not sanitize.TRUSTED
_LESSON_PATH = re.compile(r"^/learn/atlas/([a-z0-9]+(?:-[a-z0-9]+)*)/?$")
RESERVED_IDS = frozenset({"atlas-summary", "atlas-validation", "atlas-metadata", "atlas-citations"})


@dataclass(frozen=True)
class Mark:
    """Highlight content[start:end] as the sentence claim `element_id` checks."""

    element_id: str
    start: int
    end: int
    css: str
    title: str


@dataclass(frozen=True)
class MathProblem:
    offset: int  # content offset of the error (the formula's start when KaTeX gives none)
    message: str


@dataclass
class Heading:
    id: str
    level: int
    text: str
    slug: str | None
    html: str  # sanitised inner HTML
    line: int = 0  # 0-based content line of the heading


@dataclass
class Part:
    """One top-level block: a heading (rendered by MkDocs) or sanitised HTML."""

    html: str
    first_line: int  # 0-based content lines covered, [first_line, last_line)
    last_line: int
    heading: Heading | None = None


@dataclass
class Rendered:
    parts: list[Part]
    headings: list[Heading]
    problems: list[MathProblem]
    ids: set[str] = field(default_factory=set)
    formulas: int = 0


def _insert_marks(content: str, marks: list[Mark]) -> tuple[str, list[Mark]]:
    """Content with sentinels around each mark; partly overlapping marks are dropped."""
    kept: list[Mark] = []
    for mark in sorted(marks, key=lambda m: (m.start, -m.end)):
        if 0 <= mark.start < mark.end <= len(content) and all(
            mark.end <= other.start or mark.start >= other.end or mark.end <= other.end
            for other in kept
        ):
            kept.append(mark)
    events: dict[int, list[str]] = {}
    for index, mark in reversed(list(enumerate(kept))):
        events.setdefault(mark.end, []).append(chr(_CLOSE + index))
    for index, mark in enumerate(kept):
        events.setdefault(mark.start, []).append(chr(_OPEN + index))
    pieces: list[str] = []
    previous = 0
    for position in sorted(events):
        pieces.append(content[previous:position])
        pieces.extend(events[position])
        previous = position
    pieces.append(content[previous:])
    return "".join(pieces), kept


def _apply_marks(html: str, marks: list[Mark]) -> str:
    def replace(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code >= _CLOSE:
            return "</mark>"
        mark = marks[code - _OPEN]
        return (
            f'<mark id="{escape(trusted_id(mark.element_id))}" class="{escape(mark.css)}" '
            f'title="{escape(mark.title)}">'
        )

    return _SENTINEL.sub(replace, html)


class _Renderer(RendererHTML):
    """markdown-it's HTML renderer with KaTeX math, section ids and local lesson links."""

    def __init__(self, known_slugs: frozenset[str], targets: dict[str, list[str]]) -> None:
        super().__init__()
        self.known_slugs = known_slugs
        self.targets = targets
        self.problems: list[MathProblem] = []
        self.formulas = 0
        self.equations = 0

    def anchors(self, target: str) -> str:
        """Empty elements carrying the ids of claims that point at `target`."""
        return "".join(
            f'<span id="{escape(trusted_id(i))}"></span>' for i in self.targets.get(target, [])
        )

    def slug_anchor(self, heading: Heading) -> str:
        """The usual slug anchor of a heading, beside its `section-N` id."""
        if not heading.slug:
            return ""
        return f'<span id="{escape(trusted_id(heading.slug))}"></span>'

    def _math(self, token: Token, display: bool) -> str:
        sentinels = "".join(_SENTINEL.findall(token.content))
        latex = _SENTINEL.sub("", token.content)
        opens = "".join(c for c in sentinels if ord(c) < _CLOSE)
        closes = "".join(c for c in sentinels if ord(c) >= _CLOSE)
        self.formulas += 1
        try:
            rendered = mathml.render(latex, display=display)
        except mathml.MathError as error:
            offset = int(token.meta.get("offset", 0))
            if error.position is not None:
                offset += error.position
            self.problems.append(MathProblem(offset, error.message))
            rendered = f'<code class="atlas-math-error">{escape(latex)}</code>'
        return opens + rendered + closes

    def math_inline(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return self._math(tokens[idx], display=False)

    def math_inline_double(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return self._math(tokens[idx], display=True)

    def math_block(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        target = f"equation-{self.equations}"
        self.equations += 1
        body = self.anchors(target) + self._math(tokens[idx], display=True)
        if tokens[idx].type == "math_block_label":
            body += f"<span>({escape(tokens[idx].info)})</span>"
        box = f'<div class="atlas-math-box">{body}</div>'
        return f'<div class="atlas-math" id="{trusted_id(target)}">{box}</div>\n'

    math_block_label = math_block

    def heading_open(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        heading: Heading = token.meta["heading"]
        anchors = self.slug_anchor(heading) + self.anchors(heading.id)
        return f'<{token.tag} id="{escape(trusted_id(heading.id))}">{anchors}'

    def link_open(self, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        href = str(token.attrGet("href") or "")
        parts = urlsplit(href)
        match = _LESSON_PATH.match(parts.path)
        if match and match.group(1) in self.known_slugs and (parts.scheme or href[:1] == "/"):
            token.attrSet(
                "href", f"../{match.group(1)}/" + (f"#{parts.fragment}" * bool(parts.fragment))
            )
        return self.renderToken(tokens, idx, options, env)


def _locate_math(tokens: list[Token], original: str) -> None:
    """Record in token.meta the offset in the original content where each formula starts."""
    starts = line_starts(original) + [len(original)]

    def line_offset(line: int) -> int:
        return starts[min(line, len(starts) - 1)]

    for token in tokens:
        if token.map is None:
            continue
        start, end = line_offset(token.map[0]), line_offset(token.map[1])
        if token.type.startswith("math_block"):
            latex = _SENTINEL.sub("", token.content)
            found = original.find(latex, start, end) if latex else -1
            token.meta["offset"] = found if found != -1 else start
        elif token.type == "inline":
            cursor = start
            for child in token.children or []:
                if child.type.startswith("math_inline"):
                    latex = _SENTINEL.sub("", child.content)
                    found = original.find(latex, cursor, end) if latex else -1
                    child.meta["offset"] = found if found != -1 else cursor
                    cursor = max(cursor, found + len(latex))


def _headings(tokens: list[Token], reserved: set[str]) -> list[Heading]:
    used = set(reserved)
    found: list[Heading] = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = _SENTINEL.sub("", markdown.plain_text(tokens[index + 1]))
        section = f"section-{len(found) + 1}"
        used.add(section)
        heading = Heading(section, int(token.tag[1]), text, None, "", (token.map or [0])[0])
        token.meta["heading"] = heading
        found.append(heading)
    for heading in found:
        base = slugify(heading.text)
        slug = base
        count = 0
        while slug and slug in used:
            count += 1
            slug = f"{base}_{count}"
        if slug:
            heading.slug = slug
            used.add(slug)
    return found


def _groups(tokens: list[Token]) -> list[tuple[int, int]]:
    """Index ranges of the top-level blocks of a token stream."""
    ranges: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for index, token in enumerate(tokens):
        depth += token.nesting
        if depth == 0:
            ranges.append((start, index + 1))
            start = index + 1
    return ranges


_ID = re.compile(r'\sid="([^"]+)"')
_EQUATION_BOX = re.compile(
    r'(<div class="atlas-math" id="equation-(\d+)">)<div class="atlas-math-box">'
)


def _focusable_equations(html: str) -> str:
    """A display formula scrolls inside its own box on a narrow screen: make the box
    reachable by keyboard. After sanitising, `id="equation-N"` can only be the renderer's,
    so only its own boxes match."""
    return _EQUATION_BOX.sub(
        lambda m: (
            f'{m[1]}<div class="atlas-math-box" tabindex="0" role="group" '
            f'aria-label="equation {int(m[2]) + 1}">'
        ),
        html,
    )


def render(
    content: str,
    marks: list[Mark],
    known_slugs: frozenset[str] = frozenset(),
    targets: dict[str, list[str]] | None = None,
    reserved: set[str] | frozenset[str] = frozenset(),
) -> Rendered:
    """Render a lesson body; math errors are collected, not raised (see `Rendered.problems`).

    `targets` maps `equation-N` (0-based display formula) or a section id to the ids of
    empty anchors to put there, for claims that check an equation or a quiz, not a quote.
    Slug anchors avoid `reserved` (ids the page generator uses elsewhere).
    """
    safe = untrusted(content)
    marked, kept = _insert_marks(safe, marks)
    tokens = markdown.parse(marked)
    _locate_math(tokens, safe)
    headings = _headings(tokens, set(RESERVED_IDS) | set(reserved))
    renderer = _Renderer(known_slugs, targets or {})
    options = markdown.parser().options
    parts: list[Part] = []
    for start, end in _groups(tokens):
        group = tokens[start:end]
        lines = next((t.map for t in group if t.map is not None), None) or [0, 0]
        if group[0].type == "heading_open" and len(group) == 3:
            heading = group[0].meta["heading"]
            inline = renderer.renderInline(group[1].children or [], options, {})
            anchors = renderer.slug_anchor(heading) + renderer.anchors(heading.id)
            heading.html = clean(_apply_marks(anchors + inline, kept))
            parts.append(Part("", lines[0], lines[1], heading))
            continue
        html = clean(_apply_marks(renderer.render(group, options, {}), kept))
        parts.append(Part(_focusable_equations(html), lines[0], lines[1]))
    ids = {heading.id for heading in headings} | {h.slug for h in headings if h.slug}
    for part in parts:
        ids.update(_ID.findall(part.html if part.heading is None else part.heading.html))
    return Rendered(parts, headings, renderer.problems, ids, renderer.formulas)
