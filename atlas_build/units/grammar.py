"""Compound unit expressions: `m²/(V·s)`, `bytes per token`, `A/cm²`, `J K^-1`.

A small recursive-descent reader written for lesson text (Unicode superscripts,
`·`, the word `per`), so no unit text ever reaches a general expression
evaluator. A `/` (or `per`) divides by the whole product after it, so `m²/V·s`
reads as engineers mean it, m²/(V·s). Sizes are bounded: at most `MAX_TOKENS`
tokens, `MAX_DEPTH` nested parentheses and exponents up to `MAX_EXPONENT`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from .dimension import Dimension
from .product import ONE, UnitAtom, UnitProduct, number
from .vocabulary import AMBIGUOUS, lookup, rate_numerator

MAX_TOKENS = 64
MAX_DEPTH = 8
MAX_EXPONENT = 100
MAX_DIGITS = 30

SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
MULTIPLY = frozenset("·⋅∙*×")
MINUS = frozenset("-−")

_LETTERS = r"[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉]+"
_REST = (
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<super>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
    r"|(?P<op>[·⋅∙*×/^(){}+\-−√])"
)
_TOKEN = re.compile(
    rf"(?P<space>\s+)|(?P<word>°?{_LETTERS}(?:-hours?)?|°|℃|%|[$€£¥])" + _REST  # kilowatt-hours
)
_GLOSSARY_TOKEN = re.compile(  # also `GPU-days`, `x_i` (`units of x_i`)
    rf"(?P<space>\s+)|(?P<word>°?{_LETTERS}(?:_[^\W_]+)*(?:-{_LETTERS}(?:_[^\W_]+)*)*|°|℃|%|[$€£¥])"
    + _REST
)
UNIT_WORDS = frozenset({"unit", "units"})
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
VULGAR = {"½": sympy.Rational(1, 2), "⅓": sympy.Rational(1, 3), "¼": sympy.Rational(1, 4),
          "⅔": sympy.Rational(2, 3), "¾": sympy.Rational(3, 4)}  # fmt: skip
ARTICLES = frozenset({"the", "a", "an", "its", "their"})
POWER_WORDS = {"squared": 2, "square": 2, "cubed": 3, "cubic": 3}
CELSIUS = {"C": "°C", "Celsius": "°C", "celsius": "°C", "F": "°F", "Fahrenheit": "°F"}

Nouns = Callable[[str], "UnitProduct | str | None"]
"""The reader of words the vocabulary lacks, in a symbol table (`nouns.noun`): a unit, a
message saying why the word does not read, or None for an English word."""


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


def tokenize(text: str, glossary: bool = False) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    space = False
    pattern = _GLOSSARY_TOKEN if glossary else _TOKEN
    while position < len(text):
        match = pattern.match(text, position)
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
    def __init__(
        self, text: str, spaces_multiply: bool, numbers: bool, nouns: Nouns | None = None
    ) -> None:
        self.text = text
        self.nouns = nouns
        self.tokens = tokenize(text, glossary=nouns is not None)
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
            spaced = not (token.kind == "op" and token.text in MULTIPLY)
            if not spaced:
                self.take()
            elif not (self.spaces_multiply and token.space_before and self.starts_primary(token)):
                break
            factor = self.power()
            counted = not list(result.atoms()) and _worded(factor)  # `1000 instructions`
            if spaced and self.nouns is not None and (_worded(result) or _worded(factor)):
                if not counted:  # `see text`, `V peak`: words side by side are a phrase
                    raise self.error(f"unknown unit {token.text!r}", token)
            result = result * factor
        return result

    def starts_primary(self, token: Token) -> bool:
        if token.kind == "word":
            return token.text != "per"
        return token.kind == "number" or (token.kind == "op" and token.text == "(")

    def power(self) -> UnitProduct:
        token = self.peek()
        if self.nouns is not None and token is not None and token.text in POWER_WORDS:
            following = self.tokens[self.position + 1 : self.position + 2]
            if following and following[0].kind == "word" and not self.is_divide(following[0]):
                self.take()  # `square meters`, `squared gradient units`
                return self.power() ** POWER_WORDS[token.text]
        base = self.primary()
        token = self.peek()
        if self.nouns is not None and self.is_word(token, "squared", "cubed"):
            self.take()  # `units of x squared`, `meters cubed`
            return base ** POWER_WORDS[self.tokens[self.position - 1].text]
        if token is not None and token.kind == "super":
            self.take()
            return base ** self.exponent_value(token.text.translate(SUPER_DIGITS), token)
        if token is not None and token.kind == "op" and token.text == "^":
            self.take()
            return base ** self.exponent()
        return base

    def exponent(self) -> sympy.Rational:
        opener = self.peek()
        if opener is not None and opener.text in VULGAR:  # `V^½`: a body-effect coefficient
            self.take()
            return VULGAR[opener.text]
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
        decimal = re.fullmatch(r"([+-]?)(\d{1,3})\.(\d{1,3})", text)
        if decimal is not None:  # `°C^0.44` of a fitted law: 11/25, a fraction too
            sign, whole, part = decimal.groups()
            value = sympy.Rational(f"{whole}.{part}") * (-1 if sign == "-" else 1)
            if abs(value.p) > MAX_EXPONENT * 10 or value.q > 1000:
                raise self.error("exponent too large", token)
            return value
        match = re.fullmatch(r"([+-]?)(\d{1,6})(?:/(\d{1,6}))?", text)
        if match is None:
            raise self.error("an exponent must be a whole number, a fraction or a decimal", token)
        sign, top, bottom = match.groups()
        if bottom is not None and int(bottom) == 0:
            raise self.error("zero denominator in an exponent", token)
        value = sympy.Rational(int(top), int(bottom or 1)) * (-1 if sign == "-" else 1)
        if abs(value.p) > MAX_EXPONENT or value.q > MAX_EXPONENT:
            raise self.error("exponent too large", token)
        return value

    def primary(self) -> UnitProduct:
        token = self.take()
        if token.kind == "op" and token.text == "√":  # `nV/√Hz`: a noise density
            return self.primary() ** sympy.Rational(1, 2)
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
            if token.text in CURRENCIES:  # `€/kWh`: money, as the glossary's `EUR` reads
                return descriptive(CURRENCIES[token.text].lower(), token.text)
            if (rate := self.rate(token)) is not None:
                return rate
            if self.nouns is not None:
                return self.glossary_word(token, self.nouns)
            if token.text in AMBIGUOUS:
                raise self.error(f"{token.text!r}: {AMBIGUOUS[token.text]}", token)
            found = lookup(token.text)
            if found is None:
                raise self.error(f"unknown unit {token.text!r}", token)
            return found
        raise self.error(f"unexpected {token.text!r}", token)

    def is_word(self, token: Token | None, *words: str) -> bool:
        return token is not None and token.kind == "word" and token.text.lower() in words

    def glossary_word(self, token: Token, nouns: Nouns) -> UnitProduct:
        """A word of a symbol table's unit column (`nouns`): a unit, `units of f`, `same
        units as x`, `value units`, `degrees C`, a level or a counted noun."""
        word, following = token.text, self.peek()
        if word.lower() in UNIT_WORDS and self.is_word(following, "of"):
            self.take()
            return self.named(token)
        if word.lower() == "same":
            if self.is_word(self.peek(), *UNIT_WORDS):
                self.take()
            if not self.is_word(self.peek(), "as"):
                raise self.error("expected 'as' after 'same'", self.peek())
            self.take()
            return self.named(token)
        if word in AMBIGUOUS and isinstance(nouns(word), str):  # not dB, a level here
            raise self.error(f"{word!r}: {AMBIGUOUS[word]}", token)
        found = lookup(word)
        if found is None and following is not None and self.is_word(following, *UNIT_WORDS):
            after = self.tokens[self.position + 1 : self.position + 2]
            if not (after and self.is_word(after[0], "of")):
                self.take()  # `value units`, `loss units per parameter unit`
                return descriptive(word.lower(), f"{word} {following.text}")
        if found is None and "-" in word:
            found = ONE
            for part in word.split("-"):
                found = found * self.glossary_word(Token("word", part, token.column, False), nouns)
        if found is None:
            read = nouns(word)
            if isinstance(read, str):
                raise self.error(read, token)
            if read is None:
                raise self.error(f"unknown unit {word!r}", token)
            found = read
        unit_after = self.peek()
        if unit_after is not None and unit_after.text in CELSIUS and unit_after.space_before:
            if [atom.key for atom, _ in found.atoms()] == ["degree"]:
                self.take()  # `degrees C`: not degrees times coulombs
                return lookup(CELSIUS[unit_after.text]) or found
        return found

    def named(self, start: Token) -> UnitProduct:
        """The symbol after `units of` or `same units as` (an article skipped): the
        lesson's unit of that symbol, descriptive until the glossary resolves it."""
        if self.is_word(self.peek(), *ARTICLES):
            self.take()
        name = self.peek()
        if name is None or name.kind != "word":
            raise self.error("expected the name of a symbol", name)
        self.take()
        return descriptive(name.text, f"units of {name.text}")


def _worded(units: UnitProduct) -> bool:
    """Whether `units` holds a counted noun or a descriptive unit (not a unit's symbol)."""
    return any(atom.key.startswith(("noun:", "abstract:")) for atom, _ in units.atoms())


def descriptive(name: str, text: str, power: int = 1) -> UnitProduct:
    """The lesson's own unit `name` (`value`, `f`), written as `text` (`value units`): an
    abstract base, `Dimension.descriptive` (docs/units.md, "Descriptive units")."""
    atom = UnitAtom("abstract:" + name, text, Dimension.base(name))
    return UnitProduct([(atom, power)])


def read_unit(
    text: str, *, spaces_multiply: bool = True, numbers: bool = True, nouns: Nouns | None = None
) -> UnitProduct:
    """The unit product `text` writes, or `UnitSyntaxError` with the column at fault.

    `spaces_multiply=False` (prose) ends a unit at a space unless `per` follows;
    `numbers=False` refuses numeric factors such as the `1` of `1/s`; `nouns` (a symbol
    table's column) reads the words the vocabulary lacks (`nouns.noun`).
    """
    reader = _Reader(text, spaces_multiply, numbers, nouns)
    if not reader.tokens:
        raise UnitSyntaxError("no unit", 0)
    result = reader.unit()
    rest = reader.peek()
    if rest is not None:
        raise reader.error(f"unexpected {rest.text!r} after the unit", rest)
    return result
