"""What a glossary's unit column says: a unit, a count, an abstract unit, or a shape."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from .dimension import Dimension
from .product import UnitProduct

UNIT = "unit"
DIMENSIONLESS = "dimensionless"
COUNT = "count"
ABSTRACT = "abstract"
UNSPECIFIED = "unspecified"
KINDS = (UNIT, DIMENSIONLESS, COUNT, ABSTRACT, UNSPECIFIED)


@dataclass(frozen=True)
class UnitSpec:
    """A read unit text.

    `units` is the unit expression (None when the text only gives a shape or says
    `real`: the element unit is unspecified); `shape` the array extents a shape
    note names (`("T_q", "d_k")`); `remark` a trailing note (`at 300 K`).
    """

    text: str
    kind: str
    units: UnitProduct | None
    shape: tuple[str, ...] | None = None
    remark: str | None = None

    @property
    def dimension(self) -> Dimension | None:
        return self.units.dimension if self.units is not None else None

    @property
    def scale(self) -> sympy.Expr | None:
        """Base units of the dimension per one of this unit (exact): KiB -> 8192 (bit)."""
        return self.units.scale if self.units is not None else None

    @property
    def offset(self) -> sympy.Rational:
        """Zero shift of an affine unit written alone: `°C` -> 5463/20 (K)."""
        return self.units.offset if self.units is not None else sympy.Rational(0)


@dataclass(frozen=True)
class UnitProblem:
    """Unit text that could not be read: what went wrong and where (0-based column)."""

    text: str
    message: str
    column: int = 0

    def __str__(self) -> str:
        return self.message
