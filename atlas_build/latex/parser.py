"""Recursive-descent parser from normalised lesson-LaTeX tokens to SymPy objects.

Grammar (highest binding last)::

    chain      := expression (relation expression)*
    expression := term (("+" | "-") term)*
    term       := unary (("\\cdot" | "\\times" | "*" | "/") unary | postfix)*
    unary      := ("+" | "-") unary | postfix
    postfix    := name scripts [call] | atom ["^" argument]
    argument   := "{" ... "}" | one token (one digit of a number, as in TeX)

Constructs with their own arguments (``\\frac``, ``\\sum``, ...) live in
:mod:`.constructs`. SymPy objects are built directly; nothing is evaluated
from text. Recursion is bounded by a shared depth counter (``too-deep``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

import sympy

from . import constructs, names
from .dialect import (
    ACCENT,
    BIG_OPERATOR,
    CONSTANT,
    DEFAULT_MAX_DEPTH,
    ELEMENTARY,
    EXTREMUM,
    FONT,
    FRACTION,
    GREEK,
    LIMIT,
    OPERATOR_NAME,
    RELATION_OPS,
    ROOT,
    SYMBOL,
    TRANSPOSE,
    kind_of,
)
from .errors import SYNTAX, TOO_DEEP, LatexError
from .lexer import CHAR, CMD, LETTER, NUMBER, Token
from .normalise import CLOSERS, OPENERS, is_relation

T = TypeVar("T")

_NAME_KINDS = frozenset({GREEK, SYMBOL, FONT, ACCENT})
_FACTOR_KINDS = _NAME_KINDS | {
    CONSTANT,
    FRACTION,
    ROOT,
    ELEMENTARY,
    OPERATOR_NAME,
    BIG_OPERATOR,
    EXTREMUM,
    LIMIT,
}
_SIMPLE_KINDS = _NAME_KINDS | {CONSTANT, FRACTION, ROOT}


@dataclass(frozen=True)
class Options:
    """Caller declarations that change how names are read."""

    indices: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    symbols: frozenset[str] = frozenset()
    bounds: Mapping[str, tuple[sympy.Expr, sympy.Expr]] = field(default_factory=dict)
    max_depth: int = DEFAULT_MAX_DEPTH


@dataclass
class State:
    """Per-input mutable budget shared by the parser and all its sub-parsers."""

    options: Options
    depth: int = 0
    radical_bits: int = 0
    number_bits: int = 0

    @property
    def depth_limit(self) -> int:
        """Grammar recursion allowed: a group costs about three levels."""
        return 4 * self.options.max_depth + 16


@dataclass(frozen=True)
class Arg:
    """A TeX argument: the tokens inside ``{...}`` or the single-token argument."""

    tokens: list[Token]
    start: int
    end: int


class Parser:
    """Parses one window of tokens; sub-parsers share ``state`` and see ``bound``."""

    def __init__(
        self, tokens: Sequence[Token], state: State, bound: frozenset[str], end: int
    ) -> None:
        self.tokens = list(tokens)
        self.pos = 0
        self.state = state
        self.bound = bound
        self.end = end

    # -- token access -------------------------------------------------------------

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def next(self, what: str = "more input") -> Token:
        token = self.peek()
        if token is None:
            raise self.error(f"expected {what}, found end of input")
        self.pos += 1
        return token

    def error(self, message: str, token: Token | None = None, code: str = SYNTAX) -> LatexError:
        return LatexError(code, message, token.start if token is not None else self.end)

    def peek_char(self, chars: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == CHAR and token.text in chars

    def sub(self, tokens: Sequence[Token], end: int) -> Parser:
        """A parser for a window of these tokens (a group's contents), sharing state."""
        return Parser(tokens, self.state, self.bound, end)

    @contextmanager
    def nested(self) -> Iterator[None]:
        self.state.depth += 1
        try:
            if self.state.depth > self.state.depth_limit:
                raise self.error("expression nests too deeply", self.peek(), TOO_DEEP)
            yield
        finally:
            self.state.depth -= 1

    def build(self, token: Token | None, make: Callable[[], T]) -> T:
        """Run a SymPy constructor, turning its rejections into located errors."""
        try:
            return make()
        except (TypeError, ValueError, ArithmeticError, NotImplementedError) as exc:
            raise self.error(f"cannot build this expression: {exc}", token) from None

    # -- grammar ------------------------------------------------------------------

    def chain(self) -> tuple[list[tuple[sympy.Expr, int, int]], list[tuple[str, Token]]]:
        """A relation chain: the expressions with their spans, and the operators."""
        items = [self.spanned_expression()]
        ops: list[tuple[str, Token]] = []
        while (token := self.peek()) is not None and is_relation(token):
            self.pos += 1
            ops.append((RELATION_OPS[token.text], token))
            items.append(self.spanned_expression())
        self.expect_end()
        return items, ops

    def spanned_expression(self) -> tuple[sympy.Expr, int, int]:
        first = self.pos
        expr = self.expression()
        return expr, self.tokens[first].start, self.tokens[self.pos - 1].end

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(f"unexpected {token.describe()}", token)

    def whole(self) -> sympy.Expr:
        expr = self.expression()
        self.expect_end()
        return expr

    def expression(self) -> sympy.Expr:
        with self.nested():
            terms = [self.term()]
            while (token := self.peek()) is not None and self.peek_char("+-"):
                self.pos += 1
                term = self.term()
                terms.append(-term if token.text == "-" else term)
            return self.build(None, lambda: sympy.Add(*terms))

    def term(self) -> sympy.Expr:
        factors = [self.unary()]
        while (token := self.peek()) is not None:
            if token.is_cmd("cdot", "times") or token.is_char("*"):
                self.pos += 1
                factors.append(self.unary())
            elif token.is_char("/"):
                self.pos += 1
                factors.append(names.power(self, self.unary(), sympy.Integer(-1), token))
            elif self.starts_factor(token):
                factors.append(self.postfix())
            else:
                break
        return self.build(None, lambda: sympy.Mul(*factors))

    def unary(self) -> sympy.Expr:
        token = self.peek()
        if token is not None and self.peek_char("+-"):
            with self.nested():
                self.pos += 1
                operand = self.unary()
                return -operand if token.text == "-" else operand
        return self.postfix()

    def postfix(self) -> sympy.Expr:
        with self.nested():
            token = self.peek()
            if token is None:
                raise self.error("expected an expression, found end of input")
            if token.kind == LETTER or (token.kind == CMD and kind_of(token.text) in _NAME_KINDS):
                return names.named(self)
            atom = self.primary()
            sub, sup = self.scripts()
            if sub is not None:
                raise self.error("a subscript needs a symbol before it", token)
            return names.superscript(self, atom, sup, token)

    def starts_factor(self, token: Token, simple: bool = False) -> bool:
        """Whether ``token`` may begin an implicitly multiplied factor."""
        if token.kind in (NUMBER, LETTER):
            return True
        if token.kind == CHAR:
            return not simple and token.text in "([{"
        kind = kind_of(token.text)
        if simple:
            return kind in _SIMPLE_KINDS
        return kind in _FACTOR_KINDS or token.text == "lvert"

    def primary(self) -> sympy.Expr:
        token = self.next("an expression")
        if token.kind == NUMBER:
            names.charge(self, len(token.text) * 10 // 3 + 1, token)
            return self.build(token, lambda: sympy.Rational(token.text))
        if token.kind == CHAR and token.text in "([{":
            return self.delimited(token).whole()
        if token.is_cmd("lvert"):
            inner = self.delimited(token).whole()
            return self.build(token, lambda: sympy.Abs(inner))
        handler = _HANDLERS.get(kind_of(token.text) or "") if token.kind == CMD else None
        if handler is None:
            raise self.error(f"unexpected {token.describe()}", token)
        return handler(self, token)

    # -- arguments, groups and scripts --------------------------------------------

    def delimited(self, opener: Token) -> Parser:
        """Sub-parser for the tokens between ``opener`` (already consumed) and its match."""
        depth, begin = 1, self.pos
        while True:
            token = self.next("a closing delimiter")
            text = token.text if token.kind in (CHAR, CMD) else ""
            depth += (text in OPENERS) - (text in CLOSERS)
            if depth == 0:
                if begin == self.pos - 1:
                    raise self.error("empty group", opener)
                return self.sub(self.tokens[begin : self.pos - 1], token.start)

    def argument(self, what: str) -> Arg:
        """One TeX argument: a braced group or a single token (first digit of a number)."""
        with self.nested():
            token = self.next(what)
            begin = self.pos - 1
            if token.is_char("{"):
                inner = self.delimited(token)
                return Arg(inner.tokens, token.start, self.tokens[self.pos - 1].end)
            if token.kind == NUMBER and len(token.text) > 1:
                first = Token(NUMBER, token.text[0], token.start, token.start + 1)
                rest = Token(NUMBER, token.text[1:], token.start + 1, token.end)
                self.tokens[begin] = first
                self.tokens.insert(self.pos, rest)
                return Arg([first], first.start, first.end)
            kind = kind_of(token.text) if token.kind == CMD else None
            if kind in (FONT, ACCENT):
                self.argument(what)
            elif not (
                token.kind in (NUMBER, LETTER) or kind in (GREEK, SYMBOL, CONSTANT, TRANSPOSE)
            ):
                raise self.error(f"put {what} in braces", token)
            return Arg(self.tokens[begin : self.pos], token.start, self.tokens[self.pos - 1].end)

    def scripts(self) -> tuple[Arg | None, Arg | None]:
        sub: Arg | None = None
        sup: Arg | None = None
        while (token := self.peek()) is not None and self.peek_char("_^"):
            if (sub if token.text == "_" else sup) is not None:
                raise self.error(f"double {'sub' if token.text == '_' else 'super'}script", token)
            self.pos += 1
            if token.text == "_":
                sub = self.argument("a subscript")
            else:
                sup = self.argument("a superscript")
        return sub, sup

    def call_args(self) -> list[sympy.Expr]:
        """Comma-separated arguments of ``f(a, b)``; the ``(`` is next."""
        opener = self.next()
        inner = self.delimited(opener)
        return [
            self.sub(chunk, inner.end).whole() for chunk in names.split_commas(inner.tokens, self)
        ]

    def function_argument(self) -> sympy.Expr:
        """``(x)`` or, unparenthesised, the juxtaposed simple factors: ``\\ln 2x``."""
        if self.peek_char("(["):
            return self.delimited(self.next()).whole()
        factors = [self.postfix()]
        while (token := self.peek()) is not None and self.starts_factor(token, simple=True):
            factors.append(self.postfix())
        return self.build(None, lambda: sympy.Mul(*factors))

    def with_bound(self, indices: frozenset[str], parse: Callable[[], T]) -> T:
        """Run ``parse`` with ``indices`` bound (the body of a sum or extremum)."""
        saved = self.bound
        self.bound = saved | indices
        try:
            return parse()
        finally:
            self.bound = saved


_HANDLERS: dict[str, Callable[[Parser, Token], sympy.Expr]] = {
    CONSTANT: lambda parser, token: sympy.oo,
    FRACTION: constructs.fraction,
    ROOT: constructs.root,
    ELEMENTARY: constructs.elementary,
    OPERATOR_NAME: constructs.operatorname,
    BIG_OPERATOR: constructs.big_operator,
    EXTREMUM: constructs.extremum,
    LIMIT: constructs.limit,
}
