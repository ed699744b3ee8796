"""Constructs that take their own arguments: fractions and derivatives, roots,
elementary and named functions, sums/products, extrema and limits.

Each handler is called by :meth:`Parser.primary` after its command token.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import sympy

from . import names
from .dialect import DEFAULT_UPPER_BOUND, GREEK, SYMBOL, kind_of
from .functions import MaxOver, MinOver
from .lexer import CMD, LETTER, Token

if TYPE_CHECKING:
    from .parser import Arg, Parser

Limits = list[tuple[sympy.Symbol, sympy.Expr, sympy.Expr]]


def fraction(p: Parser, token: Token) -> sympy.Expr:
    """``\\frac{a}{b}`` as ``a * b**-1``, or a derivative when both parts start with
    ``\\partial`` (or both with ``\\mathrm{d}``)."""
    num = p.argument("a numerator")
    den = p.argument("a denominator")
    num_prefix, den_prefix = _differential(num.tokens, 0), _differential(den.tokens, 0)
    if num_prefix is not None and den_prefix is not None and num_prefix[0] == den_prefix[0]:
        return _derivative(p, token, num, den, num_prefix[1], den_prefix)
    numerator = p.sub(num.tokens, num.end).whole()
    denominator = p.sub(den.tokens, den.end).whole()
    return p.build(
        token, lambda: sympy.Mul(numerator, names.power(p, denominator, sympy.Integer(-1), token))
    )


def _differential(tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
    """The differential prefix at ``tokens[i]``: (``partial`` | ``d``, its token count)."""
    if i < len(tokens) and tokens[i].is_cmd("partial"):
        return "partial", 1
    if i + 1 < len(tokens) and tokens[i].is_cmd("mathrm"):
        after = tokens[i + 1]
        if after.kind == LETTER and after.text == "d":
            return "d", 2
        texts = [t.text for t in tokens[i + 1 : i + 4]]
        if after.is_char("{") and texts == ["{", "d", "}"]:
            return "d", 4
    return None


def _derivative(
    p: Parser, token: Token, num: Arg, den: Arg, skip: int, prefix: tuple[str, int]
) -> sympy.Expr:
    """``\\frac{\\partial^k y}{\\partial x ...}`` (``skip``: numerator prefix length;
    ``prefix``: the denominator's) as an unevaluated ``Derivative``."""
    numerator = p.sub(num.tokens[skip:], num.end)
    order: int | None = None
    if numerator.peek_char("^"):
        numerator.pos += 1
        arg = numerator.argument("the derivative order")
        value = numerator.sub(arg.tokens, arg.end).whole()
        if not (value.is_Integer and 0 < value <= 16):
            raise p.error("a derivative order must be an integer from 1 to 16", token)
        order = int(value)
    operand = numerator.whole() if numerator.peek() is not None else None
    variables: list[tuple[sympy.Expr, int]] = []
    starts = [i for i in range(len(den.tokens)) if _differential(den.tokens, i) == prefix]
    for k, begin in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(den.tokens)
        chunk = den.tokens[begin + prefix[1] : stop]
        var = p.sub(chunk, den.tokens[stop].start if stop < len(den.tokens) else den.end).whole()
        count = 1
        if isinstance(var, sympy.Pow) and var.exp.is_Integer and 0 < var.exp <= 16:
            var, count = var.base, int(var.exp)
        if not isinstance(var, sympy.Symbol | sympy.Indexed):
            raise p.error(f"cannot differentiate with respect to {var}", den.tokens[begin])
        variables.append((var, count))
    total = sum(count for _, count in variables)
    if total != (order if order is not None else 1):
        raise p.error(f"derivative order {order or 1} does not match the denominator", token)
    body = operand if operand is not None else p.term()
    return p.build(token, lambda: sympy.Derivative(body, *variables, evaluate=False))


def root(p: Parser, token: Token) -> sympy.Expr:
    """``\\sqrt{x}`` and ``\\sqrt[n]{x}``."""
    exponent: sympy.Expr = sympy.Rational(1, 2)
    if p.peek_char("["):
        index = p.delimited(p.next()).whole()
        exponent = names.power(p, index, sympy.Integer(-1), token)
    arg = p.argument("the radicand")
    return names.power(p, p.sub(arg.tokens, arg.end).whole(), exponent, token)


def elementary(p: Parser, token: Token) -> sympy.Expr:
    """``\\exp``, ``\\ln``, ``\\log`` (``\\log_b`` is base b; ``\\ln^2 x`` squares)."""
    sub, sup = p.scripts()
    if sub is not None and token.text != "log":
        raise p.error(f"\\{token.text} takes no subscript", token)
    base = p.sub(sub.tokens, sub.end).whole() if sub is not None else None
    arg = p.function_argument()
    if token.text == "exp":
        result = p.build(token, lambda: sympy.exp(arg))
    elif base is not None:
        result = p.build(token, lambda: sympy.log(arg, base))
    else:
        result = p.build(token, lambda: sympy.log(arg))
    return names.superscript(p, result, sup, token)


def operatorname(p: Parser, token: Token) -> sympy.Expr:
    """``\\operatorname{f}_{\\mathrm{s}}(x, y)`` as ``Function('f_s')(x, y)``."""
    word = names.word(p, p.argument("a function name"))
    if word is None:
        raise p.error("\\operatorname needs a plain name", token)
    name = word.text
    sub, sup = p.scripts()
    if sub is not None:
        suffix = names.word(p, sub)
        if suffix is None:
            raise p.error("an \\operatorname subscript must be a plain name", token)
        name = f"{name}_{suffix.text}"
    args = p.call_args() if p.peek_char("(") else [p.function_argument()]
    result = p.build(token, lambda: sympy.Function(name)(*args))
    return names.superscript(p, result, sup, token)


def index_limits(p: Parser, token: Token, sub: Arg, sup: Arg | None) -> Limits:
    """``_j``, ``_{i,j}``, ``_{j=1}^{n}``; missing bounds come from the caller's
    ``bounds`` or default to 1..n."""
    chunks = names.split_commas(sub.tokens, p)
    limits: Limits = []
    for chunk in chunks:
        first = chunk[0]
        if not (
            first.kind == LETTER or (first.kind == CMD and kind_of(first.text) in (GREEK, SYMBOL))
        ):
            raise p.error("an index must be a single letter", first)
        default = (sympy.Integer(1), sympy.Symbol(DEFAULT_UPPER_BOUND))
        lower, upper = p.state.options.bounds.get(first.text, default)
        if len(chunk) > 1:
            if not chunk[1].is_char("=") or len(chunks) > 1:
                raise p.error("write the index as _{j} or _{j=1}", chunk[1])
            lower = p.sub(chunk[2:], sub.end).whole()
        limits.append((sympy.Symbol(first.text), lower, upper))
    if sup is not None:
        if len(limits) > 1:
            raise p.error("an upper bound needs a single index", token)
        index, lower, _ = limits[0]
        limits[0] = (index, lower, p.sub(sup.tokens, sup.end).whole())
    return limits


def big_operator(p: Parser, token: Token) -> sympy.Expr:
    """``\\sum``/``\\prod``; the body is the rest of the term (``\\sum_j a_j b_j + c``)."""
    sub, sup = p.scripts()
    if sub is None:
        raise p.error(f"\\{token.text} needs an index subscript", token)
    limits = index_limits(p, token, sub, sup)
    body = p.with_bound(frozenset(str(limit[0]) for limit in limits), p.term)
    kind = sympy.Sum if token.text == "sum" else sympy.Product
    return p.build(token, lambda: kind(body, *limits))


def extremum(p: Parser, token: Token) -> sympy.Expr:
    """``\\max(a, b)`` as ``Max``; ``\\max_j x_j`` as :class:`MaxOver` (min alike)."""
    if p.peek_char("("):
        args = p.call_args()
        pairwise = sympy.Max if token.text == "max" else sympy.Min
        return p.build(token, lambda: pairwise(*args))
    sub, sup = p.scripts()
    if sub is None or sup is not None:
        raise p.error(f"\\{token.text} needs (a, b) or an index subscript", token)
    limits = index_limits(p, token, sub, None)
    body = p.with_bound(frozenset(str(limit[0]) for limit in limits), p.term)
    over = MaxOver if token.text == "max" else MinOver
    return p.build(token, lambda: over(body, *limits))


def limit(p: Parser, token: Token) -> sympy.Expr:
    """``\\lim_{x\\to a^{+}} f`` as an unevaluated ``sympy.Limit``."""
    sub, sup = p.scripts()
    if sub is None or sup is not None:
        raise p.error("write \\lim_{x \\to a}", token)
    arrows = [i for i, t in enumerate(sub.tokens) if t.is_cmd("to")]
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
