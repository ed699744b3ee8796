"""Whether a disagreement of units is certain: the rule that keeps A420 for real defects.

The check compares dimensions without their counted bases (`Dimension.checked`: bits,
like samples and jobs, are counts). Two of them that still differ are a defect only when
both were read from real units: a descriptive unit (`value units`, `units of f`, `record`)
stands for a unit the lesson leaves open (`value` may be volts, `x` metres), so a
disagreement that involves one is not certain, and the relation is not checked, with that
reason. Relations that agree through descriptive units are consistent.
"""

from __future__ import annotations

import sympy

from .dimension import DIMENSIONLESS
from .findings import UNCERTAIN
from .product import UnitProduct

AGREE = "agree"
DIFFER = "differ"


def compare(left: UnitProduct, right: UnitProduct | None = None) -> str:
    """`agree`, `uncertain` or `differ` for two units (one unit against a pure number when
    `right` is None, as for an exponent or the argument of exp)."""
    a = left.dimension.checked
    b = right.dimension.checked if right is not None else DIMENSIONLESS
    if a == b:
        return AGREE
    if a.descriptive.is_dimensionless and b.descriptive.is_dimensionless:
        return DIFFER
    return UNCERTAIN


def descriptive_names(*values: UnitProduct) -> str:
    """The descriptive units involved, as written (`value units, units of f`)."""
    names = [
        atom.text
        for value in values
        for atom, _ in value.atoms()
        if not atom.dimension.is_dimensionless and atom.dimension.descriptive == atom.dimension
    ]
    return ", ".join(dict.fromkeys(names))


def why_uncertain(*values: UnitProduct) -> str:
    return (
        f"{descriptive_names(*values)} describe a unit the lesson leaves open, so a"
        " disagreement through them is not certain"
    )


def bare_number(side: sympy.Basic, dimensionless: bool) -> bool:
    """Whether `side` is dimensionless only by being a bare number times pure numbers
    (`65 535 × 2^S`, `5`): its constant may carry the unit the other side has."""
    if not dimensionless:
        return False
    coefficient, _ = side.as_coeff_Mul() if isinstance(side, sympy.Expr) else (1, side)
    return isinstance(coefficient, sympy.Number) and coefficient not in (1, -1, 0)
