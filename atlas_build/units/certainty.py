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


_PERIODS = frozenset({"day", "week", "month", "year"})


def period_between(left: UnitProduct, right: UnitProduct) -> str | None:
    """The calendar period (`day`) two units differ by, where that is all they differ by:
    a daily total and a rate per day are written for each other (`kWh/m² per day` of
    insolation, `kWh` delivered in the day), and a rate per year is added to 1 for one
    year's growth (`1 + r`)."""
    ratio = left / right
    for atom, power in ratio.atoms():
        if atom.key in _PERIODS and abs(power) == 1:
            if (ratio.dimension / atom.dimension**power).checked.is_dimensionless:
                return str(atom.key)
    return None
