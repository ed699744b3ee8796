"""Stated values of a claim: how a number, a vector or a name is written in claims.yaml.

A value is written one of two documented ways, and both are accepted: a number as lessons
write it (`0.9`, `−0.1`, `1,024`, `10⁻⁸`, `√9.5`, `ln 3`, `2×10⁻³`, `0111₂`) or lesson LaTeX
(`10^{-8}`, `\\sqrt{9.5}`, `\\frac{1}{3}`), which may use other values (`v - 1`, and entry
by entry for vectors: `v - y`). Lists are vectors and lists of lists matrices, indexed from
1 as lessons write `x_1 ... x_n` (the `formula` kind re-indexes them from where the
relations read them, or as its `index_base` says). A name is written as a plain identifier
(`beta_1`, `sigma`, `x_hat`) or as LaTeX (`\\beta_1`, `\\sigma`, `\\hat{x}`): both name the
symbol the parser reads from the lesson's equations. Nothing is evaluated as code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.symbol import Str

from atlas_build.claims.binding import anchors
from atlas_build.claims.kinds import _exact
from atlas_build.claims.prose import numbers
from atlas_build.claims.running.registry import ClaimError
from atlas_build.latex import LatexError, parse_expression
from atlas_build.latex.probability import Probability

Scalar = str | int | float
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_FORMS = "a number as lessons write it (0.9, −0.1, 10⁻⁸, √9.5) or LaTeX (10^{-8}, \\sqrt{9.5})"


def symbol(name: str, symbols: list[str] | tuple[str, ...] = ()) -> sympy.Symbol:
    """The symbol a key names: `beta_1` or `\\beta_1` (a base case `m_0` is `m_0`)."""
    if _IDENTIFIER.fullmatch(name):
        return sympy.Symbol(name)
    try:
        parsed = parse_expression(name, symbols=list(symbols))
    except LatexError as error:
        raise ClaimError(f"{name!r} names no symbol: {error.message}") from None
    if isinstance(parsed, sympy.Indexed):
        if _exact.constant_index(parsed):  # `m_0`, `\\Delta_{[2^{10},2^{11})}`
            return sympy.Symbol(_exact.constant_name(parsed))
        indices = "_".join(str(i) for i in parsed.indices)
        return sympy.Symbol(f"{parsed.base.label}_{indices}")
    if isinstance(parsed, Probability):  # `P(D|+)`: one value, named by its key
        return sympy.Symbol(parsed.key)
    if isinstance(parsed, AppliedUndef) and all(isinstance(a, sympy.Symbol) for a in parsed.args):
        # `P(+)`, alone a call, is the probability `P(plus)` where an equation makes P one
        return sympy.Symbol(Probability(Str(type(parsed).__name__), *parsed.args).key)
    if not isinstance(parsed, sympy.Symbol):
        raise ClaimError(f"{name!r} names no symbol (write a name such as sigma or \\sigma)")
    return parsed


def number(value: Any, where: str, env: _exact.Env | None = None, *, vectors: bool = False) -> Any:
    """An exact value from a claims-file scalar (see the module docstring); written as
    LaTeX, it may use the values `env` already holds (`t: "v - 1"`), and with `vectors`
    compute a vector from them (`r: "v - y"`, entry by entry)."""
    if isinstance(value, bool) or value is None:
        raise ClaimError(
            f"{where}: {value!r} is not a number; write {_FORMS}", pointer=_pointer(where)
        )
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ClaimError(f"{where}: {value!r} is not a finite number", pointer=_pointer(where))
        return sympy.Rational(repr(value))
    if not isinstance(value, str):
        raise ClaimError(f"{where}: expected {_FORMS}, or a list of them", pointer=_pointer(where))
    try:
        quantity = numbers.parse_quantity(value)
    except ValueError:
        quantity = None
    if quantity is not None and quantity.unit is not None:
        # Values are bare numbers in the unit the symbol table gives their symbol; dropping
        # a written unit (`2000 ms` read as 2000 s) would fix a wrong value in silence.
        raise ClaimError(
            f"{where}: {value!r} carries a unit ({quantity.unit}); values are bare numbers in "
            f"the unit the lesson's symbol table gives the symbol (write the number in that "
            f"unit, a percentage as a fraction: 5% as 0.05)",
            pointer=_pointer(where),
        )
    if quantity is not None:
        return quantity.value
    try:
        expression = parse_expression(value)
    except LatexError as error:
        raise ClaimError(
            f"{where}: {value!r} is neither {_FORMS} ({error.message})", pointer=_pointer(where)
        ) from None
    try:
        result = _exact.evaluate(expression, env or _exact.Env())
    except _exact.Unknown as unknown:
        raise ClaimError(
            f"{where}: {value!r} is not a number: read as LaTeX it is {expression}, and "
            f"{unknown.name} has no value; write {_FORMS}",
            pointer=_pointer(where),
        ) from None
    if vectors and isinstance(result, _exact.Series):
        return result
    if not getattr(result, "is_number", False):
        what = _exact.describe(result) if isinstance(result, _exact.Series) else "not a number"
        raise ClaimError(f"{where}: {value!r} is {what}", pointer=_pointer(where))
    return result


def environment(values: Mapping[str, Any], symbols: list[str]) -> _exact.Env:
    """The claim's stated values. A scalar may be written in terms of others (`v: 3,
    t: "v - 1"`, or of vectors, `r: "v - y"`): those are evaluated once what they use has
    a value, in any order; one that still names a symbol without a value is an error at
    its key."""
    env = _exact.Env()
    waiting: list[tuple[sympy.Symbol, Any, str]] = []
    for key, value in values.items():
        name = symbol(key, symbols)
        where = f"values.{key}"
        if isinstance(value, list):
            if not value:
                raise ClaimError(f"{where}: an empty list has no entries")
            rows = [
                [number(v, f"{where}[{i}][{j}]") for j, v in enumerate(row)]
                if isinstance(row, list)
                else number(row, f"{where}[{i}]")
                for i, row in enumerate(value)
            ]
            env.arrays[name.name] = _exact.series(rows)
        else:
            waiting.append((name, value, where))
    while waiting:
        left: list[tuple[sympy.Symbol, Any, str]] = []
        failure: ClaimError | None = None
        for name, value, where in waiting:
            try:
                found = number(value, where, env, vectors=True)
            except ClaimError as error:
                left.append((name, value, where))
                failure = failure or error
                continue
            if isinstance(found, _exact.Series):
                env.arrays[name.name] = found
            else:
                env.scalars[name] = found
        if len(left) == len(waiting):
            assert failure is not None
            raise failure
        waiting = left
    return env


def names(values: Mapping[str, Any], symbols: list[str]) -> list[str]:
    return [symbol(key, symbols).name for key in values]


def same(left: Any, right: Any, op: str, written: Any = 0) -> bool:
    """Whether a relation holds at two evaluated sides (exactly, or within 1e-40). `≈`
    allows 0.5% of the larger side, or `written`: half a unit in the last digit of the
    number the relation writes (`V_T ≈ 26 mV` holds for 25.85 mV). Relative, never
    absolute: in SI units a millimetre is 0.001, and any floor would pass it for any
    other length of that size."""
    if isinstance(left, _exact.Series) or isinstance(right, _exact.Series):
        return (
            isinstance(left, _exact.Series)
            and isinstance(right, _exact.Series)
            and _exact.shape(left) == _exact.shape(right)
            and len(left) == len(right)
            and all(
                same(a, b, op, written)
                for a, b in zip(left.ordered(), right.ordered(), strict=True)
            )
        )
    difference = sympy.N(left - right, 50)
    if op in ("=", ":=", "<-"):
        return bool(abs(difference) <= sympy.Float("1e-40"))
    if op == "approx":
        scale = max(abs(sympy.N(left, 30)), abs(sympy.N(right, 30)))
        allowed = max(scale * sympy.Float("5e-3"), sympy.N(abs(written), 30))
        return bool(abs(difference) <= allowed)
    relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "!=": sympy.Ne}.get(
        op
    )
    if relation is None:
        raise ClaimError(f"a `{op}` relation cannot be evaluated at values")
    return bool(relation(sympy.N(left, 50), sympy.N(right, 50)))


def _pointer(where: str) -> str:
    """`values.x[1]` -> `/params/values/x/1` (relative to the claim)."""
    return "/params/" + where.replace("[", "/").replace("]", "").replace(".", "/")


def written_precision(source: str, lhs: Any, rhs: Any, ratio: Any = 1) -> Any:
    """Half a unit in the last digit of the one number a `≈` relation writes on a side of
    its own (`d \\approx 10\\,\\mathrm{mm}`), in the left side's units (`ratio` converts
    the right side's to them, as the caller compares); 0 when the relation writes no such
    number (`\\sqrt{1+x} \\approx 1 + x/2`)."""
    try:
        items = [i for i in anchors.skeleton(source).items if isinstance(i, numbers.Quantity)]
    except (ValueError, RecursionError):
        return 0
    lone = [(side, scale) for side, scale in ((lhs, 1), (rhs, ratio))
            if getattr(side, "is_number", False)]  # fmt: skip
    if len(items) != 1 or len(lone) != 1 or items[0].value == 0:
        return 0
    quantity, (side, scale) = items[0], lone[0]
    written = abs(sympy.N(side, 30) / sympy.N(quantity.value, 30))
    return sympy.N(quantity.tolerance, 30) * written * abs(sympy.N(scale, 30))
