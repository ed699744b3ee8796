"""Exact numbers as prose writes them: `3.35`, `1,024`, `−0.75`, `1.5e-3`, `6.02×10²³`, `10¹⁶`.

Read with a bounded regular expression into `sympy.Rational` directly from the
digits (no `float`, no general parser), so `0.0259` is exactly 259/10000.
"""

from __future__ import annotations

import re

import sympy

MAX_EXPONENT = 400
SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER = str.maketrans(SUPERSCRIPT_DIGITS + "⁻", "0123456789-")

NUMBER = re.compile(
    r"(?<![\w.^_\\])"
    r"(?P<sign>[-−])?"
    r"(?P<whole>\d{1,3}(?:,\d{3})+|\d{1,100})"
    r"(?:\.(?P<fraction>\d{1,100}))?"
    r"(?:"
    r"[eE](?P<e>[-+−]?\d{1,4})"
    r"|[ \u2009\u202f]?[×x·][ \u2009\u202f]?10(?:\^\{?(?P<caret>[-−]?\d{1,4})\}?"
    r"|(?P<times>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4}))"
    r"|(?P<power>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4})"
    r")?"
    r"(?![\d.,]\d)"
)
"""A number with an optional decimal exponent; a superscript right after the digits is a
power of them (`10¹⁶`, `2¹⁰`)."""


def _integer(text: str) -> int:
    value = int(text.replace("−", "-").translate(_SUPER))
    if abs(value) > MAX_EXPONENT:
        raise ValueError("exponent too large")
    return value


def number_value(match: re.Match[str]) -> sympy.Rational:
    """The exact value of a `NUMBER` match."""
    whole = match.group("whole").replace(",", "")
    fraction = match.group("fraction") or ""
    value = sympy.Rational(int(whole + fraction), 10 ** len(fraction))
    decimal = match.group("e") or match.group("caret") or match.group("times")
    if decimal is not None:
        value *= sympy.Rational(10) ** _integer(decimal)
    if match.group("power") is not None:
        power = _integer(match.group("power"))
        if value == 0 and power < 0:
            raise ValueError("zero to a negative power")
        value = value**power
    if match.group("sign"):
        value = -value
    return value


def parse_number(text: str) -> sympy.Rational | None:
    """`text` as an exact number, or None when it is not exactly one number."""
    match = NUMBER.fullmatch(text.strip())
    if match is None:
        return None
    try:
        return number_value(match)
    except ValueError:
        return None
