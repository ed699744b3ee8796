"""A value inference reads or solves, in the glossary's units and in base units, with the
tolerances its digits give it, and whether a relation holds at such values.

`known` reads a stated number; `solved` gives a symbol from a relation at the others, with
the tolerance its inputs' digits give it; `holds` evaluates a relation within the written
precision of the number it is at; `slipped` says whether a miss is one an author's slip
makes; `hollow` says when that number could be well off and the relation would still hold
(then the check proves nothing of it). `read` gives a relation as each reading evaluates it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import sympy

from atlas_build.claims.binding.compare import digits_tolerance, far_off
from atlas_build.claims.infer import solve
from atlas_build.claims.infer.statements import Stated
from atlas_build.claims.prose import numbers
from atlas_build.latex import Relation, WithUnit
from atlas_build.units import UnitError, UnitSpec, convert, units_of

SIGNIFICANT = 3  # digits from which a stated value may be a rounded one
GLOSSARY, BASE = 0, 1  # the two readings of every value: the table's units, base units


@dataclass(frozen=True)
class Reading:
    """A value in one system of units, with how far it may be off as an input (`tolerance`:
    half a unit in its last digit when it looks rounded, else 0) and as the number a
    relation is compared with (`own`: always half a unit in its last digit)."""

    value: sympy.Expr
    tolerance: sympy.Expr
    own: sympy.Expr | None = None


@dataclass(frozen=True)
class Known:
    """A symbol's value: stated in the prose, or solved from a relation (`via` those
    statements); one reading per system of units."""

    name: str
    readings: tuple[Reading, Reading]
    stated: Stated | None
    via: tuple[Stated, ...] = ()
    relations: frozenset[tuple[int, int]] = frozenset()  # those it was solved from

    @property
    def statements(self) -> tuple[Stated, ...]:
        return (self.stated,) if self.stated is not None else self.via


def read(relation: Relation, which: int) -> Relation:
    """`relation` as the reading `which` evaluates it: in base units, a constant written
    with its unit (`\\Delta f = 2^{\\mu}\\cdot 15\\ \\mathrm{kHz}`) is in base units too
    (15000 Hz); in the glossary's units it is taken as written."""
    return relation if which == GLOSSARY else _based(relation)


@functools.lru_cache(maxsize=4096)
def _based(relation: Relation) -> Relation:
    def base(node: WithUnit) -> sympy.Basic:
        try:
            units = units_of(node.unit)
        except UnitError:
            return node
        if units.levels or not node.value.is_number:
            return node  # a level (`−174 dBm/Hz`) has no base value to add
        return node.value * units.scale + units.offset

    def sides(side: sympy.Basic) -> sympy.Basic:
        if not isinstance(side, sympy.Basic) or not side.has(WithUnit):
            return side
        return side.replace(lambda n: isinstance(n, WithUnit), base)

    lhs, rhs = sides(relation.lhs), sides(relation.rhs)
    if lhs is relation.lhs and rhs is relation.rhs:
        return relation
    return replace(relation, lhs=lhs, rhs=rhs)


def _scaled(half: sympy.Expr, written: str | None, spec: UnitSpec | None) -> sympy.Expr:
    if written is None or spec is None or spec.units is None:
        return half
    try:
        return abs(convert(half, written, spec) - convert(0, written, spec))
    except (UnitError, ValueError, TypeError):
        return half


def rounded(quantity: numbers.Quantity, approx: bool = False) -> bool:
    """A value that may itself be rounded: hedged (`≈`, `about`), or written to three or
    more significant digits. `ρ = 0.8` and `125 requests/s` are taken as they are."""
    if approx:
        return True
    digits = "".join(c for c in quantity.text if c in "0123456789")
    return len(digits.lstrip("0")) >= SIGNIFICANT and quantity.decimals != 0


def known(stated: Stated, spec: UnitSpec | None) -> Known | None:
    """A stated value in the glossary's unit and in base units, with its tolerances."""
    if stated.value is None:
        return None
    half = _scaled(
        digits_tolerance(stated.quantity, None, stated.approx), stated.quantity.unit, spec
    )
    spread = half if rounded(stated.quantity, stated.approx) else sympy.Integer(0)
    table = Reading(stated.value, spread, half)
    if spec is None or spec.units is None:
        return Known(stated.name, (table, table), stated)
    units = spec.units
    base = Reading(
        stated.value * units.scale + units.offset, spread * units.scale, half * units.scale
    )
    return Known(stated.name, (table, base), stated)


def solved(
    key: tuple[int, int], relation: Relation, name: str, values: dict[str, Known]
) -> Known | None:
    """`name` solved from `relation` at the other values, in both readings, with the
    tolerance its inputs' digits give it (first order: |∂name/∂x|·tol_x summed)."""
    readings = []
    for which in (GLOSSARY, BASE):
        at = {n: k.readings[which].value for n, k in values.items()}
        near = next(iter(at.values()), sympy.Integer(1))
        value = solve.solve(read(relation, which), name, at, near)
        if value is None:
            return None
        tolerances = {n: k.readings[which].tolerance for n, k in values.items()}
        spread = solve.spread(read(relation, which), name, {**at, name: value}, tolerances)
        if spread is None:
            return None
        readings.append(Reading(value, spread))
    via = tuple(dict.fromkeys(s for k in values.values() for s in k.statements))
    used = frozenset({key}).union(*(k.relations for k in values.values()))
    return Known(name, (readings[0], readings[1]), None, via, used)


def near(value: sympy.Expr, other: sympy.Expr) -> bool:
    """Within 10% of each other (True where either is not a plain number): a cheap test
    before the relation is evaluated at a candidate."""
    try:
        a, b = float(value), float(other)
    except (TypeError, ValueError, OverflowError):
        return True
    return abs(a - b) <= 0.1 * max(abs(a), abs(b))


def exact(value: Known) -> Known:
    """`value` taken as written: a number found by its value must be the value the inputs
    give, not one their rounding admits (`β = 0.999` admits any N_eff from 667 to 2000)."""
    table, base = (replace(r, tolerance=sympy.Integer(0)) for r in value.readings)
    return replace(value, readings=(table, base))


def holds(relation: Relation, values: dict[str, Known], anchor: Stated) -> bool | None:
    verdicts = []
    for which in (GLOSSARY, BASE):
        at = {n: k.readings[which].value for n, k in values.items()}
        tolerances = {
            n: (k.readings[which].own if k.stated is anchor else None)
            or k.readings[which].tolerance
            for n, k in values.items()
        }
        found = solve.residual(read(relation, which), at, tolerances)
        verdicts.append(None if found is None else found.holds)
    if all(v is None for v in verdicts):
        return None
    return any(bool(v) for v in verdicts)


def slipped(relation: Relation, values: dict[str, Known]) -> bool:
    """Whether one stated number, changed by no more than an author's slip does
    (`compare.far_off`), would make the relation hold at the others, in either reading;
    True where none can be solved for. When every number misses by more, a number is more
    likely bound to the wrong symbol than mistyped, and a failing check is no error."""
    tried = False
    for name, mine in values.items():
        if mine.stated is None:
            continue
        for which in (GLOSSARY, BASE):
            stated = mine.readings[which].value
            at = {n: k.readings[which].value for n, k in values.items() if n != name}
            value = solve.solve(read(relation, which), name, at, stated)
            if value is None:
                continue
            tried = True
            if not far_off(stated, value):
                return True
    return not tried


HOLLOW = sympy.Rational(1, 10)


def hollow(relation: Relation, values: dict[str, Known], anchor: Stated) -> bool:
    """Whether the relation still holds with the anchor's number well off (10%, and at
    least two units in its last digit): it then proves nothing of that number (`R_T = R_F`
    read at one number; `(1−p)^x ≈ e^(−px)` at any small p), and a check that cannot fail
    verifies nothing."""
    mine = values.get(anchor.name)
    if mine is None:
        return False
    glossary, base = (
        replace(r, value=r.value + max(abs(r.value) * HOLLOW, 4 * (r.own or r.tolerance)))
        for r in mine.readings
    )
    if glossary.value == mine.readings[GLOSSARY].value:
        return False  # an exact zero: no size to move it by
    moved = replace(mine, readings=(glossary, base))
    return bool(holds(relation, {**values, anchor.name: moved}, anchor))
