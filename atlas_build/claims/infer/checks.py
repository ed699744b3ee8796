"""Checks inferred from a lesson's own equations and the values its prose states.

In each section, paragraphs are taken in reading order. A symbol gets a value where the
prose states it by name (`statements`), and each symbol keeps the value stated last; a
physical constant the glossary names has its value from the start (`constants`).
Numbers written with a unit and no symbol (`dissipates 45 W`) are bound where they single
a symbol out (`loose.Binder`). A relation with one symbol left open is solved for it, and the
value carried into the relations that use it (a chain: the flow from the power and the
rise, then the outlet temperature from the flow). When the values complete a relation
and one of them was written in the current paragraph, the relation is evaluated there:
it holds within the written precision of its numbers, read in the glossary's units or in
base units, or it does not. A relation the named values leave one symbol open in is
verified where one precise number of the paragraph is the value it computes (`by_value`);
one left two or three open, where one choice of such numbers makes it hold (`jointly`).

A relation that holds is verified by the lesson's own example, and the number that
completed it (the last one written: the result the sentence works out) is verified; the
others are its inputs. Where the relation would hold with that number well off, it proves
nothing of it (`values.hollow`): the check is at an earlier number of the paragraph the
relation does depend on, or there is none. A relation that does not hold is an error at
that number only when atlas-build is certain: every value was stated by name in the section
(givens in one paragraph, results in the next), or is the only number of the only glossary
symbol of its dimension in the same paragraph (or list item), none of them before some
symbol took a second value (a second scenario starts there: "if traffic grows to 112.5
requests/s, ρ = 0.9"), the paragraph gives none of the relation's symbols two values (it
holds several scenarios: "binary32 has p = 24 ..., FP16 has p = 11"), its values are not on
both sides of a sentence opening another case ("If accesses range over 12 GiB, m ≈ 0.75"),
no value comes from an earlier paragraph that gave its symbol several values,
no value was solved from another relation, the relation is displayed in the paragraph's
own section or is the lesson's only definition of its symbol (`W = 2MNK` for a matrix
product and `W = n` for an elementwise one model different cases), no value is a step of a
recurrence (`instances`), and another check of the same paragraph held (the reading of the
example is right).
Otherwise nothing is said: the lesson is not proved there, and not accused.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import sympy

from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.claims.infer import constants, joint, loose, solve, statements
from atlas_build.claims.infer import values as valued
from atlas_build.claims.infer.model import Inferred, Relations
from atlas_build.claims.infer.statements import Loose, Paragraph, Stated
from atlas_build.claims.infer.values import Known, known
from atlas_build.latex import Relation
from atlas_build.lesson.model import Lesson
from atlas_build.units import UnitSpec

MAX_CHECKS = 400  # per lesson: evaluation stays bounded on hostile input
MAX_SECONDS = 5.0  # per lesson: inference stops (keeping what it found) past this
CHAIN = 3  # rounds of solving for open symbols before a relation is evaluated
_GIVEN = (statements.NAME, statements.DIMENSION, statements.MEANING, statements.CONSTANT)
_SURE = (statements.NAME, statements.CONSTANT)  # bound certainly, in any paragraph


def _sections(lesson: Lesson, paragraphs: list[Paragraph]) -> list[list[Paragraph]]:
    """Paragraphs grouped by the section (any heading) they are written in."""
    groups: dict[int, list[Paragraph]] = {}
    for paragraph in paragraphs:
        heading = lesson.section_of(paragraph.start)
        groups.setdefault(heading.start if heading is not None else -1, []).append(paragraph)
    return [groups[key] for key in sorted(groups)]


@dataclass
class _Scene:
    """The values a section has stated so far, and the scenario each was stated in."""

    env: dict[str, Known] = field(default_factory=dict)
    generation: dict[str, int] = field(default_factory=dict)
    current: int = 0

    def state(self, item: Known) -> None:
        before = self.env.get(item.name)
        if (
            before is not None
            and before.readings[0].value != item.readings[0].value
            and (before.stated is None or before.stated.how != statements.CONSTANT)
        ):
            self.current += 1  # a symbol takes a second value: another scenario starts
        self.env[item.name] = item
        self.generation[item.name] = self.current

    def copy(self) -> _Scene:
        return _Scene(dict(self.env), dict(self.generation), self.current)

    def fresh(self, statements_: Iterable[Stated]) -> bool:
        return all(self.generation.get(s.name) == self.current for s in statements_)


class _Run:
    def __init__(self, lesson: Lesson, relations: Relations) -> None:
        self.lesson, self.relations = lesson, relations
        self.table = lesson_units(lesson)
        entries = [entry for glossary in lesson.glossaries for entry in glossary.entries]
        self.labels = statements.labels(lesson)
        self.found: list[Inferred] = []
        self.complete = True
        self.choices = joint.Search()
        self.symbols = {(e, i): set(solve.symbols(r)) for e, i, r in relations.items}
        self.seen: set[tuple[int, int, tuple[int, ...]]] = set()
        self.derived: dict[tuple[object, ...], tuple[object, Known | None]] = {}
        self.several: dict[int, set[str]] = {}  # paragraph -> symbols it gives two values
        self.stating: dict[int, set[str]] = {}  # paragraph -> symbols it states at all
        self.cases: dict[int, list[int]] = {}  # paragraph -> where its conditional sentences start
        # relations solved for a symbol, searched for its value once binding is done
        self.pending: list[tuple[Paragraph, tuple[int, int], Relation, dict[str, Known], set[int]]]
        self.pending = []
        meanings = {
            name: statements.meaning_words(entry.meaning)
            for entry in entries
            for name in entry.names
        }
        self.glossary = loose.Glossary.of(self.table, meanings)

    def section_of(self, offset: int) -> int:
        heading = self.lesson.section_of(offset)
        return heading.start if heading is not None else -1

    def survey(self, paragraph: Paragraph) -> None:
        """Symbols the paragraph states with more than one value: it holds several
        scenarios of them (binary32 and binary64, `p = 24` and `p = 53`); and every symbol
        it states (`restated`)."""
        values: dict[str, set[sympy.Expr]] = {}
        for item in paragraph.stated:
            if item.value is not None:
                values.setdefault(item.name, set()).add(item.value)
        self.several[paragraph.start] = {name for name, found in values.items() if len(found) > 1}
        self.stating[paragraph.start] = {item.name for item in paragraph.stated}

    def carried_case(self, paragraph: Paragraph, used: Iterable[Stated]) -> bool:
        """Whether a value comes from an earlier paragraph that gave its symbol several
        values (`with tying (τ = 1) …; without it (τ = 0)`): which case a later paragraph
        is in, its words say (`With tying, P = …`), not the last value stated."""
        return any(
            s.paragraph != paragraph.start and s.name in self.several.get(s.paragraph, set())
            for s in used
        )

    def restated(self, paragraph: Paragraph, used: Iterable[Stated]) -> bool:
        """Whether a value comes from before the paragraph for a symbol the paragraph
        states itself (`Targets: f₀ = 1 kHz, Q = 5`, then `R₃ = 158 kΩ … f₀ ≈ 1006 Hz,
        Q ≈ 4.99`): the paragraph works its own case of that symbol, and a check made
        before its value arrives mixes the two."""
        names = self.stating.get(paragraph.start, set())
        return any(s.paragraph != paragraph.start and s.name in names for s in used)

    def until(self, before: _Scene, paragraph: Paragraph, end: int) -> _Scene:
        """The section's values as a sentence of `paragraph` ending at `end` reads them: those
        before the paragraph, then what the paragraph states up to there (`A 75 Ω load on a
        50 Ω line gives Γ = 0.2 … a short gives Γ = −1`: the first sentence's Γ is 0.2)."""
        scene = before.copy()
        for item in paragraph.stated:
            if item.start < end and (value := self.known(item)) is not None:
                scene.state(value)
        return scene

    def straddles(self, paragraph: Paragraph, used: list[Stated]) -> bool:
        """Whether the values come from both sides of a sentence that opens another case
        (`statements.conditionals`)."""
        if paragraph.start not in self.cases:
            self.cases[paragraph.start] = statements.conditionals(paragraph, self.lesson.content)
        mine = [s.start for s in used if s.paragraph == paragraph.start]
        cuts = self.cases[paragraph.start]
        return bool(mine) and any(min(mine) < cut <= max(mine) for cut in cuts)

    def known(self, stated: Stated) -> Known | None:
        return known(stated, self.spec(stated.name))

    def spec(self, name: str) -> UnitSpec | None:
        return self.table.get(self.relations.aliases.get(name, name))

    def derive(
        self, key: tuple[int, int], relation: Relation, name: str, given: dict[str, Known]
    ) -> Known | None:
        """`_derive`, once per relation and set of values: every number a paragraph states
        closes the whole scene again, and most of what it solves was solved before. The
        memo keeps the values it was keyed by, so no key outlives its objects' ids."""
        inputs = tuple(sorted(given.items()))
        memo = (key, name, tuple((n, id(k)) for n, k in inputs))
        if memo not in self.derived:
            self.derived[memo] = (inputs, valued.solved(key, relation, name, given))
        return self.derived[memo][1]

    def close(self, values: dict[str, Known]) -> dict[str, Known]:
        """`values` with the symbols relations give them solved for, a few rounds deep."""
        closed = dict(values)
        for _ in range(CHAIN):
            grown = False
            for equation, index, relation in self.relations.items:
                names = solve.symbols(relation)
                open_ = [name for name in names if name not in closed]
                if len(open_) != 1:
                    continue
                given = {n: closed[n] for n in names if n in closed}
                derived = self.derive((equation, index), relation, open_[0], given)
                if derived is not None:
                    closed[open_[0]] = derived
                    grown = True
            if not grown:
                break
        return closed

    def evaluate(
        self,
        scene: _Scene,
        paragraph: Paragraph,
        closed: dict[str, Known],
        new: list[Stated],
        certain: bool = True,
    ) -> None:
        """Every relation the values complete that holds a number this paragraph wrote;
        `closed` is the values with what relations solve from them (`close`), `certain`
        False when its bindings are never certain (one sentence of several)."""
        mine = {s.start for s in new}
        for equation, index, relation in self.relations.items:
            names = solve.symbols(relation)
            if any(name not in closed for name in names):
                continue
            sources = {key for name in names for key in closed[name].relations}
            if any(self.symbols.get(key) == set(names) for key in sources):
                self.pending.append((paragraph, (equation, index), relation, closed, mine))
                continue  # solved from this relation, or one in the same symbols: no proof
            used = [s for name in sorted(names) for s in closed[name].statements]
            direct = [closed[name].stated for name in names if closed[name].stated is not None]
            if not any(s is not None and s.start in mine for s in direct):
                continue
            key = (equation, index, tuple(sorted({s.start for s in used})))
            if key in self.seen or len(self.found) >= MAX_CHECKS:
                continue
            self.seen.add(key)
            at = {n: closed[n] for n in names}
            # the number the check is at: the last one written that the relation depends on
            # (a sum barely moved by 0.020 ms of 12.69 ms proves nothing of the 0.020 ms)
            here = (
                s
                for s in direct
                if s is not None and (s.start in mine or s.paragraph == paragraph.start)
            )
            anchors = sorted(here, key=lambda s: (s.start not in mine, -s.start))  # fmt: skip
            holds = valued.holds(relation, at, anchors[0])
            if holds is None:
                continue
            anchor = next(
                (a for a in anchors if not (holds and valued.hollow(relation, at, a))), None
            )
            if (
                anchor is None
                or anchor is not anchors[0]
                and not valued.holds(relation, at, anchor)
            ):
                continue
            derived = sorted(n for n in names if closed[n].stated is None)
            check = Inferred(equation, index, relation, anchor, list(dict.fromkeys(used)), holds,
                             derived, labels=self.labels)  # fmt: skip
            spec = self.spec(anchor.name)
            check.unit = spec.text if spec is not None and spec.units is not None else ""
            home = self.relations.sections.get((equation, index))
            check.certain = (
                certain
                and (equation, index) not in self.relations.origins  # a step read off a subscript
                and relation.op != "approx"  # how approximate it is, the lesson does not say
                and not _a_case(relation)
                and (equation, index) not in self.relations.edges
                and not derived  # a value solved from another relation may be another case's
                and all(s.how in (*_SURE, statements.DIMENSION) for s in check.used)
                and all(s.paragraph == paragraph.start or s.how in _SURE for s in check.used)
                and scene.fresh(s for s in check.used if s.how == statements.NAME)
                and not self.several.get(paragraph.start, set()) & set(names)
                and not self.carried_case(paragraph, check.used)
                and not self.restated(paragraph, check.used)
                and not self.straddles(paragraph, check.used)
                and (
                    home == self.section_of(paragraph.start)
                    or not self.relations.rivals(equation, index)
                )
                and (holds or valued.slipped(relation, at))
            )
            self.found.append(check)

    def search(self) -> None:
        """The relations left with one symbol open, searched for its value (`by_value`)."""
        for pending in self.pending:
            self.by_value(*pending)
        self.pending.clear()

    def by_value(
        self,
        paragraph: Paragraph,
        key: tuple[int, int],
        relation: Relation,
        closed: dict[str, Known],
        mine: set[int],
    ) -> None:
        """A relation whose one open symbol the others (stated, one of them in this
        paragraph, or solved from other relations) solve for: verified when one number of
        the paragraph, of that symbol's kind and written precisely (`loose.by_value`), is
        the value it computes (`for a 50% delay of ≈ 166 ps` after R_d, C_w, C_L and R_w
        are stated). Never an error: a number found by its value is not certain to be that
        symbol's. Searched after the paragraph's numbers are bound, so a number bound by
        name, dimension or meaning keeps that check (which can be certain)."""
        names = solve.symbols(relation)
        open_ = [n for n in names if key in closed[n].relations]
        if len(open_) != 1 or closed[open_[0]].relations != frozenset({key}):
            return
        given = {n: closed[n] for n in names if n != open_[0]}
        if not all(s.how in _GIVEN for k in given.values() for s in k.statements):
            return
        if not any(k.stated is not None and k.stated.start in mine for k in given.values()):
            return
        used = list(dict.fromkeys(s for k in given.values() for s in k.statements))
        derived = sorted(n for n, k in given.items() if k.stated is None)

        exact = {n: valued.exact(k) for n, k in given.items()}
        solved = closed[open_[0]].readings

        taken = {s.start for s in used}

        def agrees(candidate: Stated) -> bool:
            if candidate.start in taken:
                return False  # a number is one symbol's: `R_T = R_F` is no proof of 4.35 kΩ
            value = self.known(candidate)
            if value is None or not any(
                valued.near(mine.value, theirs.value)
                for mine, theirs in zip(value.readings, solved, strict=True)
            ):
                return False  # far from what the relation gives: no need to evaluate it
            at = {**exact, open_[0]: value}
            return bool(valued.holds(relation, at, candidate)) and not valued.hollow(
                relation, at, candidate
            )

        found = loose.by_value(self.glossary, paragraph, open_[0], agrees)
        if found is None or len(self.found) >= MAX_CHECKS:
            return
        seen = (*key, tuple(sorted({s.start for s in used} | {found.start})))
        if seen in self.seen:
            return
        self.seen.add(seen)
        used = sorted([*used, found], key=lambda s: s.name)
        self.found.append(Inferred(*key, relation, found, used, True, derived, labels=self.labels))

    def read_loose(
        self, scene: _Scene, paragraph: Paragraph, earlier: list[Loose], certain: bool = True
    ) -> None:
        """Binds the paragraph's numbers written without a symbol (`bind`) and evaluates the
        relations they complete with the section's values."""
        if not paragraph.loose:
            return  # nothing to bind, nothing to find by value
        bound = self.bind(scene, paragraph, earlier)
        values = dict(scene.env)
        values.update({s.name: k for s in bound if (k := self.known(s)) is not None})
        closed = self.close(values)  # once, for the bound numbers' checks and the search
        if bound:
            self.evaluate(scene, paragraph, closed, bound, certain)
        self.jointly(paragraph, closed)

    def jointly(self, paragraph: Paragraph, closed: dict[str, Known]) -> None:
        """Relations two or three symbols short of their values, completed by the one
        choice of the paragraph's precise numbers at which they hold (`joint`). Never an
        error: numbers found by value are not certain to be the symbols'."""
        for equation, index, relation in self.relations.items:
            names = solve.symbols(relation)
            open_ = sorted(name for name in names if name not in closed)
            if not joint.wanted(relation, open_, self.choices) or len(self.found) >= MAX_CHECKS:
                continue
            given = {n: closed[n] for n in names if n in closed}
            if not all(s.how in _GIVEN for k in given.values() for s in k.statements):
                continue
            candidates = joint.in_paragraph(self.glossary, paragraph)
            found = joint.choose(relation, given, open_, candidates, self.known, self.choices)
            if found is None:
                continue
            anchor, numbers = found
            used = sorted({*(s for k in given.values() for s in k.statements), *numbers},
                          key=lambda s: s.name)  # fmt: skip
            key = (equation, index, tuple(sorted(s.start for s in used)))
            if key in self.seen:
                continue
            self.seen.add(key)
            derived = sorted(n for n, k in given.items() if k.stated is None)
            check = Inferred(equation, index, relation, anchor, used, True, derived,
                             labels=self.labels, joint=True)  # fmt: skip
            self.found.append(check)

    def bind(self, scene: _Scene, paragraph: Paragraph, earlier: list[Loose]) -> list[Stated]:
        """Numbers written without a symbol, bound where they single a symbol out: for
        each relation, its open symbols from this paragraph's numbers (or, for a dimension
        it has none of, the section's earlier ones)."""
        found: dict[int, Stated] = {}
        for _, _, relation in self.relations.items:
            names = solve.symbols(relation)
            open_ = [n for n in sorted(names) if n not in scene.env]
            if not open_ or not paragraph.loose:
                continue
            chosen = loose.Binder(self.glossary, paragraph, earlier).bind(open_)
            for stated in chosen.values():
                found.setdefault(stated.start, stated)
        return sorted(found.values(), key=lambda s: s.start)


Spans = frozenset[tuple[int, int]]
"""Content spans (start, end) of numbers."""


def _claimed(paragraph: Paragraph, written: Spans) -> bool:
    """Whether every number of the paragraph lies in a span a written claim binds: a check
    anchored there would give way to the written claim, so none is searched for."""
    spans = [item.quantity for item in paragraph.stated]
    spans += [item.quantity for item in paragraph.loose]
    return bool(spans) and all(
        any(low <= q.start and q.end <= high for low, high in written) for q in spans
    )


def infer(
    lesson: Lesson, relations: Relations, paragraphs: list[Paragraph], written: Spans = frozenset()
) -> tuple[list[Inferred], bool]:
    """Every relation a paragraph's numbers complete, evaluated there (see the module
    docstring), and whether every section was read before the time limit; paragraphs whose
    every number a written claim binds (`written`) only lend their values to the section."""
    run = _Run(lesson, relations)
    deadline = time.monotonic() + MAX_SECONDS
    known_constants = constants.known_constants(lesson, run.table)
    for section in _sections(lesson, paragraphs):
        if time.monotonic() > deadline:
            run.complete = False
            break  # a lesson too dense to infer in time keeps the checks found so far
        scene = _Scene(dict(known_constants))
        earlier: list[Loose] = []
        for paragraph in section:
            run.survey(paragraph)
            claimed = bool(written) and _claimed(paragraph, written)
            before = scene.copy()
            for item in paragraph.stated:
                value = run.known(item)
                if value is None:
                    continue
                scene.state(value)
                if not claimed:
                    run.evaluate(scene, paragraph, run.close(scene.env), [item])
            if claimed:
                earlier = list(paragraph.loose) + earlier
                continue
            run.read_loose(scene, paragraph, earlier)
            run.search()
            for part in statements.sentences(paragraph, lesson.content):
                run.read_loose(run.until(before, paragraph, part.end), part, [], certain=False)
                run.search()  # one sentence, one case: with the values stated up to its end
            earlier = list(paragraph.loose) + earlier
    found = _unshared(run.found)
    _corroborate(found)
    for check in found:  # a relation taken at a step is reported as the relation itself
        check.equation, check.index = relations.origins.get(
            (check.equation, check.index), (check.equation, check.index)
        )
    return found, run.complete


def _unshared(found: list[Inferred]) -> list[Inferred]:
    """The checks, less those whose numbers were found by value and are the very numbers
    of another check: `34,900 bytes`, `8192` and `4.26 bytes/token` fit `L_bytes = r·L_tok`
    and `T_train = B_corpus/r` alike, so they prove neither."""
    spans: dict[frozenset[int], int] = {}
    for check in found:
        key = frozenset(s.start for s in check.used)
        spans[key] = spans.get(key, 0) + 1
    return [c for c in found if not (c.joint and spans[frozenset(s.start for s in c.used)] > 1)]


def _a_case(relation: Relation) -> bool:
    """`n = 1` or `R_T = R_s` displayed (`κ = 3Δα ΔT/(2h)  (m = n = 1)`; `P ≤ V²/(4R_s)
    (equality at R_T = R_s)`): the case a form holds in, or a constant, not what the
    prose's n, or its R_T at another temperature, must be."""
    sides = (relation.lhs, relation.rhs)
    return any(isinstance(side, sympy.Symbol) for side in sides) and all(
        isinstance(side, sympy.Basic) and (side.is_number or isinstance(side, sympy.Symbol))
        for side in sides
    )


def _corroborate(found: list[Inferred]) -> None:
    """A failing check is certain only when another check of its paragraph held."""
    held = {check.anchor.paragraph for check in found if check.holds}
    for check in found:
        if not check.holds and check.anchor.paragraph not in held:
            check.certain = False
