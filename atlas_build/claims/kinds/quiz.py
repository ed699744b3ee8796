"""quiz: a "Check your understanding" answer must agree with a fact another claim computed."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

import sympy
from pydantic import Field

from atlas_build.claims.binding import anchors
from atlas_build.claims.binding.compare import compare, show
from atlas_build.claims.binding.options import unit_conflict
from atlas_build.claims.kinds import _words
from atlas_build.claims.prose import numbers
from atlas_build.claims.running.registry import (
    LEVEL,
    ClaimError,
    Context,
    Outcome,
    Params,
    kind,
    quantity_unit,
)
from atlas_build.lesson.model import Quiz
from atlas_build.lesson.symbols import name_of
from atlas_build.units import DIMENSIONLESS, UnitError, convertible, units_of


class QuizParams(Params):
    question: str = Field(
        min_length=3, description="text contained in exactly one quiz question of the lesson"
    )
    fact: str | Annotated[list[str], Field(min_length=1, max_length=8)] = Field(
        description="`claim-id.quantity` (indexed as `id.name[0]`) the right answer states;"
        " a list (`[worked.low, worked.high]`) when it states several numbers (`0.5 and"
        " 1.5`): each fact by a number of its own, and every other number it writes must"
        " restate an input of the facts' claims",
    )
    tolerance: float | None = Field(
        default=None,
        description="absolute tolerance, in the unit the option is written in (0.05 for"
        " `16.1 mV`; default: from the digits written)",
    )
    unit: str | None = Field(
        default=None,
        description="unit of the fact (`bytes`) when the options write KiB, MiB...; by default"
        " the unit its claim worked out or the symbol table gives (a fact the table gives a"
        " unit takes only that unit, in any spelling: another is A404)",
    )
    unique: bool = Field(default=True, description="no other option may state the fact")
    ratio: bool = Field(
        default=False,
        description="the fact is a ratio, and an option without a number that is only a"
        " ratio in words states it: `Doubles it` 2, `Triples it` 3, `Quadruples it` 4,"
        " `Halves it` or `Cuts it in half` 1/2, `Quarters it` 1/4, `Falls to an eighth` 1/8,"
        " `Unchanged` 1; `To 50% of it` states 1/2",
    )


_WORDS = (
    (r"doubles|doubled|twice as (?:large|much|long)", sympy.Integer(2)),
    (r"triples|tripled", sympy.Integer(3)),
    (r"quadruples|quadrupled", sympy.Integer(4)),
    (r"halves|halved|half as (?:large|much|long)|cuts it in half", sympy.Rational(1, 2)),
    (r"quarters|quartered|(?:cuts it to|falls to) a quarter(?: of it)?", sympy.Rational(1, 4)),
    (r"(?:cuts it to|falls to) an eighth(?: of it)?", sympy.Rational(1, 8)),
    (r"(?:is |stays |remains |leaves it )?unchanged|(?:stays|remains) the same|does not change"
     r"|no change",
     sympy.Integer(1)),
)  # fmt: skip
# The whole option must be the ratio word (with an optional `it`): `Less than doubles it`
# or `Doubles n, not P` state something else and are not read as 2.
_WORD = [
    (re.compile(rf"(?:it\s+|they\s+)?(?:{words})(?:\s+(?:it|them))?[.!]?", re.I), value)
    for words, value in _WORDS
]


def _ratio_word(text: str) -> numbers.Quantity | None:
    """The ratio an option states in words (`Doubles it` is 2), exact; None unless the
    whole option is such a phrase."""
    stripped = " ".join(text.split())
    for pattern, value in _WORD:
        if pattern.fullmatch(stripped):
            return numbers.Quantity(value, stripped, 0, len(stripped), decimals=None)
    return None


@dataclass
class QuizOutcome(Outcome):
    """A quiz's outcome, with a class for numbers of its question and right options
    (content spans): `input` where they restate an input of the claims its facts come
    from, as a bound number the claim fixes is, `failed` where the question gives an
    input by name another value than the claim does."""

    spots: list[tuple[int, int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _Fact:
    """One quantity the right answer states, in the unit it is compared in."""

    reference: str
    value: Any
    unit: str | None
    presumed: bool  # a unit worked out from the expression's symbols, not the table's
    pure: bool  # a ratio or a level: no dimensioned option states it

    @property
    def stated(self) -> str:
        return f"{show(self.value)} {self.unit}" if self.unit else show(self.value)


_MOST = 8  # numbers of an option matched to facts (an option holds a few; tried in order)
_SAID = re.compile(r"([^\s=≈(,;:]+)\s*(?:=|≈|\bis)\s*$")


@kind("quiz", QuizParams, cacheable=False)
def run(params: QuizParams, context: Context) -> Outcome:
    """The stated answer, and only that option, agrees with the referenced quantity."""
    matches = [quiz for quiz in context.lesson.quizzes if params.question in quiz.question]
    if len(matches) != 1:
        raise ClaimError(f"{len(matches)} quizzes have a question containing {params.question!r}")
    quiz = matches[0]
    references = [params.fact] if isinstance(params.fact, str) else list(params.fact)
    if len(set(references)) != len(references):
        raise ClaimError(f"fact lists a quantity twice: {references}", pointer="/params/fact")
    sources: dict[str, Outcome] = {}
    facts = []
    for reference in references:
        facts.append(_fact(reference, params, context, sources))
    stated = " and ".join(fact.stated for fact in facts)
    values = [fact.value for fact in facts]
    outcome = QuizOutcome(quantities={"fact": values[0] if len(values) == 1 else values})
    tabled = bool(context.lesson.glossaries)  # without a symbol table no unit is claimed
    inputs = _inputs(sources, context)
    loose: list[str] = []

    def use(item: numbers.Item, fact: _Fact) -> str | None:
        """The unit `item` is compared with `fact` in. A unit worked out from the fact's
        symbols converts an answer of its dimension (so `795.8 kHz` for 795.8 Hz is
        wrong); an answer in another dimension is compared bare."""
        written = getattr(item, "unit", None)
        return fact.unit if not fact.presumed or convertible(written, fact.unit) else None

    def states(item: numbers.Item, fact: _Fact) -> bool:
        written = getattr(item, "unit", None)
        if fact.pure and written is not None:
            # A pure number (a ratio, a level in dB) is not stated by `6.02 kHz`, and `50%`
            # states 0.5 of it, not 50.
            if written == "%":
                return compare(item, fact.value, tolerance=params.tolerance, unit="1").ok
            if tabled and _dimension(written) not in (DIMENSIONLESS, False):
                return False
        return compare(item, fact.value, tolerance=params.tolerance, unit=use(item, fact)).ok

    def reading(text: str) -> tuple[list[tuple[numbers.Item, _Fact]], list[numbers.Item]] | None:
        """How an option states every fact: each by a number of its own, every other
        number it writes restating an input (`6, from x = 3`); None when it does not."""
        items: list[numbers.Item] = list(numbers.extract(text))
        if len(facts) > 1:  # `[0.5, 1.5]` states two facts as `0.5 and 1.5` does
            items = [q for item in items for q in _members(item)]
        if not items and params.ratio and len(facts) == 1:
            word = _ratio_word(text)
            items = [word] if word is not None else []
        if not len(facts) <= len(items) <= _MOST:
            return None
        fits = [[states(item, fact) for fact in facts] for item in items]
        for chosen in itertools.permutations(range(len(items)), len(facts)):
            if not all(fits[i][j] for j, i in enumerate(chosen)):
                continue
            rest = [item for i, item in enumerate(items) if i not in chosen]
            if all(_restates(item, inputs) for item in rest):
                return [(items[i], facts[j]) for j, i in enumerate(chosen)], rest
        return None

    if quiz.answer is None or quiz.answer_offset is None:
        raise ClaimError(f"quiz {quiz.question!r} states no answer", quiz.offset)
    right = []
    for text, offset in quiz.options:
        read = reading(text)
        if read is not None:
            right.append((text, offset, read[1]))
    answer = reading(quiz.answer)
    wrong = quiz.answer_offset
    written = numbers.extract(quiz.answer)
    if answer is None and len(written) > 1:  # at the number that states no fact or input
        for item in written:
            if not any(states(q, f) for q in (item, *_members(item)) for f in facts):
                if not _restates(item, inputs):
                    wrong += item.start
                    break
    outcome.check(
        "answer-agrees",
        answer is not None,
        f"answer {quiz.answer!r} should state {stated}",
        wrong,
    )
    for item, fact in answer[0] if answer is not None and params.tolerance is not None else ():
        if not compare(item, fact.value, unit=use(item, fact), approximate=True).ok:
            loose.append(
                f"the answer {quiz.answer!r} agrees with {fact.stated} only within tolerance "
                f"{params.tolerance:g}, looser than the digits it is written to"
            )
    outcome.loose += loose
    if answer is not None and not loose:
        end = quiz.answer_end or quiz.answer_offset + len(quiz.answer)
        outcome.verified_at.append((quiz.answer_offset, end))
        outcome.spots += _spans(answer[1], quiz.answer, quiz.answer_offset, context)
        ends = [offset for _, offset in quiz.options[1:]] + [quiz.options_end or quiz.offset]
        chosen = {(text, offset): rest for text, offset, rest in right}
        for (text, offset), stop in zip(quiz.options, ends, strict=False):
            if (text, offset) in chosen:
                outcome.verified_at.append((offset, stop))
                outcome.spots += _spans(chosen[(text, offset)], text, offset, context)
    _question_values(sources, context, quiz, outcome)
    _question_numbers(sources, inputs, context, quiz, outcome)
    if params.unique:
        outcome.check(
            "one-right-option",
            len(right) == 1,
            f"exactly one option should state {stated}; found {len(right)}",
            quiz.offset,
        )
    return outcome


def _fact(
    reference: str, params: QuizParams, context: Context, sources: dict[str, Outcome]
) -> _Fact:
    """The quantity `reference` names, its unit, and the claim it comes from (in `sources`)."""
    value = context.quantity(reference)
    claim_id, _, name = reference.partition(".")
    source = sources.setdefault(claim_id, context.resolve(claim_id))
    if name.split("[", 1)[0] in source.inputs:
        raise ClaimError(
            f"fact {reference} is a value claim {claim_id!r} fixes itself (its `values`, or "
            "an expression that restates a number), so the answer would only be compared "
            "with the claims file; make the fact a quantity the claim computes"
        )
    if params.unit and (conflict := unit_conflict(context.lesson, name, params.unit, "the quiz")):
        raise ClaimError(conflict, pointer="/params/unit")
    if params.ratio:  # a ratio has no unit, whatever its expression's symbols carry
        unit, presumed = None, False
    else:
        unit, presumed = (params.unit, False) if params.unit else context.unit(reference)
    pure = unit is None or unit == LEVEL or _dimension(unit) == DIMENSIONLESS
    return _Fact(reference, value, unit, presumed, pure)


def _members(item: numbers.Item) -> list[numbers.Item]:
    return list(item.items) if isinstance(item, numbers.NumberList) else [item]


def _spans(
    items: list[numbers.Item], text: str, offset: int, context: Context
) -> list[tuple[int, int, str]]:
    """The numbers `items` write in `text` (an option, which starts at or after `offset`:
    an option's offset is its list marker's), as restated inputs."""
    start = context.lesson.content.find(text, offset)
    if start < 0:
        return []
    return [(start + q.start, start + q.end, "input") for q in numbers.quantities(items)]


def _inputs(sources: dict[str, Outcome], context: Context) -> list[tuple[str, Any, str | None]]:
    """(name, value, unit) of every input of the claims the facts come from, a list
    input once per member (`x[2]`): the values a quiz may restate."""
    found = []
    for source in sources.values():
        for name in sorted(source.inputs):
            value = source.quantities.get(name)
            unit = quantity_unit(context.lesson, source, name)[0]
            if getattr(value, "is_number", False):
                found.append((name, value, unit))
            elif isinstance(value, (list, tuple)):
                found += [
                    (f"{name}[{index}]", member, unit)
                    for index, member in enumerate(value)
                    if getattr(member, "is_number", False)
                ]
    return found


def _agrees(said: numbers.Quantity, value: Any, unit: str | None) -> bool:
    """Whether a number the quiz writes is the input `value` (in `unit`): converted when
    both have a unit, else compared bare; never across dimensions."""
    if said.unit is None:
        return compare(said, value).ok
    dimension = _dimension(said.unit)
    if dimension is False or (unit is not None and _dimension(unit) != dimension):
        return False
    return compare(said, value, unit=unit).ok


def _restates(item: numbers.Item, inputs: list[tuple[str, Any, str | None]]) -> bool:
    """Whether every number `item` writes restates an input."""
    said = numbers.quantities([item])
    if not said or isinstance(item, numbers.Arithmetic):
        return False
    return all(any(_agrees(q, v, u) for _, v, u in inputs) for q in said)


def _question_numbers(
    sources: dict[str, Outcome],
    inputs: list[tuple[str, Any, str | None]],
    context: Context,
    quiz: Quiz,
    outcome: QuizOutcome,
) -> None:
    """Numbers the question writes: one that restates an input of the facts' claims is an
    input (`What is y when x is 3?`). An input the question gives by name (`x = 4`, `x is
    4`) must have the claim's value in one of the places it does (a question may compare
    the worked example's `m = 3` with `m = 10`), or the claim fails at each of them."""
    content = context.lesson.content
    start = content.find(quiz.question, quiz.offset)
    if start < 0:
        return
    end = start + len(quiz.question)
    scalars = {name: (value, unit) for name, value, unit in inputs if "[" not in name}
    named = {name: claim_id for claim_id, s in sources.items() for name in s.inputs}
    given: dict[str, list[tuple[numbers.Quantity, str, bool]]] = {}  # input -> where stated
    for item in anchors.skeleton(content).items:
        if item.start < start or item.end > end:
            continue
        for said in numbers.quantities([item]):
            found = _SAID.search(content, start, said.start)
            symbol = name_of(found.group(1)) if found is not None else None
            if found is not None and symbol in scalars:
                value, unit = scalars[symbol]
                given.setdefault(symbol, []).append(
                    (said, found.group(1), _agrees(said, value, unit))
                )
            elif any(_agrees(said, v, u) for _, v, u in inputs):
                outcome.spots.append((said.start, said.end, "input"))
    for symbol, places in given.items():
        value, unit = scalars[symbol]
        right = any(agrees for _, _, agrees in places)
        for said, written, agrees in places:
            if agrees:
                outcome.spots.append((said.start, said.end, "input"))
            elif not right:
                outcome.spots.append((said.start, said.end, "failed"))
                outcome.check(
                    "question-values",
                    False,
                    f"the question states {written} = {said.text}, but claim "
                    f"{named[symbol]!r} computes the answer from {symbol} = {show(value)}"
                    f"{_suffix(unit)}; state the question's values as the claim does",
                    said.start,
                )


def _question_values(
    sources: dict[str, Outcome], context: Context, quiz: Quiz, outcome: Outcome
) -> None:
    """A quantity the question states in words (`Nine tenths of the run time`) must be one
    of the inputs the facts were computed from (`sources`, the outcomes of their claims
    by id), where any input has its dimension: the answer is proved for those inputs,
    not for whatever the question says."""
    inputs = []
    for claim_id, source in sources.items():
        for name in sorted(source.inputs):
            value = source.quantities.get(name)
            if getattr(value, "is_number", False):
                unit = quantity_unit(context.lesson, source, name)[0]
                inputs.append((claim_id, name, value, unit))
    start = context.lesson.content.find(quiz.question, quiz.offset)
    for said in _words.stated(quiz.question):
        dimension = _dimension(said.unit)
        if dimension is False:
            continue
        alike = [(c, n, v, u) for c, n, v, u in inputs if u is None or _dimension(u) == dimension]
        if not alike:
            continue
        if any(compare(said, v, unit=u if said.unit and u else None).ok for _, _, v, u in alike):
            continue
        claims = " and ".join(repr(c) for c in dict.fromkeys(c for c, _, _, _ in alike))
        given = ", ".join(f"{n} = {show(v)}{_suffix(u)}" for _, n, v, u in alike)
        outcome.check(
            "question-values",
            False,
            f"the question states {said.text!r}, but claim {claims} computes the answer "
            f"from {given}; state the question's values as the claim does",
            start + said.start if start >= 0 else quiz.offset,
        )


def _dimension(unit: str | None) -> object:
    """The dimension of a unit (None: a pure number); False when it cannot be read."""
    if unit is None:
        return DIMENSIONLESS
    try:
        return units_of(unit).dimension
    except UnitError:
        return False


def _suffix(unit: str | None) -> str:
    return f" {unit}" if unit and unit != "dimensionless" else ""
