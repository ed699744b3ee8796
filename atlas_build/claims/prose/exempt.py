"""Every number written in a lesson's prose, and the documented rules that exempt some.

Coverage counts each number of the body once. Numbers inside display formulas are not
counted here (they belong to relations, which have their own statuses); inline math that
states a relation (`$f_c \\approx 1600\\,\\mathrm{Hz}$`) is prose, and its numbers count, but
for those in sub- and superscripts (`h_{t-1}`). The rest is classified by the
claims stage as verified, input, failed or unaccounted, except where one of these rules,
applied in this order, exempts it (docs/authoring.md lists them for authors):

- `code`: inside a code block or an inline code span;
- `link`: inside a link's target or a bare URL, or in a link's text unless it has a unit
  (`[RFC 2119](...)` names a document, `[1700 MHz](...)` states a quantity);
- `citation`: in the Sources section;
- `symbol table`: in a "Symbols and units" entry (a symbol, its meaning or its unit);
- `quiz distractor`: in a quiz option other than the stated answer;
- `numbering`: a number without a unit that starts a heading or names a step, question,
  figure, table, equation, section, part, chapter, lesson, example or exercise (`Step 2`,
  `### 1. Setup`; `part 37%` and `### 7 s of travel` are stated quantities, not numbering);
- `date`: an ISO date, a month with a day or year, or a year (1600-2100) in a heading, in
  parentheses, or before ` ·`;
- `version`: a number written as a version (`v1.3`, `version 2`);
- `name`: a number that ends a capitalised name after a hyphen (`GPT-2`, `ResNet-50`).

A number a claim binds is classified by the claim even when a rule would exempt it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from atlas_build.claims.binding import anchors
from atlas_build.claims.prose import numbers
from atlas_build.lesson.model import Lesson

_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
_URL = re.compile(r"https?://\S+|www\.\S+")
_NUMBERED = (
    r"(?:step|question|figure|fig\.|table|equation|eq\.|section|part|chapter|lesson|example"
    r"|exercise|problem|case|option|item|stage|phase|level|round|version)"
)
_NUMBERING = re.compile(r"\b" + _NUMBERED + r"\s*$", re.IGNORECASE)
# `In this case 3 transfers`, `each step 3`: the word is not naming a numbered thing
_DETERMINED = re.compile(
    r"\b(?:this|that|each|every|which|such|any|no|either|neither|the\s+same)\s+"
    + _NUMBERED
    + r"\s*$",
    re.IGNORECASE,
)
_HEADING_START = re.compile(r"^\s*#{0,6}\s*$")
RELATION = re.compile(
    r"=|≈|<|>|≤|≥|\\(?:approx|simeq|sim|approxeq|leq?|geq?|lt|gt|neq?|ll|gg)(?![A-Za-z])"
)
_MONTHS = (
    "january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_MONTH = re.compile(r"\b(?:" + "|".join(_MONTHS) + r")\.?\s*$", re.IGNORECASE)
_MONTH_AFTER = re.compile(r"^\s*(?:" + "|".join(_MONTHS) + r")\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_VERSION = re.compile(r"(?:\bv|\bversion\s*)$", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][A-Za-z]+-$")  # GPT-2, ResNet-50, Llama-3


@dataclass(frozen=True)
class Spot:
    """One number of the prose: where it is written and the rule that exempts it, if any."""

    start: int
    end: int
    text: str
    exempt: str = ""


def _written(items: list[numbers.Item]) -> Iterator[numbers.Item]:
    """Single written numbers: list members, worked-arithmetic operands and results."""
    for item in items:
        if isinstance(item, numbers.NumberList):
            yield from item.items
        elif isinstance(item, numbers.Arithmetic):
            yield from item.operands
            yield item.result
        else:
            yield item


def _spans(lesson: Lesson) -> tuple[list[tuple[int, int]], dict[str, list[tuple[int, int]]]]:
    """(formula spans, excluded from counting) and the spans of every exemption rule."""
    content = lesson.content
    formulas: list[tuple[int, int]] = []
    rules: dict[str, list[tuple[int, int]]] = {name: [] for name in _ORDER}
    for block in lesson.blocks:
        for math in block.math:
            if math.display or not RELATION.search(math.latex):
                marker = 2 if math.display else 1
                formulas.append((math.offset - marker, math.offset + len(math.latex) + marker))
            else:  # `$f_c \approx 1600$` states a number: only its indices are not counted
                formulas += [
                    (math.offset + a, math.offset + b) for a, b in anchors.scripts(math.latex)
                ]
        if block.kind == "code":
            rules["code"].append((block.start, block.end))
        elif block.kind == "html":
            rules["code"].append((block.start, block.end))
        raw = content[block.start : block.end]
        for match in _CODE_SPAN.finditer(raw):
            rules["code"].append((block.start + match.start(), block.start + match.end()))
        for match in _URL.finditer(raw):
            rules["link"].append((block.start + match.start(), block.start + match.end()))
        for link in block.links:
            low, high = _link_span(content, link.offset, block.start, block.end)
            text_end = link.offset - 2 if low < link.offset - 2 else low
            rules["link text"].append((low, text_end))
            rules["link"].append((text_end, high))
        if block.kind == "heading":
            rules["heading"].append((block.start, block.end))
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            rules["symbol table"].append((entry.offset, entry.end or entry.unit_offset + 1))
    for quiz in lesson.quizzes:
        ends = [offset for _, offset in quiz.options[1:]] + [quiz.options_end or quiz.offset]
        for (text, offset), end in zip(quiz.options, ends, strict=False):
            if quiz.answer is None or text.strip().rstrip(".") != quiz.answer.strip().rstrip("."):
                rules["quiz distractor"].append((offset, end))
    sources = _section(lesson, {"sources", "references", "further reading", "bibliography"})
    if sources is not None:
        rules["citation"].append(sources)
    return formulas, rules


def _link_span(content: str, url_at: int, low: int, high: int) -> tuple[int, int]:
    """`[text](url)` around a link whose target starts at `url_at` (or just the target)."""
    close = content.find(")", url_at, high)
    end = close + 1 if close != -1 else url_at
    if content.startswith("](", url_at - 2):
        depth, i = 0, url_at - 3
        while i >= low:
            if content[i] == "]":
                depth += 1
            elif content[i] == "[":
                if depth == 0:
                    return i, end
                depth -= 1
            i -= 1
    return url_at, end


def _section(lesson: Lesson, titles: set[str]) -> tuple[int, int] | None:
    headings = lesson.headings
    for index, heading in enumerate(headings):
        if heading.text.strip().casefold() in titles:
            later = [h for h in headings[index + 1 :] if h.level <= heading.level]
            return heading.start, later[0].start if later else len(lesson.content)
    return None


_ORDER = (
    "code",
    "link",
    "link text",
    "citation",
    "symbol table",
    "quiz distractor",
    "heading",
)


class _Spans:
    """Intervals merged and sorted once, so each lookup is a bisection (a lesson can hold
    hundreds of thousands of links and numbers)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for low, high in sorted(spans):
            if merged and low <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        self.starts = [low for low, _ in merged]
        self.ends = [high for _, high in merged]

    def holds(self, start: int, end: int) -> bool:
        index = bisect.bisect_right(self.starts, start) - 1
        return index >= 0 and end <= self.ends[index]


def _inside(spans: _Spans, start: int, end: int) -> bool:
    return spans.holds(start, end)


def _list_marker(content: str, spot: numbers.Item) -> bool:
    """An ordered-list marker (`2. They are unchanged`): markup, not a number of the text."""
    line_start = content[max(0, spot.start - 24) : spot.start].rsplit("\n", 1)[-1]
    bare = not line_start.strip() or line_start.strip() in ("-", "*", "+", ">")
    return bare and content[spot.end : spot.end + 2] in (". ", ") ")


def _context_rule(content: str, spot: numbers.Item, in_heading: bool) -> str:
    before = content[max(0, spot.start - 24) : spot.start]
    after = content[spot.end : spot.end + 16]
    if _ISO_DATE.match(content, max(0, spot.start - 8)) or _in_iso_date(content, spot):
        return "date"
    if _VERSION.search(before):
        return "version"
    if _NAME.search(before) and not content[spot.end : spot.end + 1].isdigit():
        return "name"
    # `part 37%`, `### 7 s of travel`: a quantity with a unit is stated, not a number naming
    # a part, so the numbering rules leave it to be checked.
    measured = isinstance(spot, numbers.Quantity) and spot.unit is not None
    if _NUMBERING.search(before) and not measured and not _DETERMINED.search(before):
        return "numbering"
    if in_heading and _HEADING_START.match(before.rsplit("\n", 1)[-1]):
        return "date" if _year(spot) else "" if measured else "numbering"
    if _year(spot) and (
        in_heading
        or after.startswith((" ·", ")", " –", " —"))
        or (before.endswith("(") and after[:1] in (")", ",", ";"))  # not `(1700 ticks`
        or _MONTH.search(before)
    ):
        return "date"
    if isinstance(spot, numbers.Quantity) and _MONTH_AFTER.match(after) and spot.value <= 31:
        return "date"
    if _MONTH.search(before) and isinstance(spot, numbers.Quantity) and spot.value <= 31:
        return "date"
    return ""


def _year(spot: numbers.Item) -> bool:
    return (
        isinstance(spot, numbers.Quantity)
        and re.fullmatch("[0-9]{4}", spot.text) is not None
        and 1600 <= int(spot.text) <= 2100
    )


def _in_iso_date(content: str, spot: numbers.Item) -> bool:
    for match in _ISO_DATE.finditer(content, max(0, spot.start - 10), spot.end + 10):
        if match.start() <= spot.start and spot.end <= match.end():
            return True
    return False


def spots(lesson: Lesson) -> list[Spot]:
    """Every number written in the prose, in order, with its exemption (or "")."""
    content = lesson.content
    raw_formulas, raw_rules = _spans(lesson)
    formulas = _Spans(raw_formulas)
    rules = {name: _Spans(spans) for name, spans in raw_rules.items()}
    found: list[Spot] = []
    for item in _written(anchors.skeleton(content).items):
        if _inside(formulas, item.start, item.end):
            continue
        exempt = "numbering" if _list_marker(content, item) else ""
        exempt = exempt or next(
            (rule for rule in _ORDER if rule != "heading" and _inside(rules[rule], item.start,
                                                                        item.end)),
            "",
        )  # fmt: skip
        if exempt == "link text":
            # `[RFC 2119](...)` names a document; `at [1700 MHz](...)` states a quantity
            measured = isinstance(item, numbers.Quantity) and item.unit is not None
            exempt = "" if measured else "link"
        if not exempt:
            exempt = _context_rule(content, item, _inside(rules["heading"], item.start, item.end))
        found.append(Spot(item.start, item.end, item.text, exempt))
    return found
