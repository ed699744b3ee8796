"""quiz: a "Check your understanding" answer must agree with a fact another claim computed."""

from __future__ import annotations

import re

import sympy
from pydantic import Field

from atlas_build.claims import numbers
from atlas_build.claims.compare import compare, show
from atlas_build.claims.kinds import _words
from atlas_build.claims.options import unit_conflict
from atlas_build.claims.registry import (
    LEVEL,
    ClaimError,
    Context,
    Outcome,
    Params,
    kind,
    quantity_unit,
)
from atlas_build.lesson.model import Quiz
from atlas_build.units import DIMENSIONLESS, UnitError, convertible, units_of


class QuizParams(Params):
    question: str = Field(
        min_length=3, description="text contained in exactly one quiz question of the lesson"
    )
    fact: str = Field(
        description="`claim-id.quantity` (indexed as `id.name[0]`) the right answer states"
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


@kind("quiz", QuizParams, cacheable=False)
def run(params: QuizParams, context: Context) -> Outcome:
    """The stated answer, and only that option, agrees with the referenced quantity."""
    matches = [quiz for quiz in context.lesson.quizzes if params.question in quiz.question]
    if len(matches) != 1:
        raise ClaimError(f"{len(matches)} quizzes have a question containing {params.question!r}")
    quiz = matches[0]
    fact = context.quantity(params.fact)
    claim_id, _, name = params.fact.partition(".")
    source = context.resolve(claim_id)
    if name.split("[", 1)[0] in source.inputs:
        raise ClaimError(
            f"fact {params.fact} is a value claim {claim_id!r} fixes itself (its `values`, or "
            "an expression that restates a number), so the answer would only be compared "
            "with the claims file; make the fact a quantity the claim computes"
        )
    if params.unit and (conflict := unit_conflict(context.lesson, name, params.unit, "the quiz")):
        raise ClaimError(conflict, pointer="/params/unit")
    if params.ratio:  # a ratio has no unit, whatever its expression's symbols carry
        unit, presumed = None, False
    else:
        unit, presumed = (params.unit, False) if params.unit else context.unit(params.fact)
    stated = f"{show(fact)} {unit}" if unit else show(fact)
    outcome = Outcome(quantities={"fact": fact})
    tabled = bool(context.lesson.glossaries)  # without a symbol table no unit is claimed
    pure = unit is None or unit == LEVEL or _dimension(unit) == DIMENSIONLESS
    loose: list[str] = []

    def agrees(text: str) -> bool:
        items: list[numbers.Item] = list(numbers.extract(text))
        if not items and params.ratio:
            word = _ratio_word(text)
            items = [word] if word is not None else []
        if len(items) != 1:
            return False
        written = getattr(items[0], "unit", None)
        if pure and written is not None:
            # A pure number (a ratio, a level in dB) is not stated by `6.02 kHz`, and `50%`
            # states 0.5 of it, not 50.
            if written == "%":
                return compare(items[0], fact, tolerance=params.tolerance, unit="1").ok
            if tabled and _dimension(written) not in (DIMENSIONLESS, False):
                return False
        # A unit worked out from the fact's symbols converts an answer of its dimension (so
        # `795.8 kHz` for 795.8 Hz is wrong); an answer in another dimension is compared bare.
        use = unit if not presumed or convertible(written, unit) else None
        verdict = compare(items[0], fact, tolerance=params.tolerance, unit=use)
        if verdict.ok and params.tolerance is not None and text == quiz.answer:
            if not compare(items[0], fact, unit=use, approximate=True).ok:
                loose.append(
                    f"the answer {text!r} agrees with {stated} only within tolerance "
                    f"{params.tolerance:g}, looser than the digits it is written to"
                )
        return verdict.ok

    if quiz.answer is None or quiz.answer_offset is None:
        raise ClaimError(f"quiz {quiz.question!r} states no answer", quiz.offset)
    right = [(text, offset) for text, offset in quiz.options if agrees(text)]
    answered = agrees(quiz.answer)
    outcome.check(
        "answer-agrees",
        answered,
        f"answer {quiz.answer!r} should state {stated}",
        quiz.answer_offset,
    )
    outcome.loose += loose
    if answered and not loose:
        end = quiz.answer_end or quiz.answer_offset + len(quiz.answer)
        outcome.verified_at.append((quiz.answer_offset, end))
        ends = [offset for _, offset in quiz.options[1:]] + [quiz.options_end or quiz.offset]
        for (text, offset), stop in zip(quiz.options, ends, strict=False):
            if (text, offset) in right:
                outcome.verified_at.append((offset, stop))
    _question_values(claim_id, source, context, quiz, outcome)
    if params.unique:
        outcome.check(
            "one-right-option",
            len(right) == 1,
            f"exactly one option should state {stated}; found {len(right)}",
            quiz.offset,
        )
    return outcome


def _question_values(
    claim_id: str, source: Outcome, context: Context, quiz: Quiz, outcome: Outcome
) -> None:
    """A quantity the question states in words (`Nine tenths of the run time`) must be one
    of the inputs the fact was computed from (`source`, the outcome of claim `claim_id`),
    where any input has its dimension: the answer is proved for those inputs, not for
    whatever the question says."""
    inputs = []
    for name in sorted(source.inputs):
        value = source.quantities.get(name)
        if getattr(value, "is_number", False):
            inputs.append((name, value, quantity_unit(context.lesson, source, name)[0]))
    start = context.lesson.content.find(quiz.question, quiz.offset)
    for said in _words.stated(quiz.question):
        dimension = _dimension(said.unit)
        if dimension is False:
            continue
        alike = [(n, v, u) for n, v, u in inputs if u is None or _dimension(u) == dimension]
        if not alike:
            continue
        if any(compare(said, v, unit=u if said.unit and u else None).ok for _, v, u in alike):
            continue
        given = ", ".join(f"{n} = {show(v)}{_suffix(u)}" for n, v, u in alike)
        outcome.check(
            "question-values",
            False,
            f"the question states {said.text!r}, but claim {claim_id!r} computes the answer "
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
