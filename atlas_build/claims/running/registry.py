"""The claim-kind registry: one module per kind registers itself; this runs them.

A kind is a function from validated parameters and a `Context` to an `Outcome`:
named computed quantities (bound to the quote's numbers afterwards) and the
checks it made itself (derivations, engine agreement, invariances). The registry
owns validation, ordering (claims may use other claims' quantities), timing and
the per-claim time limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from atlas_build.budget import MemoryBudgetExceeded, deadline, need
from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.lesson.model import Lesson, Math

DEFAULT_TIMEOUT = 10.0


class Params(BaseModel):
    """Base of every kind's parameter model: unknown parameters are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


P = TypeVar("P", bound=Params)


@dataclass
class Check:
    """One thing a kind verified; `offset` locates it in the content when known."""

    name: str
    ok: bool
    message: str
    offset: int | None = None


RELATION_OUTCOMES = ("verified", "defined", "failed")
LEVEL = "dB"
"""`Outcome.units` of a quantity computed as a logarithm (`20\\log_{10} G`): a level,
which a lesson may write in dB; any other pure number written in dB is not bare."""


@dataclass
class Outcome:
    """What a kind computed and proved.

    `relations` says, per (equation, relation), what the kind did with it: `verified`
    (derived, sampled or evaluated by a check that ran), `defined` (used as a definition,
    not itself checked), `failed`, or `claim:<id>` (another claim checks it). `depends`
    maps a computed quantity to the relations it was computed from: a relation used as a
    definition counts as verified (by evaluation) once a quantity computed from it matches
    a number the lesson states. `inputs` are quantities the claim fixes itself (the scores
    of a worked example): a quoted number bound to one is an input, not a proof.
    `verified_at` are content spans of numbers the kind checked itself (a quiz answer).
    `units` gives the unit of a computed quantity the symbol table does not name (an
    expression's, worked out from its symbols' units), so a number the lesson writes with
    a unit is converted, or refused, rather than compared bare. `unread` names, per
    computed quantity, the symbols it was computed from whose table unit does not read
    (A421): the factor between their units is unknown, so a match proves nothing.
    """

    quantities: dict[str, Any] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    covers: set[tuple[int, int | None]] = field(default_factory=set)  # (equation, relation)
    relations: dict[tuple[int, int], str] = field(default_factory=dict)
    depends: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    inputs: set[str] = field(default_factory=set)
    verified_at: list[tuple[int, int]] = field(default_factory=list)
    units: dict[str, str] = field(default_factory=dict)
    unread: dict[str, list[str]] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)
    """Checks that held only within the claim's `tolerance`, which is looser than the check
    can tell apart (a sample's sides differ by more than rounding, a quiz answer by more
    than its digits): each is told as an A416 at the tolerance, and proves nothing."""

    def check(self, name: str, ok: bool, message: str, offset: int | None = None) -> None:
        self.checks.append(Check(name, bool(ok), message, offset))

    def relation(self, equation: int, index: int, status: str) -> None:
        """Record what happened to a relation; a failure is never overwritten."""
        self.covers.add((equation, index))
        key = (equation, index)
        if self.relations.get(key) != "failed":
            self.relations[key] = status


class ClaimError(Exception):
    """The claim cannot be evaluated as written (bad parameters, unknown reference)."""

    def __init__(self, message: str, offset: int | None = None, pointer: str | None = None) -> None:
        super().__init__(message)
        self.offset = offset  # content offset (an equation), when the lesson is at fault
        self.pointer = pointer  # JSON pointer into claims.yaml, when the claim is


class ClaimTimeout(Exception):
    pass


@dataclass
class Context:
    """What a kind may use: the lesson model, its equations, other claims' results."""

    lesson: Lesson
    claim_id: str
    occurrence_texts: list[str]
    resolve: Callable[[str], Outcome]
    memory_bytes: int = 1 << 30  # the claim's memory budget (atlas_build.budget)
    # `claim-id.name` of every quantity of another claim this one compared with: what it
    # proves rests on those claims (claims/running/facts.py); a claim merely consulted is not here
    facts: set[str] = field(default_factory=set)

    def reserve(self, estimate: float, what: str) -> None:
        """Refuse, before allocating, a step whose memory estimate exceeds the budget."""
        try:
            need(self.memory_bytes, estimate, what)
        except MemoryBudgetExceeded as error:
            raise ClaimError(str(error)) from None

    def equation(self, index: int) -> Math:
        equations = self.lesson.display_math
        if not 0 <= index < len(equations):
            raise ClaimError(f"the lesson has {len(equations)} display equations; no index {index}")
        return equations[index]

    def quantity(self, reference: str) -> Any:
        """`claim-id.name[index]`: a quantity computed by another claim of the lesson."""
        claim_id, _, name = reference.partition(".")
        if not name:
            raise ClaimError(f"reference {reference!r} must look like claim-id.quantity")
        self.facts.add(reference)
        return lookup(self.resolve(claim_id).quantities, name)

    def unit(self, reference: str) -> tuple[str | None, bool]:
        """The unit of `claim-id.name[index]` and whether it is only presumed (`quantity_unit`)."""
        claim_id, _, name = reference.partition(".")
        return quantity_unit(self.lesson, self.resolve(claim_id), name)


def quantity_unit(lesson: Lesson, outcome: Outcome, name: str) -> tuple[str | None, bool]:
    """The unit of a computed quantity, and whether it is only presumed: the symbol table's
    is the lesson's word; one its claim worked out from an expression's symbols may be
    wrong when the expression's constants carry units (`8·b` bits). (None, False): unknown."""
    base = name.split("[", 1)[0]
    spec = lesson_units(lesson).get(base)
    if spec is not None and spec.units is not None:
        return spec.text, False
    known = outcome.units.get(base)
    return known, known is not None


def lookup(quantities: dict[str, Any], name: str) -> Any:
    base, *indices = name.replace("]", "").split("[")
    if base not in quantities:
        known = ", ".join(sorted(quantities)) or "none"
        raise ClaimError(f"no quantity {base!r} (this claim computes: {known})")
    value = quantities[base]
    for index in indices:
        try:
            value = value[int(index)]
        except (IndexError, TypeError, KeyError, ValueError) as error:
            raise ClaimError(f"{name}: index {index} is out of range") from error
    return value


@dataclass(frozen=True)
class Kind(Generic[P]):
    name: str
    params: type[P]
    run: Callable[[P, Context], Outcome]
    summary: str
    cacheable: bool = True  # outcome depends only on params, equations, units and quoted text


KINDS: dict[str, Kind[Any]] = {}


def kind(
    name: str, params: type[P], *, cacheable: bool = True
) -> Callable[[Callable[[P, Context], Outcome]], Callable[[P, Context], Outcome]]:
    def register(function: Callable[[P, Context], Outcome]) -> Callable[[P, Context], Outcome]:
        if name in KINDS:
            raise ValueError(f"claim kind {name!r} registered twice")
        summary = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        KINDS[name] = Kind(name, params, function, summary, cacheable)
        return function

    return register


def time_limit(seconds: float) -> AbstractContextManager[None]:
    """Interrupt pure-Python work (SymPy) after `seconds`; main thread only (SIGALRM)."""
    return deadline(seconds, lambda: ClaimTimeout(f"did not finish within {seconds:g} s"))


def timed(function: Callable[[], Outcome], seconds: float) -> tuple[Outcome, float]:
    started = time.perf_counter()
    with time_limit(seconds):
        outcome = function()
    return outcome, time.perf_counter() - started
