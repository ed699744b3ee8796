"""Symbolic derivation for the `equation` kind: substitute definitions, simplify the difference.

A definition is a rule: a symbol (`o = ...`), an indexed entry (`a_k = ...`, applied to every
`a[...]`), or a power (`\\sigma^2 = ...`, which also gives `\\sigma` as its root). Before
simplifying, sums are put in a canonical form: their dummy indices renamed by position, and
split by linearity (a sum of a sum of terms is a sum of sums, factors that do not depend on
the index move out), so `\\sum_i x_i - \\sum_j x_j` is 0 and `\\sum_i (x_i + y_i)` equals
`\\sum_i x_i + \\sum_i y_i`; SymPy alone proves neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sympy

from atlas_build.claims.running.registry import ClaimError
from atlas_build.latex import parse_expression

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*")


@dataclass(frozen=True)
class Rule:
    kind: str  # "symbol", "indexed" or "power"
    target: Any  # the Symbol, the IndexedBase, or the power's base Symbol
    template: sympy.Expr
    index: Any = None  # the index symbol of an indexed rule, the exponent of a power

    @property
    def pair(self) -> tuple[Any, sympy.Expr] | None:
        """(symbol, value) for rules a sample can evaluate directly."""
        return (self.target, self.template) if self.kind == "symbol" else None


def _fresh_bounds(expr: sympy.Expr) -> sympy.Expr:
    """Rename every summation index to a fresh dummy so substitution cannot capture it."""

    def rename(term: sympy.Sum) -> sympy.Sum:
        body, limits = term.function, []
        for variable, low, high in term.limits:
            fresh = sympy.Dummy(variable.name, integer=True)
            body = body.subs(variable, fresh)
            limits.append((fresh, low, high))
        return sympy.Sum(body, *limits)

    return expr.replace(lambda e: isinstance(e, sympy.Sum), rename)


def rule(left: sympy.Expr, right: sympy.Expr, source: str) -> Rule:
    if isinstance(left, sympy.Indexed) and len(left.indices) == 1:
        return Rule("indexed", left.base, _fresh_bounds(right), left.indices[0])
    if isinstance(left, sympy.Symbol):
        return Rule("symbol", left, _fresh_bounds(right))
    if isinstance(left, sympy.Pow) and isinstance(left.base, sympy.Symbol) and left.exp.is_number:
        return Rule("power", left.base, _fresh_bounds(right), left.exp)
    raise ClaimError(f"definition {source!r} must define a symbol, x_i or a power such as σ²")


def target(name: str, indices: list[str], symbols: list[str]) -> sympy.Expr:
    """The left side a definitions key names, written as a name or as LaTeX: `sigma` and
    `\\sigma` are the symbol sigma, `a_k` with k an index is the entry a[k], `\\sigma^2` a
    power (a plain `sigma` is not read as the product s·i·g·m·a)."""
    if _IDENTIFIER.fullmatch(name):
        base, _, index = name.rpartition("_")
        if base and index in indices:
            return sympy.IndexedBase(base)[sympy.Symbol(index)]
        return sympy.Symbol(name)
    return parse_expression(name, indices=indices, symbols=symbols)


def substitute(expr: sympy.Expr, rules: list[Rule]) -> sympy.Expr:
    for _ in range(8):
        before = expr
        for item in rules:
            if item.kind == "symbol":
                expr = expr.subs(item.target, item.template)
            elif item.kind == "power":
                expr = expr.subs(item.target**item.index, item.template)
                expr = expr.subs(item.target, item.template ** (1 / item.index))
            else:
                expr = expr.replace(
                    lambda e, b=item.target: isinstance(e, sympy.Indexed) and e.base == b,
                    lambda e, i=item.index, t=item.template: t.subs(i, e.indices[0]),
                )
        if expr == before:
            return expr
    return expr


def settle_ranges(expr: sympy.Expr, indices: set[sympy.Symbol]) -> sympy.Expr:
    """Free indices lie in their range: write each upper bound as their sum plus p >= 0."""
    uppers = {
        limit[2]
        for term in expr.atoms(sympy.Sum)
        for limit in term.limits
        if isinstance(limit[2], sympy.Symbol)
    }
    free = sorted((symbol for symbol in expr.free_symbols if symbol in indices), key=str)
    if not free:
        return expr
    slack = sympy.Symbol("p_slack", integer=True, nonnegative=True)
    positive = {symbol: sympy.Symbol(symbol.name, integer=True, positive=True) for symbol in free}
    total = sympy.Add(*positive.values()) + slack
    # xreplace, not subs: subs leaves the variables of a Derivative (z[j]) untouched
    return expr.xreplace({**positive, **{upper: total for upper in uppers}})


def canonical_sums(expr: sympy.Basic, depth: int = 0) -> sympy.Basic:
    """Sums with dummies named by nesting depth and split by linearity (module docstring)."""
    if isinstance(expr, sympy.Sum):
        body = expr.function
        limits = []
        for position, (variable, low, high) in enumerate(expr.limits):
            dummy = sympy.Symbol(f"_sum{depth}_{position}", integer=True)
            body = body.xreplace({variable: dummy})
            limits.append((dummy, canonical_sums(low, depth), canonical_sums(high, depth)))
        body = canonical_sums(sympy.expand(body), depth + 1)
        variables = [limit[0] for limit in limits]
        parts = []
        for term in sympy.Add.make_args(body):
            outside, inside = term.as_independent(*variables, as_Add=False)
            parts.append(outside * sympy.Sum(inside, *limits))
        return sympy.Add(*parts)
    if not expr.args or isinstance(expr, sympy.Indexed | sympy.Symbol):
        return expr
    try:
        return expr.func(*[canonical_sums(arg, depth) for arg in expr.args])
    except (TypeError, ValueError):
        return expr


def derive(lhs: sympy.Expr, rhs: sympy.Expr, rules: list[Rule], indices: set[sympy.Symbol]) -> Any:
    """Left minus right after substitution, simplified (0 when the relation holds)."""
    difference = substitute(lhs, rules) - substitute(rhs, rules)
    difference = settle_ranges(difference, indices).doit().doit()
    simplified = sympy.simplify(difference)
    if simplified == 0 or not simplified.atoms(sympy.Sum):
        return simplified
    return sympy.simplify(canonical_sums(sympy.expand(simplified)).doit())
