"""Units library: reading glossary unit text, dimensions and unit expressions."""

from __future__ import annotations

import pytest
import sympy as sp

from atlas_build.units import (
    DIMENSIONLESS,
    Dimension,
    UnitProblem,
    UnitSpec,
    parse_unit,
)
from atlas_build.units.vocabulary import lookup

R = sp.Rational
L, M, TIME, I_ = "[length]", "[mass]", "[time]", "[current]"
TEMP, INFO, FLOP, TOKEN = "[temperature]", "[information]", "[flop]", "[token]"
VOLT = Dimension({M: 1, L: 2, TIME: -3, I_: -1})
JOULE = Dimension({M: 1, L: 2, TIME: -2})


def spec(text: str) -> UnitSpec:
    result = parse_unit(text)
    assert isinstance(result, UnitSpec), f"{text!r}: {result}"
    return result


# (text, dimension, exact scale to the base unit of that dimension, printed form)
UNITS = [
    ("V", VOLT, 1, "V"),
    ("J/K", JOULE / Dimension.base(TEMP), 1, "J/K"),
    ("m²/(V·s)", Dimension({L: 2}) / VOLT / Dimension.base(TIME), 1, "m²/(V·s)"),
    ("cm⁻³", Dimension({L: -3}), 10**6, "1/cm³"),
    ("Ω·m", VOLT / Dimension.base(I_) * Dimension.base(L), 1, "Ω·m"),
    ("eV/K", JOULE / Dimension.base(TEMP), R(1602176634, 10**28), "eV/K"),
    ("F/m²", Dimension({I_: 2, TIME: 4, M: -1, L: -4}), 1, "F/m²"),
    ("nm⁻³", Dimension({L: -3}), 10**27, "1/nm³"),
    ("Ω/square", VOLT / Dimension.base(I_), 1, "Ω"),
    ("B", Dimension.base(INFO), 8, "B"),
    ("bytes", Dimension.base(INFO), 8, "bytes"),
    ("KiB", Dimension.base(INFO), 8192, "KiB"),
    ("MiB", Dimension.base(INFO), 8 * 2**20, "MiB"),
    ("GB/s", Dimension({INFO: 1, TIME: -1}), 8 * 10**9, "GB/s"),
    ("TB/s", Dimension({INFO: 1, TIME: -1}), 8 * 10**12, "TB/s"),
    ("bit", Dimension.base(INFO), 1, "bit"),
    ("bits/s", Dimension({INFO: 1, TIME: -1}), 1, "bits/s"),
    # counted things (FLOPs, tokens) have dimension one, as in SI; bytes keep theirs
    ("FLOP", Dimension({}), 1, "FLOP"),
    ("FLOP/s", Dimension({TIME: -1}), 1, "FLOP/s"),
    ("FLOPs/byte", Dimension({INFO: -1}), R(1, 8), "FLOPs/byte"),
    ("tokens", Dimension({}), 1, "tokens"),
    ("tokens/s", Dimension({TIME: -1}), 1, "tokens/s"),
    ("ns", Dimension.base(TIME), R(1, 10**9), "ns"),
    ("µs", Dimension.base(TIME), R(1, 10**6), "µs"),  # MICRO SIGN
    ("μs", Dimension.base(TIME), R(1, 10**6), "μs"),  # GREEK SMALL LETTER MU
    ("us", Dimension.base(TIME), R(1, 10**6), "us"),
    ("ms", Dimension.base(TIME), R(1, 1000), "ms"),
    ("GHz", Dimension({TIME: -1}), 10**9, "GHz"),
    ("W", Dimension({M: 1, L: 2, TIME: -3}), 1, "W"),
    ("pJ", JOULE, R(1, 10**12), "pJ"),
    ("S/m", Dimension({I_: 2, TIME: 3, M: -1, L: -3}), 1, "S/m"),
    ("A/cm²", Dimension({I_: 1, L: -2}), 10**4, "A/cm²"),
    ("°C", Dimension.base(TEMP), 1, "°C"),
    ("K", Dimension.base(TEMP), 1, "K"),
    ("eV", JOULE, R(1602176634, 10**28), "eV"),
    ("bytes per token", Dimension.base(INFO), 8, "bytes/token"),
    ("1/s", Dimension({TIME: -1}), 1, "1/s"),
    ("s⁻¹", Dimension({TIME: -1}), 1, "1/s"),
    ("TFLOPS", Dimension({TIME: -1}), 10**12, "TFLOP/s"),
    ("kg m/s^2", Dimension({M: 1, L: 1, TIME: -2}), 1, "kg·m/s²"),
    ("J K^-1", JOULE / Dimension.base(TEMP), 1, "J/K"),
    ("J/mol/K", JOULE / Dimension({TEMP: 1, "[substance]": 1}), 1, "J/(mol·K)"),
    ("m²/V·s", Dimension({L: 2}) / VOLT / Dimension.base(TIME), 1, "m²/(V·s)"),
    ("m^(1/2)", Dimension({L: R(1, 2)}), 1, "m^(1/2)"),
    ("kilobytes", Dimension.base(INFO), 8000, "kilobytes"),
    ("nanoseconds", Dimension.base(TIME), R(1, 10**9), "nanoseconds"),
]


@pytest.mark.parametrize(("text", "dimension", "scale", "printed"), UNITS)
def test_unit_strings_lessons_write(
    text: str, dimension: Dimension, scale: object, printed: str
) -> None:
    read = spec(text)
    assert read.kind == ("count" if text in ("FLOP", "tokens") else "unit")
    assert read.dimension == dimension
    assert read.scale == scale
    assert isinstance(read.scale, sp.Rational)  # exact, never a float
    assert read.units is not None and read.units.format() == printed


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("dimensionless", "dimensionless"),
        ("fraction", "dimensionless"),
        ("ratio", "dimensionless"),
        ("count", "count"),
        ("counts", "count"),
        ("elements", "count"),
        ("%", "dimensionless"),
    ],
)
def test_dimensionless_and_count_words(text: str, kind: str) -> None:
    read = spec(text)
    assert read.kind == kind
    assert read.dimension == DIMENSIONLESS


def test_percent_is_a_hundredth() -> None:
    assert spec("%").scale == R(1, 100)


def scale(text: str) -> sp.Expr:
    value = spec(text).scale
    assert value is not None
    return value


def test_prefixes_decimal_and_binary_differ() -> None:
    assert scale("KiB") == 1024 * scale("B")
    assert scale("kB") == 1000 * scale("B")
    assert scale("GiB") / scale("GB") == R(2**30, 10**9)
    assert scale("Gbit") == 10**9
    assert str(spec("Gbps").units) == "Gbit/s"


@pytest.mark.parametrize(
    ("text", "bits_per_second"),
    [("b/s", 1), ("kb/s", 1000), ("Mb/s", 10**6), ("Gb/s", 10**9), ("kbits/s", 1000),
     ("Mbit/s", 10**6), ("Gbps", 10**9), ("kB/s", 8000), ("Mb/sec", 10**6)],
)  # fmt: skip
def test_a_lower_case_b_in_a_rate_is_a_bit(text: str, bits_per_second: int) -> None:
    """`kb/s` did not read (`b` alone is ambiguous), so its number was compared bare."""
    assert spec(text).dimension == Dimension({INFO: 1, TIME: -1})
    assert scale(text) == bits_per_second


@pytest.mark.parametrize(
    ("text", "message"),
    [("Kb/s", "1024"), ("kb", "kbit (kilobit) or kB"), ("Gb", "Gb/s reads as Gbit/s"),
     ("b/s·Hz", "ambiguous"), ("Mb/s²", "ambiguous"), ("J/Mb/s", "ambiguous")],
)  # fmt: skip
def test_a_lower_case_b_outside_a_rate_per_second_stays_ambiguous(text: str, message: str) -> None:
    """Only `<prefix>b` right before a final `/s` is a bit: `b/s·Hz` would divide by the Hz
    too (write bit/(s·Hz)), and `J/Mb/s` is J/(Mb·s) by the grammar's rule."""
    result = parse_unit(text)
    assert isinstance(result, UnitProblem) and message in result.message, result


def test_transfers_per_second_are_a_count_per_second_not_teslas() -> None:
    """`MT/s` (DRAM, PCIe) was megateslas per second."""
    assert spec("MT/s").dimension == Dimension({TIME: -1})
    assert scale("MT/s") == 10**6 and scale("GT/s") == 10**9
    assert str(spec("MT/s").units) == "MT/s"
    assert spec("mT").dimension == spec("T/s").dimension * Dimension({TIME: 1})  # still tesla
    assert spec("megatesla").scale == 10**6
    for text in ("MT", "GT", "kT", "MT/ms"):
        result = parse_unit(text)
        assert isinstance(result, UnitProblem) and "transfers" in result.message, result


@pytest.mark.parametrize(
    ("text", "joules"),
    [
        ("Wh", 3600),
        ("kWh", 3_600_000),
        ("MWh", 3_600_000_000),
        ("mWh", R(18, 5)),
        ("W·h", 3600),
        ("kW·h", 3_600_000),
        ("watt-hours", 3600),
        ("kilowatt-hour", 3_600_000),
        ("cal", R(4184, 1000)),
        ("kcal", 4184),
        ("kilocalories", 4184),
        ("BTU", R(1055056, 1000)),
        ("Btu", R(1055056, 1000)),
    ],
)
def test_energy_units_of_batteries_and_heat(text: str, joules: object) -> None:
    """Watt-hours, calories and BTU read as energies (they were abstract or dropped)."""
    read = spec(text)
    assert read.kind == "unit" and read.dimension == JOULE and read.scale == joules


@pytest.mark.parametrize(
    ("text", "coulombs"),
    [("Ah", 3600), ("mAh", R(18, 5)), ("mA·h", R(18, 5)), ("milliamp-hours", R(18, 5))],
)
def test_ampere_hours_are_charge(text: str, coulombs: object) -> None:
    read = spec(text)
    assert read.dimension == Dimension({I_: 1, TIME: 1}) and read.scale == coulombs


def test_a_food_calorie_is_refused_as_ambiguous() -> None:
    for text in ("Cal", "Calorie", "Calories"):
        problem = parse_unit(text)
        assert isinstance(problem, UnitProblem) and "kcal" in problem.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kwh", "did you mean kWh?"),
        ("Nm", "N·m?"),
        ("psi", "another system"),
        ("ft²", "another system"),  # a sprinkler lesson's area: it was `did you mean fT²?`
    ],
)
def test_a_word_meant_as_a_unit_is_a_problem_not_an_abstract_unit(text: str, message: str) -> None:
    """One plain plural word is a counted noun (`logits`), unless it is a unit the vocabulary
    does not read: as a count `kwh` would be a number that hides the mistake."""
    problem = parse_unit(text)
    assert isinstance(problem, UnitProblem) and message in problem.message
    assert problem.column == 0
    assert spec("logits").kind == "count"


def test_electron_volt_is_exact() -> None:
    assert spec("eV").scale == R("1.602176634e-19")
    assert spec("meV").scale == R("1.602176634e-22")


def test_celsius_carries_its_offset() -> None:
    assert spec("°C").offset == R(27315, 100)
    assert spec("K").offset == 0
    assert spec("°C/W").offset == 0  # an offset unit inside a compound is a difference


@pytest.mark.parametrize(
    ("text", "base", "power", "printed"),
    [
        ("value units", "value", 1, "value units"),
        ("score units", "score", 1, "score units"),
        ("squared score units", "score", 2, "score units²"),
        ("record", "record", 1, "record"),
        ("units of f", "f", 1, "units of f"),
        ("same units as x", "x", 1, "units of x"),
    ],
)
def test_abstract_units_are_named_dimensions_of_the_lesson(
    text: str, base: str, power: int, printed: str
) -> None:
    read = spec(text)
    assert read.kind == "abstract"
    assert read.dimension == Dimension({base: power})
    assert read.dimension is not None and read.dimension.abstract == (base,)
    assert read.units is not None and read.units.format() == printed


def test_abstract_units_never_collide_with_physical_ones() -> None:
    assert spec("length units").dimension != Dimension.base(L)


@pytest.mark.parametrize(
    ("text", "kind", "shape", "remark"),
    [
        ("real T × d array", "unspecified", ("T", "d"), None),
        ("real T\\_q × d\\_k array", "unspecified", ("T_q", "d_k"), None),
        ("real T_k × d_v array", "unspecified", ("T_k", "d_v"), None),
        ("dimensionless T_q × T_k array", "dimensionless", ("T_q", "T_k"), None),
        ("dimensionless d_k-coordinate vectors", "dimensionless", ("d_k",), None),
        ("dimensionless score array", "dimensionless", None, "score"),
        ("dimensionless score", "dimensionless", None, "score"),
        ("V array", "unit", None, None),
    ],
)
def test_shape_notes_are_shapes_not_units(
    text: str, kind: str, shape: tuple[str, ...] | None, remark: str | None
) -> None:
    read = spec(text)
    assert (read.kind, read.shape, read.remark) == (kind, shape, remark)
    if kind == "unspecified":
        assert read.units is None and read.dimension is None
    if kind == "dimensionless":
        assert read.dimension == DIMENSIONLESS


@pytest.mark.parametrize(
    ("text", "unit", "remark"),
    [
        ("nm⁻³ (convert to cm⁻³ if required)", "1/nm³", "convert to cm⁻³ if required"),
        ("V (at 300 K)", "V", "at 300 K"),
        ("dimensionless, between 0 and 1", "dimensionless", "between 0 and 1"),
        ("s; measured", "s", "measured"),
        ("counts (positions)", "dimensionless", "positions"),
        # where each unit applies: the first, and `in` is a preposition, not an inch
        ("mm in A_t; m in the torque relation", "mm", "in A_t; m in the torque relation"),
        ("kg for one cell", "kg", "for one cell"),
        # what each unit counts, as HVAC writes it (a psychrometrics lesson)
        ("kg water/kg dry air", "dimensionless", "kg water/kg dry air"),
        ("kJ/kg dry air", "kJ/kg", "kJ/kg dry air"),
        # and with `per` (an evaporative-cooling lesson read it as kg: a false A420)
        ("kg water per kg dry air", "dimensionless", "kg water per kg dry air"),
        ("kg of water per kg of dry air", "dimensionless", "kg of water per kg of dry air"),
        # a unit symbol, then what it is of (a battery-aging lesson: an A421 at `of`)
        ("% of initial capacity", "%", "of initial capacity"),
        ("V of headroom", "V", "of headroom"),
        # a level's reference (a fan-noise lesson: four A421 at `re`)
        ("dB re 1 pW", "dB", "re 1 pW"),
        ("dB relative to 1 mW", "dB", "relative to 1 mW"),
    ],
)
def test_trailing_remarks_are_kept_apart(text: str, unit: str, remark: str) -> None:
    read = spec(text)
    assert read.units is not None and read.units.format() == unit
    assert read.remark == remark


def test_parentheses_without_a_space_are_part_of_the_unit() -> None:
    read = spec("m²/(V·s)")
    assert read.remark is None


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("KB", "ambiguous", 0),
        ("V/(m", "ends too early", 4),
        ("kg·m/s^^2", "exponent", 7),
        ("m^1000", "too large", 2),
        ("V mw", "did you mean mW or MW?", 2),
        ("V (at 300 K) junk", "unknown unit 'at'", 3),
        ("", "no unit", 0),
        ("V # comment", "unexpected '#'", 2),
    ],
)
def test_unreadable_units_are_problems_with_a_column(text: str, message: str, column: int) -> None:
    result = parse_unit(text)
    assert isinstance(result, UnitProblem), result
    assert message in result.message
    assert result.column == column


def test_hectopascals_are_a_pressure() -> None:
    """`hPa`, meteorology's pressure (a dew-point lesson's e_s), was an A421 asking whether
    h·Pa was meant; `h` alone stays an hour."""
    assert spec("hPa").scale == 100
    assert spec("hPa").dimension == spec("Pa").dimension
    assert spec("h").scale == 3600


def test_a_number_factor_scales_a_glossary_unit() -> None:
    assert spec("3 V").scale == 3
    assert spec("0.5 ms").scale == R(1, 2000)


def test_problem_columns_count_markdown_escapes() -> None:
    text = "\\%/mw"  # the escaped `%` is one character once read
    result = parse_unit(text)
    assert isinstance(result, UnitProblem)
    assert text[result.column :] == "mw"


def test_overlong_and_deep_input_is_refused_not_crashed() -> None:
    assert isinstance(parse_unit("m·" * 300 + "m"), UnitProblem)
    assert isinstance(parse_unit("(" * 20 + "m" + ")" * 20), UnitProblem)
    assert isinstance(parse_unit("m" * 500), UnitProblem)


@pytest.mark.parametrize("word", ["a", "in", "at", "is", "layers", "heads", "mu", "sq2"])
def test_vocabulary_is_closed(word: str) -> None:
    assert lookup(word) is None or word == "sq2"
    assert lookup("sq2") is None


def test_dimension_algebra() -> None:
    length, time = Dimension.base(L), Dimension.base(TIME)
    speed = length / time
    assert speed * time == length
    assert (speed**2) ** R(1, 2) == speed
    assert speed**0 == DIMENSIONLESS
    assert hash(speed) == hash(Dimension({L: 1, TIME: -1}))
    assert {speed: 1}[Dimension({TIME: -1, L: 1})] == 1
    assert speed != length
    assert str(VOLT) == "kg·m²/(s³·A)"
    assert str(Dimension({"score": 2})) == "score²"
    with pytest.raises(AttributeError):
        speed._key = ()
    with pytest.raises(TypeError):
        length ** "2"
    with pytest.raises(TypeError):
        length**0.5


def test_unit_products_cancel_by_unit_not_by_spelling() -> None:
    bytes_ = spec("bytes").units
    byte = spec("B").units
    token = spec("tokens").units
    assert bytes_ is not None and byte is not None and token is not None
    assert (bytes_ / byte).format() == "dimensionless"
    assert (bytes_ / token * token).format() == "bytes"
    joule, electron_volt = spec("J").units, spec("eV").units
    assert joule is not None and electron_volt is not None
    assert (joule / electron_volt).format() == "J/eV"  # same dimension, kept apart
    assert (joule / electron_volt).dimension == DIMENSIONLESS
    assert (joule / electron_volt).scale == 1 / R("1.602176634e-19")


@pytest.mark.parametrize("text", ["nats", "products", "coordinates", "FLOPs", "tokens"])
def test_counted_and_logarithmic_units_have_dimension_one(text: str) -> None:
    """Entropy in nats is a pure number (H = -Σ p ln p); counted things are too, as in SI."""
    read = spec(text)
    assert read.kind == "count" and read.dimension == Dimension({})


@pytest.mark.parametrize(
    ("text", "scale"), [("V/√Hz", 1), ("nV/√Hz", R(1, 10**9)), ("pA/√(Hz)", R(1, 10**12))]
)
def test_a_root_hertz_is_a_noise_density(text: str, scale: object) -> None:
    """`nV/√Hz` is a noise density: a volt (or ampere) per square root of a hertz."""
    read = spec(text)
    root = Dimension({TIME: R(1, 2)})
    assert read.kind == "unit" and read.scale == scale
    assert read.dimension in (VOLT * root, Dimension({I_: 1}) * root)


def test_a_currency_sign_is_its_currency() -> None:
    """`€`, `€/kWh` and `EUR` read as one currency, so a cost in € is a price in €/kWh
    times an energy in kWh (`€` was a false A421)."""
    euro, price, energy = (parse_unit(t).units for t in ("€", "€/kWh", "kWh"))
    assert euro.dimension == parse_unit("EUR").units.dimension == (price * energy).dimension
    assert parse_unit("$/kWh").units.dimension != (price).dimension  # dollars are not euros


def test_a_decade_in_a_unit_column_is_the_decade_of_a_swing() -> None:
    """`mV/decade` is the `mV/dec` of a subthreshold swing (it was refused as ten years)."""
    assert parse_unit("mV/decade").units.dimension == parse_unit("mV/dec").units.dimension
    assert parse_unit("V/decades").units == parse_unit("V/dec").units


def test_a_vulgar_fraction_is_an_exponent() -> None:
    """`V^½`, the unit of a body-effect coefficient γ (a false A421)."""
    assert parse_unit("V^½").units == parse_unit("V^(1/2)").units


def test_a_phrase_the_remark_calls_dimensionless_is_dimensionless() -> None:
    """`misses per L2 access (dimensionless)` (a cache lesson): the phrase did not read
    (`L2`) and was an A421; the remark says what it is. A unit that reads keeps its unit."""
    from atlas_build.units import parse_unit

    read = parse_unit("misses per L2 access (dimensionless)")
    assert read.kind == "dimensionless" and read.remark == "misses per L2 access"
    assert str(parse_unit("V (dimensionless)").units) == "V"
    assert parse_unit("misses per L2 access").__class__.__name__ == "UnitProblem"


@pytest.mark.parametrize(
    ("text", "unit", "remark"),
    [("32-bit words", "words", "32-bit"), ("64-byte lines", "lines", "64-byte")],
)
def test_a_width_before_a_counted_noun_is_a_remark(text: str, unit: str, remark: str) -> None:
    """`32-bit words` (a GPU shared-memory lesson) was an A421, `unexpected '-'`."""
    read = spec(text)
    assert read.units is not None and read.units.format() == unit
    assert read.remark == remark


@pytest.mark.parametrize("text", ["ps/in", "in/ns"])
def test_in_within_a_compound_is_the_inch_outside_the_vocabulary(text: str) -> None:
    """`ps/in` (a PCB lesson) was an A421, `unknown unit 'in'`: the inch is a real unit the
    vocabulary does not hold (an A426, info), as `ft` and `psi` are; `in` alone after a
    unit stays a preposition (`mm in A_t`)."""
    from atlas_build.units import nouns

    read = parse_unit(text)
    assert isinstance(read, UnitProblem) and nouns.outside(read.message)


def test_a_phrase_with_a_named_field_describes_a_value() -> None:
    """`GF(2) polynomial of degree below n` (a CRC lesson's unit column) was an A421 at
    `(`: it describes what the symbol is, as `positive integer count` does."""
    read = spec("GF(2) polynomial of degree below n")
    assert read.kind == "abstract"


def test_a_unit_labelled_with_what_it_counts_is_that_unit() -> None:
    """`kg air per kg fuel` (a boiler lesson's stoichiometric air-fuel ratio) is kg/kg: it
    read as kg, the rest a remark, and `1 + λ·AFR_st` failed as kg plus a number (a false
    A420). `kg fuel per kWh` had read as kg too. `% by volume` is a percent (it was an A421
    at `by`); two unit words stay a rate of units (`m per s`)."""
    assert spec("kg air per kg fuel").dimension == DIMENSIONLESS
    assert spec("kg of air per kg of fuel").dimension == DIMENSIONLESS
    fuel = spec("kg fuel per kWh")
    assert fuel.units is not None and fuel.units.format() == "kg/kWh"
    volume = spec("% by volume")
    assert volume.units is not None and volume.units.format() == "%"
    rate = spec("m per s")
    assert rate.units is not None and rate.units.format() == "m/s"
