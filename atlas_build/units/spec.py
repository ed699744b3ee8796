"""What a glossary's unit column says (a unit, a count, an abstract unit, or a shape), and
which entry gives a symbol's unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


INDEX_LETTERS = frozenset("ijklmnt")


def _family(units: Mapping[str, UnitSpec], base: str) -> UnitSpec | None:
    """The unit shared by every `base_<index letters>` entry (`p_i` for `p_j`), if one."""
    family = [
        spec
        for key, spec in units.items()
        if key.startswith(base + "_")
        and 0 < len(key) - len(base) - 1 <= 2
        and set(key[len(base) + 1 :]) <= INDEX_LETTERS
    ]
    if family and all(spec.dimension == family[0].dimension for spec in family):
        return family[0]
    return None


def lookup(
    units: Mapping[str, UnitSpec], name: str, indices: Sequence[sympy.Basic] = ()
) -> UnitSpec | None:
    """The glossary unit of `name`.

    An indexed `a[j]` is found as `a_j`, then `a`, then any `a_i` of the same family;
    a symbol `p_j` (or `p_1`) not in the glossary is found as its family's `p_i`.
    """
    if indices:
        pieces = [str(index) for index in indices]
        for key in (f"{name}_{''.join(pieces)}", f"{name}_{'_'.join(pieces)}", name):
            if key in units:
                return units[key]
        return _family(units, name)
    if name in units:
        return units[name]
    base, _, sub = name.rpartition("_")
    if base and 0 < len(sub) <= 2 and (set(sub) <= INDEX_LETTERS or sub.isdigit()):
        return _family(units, base)  # `x_1`, `x_j` of the table's `x_i`
    return None
