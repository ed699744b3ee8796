"""Dimensional consistency of one relation `lhs op rhs` against a lesson's units."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

import sympy

from .affine import interval, is_point
from .certainty import AGREE, UNCERTAIN, bare_number, compare, period_between, why_uncertain
from .dimension import Dimension
from .findings import AFFINE, ARGUMENT, EXPONENT, RELATION, TERMS, UNKNOWN, Finding
from .parse import parse_unit
from .product import UnitProduct
from .spec import UnitSpec
from .walk import Place, Walker

UNCOMPARED = frozenset({"propto", "∝", "->", "mapsto", "<->"})
"""Operators whose sides need not share a dimension (`a ∝ b`; an arrow to a limit's form,
`g k \\tanh(kh) \\xrightarrow{kh\\gg1} L_0`; a map; a transform pair `x(t) ↔ X(f)`);
their parts are still checked."""

SETS = frozenset({"in", "∈", "notin", "∉", "subset", "subseteq", "⊂", "⊆", "supset", "⊃"})
"""Set notation (`W \\in \\mathbb R^{m×n}`): membership, not arithmetic, so not checked."""


def check(
    lhs: sympy.Basic, rhs: sympy.Basic, op: str, units: Mapping[str, UnitSpec]
) -> list[Finding]:
    """Findings for `lhs op rhs`: both sides, every sum's terms, every function argument.

    Symbols without a unit come back once each as `unknown` findings (the
    relation, or that part of it, is then not checked); every other kind is an
    inconsistency. A side mismatch reads "left side V, right side V·K/J".
    """
    if op in SETS:
        message = f"set notation ({op}) states a membership, not arithmetic: not checked"
        return [Finding(UNCERTAIN, message, None, None)]
    findings = _walk(lhs, rhs, op, units)
    if any(finding.kind == AFFINE for finding in findings) and _any_zero(lhs, rhs, units):
        return _walk(lhs, rhs, op, {**units, **_intervals(lhs, rhs, units)})
    return findings


def counted_from_zero(
    lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]
) -> sympy.Basic | None:
    """A term, on a side that multiplies a °C value, that holds no temperature at all
    (`h = c_pa T + ω(h_g0 + c_pv T)`: ω·h_g0, the vapour's enthalpy at 0 °C): the side is
    counted from the scale's zero, as psychrometric enthalpy is, and its °C values may be
    multiplied. `k(θ − ΔT)` has none (kΔT holds a temperature), nor `P V = n R θ`, nor
    `R₀(1 + AT)`, whose R₀ scales the temperature's terms too (a slope per °C, which
    `dimensions.empirical` allows only where the table calls it a coefficient)."""
    points = set(_points(lhs, rhs, units))
    warm = {name for name, spec in units.items() if _warm(spec)}
    for side in (lhs, rhs):
        if not isinstance(side, sympy.Expr) or not _names(side) & points:
            continue
        try:
            terms = sympy.Add.make_args(sympy.expand(side))
        except (TypeError, ValueError, ArithmeticError, RecursionError):
            continue
        heated = [term for term in terms if _names(term) & points]
        for term in terms:
            used = _names(term)
            if used and not used & warm and not any(_divides(term, t) for t in heated):
                return term
    return None


def _divides(offset: sympy.Basic, term: sympy.Basic) -> bool:
    """Whether `offset` is a factor of `term` (R₀ of R₀·A·T)."""
    try:
        return sympy.fraction(sympy.together(term / offset))[1].is_number is True
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return True


def _warm(spec: UnitSpec) -> bool:
    return spec.units is not None and spec.units.dimension.exponent("[temperature]") != 0


def _names(expr: sympy.Basic) -> set[str]:
    """The names of an expression's plain symbols (not an index base, not a dummy)."""
    return {s.name for s in expr.free_symbols if isinstance(s, sympy.Symbol)}


def _points(lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]) -> list[str]:
    """The relation's symbols whose table unit is a point on a scale with another zero."""
    names = set().union(*(_names(side) for side in (lhs, rhs) if isinstance(side, sympy.Basic)))
    return sorted(n for n in names if (spec := units.get(n)) is not None and is_point(spec.units))


def _any_zero(lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]) -> bool:
    """Whether the relation holds whatever zero its °C (or °F) scale has: every such
    temperature moved by one amount leaves `lhs − rhs` as it was (`T_in = (1 − r)T_s + r
    T_ex`, a mixture; `T_j = (T_a + R I²R₂₅(1 − αT₀))/(1 − αRI²R₂₅)`, a coefficient taken
    from T₀). Then the points multiplied are no error: the scale's zero cancels."""
    names = _points(lhs, rhs, units)
    if not names or not all(isinstance(side, sympy.Expr) for side in (lhs, rhs)):
        return False
    shift = sympy.Dummy("shift")
    difference = lhs - rhs
    moved = {s: s + shift for s in difference.free_symbols if getattr(s, "name", None) in names}
    if not moved:
        return False
    try:
        return bool(sympy.cancel(difference.xreplace(moved) - difference) == 0)
    except (TypeError, ValueError, ArithmeticError, RecursionError, sympy.PolynomialError):
        return False


def _intervals(
    lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]
) -> dict[str, UnitSpec]:
    """The relation's points as intervals (kelvin-sized), once `_any_zero` holds."""
    found = {}
    for name in _points(lhs, rhs, units):
        spec = units[name]
        assert spec.units is not None
        found[name] = replace(spec, units=interval(spec.units))
    return found


def _walk(
    lhs: sympy.Basic, rhs: sympy.Basic, op: str, units: Mapping[str, UnitSpec]
) -> list[Finding]:
    walker = Walker(units)
    try:
        left = walker.side(lhs, "lhs", _other(rhs, lhs, units))
        right = walker.side(rhs, "rhs", _other(lhs, rhs, units))
    except RecursionError:
        message = "expression too deep to check"
        return [*walker.findings, Finding(UNKNOWN, message, None, None)]
    if op in UNCOMPARED:
        return walker.findings
    if isinstance(left, UnitProduct) and isinstance(right, UnitProduct):
        verdict = compare(left, right)
        if verdict == AGREE and left.offset != right.offset:
            message = (
                f"left side {left.format()}, right side {right.format()}: a temperature on a "
                "scale with another zero; convert it (θ + 273.15 K for °C)"
            )
            walker.findings.append(
                Finding(AFFINE, message, None, None, left=left.format(), right=right.format())
            )
            return walker.findings
        if verdict != AGREE:
            walker.findings.append(_sides(lhs, rhs, left, right, verdict, units))
    measured = _measured(lhs, rhs)
    if measured:
        return [_numeric_value(finding, measured) for finding in walker.findings]
    return walker.findings


MEASURED = (12, 12)
"""A constant is simple when it is p/q with |p| and q at most these (2, ½, 8/9, 3/2); any
other (1239.84, 6×10⁻⁴, 0.442, 3600) is a measured number or a conversion factor."""


def _measured(lhs: sympy.Basic, rhs: sympy.Basic) -> list[sympy.Number]:
    """The constants of `lhs op rhs` that are not simple (`MEASURED`), in order; a number
    written with its unit is not one."""
    found: list[sympy.Number] = []
    for side in (lhs, rhs):
        walk = sympy.preorder_traversal(side)
        for atom in walk:
            if type(atom).__name__ == "WithUnit":
                walk.skip()  # a number written with its unit (`25.9 mV`) carries no other
            elif isinstance(atom, sympy.Rational) and atom not in found:
                if abs(atom.p) > MEASURED[0] or atom.q > MEASURED[1]:
                    found.append(atom)
            elif isinstance(atom, sympy.Float) and atom not in found:
                found.append(atom)
    return found


def _numeric_value(finding: Finding, measured: list[sympy.Number]) -> Finding:
    """A disagreement in a relation with measured constants (`E_eV ≈ 1239.84/λ_nm`, an
    empirical fit `c = −0.442 − 6×10⁻⁴ T + …`) is not certain: such a relation is a
    numeric-value equation, its constants carry the units that make it agree."""
    if finding.kind not in (RELATION, TERMS, ARGUMENT, EXPONENT, AFFINE):
        return finding
    shown = ", ".join(_show_side(number) for number in measured[:3])
    message = (
        f"{finding.message}: its constants ({shown}) may carry units (a numeric-value "
        "equation), so the difference is not certain"
    )
    return Finding(UNCERTAIN, message, finding.expr, finding.side, finding.term,
                   finding.term_index)  # fmt: skip


def _sides(
    lhs: sympy.Basic,
    rhs: sympy.Basic,
    left: UnitProduct,
    right: UnitProduct,
    verdict: str,
    units: Mapping[str, UnitSpec],
) -> Finding:
    """The finding for two sides of different dimensions: an error only when certain."""
    shown_left, shown_right = left.format(), right.format()
    if shown_left == shown_right:  # same text, different dimensions: say both in base units
        shown_left, shown_right = str(left.dimension), str(right.dimension)
    message = f"left side {shown_left}, right side {shown_right}"
    if verdict == UNCERTAIN:
        return Finding(UNCERTAIN, f"{message}: {why_uncertain(left, right)}", None, None)
    period = period_between(left, right)
    if period is not None:  # `E_day = P·H_POA/G` with H_POA in kWh/m² per day, E_day in kWh
        message += (
            f": the sides differ by one {period}, a total over a {period} written as a rate"
            f" per {period} or the reverse, so the difference is not certain"
        )
        return Finding(UNCERTAIN, message, None, None)
    counted = _per_count(lhs, rhs, left, right, units)
    if counted is not None:  # `IL = ℓ/(100 m)·(k₁√f + …)` with k₁ in `dB per 100 m per √MHz`
        message += (
            f": the sides differ by the {counted} a table unit is written per, the loss of"
            " each such length (or time) scaled by how many there are, so the difference is"
            " not certain"
        )
        return Finding(UNCERTAIN, message, None, None)
    if bool(left.levels) != bool(right.levels):  # `kT_0 ≈ −174 dBm/Hz`: a level of it
        message += ": one side is a level (a logarithm) of what the other states, not compared"
        return Finding(UNCERTAIN, message, None, None)
    for side, value, other in ((lhs, left, right), (rhs, right, left)):
        if bare_number(side, _pure_symbols(side, value, units)):
            message += (
                f": {_show_side(side)} is a bare number, whose constant may carry the unit"
                f" {other.format()}, so the difference is not certain"
            )
            return Finding(UNCERTAIN, message, None, None)
    return Finding(RELATION, message, None, None, left=shown_left, right=shown_right)


_PER_COUNT = re.compile(r"\bper\s+(\d[\d,.]*\s*[A-Za-zµΩ°]+)")


def _per_count(
    lhs: sympy.Basic,
    rhs: sympy.Basic,
    left: UnitProduct,
    right: UnitProduct,
    units: Mapping[str, UnitSpec],
) -> str | None:
    """The reference amount (`100 m`) of a table unit written per a count of another
    (`dB per 100 m`: the loss of each 100 m) when the sides differ by exactly its
    dimension: a formula that scales it by `ℓ/(100 m)` reads the unit as that."""
    ratio = left.dimension / right.dimension
    for symbol in {*lhs.free_symbols, *rhs.free_symbols}:
        spec = units.get(str(symbol))
        found = _PER_COUNT.search(spec.text) if spec is not None else None
        if found is None:
            continue
        reference = parse_unit(found.group(1))
        if isinstance(reference, UnitSpec) and reference.units is not None:
            dimension = reference.units.dimension
            if ratio == dimension or ratio == Dimension() / dimension:
                return found.group(1)
    return None


def _pure_symbols(side: sympy.Basic, value: UnitProduct, units: Mapping[str, UnitSpec]) -> bool:
    """Whether `side` is a pure number and so is every symbol in it."""
    if compare(value) != AGREE:
        return False
    for symbol in side.free_symbols:
        found = unit_of(symbol, units)
        if found is not None and compare(found) != AGREE:
            return False
    return True


def _show_side(side: sympy.Basic) -> str:
    text = sympy.sstr(side)
    return text if len(text) <= 40 else text[:37] + "..."


def side_ratio(lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]) -> sympy.Expr:
    """How many of the left side's unit one of the right side's is: 1/10 for µA on the
    left and fF·cm²·V/(µm²·s) on the right. Claims compute with numbers in the symbol
    table's units, so a value computed from the right side is this factor times the
    left side's number. 1 when either unit is unknown, the dimensions differ, or a unit
    is affine (°C: a factor alone does not convert it)."""
    left, right = unit_of(lhs, units), unit_of(rhs, units)
    if left is None or right is None or left.dimension != right.dimension:
        return sympy.Integer(1)
    if left.offset or right.offset:
        return sympy.Integer(1)
    return sympy.nsimplify(right.scale / left.scale)


def zero_mismatch(
    lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec]
) -> tuple[str, str] | None:
    """The two sides' units when they share a dimension but not a zero (K and °C), else
    None. No factor turns one side's number into the other's then (T = θ is 293.15 for θ
    = 20), so a claim must not compute one from the other."""
    left, right = unit_of(lhs, units), unit_of(rhs, units)
    if left is None or right is None or left.dimension != right.dimension:
        return None
    if left.offset == right.offset:
        return None
    return left.format(), right.format()


def _other(other: sympy.Basic, side: sympy.Basic, units: Mapping[str, UnitSpec]) -> object:
    """The dimension of `other`, needed only to place blame within a sum on `side`."""
    if not isinstance(side, sympy.Add):
        return None
    dimension = dimension_of(other, units)
    return dimension.checked if dimension is not None else None


def unit_of(expr: sympy.Basic, units: Mapping[str, UnitSpec]) -> UnitProduct | None:
    """The unit expression of `expr`; None when unknown, inconsistent, or 0/∞ (any unit)."""
    walker = Walker(units)
    try:
        value = walker.value(expr, Place())
    except RecursionError:
        return None
    return value if isinstance(value, UnitProduct) else None


def dimension_of(expr: sympy.Basic, units: Mapping[str, UnitSpec]) -> Dimension | None:
    """The dimension of `expr` (see `unit_of` for when it is None)."""
    value = unit_of(expr, units)
    return value.dimension if value is not None else None
