"""Compound unit expressions: `m²/(V·s)`, `bytes per token`, `A/cm²`, `J K^-1`.

A small recursive-descent reader written for lesson text (Unicode superscripts,
`·`, the word `per`), so no unit text ever reaches a general expression
evaluator. A `/` (or `per`) divides by the whole product after it, so `m²/V·s`
reads as engineers mean it, m²/(V·s). Sizes are bounded: at most `MAX_TOKENS`
tokens, `MAX_DEPTH` nested parentheses and exponents up to `MAX_EXPONENT`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from .product import ONE, UnitProduct, number
from .vocabulary import AMBIGUOUS, lookup, rate_numerator

MAX_TOKENS = 64
MAX_DEPTH = 8
MAX_EXPONENT = 100
MAX_DIGITS = 30

SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
MULTIPLY = frozenset("·⋅∙*×")
MINUS = frozenset("-−")

_TOKEN = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<word>°?[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉]+(?:-hours?)?|°|℃|%)"  # kilowatt-hours
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<super>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
    r"|(?P<op>[·⋅∙*×/^(){}+\-−])"
)


class UnitSyntaxError(ValueError):
    """Unit text that cannot be read; `column` is the 0-based offset in the text read."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    column: int
    space_before: bool


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    space = False
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise UnitSyntaxError(f"unexpected {text[position]!r} in a unit", position)
        kind = match.lastgroup or ""
        if kind == "space":
            space = True
        else:
            tokens.append(Token(kind, match.group(), position, space))
            space = False
            if len(tokens) > MAX_TOKENS:
                raise UnitSyntaxError("unit text too long", position)
        position = match.end()
    return tokens


class _Reader:
    def __init__(self, text: str, spaces_multiply: bool, numbers: bool) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.position = 0
        self.depth = 0
        self.spaces_multiply = spaces_multiply
        self.numbers = numbers
        self.dividing = False  # whether the product being read is a divisor

    def peek(self) -> Token | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise UnitSyntaxError("unit text ends too early", len(self.text))
        self.position += 1
        return token

    def error(self, message: str, token: Token | None) -> UnitSyntaxError:
        return UnitSyntaxError(message, token.column if token else len(self.text))

    def is_divide(self, token: Token | None) -> bool:
        return token is not None and (
            (token.kind == "op" and token.text == "/")
            or (token.kind == "word" and token.text == "per")
        )

    def unit(self) -> UnitProduct:
        outer, self.dividing = self.dividing, False
        result = ONE if self.is_divide(self.peek()) else self.product()
        while self.is_divide(self.peek()):
            self.take()
            self.dividing = True
            result = result / self.product()
        self.dividing = outer
        return result

    def rate(self, token: Token) -> UnitProduct | None:
        """`kb/s`, `MT/s` (vocabulary.RATES): a numerator that is a unit only over a second,
        read with its `/s` at the head of a unit and when nothing but `/` follows (`b/s·Hz`
        would divide by the Hz too, so it is not a rate; write bit/(s·Hz))."""
        numerator = None if self.dividing else rate_numerator(token.text)
        ahead = self.tokens[self.position : self.position + 3]
        if numerator is None or len(ahead) < 2 or not self.is_divide(ahead[0]):
            return None
        second = lookup(ahead[1].text) if ahead[1].kind == "word" else None
        if second is None or [atom.key for atom, _ in second.atoms()] != ["second"]:
            return None
        after = ahead[2] if len(ahead) > 2 else None
        if after is not None and (
            after.kind == "super"
            or (after.kind == "op" and after.text in MULTIPLY | {"^", "("})
            or (self.spaces_multiply and after.space_before and self.starts_primary(after))
        ):
            return None
        self.position += 2
        return numerator / second

    def product(self) -> UnitProduct:
        result = self.power()
        while (token := self.peek()) is not None:
            if token.kind == "op" and token.text in MULTIPLY:
                self.take()
            elif not (self.spaces_multiply and token.space_before and self.starts_primary(token)):
                break
            result = result * self.power()
        return result

    def starts_primary(self, token: Token) -> bool:
        if token.kind == "word":
            return token.text != "per"
        return token.kind == "number" or (token.kind == "op" and token.text == "(")

    def power(self) -> UnitProduct:
        base = self.primary()
        token = self.peek()
        if token is not None and token.kind == "super":
            self.take()
            return base ** self.exponent_value(token.text.translate(SUPER_DIGITS), token)
        if token is not None and token.kind == "op" and token.text == "^":
            self.take()
            return base ** self.exponent()
        return base

    def exponent(self) -> sympy.Rational:
        opener = self.peek()
        closer = None
        if opener is not None and opener.kind == "op" and opener.text in "({":
            self.take()
            closer = ")" if opener.text == "(" else "}"
        start = self.peek()
        text = ""
        while (token := self.peek()) is not None and (
            token.kind == "number" or (token.kind == "op" and token.text in "/+-−")
        ):
            if token.kind == "op" and token.text == "/" and closer is None:
                break
            text += "-" if token.text in MINUS else token.text
            self.take()
        if closer is not None:
            end = self.take()
            if end.text != closer:
                raise self.error(f"expected {closer!r} to close the exponent", end)
        return self.exponent_value(text, start)

    def exponent_value(self, text: str, token: Token | None) -> sympy.Rational:
        match = re.fullmatch(r"([+-]?)(\d{1,6})(?:/(\d{1,6}))?", text)
        if match is None:
            raise self.error("an exponent must be a whole number or a fraction", token)
        sign, top, bottom = match.groups()
        if bottom is not None and int(bottom) == 0:
            raise self.error("zero denominator in an exponent", token)
        value = sympy.Rational(int(top), int(bottom or 1)) * (-1 if sign == "-" else 1)
        if abs(value.p) > MAX_EXPONENT or value.q > MAX_EXPONENT:
            raise self.error("exponent too large", token)
        return value

    def primary(self) -> UnitProduct:
        token = self.take()
        if token.kind == "op" and token.text == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error("too many nested parentheses", token)
            inner = self.unit()
            end = self.take()
            if end.text != ")":
                raise self.error("expected ')'", end)
            self.depth -= 1
            return inner
        if token.kind == "number":
            if not self.numbers or len(token.text) > MAX_DIGITS:
                raise self.error(f"a number {token.text!r} is not a unit", token)
            whole, _, fraction = token.text.partition(".")
            value = sympy.Rational(int(whole + fraction), 10 ** len(fraction))
            return UnitProduct(factor=number(value))
        if token.kind == "word":
            if (rate := self.rate(token)) is not None:
                return rate
            if token.text in AMBIGUOUS:
                raise self.error(f"{token.text!r}: {AMBIGUOUS[token.text]}", token)
            found = lookup(token.text)
            if found is None:
                raise self.error(f"unknown unit {token.text!r}", token)
            return found
        raise self.error(f"unexpected {token.text!r}", token)


def read_unit(text: str, *, spaces_multiply: bool = True, numbers: bool = True) -> UnitProduct:
    """The unit product `text` writes, or `UnitSyntaxError` with the column at fault.

    `spaces_multiply=False` (prose) ends a unit at a space unless `per` follows;
    `numbers=False` refuses numeric factors such as the `1` of `1/s`.
    """
    reader = _Reader(text, spaces_multiply, numbers)
    if not reader.tokens:
        raise UnitSyntaxError("no unit", 0)
    result = reader.unit()
    rest = reader.peek()
    if rest is not None:
        raise reader.error(f"unexpected {rest.text!r} after the unit", rest)
    return result
