"""Quantities in prose, exact numbers and conversions."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from atlas_build.units import (
    UnitError,
    convert,
    exact,
    find_quantities,
    parse_number,
    same_dimension,
    to_base,
)
from atlas_build.units.numbers import NUMBER
from atlas_build.units.prose import unit_attempt, unread_unit_after

R = sp.Rational


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("a 128 KiB tile", 128, "KiB"),
        ("streams at 3.35 TB/s from HBM", R(335, 100), "TB/s"),
        ("a forward bias of 0.7 V.", R(7, 10), "V"),
        ("(32 MiB)", 32, "MiB"),
        ("takes 2.1 ms, then", R(21, 10), "ms"),
        ("at 300 K the", 300, "K"),
        ("a 1.5 GHz clock", R(3, 2), "GHz"),
        ("V_T is 25.9 mV", R(259, 10), "mV"),
        ("doped to 10¹⁶ cm⁻³ on", 10**16, "cm⁻³"),
        ("about 6.02×10²³ mol", R(602, 100) * 10**23, "mol"),
        ("1e-3 s", R(1, 1000), "s"),
        ("−0.75 V", R(-3, 4), "V"),
        ("1,024 B", 1024, "B"),
        ("2.1ms", R(21, 10), "ms"),
        ("50% of", 50, "%"),
        ("at 25 °C", 25, "°C"),
        ("64 bytes per token", 64, "bytes per token"),
        ("989 TFLOPS peak", 989, "TFLOPS"),
        ("a 4 µs pulse", 4, "µs"),
        ("stores 8.64 kWh a day", R(864, 100), "kWh"),
        ("a 3000 mAh cell", 3000, "mAh"),
        ("about 2 kilowatt-hours.", 2, "kilowatt-hours"),
        ("burns 250 kcal", 250, "kcal"),
        ("12 BTU per", 12, "BTU"),
        ("C ≈ 66.6 kb/s here", R(666, 10), "kb/s"),
        ("at 3200 MT/s, the", 3200, "MT/s"),
        ("64 kbits per", 64, "kbits"),
    ],
)
def test_a_unit_after_a_number_is_found_with_its_span(text: str, value: object, unit: str) -> None:
    (quantity,) = find_quantities(text)
    assert quantity.value == value
    assert quantity.unit_text == unit
    assert text[quantity.unit_start : quantity.end] == unit
    assert text[quantity.start : quantity.end].startswith(quantity.number_text)


@pytest.mark.parametrize(
    "text",
    [
        "5 layers",
        "3 heads",
        "2 ways",
        "4 is the answer",
        "slot5 ms",
        "a 7B model",
        "300K tokens",
        "2 elements",
        "4 counts",
        "T = 4096 T",
        "at 3 pm",
        "x^2 m",
        "d_k 64",
        "5 nats",
        "scores [0,ln3]",
        "eats 2000 Calories",
        "5 ah well",
    ],
)
def test_words_that_are_not_units_are_not_taken(text: str) -> None:
    assert find_quantities(text) == []


@pytest.mark.parametrize("unit", ["V/V", "A/A", "W/W", "V per V"])
def test_a_ratio_of_one_unit_reads_as_dimensionless(unit: str) -> None:
    """`G = 11 V/V`, a gain in its table's unit, was read as `11 V`: units that cancel
    are a pure number, not the numerator's unit."""
    (quantity,) = find_quantities(f"the gain is G = 11 {unit}.")
    assert quantity.unit_text == unit
    assert quantity.units.dimension.is_dimensionless and quantity.units.scale == 1
    assert convert(11, quantity.units, "dimensionless") == 11


@pytest.mark.parametrize("text", ["5 elements/elements", "3 T/T"])
def test_a_cancelling_ratio_of_words_prose_keeps_out_is_not_a_unit(text: str) -> None:
    assert find_quantities(text) == []


def test_several_quantities_in_order() -> None:
    text = "A 32 MB buffer is not 32 MiB; 0.0259 V equals 25.9 mV."
    found = find_quantities(text)
    assert [q.unit_text for q in found] == ["MB", "MiB", "V", "mV"]
    quoted, computed, volts, millivolts = found
    assert to_base(quoted.value, quoted.units) != to_base(computed.value, computed.units)
    assert to_base(quoted.value, quoted.units) == 8 * 32 * 10**6
    assert to_base(computed.value, computed.units) == 8 * 32 * 2**20
    assert to_base(volts.value, volts.units) == to_base(millivolts.value, millivolts.units)


def test_conversion_is_exact() -> None:
    assert convert(32, "MB", "B") == 32_000_000
    assert convert(32, "MiB", "B") == 33_554_432
    assert convert(32, "MiB", "bytes") != convert(32, "MB", "bytes")
    assert convert(1, "KiB", "kB") == R(128, 125)
    assert convert(2, "µs", "ns") == 2000
    assert convert(1, "eV", "J") == R("1.602176634e-19")
    assert convert("25.9", "mV", "V") == R(259, 10000)
    assert convert(Fraction(1, 3), "h", "min") == 20
    assert convert(3.35, "TB/s", "GB/s") == 3350
    assert convert(1, "bytes per token", "bit/token") == 8


def test_temperatures_shift_their_zero() -> None:
    assert convert(25, "°C", "K") == R(29815, 100)
    assert convert(300, "K", "°C") == R(2685, 100)
    assert to_base(0, "°C") == R(27315, 100)
    assert convert(212, "°F", "°C") == 100


def test_same_dimension() -> None:
    assert same_dimension("MB", "MiB")
    assert same_dimension("J", "eV")
    assert same_dimension("V", "J/C")
    assert not same_dimension("MB", "s")
    assert same_dimension("FLOP", "tokens")  # both counted: dimension one
    assert not same_dimension("FLOP/s", "B/s")
    assert not same_dimension("score units", "value units")


def test_conversion_errors() -> None:
    with pytest.raises(UnitError, match="cannot convert"):
        convert(1, "MB", "s")
    with pytest.raises(UnitError, match="cannot read"):
        convert(1, "KB", "B")
    with pytest.raises(UnitError, match="gives no unit"):
        to_base(1, "real T × d array")
    with pytest.raises(UnitError, match="not a number"):
        exact("__import__('os')")
    with pytest.raises(UnitError, match="finite"):
        exact(float("inf"))
    with pytest.raises(UnitError):
        exact(sp.Symbol("x"))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.0259", R(259, 10000)),
        ("1,234.5", R(12345, 10)),
        ("−2", -2),
        ("1.5e-3", R(3, 2000)),
        ("2¹⁰", 1024),
        ("10⁻³", R(1, 1000)),
        ("3×10^8", 3 * 10**8),
        ("0.1", R(1, 10)),
    ],
)
def test_numbers_read_exactly(text: str, value: object) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["1e99999", "10^{100000}", "abc", "1.2.3", "0⁻¹", ""])
def test_numbers_out_of_bounds_or_malformed(text: str) -> None:
    assert parse_number(text) is None


def test_float_values_use_their_shortest_decimal() -> None:
    assert exact(0.1) == R(1, 10)
    assert exact(Fraction(2, 3)) == R(2, 3)


@pytest.mark.parametrize(
    ("word", "why"),
    [
        ("mw", "did you mean mW or MW?"),
        ("kwh", "did you mean kWh?"),
        ("KJ", "did you mean kJ or K·J?"),
        ("hz", "did you mean Hz?"),
        ("Nm", "did you mean nm or nM or N·m?"),
        ("KVA", "did you mean kVA?"),  # kVA is apparent power, a unit of its own
        ("mins", "did you mean min·s or min?"),
        ("KB", "ambiguous"),
        ("Kb", "ambiguous"),
        ("MT", "megatransfers"),
        ("psi", "another system"),
        ("therms", "another system"),
    ],
)
def test_a_word_meant_as_a_unit_is_recognised(word: str, why: str) -> None:
    found = unit_attempt(word)
    assert found is not None and why in found


@pytest.mark.parametrize(
    "word",
    # English words, units that read, counts, abstract words, single letters, acronyms
    "and or of is the in at to for so as am an by it on us PM US hm sum Sum gas has "
    "layers heads nats logits elements V mW kWh T h GBW FFT".split(),
)
def test_words_prose_writes_after_numbers_are_not_unit_attempts(word: str) -> None:
    assert unit_attempt(word) is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("uses 10.8 mw.", ("mw", 12)),
        ("is 8.64 kwh, so", ("kwh", 11)),
        ("a 20 °f day", ("°f", 7)),
        ("10.8mw", ("mw", 6)),
        ("6 m and", None),
        ("is 5 or 6", None),
        ("3 of the", None),
        ("5 kv-cache heads", None),
        ("5 Nm-ish", None),
        ("4 t² here", None),
        ("12 Kb/s", ("Kb", 5)),  # a word before `/` was compared bare
        ("3200 MT/ms", ("MT", 7)),
        ("3 and/or 4", None),
    ],
)
def test_an_unread_unit_right_after_a_number(text: str, found: tuple[str, int] | None) -> None:
    end = next(m.end() for m in NUMBER.finditer(text))
    read = unread_unit_after(text, end)
    assert (read[:2] if read else None) == found


def test_a_unit_column_with_alternatives_or_decimal_exponents_reads() -> None:
    """`W/m² or detector counts` leaves the unit open (descriptive, no A421); a fitted law's
    constant `A/(°C^0.44·mil^1.45)` has decimal exponents, which are fractions; `µM` and
    `mM` are concentrations."""
    from atlas_build.units import parse_unit

    open_ = parse_unit("W/m² or detector counts")
    assert getattr(open_, "kind", None) == "abstract"
    fitted = parse_unit("A/(°C^0.44·mil^1.45)")
    assert getattr(fitted, "units", None) is not None
    assert "11/25" in str(fitted.units.dimension)
    for text in ("µM", "mM", "nM"):
        assert str(parse_unit(text).units.dimension) == "mol/m³"
