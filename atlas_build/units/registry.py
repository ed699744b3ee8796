"""Pint as the unit database: definitions, prefixes and exact conversion factors.

Only a vetted vocabulary reaches pint (see `vocabulary.py`), always as one
canonical unit name (`kibibyte`, `electron_volt`), never as text to parse: pint
resolves lesson-looking words far too freely for prose (`nats` is nano-technical-
atmospheres, `a` is a year, `in` an inch). The registry uses `Fraction`
arithmetic, so KiB is exactly 8192 bit and eV exactly 1.602176634e-19 J.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import sympy

from .dimension import Dimension
from .product import UnitAtom

if TYPE_CHECKING:
    import pint

EXTRA_DEFINITIONS = (
    "flop = [flop] = FLOP",
    "token = [token]",
    "transfer = [transfer]",
    "symbol_rate = transfer / second",
)
"""Units pint lacks: arithmetic work, tokens and transfers (MT/s), all counts (see ROOTS), and
the symbol rate (`Gbaud`: pint's own baud is a bit per second, which a PAM4 link is not)."""

ROOTS: dict[str, tuple[str | None, sympy.Rational]] = {
    "meter": ("[length]", sympy.Rational(1)),
    "gram": ("[mass]", sympy.Rational(1, 1000)),
    "second": ("[time]", sympy.Rational(1)),
    "ampere": ("[current]", sympy.Rational(1)),
    "kelvin": ("[temperature]", sympy.Rational(1)),
    "mole": ("[substance]", sympy.Rational(1)),
    "candela": ("[luminosity]", sympy.Rational(1)),
    "bit": ("[information]", sympy.Rational(1)),
    "flop": (None, sympy.Rational(1)),  # counted things have dimension one, as in SI:
    "token": (None, sympy.Rational(1)),  # F = 4 d_h H T L FLOPs needs no FLOP-valued constant
    "transfer": (None, sympy.Rational(1)),
    "count": (None, sympy.Rational(1)),
    "radian": (None, sympy.Rational(1)),
}
"""Pint's root units -> (our base dimension or None for dimensionless, scale to its base).

Pint's root of mass is the gram; the base unit of `[mass]` here is the kilogram.
"""


@cache
def registry() -> pint.UnitRegistry:
    """One registry per process, built on first use (about 1 s), never written to disk;
    only for units outside the shipped table."""
    import pint

    units: pint.UnitRegistry = pint.UnitRegistry(non_int_type=Fraction, cache_folder=None)
    for definition in EXTRA_DEFINITIONS:
        units.define(definition)
    return units


def _rational(value: object) -> sympy.Rational:
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    raise TypeError(f"pint returned a non-exact factor {value!r}")


@lru_cache(maxsize=512)
def _resolve(name: str) -> tuple[Dimension, sympy.Rational, sympy.Rational]:
    """From the shipped table (`table`), else from pint."""
    from . import table

    entry = table.table().get(name)
    if entry is not None:
        return table.decode(entry)
    return resolve_with_pint(name)


def resolve_with_pint(name: str) -> tuple[Dimension, sympy.Rational, sympy.Rational]:
    units = registry()
    factor, root = units.get_root_units(name)
    dimension: dict[str, sympy.Rational] = {}
    scale = _rational(factor)
    for unit, power in units.Quantity(1, root).unit_items():
        base, unit_scale = ROOTS[unit]
        exponent = _rational(power)
        scale *= unit_scale**exponent
        if base is not None:
            dimension[base] = dimension.get(base, sympy.Rational(0)) + exponent
    offset = sympy.Rational(0)
    if dimension == {"[temperature]": 1}:
        zero = units.Quantity(Fraction(0), name).to("kelvin").magnitude
        offset = _rational(zero)
    return Dimension(dimension), scale, offset


def pint_atom(name: str, text: str) -> UnitAtom:
    """The unit pint calls `name` (canonical, with its prefix), shown as the lesson wrote it."""
    dimension, scale, offset = _resolve(name)
    return UnitAtom(name, text, dimension, scale, offset)
