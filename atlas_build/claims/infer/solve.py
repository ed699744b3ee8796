"""One relation at stated values: does it hold, and what does it give for an unknown symbol.

A relation is `lhs = rhs` (or `≈`) of plain symbols: no indexed entries, sums, integrals
or functions the lesson defines, which need more than a value per symbol. Values are
exact; `residual` says how far the relation is from holding and how far it may be, given
the written precision of every number in it (each number's half unit, carried through the
relation to first order); `solve` gives the values of one unknown that make it hold.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

import mpmath
import sympy
from sympy.core.function import AppliedUndef

from atlas_build.claims import numeric, solver
from atlas_build.latex import Relation

EQUALITIES = ("=", "approx", ":=")
_OPAQUE = (
    sympy.Indexed,
    sympy.Sum,
    sympy.Product,
    sympy.Integral,
    sympy.Derivative,
    sympy.Limit,
    AppliedUndef,
)
MAX_OPS = 200
DIGITS = 30
_EXACT = numeric.real(sympy.Rational(1, 10**25))  # what an exact relation may miss
_LOOSE = numeric.real(sympy.Rational(1, 10**9))  # first-order estimate's margin
_APPROXIMATE = numeric.real(sympy.Rational(1, 100))  # an `≈` relation, no decimals
_TINY = numeric.real(sympy.Rational(1, 10**300))


@dataclass(frozen=True)
class Residual:
    """|lhs − rhs| at the values, and how large the written digits allow it to be.
    `bracketed`: whether lhs − rhs changes sign over the corners of the box the rounded
    values span (None when too many are rounded to try them all): exact where the first
    order estimate of `allowed` is not (`L = ρ/(1 − ρ)` near ρ = 1)."""

    distance: mpmath.mpf  # numbers at `numeric.WORKING` digits
    allowed: mpmath.mpf
    bracketed: bool | None = None
    slack: mpmath.mpf = 0  # what an approximate relation is allowed besides

    @property
    def holds(self) -> bool:
        if self.distance <= self.slack:
            return True
        if self.bracketed is not None:
            return self.bracketed
        return bool(self.distance <= self.allowed)


def usable(relation: Relation) -> bool:
    """A relation of plain symbols, small enough to evaluate and solve cheaply."""
    if relation.op not in EQUALITIES:
        return False
    for side in (relation.lhs, relation.rhs):
        if not isinstance(side, sympy.Expr) or side.atoms(*_OPAQUE):
            return False
        if sympy.count_ops(side) > MAX_OPS:
            return False
    return bool(symbols(relation)) and not _identity(relation.lhs, relation.rhs)


def _identity(lhs: sympy.Expr, rhs: sympy.Expr) -> bool:
    """Whether the symbols cancel (`√(2 ln 2)√N ≈ 1.1774√N`, `(1−p)/(1−p) x = x`): the
    relation holds, or fails, at any value of them, so no number is proved by it."""
    if lhs == 0 or rhs == 0:
        return False
    ratio = lhs / rhs
    if ratio.has(sympy.log):
        ratio = sympy.expand_log(ratio, force=True)  # `log₂(1/p)` against `ln p`
    return not ratio.free_symbols or not (lhs - rhs).free_symbols


def symbols(relation: Relation) -> dict[str, sympy.Symbol]:
    """The relation's symbols by name, in name order (never the hash order of a set: a
    report must not change with PYTHONHASHSEED). Shared: callers must not change it."""
    try:
        return _symbols(relation.lhs, relation.rhs)
    except TypeError:  # a side that cannot be hashed (a mutable matrix)
        return _symbols.__wrapped__(relation.lhs, relation.rhs)


@functools.lru_cache(maxsize=4096)
def _symbols(lhs: sympy.Basic, rhs: sympy.Basic) -> dict[str, sympy.Symbol]:
    found = lhs.free_symbols | rhs.free_symbols
    plain = [symbol for symbol in found if isinstance(symbol, sympy.Symbol)]
    return {symbol.name: symbol for symbol in sorted(plain, key=lambda s: s.name)}


def residual(
    relation: Relation,
    values: Mapping[str, sympy.Expr],
    tolerances: Mapping[str, sympy.Expr],
) -> Residual | None:
    """Whether `lhs = rhs` holds at `values` within the numbers' precision; None when it
    cannot be evaluated there (a value missing, a root of a negative)."""
    named = symbols(relation)
    if set(named) - set(values):
        return None
    difference = _difference(relation.lhs, relation.rhs)
    at = {named[name]: values[name] for name in named}
    distance = solver.value(difference, at)
    if distance is None:
        return None
    real = numeric.real
    allowed = real(0)
    for name, symbol in named.items():
        tolerance = tolerances.get(name, 0)
        if not tolerance:
            continue
        slope = solver.value(solver.derivative(difference, symbol), at)
        if slope is None:
            return None
        allowed += abs(real(slope)) * real(tolerance)
    scale = _scale(relation, at, numeric.real(distance))
    exact = slack = scale * _EXACT
    if relation.op == "approx":
        # `ln 2·RC ≈ 0.69·RC`: as close as its own constants' digits; one that writes none
        # (`R_s(1 + Q²) ≈ Q² R_s`) is an approximation of unstated quality: 1%
        slack += scale * max(_rounding(relation.source), _APPROXIMATE)
    gap = abs(real(distance))
    # the corners decide only what the slack does not (`holds`)
    bracketed = (
        None if gap <= slack else _corners(difference, named, at, tolerances, distance, exact)
    )
    return Residual(gap, allowed * (1 + _LOOSE) + slack, bracketed, slack)


def _scale(
    relation: Relation, at: Mapping[sympy.Symbol, sympy.Expr], distance: mpmath.mpf
) -> mpmath.mpf:
    """The size of the relation's sides at `at`, which its slack is relative to: the
    larger side (the right one is the left one less `distance`), 1 only where both are 0.
    Values in base units are small (166 ps is 1.66e-10 s): a floor of 1 would let an `≈`
    relation's 1% admit any of them."""
    lhs = solver.value(relation.lhs, at)
    if lhs is None:
        return numeric.real(1)
    left = numeric.real(lhs)
    largest = max(abs(left), abs(left - distance))
    return largest if largest > 0 else numeric.real(1)


MAX_CORNERS = 4  # rounded values whose box is tried corner by corner (2^4 evaluations)


@functools.lru_cache(maxsize=4096)
def compiled(relation: Relation) -> bool:
    """Whether the relation and its slopes evaluate by `numeric`'s compiled closures, not
    by SymPy (a sum or a special function, which can take most of a second each time)."""
    difference = _difference(relation.lhs, relation.rhs)
    if numeric.compile(difference) is None:
        return False
    slopes = (solver.derivative(difference, symbol) for symbol in difference.free_symbols)
    return all(numeric.compile(slope) is not None for slope in slopes)


def _difference(lhs: sympy.Expr, rhs: sympy.Expr) -> sympy.Expr:
    return lhs - rhs


def _corners(
    difference: sympy.Expr,
    named: dict[str, sympy.Symbol],
    at: dict[sympy.Symbol, sympy.Expr],
    tolerances: Mapping[str, sympy.Expr],
    distance: numeric.Value,
    slack: numeric.Value = 0,
) -> bool | None:
    """Whether `difference` takes both signs (or zero, to within `slack`: a corner at the
    stated value, `25.85` for a `≈ 25.9`, meets it only to working digits) over the
    corners of the box the rounded values span; None when more than `MAX_CORNERS` are
    rounded."""
    rounded_ = [(named[n], t) for n, t in tolerances.items() if t and n in named]
    if not rounded_:
        return bool(distance == 0)
    if len(rounded_) > MAX_CORNERS:
        return None
    try:
        rounded = [(symbol, numeric.of(t)) for symbol, t in rounded_]
        start = {symbol: numeric.of(given) for symbol, given in at.items()}
    except numeric.Unsupported:
        return None
    signs: set[bool] = set()
    for corner in range(2 ** len(rounded)):
        moved = dict(start)
        for bit, (symbol, tolerance) in enumerate(rounded):
            sign = 1 if corner >> bit & 1 else -1
            moved[symbol] = numeric.shifted(start[symbol], tolerance, sign)
        value = solver.value(difference, moved)
        if value is None:
            return None
        if abs(numeric.real(value)) <= slack:
            return True
        signs.add(value > 0)
    return len(signs) == 2


_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\d.])")


def _rounding(source: str) -> mpmath.mpf:
    """The largest relative rounding of a decimal constant a relation writes (`0.69`:
    0.005/0.69), which an approximate relation is allowed."""
    worst = numeric.real(0)
    for whole, fraction in _DECIMAL.findall(source):
        value = numeric.real(sympy.Rational(f"{whole}.{fraction}"))
        if value:
            half = numeric.real(sympy.Rational(1, 2 * 10 ** len(fraction)))
            worst = max(worst, half / value)
    return worst


def spread(
    relation: Relation,
    name: str,
    values: Mapping[str, sympy.Expr],
    tolerances: Mapping[str, sympy.Expr],
) -> sympy.Expr | None:
    """How far `name`, solved from the relation at `values` (its own included), may be
    off given the other values' tolerances: Σ |∂F/∂x / ∂F/∂name| · tol_x, F = lhs − rhs."""
    named = symbols(relation)
    difference = _difference(relation.lhs, relation.rhs)
    at = {named[n]: values[n] for n in named}
    found = solver.value(solver.derivative(difference, named[name]), at)
    real = numeric.real
    if found is None or not abs(real(found)) > _TINY:
        return None
    own = real(found)
    total = real(0)
    for other, symbol in named.items():
        tolerance = tolerances.get(other, 0)
        if other == name or not tolerance:
            continue
        slope = solver.value(solver.derivative(difference, symbol), at)
        if slope is None:
            return None
        total += abs(real(slope) / own) * real(tolerance)
    return numeric.to_float(total, DIGITS)


def plain(relation: Relation) -> Relation:
    """A function written with its arguments throughout (`S(N) = 1/((1-p) + p/N)`,
    `E(N) = S(N)/N`) read as the symbol of its value, so prose that states `S = 12.5`
    completes it. A function applied to different arguments in one relation
    (`D(T_2)/D(T_1)`) is left as it is."""
    applied: dict[str, set[tuple[sympy.Basic, ...]]] = {}
    for side in (relation.lhs, relation.rhs):
        if isinstance(side, sympy.Basic):
            for node in side.atoms(AppliedUndef):
                applied.setdefault(type(node).__name__, set()).add(tuple(node.args))
    swap = {}
    for name, calls in applied.items():
        if len(calls) == 1 and all(isinstance(arg, sympy.Symbol) for arg in next(iter(calls))):
            swap[name] = sympy.Symbol(name)
    if not swap:
        return relation

    def replaced(side: sympy.Basic) -> sympy.Basic:
        return side.replace(
            lambda node: isinstance(node, AppliedUndef) and type(node).__name__ in swap,
            lambda node: swap[type(node).__name__],
        )

    return replace(relation, lhs=replaced(relation.lhs), rhs=replaced(relation.rhs))


def solve(
    relation: Relation,
    unknown: str,
    values: Mapping[str, sympy.Expr],
    near: sympy.Expr,
) -> sympy.Expr | None:
    """The value of `unknown` that makes `lhs = rhs` hold at `values` (every other
    symbol must have one): read off when the relation is solved for it, else the root
    nearest `near` (found numerically: symbolic solving of a transcendental relation can
    take minutes)."""
    named = symbols(relation)
    if unknown not in named or set(named) - set(values) - {unknown}:
        return None
    target = named[unknown]
    at = {named[name]: values[name] for name in named if name != unknown}
    lhs, rhs = solver.substitute(relation.lhs, at), solver.substitute(relation.rhs, at)
    if lhs == target and target not in rhs.free_symbols:
        return rhs if solver.value(relation.rhs, at) is not None else None
    if rhs == target and target not in lhs.free_symbols:
        return lhs if solver.value(relation.lhs, at) is not None else None
    found = solver.roots(lhs - rhs, target, near)
    if not found:
        return None
    close = solver.number(near)
    return min(found, key=lambda v: abs((solver.number(v) or 0) - (close or 0)))
