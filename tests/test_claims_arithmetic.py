"""claims.prose.arithmetic: worked arithmetic in prose is wrong only when atlas-build is certain.

Each class of false A408 seen on lessons nobody here wrote (issue "Never cry wolf") has a
correct statement that must hold and the same statement with its result edited, which
must still be wrong; shapes whose units are not written are not reported when some
unwritten unit makes them right."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sympy

from atlas_build.claims.prose import numbers
from atlas_build.claims.prose.arithmetic import approximate_values, judge, judge_step

BLIND = Path(__file__).resolve().parent / "blind"


def _one(text: str) -> numbers.Arithmetic:
    found = [item for item in numbers.extract(text) if isinstance(item, numbers.Arithmetic)]
    assert len(found) == 1, (text, found)
    return found[0]


def _status(text: str) -> str:
    """The judgement of the one working `text` holds, with the values it hedges elsewhere."""
    rounded = approximate_values(numbers.extract(text), text)
    return judge(_one(text), rounded).status


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        # percent results of bare working
        ("so 12/16 = 75% of the rows", "so 12/16 = 76% of the rows"),
        ("the share is 0.02/0.95 ≈ 2.11% here", "the share is 0.02/0.95 ≈ 2.21% here"),
        ("it is 100 × 12/16 = 75% in all", "it is 100 × 12/16 = 77% in all"),
        # ASCII powers with a parenthesised exponent, and functions of a parenthesis
        ("a gain of 10^(1/4) = 1.778279 per stage", "a gain of 10^(1/4) = 1.778289 per stage"),
        ("R = e^(−8760/100000) ≈ 0.9161 for a year", "R = e^(−8760/100000) ≈ 0.9171 for a year"),
        ("the loss is −ln(0.880797) = 0.126928", "the loss is −ln(0.880797) = 0.126938"),
        # half a unit in the last written digit, exact or not
        ("so 1−0.75^5 = 0.762695 of them", "so 1−0.75^5 = 0.762697 of them"),
        ("then e²/(e²+1) = 0.880797 here", "then e²/(e²+1) = 0.880707 here"),
        # operands that are rounded values themselves: hedged elsewhere, or of 4+ digits
        (
            "each fails with p ≈ 0.0344, giving 1 − 0.0344² ≈ 0.99881 overall",
            "each fails with p ≈ 0.0344, giving 1 − 0.0344² ≈ 0.99871 overall",
        ),
        ("F = 1.585 + (10 − 1)/31.62 ≈ 1.869", "F = 1.585 + (10 − 1)/31.62 ≈ 1.879"),
        # a result in percentage points of bare working (a battery's state of charge)
        ("which is 5.0/14 ≈ 35.7 percentage points", "which is 5.0/14 ≈ 36.7 percentage points"),
        (
            "and the display drops 2.16/14 ≈ 15.4 points",
            "and the display drops 2.16/14 ≈ 16.4 points",
        ),
        # a bare result counted in millions, written as a letter (a mixture of experts)
        (
            "each holds 3 × 4096 × 14336 ≈ 176.2 M weights",
            "each holds 3 × 4096 × 14336 ≈ 177.2 M weights",
        ),
        # a bare result counted in millions (a bearing's life in millions of revolutions)
        ("so L = 13³ = 2197 million revolutions", "so L = 13³ = 2198 million revolutions"),
        ("that is 13^(10/3) ≈ 5170 million revs", "that is 13^(10/3) ≈ 5180 million revs"),
        # a hedged count may be rounded down
        ("about 314.2 − 44.4 ≈ 269 dies", "about 314.2 − 44.4 ≈ 267 dies"),
        # bare numbers whose units the sentence gives before
        (
            "ΔI ≈ (5 − 2) × 0.4/(2 μH × 500 kHz) ≈ 1.2 A",
            "ΔI ≈ (5 − 2) × 0.4/(2 μH × 500 kHz) ≈ 1.5 A",
        ),
        ("the wait is 0.75/10 = 75 ms", "the wait is 0.75/10 = 78 ms"),
        ("a drop of 120 × 164 µΩ ≈ 19.7 mV", "a drop of 120 × 164 µΩ ≈ 18.7 mV"),
        (
            "the peak is 5600 × 10⁶ × 8 bytes = 44.8 GB/s",
            "the peak is 5600 × 10⁶ × 8 bytes = 42.8 GB/s",
        ),
        # π, and the arithmetic a chain of examples writes
        ("an area of π × 300² / 400 ≈ 706.9", "an area of π × 300² / 400 ≈ 716.9"),
        (
            "the ideal speedup is 1/(0.2 + 0.8/4) = 2.5×",
            "the ideal speedup is 1/(0.2 + 0.8/4) = 2.6×",
        ),
        ("and 12²/24² = 0.25 of the work", "and 12²/24² = 0.35 of the work"),
        ("with 0.02×2×(1/4+1/4) = 0.02 left", "with 0.02×2×(1/4+1/4) = 0.03 left"),
        # every unit written: dimensions and value
        ("so 3 m/s × 2 s = 6 m", "so 3 m/s × 2 s = 7 m"),
        # a unit after a bracket of bare numbers is theirs (a DAC's slew time, batch 52)
        ("takes (5 − 0.5) V / 10 V/µs = 450 ns", "takes (5 − 0.5) V / 10 V/µs = 460 ns"),
        # two-digit operands are taken as written (1.7 V×0.4 A: 0.685 W exactly)
        ("is 1.7 V×0.4 A + 5.0 V×1 mA = 0.685 W", "is 1.7 V×0.4 A + 5.0 V×1 mA = 0.686 W"),
        # a measured whole number is not a count that may be rounded either way
        ("reaches about 50 + 60×0.785 ≈ 97 °C", "reaches about 50 + 60×0.785 ≈ 98 °C"),
        ("so 6 m/2 = 3 m", "so 6 m/3 = 3 m"),
        # working after a hedge that relates a symbol to it (it was read as `≈ 1.322`)
        ("so g_m ≈ 1.322/25.85 ≈ 51.1 mS and", "so g_m ≈ 1.322/25.85 ≈ 61.1 mS and"),
        ("the SQNR ≈ 6.02 × 12 + 1.76 ≈ 74.0 dB", "the SQNR ≈ 6.02 × 12 + 1.76 ≈ 75.0 dB"),
        (
            "shrinks at ≈ 3×10⁻⁴ × 10⁻⁴ / 0.01 = 3×10⁻⁶ per",
            "shrinks at ≈ 3×10⁻⁴ × 10⁻⁴ / 0.02 = 3×10⁻⁶ per",
        ),
        # a vulgar fraction opens the working; tanh of a number
        (
            "it stores ½ × 3.125 × 628.3² ≈ 617 kJ, about",
            "it stores ½ × 3.125 × 628.3² ≈ 627 kJ, about",
        ),
        ("so η_f = tanh(1.0)/1.0 ≈ 0.762 here", "so η_f = tanh(1.0)/1.0 ≈ 0.772 here"),
        # entropies: a decimal times a logarithm of a bare number, in a written base
        (
            "H = −0.7 log₂ 0.7 − 0.3 log₂ 0.3 ≈ 0.881 bits",
            "H = −0.7 log₂ 0.7 − 0.3 log₂ 0.3 ≈ 0.871 bits",
        ),
        (
            "an entropy −(0.925 ln 0.925 + 3 × 0.025 ln 0.025) ≈ 0.349 nats",
            "an entropy −(0.925 ln 0.925 + 3 × 0.025 ln 0.025) ≈ 0.359 nats",
        ),
        # a factor glued to a parenthesis or a root multiplies it
        (
            "resonates at 1/(2π√(0.5×10⁻⁹ × 100×10⁻⁹)) ≈ 22.5 MHz",
            "resonates at 1/(2π√(0.5×10⁻⁹ × 100×10⁻⁹)) ≈ 23.5 MHz",
        ),
        ("the chance is e⁻⁴(1 + 4 + 8) ≈ 23.8% here", "the chance is e⁻⁴(1 + 4 + 8) ≈ 25.8% here"),
        # a count rounded down or up
        ("allows only ⌊228/49⌋ = 4 blocks", "allows only ⌊228/49⌋ = 5 blocks"),
        (
            "the object is ⌈1,000,000/1460⌉ = 685 segments",
            "the object is ⌈1,000,000/1460⌉ = 684 segments",
        ),
    ],
)
def test_a_correct_statement_holds_and_its_edit_is_wrong(right: str, wrong: str) -> None:
    assert _status(right) == "verified"
    assert _status(wrong) == "wrong"


@pytest.mark.parametrize(
    "text",
    [
        "√(5.0×10⁻¹³) ≈ 7 nm",  # the operand is in cm²: right in a unit not written
        "so 6 cm² × 0.1 = 0.6 defects",  # D₀ in defects/cm², not written
    ],
)
def test_working_whose_units_are_not_written_is_not_reported(text: str) -> None:
    assert _status(text) in ("verified", "unclear")


def test_a_result_in_years_is_not_judged() -> None:
    """`2³² s ≈ 136 years`: years are a unit of tables, not of prose, so the result was a
    bare 136 against seconds (a false A408 in an NTP lesson); it is not judged."""
    text = "one era spans 2³² s ≈ 136 years, so era 0 ends in 2036"
    assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]


def test_a_result_whose_unit_goes_on_in_words_is_not_judged() -> None:
    """`0.137 kWh per cubic metre`: the unit read (kWh) is not all of the result's, so its
    dimension disagreeing with the working's (kW·h/m³) is no error."""
    text = "the installation uses ≈ 7.41 kW / 54 m³/h ≈ 0.137 kWh per cubic metre lifted"
    assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]


@pytest.mark.parametrize(
    "text",
    [
        "a 20 MHz × 6.67 ≈ 133 Mb/s stream",  # 6.67 is in b/s/Hz
        "1/(0.1 × 100 µA) = 100 kΩ",  # 0.1 is in 1/V
        "then 0.5 × 200 µA/V² × 20 × 0.2² = 80 µA",  # 0.2 is in V
    ],
)
def test_bare_factors_that_complete_the_units_are_checked_in_base_units(text: str) -> None:
    assert _status(text) == "verified"


@pytest.mark.parametrize(
    "text",
    [
        "the die holds π × 300² / 400 ≈ 706.9 mm² with x × 2 = 5",
        "so 10^(1/4) = 1.778279",
    ],
)
def test_partial_reads_are_not_judged(text: str) -> None:
    """What the parser reads must be the whole working: `x × 2 = 5` continues left."""
    for item in numbers.extract(text):
        if isinstance(item, numbers.Arithmetic):
            assert not item.working.startswith("2"), item.working
    assert numbers._partial("T − 0.5 × 2 = 4", 4, 0)
    assert not numbers._partial("the derivative is −0.75 × 2 = −1.5", 18, 0)
    assert numbers._partial("peak of π × 300²/400", 12, 0)
    assert numbers._partial("R = e^(0.5) = 1.6", 7, 0)
    assert numbers._partial("the error is 1 − cos 10° ≈ 1.5%", 21, 0)  # cos's argument


def test_a_level_in_db_of_bare_working_is_its_power_or_amplitude_level() -> None:
    assert _status("the limit is ln 2 ≈ −1.59 dB") == "verified"
    assert _status("a gain of 2 × 50 ≈ 40 dB") == "verified"
    assert _status("a gain of 2 × 50 ≈ 41 dB") == "wrong"  # neither 20 dB nor 40 dB nor 100


def test_all_dimensions_written_and_disagreeing_is_wrong() -> None:
    verdict = judge(_one("so 3 m/s × 2 s = 6 m²"))
    assert verdict.status == "wrong" and "m²" in verdict.message


def test_an_unmarked_log_may_be_common_or_natural() -> None:
    assert _status("so log(1000) = 3 decades") == "verified"
    assert _status("so log(2.718281828) ≈ 1.0000") == "verified"
    assert _status("so log(1000) = 4 decades") == "wrong"


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        # a coefficient before a logarithm multiplies it (it was left out: 2 log₁₀(100) = 4
        # read as log₁₀(100) = 4, a false error)
        ("so 2 log₁₀(100) = 4 here", "so 2 log₁₀(100) = 5 here"),
        ("Return loss is −20 log10(0.2) ≈ 14.0 dB", "Return loss is −20 log10(0.2) ≈ 15.0 dB"),
        ("a loss of −10 log10(0.96) ≈ 0.18 dB", "a loss of −10 log10(0.96) ≈ 0.28 dB"),
        ("so x = 10 ln(2) = 6.93 s", "so x = 10 ln(2) = 6.83 s"),
        ("and log2(8) = 3 here", "and log2(8) = 4 here"),
    ],
)
def test_a_coefficient_times_a_logarithm(right: str, wrong: str) -> None:
    assert (_status(right), _status(wrong)) == ("verified", "wrong")


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        # a dB result of bare working: the number itself, or the power or amplitude level
        # of a ratio; when none of the three agrees the statement is wrong
        ("Fiber loss is 0.35 × 20 = 7.0 dB; so", "Fiber loss is 0.35 × 20 = 7.1 dB; so"),
        ("a margin of −12 − (−18) = 6.0 dB here", "a margin of −12 − (−18) = 6.1 dB here"),
        ("the gain 2 × 5 = 10 dB here", "the gain 2 × 5 = 11 dB here"),
        # a level against a reference (dBm) of a negative number cannot be a level
        ("power is −3 − 9.0 = −12.0 dBm, ok", "power is −3 − 9.0 = −12.1 dBm, ok"),
    ],
)
def test_a_decibel_result_none_of_whose_readings_agrees_is_wrong(right: str, wrong: str) -> None:
    assert (_status(right), _status(wrong)) == ("verified", "wrong")


def test_a_level_against_a_reference_is_not_guessed() -> None:
    assert _status("so ln 2 ≈ −1.59 dB here") == "verified"  # the power level of ln 2
    assert _status("so 0.1 × 10 = 30 dBm") == "unclear"  # 1 W is 30 dBm: the unit is unsaid


def test_log10_with_its_argument_is_no_natural_log_of_ten() -> None:
    """`log10(0.343)` is the common logarithm of 0.343, not ln(10) times (0.343)."""
    assert _one("RL = −20 log10(0.343) ≈ 9.3 dB").operands[-1].value == sympy.Rational(343, 1000)
    assert _status("so 2 ln 3 = 2.197 and more") == "verified"


def _blind(tmp_path: Path, slug: str) -> tuple[Path, dict[str, object]]:
    folder = tmp_path / "content" / slug
    shutil.copytree(BLIND / slug, folder)
    path = folder / "record.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


def _edit(record: dict[str, object], old: str, new: str) -> None:
    from atlas_build.canonical import canonicalize, sections
    from atlas_build.recordhash import content_hash

    content = str(record["content"])
    assert content.count(old) == 1, old
    record["content"] = content.replace(old, new)
    canonical = canonicalize(str(record["content"]))
    record["contentHash"] = content_hash(canonical)
    record["contentLength"] = len(canonical)
    record["sections"] = [span.to_json() for span in sections(canonical)]


@pytest.mark.parametrize(
    ("slug", "old", "new"),
    [
        ("mm1-queue", "0.75/10 = 75 ms", "0.75/10 = 73 ms"),
        ("cache-amat", "0.05 × 0.2 = 1%", "0.05 × 0.2 = 2%"),
        ("dies-per-wafer", "11.9 × 7.9 / 96 ≈ 97.9%", "11.9 × 7.9 / 96 ≈ 96.9%"),
    ],
)
def test_a_blind_lesson_passes_and_its_edited_number_fails_there(
    tmp_path: Path, diagnose, slug: str, old: str, new: str
) -> None:
    path, record = _blind(tmp_path, slug)
    found = diagnose(path)
    assert [d for d in found if d.code == "A408"] == []
    _edit(record, old, new)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
    wrong = [d for d in diagnose(path) if d.code == "A408"]
    assert len(wrong) == 1, wrong
    content = str(record["content"])
    result = new.rsplit(" ", 2 if new.endswith("ms") else 1)[-2 if new.endswith("ms") else -1]
    offset = content.index(new) + new.rindex(result)
    line = content.count("\n", 0, offset) + 1
    assert wrong[0].content_line == line


def _steps(text: str) -> list[tuple[str, str]]:
    from atlas_build.claims.prose.arithmetic import judge_step

    found = numbers.steps(text, numbers.extract(text))
    return [(step.right.text.lstrip("≈ "), judge_step(step).status) for step in found]


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        (
            "the ripple is (12 − 3.3) × 0.275/(4.7×10⁻⁶ × 5×10⁵) = 2.3925/2.35 ≈ 1.02 A",
            "the ripple is (12 − 3.4) × 0.275/(4.7×10⁻⁶ × 5×10⁵) = 2.3925/2.35 ≈ 1.02 A",
        ),
        (
            "the tail is ln(100)/25 ≈ 0.184 s ≈ 184 ms here",
            "the tail is ln(100)/25 ≈ 0.184 s ≈ 185 ms here",
        ),
        ("a flow of 1.5 L/min = 0.025 L/s in all", "a flow of 1.5 L/min = 0.035 L/s in all"),
        (  # a partial result in scientific notation is rounded like any other (a gear lesson)
            "so (1.2×10⁻⁴ + 0.15/(0.9409 × 400)) × 3142 ≈ (1.2×10⁻⁴ + 3.99×10⁻⁴) × 3142 ≈ 1.63",
            "so (1.2×10⁻⁴ + 0.15/(0.9409 × 400)) × 3142 ≈ (1.2×10⁻⁴ + 4.09×10⁻⁴) × 3142 ≈ 1.63",
        ),
    ],
)
def test_links_of_a_chain_are_checked(right: str, wrong: str) -> None:
    """`a = b ≈ c` where `b` is working or the same number in another unit: the link
    `a = b` is checked too, not only the last one."""
    assert [status for _, status in _steps(right)] == ["verified"]
    assert [status for _, status in _steps(wrong)] == ["wrong"]


def test_a_conversion_is_not_read_out_of_a_product() -> None:
    """`0.38 × 1 ns = 380 ps` is working, not `1 ns = 380 ps`."""
    assert _steps("its delay ≈ 0.38 × 1 ns = 380 ps, and so on") == []


def test_a_longer_conversion_may_come_from_an_unrounded_value() -> None:
    assert [s for _, s in _steps("the flow 0.0249 kg/s ≈ 24.93 g/s")] == ["verified"]


def test_a_round_value_hedged_elsewhere_does_not_make_every_operand_rounded() -> None:
    """`about 1` somewhere said nothing of the 1 in `(1 + 10⁴)`: 1.0002 MHz passed."""
    text = "a gain of about 1 at first. So 100 Hz × (1 + 10⁴) ≈ {} MHz in all."
    assert _status(text.format("1.0001")) == "verified"
    assert _status(text.format("1.0002")) == "wrong"
    hedged = "The die dissipates about 116 W. So 40/116 ≈ 0.345 K/W in all."
    assert _status(hedged) == "verified"  # 116 may be 115.9: a distinctive hedged value


def test_a_squared_integer_hedged_elsewhere_is_a_rounded_value() -> None:
    """`a probe of about 233 ps` (233.3), then `√(350² + 233²) ≈ 421 ps` (420.6): two
    false A408 in a rise-time lesson. A typo beyond 233's rounding is still wrong."""
    text = "The probe has about 233 ps. Together √(350² + 233²) ≈ {} ps in all."
    assert _status(text.format("421")) == "verified"
    assert _status(text.format("423")) == "wrong"
    assert _status("Together √(350² + 233²) ≈ 421 ps in all.") == "wrong"  # 233 as written


def test_an_integer_the_working_amplifies_may_be_rounded() -> None:
    """`325 V peak` is 230√2 = 325.3, and `(325/430)^22` multiplies its rounding 22-fold:
    `≈ 2.2 µA` (2.15 from 325.3) was a false A408 in a varistor lesson. A typo far beyond
    that is still wrong, and an integer the working does not amplify is as written."""
    text = "the leakage is 1 mA × (325/430)^22 ≈ {} µA at the peak"
    assert _status(text.format("2.2")) == "verified"
    assert _status(text.format("2.6")) == "wrong"
    assert _status("the cost is 325 × 2 ≈ 652 V here") == "wrong"


def test_working_the_prose_writes_in_its_own_conventions() -> None:
    """Three false A408 in blind lessons: bare working converted to a unit the vocabulary
    does not read (`≈ 141 CFM`, from m³/s), a byte count times its 8 bits (`65,535 bytes ×
    8 / 0.1 s ≈ 5.24 Mb/s`), and a product of symbols before a function (`kT ln 10 ≈ 59
    meV`: the working is kT ln 10, not ln 10). Wrong bits, and a bare count a slip off
    (0.0663 written 0.0700), still are."""
    assert _status("rises to 800/(1.2 × 1005 × 10) ≈ 141 CFM, exactly") == "unclear"
    assert _status("rises to 800/(1.2 × 1005 × 10) ≈ 0.0700 servers, exactly") == "wrong"
    assert _status("so 65,535 bytes × 8 / 0.1 s ≈ 5.24 Mb/s, whatever") == "verified"
    assert _status("so 65,535 bytes × 8 / 0.1 s ≈ 6.24 Mb/s, whatever") == "wrong"
    assert not [
        i
        for i in numbers.extract("lowering φ_B by kT ln 10 ≈ 59 meV cuts V_F")
        if isinstance(i, numbers.Arithmetic)
    ]


def test_a_number_before_a_root_multiplies_it() -> None:
    """`d_h ≈ 4.12 √16 = 4.12 × 4 ≈ 16.5 km` (a radio-horizon lesson's false A408): the
    working is 4.12 √16, so `√16 = 4.12 × 4` is no link; the last working still holds."""
    text = "so d_h ≈ 4.12 √16 = 4.12 × 4 ≈ {} km here"

    def verdicts(result: str) -> list[str]:
        found = numbers.extract(text.format(result))
        worked = [item for item in found if isinstance(item, numbers.Arithmetic)]
        steps = numbers.steps(text.format(result), found)
        return [judge(item).status for item in worked] + [judge_step(step).status for step in steps]

    assert "wrong" not in verdicts("16.5") and "verified" in verdicts("16.5")
    assert "wrong" in verdicts("17.5")


def test_a_wrong_result_in_another_unit_is_shown_in_that_unit() -> None:
    verdict = judge(_one("the limit is 5×10⁶/(2π × 4) ≈ 198 kHz here"))
    assert verdict.status == "wrong" and "198.944 kHz" in verdict.message


def test_a_result_in_a_concentration_or_an_unread_unit() -> None:
    """`0.620/6220 ≈ 99.7 µM`: micromolar reads, and the bare working is in mol/L (right in
    a unit not written); a result whose unit does not read (`3 mw`) is not judged as a bare
    number."""
    assert _status("the concentration is 0.620/6220 ≈ 99.7 µM and") in ("verified", "unclear")
    assert _status("the concentration is 0.620/6220 ≈ 89.7 µM and") == "wrong"
    text = "the rate is 3/1000 = 3 mw here"
    assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]


def test_a_noun_after_a_bare_result_may_carry_the_left_sides_unit() -> None:
    """`7,000 MB/s ÷ 131,072 B ≈ 53,400 IOPS`: IOPS is operations per second, which the
    vocabulary does not read, so the bare result was a false A408 (its left side is a
    rate). A noun after it takes the left side's unit: the right number is verified in base
    units, another is unclear, never wrong; with no noun the dimensions still disagree."""
    assert _status("so 7,000 MB/s ÷ 131,072 B ≈ 53,400 IOPS at most") == "verified"
    assert _status("so 7,000 MB/s ÷ 131,072 B ≈ 63,400 IOPS at most") == "unclear"
    assert _status("so 7,000 MB/s ÷ 131,072 B ≈ 53,400, at most") == "wrong"


def test_a_symbol_before_a_function_is_part_of_the_working() -> None:
    """`τ ln 2 = 26.7 × 0.693 ≈ 18.5 min`: the working is τ ln 2, so `ln 2 = 26.7 × 0.693`
    is no link (a false A408 in a charging lesson); the numbers' own working still holds.
    `τ ln 9 ≈ 2.2τ` is ln 9 ≈ 2.2 (τ on both sides), and `adds ln 2 = 0.693` a word's."""
    text = "halving it adds τ ln 2 = 26.7 × 0.693 ≈ 18.5 min to the taper"
    assert [i.text for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)] == [
        "26.7 × 0.693 ≈ 18.5 min"
    ]
    assert _steps(text) == []
    assert _status("which works out to τ ln 9 ≈ 2.2τ in all") == "verified"
    assert _status("which works out to τ ln 9 ≈ 2.4τ in all") == "wrong"
    assert _status("it adds ln 2 = 0.693 nats") == "verified"


def test_a_base_written_before_a_spaced_argument_is_the_logarithms() -> None:
    """`20 log10 255 ≈ 48.1` is 20·log₁₀(255): the `10 255` after `log` was read as the
    grouped number 10255 (a false A408 in a quantization lesson). `log2 1024 = 10` too."""
    assert _status("a range of 20 log10 255 ≈ 48.1 dB in all") == "verified"
    assert _status("a range of 20 log10 255 ≈ 58.1 dB in all") == "wrong"
    assert _status("so log2 1024 = 10 bits") == "verified"


def test_a_raised_number_after_the_relation_sign_is_working_not_a_result() -> None:
    """`8/2^((100 − 90)/5) = 8/2² = 2 h`: `8/2` is not the result of the first working (it
    is raised), so that was a false A408 in a noise-dose lesson; the link and the last
    working are checked."""
    text = "OSHA allows 8/2^((100 − 90)/5) = 8/2² = 2 h at that level"
    worked = [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]
    assert [i.text.strip() for i in worked] == ["8/2² = 2"]
    assert _steps(text) == [("8/2²", "verified")]


def test_a_function_of_a_rounded_argument_is_a_rounded_restatement() -> None:
    """`e^(0.3π) = e^0.942 ≈ 2.57`: 0.942 is 0.3π rounded, so e^0.942 is no result of the
    first working (two false A408 in a belt-drive lesson); the link holds within what the
    argument's last digit moves e^x, and the last working is checked."""
    text = "the ratio is e^(0.3π) = e^0.942 ≈ 2.57 at low speed"
    worked = [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]
    assert [i.text.strip() for i in worked] == ["e^0.942 ≈ 2.57"]
    assert _steps(text) == [("e^0.942", "verified")]
    assert _steps("the ratio is e^(0.3π) = e^0.952 ≈ 2.59 at low speed") == [("e^0.952", "wrong")]


def test_a_divisor_that_converts_a_unit_is_no_dimension_error() -> None:
    """`1.2 L/min × 0.997 kg/L ÷ 60 s ≈ 0.0199 kg/s` (a cold-plate lesson): 60 s stands for
    60 s/min, so the left side is per minute once too often, and the dimensions disagree
    only by that. It was a false A408; read as the conversion the number holds, which is no
    proof (unclear). A wrong number, or 50 s, which converts nothing, is still wrong."""
    assert _status("The mass flow is 1.2 L/min × 0.997 kg/L ÷ 60 s ≈ 0.0199 kg/s.") == "unclear"
    assert _status("The mass flow is 1.2 L/min × 0.997 kg/L ÷ 60 s ≈ 0.0299 kg/s.") == "wrong"
    assert _status("The mass flow is 1.2 L/min × 0.997 kg/L ÷ 50 s ≈ 0.0239 kg/s.") == "wrong"


def test_bare_working_that_is_a_fraction_of_an_earlier_quantity_is_not_wrong(authored) -> None:
    """`V_route ≈ 134.2 MB … V_out = 15/16 of that ≈ 125.8 MB and V_inter = 8/16 ≈ 67.1 MB`
    (a mixture-of-experts lesson): 8/16 is half of the 134.2 MB, its `of that` left out, and
    was a false A408. A fraction of no earlier quantity is still wrong."""
    body = (
        "## Engineering example\n\nEach GPU routes 8192 × 2 × 4096 × 2 = 134,217,728 bytes "
        "≈ 134.2 MB. For P = 16 over two nodes, 15/16 of that ≈ 125.8 MB leaves the GPU and "
        "8/16 ≈ {} MB leaves the node.\n"
    )
    assert "A408" not in [d.code for d in authored(body.format("67.1")).diagnostics]
    assert "A408" in [d.code for d in authored(body.format("77.1"), slug="b").diagnostics]


def test_a_bare_term_added_to_one_in_a_unit_is_not_judged() -> None:
    """`(0.8/400) × (0.4 × 0.03 − 0.8 × 2.77 ms) ≈ 19.6 µJ` (a relay-coil lesson): 0.4 ×
    0.03 is in V·s, which the text does not write, and the difference was taken in ms, a
    false A408. A sum of a bare term and one in a unit cannot be told; every term in a
    unit still is."""
    coil = "the clamp takes Ec = (0.8/400) × (0.4 × 0.03 − 0.8 × 2.77 ms) ≈ {} µJ here"
    assert _status(coil.format("19.6")) == "unclear"
    assert _status("the wait is 2 × (3 ms + 4 ms) = 14 ms here") == "verified"
    assert _status("the wait is 2 × (3 ms + 4 ms) = 15 ms here") == "wrong"


def test_a_conversion_of_a_rounded_value_allows_for_its_rounding() -> None:
    """`98,800 × 400/(79,300 × 38,350) ≈ 0.0130 rad ≈ 0.744°` (a torsion lesson): the
    author converted 0.012995 rad, which 0.0130 rounds, and the link was a false A408.
    A conversion outside what the rounding allows is still wrong."""
    from atlas_build.claims.prose.arithmetic import judge_step

    text = "so θ = 98,800 × 400/(79,300 × 38,350) ≈ 0.0130 rad ≈ {}° of twist"
    for stated, status in (("0.744", "verified"), ("0.754", "wrong")):
        items = numbers.extract(text.format(stated))
        rounded = approximate_values(items, text)
        found = numbers.steps(text.format(stated), items)
        assert [judge_step(step, rounded).status for step in found] == [status]


def test_a_sum_written_with_an_ellipsis_is_not_judged_from_its_last_terms() -> None:
    """`H₁₀ = 1 + 1/2 + … + 1/10 ≈ 2.93` (a consistent-hashing lesson) was read as `1/10 ≈
    2.93`, a false A408: the ellipsis stands for terms the working does not write."""
    for ellipsis in ("…", "...", "⋯"):
        text = f"the largest arc averages H = 1 + 1/2 + {ellipsis} + 1/10 ≈ 2.93 times the mean"
        assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]
    assert _status("so 1 + 1/10 ≈ 1.1 in all") == "verified"


def test_a_number_times_pi_after_the_relation_is_working_not_a_result() -> None:
    """`λ = 2π × 10,000^(64/128) = 2π × 100 ≈ 628 tokens` (a RoPE lesson): `= 2` was read as
    the result of the first working, a false A408. The last link is still checked."""
    text = "λ = 2π × 10,000^(64/128) = 2π × 100 ≈ {} tokens."
    found = [i for i in numbers.extract(text.format(628)) if isinstance(i, numbers.Arithmetic)]
    assert [item.text for item in found] == ["2π × 100 ≈ 628 tokens"]
    assert _status(text.format(628)) == "verified"
    assert _status(text.format(638)) == "wrong"


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("SQNR = 6.02 x 12 + 1.76 ≈ 74.0 dB here", "SQNR = 6.02 x 12 + 1.76 ≈ 75.0 dB here"),
        ("the wire is 40 x π x 25 mm ≈ 3.14 m long", "the wire is 40 x π x 25 mm ≈ 3.24 m long"),
        ("R_p = 2.0x(1 + 50.4²) ≈ 5.09 kΩ here", "R_p = 2.0x(1 + 50.4²) ≈ 5.19 kΩ here"),
    ],
)
def test_times_typed_as_a_letter_x_is_a_product(right: str, wrong: str) -> None:
    """`6.02 x 12 + 1.76 ≈ 74.0`: plain-text authors type × as x. The blind corpus with
    every × typed so had 471 false errors (`12 + 1.76 ≈ 74.0` read from the 12); a spaced
    x between operands, or one glued to a parenthesis, is now times."""
    assert _status(right) == "verified"
    assert _status(wrong) == "wrong"


def test_an_x_that_is_no_product_is_left_alone() -> None:
    for text in ("a 10x speedup here", "a 3 x 3 array of tiles", "gives 1.4x10⁶ cm/s"):
        assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]
    [quantity] = numbers.extract("gives 1.4x10⁶ cm/s")
    assert quantity.value == 1400000


@pytest.mark.parametrize("slug", ["adc-sqnr-oversampling", "electron-mobility-drift"])
def test_a_blind_lesson_with_times_typed_as_x_checks_as_with_times(
    tmp_path: Path, diagnose, slug: str
) -> None:
    """Every × of the prose typed as x: the same lesson, no error (`m* = 0.26 x 9.109x10⁻³¹
    kg` was an A430, read as m* = 9.109x10⁻³¹ kg)."""
    path, record = _blind(tmp_path, slug)
    content = str(record["content"])
    parts = content.split("$$")
    for i in range(0, len(parts), 2):  # prose only: display equations keep their \times
        parts[i] = parts[i].replace("×", "x")
    _edit(record, content, "$$".join(parts))
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
    assert [d.code for d in diagnose(path) if d.severity.value == "error"] == []


def test_a_percent_added_to_a_quantity_is_that_share_of_it() -> None:
    """`3.3 V + 10% = 3.63 V` (an I²C lesson's supply tolerance) was a false A408, the
    terms read as V and % of two dimensions. A percent added to or taken from a quantity
    in a unit is that share of it; a wrong result is still wrong."""
    assert _status("at most 3.3 V + 10% = 3.63 V on the rail") == "verified"
    assert _status("at least 3.3 V − 10% = 2.97 V on the rail") == "verified"
    assert _status("at most 3.3 V + 10% = 3.73 V on the rail") == "wrong"


@pytest.mark.parametrize("sign", ["~", "∼", "≃"])
def test_a_tilde_is_a_sign_of_approximation(sign: str) -> None:
    """`c/c_c = 320/2530 ~ 0.126`: plain-text authors type ≈ as ~. The blind corpus with
    every ≈ typed so had 7 false errors: the statement reader took `~` for a relation and
    the working reader did not, so each read a different number."""
    assert _status(f"so ζ = 320/2530 {sign} 0.126 here") == "verified"
    assert _status(f"so ζ = 320/2530 {sign} 0.136 here") == "wrong"
    [item] = [i for i in numbers.extract(f"so 320/2530 {sign} 0.126") if hasattr(i, "relation")]
    assert item.relation == "≈"


def test_working_that_differs_from_its_result_by_a_count_is_compared_without_it() -> None:
    """`47 bytes × 8 µs = 376 µs` (8 µs per byte, a BLE lesson) was a false A408 in
    bytes·µs against µs. Counts are numbers, as in the dimension check: the digits are
    compared, and a disagreement is not certain. Other units still disagree."""
    assert _status("framed: 47 bytes × 8 µs = 376 µs in all") == "verified"
    assert _status("framed: 47 bytes × 8 µs = 0.376 ms in all") == "verified"
    assert _status("framed: 47 bytes × 8 µs = 386 µs in all") == "unclear"
    assert _status("so 3 m × 2 s = 6 m here") == "wrong"


def test_a_result_whose_unit_opens_with_a_bracket_is_not_a_bare_number() -> None:
    """`(124.8 GHz/nm)/(17 ps/(nm·km)) ≈ 7,340 (Gb/s)²·km` (a fiber lesson): the result's
    unit was not read, and the working was judged against a bare 7,340, a false A408."""
    text = "B²L ≤ (124.8 GHz/nm)/(17 ps/(nm·km)) ≈ 7,340 (Gb/s)²·km, since"
    assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]
    assert _status("so 3 × 4 = 12 (see above)") == "verified"


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("costs 32 × 14 × 14 × 9 × 512 × 512 ≈ 14.8 G MACs in all",
         "costs 32 × 14 × 14 × 9 × 512 × 512 ≈ 15.8 G MACs in all"),
        ("the forward pass is 2 × 8 × 10⁹ × 4096 ≈ 65.5 T FLOPs per batch",
         "the forward pass is 2 × 8 × 10⁹ × 4096 ≈ 66.5 T FLOPs per batch"),
    ],
)  # fmt: skip
def test_a_result_in_giga_or_tera_before_a_count_is_that_many(right: str, wrong: str) -> None:
    """`12 × 197 × 768² ≈ 1.394 G MACs` (a ViT lesson; five false A408 there and one in a
    convolution lesson): G and T before MACs, FLOPs, tokens or parameters are 10⁹ and
    10¹². Before another word they are no magnitude (`1.5 T flux` is in tesla)."""
    assert _status(right) == "verified"
    assert _status(wrong) == "wrong"
    [item] = [i for i in numbers.extract("so B = 2 × 0.75 = 1.5 T flux") if hasattr(i, "result")]
    assert item.result.text == "1.5"


def test_a_loss_stated_as_a_size_is_not_judged_by_its_sign() -> None:
    """`gain falls by 10 log₁₀ 0.5 ≈ 3.0 dB` (a phased-array lesson): the working is −3.0 dB,
    the text says how much it falls. A result the working's size matches cannot be told; a
    size that matches neither sign is still wrong."""
    assert _status("the gain falls by 10 log₁₀ 0.5 ≈ 3.0 dB there") == "unclear"
    assert _status("the gain falls by 10 log₁₀ 0.5 ≈ 4.0 dB there") == "wrong"
    assert _status("a step of 0.5 − 0.8 = 0.3 in all") == "unclear"
    assert _status("a step of 0.5 − 0.8 = 0.4 in all") == "wrong"


def test_a_root_written_as_a_result_of_working_in_units_is_a_form() -> None:
    """`√(2 × 100 nC × 100 A/µs / 2) = √10 ≈ 3.16 A` (a diode lesson): √10 restates the
    working with its amperes squared left under the root, and was a false A408 as a bare
    result. Working with no units still meets its root: `√(2 × 5) = √10` holds, `√(2 × 6)
    = √10` is wrong."""
    assert _status("IRRM = √(2 × 100 nC × 100 A/µs / 2) = √10 ≈ 3.16 A, ta") == "unclear"
    assert _status("so √(2 × 5) = √10 here") == "verified"
    assert _status("so √(2 × 6) = √10 here") == "wrong"


def test_a_value_hedged_with_a_trailing_zero_is_a_rounded_operand() -> None:
    """`limits the peak to about 0.50 Ω, a ratio of 7.2/0.50 ≈ 14.5` (an EMI-filter lesson):
    0.50 is rounded (14.4 exactly), and its trailing zero says so though 0.5 is a round
    value; a false A408. `about 1` still says nothing of another 1."""
    assert _status("to about 0.50 Ω, a ratio of 7.2/0.50 ≈ 14.5 below") == "verified"
    assert _status("to about 0.5 Ω, a ratio of 7.2/0.5 ≈ 14.5 below") == "wrong"


def test_a_unit_after_a_root_may_be_under_it() -> None:
    """`2 µV/√Hz × √17.58 Hz ≈ 8.4 µV` (an FFT-window lesson): the root takes the hertz,
    read as a factor after it was a false A408 (µV·Hz^(1/2) against µV). Read under the
    root, the working is compared as any other: a wrong result is still wrong, and so is
    working whose dimensions disagree either way."""
    assert _status("noise per bin is 2 µV/√Hz × √17.58 Hz ≈ 8.4 µV here") == "verified"
    assert _status("noise per bin is 2 µV/√Hz × √17.58 Hz ≈ 9.4 µV here") == "wrong"
    assert _status("so 8.4 µV / √17.58 Hz ≈ 2.0 µV/√Hz here") == "verified"
    assert _status("so 2 µV/√Hz × √17.58 s ≈ 8.4 µV here") == "wrong"


def test_an_exponent_stated_rounded_elsewhere_is_a_rounded_operand() -> None:
    """`V_oc/1.850 V ≈ 20.0 and I_0 = 9.0/(e²⁰ − 1) ≈ 1.85×10⁻⁸ A` (a solar-cell lesson): the
    exponent is the ratio the lesson rounded to 20.0 (20.0035), and e²⁰ exactly gives
    1.855×10⁻⁸, a false A408. Rounded at its third digit (±0.05), the exponent still
    catches a result 10% off; an exponent stated nowhere else is taken as written."""
    stated = "a ratio of about 20.0, so I_0 = 9.0/(e²⁰ − 1) ≈ {} A"
    assert _status(stated.format("1.85×10⁻⁸")) == "verified"
    assert _status(stated.format("2.05×10⁻⁸")) == "wrong"
    assert _status("so I_0 = 9.0/(e²⁰ − 1) ≈ 1.85×10⁻⁸ A") == "wrong"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("the ratio is 12/16 = 0.85 in all", "wrong"),  # a digit off
        ("the ratio is 12/16 = 7.5 in all", "wrong"),  # a decimal point slipped
        ("the ratio is 12/16 = 3.1 in all", "unclear"),  # four times off: a misreading
        ("a drop of 2 × 0.4 = −0.8 V there", "unclear"),  # the other sign
        ("a drop of 2 V × 0.4 = 0.3 V there", "wrong"),
        ("a drop of 2 V × 0.4 = 300 V there", "unclear"),
        ("the ratio is 12/16 = 0 in all", "unclear"),
    ],
)
def test_a_result_far_from_its_working_is_no_error(text: str, status: str) -> None:
    """Of the 17 false A408 and A430 of blind batches 37-45 that were a wrong value, 11
    missed by more than a factor of three or in sign: `√(350² + 233²) ≈ 421 ps` read as
    4.2×10¹⁴ ps, `800/(1.2 × 1005 × 10) ≈ 141` for CFM. A typo moves a digit and a slip
    a decimal point; a result further off is more likely misread, so it is unclear."""
    assert _status(text) == status


def test_a_number_before_a_function_goes_on_working() -> None:
    """`10 log₁₀(1 + 2¹⁰) = 10 log₁₀(1025) ≈ 30.1 dB` (a Butterworth lesson): the 10 after
    `=` multiplies the log that follows, so it is no result (two false A408)."""
    text = "It delivers 10 log₁₀(1 + 2¹⁰) = 10 log₁₀(1025) ≈ {} dB at 2f."
    worked = [i for i in numbers.extract(text.format("30.1")) if isinstance(i, numbers.Arithmetic)]
    assert [item.result.text for item in worked] == ["30.1"]
    assert [judge(item).status for item in worked] == ["verified"]
    [typo] = [i for i in numbers.extract(text.format("30.7")) if isinstance(i, numbers.Arithmetic)]
    assert judge(typo).status == "wrong"


def test_working_after_a_plus_minus_is_part_of_more_working() -> None:
    """`0.30 ± 3.56 × 0.07 µm ≈ 0.30 ± 0.249 µm` (an implant lesson): the product is the
    half-width after ±, and the 0.30 after ≈ goes on with ± 0.249; `3.56 × 0.07 µm ≈ 0.30`
    was a false A408."""
    text = "The roots are 0.30 ± 3.56 × 0.07 µm ≈ 0.30 ± 0.249 µm, that is 0.051 µm."
    assert not [i for i in numbers.extract(text) if isinstance(i, numbers.Arithmetic)]


def test_a_result_in_a_resource_time_is_in_that_time() -> None:
    """`3,692 × 40 s ≈ 41 CPU-hours` (a Monte Carlo lesson): CPU-hours are hours (a false
    A408 read the 41 as seconds); 45 CPU-hours is still wrong."""
    assert _status("At 40 s each that is 3,692 × 40 s ≈ 41 CPU-hours in total.") == "verified"
    assert _status("At 40 s each that is 3,692 × 40 s ≈ 45 CPU-hours in total.") == "wrong"


def test_a_result_in_a_quoted_abbreviation_is_an_unread_unit() -> None:
    """`245,760 flops / 10 µs = 24,576 "MFLOPS"` (an FFT lesson): the result is in a unit
    the vocabulary does not read, not a bare number against flops/µs (a false A408); with
    no unit after it, the working in flops/µs is still wrong as a bare number."""
    assert _status('rates 245,760 flops / 10 µs = 24,576 "MFLOPS", about') == "unclear"
    assert _status("rates 245,760 flops / 10 µs = 24,576 in all") == "wrong"
