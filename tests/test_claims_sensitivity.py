"""Which relations a computed expression depends on (claims/kinds/_sensitivity.py)."""

from types import SimpleNamespace

import sympy

from atlas_build.claims.kinds import _sensitivity

T, t, S = sympy.symbols("T t S")


def _definition(symbol: sympy.Symbol, rhs: sympy.Expr, ref: tuple[int, int]) -> SimpleNamespace:
    return SimpleNamespace(
        symbol=symbol,
        function=None,
        name=str(symbol),
        ref=ref,
        relation=sympy.Eq(symbol, rhs),
        ratio=1,
    )


def test_a_running_sum_is_closed_before_it_is_evaluated():
    running = sympy.Sum(t, (t, 1, T))
    assert _sensitivity._closed(running) == T**2 / 2 + T / 2
    assert _sensitivity._closed(running.subs(T, 4096)) == 4096 * 4097 // 2


def test_a_sum_without_a_closed_form_is_kept():
    kept = sympy.Sum(1 / (t**3 + sympy.sin(t)), (t, 1, T))
    assert _sensitivity._closed(kept) == kept


def test_a_relation_through_a_long_sum_is_judged_not_kept_by_default():
    """S = sum_{t=1}^{T} t moves S/T, not log(S^20)/log(S) (20 whatever S is)."""
    definitions = [_definition(S, sympy.Sum(t, (t, 1, T)), (0, 0))]
    inputs = {T: sympy.Integer(4096)}
    assert _sensitivity.sensitive(S / T, definitions, inputs, {(0, 0)}) == {(0, 0)}
    twenty = sympy.log(S**20, 10) / sympy.log(S, 10)
    assert _sensitivity.sensitive(twenty, definitions, inputs, {(0, 0)}) == set()
