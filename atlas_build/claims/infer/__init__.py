"""Checks a lesson gets with no claims file: inferred from its equations and its prose.

`statements` reads what the prose states about glossary symbols; `solve` evaluates one
relation at stated values, `values` with the tolerances their digits give; `checks` takes a
lesson's statements in reading order and evaluates every relation a statement completes;
`worked` reads relations a working writes out, and `lists` relations over lists. `found`
returns them all as the claims stage reports them (`Found`: the relation verified by
example, the number it verified, its inputs and, where atlas-build is certain, an A430
error at the number; `plain` turns a statement check into one), which `store` caches by the
lesson's content.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.claims.coverage.relations import Entry
from atlas_build.claims.infer import checks, instances, lists, model, statements, worked
from atlas_build.claims.infer.checks import Spans
from atlas_build.claims.infer.found import Found, Pin
from atlas_build.claims.infer.model import Inferred, Relations
from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.latex import Relation
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator

INFERRED = define(
    "A430",
    "inferred-check-failed",
    Severity.ERROR,
    "A relation of the lesson, evaluated at the values a section states for every one of "
    "its symbols by name, does not give the number a paragraph states, while another check "
    "of the same paragraph holds (so the example is read right).",
    example="`ρ = λ/μ` displayed; the paragraph states `μ = 125 requests/s`, `λ = 100 "
    "requests/s` and `ρ = 0.9`",
    fix="Correct the number (the message gives the value the relation computes), or the "
    "equation if the number is right.",
    stage="claims",
)


@dataclass
class Inference:
    """What inference checked in one lesson; `complete` is False when it stopped at the
    time limit (`checks.MAX_SECONDS`) with the checks found so far."""

    checks: list[Inferred] = field(default_factory=list)
    complete: bool = True


def _run(
    lesson: Lesson,
    usable: Relations,
    parsed: list[tuple[int, int, Relation]],
    written: Spans = frozenset(),
) -> tuple[Inference, list[statements.Paragraph]]:
    """The statement checks of `lesson` (`checks.infer`), with its relations also taken at
    the steps of a recurrence the prose names values at (`instances`), and the paragraphs
    they were read from (none without a usable relation)."""
    result, paragraphs = Inference(), list[statements.Paragraph]()
    plain = [(e, i, checks.solve.plain(r)) for e, i, r in parsed]
    steps = instances.letters(r for _, _, r in plain)
    if not usable.items and not steps:
        return result, paragraphs
    stepped = instances.Steps((r for _, _, r in plain), steps) if steps else None
    names = statements.Names(lesson, stepped)
    paragraphs = statements.paragraphs(lesson, names)
    relations = usable
    if stepped is not None:
        named = {s.name for paragraph in paragraphs for s in paragraph.stated}
        aliases = {name: of for name in named if (of := names.symbol(name)) != name}
        relations = _at_steps(usable, plain, aliases, stepped.steps(named))
    if relations.items:
        result.checks, result.complete = checks.infer(lesson, relations, paragraphs, written)
    return result, paragraphs


def _at_steps(
    usable: Relations,
    plain: list[tuple[int, int, Relation]],
    aliases: dict[str, str],
    steps: dict[str, set[int]],
) -> Relations:
    """`usable` and every relation taken at each step the prose names a value at (keys of
    their own past the lesson's, `origins` mapping them back); `aliases`: each step's value
    the prose names -> the stepped symbol it is of."""
    found = Relations(list(usable.items), dict(usable.sections), edges=usable.edges)
    found.aliases = aliases
    extra = 10_000  # no lesson has this many relations in one equation
    for equation, index, relation in plain:
        for letter, numbers in sorted(steps.items()):
            for step in sorted(numbers):
                taken = instances.at(relation, letter, step)
                if taken is None or not checks.solve.usable(taken):
                    continue
                if len(found.origins) >= instances.MAX_RELATIONS:
                    return found
                extra += 1
                found.items.append((equation, extra, taken))
                found.sections[(equation, extra)] = usable.sections.get((equation, index), -1)
                found.origins[(equation, extra)] = (equation, index)
    return found


def found(
    lesson: Lesson, entries: list[Entry], written: Spans = frozenset()
) -> tuple[list[Found], bool]:
    """Every check inferred in `lesson`, as the report needs it: the statement checks, then
    the relations a worked computation writes out (`worked`) and relations over lists
    (`lists`) that no check verified at the same number; and whether inference finished
    before its time limit. `written`: the content spans of numbers written claims bind;
    a paragraph holding only such numbers is not searched for checks (the written claims
    win there), though its values still count in its section."""
    inference, more = _all(lesson, entries, written)
    result = [plain(check, lesson) for check in inference.checks]
    return result + [check for check, _ in more], inference.complete


def offered(lesson: Lesson, entries: list[Entry]) -> tuple[list[Inferred], list[Pin]]:
    """What `atlas-build infer` offers as claims, from one run of inference: the statement
    checks, and the claims that restate `found`'s worked and list checks."""
    inference, more = _all(lesson, entries)
    return inference.checks, [pin for _, pin in more if pin is not None]


def _all(
    lesson: Lesson, entries: list[Entry], written: Spans = frozenset()
) -> tuple[Inference, list[tuple[Found, Pin | None]]]:
    """The statement checks, and the worked and list checks verifying no number they
    verify."""
    usable = _usable(lesson, entries)
    parsed = [(e.equation, e.relation, e.parsed) for e in entries if e.parsed is not None]
    inference, paragraphs = _run(lesson, usable, parsed, written)
    held = {(c.equation, c.index, (c.anchor.start, c.anchor.end)) for c in inference.checks
            if c.holds}  # fmt: skip
    over = lists.forms(lesson, parsed)
    if over and not paragraphs:
        paragraphs = statements.paragraphs(lesson)  # read only when some relation needs it
    more: list[tuple[Found, Pin | None]] = []
    for check, pin in [*worked.matched(lesson, usable, paragraphs),
                       *lists.matched(lesson, over, paragraphs)]:  # fmt: skip
        if (check.equation, check.index, check.anchor) not in held:
            more.append((check, pin))
            held.add((check.equation, check.index, check.anchor))
    return inference, more


def _usable(lesson: Lesson, entries: list[Entry]) -> Relations:
    """The relations inference evaluates, and the section each is displayed in."""
    found = [
        (entry.equation, entry.relation, checks.solve.plain(entry.parsed))
        for entry in entries
        if entry.parsed is not None
    ]
    sections = {}
    for entry in entries:
        heading = lesson.section_of(entry.offset)
        sections[(entry.equation, entry.relation)] = heading.start if heading is not None else -1
    usable = [item for item in found if checks.solve.usable(item[2])]
    return Relations(usable, sections, edges=_edges(entries) | _conditional(lesson, entries))


_BOUNDS = frozenset({"<", "<=", ">", ">="})


def _edges(entries: list[Entry]) -> set[tuple[int, int]]:
    """The equalities whose two sides an inequality of the same equation relates too."""
    bounded = {
        (entry.equation, frozenset((entry.parsed.lhs, entry.parsed.rhs)))
        for entry in entries
        if entry.parsed is not None and entry.parsed.op in _BOUNDS
    }
    return {
        (entry.equation, entry.relation)
        for entry in entries
        if entry.parsed is not None
        and entry.parsed.op == "="
        and (entry.equation, frozenset((entry.parsed.lhs, entry.parsed.rhs))) in bounded
    }


def _conditional(lesson: Lesson, entries: list[Entry]) -> set[tuple[int, int]]:
    """The equalities followed by the condition they hold under, in parentheses:
    `M_0=160\\times10^{-7}f_0d_m^3\\quad(\\nu n<2000)` is one case of a model whose other
    case the prose may work out instead."""
    conditions = {
        (entry.equation, entry.relation)
        for entry in entries
        if entry.parsed is not None
        and entry.parsed.op in _BOUNDS
        and lesson.content[: entry.offset].rstrip().endswith("(")
    }
    return {
        (entry.equation, entry.relation)
        for entry in entries
        if entry.parsed is not None
        and entry.parsed.op == "="
        and (entry.equation, entry.relation + 1) in conditions
    }


def plain(check: Inferred, lesson: Lesson) -> Found:
    """`check` as a `Found`; the A430's message, with the value the relation computes,
    only for a failing check atlas-build is certain of (the one that reports it)."""
    anchor = check.anchor
    summary = f"equation {check.equation} `{check.source}`: {check.bindings}"
    error = None
    if not check.holds and check.certain:
        check.computed = model.computed(check, lesson_units(lesson))
        error = (
            f"equation {check.equation} `{check.source}` at the values this paragraph states "
            f"({check.bindings}): {check.label(anchor.name)} is not {anchor.quantity.text}"
        )
    inputs = tuple((s.start, s.end) for s in check.used if s is not anchor and s.end > s.start)
    return Found(
        check.equation,
        check.index,
        check.holds,
        check.certain,
        (anchor.start, anchor.end),
        inputs,
        summary,
        error,
    )


def diagnose(found: Found, locator: Locator) -> Diagnostic:
    """The A430 at the number a certain check found wrong."""
    assert found.error is not None
    return at(INFERRED, locator.content(found.anchor[0]), found.error)
