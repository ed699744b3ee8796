"""The primary expressions: numbers, groups, environments and command constructs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import sympy

from . import bigops, calculus, constructs, names, notation
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
    from .parser import GROUP_OPENERS

    token = p.next("an expression")
    if token.kind == NUMBER:
        names.charge(p, len(token.text) * 10 // 3 + 1, token)
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
