"""What a lesson's checks proved: a status for every relation, a class for every number.

Numbers of the prose (`exempt.spots`) are counted once each:

- `verified`: bound by a claim to a computed value that matched, stated as the answer a
  `quiz` claim checked, or the result of worked arithmetic that holds (`0.25×(2−5)=−0.75`,
  checked on its own, with or without a claim);
- `input`: bound to a value the claim fixes itself (the scores of a worked example);
- `failed`: bound, and wrong (the claim reports it), or worked arithmetic that does not hold;
- `exempt`: by one of the documented rules of `prose/exempt.py`, or in a statement that
  `unchecked` lists with the author's reason (`listed unchecked`);
- `unaccounted`: everything else, each listed with its position (A410, an info finding).

Every quiz question gets a status too (`verified`, `failed`, `unchecked` when listed with a
reason, `unverified`): a stated answer is a claim like any number, and one compared with a
fact whose claim did not pass is not proved (`claims/running/facts.py`). So does every relation
stated in inline math (`inline.py`): `unchecked` or `unverified`, since no claim addresses
inline math.

`verification` sums a lesson up: `failed` when anything failed, `verified` when every
relation is verified, defined or listed unchecked, every number is accounted for, every
quiz answer checked and every inline relation listed unchecked, no relation's dimensions
are incomplete (in a
lesson with a symbol table), and something was proved, `unverified` when nothing was,
`partial` otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from atlas_build import units
from atlas_build.claims import codes
from atlas_build.claims.binding import anchors
from atlas_build.claims.coverage import dimensions, inline, relations
from atlas_build.claims.prose import arithmetic, exempt, numbers
from atlas_build.claims.running.registry import Outcome
from atlas_build.diagnostics import Diagnostic, at
from atlas_build.lesson.checks.units import conflicting
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator

CLASSES = ("verified", "input", "failed", "exempt", "unaccounted")
QUIZ_STATUSES = ("verified", "unchecked", "failed", "unverified")
_RANK = {"failed": 0, "verified": 1, "input": 2}
LISTED = "listed unchecked"  # the exemption of a number an `unchecked` quote holds


@dataclass
class Inputs:
    """What the claims stage hands over (empty for a lesson without a claims file)."""

    specs: list[dict[str, Any]] = field(default_factory=list)
    unchecked: dict[tuple[int, int | None], str] = field(default_factory=dict)
    outcomes: Mapping[str, Outcome | Exception] = field(default_factory=dict)
    statuses: dict[str, str] = field(default_factory=dict)
    unproved: dict[str, str] = field(default_factory=dict)  # claim -> its fact not proved
    evaluated: Mapping[tuple[int, int], set[str]] = field(default_factory=dict)
    contradicted: list[tuple[frozenset[tuple[int, int]], str]] = field(default_factory=list)
    spots: list[tuple[int, int, str]] = field(default_factory=list)
    quiz_claims: dict[str, str] = field(default_factory=dict)
    unchecked_quizzes: dict[int, str] = field(default_factory=dict)
    unchecked_inline: dict[int, str] = field(default_factory=dict)
    unchecked_statements: list[tuple[int, int, str]] = field(default_factory=list)
    has_claims: bool = False


def measure(
    lesson: Lesson, locator: Locator, given: Inputs, *, require_accounted: bool = False
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The lesson's coverage (the report's `coverage`) and the findings that go with it."""
    diagnostics: list[Diagnostic] = []
    table = dimensions.lesson_units(lesson)
    declared = dimensions.declared(table)
    entries, errors = relations.inventory(lesson, relations.claim_options(given.specs), declared)
    relations.settle(entries, given.outcomes, given.statuses, _evaluated(given), given.unchecked)
    diagnostics += _contradicted(entries, locator, given)
    needed = relations.needed(given.specs)
    listed = {equation for equation, _ in given.unchecked}
    diagnostics += relations.findings(lesson, locator, errors, needed, listed)
    if given.has_claims:
        diagnostics += _unverified(lesson, locator, entries)
    diagnostics += _dimensions(lesson, locator, entries, table)
    spots = exempt.spots(lesson)
    classes, arithmetic = _numbers(lesson, locator, given, spots, diagnostics)
    computed, wrong, right = inline.evaluated(lesson, locator, diagnostics)
    for name in arithmetic:
        arithmetic[name] += computed[name]
    for spot in spots:
        if spot.start in wrong:
            classes[(spot.start, spot.end)] = "failed"
        elif spot.start in right:
            classes.setdefault((spot.start, spot.end), "verified")
    summary = {name: 0 for name in CLASSES}
    exempted: dict[str, int] = {}
    unaccounted = []
    listed_at: list[dict[str, Any]] = []
    for spot in spots:
        kind = classes.get((spot.start, spot.end)) or ("exempt" if spot.exempt else "unaccounted")
        why = spot.exempt
        reason = _listed(spot, given.unchecked_statements) if kind == "unaccounted" else None
        if reason is not None:
            kind, why = "exempt", LISTED
            where = locator.content(spot.start)
            place = {"line": where.line, "column": where.column}
            listed_at.append({"text": spot.text, "reason": reason, **place})
        summary[kind] += 1
        if kind == "exempt":
            exempted[why] = exempted.get(why, 0) + 1
        if kind == "unaccounted":
            unaccounted.append(spot)
    verified_sentences = {
        anchors.sentence_span(lesson.content, s.start, s.end)
        for s in spots
        if classes.get((s.start, s.end)) == "verified"
    }
    places = []
    for spot in unaccounted:
        where = locator.content(spot.start)
        places.append({"text": spot.text, "line": where.line, "column": where.column})
        in_worked = (
            anchors.sentence_span(lesson.content, spot.start, spot.end) in verified_sentences
        )
        if require_accounted and in_worked:
            message = f"{spot.text} is not accounted for in a sentence whose other numbers are"
            diagnostics.append(at(codes.UNACCOUNTED_STEP, where, message + " checked"))
        elif given.has_claims:
            message = f"number {spot.text} is not checked by any claim and no rule exempts it"
            diagnostics.append(at(codes.UNACCOUNTED, where, message))
    relation_counts = relations.counts(entries)
    dimension_counts = dict.fromkeys(dimensions.STATUSES, 0)
    for entry in entries:
        dimension_counts[(entry.dimensions or {}).get("status", "not checked")] += 1
    coverage: dict[str, Any] = {
        "relations": {**relation_counts, "items": [_entry(e, locator) for e in entries]},
        "numbers": {
            "total": len(spots),
            **summary,
            "exempted": dict(sorted(exempted.items())),
            "unaccountedAt": places,
            "listedUnchecked": listed_at,
            "arithmetic": arithmetic,
        },
        "claims": {
            status: sum(1 for s in given.statuses.values() if s == status)
            for status in ("pass", "fail", "error", "skipped", "unchecked")
        },
        "dimensions": dimension_counts,
        "quizzes": _quizzes(lesson, locator, given, diagnostics),
        "inline": inline.measure(
            lesson,
            locator,
            table,
            given.unchecked_inline,
            has_claims=given.has_claims,
            symbols=declared,
            diagnostics=diagnostics,
        ),
    }
    coverage["verification"] = verdict(coverage, units_declared=bool(lesson.glossaries))
    return coverage, diagnostics


def _evaluated(given: Inputs) -> dict[tuple[int, int], set[str]]:
    """The claims whose numbers computed from each relation matched the lesson, less
    those that proved nothing after all (`unchecked`, or resting on a fact not proved):
    a relation is verified only through a check that passed."""
    found = {}
    for key, claims in given.evaluated.items():
        kept = {
            claim
            for claim in claims
            if given.statuses.get(claim) != "unchecked" and claim not in given.unproved
        }
        if kept:
            found[key] = kept
    return found


def _quizzes(
    lesson: Lesson, locator: Locator, given: Inputs, diagnostics: list[Diagnostic]
) -> dict[str, Any]:
    """A status per quiz question: `verified` when a `quiz` claim on it passed, `failed`
    when one failed, `unchecked` when the author listed it with a reason, else
    `unverified` (A412 in a lesson with a claims file: its answer is proved by nothing; a
    quiz claim that could not run, an A404, checked nothing either, nor did one whose
    fact's claim failed: the reason names that fact, see claims/running/facts.py)."""
    counts = dict.fromkeys(QUIZ_STATUSES, 0)
    items = []
    for index, quiz in enumerate(lesson.quizzes):
        claims = sorted(c for c, text in given.quiz_claims.items() if text in quiz.question)
        statuses = {given.statuses.get(claim) for claim in claims}
        reason = ""
        unproved = [given.unproved[claim] for claim in claims if claim in given.unproved]
        if "fail" in statuses:
            status = "failed"
        elif "pass" in statuses:
            status = "verified"
        elif index in given.unchecked_quizzes:
            status, reason = "unchecked", given.unchecked_quizzes[index]
        else:
            status, reason = "unverified", "; ".join(unproved)
        counts[status] += 1
        where = locator.content(quiz.offset)
        if status == "unverified" and given.has_claims:
            message = (
                f"quiz {quiz.question[:80]!r}: its answer is not proved, since its {reason}; "
                "the answer is checked once that fact is proved"
                if reason
                else f"quiz {quiz.question[:80]!r}: its answer is not checked by any `quiz` "
                "claim; add one, or list the question under `unchecked` with a reason"
            )
            diagnostics.append(at(codes.QUIZ_UNCHECKED, where, message))
        items.append(
            {"question": quiz.question[:200], "status": status, "claims": claims,
             "reason": reason, "line": where.line, "column": where.column}
        )  # fmt: skip
    return {"total": len(lesson.quizzes), **counts, "items": items}


def _entry(entry: relations.Entry, locator: Locator) -> dict[str, Any]:
    where = locator.content(entry.offset)
    return {**entry.to_json(), "line": where.line, "column": where.column}


def _from_zero(found: dict[str, Any], parsed: Any, table: dict[str, Any]) -> dict[str, Any]:
    """`found`, not checked where the °C value multiplied is in a side counted from the
    scale's zero (`units.counted_from_zero`); inference still leaves the relation alone."""
    offset = units.counted_from_zero(parsed.lhs, parsed.rhs, table)
    if offset is None:
        return found
    message = (
        f"{found['message']}; but the side adds {offset}, which holds no temperature: a "
        "quantity counted from the scale's zero (enthalpy from 0 °C), so this is not certain"
    )
    return {"status": "not checked", "message": message, "unknown": found["unknown"]}


def _dimensions(
    lesson: Lesson,
    locator: Locator,
    entries: list[relations.Entry],
    table: dict[str, Any],
) -> list[Diagnostic]:
    """A420 at each relation whose dimensions disagree; one A422 naming the symbols the
    symbol table gives no unit and one A425 naming the relations a disagreement in which
    is not certain (both only when the lesson has a symbol table at all)."""
    found = []
    missing: dict[str, None] = {}
    uncertain: list[relations.Entry] = []
    twice = conflicting(lesson)
    fitted = dimensions.fitted(lesson)
    for entry in entries:
        if entry.parsed is None:  # `unchecked` exempts from verification, never from this
            entry.dimensions = {"status": "not checked", "message": "", "unknown": []}
            continue
        status = dimensions.check(entry.parsed, table)
        entry.dimensions = dimensions.empirical(status, entry.parsed, fitted)
        if entry.dimensions["status"] == "inconsistent" and entry.dimensions.get("scale"):
            entry.dimensions = _from_zero(entry.dimensions, entry.parsed, table)
        if entry.dimensions["status"] == "inconsistent" and (
            named := sorted(twice & dimensions.names(entry.parsed))
        ):
            entry.dimensions = {
                "status": "not checked",
                "message": f"{', '.join(named)} has two units in the symbol tables, "
                f"and the sides agree in neither for certain: {entry.dimensions['message']}",
                "unknown": entry.dimensions["unknown"],
            }
        missing.update(dict.fromkeys(entry.dimensions["unknown"]))
        if entry.dimensions["status"] == "not checked" and entry.dimensions["message"]:
            uncertain.append(entry)
        if entry.dimensions["status"] == "inconsistent":
            what = "units disagree" if entry.dimensions.get("scale") else "dimensions disagree"
            message = (
                f"equation {entry.equation} relation {entry.relation} `{entry.source}`: "
                f"{what}: {entry.dimensions['message']}"
            )
            found.append(at(codes.DIMENSION, locator.content(entry.offset), message))
    if missing and lesson.glossaries:
        first = lesson.glossaries[0].offset
        names = ", ".join(sorted(missing))
        message = (
            f"no unit in the symbol table for {names}: relations using them are only partly checked"
        )
        found.append(at(codes.NO_UNIT, locator.content(first), message))
    if uncertain and lesson.glossaries:
        found.append(_uncertain(uncertain, locator))
    return found


def _uncertain(entries: list[relations.Entry], locator: Locator) -> Diagnostic:
    """One A425 for the relations whose dimensions the check is not sure of."""
    listed = "; ".join(
        f"equation {entry.equation} relation {entry.relation} `{entry.source[:60]}`: "
        f"{(entry.dimensions or {}).get('message', '')}"
        for entry in entries[:3]
    )
    more = f" (and {len(entries) - 3} more)" if len(entries) > 3 else ""
    message = (
        f"{len(entries)} relation{'s' if len(entries) > 1 else ''} not checked for dimensions,"
        f" since a disagreement in them is not certain: {listed}{more}"
    )
    return at(codes.UNCERTAIN, locator.content(entries[0].offset), message)


def _contradicted(
    entries: list[relations.Entry], locator: Locator, given: Inputs
) -> list[Diagnostic]:
    """A403 at a relation whose computed numbers all disagree with the lesson: a flipped
    sign in an equation fails where it is written, not only at the prose numbers. (When
    some of its numbers match, the relation is right and the wrong number is reported.)"""
    found = []
    suspects: dict[tuple[int, int], list[str]] = {}
    wrong = [refs - set(given.evaluated) for refs, _ in given.contradicted]
    common = frozenset.intersection(*wrong) if wrong else frozenset()
    for (_, text), open_refs in zip(given.contradicted, wrong, strict=True):
        for ref in open_refs & common or open_refs:  # the relation every wrong number shares
            suspects.setdefault(ref, []).append(text)
    for entry in entries:
        said = suspects.get((entry.equation, entry.relation))
        if not said or entry.status == "unreadable":
            continue
        entry.status = "failed"
        entry.reason = "numbers computed from it disagree with the lesson"
        message = (
            f"equation {entry.equation} relation {entry.relation} `{entry.source}`: the numbers "
            f"computed from it disagree with the lesson: {'; '.join(said[:3])}"
        )
        found.append(at(codes.FAILED, locator.content(entry.offset), message))
    return found


def _unverified(
    lesson: Lesson, locator: Locator, entries: list[relations.Entry]
) -> list[Diagnostic]:
    """A407 per equation with relations nothing checks (lessons with a claims file)."""
    found = []
    for math in lesson.display_math:
        open_ = [e for e in entries if e.equation == math.index and e.status == "unverified"]
        if not open_:
            continue
        which = ", ".join(f"{e.relation} `{e.source}`" for e in open_)
        noun = "relation" if len(open_) == 1 else "relations"
        message = (
            f"display equation {math.index}: {noun} {which} not verified by any claim; add a "
            "claim, or list it under `unchecked` with a reason"
        )
        offset = math.offset + len(math.latex) - len(math.latex.lstrip())
        found.append(at(codes.UNCOVERED, locator.content(offset), message))
    return found


def _numbers(
    lesson: Lesson,
    locator: Locator,
    given: Inputs,
    spots: list[exempt.Spot],
    diagnostics: list[Diagnostic],
) -> tuple[dict[tuple[int, int], str], dict[str, int]]:
    """Classes of the numbers that claims bound or that worked arithmetic settles, and the
    A408 findings for worked arithmetic that does not hold."""
    classes: dict[tuple[int, int], str] = {}
    for start, end, kind in given.spots:
        key = (start, end)
        if key not in classes or _RANK[kind] < _RANK[classes[key]]:
            classes[key] = kind
    for claim_id, outcome in given.outcomes.items():
        # numbers a kind checked itself (a quiz answer) are not proved by a claim that
        # proved nothing: it compared them with a fact whose own claim failed
        if isinstance(outcome, Outcome) and claim_id not in given.unproved:
            for low, high in outcome.verified_at:
                for spot in spots:
                    if low <= spot.start and spot.end <= high and not spot.exempt:
                        classes.setdefault((spot.start, spot.end), "verified")
    tally = {"checked": 0, "wrong": 0}
    counted = {(spot.start, spot.end) for spot in spots if not spot.exempt}
    items = anchors.skeleton(lesson.content).items
    rounded = arithmetic.approximate_values(items, lesson.content)
    _steps(lesson, locator, items, counted, classes, tally, diagnostics, rounded)
    for item in items:
        if not isinstance(item, numbers.Arithmetic):
            continue
        key = (item.result.start, item.result.end)
        if key not in counted:
            continue
        judgement = arithmetic.judge(item, rounded)
        if judgement.status == "wrong" and _of_earlier(item, items, lesson.content):
            continue  # `… ≈ 134.2 MB … 8/16 ≈ 67.1 MB`: a fraction of that, not wrong
        if judgement.status == "unclear":
            continue  # units the text does not write could make it right: say nothing
        tally["checked"] += 1
        if judgement.status == "verified":
            _proved(classes, key)
            for operand in item.operands:  # `7 + 3 = 10`: the 7 and the 3 are its inputs
                span = (operand.start, operand.end)
                if span in counted:
                    classes.setdefault(span, "input")
            continue
        tally["wrong"] += 1
        wrong = item.result
        if classes.get(key) == "verified":  # a claim proved the result: an operand is wrong
            kinds = [classes.get((o.start, o.end)) for o in item.operands]
            for suspect in ("failed", None):
                if suspect in kinds:
                    wrong = item.operands[kinds.index(suspect)]
                    break
        classes[(wrong.start, wrong.end)] = "failed"
        diagnostics.append(
            at(codes.ARITHMETIC, locator.content(wrong.start), f"{item.text}: {judgement.message}")
        )
    return classes, tally


def _of_earlier(item: numbers.Arithmetic, items: list[numbers.Item], content: str) -> bool:
    """Whether bare working is a fraction of a quantity stated before it in its paragraph
    (`arithmetic.fraction_of`)."""
    for earlier in items:
        if earlier.start >= item.start:
            break
        if "\n\n" in content[earlier.end : item.start]:
            continue  # another paragraph
        stated = earlier.result if isinstance(earlier, numbers.Arithmetic) else earlier
        if isinstance(stated, numbers.Quantity) and arithmetic.fraction_of(item, stated):
            return True
    return False


def _proved(classes: dict[tuple[int, int], str], key: tuple[int, int]) -> None:
    """A number worked arithmetic proves is verified, though a check also took it as an
    input (`m₁ = 0.1×0.5 = 0.05`, then an input of the next step's check); a failed one
    stays failed."""
    if classes.get(key) in (None, "input"):
        classes[key] = "verified"


def _steps(
    lesson: Lesson,
    locator: Locator,
    items: list[numbers.Item],
    counted: set[tuple[int, int]],
    classes: dict[tuple[int, int], str],
    tally: dict[str, int],
    diagnostics: list[Diagnostic],
    rounded: arithmetic.Rounded,
) -> None:
    """Links of chains of working (`… = 2.3925/2.35 ≈ 1.02 A`, `0.184 s ≈ 184 ms`): the
    numbers on a link's right side are what the left side works out."""
    for step in numbers.steps(lesson.content, items):
        right = step.right
        written = right.operands if isinstance(right, numbers.Arithmetic) else (right,)
        spans = [(q.start, q.end) for q in written if (q.start, q.end) in counted]
        if not spans:
            continue
        judgement = arithmetic.judge_step(step, rounded)
        if judgement.status == "unclear":
            continue
        tally["checked"] += 1
        if judgement.status == "verified":
            for span in spans:
                _proved(classes, span)
            continue
        tally["wrong"] += 1
        classes[spans[0]] = "failed"
        shown = f"{step.left.text} {step.relation} {right.text.lstrip('≈~ ')}"
        where = locator.content(spans[0][0])
        diagnostics.append(at(codes.ARITHMETIC, where, f"{shown}: {judgement.message}"))


def verdict(coverage: Mapping[str, Any], *, units_declared: bool = False) -> str:
    """`failed`, `verified`, `partial` or `unverified` (see the module docstring). In a
    lesson with a symbol table, a relation whose symbols it leaves without a unit is
    only partly checked, so the lesson is too."""
    rel = coverage["relations"]
    num = coverage["numbers"]
    claims = coverage["claims"]
    if rel["failed"] or num["failed"] or claims["fail"] or claims["error"]:
        return "failed"
    proved = rel["verified"] + num["verified"]
    if not proved:
        return "unverified"
    open_relations = rel["total"] - sum(rel[s] for s in relations.ACCEPTED)
    unproved = (coverage.get("quizzes") or {}).get("unverified") or (
        coverage.get("inline") or {}
    ).get("unverified")
    if open_relations or num["unaccounted"] or claims["unchecked"] or unproved:
        return "partial"
    if units_declared and (coverage.get("dimensions") or {}).get("incomplete"):
        return "partial"
    return "verified"


def _listed(spot: exempt.Spot, statements: list[tuple[int, int, str]]) -> str | None:
    """The author's reason, when a number lies in a prose statement `unchecked` lists."""
    for start, end, reason in statements:
        if start <= spot.start and spot.end <= end:
            return reason
    return None
