"""Conditions and operators between terms: relations inside groups, ``\\mid``,
logical connectives, ``\\pm``, ``/`` (with ``\\partial L / \\partial w``), binary
operators (``\\odot``, ``\\cap``, ``\\parallel``, ...), ``\\bmod`` and evaluation bars.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import sympy
from sympy.logic.boolalg import Boolean

from . import names, probability
from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import RELATION_OPS, kind_of
from .functions import (
    BitAnd,
    BitOr,
    Compose,
    Convolution,
    CrossCorrelation,
    Differential,
    DirectDifference,
    DirectSum,
    EvaluatedBetween,
    Given,
    Hadamard,
    Kronecker,
    MinusPlus,
    Parallel,
    PlusMinus,
    Related,
)
from .lexer import CMD, Token
from .normalise import is_relation
from .roles import CONNECTIVE
from .sets import Cap, Cup, SetMinus
from .vocabulary import CONNECTIVES

if TYPE_CHECKING:
    from .parser import Parser

RELATIONALS = {
    "=": sympy.Eq,
    ":=": sympy.Eq,
    "!=": sympy.Ne,
    "<": sympy.Lt,
    "<=": sympy.Le,
    ">": sympy.Gt,
    ">=": sympy.Ge,
}
_BINARY = {
    "odot": Hadamard,
    "otimes": Kronecker,
    "oplus": DirectSum,
    "ominus": DirectDifference,
    "circ": Compose,
    "ast": Convolution,
    "star": CrossCorrelation,
    "cap": Cap,
    "cup": Cup,
    "sqcup": Cup,
    "uplus": Cup,
    "setminus": SetMinus,
    "smallsetminus": SetMinus,
    "backslash": SetMinus,
    "parallel": Parallel,
}
_LOGIC = {"and": sympy.And, "or": sympy.Or, "implies": sympy.Implies, "iff": sympy.Equivalent}


def boolean(lhs: sympy.Basic, op: str, rhs: sympy.Basic) -> sympy.Basic:
    """A relation as a SymPy boolean: ``Eq``/``Lt``/... (unevaluated) or :class:`Related`."""
    kind = RELATIONALS.get(op)
    if kind is not None:
        return kind(lhs, rhs, evaluate=False)
    return Related(lhs, rhs, op)


def _split(
    tokens: list[Token], test: Callable[[Token], bool]
) -> tuple[list[list[Token]], list[Token]]:
    """Split at top-level tokens passing ``test``: the parts and the separators."""
    parts: list[list[Token]] = [[]]
    separators: list[Token] = []
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and test(token):
            parts.append([])
            separators.append(token)
        else:
            parts[-1].append(token)
    return parts, separators


def item(p: Parser) -> sympy.Basic:
    """An item of a group: ``A \\mid B`` (:class:`Given`), a connective of statements,
    a relation (as a boolean), or an expression."""
    parts, bars = _split(p.tokens, lambda t: t.is_cmd("mid"))
    if bars:
        if any(not part for part in parts):
            raise p.error("a condition bar needs something on each side", bars[0])
        sides = [_side(p.sub(part, p.end)) for part in parts]
        return p.build(p.peek(), lambda: Given(*sides))
    return _side(p)


def _side(p: Parser) -> sympy.Basic:
    outcome = probability.outcome(p)
    return outcome if outcome is not None else _connected(p)


def _connected(p: Parser) -> sympy.Basic:
    def is_link(token: Token) -> bool:
        return token.kind == CMD and kind_of(token.text) == CONNECTIVE

    parts, links = _split(p.tokens, is_link)
    if not links:
        return statement(p)
    if any(not part for part in parts):
        raise p.error("a logical connective needs a statement on each side", links[0])
    values = [statement(p.sub(part, p.end)) for part in parts]
    ops = [(CONNECTIVES[link.text][0] or "and", link) for link in links]
    for tier in (("and",), ("or",)):  # `a \lor b \land c` is a ∨ (b ∧ c)
        values, ops = _reduce(p, values, ops, tier)
    result = values[0]
    for (op, link), right in zip(ops, values[1:], strict=True):
        if op == "implied-by":
            result, right, op = right, result, "implies"
        result = p.build(link, partial(_LOGIC[op], result, right, evaluate=False))
    return result


def _reduce(
    p: Parser, values: list[sympy.Basic], ops: list[tuple[str, Token]], tier: tuple[str, ...]
) -> tuple[list[sympy.Basic], list[tuple[str, Token]]]:
    """Join the operands of the connectives in ``tier`` (left to right), leaving the rest."""
    out, left = [values[0]], []
    for (op, link), right in zip(ops, values[1:], strict=True):
        if op in tier:
            out[-1] = logical(p, op, out[-1], right, link)
        else:
            out.append(right)
            left.append((op, link))
    return out, left


_BOOLEAN_OPERAND = (sympy.Symbol, Boolean, Given)


def logical(p: Parser, op: str, left: sympy.Basic, right: sympy.Basic, token: Token) -> sympy.Basic:
    """``left ∧ right`` (``op`` ``and``) or ``left ∨ right``: SymPy's ``And``/``Or`` between
    statements and names (``x > 0 \\land y > 0``, ``P(A \\lor B)``); between other values
    (``A_i \\land B_i`` with ``i`` an index, ``(A \\land B) \\lor C_{in}``, a number) the
    value nodes :class:`BitAnd`/:class:`BitOr`, which evaluate on 0/1 and bitwise."""
    if all(isinstance(v, _BOOLEAN_OPERAND) for v in (left, right)):
        return p.build(token, partial(_LOGIC[op], left, right, evaluate=False))
    node = BitAnd if op == "and" else BitOr
    return p.build(token, lambda: node(left, right))


def values(p: Parser) -> sympy.Basic:
    """Expressions joined by ``\\lor`` of ``\\land`` (∧ binds tighter), where the
    normaliser left a connective between values: ``G_i \\lor (P_i \\land C_i)``."""
    terms = [_conjunction(p)]
    while (token := p.peek()) is not None and _link(token) == "or":
        p.pos += 1
        terms[-1] = logical(p, "or", terms[-1], _conjunction(p), token)
    return terms[0]


def _conjunction(p: Parser) -> sympy.Basic:
    value = p.expression()
    while (token := p.peek()) is not None and _link(token) == "and":
        p.pos += 1
        value = logical(p, "and", value, p.expression(), token)
    return value


def _link(token: Token) -> str | None:
    if token.kind != CMD or kind_of(token.text) != CONNECTIVE:
        return None
    return CONNECTIVES[token.text][0]


def statement(p: Parser) -> sympy.Basic:
    """Expressions joined by relations: one boolean (``And`` of a chain), or an expression."""
    sides = [p.expression()]
    ops: list[tuple[str, Token]] = []
    while (token := p.peek()) is not None and is_relation(token):
        p.pos += 1
        ops.append((RELATION_OPS[token.text], token))
        sides.append(p.expression())
    p.expect_end()
    if not ops:
        return sides[0]
    relations = [
        p.build(token, partial(boolean, sides[k], op, sides[k + 1]))
        for k, (op, token) in enumerate(ops)
    ]
    if len(relations) == 1:
        return relations[0]
    return p.build(None, lambda: sympy.And(*relations, evaluate=False))


def plus_minus(p: Parser, token: Token, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
    kind = PlusMinus if token.text == "pm" else MinusPlus
    return p.build(token, lambda: kind(left, right))


def divide(p: Parser, token: Token, factors: list[sympy.Expr], divisor: sympy.Expr) -> sympy.Expr:
    """``a / b``; ``\\partial L / \\partial w`` is the derivative of ``L`` by ``w``."""
    last = factors[-1]
    if isinstance(last, Differential) and isinstance(divisor, Differential):
        variable = divisor.args[0]
        if isinstance(variable, sympy.Symbol | sympy.Indexed):
            derivative = p.build(
                token, lambda: sympy.Derivative(last.args[0], variable, evaluate=False)
            )
            return p.product([*factors[:-1], derivative])
    inverse = names.power(p, divisor, sympy.Integer(-1), token)
    return p.product([*factors, inverse])


def binary(p: Parser, token: Token, left: sympy.Expr) -> sympy.Expr:
    """``left`` combined with what follows the operator ``token`` (already consumed)."""
    if token.is_cmd("evalbar"):
        return evaluation_bar(p, token, left)
    if token.text in ("pmod", "mod", "pod"):
        arg = p.argument("the modulus")
        modulus = p.of(arg).whole()
        return p.build(token, lambda: sympy.Mod(left, modulus, evaluate=False))
    right = p.unary()
    if token.text == "bmod":
        return p.build(token, lambda: sympy.Mod(left, right, evaluate=False))
    node = _BINARY[token.text]
    return p.build(token, lambda: node(left, right))


def evaluation_bar(p: Parser, token: Token, expr: sympy.Expr) -> sympy.Expr:
    """``expr|_{x=a}`` is ``Subs(expr, x, a)``; ``expr|_a^b`` is ``EvaluatedBetween``."""
    sub, sup = p.scripts()
    if sub is None:
        raise p.error("an evaluation bar needs a subscript such as _{x=a}", token)
    inner = p.of(sub)
    point = inner.item()
    if isinstance(point, sympy.Eq) and isinstance(point.lhs, sympy.Symbol | sympy.Indexed):
        if sup is not None:
            raise p.error("write the bar as |_{x=a} or |_a^b", token)
        return p.build(token, lambda: sympy.Subs(expr, point.lhs, point.rhs))
    ends = [point] if sup is None else [point, p.of(sup).whole()]
    return p.build(token, lambda: EvaluatedBetween(expr, *ends))
