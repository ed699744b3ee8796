"""The primary expressions: numbers, groups, environments and command constructs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import sympy

from . import bigops, calculus, constructs, names, notation
from .delimiters import GROUP_OPENERS
from .dialect import kind_of
from .functions import Dots
from .lexer import BEGIN, CHAR, CMD, NUMBER, Token
from .roles import (
    ARG,
    BIG_OPERATOR,
    BINOMIAL,
    CONSTANT,
    DOTS,
    ELEMENTARY,
    EXTREMUM,
    FRACTION,
    INTEGRAL,
    LIMIT,
    NABLA,
    NAMED_FUNCTION,
    OPERATOR_NAME,
    PARTIAL,
    ROOT,
)
from .sets import SetOf

if TYPE_CHECKING:
    from .parser import Parser


def _constant(p: Parser, token: Token) -> sympy.Expr:
    return sympy.oo if token.text == "infty" else SetOf()


_HANDLERS: dict[str, Callable[[Parser, Token], sympy.Expr]] = {
    CONSTANT: _constant,
    FRACTION: constructs.fraction,
    BINOMIAL: constructs.binomial,
    ROOT: constructs.root,
    ELEMENTARY: constructs.elementary,
    NAMED_FUNCTION: constructs.named_function,
    OPERATOR_NAME: constructs.operatorname,
    BIG_OPERATOR: bigops.big_operator,
    EXTREMUM: bigops.extremum,
    ARG: bigops.arg,
    INTEGRAL: calculus.integral,
    LIMIT: bigops.limit,
    PARTIAL: calculus.partial,
    NABLA: calculus.nabla,
    DOTS: lambda p, token: Dots(),
}


def primary(p: Parser) -> sympy.Expr:
    """A number, a bracketed group, an environment, or a construct with arguments."""
    token = p.next("an expression")
    if token.kind == NUMBER:
        names.charge(p, len(token.text) * 10 // 3 + 1, token)
        radix = _radix(p, token)
        if radix is not None:
            return radix
        return p.build(token, lambda: sympy.Rational(token.text))
    if token.kind == BEGIN:
        return notation.environment(p, token)
    if (token.kind == CHAR and token.text in "([{") or (
        token.kind == CMD and token.text in GROUP_OPENERS
    ):
        return notation.group(p, token)
    handler = _HANDLERS.get(kind_of(token.text) or "") if token.kind == CMD else None
    if handler is None:
        raise p.error(f"unexpected {token.describe()}", token)
    return handler(p, token)


_RADICES = {"2": 2, "8": 8, "10": 10, "16": 16}


def _radix(p: Parser, token: Token) -> sympy.Integer | None:
    """``0111_2``, ``0111_{2}`` (and ``0111₂``): a numeral with its base as a subscript,
    read in that base (2, 8, 10 or 16, digits only) when its digits are digits of the base;
    the subscript is consumed. Anything else is left to the scripts (``Component``)."""
    if not p.peek_char("_") or not token.text.isdigit():
        return None
    after = p.peek(1)
    if after is not None and after.kind == NUMBER and len(after.text) == 1:
        written, width = after.text, 2  # `0111_2`
    elif after is not None and after.is_char("{"):
        inner, close = p.peek(2), p.peek(3)
        if inner is None or inner.kind != NUMBER or close is None or not close.is_char("}"):
            return None
        written, width = inner.text, 4  # `0111_{2}`, `0111₂`
    else:
        return None
    base = _RADICES.get(written)
    if base is None or any(int(digit) >= base for digit in token.text):
        return None
    p.pos += width
    return sympy.Integer(int(token.text, base))
