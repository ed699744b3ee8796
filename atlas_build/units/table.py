"""Every unit of the vocabulary, resolved by pint once and shipped as data (`units.json`).

Building pint's registry took about 1 s of every process that checked a lesson (profiled:
1.0 of the 4 s an edited lesson cost a `build`), for a vocabulary that is fixed in
`vocabulary.py`. So the factors are resolved ahead of time and read back here as exact
rationals (integers in, never text through SymPy); pint stays the source of truth: a unit
outside the table is resolved by pint as before, and `tests/test_units_table.py` fails
when the table and pint disagree on any entry or the vocabulary gains a unit the table
lacks. Regenerate with `python -m atlas_build.units.tablegen` (apart from this reader, which
the registry imports, so that reading the table never imports the vocabulary).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import sympy

from .dimension import Dimension

FILE = "units.json"
Resolved = tuple[Dimension, sympy.Rational, sympy.Rational]


def _pair(value: sympy.Rational) -> list[int]:
    return [int(value.p), int(value.q)]


def _rational(pair: object) -> sympy.Rational:
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or not all(isinstance(part, int) and not isinstance(part, bool) for part in pair)
        or pair[1] <= 0
    ):
        raise ValueError(f"not a rational: {pair!r}")
    return sympy.Rational(pair[0], pair[1])


def encode(resolved: Resolved) -> list[object]:
    dimension, scale, offset = resolved
    return [{base: _pair(power) for base, power in dimension.items()}, _pair(scale), _pair(offset)]


def decode(entry: object) -> Resolved:
    if not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[0], dict):
        raise ValueError(f"not a unit entry: {entry!r}")
    dimension = Dimension({str(base): _rational(power) for base, power in entry[0].items()})
    return dimension, _rational(entry[1]), _rational(entry[2])


@cache
def table() -> dict[str, object]:
    """The shipped entries by name (decoded one at a time, when asked for)."""
    data = json.loads((resources.files("atlas_build.units") / FILE).read_bytes())
    return data if isinstance(data, dict) else {}
