"""Bracketed notation and environments inside expressions.

``(a + b)`` groups, ``(a, b)`` is a ``Tuple``, ``[a, b]``/``[a, b)``/``(a, b]`` are
intervals; ``\\{1, 2\\}`` is a set and ``\\{x : P(x)\\}`` a set builder; ``|x|`` is
``Abs`` (``Cardinality`` of a set expression), ``\\|x\\|_p`` a ``Norm``; ``\\lfloor x
\\rfloor``, ``\\lceil x \\rceil``, ``\\lfloor x \\rceil`` floor, ceiling, rounding;
``\\langle x, y \\rangle`` an inner product; ``\\left. F \\right|_{x=a}`` an evaluation;
``{a \\over b}`` and ``{n \\choose k}``. Matrix environments become
:class:`MatrixLiteral` (``vmatrix`` its determinant), ``cases`` a ``Piecewise``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

import sympy

from . import constructs, logic, names
from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import CASES_ENVIRONMENTS, MATRIX_ENVIRONMENTS
from .errors import TOO_LARGE
from .functions import (
    AngleBracket,
    Cardinality,
    Component,
    Det,
    InnerProduct,
    MatrixLiteral,
    Norm,
    PositivePart,
    Rounded,
)
from .lexer import BEGIN, CHAR, Token
from .sets import SET_NODES, IntervalOf, SetBuilder, SetOf

if TYPE_CHECKING:
    from .parser import Parser
    from .state import Arg

MAX_CELLS = 4096
"""Matrix and ``cases`` cells one equation may hold, in all."""


def group(p: Parser, opener: Token) -> sympy.Expr:
    """The bracketed construct opened by ``opener`` (already consumed)."""
    inner, closer = p.delimited(opener)
    kind, close = text_of(opener), text_of(closer)
    if kind == "{":
        return _braced(p, inner, opener)
    if kind in ("(", "["):
        items = inner.items()
        if len(items) == 2 and (kind == "[" or close == "]"):
            left_open, right_open = kind == "(", close == ")"
            return p.build(
                opener,
                lambda: IntervalOf(
                    *items,
                    sympy.true if left_open else sympy.false,
                    sympy.true if right_open else sympy.false,
                ),
            )
        return items[0] if len(items) == 1 else sympy.Tuple(*items)
    if kind == "lbrace":
        return _set(p, inner, opener, close)
    if kind == "lvert":
        value = inner.item()
        node = Cardinality if isinstance(value, SET_NODES) else sympy.Abs
        return p.build(opener, lambda: node(value))
    if kind == "lVert":
        value = inner.item()
        return p.build(opener, lambda: Norm(value))
    if kind == "langle":
        items = inner.items()
        node = InnerProduct if len(items) > 1 else AngleBracket
        return p.build(opener, lambda: node(*items))
    if kind in ("lfloor", "lceil"):
        value = inner.whole()
        if {kind, close} == {"lfloor", "rfloor"} or {kind, close} == {"lceil", "rceil"}:
            function = sympy.floor if kind == "lfloor" else sympy.ceiling
            return p.build(opener, lambda: function(value))
        return p.build(opener, lambda: Rounded(value))
    value = inner.whole()
    if close in ("rvert", "rVert") and p.peek_char("_^"):
        return logic.evaluation_bar(p, closer, value)
    return value


def _braced(p: Parser, inner: Parser, opener: Token) -> sympy.Expr:
    """``{...}``: a TeX group, or ``{a \\over b}`` / ``{n \\choose k}``."""
    depth = 0
    for k, token in enumerate(inner.tokens):
        text = text_of(token)
        if depth == 0 and token.is_cmd("over", "choose"):
            top = inner.sub(inner.tokens[:k], token.start).whole()
            bottom = inner.sub(inner.tokens[k + 1 :], inner.end).whole()
            if token.text == "choose":
                return constructs.choose(p, token, top, bottom)
            inverse = names.power(p, bottom, sympy.Integer(-1), token)
            return p.build(token, partial(sympy.Mul, top, inverse))
        depth += (text in OPENERS) - (text in CLOSERS)
    return inner.item()


def _set(p: Parser, inner: Parser, opener: Token, close: str) -> sympy.Expr:
    """``\\{a, b\\}``, ``\\{x \\mid P\\}`` / ``\\{x : P\\}``, or a cases brace
    ``\\left\\{ ... \\right.``."""
    if close == "rnull":
        first = inner.peek()
        if first is not None and first.kind == BEGIN:
            inner.pos += 1
            return environment(inner, first, cases=True)
        return inner.item()
    depth = 0
    for k, token in enumerate(inner.tokens):
        text = text_of(token)
        if depth == 0 and (token.is_cmd("mid") or token.is_char(":")):
            element = inner.sub(inner.tokens[:k], token.start).item()
            rest = inner.sub(inner.tokens[k + 1 :], inner.end).items()
            condition = rest[0] if len(rest) == 1 else sympy.And(*rest, evaluate=False)
            return p.build(opener, partial(SetBuilder, element, condition))
        depth += (text in OPENERS) - (text in CLOSERS)
    items = inner.items()
    return p.build(opener, lambda: SetOf(*items))


def subscripted(p: Parser, atom: sympy.Expr, sub: Arg, token: Token) -> sympy.Expr:
    """A subscript after a non-name factor: ``[x]_+``, ``\\|x\\|_2``, ``f(x)_i``."""
    texts = [t.text for t in sub.tokens]
    if texts == ["+"]:
        return p.build(token, lambda: PositivePart(atom))
    if isinstance(atom, Norm | sympy.Abs) and len(atom.args) == 1:
        order = p.of(sub).whole()
        return p.build(token, lambda: Norm(atom.args[0], order))
    index = p.of(sub).whole()
    return p.build(token, lambda: Component(atom, index))


def _cells(tokens: Sequence[Token]) -> list[list[list[Token]]]:
    """Rows (split at ``\\\\``) of cells (split at ``&``) of an environment body."""
    rows: list[list[list[Token]]] = [[[]]]
    depth = 0
    for token in tokens:
        text = text_of(token)
        if depth == 0 and token.is_cmd("\\"):
            rows.append([[]])
        elif depth == 0 and token.is_char("&"):
            rows[-1].append([])
        else:
            rows[-1][-1].append(token)
        depth += (text in OPENERS) - (text in CLOSERS)
    while rows and all(not cell for cell in rows[-1]):
        rows.pop()
    return rows


def environment(p: Parser, begin: Token, cases: bool = False) -> sympy.Expr:
    """A matrix or ``cases`` environment inside an expression (``begin`` consumed)."""
    inner, _ = p.delimited(begin)
    rows = _cells(inner.tokens)
    p.state.cells += sum(len(row) for row in rows)
    if p.state.cells > MAX_CELLS:
        raise p.error(f"more than {MAX_CELLS} matrix cells in one equation", begin, TOO_LARGE)
    if begin.text in CASES_ENVIRONMENTS or cases:
        return _piecewise(p, inner, rows, begin)
    if begin.text not in MATRIX_ENVIRONMENTS:
        raise p.error(f"\\begin{{{begin.text}}} must enclose the whole equation", begin)
    width = max(len(row) for row in rows) if rows else 0
    if not rows or any(len(row) != width for row in rows):
        raise p.error("matrix rows must have the same number of cells", begin)
    values = [
        sympy.Tuple(*[inner.sub(cell, inner.end).whole() for cell in _nonempty(p, row, begin)])
        for row in rows
    ]
    matrix = p.build(begin, lambda: MatrixLiteral(*values))
    flavour = MATRIX_ENVIRONMENTS[begin.text]
    if flavour == "determinant":
        return p.build(begin, lambda: Det(matrix))
    if flavour == "norm":
        return p.build(begin, lambda: Norm(matrix))
    return matrix


def _nonempty(p: Parser, row: list[list[Token]], begin: Token) -> list[list[Token]]:
    if any(not cell for cell in row):
        raise p.error("empty matrix cell", begin)
    return row


def _piecewise(p: Parser, inner: Parser, rows: list[list[list[Token]]], begin: Token) -> sympy.Expr:
    """``cases`` rows ``value & condition``; an empty condition ("otherwise") is ``True``."""
    pieces: list[tuple[sympy.Basic, sympy.Basic]] = []
    for row in rows:
        value_tokens = _trim(row[0])
        if not value_tokens:
            raise p.error("a cases row needs a value", begin)
        value = inner.sub(value_tokens, inner.end).whole()
        condition_tokens = _trim([t for cell in row[1:] for t in cell])
        condition = (
            inner.sub(condition_tokens, inner.end).item() if condition_tokens else sympy.true
        )
        pieces.append((value, condition))
    return p.build(begin, lambda: sympy.Piecewise(*pieces, evaluate=False))


def _trim(tokens: list[Token]) -> list[Token]:
    while tokens and tokens[-1].kind == CHAR and tokens[-1].text in ",.;":
        tokens = tokens[:-1]
    return tokens
