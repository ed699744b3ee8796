"""claims.infer.meant: the symbol a list or number is, by the noun written before it."""

from __future__ import annotations

import pytest

from atlas_build import lesson
from atlas_build.claims.infer import meant

BODY = """## Worked relation

Symbols and units

o

Scalar attention output

value units

a\\_j

Softmax probability over allowed keys

dimensionless

v\\_j

Allowed scalar value

value units

p\\_j

Probability of keeping key j

dimensionless

With scalar values [2,6], the output is 5 and the mean is 4.
"""


@pytest.mark.parametrize(
    ("word", "singular"),
    [("probabilities", "probability"), ("scores", "score"), ("values", "value"),
     ("boxes", "box"), ("loss", "loss"), ("gas", "gas")],
)  # fmt: skip
def test_singular(word, singular):
    assert meant.singular(word) == singular


def test_a_noun_names_the_one_symbol_whose_meaning_holds_it():
    model = lesson.build(BODY)
    tables = meant.Tables(model)
    start = BODY.index("With")
    names = list(tables.every)
    assert tables.symbol(BODY.index("[2,6]"), start, names) == "v_j"
    assert tables.symbol(BODY.index("5 and"), start, names) == "o"
    assert tables.symbol(BODY.index("4."), start, names) is None  # `mean`: no meaning holds it
    assert tables.symbol(BODY.index("5 and"), start, ["v_j"]) is None  # o is not asked for


def test_a_noun_two_meanings_hold_names_neither():
    """`probability` is a word of a_j's meaning and of p_j's: the list is neither's."""
    body = BODY.replace("With scalar values [2,6]", "The probabilities are [0.25,0.75]")
    model = lesson.build(body)
    tables = meant.Tables(model)
    at = body.index("[0.25")
    assert tables.symbol(at, body.index("The probabilities"), list(tables.every)) is None
