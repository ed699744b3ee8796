"""Writes `units.json`, the shipped unit table `table.py` reads: every name the vocabulary
can hand to pint, resolved by pint now. Run `python -m atlas_build.units.tablegen` after
changing the vocabulary; `tests/test_units_table.py` fails until you do.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import vocabulary as v
from .registry import resolve_with_pint
from .table import FILE, encode


def names() -> list[str]:
    """Every canonical name `vocabulary.lookup` can hand to pint, prefixed ones included."""
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


def generate() -> dict[str, object]:
    """The table as pint resolves it now."""
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
