"""Single-edit mutants of a lesson: the edits its checks should notice.

Mutants target what the lesson's claims guard: every number written in a quoted
statement (changed digit, flipped sign, a slot added or dropped), operators,
signs, radicals and digits in display equations, quiz answers swapped for
another option, each quoted sentence deleted, and (`selftest.dimensions`) edits that
break an equation's dimensions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from atlas_build.claims.binding import anchors
from atlas_build.claims.prose import exempt, numbers
from atlas_build.lesson.model import Lesson

MINUS = "\u2212"
_DIGITS = re.compile(r"[0-9]+")
_EQUATION_EDITS = (
    (re.compile(r"(?<![\\{^_])-"), "+", "minus becomes plus"),
    (re.compile(r"(?<![\\{^_])\+"), "-", "plus becomes minus"),
    (re.compile(r"\\sqrt(?=\{)"), "", "square root removed"),
    (re.compile(r"(?<=[\^])\{?[0-9]"), None, "exponent changed"),
    (re.compile(r"(?<![_a-zA-Z\\])(?<!_\{)[0-9]+(?![0-9])"), None, "constant changed"),
)


@dataclass(frozen=True)
class Mutant:
    kind: str  # number | slots | equation | quiz | sentence | dimension | typo
    description: str
    offset: int  # where the edit starts in the content as shipped
    original: str
    replacement: str

    def apply(self, content: str) -> str:
        end = self.offset + len(self.original)
        assert content[self.offset : end] == self.original
        return content[: self.offset] + self.replacement + content[end:]


def _bump(text: str, match: re.Match[str]) -> str:
    digits = match.group()
    last = (int(digits[-1]) + 1) % 10
    changed = digits[:-1] + str(last)
    if changed == digits or (len(changed) > 1 and changed[0] == "0" and digits[0] != "0"):
        changed = digits[:-1] + str((last + 1) % 10)
    return text[: match.start()] + changed + text[match.end() :]


def number_mutants(item: numbers.Item, limit: int = 3) -> Iterator[tuple[str, str]]:
    """(replacement text, description) for one written number, list, slot set or sum."""
    text = item.text
    runs = list(_DIGITS.finditer(text))
    if isinstance(item, numbers.Arithmetic):
        runs = runs[-1:] + runs[:1]  # the stated result, then the first operand
    for match in runs[:limit]:
        yield _bump(text, match), f"digit {match.group()!r} of {text!r} changed"
    if isinstance(item, numbers.SlotSet):
        ordered = sorted(item.slots)
        if len(ordered) > 1 and not item.open_end:
            listed = ",".join(str(slot) for slot in ordered[:-1])
            yield f"{item.noun}{listed}", f"slot {ordered[-1]} dropped from {text!r}"
        return
    if isinstance(item, numbers.Quantity) and item.value != 0:
        if text[:1] in ("-", MINUS):
            yield text[1:], f"sign of {text!r} dropped"
        elif text[:1].isdigit():
            yield MINUS + text, f"{text!r} made negative"


def every_number(lesson: Lesson) -> Iterator[Mutant]:
    """Every number of the prose that no rule exempts, its last digit changed once: what
    an author's typo does, whether or not a claim quotes the sentence (`--all-numbers`)."""
    for spot in exempt.spots(lesson):
        if spot.exempt:
            continue
        written = lesson.content[spot.start : spot.end]  # as written (`７０`, not `70`)
        runs = [m for m in _DIGITS.finditer(written)]
        if not runs:
            continue
        last = runs[-1]
        digits = last.group()
        changed = digits[:-1] + str((int(digits[-1]) + 1) % 10)
        if len(changed) > 1 and changed[0] == "0" and digits[0] != "0":
            changed = digits[:-1] + str((int(digits[-1]) + 2) % 10)
        replacement = written[: last.start()] + changed + written[last.end() :]
        description = f"last digit of {written!r} changed"
        yield Mutant("typo", description, spot.start, written, replacement)


def quote_mutants(quotes: list[str], lesson: Lesson) -> Iterator[Mutant]:
    """Numbers and sentences of every place a claim quote checks (anchors.choose): the other
    rows of a table a row quote's skeleton fits are not the claim's, nor its mutants."""
    skeleton = anchors.skeleton(lesson.content)
    seen: set[tuple[int, int]] = set()
    for quote in quotes:
        items, found = anchors.occurrences(quote, skeleton)
        for occurrence in anchors.choose(items, found, row=anchors.table_row(quote)):
            span = (occurrence.start, occurrence.end)
            if span in seen:
                continue
            seen.add(span)
            text = lesson.content[occurrence.start : occurrence.end]
            yield Mutant("sentence", f"quoted statement deleted: {text[:60]!r}",
                         occurrence.start, text, "")  # fmt: skip
            for item in occurrence.items:
                kind = "slots" if isinstance(item, numbers.SlotSet) else "number"
                if lesson.content[item.start : item.end] != item.text:
                    continue  # written in fullwidth digits: edited by `every_number` only
                for replacement, description in number_mutants(item):
                    yield Mutant(kind, description, item.start, item.text, replacement)


def equation_mutants(lesson: Lesson, limit: int = 12) -> Iterator[Mutant]:
    """Operators, signs, radicals and constants of each display equation."""
    for math in lesson.display_math:
        count = 0
        for pattern, replacement, description in _EQUATION_EDITS:
            for match in pattern.finditer(math.latex):
                if count >= limit:
                    break
                original = match.group()
                if replacement is None:
                    digit = _DIGITS.search(original)
                    assert digit is not None
                    new = _bump(original, digit)
                else:
                    new = replacement
                offset = math.offset + match.start()
                where = f"equation {math.index}: {description} at {original!r}"
                yield Mutant("equation", where, offset, original, new)
                count += 1


def quiz_mutants(lesson: Lesson) -> Iterator[Mutant]:
    """Each quiz's stated answer replaced by each of its other options."""
    for quiz in lesson.quizzes:
        if quiz.answer is None or quiz.answer_offset is None:
            continue
        start = lesson.content.find(quiz.answer, quiz.answer_offset)
        if start == -1:
            continue
        for option, _ in quiz.options:
            if option != quiz.answer:
                yield Mutant("quiz", f"answer to {quiz.question[:50]!r} becomes {option!r}",
                             start, quiz.answer, option)  # fmt: skip


def generate(quotes: list[str], lesson: Lesson, extra: Iterable[Mutant] = ()) -> list[Mutant]:
    """Every mutant of the lesson once; `extra` adds kinds defined elsewhere (dimensions)."""
    mutants: list[Mutant] = []
    seen: set[tuple[int, str, str]] = set()
    for mutant in (
        *quote_mutants(quotes, lesson),
        *equation_mutants(lesson),
        *quiz_mutants(lesson),
        *extra,
    ):
        key = (mutant.offset, mutant.original, mutant.replacement)
        if key not in seen and mutant.original != mutant.replacement:
            seen.add(key)
            mutants.append(mutant)
    return mutants
