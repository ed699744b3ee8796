"""Which defining relations a computed expression's value actually depends on.

A number the lesson states that matches an expression computed through a relation is the
evidence that the relation is right (`relations.settle`: "evaluated"), and a relation with
such evidence is not blamed for other numbers that disagree (A403). That is only sound when
the expression would have come out otherwise had the relation been otherwise:
`G_dB / \\log_{10} G` is 20 whatever `G = 1 + R_f/R_g` gives, so matching "20 times" says
nothing about that relation, and a wrong `G = R_f/R_g` must still be the one blamed.

Each scalar definition's value is scaled by a symbolic `(1 + ε)` and the expression is
expanded through the definitions down to the claim's inputs; a relation counts if the
derivative by its ε is not zero at the stated values. Expressions through vectors,
powers or functions, or that grow too large, keep every structural dependency: this can
only remove evidence, never invent it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import sympy

from atlas_build.claims.running.registry import ClaimTimeout

Ref = tuple[int, int]
MAX_OPS = 2000
MAX_DEPTH = 32


class _Unknown(Exception):
    """The expansion cannot be judged (vectors, functions, size): keep every dependency."""


def sensitive(
    expression: sympy.Basic,
    definitions: Iterable[Any],
    inputs: Mapping[sympy.Symbol, Any],
    refs: set[Ref],
) -> set[Ref]:
    """The subset of `refs` whose relation moves the value of `expression`."""
    listed = list(definitions)
    scalar = {d.symbol: d for d in listed if d.symbol is not None and d.function is None}
    other = {d.name for d in listed if d.symbol is None}
    epsilon = {d.ref: sympy.Symbol(f"eps_{d.ref[0]}_{d.ref[1]}") for d in scalar.values()}
    try:
        full = _closed(_expand(expression, scalar, epsilon, other, {}, 0))
        loose = full.free_symbols - set(inputs) - set(epsilon.values())
        if loose or full.atoms(sympy.Indexed) or sympy.count_ops(full) > MAX_OPS:
            return refs
        at_zero = {e: 0 for e in epsilon.values()}
        value = abs(sympy.N(full.xreplace(at_zero).xreplace(dict(inputs)), 30))
        kept = set()
        for ref in refs:
            mark = epsilon.get(ref)
            if mark is None:
                kept.add(ref)  # not a scalar definition: not judged here
                continue
            if mark not in full.free_symbols:
                continue
            slope = sympy.diff(full, mark).xreplace(at_zero).xreplace(dict(inputs))
            slope = abs(sympy.N(slope, 30))
            if not (slope.is_number and value.is_number):
                return refs
            if slope > value * sympy.Float("1e-12") or (value == 0 and slope != 0):
                kept.add(ref)
        return kept
    except ClaimTimeout:
        raise
    except (_Unknown, Exception):  # noqa: BLE001 - SymPy raises many types; keep the evidence
        return refs


def _closed(expr: sympy.Basic) -> sympy.Basic:
    """Finite sums and products in closed form where SymPy finds one: `N` evaluates a
    `Sum` of thousands of terms by Euler-Maclaurin, once per derivative (a `T = 4096`
    running sum was most of a cold check's time), while `T(T+1)/2` is instant."""

    def close(node: sympy.Basic) -> sympy.Basic:
        done = node.doit()
        return node if done.has(sympy.Sum, sympy.Product) else done

    return expr.replace(lambda node: isinstance(node, sympy.Sum | sympy.Product), close)


def _expand(
    expr: sympy.Basic,
    scalar: Mapping[sympy.Symbol, Any],
    epsilon: Mapping[Ref, sympy.Symbol],
    other: set[str],
    memo: dict[sympy.Symbol, sympy.Basic],
    depth: int,
) -> sympy.Basic:
    if depth > MAX_DEPTH or expr.atoms(sympy.Indexed):
        raise _Unknown()
    mapping = {}
    for symbol in expr.free_symbols:
        if str(symbol) in other:
            raise _Unknown()
        definition = scalar.get(symbol)
        if definition is None:
            continue
        if symbol not in memo:
            rhs = _expand(definition.relation.rhs, scalar, epsilon, other, memo, depth + 1)
            memo[symbol] = rhs * definition.ratio * (1 + epsilon[definition.ref])
        mapping[symbol] = memo[symbol]
    return expr.xreplace(mapping)
