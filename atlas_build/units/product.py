"""Unit expressions in the lesson's own units: `V·K/J`, `bytes/token`, `m²/(V·s)`.

A `UnitProduct` keeps which units a quantity was written in, not only its
dimension, so a mismatch can be told in the lesson's terms ("left side V, right
side V·K/J"). Identical units cancel (by their canonical key, so `bytes` and
`B` are one unit); different units of one dimension (`J`, `eV`) are kept apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from .dimension import DIMENSIONLESS, Dimension, format_product, rational


@dataclass(frozen=True)
class UnitAtom:
    """One named unit: `key` identifies it (`kibibyte`, `score`), `text` is how it was written.

    `scale` converts one of it to the base unit of its dimension (KiB -> 8192 bit);
    `offset` is the zero shift of an affine unit (°C -> 273.15 K).
    """

    key: str
    text: str = field(compare=False)
    dimension: Dimension
    scale: sympy.Rational = sympy.Rational(1)
    offset: sympy.Rational = sympy.Rational(0)

    @property
    def silent(self) -> bool:
        """A pure count (`count`, `elements`, `square`): cancels out of printed units.
        FLOPs and tokens are counted too, but keep their names in print (`FLOP/s`)."""
        return self.key == "count" and self.dimension.is_dimensionless and self.scale == 1


def number(value: object) -> sympy.Expr:
    """An exact SymPy number from an int, `Fraction` or SymPy number (never from text)."""
    if isinstance(value, sympy.Expr) and value.is_number:
        return value
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    raise TypeError(f"not an exact number: {value!r}")


class UnitProduct:
    """An immutable product of unit atoms with rational exponents, times an exact factor."""

    __slots__ = ("_atoms", "_factor", "_dimension")
    _atoms: tuple[tuple[UnitAtom, sympy.Rational], ...]
    _factor: sympy.Expr
    _dimension: Dimension | None  # computed once: inference asks it of every symbol often

    def __init__(self, atoms: Iterable[tuple[UnitAtom, object]] = (), factor: object = 1) -> None:
        merged: dict[str, tuple[UnitAtom, sympy.Rational]] = {}
        for atom, power in atoms:
            first, total = merged.get(atom.key, (atom, sympy.Rational(0)))
            merged[atom.key] = (first, total + rational(power))
        kept = tuple((atom, power) for atom, power in merged.values() if power != 0)
        object.__setattr__(self, "_atoms", kept)
        object.__setattr__(self, "_factor", number(factor))
        object.__setattr__(self, "_dimension", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("UnitProduct is immutable")

    @classmethod
    def of(cls, atom: UnitAtom) -> UnitProduct:
        return cls([(atom, 1)])

    def atoms(self) -> Iterator[tuple[UnitAtom, sympy.Rational]]:
        return iter(self._atoms)

    @property
    def affine(self) -> bool:
        """Whether it holds a unit of a scale with another zero (°C), alone or in a power
        (`1/°C`): the zero is part of what a number in it means."""
        return any(atom.offset for atom, _ in self._atoms)

    @property
    def levels(self) -> frozenset[str]:
        """The keys of its logarithmic levels (`level:dBm`): a level is no ratio, and converts
        or compares only to the same level."""
        return frozenset(atom.key for atom, _ in self._atoms if atom.key.startswith("level:"))

    @property
    def factor(self) -> sympy.Expr:
        return self._factor

    @property
    def dimension(self) -> Dimension:
        if self._dimension is None:
            result = DIMENSIONLESS
            for atom, power in self._atoms:
                result = result * atom.dimension**power
            object.__setattr__(self, "_dimension", result)
            return result
        return self._dimension

    @property
    def scale(self) -> sympy.Expr:
        """How many base units of the dimension one of this is (exact)."""
        result: sympy.Expr = self._factor
        for atom, power in self._atoms:
            result = result * sympy.Pow(atom.scale, power)
        return result

    @property
    def offset(self) -> sympy.Rational:
        """The zero shift, for a single affine unit written alone (`°C`); else 0."""
        if len(self._atoms) == 1 and self._atoms[0][1] == 1 and self._factor == 1:
            return self._atoms[0][0].offset
        return sympy.Rational(0)

    def __mul__(self, other: UnitProduct) -> UnitProduct:
        return UnitProduct(self._atoms + other._atoms, self._factor * other._factor)

    def __truediv__(self, other: UnitProduct) -> UnitProduct:
        return self * other**-1

    def __pow__(self, power: object) -> UnitProduct:
        exponent = rational(power)
        atoms = [(atom, p * exponent) for atom, p in self._atoms]
        return UnitProduct(atoms, sympy.Pow(self._factor, exponent))

    def _identity(self) -> tuple[object, ...]:
        return (tuple(sorted((atom.key, p) for atom, p in self._atoms)), self._factor)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnitProduct) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return f"UnitProduct({self.format()!r})"

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        """`V·K/J`; pure counts cancel out of the text; nothing left is `dimensionless`."""
        shown = [(atom.text, power) for atom, power in self._atoms if not atom.silent]
        text = format_product(shown)
        if self._factor != 1:
            number = sympy.sstr(self._factor)
            return number if text == "dimensionless" else f"{number}·{text}"
        return text


ONE = UnitProduct()
