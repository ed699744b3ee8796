"""What a dimensional check found, with the part of the SymPy tree at fault."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sympy

RELATION = "relation"  # the two sides differ
TERMS = "terms"  # terms of a sum (or branches, or arguments of max/min) differ
ARGUMENT = "argument"  # exp/log/sin/softmax... of a dimensioned argument
EXPONENT = "exponent"  # symbolic or dimensioned exponent on a dimensioned base
AFFINE = "affine"  # a °C value multiplied, raised, added to another or set equal to kelvin
UNKNOWN = "unknown"  # a symbol or function without a unit: part of the relation is not checked
UNCERTAIN = "uncertain"  # a disagreement the tool cannot be sure of: the relation is not checked
SCALE = "scale"  # one dimension, units of other sizes (ns and µs): a note, the physics is right
KINDS = (RELATION, TERMS, ARGUMENT, EXPONENT, AFFINE, UNKNOWN, UNCERTAIN, SCALE)
ERRORS = frozenset({RELATION, TERMS, ARGUMENT, EXPONENT, AFFINE})
"""Kinds that are defects: both sides read from real units and they disagree. A
disagreement through a descriptive unit (`value units`), a side that is a bare number
which may carry the unit, or set notation is `uncertain`, never an error."""


@dataclass(frozen=True)
class Finding:
    """One finding of `check`.

    `expr` is the subexpression at fault (None for a whole-relation mismatch).
    `side` is `lhs` or `rhs` when it lies in one side; `term` is the direct term of
    that side holding it when the side is a sum (`term_index` its position in
    `sympy.Add.make_args(side)`), so a caller can point at it. `left`/`right`
    are the two units compared, as printed, where two were compared.
    """

    kind: str
    message: str
    expr: sympy.Basic | None = None
    side: str | None = None
    term: sympy.Basic | None = None
    term_index: int | None = None
    left: str | None = None
    right: str | None = None

    @property
    def is_error(self) -> bool:
        """A certain inconsistency (`ERRORS`); `unknown`, `uncertain` and `scale` are not."""
        return self.kind in ERRORS


def errors(findings: Iterable[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.is_error]


def unknowns(findings: Iterable[Finding]) -> list[Finding]:
    """Symbols, functions or parts without a unit: the relation is only partly checked."""
    return [finding for finding in findings if finding.kind == UNKNOWN]


def uncertain(findings: Iterable[Finding]) -> list[Finding]:
    """Disagreements the tool cannot be sure of: the relation is not checked, for a reason."""
    return [finding for finding in findings if finding.kind == UNCERTAIN]
