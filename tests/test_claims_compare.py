"""claims/binding/compare.py: a stated number converted to the computed value's unit."""

from __future__ import annotations

import pytest
import sympy

from atlas_build.claims.binding.compare import _converted
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
