"""Claims stage: re-derive equations with SymPy, run numbers on the engine, bind them to prose.

`content/<slug>/claims.yaml` lists a lesson's checked statements. Each kind lives
in `claims/kinds/` and registers itself; `run` evaluates them and binds the numbers
of each quote; `coverage` then says what was proved: a status for every relation of
every display equation and a class for every number of the prose.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from atlas_build.budget import Budget, StageClock
from atlas_build.cache import Cache
from atlas_build.claims import codes, infer, kinds  # noqa: F401 (kinds registers them)
from atlas_build.claims.binding import anchors
from atlas_build.claims.binding.bind import closest
from atlas_build.claims.coverage import dimensions, inline, relations, verification
from atlas_build.claims.infer import store
from atlas_build.claims.running import file
from atlas_build.claims.running.registry import Outcome
from atlas_build.claims.running.run import ClaimResult, LessonClaims
from atlas_build.diagnostics import Diagnostic, at
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator

__all__ = ["ClaimResult", "Evaluation", "evaluate"]


@dataclass
class Evaluation:
    results: list[ClaimResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    coverage: dict[str, Any] | None = None


def evaluate(
    claims_path: str | None,
    lesson_id: str,
    lesson: Lesson,
    locator: Locator,
    *,
    cache: Cache | None = None,
    budget: Budget | None = None,
    require_accounted: bool = False,
    clock: StageClock | None = None,
) -> Evaluation:
    """Run the lesson's claims (if it has a claims file) and measure what they proved:
    every lesson gets a coverage, so a lesson without claims reports honestly that nothing
    in it was checked."""
    evaluation = Evaluation()
    given = verification.Inputs()
    claims_file = None
    if claims_path is not None:
        claims_file, problems = file.read(claims_path)
        evaluation.diagnostics.extend(problems)
        named = claims_file.lesson if claims_file is not None else None
        if claims_file is not None and named is not None and named != lesson_id:
            evaluation.diagnostics.append(
                at(
                    codes.FILE,
                    claims_file.at("/lesson"),
                    f"claims.yaml is for lesson {named!r}, not {lesson_id!r}",
                )
            )
            claims_file = None
    # A claims file that cannot be used runs no claim, and the lesson's coverage says so
    # (nothing proved, and the A400 fails it) instead of being left out of every report.
    if claims_file is not None:
        runner = LessonClaims(claims_file, lesson, locator, cache, budget or Budget().started())
        evaluation.results = runner.run()
        for result in evaluation.results:
            evaluation.diagnostics.extend(result.diagnostics)
        listed = claims_file.unchecked
        questions = [(n, quiz.question) for n, quiz in enumerate(lesson.quizzes)]
        quizzes, problems = _unchecked_texts(claims_file, listed, "quiz", questions)
        stated = [(math.index, math.latex) for math in inline.relations(lesson)]
        formulas, more = _unchecked_texts(claims_file, listed, "inline", stated)
        statements, also = _unchecked_quotes(claims_file, listed, runner)
        evaluation.diagnostics.extend(problems + more + also)
        given = verification.Inputs(
            specs=[spec for _, spec in runner.specs.values()],
            unchecked={
                (entry["equation"], entry.get("relation")): entry["reason"]
                for _, entry in listed
                if "equation" in entry
            },
            quiz_claims=runner.quiz_questions(),
            unchecked_quizzes=quizzes,
            unchecked_inline=formulas,
            unchecked_statements=statements,
            outcomes=runner.outcomes,
            statuses={result.claim_id: result.status for result in evaluation.results},
            unproved=runner.unproved,
            evaluated=runner.binder.evaluated,
            contradicted=runner.binder.contradicted,
            spots=[spot for result in evaluation.results for spot in result.spots],
            has_claims=True,
        )
    with (clock or StageClock(math.inf)).running():  # counted with the lesson's other stages
        inferred = _inferred(lesson, locator, given, cache)
        evaluation.results += inferred
        evaluation.diagnostics += [d for result in inferred for d in result.diagnostics]
        measured, found = verification.measure(
            lesson, locator, given, require_accounted=require_accounted
        )
    evaluation.coverage = measured
    evaluation.diagnostics.extend(found)
    return evaluation


def inferable(lesson: Lesson, specs: list[Any] | None = None) -> list[relations.Entry]:
    """The relations inference may compute with: not one whose dimensions disagree (its
    A420 says so; 20 °C − 4 K = 16 K holds in numbers and not in kelvin), nor one whose
    dimensions disagree read with a symbol applied as a function (`g_m\\left(…\\right)`,
    maybe a product), nor one with a number whose "unit" is the lesson's symbols
    (`dimensions.unit_of_symbols`)."""
    table = dimensions.lesson_units(lesson)
    entries, _ = relations.inventory(
        lesson, relations.claim_options(specs or []), dimensions.declared(table)
    )
    named = dimensions.named(lesson)
    entries = [
        e for e in entries if e.parsed is None or not dimensions.unit_of_symbols(e.parsed, named)
    ]
    if not table:
        return entries
    fitted = dimensions.fitted(lesson)

    def agrees(parsed: Any) -> bool:
        found = dimensions.empirical(dimensions.check(parsed, table), parsed, fitted)
        return bool(found["status"] != "inconsistent" and not found.get("called"))

    return [entry for entry in entries if entry.parsed is None or agrees(entry.parsed)]


def _inferred(
    lesson: Lesson, locator: Locator, given: verification.Inputs, cache: Cache | None
) -> list[ClaimResult]:
    """Checks inferred from the lesson itself (`infer`), handed to coverage as outcomes of
    claims of their own, `inferred-N`; a number a written claim binds is the written
    claim's (an explicit claim on the same numbers wins). Cached by what inference reads
    (`infer.store`), unless it stopped at its time limit."""
    cache = cache or Cache(None)
    bound = {(start, end) for start, end, _ in given.spots}
    entry = store.key(lesson.content, relations.claim_options(given.specs), bound)
    found = store.load(cache, entry, lesson.content)
    if found is None:
        found, complete = infer.found(lesson, inferable(lesson, given.specs), frozenset(bound))
        if complete:
            store.save(cache, entry, found)
    proved = _Spans(check.anchor for check in found if check.holds)
    outcomes = dict(given.outcomes)
    statuses = dict(given.statuses)
    results: list[ClaimResult] = []
    written = _Spans(bound)
    for check in found:
        if written.inside(check.anchor):
            continue
        if not (check.holds or check.certain):
            continue
        claim_id = f"inferred-{len(results) + 1}"
        outcome = Outcome()
        inputs = [(start, end, "input") for start, end in check.inputs]
        if check.holds:
            outcome.relations[(check.equation, check.index)] = "verified"
            outcome.verified_at.append(check.anchor)
            given.spots += [
                spot for spot in inputs if spot[:2] not in bound and not proved.holds(spot[:2])
            ]
        else:
            given.spots.append((*check.anchor, "failed"))
        outcomes[claim_id] = outcome
        statuses[claim_id] = "pass" if check.holds else "fail"
        result = ClaimResult(
            claim_id,
            "inferred",
            status=statuses[claim_id],
            message=check.summary,
            location=locator.content(check.anchor[0]),
            source="inferred",
        )
        result.spans = [check.anchor]
        result.anchor = {"equation": check.equation}
        if not check.holds:
            result.diagnostics = [infer.diagnose(check, locator)]
        results.append(result)
    given.outcomes, given.statuses = outcomes, statuses
    return results


class _Spans:
    """Content spans of numbers or whole lists, asked which holds which: a number of a
    verified list is not an input of another check (`holds`), and a written claim that
    binds a number inside an inferred check's anchor wins over the check (`inside`)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.reach: list[int] = []  # the furthest end among the spans up to each
        for _, end in self.spans:
            self.reach.append(max(end, self.reach[-1]) if self.reach else end)

    def holds(self, number: tuple[int, int]) -> bool:
        """Whether one of the spans holds `number`."""
        k = bisect.bisect_right(self.spans, (number[0], math.inf)) - 1
        return k >= 0 and self.reach[k] >= number[1]

    def inside(self, anchor: tuple[int, int]) -> bool:
        """Whether one of the spans lies inside `anchor`."""
        low, high = anchor
        k = bisect.bisect_left(self.spans, (low, low))
        while k < len(self.spans) and self.spans[k][0] < high:
            if self.spans[k][1] <= high:
                return True
            k += 1
        return False


def _unchecked_texts(
    claims_file: file.ClaimsFile,
    listed: list[tuple[int, dict[str, Any]]],
    key: str,
    found: Sequence[tuple[int, str]],
) -> tuple[dict[int, str], list[Diagnostic]]:
    """Index -> the author's reason, for `unchecked` entries naming a quiz question
    (`key` "quiz", by text it contains) or an inline relation ("inline", as written: an
    edited relation is no longer the one the author looked at); an entry that names none
    of them, or several, is an A400 at that entry."""
    reasons: dict[int, str] = {}
    problems = []
    noun = {"quiz": "quiz questions", "inline": "inline relations"}[key]
    for index, entry in listed:
        text = entry.get(key)
        if text is None:
            continue
        hits = [number for number, written in found if _matches(key, text, written)]
        if len(hits) == 1:
            reasons[hits[0]] = entry["reason"]
            continue
        message = f"unchecked {key} {text[:80]!r} names {len(hits)} {noun}, not exactly 1"
        problems.append(at(codes.FILE, claims_file.at(f"/unchecked/{index}/{key}"), message))
    return reasons, problems


def _unchecked_quotes(
    claims_file: file.ClaimsFile, listed: list[tuple[int, dict[str, Any]]], runner: LessonClaims
) -> tuple[list[tuple[int, int, str]], list[Diagnostic]]:
    """The content spans of `unchecked` prose statements, with the author's reason. A
    statement must be written where the quote says, numbers and all (an edited number
    ends its exemption), at `occurrences` places (1 unless given); anything else is an
    A400 at the entry, naming the closest text when the quote is not found."""
    spans: list[tuple[int, int, str]] = []
    problems = []
    content = runner.lesson.content
    for index, entry in listed:
        quote = entry.get("quote")
        if quote is None:
            continue
        quote_items, found = anchors.occurrences(quote, runner.skeleton)
        exact = [place for place in found if not anchors.differences(quote_items, place)]
        expected = entry.get("occurrences", 1)
        where = claims_file.at(f"/unchecked/{index}/quote")
        if not quote_items:
            message = f"unchecked quote {quote[:80]!r} holds no number, so it exempts nothing"
        elif len(exact) == expected:
            spans += [(place.start, place.end, entry["reason"]) for place in exact]
            continue
        elif exact:
            message = (
                f"unchecked quote {quote[:80]!r} is written at {len(exact)} places, not "
                f"{expected}; quote more of the statement, or give `occurrences: {len(exact)}`"
            )
        else:
            near = anchors.nearest(quote, content) if not found else found[0].start
            shown = ""
            if near is not None:
                edited = " with other numbers" if found else ""
                shown = f"; the closest text{edited} is {closest(content, runner.locator, near)}"
            message = f"unchecked quote {quote[:80]!r} is not in the lesson{shown}"
        problems.append(at(codes.FILE, where, message))
    return spans, problems


def _matches(key: str, text: str, written: str) -> bool:
    if key == "inline":
        return text.split() == written.split()
    return text in written
