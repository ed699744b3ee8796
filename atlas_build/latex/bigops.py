"""Big operators: sums, products, extrema, arg max/min, sup/inf, big unions, limits.

The body is the rest of the term (``\\sum_j a_j b_j + c`` is ``Sum(a_j b_j) + c``),
read with the indices bound. What the operator runs over comes from its scripts:

* ``_{j=1}^{n}``, ``_j``, ``_{i,j}``: an integer range (missing bounds come from the
  caller's ``bounds``, else 1..n). ``\\sum``/``\\prod`` give ``sympy.Sum``/``Product``,
  ``\\max``/``\\min`` give :class:`MaxOver`/:class:`MinOver`, others ``IndexRange``.
* ``_{i \\in S}``: the elements of ``S`` (``IndexIn``), e.g. ``SetSum``, ``SetMax``.
* anything else (``_{i \\neq j}``, ``\\substack{...}``, nothing at all): a condition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy

from . import sets
from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import DEFAULT_UPPER_BOUND
from .functions import MaxOver, MinOver, Related
from .lexer import Token
from .sets import IndexIn, IndexRange

if TYPE_CHECKING:
    from .parser import Parser
    from .state import Arg

Limits = list[tuple[sympy.Symbol, sympy.Expr, sympy.Expr]]

_OVER_SETS: dict[str, Any] = {
    "sum": sets.SetSum,
    "prod": sets.SetProduct,
    "max": sets.SetMax,
    "min": sets.SetMin,
    "argmax": sets.ArgMax,
    "argmin": sets.ArgMin,
    "sup": sets.Supremum,
    "inf": sets.Infimum,
    "bigcup": sets.BigCup,
    "bigsqcup": sets.BigCup,
    "bigcap": sets.BigCap,
    "bigoplus": sets.BigOPlus,
    "bigotimes": sets.BigOTimes,
    "bigodot": sets.BigODot,
    "coprod": sets.Coproduct,
    "bigvee": sets.BigOr,
    "bigwedge": sets.BigAnd,
}
_RANGES: dict[str, Any] = {"sum": sympy.Sum, "prod": sympy.Product, "max": MaxOver}
_RANGES["min"] = MinOver


def _index(p: Parser, value: sympy.Basic, token: Token) -> sympy.Symbol:
    if isinstance(value, sympy.Symbol):
        return value
    if isinstance(value, sympy.Indexed):
        return sympy.Symbol(f"{value.base.label}_{'_'.join(map(str, value.indices))}")
    raise p.error(f"an index must be a name, not {value}", token)


def _spec(p: Parser, token: Token, sub: Arg | None, sup: Arg | None) -> tuple[str, Any]:
    """What a big operator runs over: ("range", limits), ("set", IndexIn) or ("where", cond)."""
    if sub is None:
        if sup is not None:
            raise p.error(f"\\{token.text} has an upper bound but no index", token)
        return "where", sympy.true
    if sub.tokens and sub.tokens[0].is_cmd("substack"):
        return "where", _substack(p, sub)
    items = p.of(sub).items()
    if sup is None and len(items) == 1 and isinstance(items[0], Related):
        if items[0].op == "in":
            element = items[0].lhs
            index = (
                sympy.Tuple(*map(lambda e: _index(p, e, token), element))
                if isinstance(element, sympy.Tuple)
                else _index(p, element, token)
            )
            return "set", IndexIn(index, items[0].rhs)
    limits: Limits = []
    for value in items:
        if isinstance(value, sympy.Eq) and (len(items) == 1):
            limits.append((_index(p, value.lhs, token), value.rhs, _default(p, value.lhs)[1]))
        elif isinstance(value, sympy.Symbol | sympy.Indexed):
            index = _index(p, value, token)
            lower, upper = _default(p, index)
            limits.append((index, lower, upper))
        else:
            if len(items) > 1 or sup is not None:
                raise p.error("write the index as _{j}, _{j=1}^{n} or _{j \\in S}", sub.tokens[0])
            return "where", value
    if sup is not None:
        if len(limits) > 1:
            raise p.error("an upper bound needs a single index", token)
        index, lower, _ = limits[0]
        limits[0] = (index, lower, p.of(sup).whole())
    return "range", limits


def _default(p: Parser, index: sympy.Basic) -> tuple[sympy.Expr, sympy.Expr]:
    default = (sympy.Integer(1), sympy.Symbol(DEFAULT_UPPER_BOUND))
    return p.state.options.bounds.get(str(index), default)


def _substack(p: Parser, sub: Arg) -> sympy.Basic:
    reader = p.of(sub)
    reader.pos += 1
    arg = reader.argument("the lines of \\substack")
    rows: list[list[Token]] = [[]]
    depth = 0
    for token in arg.tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and token.is_cmd("\\"):
            rows.append([])
        else:
            rows[-1].append(token)
    conditions = [p.sub(row, sub.end).item() for row in rows if row]
    if not conditions:
        raise p.error("\\substack needs at least one line", sub.tokens[0])
    return conditions[0] if len(conditions) == 1 else p.build(None, lambda: sympy.And(*conditions))


def _bound_names(kind: str, spec: Any) -> frozenset[str]:
    """Indices bound in the body; under a condition (``_{i \\neq j}``), its left name."""
    if kind == "range":
        return frozenset(str(limit[0]) for limit in spec)
    if kind == "set":
        return frozenset(str(s) for s in sets.bound_indices(spec))
    left = getattr(spec, "lhs", None)
    return frozenset({left.name}) if isinstance(left, sympy.Symbol) else frozenset()


def reduce_over(p: Parser, token: Token, operator: str, sub: Arg | None, sup: Arg | None) -> Any:
    """Build ``operator`` (``sum``, ``argmax``, ``bigcup``, ...) over its scripts and body."""
    kind, spec = _spec(p, token, sub, sup)
    body = p.with_bound(_bound_names(kind, spec), p.term)
    if kind == "range" and operator in _RANGES:
        ranged = _RANGES[operator]
        return p.build(token, lambda: ranged(body, *spec))
    node = _OVER_SETS[operator]
    if kind == "range":
        if len(spec) > 1:
            raise p.error(f"\\{token.text} over several indices: write one", token)
        index, lower, upper = spec[0]
        over: Any = IndexRange(index, lower, upper)
    else:
        over = spec
    return p.build(token, lambda: node(body, over))


def big_operator(p: Parser, token: Token) -> sympy.Expr:
    """``\\sum``, ``\\prod``, ``\\bigcup``, ... over an index range, set or condition."""
    sub, sup = p.scripts()
    return reduce_over(p, token, token.text, sub, sup)


def extremum(p: Parser, token: Token) -> sympy.Expr:
    """``\\max(a, b)`` as ``Max``; ``\\max_j x_j`` as :class:`MaxOver`; sup, inf, argmax."""
    return extremum_named(p, token, token.text)


def extremum_named(p: Parser, token: Token, operator: str) -> sympy.Expr:
    following = p.peek()
    pairwise = sympy.Max if operator == "max" else sympy.Min
    if operator in ("max", "min") and following is not None and following.is_cmd("lbrace"):
        value = p.group(p.next())
        if isinstance(value, sets.SetOf):
            return p.build(token, lambda: pairwise(*value.args))
        of = sets.MaxOf if operator == "max" else sets.MinOf
        return p.build(token, lambda: of(value))
    if operator in ("max", "min") and p.peek_char("("):
        inner, _ = p.delimited(p.next())
        args = inner.items()
        return p.build(token, lambda: pairwise(*args))
    sub, sup = p.scripts()
    if operator in ("max", "min") and sub is None:
        raise p.error(f"\\{operator} needs (a, b) or an index subscript", token)
    return reduce_over(p, token, operator, sub, sup)


def arg(p: Parser, token: Token) -> sympy.Expr:
    """``\\arg\\max_x f`` / ``\\arg\\min``; ``\\arg z`` alone is the complex argument."""
    following = p.peek()
    if following is not None and following.is_cmd("max", "min"):
        p.pos += 1
        return extremum_named(p, token, "arg" + following.text)
    operand = p.function_argument()
    return p.build(token, lambda: sympy.arg(operand))


def limit(p: Parser, token: Token) -> sympy.Expr:
    """``\\lim_{x\\to a^{+}} f`` as an unevaluated ``sympy.Limit``."""
    sub, sup = p.scripts()
    if sub is None or sup is not None:
        raise p.error("write \\lim_{x \\to a}", token)
    arrows = [i for i, t in enumerate(sub.tokens) if t.is_cmd("to", "rightarrow")]
    if len(arrows) != 1:
        raise p.error("a \\lim subscript needs exactly one \\to", token)
    arrow = sub.tokens[arrows[0]]
    var = p.sub(sub.tokens[: arrows[0]], arrow.start).whole()
    if not isinstance(var, sympy.Symbol):
        raise p.error("a limit variable must be a symbol", arrow)
    target = sub.tokens[arrows[0] + 1 :]
    texts = [t.text for t in target]
    direction = "+-"
    for tail in (["^", "+"], ["^", "-"], ["^", "{", "+", "}"], ["^", "{", "-", "}"]):
        if len(target) > len(tail) and texts[-len(tail) :] == tail:
            direction = "+" if "+" in tail else "-"
            target = target[: -len(tail)]
            break
    point = p.sub(target, sub.end).whole()
    body = p.term()
    return p.build(token, lambda: sympy.Limit(body, var, point, dir=direction))
