"""Dimensions: immutable products of named base dimensions with rational exponents.

Physical bases carry pint's bracketed names (`[length]`, `[information]`, ...);
a lesson's own abstract dimensions (`score`, `value`) are plain words, so the
two can never collide. Exponents are `sympy.Rational`, so `sqrt(d_k)` of a
dimensioned `d_k` is exact and equality is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction

import sympy

Exponent = sympy.Rational

SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

BASE_SYMBOLS: Mapping[str, str] = {
    "[mass]": "kg",
    "[length]": "m",
    "[time]": "s",
    "[current]": "A",
    "[temperature]": "K",
    "[substance]": "mol",
    "[luminosity]": "cd",
    "[information]": "bit",
    "[flop]": "FLOP",
    "[token]": "token",
}
"""How each physical base prints: the SI (or named) base unit of that dimension."""

COUNTED = frozenset({"[information]"})
"""Bases that count things: a bit is a binary digit, so information keeps its dimension for
converting (a byte is 8 bits, and never a FLOP) but not for the dimension check, where a
count is a number (IEC 80000-13): `C = B log₂(1 + S/N)` in bit/s against Hz, or `(n − 1)
t_c` with n in bits, is right."""


def rational(value: object) -> sympy.Rational:
    """An exact exponent from an int, `Fraction` or `sympy.Rational` (never from text)."""
    if isinstance(value, sympy.Rational):
        return value
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    raise TypeError(f"not a rational exponent: {value!r}")


def superscript(exponent: sympy.Rational) -> str:
    """`2` -> `²`, `-3` -> `⁻³`, `1/2` -> `^(1/2)` (no Unicode fraction superscript exists)."""
    if exponent == 1:
        return ""
    if exponent.q == 1:
        return str(exponent.p).translate(SUPERSCRIPTS)
    return f"^({exponent.p}/{exponent.q})"


def format_product(factors: Iterable[tuple[str, sympy.Rational]]) -> str:
    """`[("m", 2), ("V", -1), ("s", -1)]` -> `m²/(V·s)`; nothing left -> `dimensionless`."""
    top: list[str] = []
    bottom: list[str] = []
    for name, exponent in factors:
        if exponent > 0:
            top.append(name + superscript(exponent))
        elif exponent < 0:
            bottom.append(name + superscript(-exponent))
    if not top and not bottom:
        return "dimensionless"
    numerator = "·".join(top) if top else "1"
    if not bottom:
        return numerator
    denominator = bottom[0] if len(bottom) == 1 else "(" + "·".join(bottom) + ")"
    return f"{numerator}/{denominator}"


class Dimension:
    """A product of base dimensions; hashable, comparable, and closed under `*`, `/`, `**`."""

    __slots__ = ("_key",)
    _key: tuple[tuple[str, sympy.Rational], ...]

    def __init__(self, exponents: Mapping[str, object] | None = None) -> None:
        cleaned = {name: rational(power) for name, power in (exponents or {}).items() if power != 0}
        object.__setattr__(self, "_key", tuple(sorted(cleaned.items())))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Dimension is immutable")

    @classmethod
    def base(cls, name: str) -> Dimension:
        return cls({name: 1})

    def items(self) -> Iterator[tuple[str, sympy.Rational]]:
        return iter(self._key)

    def exponent(self, name: str) -> sympy.Rational:
        return dict(self._key).get(name, sympy.Rational(0))

    @property
    def is_dimensionless(self) -> bool:
        return not self._key

    @property
    def abstract(self) -> tuple[str, ...]:
        """The lesson-specific (non-physical) bases this dimension involves."""
        return tuple(name for name, _ in self._key if not name.startswith("["))

    @property
    def checked(self) -> Dimension:
        """What the dimension check compares: this dimension without its counted bases."""
        if not any(name in COUNTED for name, _ in self._key):
            return self
        return Dimension({name: p for name, p in self._key if name not in COUNTED})

    @property
    def descriptive(self) -> Dimension:
        """The part made of the lesson's own descriptive bases (`value`, `gradient`)."""
        return Dimension({name: p for name, p in self._key if not name.startswith("[")})

    def __mul__(self, other: Dimension) -> Dimension:
        merged = dict(self._key)
        for name, power in other._key:
            merged[name] = merged.get(name, sympy.Rational(0)) + power
        return Dimension(merged)

    def __truediv__(self, other: Dimension) -> Dimension:
        return self * other**-1

    def __pow__(self, power: object) -> Dimension:
        exponent = rational(power)
        return Dimension({name: p * exponent for name, p in self._key})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dimension) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Dimension({dict(self._key)!r})"

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        """In base units: `kg·m²/(s³·A)`; abstract bases by name: `score²`."""
        order = list(BASE_SYMBOLS)
        ordered = sorted(
            self._key,
            key=lambda item: (order.index(item[0]), "") if item[0] in order else (99, item[0]),
        )
        return format_product((BASE_SYMBOLS.get(name, name), power) for name, power in ordered)


DIMENSIONLESS = Dimension()
