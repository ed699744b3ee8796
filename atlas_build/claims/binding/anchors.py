"""Finding a claim's quote in the lesson, with its numbers as slots.

A quote is matched on its *skeleton*: the text with every extracted number
replaced by a placeholder and white space folded. So when an author edits
"output is 5" to "output is 4", the sentence is still found, and the number now
written there (4, at its exact offset) is what gets compared with the computed
value. Only rewording the words around the numbers loses the anchor.
"""

from __future__ import annotations

import bisect
import difflib
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from atlas_build.claims.prose import numbers

SLOT = "\x00"
MAX_QUOTE = 4000
CANDIDATES = 12
DIFF_WORK = 1_000_000  # characters compared per candidate, so at most ~12 M per lost quote
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_RUNS = re.compile(r"(\s+)|\S+")
_ESCAPABLE = frozenset(string.punctuation)  # what a CommonMark backslash escape can escape
_ESCAPE = re.compile(r"\\(?=[" + re.escape(string.punctuation) + "])")


@dataclass(frozen=True)
class Skeleton:
    text: str
    origin: list[int]  # skeleton index -> offset in the source text
    items: list[numbers.Item]
    slots: list[int]  # skeleton index of each item's placeholder


@lru_cache(maxsize=16)
def skeleton(text: str) -> Skeleton:
    """Memoised: every claim of a lesson, and coverage, anchor quotes in the same content.
    Treat the result as read-only. Numbers in the sub- and superscripts of inline math
    (`T^2`, `x_1`) are not slots, in the content or in a quote: they are not counted."""
    hidden = _script_spans(text)
    items = [item for item in numbers.extract(text) if not _within(hidden, item.start)]
    parts: list[str] = []
    origin: list[int] = []
    slots: list[int] = []
    position = 0
    for item in items + [None]:
        stop = item.start if item is not None else len(text)
        _fold(text, position, stop, parts, origin)
        if item is not None:
            slots.append(len(parts))
            parts.append(SLOT)
            origin.append(item.start)
            position = item.end
    return Skeleton("".join(parts), origin, items, slots)


_INLINE = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]+?)(?<!\\)\$(?!\$)")


def _script_spans(text: str) -> list[tuple[int, int]]:
    """Sorted content spans of the sub- and superscripts of every `$...$` in `text`."""
    if "$" not in text:
        return []
    spans = []
    for math in _INLINE.finditer(text):
        start = math.start(1)
        spans += [(start + a, start + b) for a, b in scripts(math.group(1))]
    return spans


def _within(spans: list[tuple[int, int]], offset: int) -> bool:
    at = bisect.bisect_right(spans, (offset, 1 << 62)) - 1
    return at >= 0 and spans[at][0] <= offset < spans[at][1]


def scripts(latex: str) -> Iterator[tuple[int, int]]:
    """Spans of the sub- and superscripts of inline LaTeX (`h_{t-1}`, `x_1`, `2^{10}`)."""
    i = 0
    while i < len(latex):
        if latex[i] in "_^" and i + 1 < len(latex):
            if latex[i + 1] == "{":
                depth, j = 0, i + 1
                while j < len(latex):
                    depth += {"{": 1, "}": -1}.get(latex[j], 0)
                    j += 1
                    if depth == 0:
                        break
            else:
                j = i + 2
            yield i, j
            i = j
        else:
            i += 1


def _fold(text: str, start: int, stop: int, parts: list[str], origin: list[int]) -> None:
    """Append text[start:stop] character by character, each white-space run as one space
    and without markdown's backslash before punctuation, so a quote matches whether or not
    it copies the source's escapes (`f\\_c` or `f_c`)."""
    for match in _RUNS.finditer(text, start, stop):
        if match.group(1) is not None:
            parts.append(" ")
            origin.append(match.start())
            continue
        run, at = match.group(), match.start()
        if "\\" not in run:
            parts.extend(run)
            origin.extend(range(at, match.end()))
            continue
        i = 0
        while i < len(run):
            if run[i] == "\\" and i + 1 < len(run) and run[i + 1] in _ESCAPABLE:
                i += 1
            parts.append(run[i])
            origin.append(at + i)
            i += 1


@dataclass(frozen=True)
class Occurrence:
    start: int  # content offset where the matched text begins
    end: int
    items: list[numbers.Item]  # the content's numbers, aligned with the quote's items


@lru_cache(maxsize=4096)
def _quote_skeleton(quote: str) -> Skeleton:
    return skeleton(quote)


def occurrences(quote: str, content: Skeleton) -> tuple[list[numbers.Item], list[Occurrence]]:
    """The quote's own numbers, and every place its skeleton occurs in the content."""
    pattern = _quote_skeleton(quote.strip())
    needle = pattern.text.strip()
    if not needle:
        return pattern.items, []
    found: list[Occurrence] = []
    index = content.text.find(needle)
    while index != -1:
        end = index + len(needle)
        aligned = [
            content.items[number]
            for number, slot in enumerate(content.slots)
            if index <= slot < end
        ]
        start_offset = content.origin[index]
        last = content.origin[end - 1]
        ends_in_number = aligned and needle.endswith(SLOT)
        end_offset = aligned[-1].end if ends_in_number else last + 1
        found.append(Occurrence(start_offset, max(end_offset, last + 1), aligned))
        index = content.text.find(needle, index + 1)
    return pattern.items, found


def _written(item: numbers.Item) -> str:
    """A number as written, white space folded and markdown escapes dropped (as in skeletons)."""
    text = _SPACE.sub(" ", item.text.strip())
    return _ESCAPE.sub("", text)


def differences(quote_items: list[numbers.Item], occurrence: Occurrence) -> int:
    """How many of the quote's numbers the place writes otherwise."""
    pairs = zip(quote_items, occurrence.items, strict=False)
    written = sum(_written(quoted) != _written(there) for quoted, there in pairs)
    return written + abs(len(quote_items) - len(occurrence.items))


def table_row(quote: str) -> bool:
    """A quote of table rows (`| 2 | 6 |`), whose skeleton fits every row of its shape."""
    return quote.lstrip().startswith("|")


def choose(
    quote_items: list[numbers.Item],
    found: list[Occurrence],
    expected: int | None = None,
    *,
    row: bool,
) -> list[Occurrence]:
    """The places a claim checks, of all those its quote's skeleton occurs at.

    A prose quote checks every place it fits: a sentence repeated with one copy edited
    is a wrong number at that copy, whatever the other says. A row quote's skeleton fits
    statements the quote is not about: `| 2 | 6 |` fits every row of a two-column table.
    There the places nearest the quote (fewest numbers written otherwise) are its: where
    it is written verbatim, or else where the author edited it (an edited row differs in
    one cell, other rows in more). With `expected` (the claim's `occurrences`) the
    `expected` nearest are taken; places tied with the last are too.
    """
    if len(found) < 2 or not row:
        return found
    distances = [differences(quote_items, place) for place in found]
    rank = min(expected or 1, len(found)) - 1
    cutoff = sorted(distances)[rank]
    return [place for place, distance in zip(found, distances, strict=True) if distance <= cutoff]


def ambiguous(chosen: list[Occurrence], expected: int | None = None, *, row: bool) -> bool:
    """More rows than the claim says it has, and they write different numbers: the quote
    cannot tell which statement it is about, so each is checked."""
    if not row or len(chosen) <= (expected or 1):
        return False
    return len({tuple(_written(item) for item in place.items) for place in chosen}) > 1


def nearest(quote: str, content: str) -> int | None:
    """Offset of the paragraph most like the quote, to point at a reworded statement.

    Every paragraph is first scored by the share of the quote's words it uses (one pass over
    the content, whatever its shape); only the few best, and only those of about the quote's
    size, are then compared character by character, so a 300,000-character line can no
    longer make this take minutes (a character diff against it did).
    """
    quote = quote[:MAX_QUOTE]
    wanted = {word.casefold() for word in _WORD.findall(quote)}
    if not wanted:
        return None
    scored: list[tuple[float, int, int, str]] = []
    offset = 0
    for paragraph in content.split("\n"):
        if paragraph.strip():
            words = {word.casefold() for word in _WORD.findall(paragraph)}
            share = len(wanted & words) / len(wanted)
            scored.append((-share, abs(len(paragraph) - len(quote)), offset, paragraph))
        offset += len(paragraph) + 1
    best, best_score = None, 0.0
    for negative_share, _, start, paragraph in sorted(scored)[:CANDIDATES]:
        score = -negative_share
        if len(paragraph) <= 4 * len(quote) + 400 and len(paragraph) * len(quote) <= DIFF_WORK:
            matcher = difflib.SequenceMatcher(None, quote, paragraph, autojunk=False)
            score = sum(block.size for block in matcher.get_matching_blocks()) / len(quote)
        if score > best_score:
            best, best_score = start, score
    return best if best_score >= 0.6 else None


_HEDGE = re.compile(
    r"(?:about|approximately|roughly|around|nearly|almost|≈|~|\\approx|\\sim|\\simeq)\s*$",
    re.IGNORECASE,
)
_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}  # fmt: skip
_STATED = re.compile(
    r"\bto (?P<count>zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})"
    r"\s+(?:(?P<decimals>decimals?|decimal places?|decimal digits?|places?)"
    r"|(?P<significant>significant (?:figures?|digits?)|sig\.? ?figs?))\b",
    re.IGNORECASE,
)
_ROUNDED = re.compile(r"\brounded\b", re.IGNORECASE)


@dataclass(frozen=True)
class Precision:
    """How the prose says a number is rounded: a hedge before it ("about", "≈"), or a
    precision stated in its sentence ("to five decimals", "to three significant figures")."""

    hedged: bool = False
    decimals: int | None = None
    significant: int | None = None

    def __bool__(self) -> bool:
        return self.hedged or self.decimals is not None or self.significant is not None


_BOUNDARY = re.compile(r"\. |\n")


@lru_cache(maxsize=16)
def _boundaries(content: str) -> tuple[int, ...]:
    return tuple(match.start() for match in _BOUNDARY.finditer(content))


def sentence_span(content: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around content[start:end]: from after the previous `. `/line break to
    the next one (decimal points, being followed by digits, do not end sentences). The
    boundaries are found once per content, so asking for every number stays linear."""
    stops = _boundaries(content)
    before = bisect.bisect_left(stops, start) - 1
    after = bisect.bisect_left(stops, end)
    return (stops[before] + 1 if before >= 0 else 0), (
        stops[after] if after < len(stops) else len(content)
    )


_DIGIT = re.compile(r"[0-9]")


def _gap(sentence: str, phrase: re.Match[str], start: int, end: int) -> str:
    """The text between a number (start..end) and a precision phrase."""
    if phrase.start() >= end:
        return sentence[end : phrase.start()]
    return sentence[phrase.end() : start]


def precision(content: str, item: numbers.Item) -> Precision:
    """What the prose says about the rounding of `item`."""
    hedged = bool(_HEDGE.search(content[max(0, item.start - 16) : item.start]))
    first, last = sentence_span(content, item.start, item.end)
    sentence = content[first:last]
    start, end = item.start - first, item.end - first
    # The phrase nearest the number speaks for it, and only with no other number between
    # them: "3.08221 to five decimals, so x̂ to four decimals is [...]" gives the list four
    # decimals, and "0.99995 to five decimals; at temperature 100 [0.337, ...]" none.
    stated = min(
        (m for m in _STATED.finditer(sentence) if not _DIGIT.search(_gap(sentence, m, start, end))),
        key=lambda m: m.start() - end if m.start() >= end else start - m.end(),
        default=None,
    )
    if stated is None:
        return Precision(hedged or bool(_ROUNDED.search(sentence)))
    word = stated.group("count").lower()
    count = int(word) if word.isdigit() else _WORDS[word]
    if stated.group("decimals"):
        return Precision(hedged, decimals=count)
    return Precision(hedged, significant=max(count, 1))


def approximate(content: str, item: numbers.Item, occurrence: Occurrence) -> Precision:
    """The prose marks the number as rounded (kept for callers of the earlier API)."""
    return precision(content, item)
