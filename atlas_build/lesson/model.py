"""The lesson model: the markdown body parsed once, every part with its content offset.

Later stages (claims, site, selftest) read lessons through this model instead of
re-parsing markdown. Offsets are code-point offsets into the content as shipped;
the locator of the source turns them into file line:col.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Link:
    text: str
    url: str
    offset: int


@dataclass(frozen=True, slots=True)
class RawHtml:
    """HTML written in the markdown (a block or an inline tag); `offset` is where it starts."""

    text: str
    offset: int


@dataclass(frozen=True, slots=True)
class Math:
    """A `$$` display block or `$` inline formula; `offset` is where `latex` starts."""

    latex: str
    offset: int
    display: bool
    index: int  # 0-based among display (or inline) formulas, in document order


@dataclass(slots=True)
class Block:
    """A top-level block: heading, paragraph, list, math, code, html, table or rule."""

    kind: str
    text: str  # plain text a reader sees (list items joined by newlines)
    start: int
    end: int
    line: int  # 1-based content line
    level: int = 0  # heading level
    items: list[tuple[str, int]] = field(default_factory=list)  # list items: (text, offset)
    ordered: bool = False
    links: list[Link] = field(default_factory=list)
    math: list[Math] = field(default_factory=list)
    html: list[RawHtml] = field(default_factory=list)
    unclosed: list[int] = field(default_factory=list)  # offsets of `$$` that open no math


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One (symbol, meaning, unit) triple; `offset` is where the symbol paragraph starts.

    `names` are the symbols it defines under the naming convention (`symbols.canonical`),
    spelled as the lesson's formulas spell them (`VDD` is the `V_DD` they write:
    `spellings.py`), empty when the entry names a value (`32 × 10⁹ bits/s`), an
    expression or an operator; `end` is the end of the unit paragraph, so
    `content[offset:end]` is the whole entry.
    """

    symbol: str
    meaning: str
    unit: str
    offset: int
    names: tuple[str, ...] = ()
    meaning_offset: int = 0
    unit_offset: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class GlossaryNote:
    """Where and why reading a glossary stopped before the block ended."""

    offset: int
    reason: str


@dataclass(frozen=True, slots=True)
class Glossary:
    """A glossary block; `offset` is where its mark starts, `mark` the mark as written."""

    section: str
    entries: tuple[GlossaryEntry, ...]
    offset: int
    mark: str = ""
    end: int = 0
    notes: tuple[GlossaryNote, ...] = ()


@dataclass(frozen=True, slots=True)
class Quiz:
    """One question. `options` are (text, offset) of each numbered option. The answer mark
    (`Answer and reasoning`) starts at `mark_offset`; the answer is
    `content[answer_offset:answer_end]` unless given inline after the mark (`Answer: 4`);
    the reasoning spans `reasoning_offset:end`, so a page can fold mark to `end` away."""

    question: str
    options: tuple[tuple[str, int], ...]
    answer: str | None
    answer_offset: int | None
    reasoning: str
    offset: int
    section: str = ""
    options_end: int | None = None
    mark: str | None = None
    mark_offset: int | None = None
    answer_end: int | None = None
    reasoning_offset: int | None = None
    end: int = 0


@dataclass(frozen=True, slots=True)
class Specification:
    """A label / value / context row of a specifications section (`Dense score shape` /
    `T × T per head` / `T is sequence length; ...`). Interface rows have no context and a
    role (`Representations Input` -> role `input`). Offsets are paragraph starts."""

    section: str
    group: str  # the subsection heading (`Interfaces`), or "" for rows directly under it
    label: str
    value: str
    context: str
    offset: int
    value_offset: int
    context_offset: int | None
    end: int
    role: str = ""


@dataclass(frozen=True, slots=True)
class Assumption:
    section: str
    text: str
    offset: int


@dataclass
class Lesson:
    content: str
    blocks: list[Block]
    glossaries: list[Glossary] = field(default_factory=list)
    quizzes: list[Quiz] = field(default_factory=list)
    assumptions: list[Assumption] = field(default_factory=list)
    sources: list[Link] = field(default_factory=list)
    specifications: list[Specification] = field(default_factory=list)

    @property
    def headings(self) -> list[Block]:
        return [block for block in self.blocks if block.kind == "heading"]

    @property
    def display_math(self) -> list[Math]:
        return [math for block in self.blocks for math in block.math if math.display]

    @property
    def inline_math(self) -> list[Math]:
        return [math for block in self.blocks for math in block.math if not math.display]

    @property
    def links(self) -> list[Link]:
        return [link for block in self.blocks for link in block.links]

    @property
    def raw_html(self) -> list[RawHtml]:
        return [html for block in self.blocks for html in block.html]

    def section_of(self, offset: int, deepest: int = 6) -> Block | None:
        """The heading whose section holds `offset` (None before the first heading),
        counting headings of level `deepest` or above only (2: the `##` section, its
        subsections included)."""
        found = None
        for heading in self.headings:
            if heading.start > offset:
                break
            if heading.level <= deepest:
                found = heading
        return found
