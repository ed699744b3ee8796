"""The units mapping of a lesson, from its glossary's (symbol, unit) pairs.

Names follow the shared convention (`symbols.symbol_names`), so the mapping is
keyed exactly as the LaTeX parser names symbols. Nothing unreadable is dropped
silently: every entry that gives no unit comes back as a `GlossaryProblem` for a
warning at that glossary line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import sympy

from atlas_build.notation import NUMBER_FUNCTION

from .parse import kind_of, parse_unit, reads_as_unit, split_remark
from .product import ONE, UnitProduct
from .spec import UnitProblem, UnitSpec
from .symbols import SymbolError, listed, symbol_names

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


_POWER = re.compile(r"(?:\^\{?([23])\}?|([²³]))\s*$")


def power_of(symbol_text: str) -> int:
    """The power a symbol cell raises its symbol to (`σ_e²`, `x^2`: 2), else 1. A table
    row `σ_e²` / `V²` gives the unit of σ_e², so σ_e itself is in V."""
    found = _POWER.search(symbol_text)
    if found is None:
        return 1
    return int(found.group(1) or "23"["²³".index(found.group(2))])


def rooted(spec: UnitSpec, power: int) -> UnitSpec:
    """`spec` as the unit of the symbol whose `power` it is the unit of (V² -> V)."""
    if power == 1 or spec.units is None:
        return spec
    units = spec.units ** sympy.Rational(1, power)
    return UnitSpec(spec.text, kind_of(units), units, spec.shape, spec.remark)


def unit_parts(count: int, text: str) -> list[tuple[str, int]]:
    """The unit text of each of `count` symbols one entry lists, with where it starts in
    `text`: `C, RTT` with `bits/s, seconds` pairs them up, one unit per symbol, when the
    column has as many units (each a unit as written, split at top-level `,` or `;`; or
    any text, split at `;`). A list of units of another length (`τ, μ_n, μ_p` with `s,
    cm²/(V·s)`) gives none of them a unit (an empty text); otherwise every symbol has the
    whole column (`T_q, T_k` with `counts`)."""
    whole = [(text, 0)] * count
    if count < 2:
        return whole
    parts: list[tuple[str, int]] = []
    depth, start = 0, 0
    for index, char in enumerate(text + ","):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0 and char in ",;":
            piece = text[start:index]
            parts.append((piece.strip(), start + len(piece) - len(piece.lstrip())))
            start = index + 1
    if len(parts) == count and all(part for part, _ in parts):
        if ";" in text or all(_one_unit(part) for part, _ in parts):
            return parts  # `bits; bit errors per codeword; dimensionless`: one per symbol
    if len(parts) > 1 and all(part and _one_unit(part) for part, _ in parts):
        return [("", 0)] * count  # a list of units that does not pair: none is anyone's
    return whole


def _one_unit(part: str) -> bool:
    """A unit as written, or one with a remark in parentheses (`rad (electrical)`, `min
    (converted to h for H)`): one item of a list of units."""
    if reads_as_unit(part):
        return True
    core, remark, at = split_remark(part)
    return remark is not None and part[at:].startswith("(") and reads_as_unit(core)


def _paired(symbol_text: str, count: int, unit_text: str) -> list[tuple[str, int]]:
    """`unit_parts` for an entry that may list constants among its symbols (`N, H, ln 2`
    with `tokens, nats/token, nats/bit`): the units of the constants are nobody's."""
    pieces = [piece for piece, _ in listed(symbol_text, ",;")]
    constants = [k for k, piece in enumerate(pieces) if NUMBER_FUNCTION.fullmatch(piece)]
    if not constants or len(pieces) - len(constants) != count:
        return unit_parts(count, unit_text)
    parts = unit_parts(len(pieces), unit_text)  # one for all, or one for each piece
    return [part for k, part in enumerate(parts) if k not in constants]


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
        for name, (text, start) in zip(defined, _paired(symbol_text, len(defined), unit_text),
                                       strict=True):  # fmt: skip
            if not text:
                continue  # a unit list that does not pair with the symbols
            spec = parse_unit(text)
            if isinstance(spec, UnitSpec):
                spec = rooted(spec, power_of(symbol_text))
            if isinstance(spec, UnitProblem):  # the whole column (paired units all read)
                message = f"cannot read unit {text!r}: {spec.message}"
                result.problems.append(GlossaryProblem(index, UNIT, message, start + spec.column))
                break
            known = result.units.get(name)
            if known is None:
                result.units[name] = spec
            elif known.dimension != spec.dimension:
                message = (
                    f"{name} is already given unit {known.text!r}; {text!r} has another"
                    " dimension (the first is used)"
                )
                result.problems.append(GlossaryProblem(index, CONFLICT, message))
            elif (known.scale, known.offset) != (spec.scale, spec.offset):
                # one dimension, another size: claims compute in the first table's unit, so
                # the second table's reader would read the worked numbers off by a factor
                message = (
                    f"{name} is already given unit {known.text!r}; {text!r} is another "
                    f"size of that dimension (the first is used: the claims compute {name} "
                    f"in {known.text})"
                )
                result.problems.append(GlossaryProblem(index, CONFLICT, message))
    result.units = resolve(result.units)
    return result


def resolve(units: dict[str, UnitSpec]) -> dict[str, UnitSpec]:
    """Each unit with its references to other symbols (`same units as x`) resolved."""
    return {name: _resolved(spec, units) for name, spec in units.items()}


def _resolved(spec: UnitSpec, units: dict[str, UnitSpec]) -> UnitSpec:
    """`same units as x` (`units of x`) takes x's unit where the table gives x a real one;
    otherwise it stays a descriptive unit of its own."""
    if spec.units is None or spec.units.dimension.descriptive.is_dimensionless:
        return spec
    atoms, found = [], ONE
    for atom, power in spec.units.atoms():
        name = atom.key.removeprefix("abstract:")
        try:
            target = units.get(next(iter(symbol_names(name)), "")) if name != atom.key else None
        except SymbolError:
            target = None
        if (
            target is None
            or target.units is None
            or not target.units.dimension.descriptive.is_dimensionless
        ):
            atoms.append((atom, power))
        else:
            found = found * target.units**power
    if found == ONE:
        return spec
    read = UnitProduct(atoms, spec.units.factor) * found
    return UnitSpec(spec.text, kind_of(read), read, spec.shape, spec.remark)
