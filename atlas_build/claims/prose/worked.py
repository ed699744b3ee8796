"""Worked arithmetic with units: `6 m/3 = 3 m`, `3 m/s × 2 s = 6 m`, `10 MHz/12 = 833.3 kHz`.

The parser in `numbers` computes a left side with the units its operands are written in,
through `Measure`: a product multiplies the units, a sum converts each term to the first
term's unit. `settle` then expresses the left side in the result's unit, so the stated
result is compared as written (to half a unit in its last digit). Dimensions that
disagree are a problem to report, never a bare comparison of numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from atlas_build.units import UnitError, UnitProduct, units_of
from atlas_build.units.product import ONE

PERCENT = units_of("%")


@dataclass(frozen=True)
class Measure:
    """An exact value in `units`; `problem` says why it has no single dimension."""

    value: sympy.Expr
    units: UnitProduct = ONE
    problem: str = ""

    def _with(
        self, other: Measure, value: sympy.Expr, units: UnitProduct, problem: str = ""
    ) -> Measure:
        return Measure(value, units, self.problem or other.problem or problem)

    def _as(self, units: UnitProduct) -> tuple[sympy.Expr, str]:
        if self.units == units:
            return self.value, ""
        if self.units.dimension != units.dimension:
            return self.value, f"terms in {units} and {self.units} differ in dimension"
        return self.value * self.units.scale / units.scale, ""

    def _percent_of(self, other: Measure) -> bool:
        """`3.3 V + 10%`: a percent added to a quantity in a unit is that share of it."""
        return other.units == PERCENT and not self.units.dimension.is_dimensionless

    def __add__(self, other: Measure) -> Measure:
        if self._percent_of(other):
            return self._with(other, self.value * (1 + other.value / 100), self.units)
        right, problem = other._as(self.units)
        return self._with(other, self.value + right, self.units, problem)

    def __sub__(self, other: Measure) -> Measure:
        if self._percent_of(other):
            return self._with(other, self.value * (1 - other.value / 100), self.units)
        right, problem = other._as(self.units)
        return self._with(other, self.value - right, self.units, problem)

    def __mul__(self, other: Measure) -> Measure:
        return self._with(other, self.value * other.value, self.units * other.units)

    def __truediv__(self, other: Measure) -> Measure:
        return self._with(other, self.value / other.value, self.units / other.units)

    def __neg__(self) -> Measure:
        return Measure(-self.value, self.units, self.problem)

    def sqrt(self) -> Measure:
        return Measure(sympy.sqrt(self.value), self.units ** sympy.Rational(1, 2), self.problem)

    def __pow__(self, exponent: sympy.Expr) -> Measure:
        """A power; units only take rational exponents (the parser refuses the others)."""
        units = self.units**exponent if self.units != ONE else ONE
        return Measure(self.value**exponent, units, self.problem)


def units(text: str) -> UnitProduct | None:
    """The units an operand is written in; None when they cannot be computed with (an
    unreadable unit, or a temperature with another zero: `20 °C × 2` is not 40 °C)."""
    try:
        read = units_of(text)
    except UnitError:
        return None
    return None if read.affine else read


def settle(lhs: Measure, unit: str | None) -> tuple[sympy.Expr, str, str] | None:
    """The left side in the result's unit (dimensionless for a result without one), the
    unit it is shown in, and the problem ("" when none); None when the result's unit
    cannot be computed with."""
    target = ONE if unit is None else units(unit)
    if target is None:
        return None
    if lhs.problem:
        return lhs.value, str(lhs.units), lhs.problem
    if lhs.units.dimension != target.dimension:
        written = f"in {unit}" if unit is not None else "without a unit"
        return lhs.value, str(lhs.units), f"the left side is in {lhs.units}, the result {written}"
    return lhs.value * lhs.units.scale / target.scale, unit or "", ""
