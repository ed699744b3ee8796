"""Quantities a quiz question states in words: `nine tenths`, `ten percent`, `three seconds`.

A question written in words is still a statement of the values its answer depends on; the
quiz kind compares these with the inputs of the claim that computes the fact, so changing
`Nine tenths` to `Eight tenths` cannot leave the old answer verified. Only words that
state a quantity are read: a count before a fraction word, `percent`, or a unit (`two
probabilities` and `which one` state none).
"""

from __future__ import annotations

import re

import sympy

from atlas_build.claims.prose import numbers
from atlas_build.units.prose import unit_after

_UNITS = "zero one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_VALUES = {word: index for index, word in enumerate(_UNITS)}
_VALUES.update({word: 10 + index for index, word in enumerate(_TEENS)})
_VALUES.update({word: 20 + 10 * index for index, word in enumerate(_TENS)})
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6}
_FRACTIONS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
    "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9,
    "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100,
    "thousandth": 1000, "thousandths": 1000,
}  # fmt: skip
_WORD = "|".join(sorted([*_VALUES, *_SCALES], key=len, reverse=True))
_COUNT = re.compile(rf"\b(?:a\s+|an\s+)?((?:{_WORD})(?:[\s-]+(?:and\s+)?(?:{_WORD}))*)\b", re.I)
_FRACTION = re.compile(
    r"[\s-]+(" + "|".join(sorted(_FRACTIONS, key=len, reverse=True)) + r")\b", re.I
)
_PERCENT = re.compile(r"\s+(?:percent|per\s+cent)\b", re.I)


def _count(words: str) -> int | None:
    total, current = 0, 0
    for word in re.split(r"[\s-]+(?:and\s+)?", words.lower()):
        if word in _VALUES:
            current += _VALUES[word]
        elif word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
    return total + current


def stated(text: str) -> list[numbers.Quantity]:
    """Each quantity `text` states in words, with its span in `text`."""
    found = []
    for match in _COUNT.finditer(text):
        value = _count(match.group(1))
        if value is None:
            continue
        start, end = match.start(1), match.end(1)
        fraction = _FRACTION.match(text, end)
        if fraction is not None:
            denominator = _FRACTIONS[fraction.group(1).lower()]
            exact = sympy.Rational(value, denominator)
            found.append(_quantity(exact, text, start, fraction.end(), None))
            continue
        percent = _PERCENT.match(text, end)
        if percent is not None:
            exact = sympy.Rational(value, 100)  # a pure number: `ten percent` is 0.1
            found.append(_quantity(exact, text, start, percent.end(), None))
            continue
        if match.group(1).lower() == "one":
            continue  # `which one`, `one of`: a pronoun far more often than a count
        unit = unit_after(text, end)
        if unit is not None and unit[0][:1].isalpha():
            found.append(_quantity(sympy.Integer(value), text, start, unit[1], unit[0]))
    return found


def _quantity(
    value: sympy.Expr, text: str, start: int, end: int, unit: str | None
) -> numbers.Quantity:
    return numbers.Quantity(value, text[start:end], start, end, decimals=None, unit=unit)
