"""Every unit of the vocabulary, resolved by pint once and shipped as data (`units.json`).

Building pint's registry took about 1 s of every process that checked a lesson (profiled:
1.0 of the 4 s an edited lesson cost a `build`), for a vocabulary that is fixed in
`vocabulary.py`. So the factors are resolved ahead of time and read back here as exact
rationals (integers in, never text through SymPy); pint stays the source of truth: a unit
outside the table is resolved by pint as before, and `tests/test_units_table.py` fails
when the table and pint disagree on any entry or the vocabulary gains a unit the table
lacks. Regenerate with `python -m atlas_build.units.table`.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources
from pathlib import Path

import sympy

from .dimension import Dimension

FILE = "units.json"
Resolved = tuple[Dimension, sympy.Rational, sympy.Rational]


def names() -> list[str]:
    """Every canonical name `vocabulary.lookup` can hand to pint, prefixed ones included."""
    from . import vocabulary as v

    found = {"second", "count"}
    entries = [
        *v.SYMBOLS.values(),
        *v.NAMES.values(),
        *v.PER_SECOND.values(),
        *v.RATES.values(),
        *v.GLOSSARY_NAMES.values(),
    ]
    for name, family in entries:
        found.add(name)
        prefixes = [*v.PREFIX_SYMBOLS.get(family, {}).values(), *v.PREFIX_NAMES.get(family, [])]
        found.update(prefix + name for prefix in prefixes)
    return sorted(found)


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


def generate() -> dict[str, object]:
    """The table as pint resolves it now."""
    from .registry import resolve_with_pint

    return {name: encode(resolve_with_pint(name)) for name in names()}


def main() -> int:
    target = Path(__file__).with_name(FILE)
    entries = sorted(generate().items())
    text = "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in entries) + "\n}\n"
    target.write_text(text, encoding="utf-8")
    print(f"wrote {len(names())} units to {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
