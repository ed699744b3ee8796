"""The units mapping of a lesson, from its glossary's (symbol, unit) pairs.

Names follow the shared convention (`symbols.symbol_names`), so the mapping is
keyed exactly as the LaTeX parser names symbols. Nothing unreadable is dropped
silently: every entry that gives no unit comes back as a `GlossaryProblem` for a
warning at that glossary line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .parse import parse_unit
from .spec import UnitProblem, UnitSpec
from .symbols import SymbolError, symbol_names

SYMBOL = "symbol"
UNIT = "unit"
CONFLICT = "conflict"


@dataclass(frozen=True)
class GlossaryProblem:
    """Entry `entry` (0-based, in the order given) could not be used.

    `field` is `symbol` (the symbol cell names no symbol), `unit` (the unit cell
    is unreadable) or `conflict` (the symbol already has a unit of another
    dimension; the first one is kept); `column` is 0-based in that cell.
    """

    entry: int
    field: str
    message: str
    column: int = 0


@dataclass
class GlossaryUnits:
    units: dict[str, UnitSpec] = field(default_factory=dict)
    problems: list[GlossaryProblem] = field(default_factory=list)


def units_from_glossary(
    entries: Iterable[tuple[str, str]], names: Callable[[str], list[str]] = symbol_names
) -> GlossaryUnits:
    """Map every glossary symbol to its read unit; `T_q,T_k` gives both one unit.

    `names` turns a symbol cell into SymPy names (by default `symbol_names`; a
    caller with its own reader of the convention may pass it instead).
    """
    result = GlossaryUnits()
    for index, (symbol_text, unit_text) in enumerate(entries):
        try:
            defined = names(symbol_text)
        except SymbolError as error:
            result.problems.append(GlossaryProblem(index, SYMBOL, error.message, error.column))
            continue
        if not defined:
            message = f"{symbol_text!r} names no symbol"
            result.problems.append(GlossaryProblem(index, SYMBOL, message))
            continue
        spec = parse_unit(unit_text)
        if isinstance(spec, UnitProblem):
            message = f"cannot read unit {unit_text!r}: {spec.message}"
            result.problems.append(GlossaryProblem(index, UNIT, message, spec.column))
            continue
        for name in defined:
            known = result.units.get(name)
            if known is None:
                result.units[name] = spec
            elif known.dimension != spec.dimension:
                message = (
                    f"{name} is already given unit {known.text!r}; {unit_text!r} has another"
                    " dimension (the first is used)"
                )
                result.problems.append(GlossaryProblem(index, CONFLICT, message))
            elif (known.scale, known.offset) != (spec.scale, spec.offset):
                # one dimension, another size: claims compute in the first table's unit, so
                # the second table's reader would read the worked numbers off by a factor
                message = (
                    f"{name} is already given unit {known.text!r}; {unit_text!r} is another "
                    f"size of that dimension (the first is used: the claims compute {name} "
                    f"in {known.text})"
                )
                result.problems.append(GlossaryProblem(index, CONFLICT, message))
    return result
