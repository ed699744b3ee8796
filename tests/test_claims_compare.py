"""claims/binding/compare.py: a stated number converted to the computed value's unit."""

from __future__ import annotations

import pytest
import sympy

from atlas_build.claims.binding.compare import _converted, far_off
from atlas_build.units import UnitError


@pytest.mark.parametrize(
    ("written", "unit"), [("%", "B"), ("MB/s", "MB"), ("MB", "GB/s"), ("kB", "%")]
)
def test_units_of_different_families_are_not_multiples(written: str, unit: str) -> None:
    """The byte and percent fast path scaled 5% to 0.05 B and 5 MB/s to 5 MB: a number in
    one unit verified against a quantity in another."""
    with pytest.raises(UnitError):
        _converted(sympy.Integer(5), sympy.Rational(1, 10), written, unit)


@pytest.mark.parametrize(
    ("written", "unit", "value"),
    [
        ("MB", "B", 5_000_000),
        ("KiB", "B", 5120),
        ("kB/s", "B/s", 5000),
        ("%", None, 0.05),
        ("kB", None, 5000),
    ],
)
def test_units_of_one_family_convert_exactly(written: str, unit: str | None, value: float) -> None:
    converted, _ = _converted(sympy.Integer(5), sympy.Rational(1, 10), written, unit)
    assert converted == sympy.nsimplify(value)


@pytest.mark.parametrize(
    ("stated", "computed", "far"),
    [
        (31, 30, False),  # a typo
        (2, 1, False),  # one digit is a factor of two
        (7.5, 0.75, False),  # a decimal point slipped
        (0.075, 7.5, False),  # two places
        (4, 16.48, True),  # `√16 = 4.12 × 4` read as √16 alone
        (421, 4.2e14, True),  # a unit the text does not write
        (-2.4, 5, True),  # the other sign
        (0, 3, True),
        (0, 0, False),
        (sympy.I, 1, False),  # no real number: cannot be told
    ],
)
def test_a_miss_no_slip_makes_is_far_off(stated, computed, far) -> None:
    assert far_off(stated, computed) is far
