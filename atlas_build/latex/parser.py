"""Recursive-descent parser from normalised lesson-LaTeX tokens to SymPy objects.

Grammar (highest binding last)::

    chain      := list (relation list)*
    list       := expression ("," expression)*
    expression := term (("+" | "-" | "\\pm" | "\\mp") term)*
    term       := unary (mulop unary | "/" divisor | binop unary | unit | postfix)*
    unary      := ("+" | "-" | "\\pm" | "\\lnot") unary | postfix
    postfix    := (name scripts [call] | atom scripts) "!"*
    argument   := "{" ... "}" | one token (one digit of a number, as in TeX)

Inside a group, an *item* may also be a condition (``X > 0``, ``A \\mid B``,
``a \\land b``). Constructs with their own arguments live in :mod:`.constructs`,
:mod:`.bigops`, :mod:`.calculus` and :mod:`.notation`; names in :mod:`.names`;
units in :mod:`.units`. SymPy objects are built directly; nothing is evaluated
from text. Recursion is bounded by a shared depth counter (``too-deep``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

import sympy

from . import calculus, logic, named, names, units
from .delimiters import CLOSERS, GROUP_OPENERS, OPENERS, text_of
from .dialect import RELATION_OPS, kind_of
from .errors import SYNTAX, TOO_DEEP, LatexError
from .lexer import BEGIN, CHAR, CMD, LETTER, NUMBER, WORDS, Token
from .normalise import is_relation
from .roles import (
    ACCENT,
    ARG,
    BIG_OPERATOR,
    BINARY,
    BINOMIAL,
    CONSTANT,
    DOTS,
    ELEMENTARY,
    EXTREMUM,
    FONT,
    FRACTION,
    GREEK,
    INTEGRAL,
    LIMIT,
    MODULO,
    NABLA,
    NAMED_FUNCTION,
    OPERATOR,
    OPERATOR_NAME,
    PARTIAL,
    PLUS_MINUS,
    ROOT,
    SYMBOL,
)
from .state import Arg, Item, State, arithmetic, split_parallel, split_top

T = TypeVar("T")

NAME_KINDS = frozenset({GREEK, SYMBOL, FONT, ACCENT})
_CONSTRUCT_KINDS = frozenset(
    {CONSTANT, FRACTION, BINOMIAL, ROOT, ELEMENTARY, NAMED_FUNCTION, OPERATOR_NAME}
    | {BIG_OPERATOR, EXTREMUM, ARG, INTEGRAL, LIMIT, PARTIAL, NABLA, DOTS}
)
_FACTOR_KINDS = NAME_KINDS | _CONSTRUCT_KINDS
_SIMPLE_KINDS = NAME_KINDS | {CONSTANT, FRACTION, ROOT, BINOMIAL}
_MULTIPLY = frozenset({"cdot", "times", "bullet", "cdotp"})


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

    def peek(self, ahead: int = 0) -> Token | None:
        k = self.pos + ahead
        return self.tokens[k] if k < len(self.tokens) else None

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

    def of(self, arg: Arg) -> Parser:
        return self.sub(arg.tokens, arg.end)

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
        except (TypeError, ValueError, ArithmeticError, NotImplementedError, AttributeError) as exc:
            raise self.error(f"cannot build this expression: {exc}", token) from None

    # -- relations and items ------------------------------------------------------

    def chain(self) -> tuple[list[Item], list[tuple[str, Token]]]:
        """A relation chain of lists: the sides with their spans, and the operators."""
        items = [self.spanned_list()]
        ops: list[tuple[str, Token]] = []
        while (token := self.peek()) is not None and is_relation(token):
            self.pos += 1
            ops.append((RELATION_OPS[token.text], token))
            items.append(self.spanned_list())
        self.expect_end()
        return items, ops

    def spanned_list(self) -> Item:
        first = self.pos
        members = [logic.values(self)]
        while self.peek_char(",;"):
            self.pos += 1
            members.append(logic.values(self))
        value = members[0] if len(members) == 1 else sympy.Tuple(*members)
        return value, self.tokens[first].start, self.tokens[self.pos - 1].end

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(f"unexpected {token.describe()}", token)

    def whole(self) -> sympy.Expr:
        expr = self.expression()
        self.expect_end()
        return expr

    def items(self) -> list[sympy.Basic]:
        """The comma- (or semicolon-) separated items of a group's contents."""
        return [self.sub(chunk, self.end).item() for chunk in split_top(self.tokens, ",;", self)]

    def item(self) -> sympy.Basic:
        """One item of a group: an expression, or a condition (``A \\mid B``, ``x > 0``)."""
        return logic.item(self)

    # -- expressions --------------------------------------------------------------

    def expression(self) -> sympy.Expr:
        with self.nested():
            terms = [self.term()]
            while (token := self.peek()) is not None:
                if self.peek_char("+-"):
                    self.pos += 1
                    term = self.term()
                    terms.append(self.negate(term, token) if token.text == "-" else term)
                elif token.kind == CMD and kind_of(token.text) == PLUS_MINUS:
                    self.pos += 1
                    arithmetic(self, terms, "added")
                    left = self.build(token, partial(sympy.Add, *terms))
                    right = self.term()
                    terms = [logic.plus_minus(self, token, left, right)]
                else:
                    break
            if len(terms) == 1:
                return terms[0]
            arithmetic(self, terms, "added")
            return self.build(None, lambda: sympy.Add(*terms))

    def term(self) -> sympy.Expr:
        derivative = calculus.slash_derivative(self)  # `dR/dt`, before d·R/(d·t) cancels
        factors = [derivative if derivative is not None else self.unary()]
        while (token := self.peek()) is not None:
            kind = kind_of(token.text) if token.kind == CMD else None
            if token.is_char("*") or (kind == OPERATOR and token.text in _MULTIPLY):
                self.pos += 1
                factors.append(self.unary())
            elif token.is_char("/") or token.is_cmd("div"):
                self.pos += 1
                factors = [logic.divide(self, token, factors, self.divisor())]
            elif kind in (BINARY, MODULO) or token.is_cmd("evalbar"):
                self.pos += 1
                factors = [logic.binary(self, token, self.product(factors))]
            elif units.starts_unit(self, factors):
                factors = units.with_unit(self, factors)
            elif units.annotates(self, factors):
                units.skip(self)
            elif self.starts_factor(token):
                factors.append(self.postfix())
            else:
                break
        return self.product(factors)

    def negate(self, value: sympy.Basic, token: Token) -> sympy.Expr:
        arithmetic(self, [value], "negated")
        return self.build(token, lambda: -value)

    def product(self, factors: list[sympy.Expr]) -> sympy.Expr:
        if len(factors) == 1:
            return factors[0]
        arithmetic(self, factors, "multiplied")
        return self.build(None, lambda: sympy.Mul(*factors))

    def divisor(self) -> sympy.Expr:
        """What ``/`` divides by: the next factor and the factors written against it
        without a space (``qV/kT`` is ``qV/(kT)``; ``a/b c`` is ``(a/b) c``). A number
        set against a quantity by a spacing command counts it: ``a/\\tfrac12\\,\\mathrm{LSB}``
        is a/(½ LSB), and a unit after a number is its unit: ``x/10\\,\\mathrm{K}`` is
        x/(10 K)."""
        factors = [self.unary()]
        while (token := self.peek()) is not None:
            counts = units.plain_numbers(factors)
            if counts and units.starts_unit(self, factors):
                factors = units.with_unit(self, factors)
                continue
            if token.space_before and not (counts and token.gap):
                break
            if not self.starts_factor(token) or units.starts_unit(self, factors):
                break
            factors.append(self.postfix())
        return self.product(factors)

    def unary(self) -> sympy.Expr:
        token = self.peek()
        kind = kind_of(token.text) if token is not None and token.kind == CMD else None
        if token is not None and (self.peek_char("+-") or kind in (PLUS_MINUS, "not")):
            with self.nested():
                self.pos += 1
                operand = self.unary()
                if token.text == "-":
                    return self.negate(operand, token)
                if token.text == "+":
                    return operand
                if kind == PLUS_MINUS:
                    return logic.plus_minus(self, token, sympy.Integer(0), operand)
                return self.build(token, lambda: sympy.Not(operand))
        return self.postfix()

    def postfix(self) -> sympy.Expr:
        with self.nested():
            token = self.peek()
            if token is None:
                raise self.error("expected an expression, found end of input")
            if token.kind in (LETTER, WORDS) or (
                token.kind == CMD and kind_of(token.text) in NAME_KINDS
            ):
                value = named.named(self)
            else:
                atom = self.primary()
                value = names.scripted_atom(self, atom, token)
            return names.factorials(self, value, token)

    def starts_factor(self, token: Token, simple: bool = False) -> bool:
        """Whether ``token`` may begin an implicitly multiplied factor."""
        if token.kind in (NUMBER, LETTER, WORDS):
            return True
        if token.kind == BEGIN:
            return not simple
        if token.kind == CHAR:
            return not simple and token.text in "([{"
        if token.kind != CMD:
            return False
        kind = kind_of(token.text)
        if simple:
            return kind in _SIMPLE_KINDS
        return kind in _FACTOR_KINDS or token.text in GROUP_OPENERS

    # The rule modules call back into one another through the parser, so that the import
    # graph runs one way: parser -> dispatch -> notation -> constructs/bigops -> names.

    def primary(self) -> sympy.Expr:
        from .dispatch import primary

        return primary(self)

    def group(self, opener: Token) -> sympy.Expr:
        """The delimited group that ``opener`` (already consumed) begins."""
        from .notation import group

        return group(self, opener)

    def subscripted(self, atom: sympy.Expr, sub: Arg, token: Token) -> sympy.Expr:
        """``atom`` with the subscript ``sub``."""
        from .notation import subscripted

        return subscripted(self, atom, sub, token)

    # -- arguments, groups and scripts --------------------------------------------

    def delimited(self, opener: Token) -> tuple[Parser, Token]:
        """Sub-parser for the tokens between ``opener`` (already consumed) and its match,
        and the closing token."""
        depth, begin = 1, self.pos
        while True:
            token = self.next("a closing delimiter")
            text = text_of(token)
            depth += (text in OPENERS) - (text in CLOSERS)
            if depth == 0:
                if begin == self.pos - 1:
                    raise self.error("empty group", opener)
                return self.sub(self.tokens[begin : self.pos - 1], token.start), token

    def argument(self, what: str) -> Arg:
        """One TeX argument: a braced group or a single token (first digit of a number)."""
        with self.nested():
            token = self.next(what)
            begin = self.pos - 1
            if token.is_char("{"):
                inner, _ = self.delimited(token)
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
            elif not names.single_token_argument(token):
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

    def call_args(self) -> list[sympy.Basic]:
        """Comma- or semicolon-separated arguments of ``f(a, b)``; the ``(`` is next."""
        opener = self.next()
        inner, _ = self.delimited(opener)
        pieces = split_parallel(inner.tokens)
        if len(pieces) == 1:
            return inner.items()
        return [item for piece in pieces for item in self.sub(piece, inner.end).items()]

    def function_argument(self) -> sympy.Expr:
        """``(x)`` or, unparenthesised, the juxtaposed simple factors: ``\\ln 2x``; a
        spacing command ends them, as it does in print (``\\ln 2\\,RC`` is ``RC ln 2``)."""
        if self.peek_char("(["):
            inner, _ = self.delimited(self.next())
            return inner.whole()
        factors = [self.postfix()]
        while (token := self.peek()) is not None and self.starts_factor(token, simple=True):
            if token.gap or units.starts_unit(self, factors):
                break
            factors.append(self.postfix())
        return self.product(factors)

    def with_bound(self, indices: frozenset[str], parse: Callable[[], T]) -> T:
        """Run ``parse`` with ``indices`` bound (the body of a sum or extremum)."""
        saved = self.bound
        self.bound = saved | indices
        try:
            return parse()
        finally:
            self.bound = saved
