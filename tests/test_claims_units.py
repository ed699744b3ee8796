"""Units of bound numbers whose values the symbol table does not name (claims/running/run.py).

An expression's unit is worked out from its symbols' units. A number written in a unit of
that dimension is converted and compared; one that agrees only as a bare number (a wrong
prefix or a wrong dimension, or constants with units the tool cannot see) is an A423
warning and is not counted as verified; a bind's own `unit` is the author's word. A quiz
converts its options to the fact's unit from the symbol table. A number stated in inline
math is prose: counted, and bound by a quote that copies the math.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import Checked, at, check, write_lesson, yaml_string

from atlas_build.claims.running import codec
from atlas_build.claims.running.registry import Outcome

QUOTE = "With I = 2 and R = 3 the drop is V = 6 V and the power is P = {power}."

BODY = """
## Science and assumptions

### Ohm

$$
V=I\\cdot R
$$

Symbols and units

V

Voltage across the resistor

V

I

Current through it

A

R

Resistance

Ω

{sentence}

## Check your understanding

### What is the drop across the resistor?

1. 6 mV
2. {option}
3. 5 V

Answer and reasoning

{answer}

Ohm's law multiplies them.
"""


def _lesson(
    tmp_path: Path,
    power: str,
    bound: str = "P",
    option: str = "6 V",
    answer: str = "6 V",
    drop: str = "6 V",
) -> Checked:
    sentence = QUOTE.format(power=power).replace("V = 6 V", f"V = {drop}")
    body = BODY.format(sentence=sentence, option=option, answer=answer)
    return check(write_lesson(tmp_path, "ohm", body, _ohm_claims(sentence, bound)))


POWER = 'P: "I\\\\cdot V"'  # the `expressions` entry of the Ohm claim (P = I·V)


def _ohm_claims(sentence: str, bound: str = "P", expression: str = POWER, quiz: bool = True) -> str:
    """The Ohm lesson's claim on `sentence` (I = 2 and R = 3 fixed, V from equation 0, the
    fourth number bound to `bound`), with the quiz on the drop unless `quiz` is False."""
    claims = f"""
claims:
  - id: ohm
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [I, R, V, {bound}]
    params:
      values: {{I: 2, R: 3}}
      use: [{{equation: 0, relation: 0}}]
      expressions: {{{expression}}}
"""
    if quiz:
        claims += """  - id: drop
    kind: quiz
    params: {question: "What is the drop", fact: ohm.V}
"""
    return claims


def _numbers(result: Checked) -> dict[str, int]:
    return result.record.coverage["numbers"]


def test_an_expression_in_a_unit_of_its_dimension_is_converted_and_verified(
    tmp_path: Path,
) -> None:
    result = _lesson(tmp_path, "12 W")  # P = I·V is in A·V, and 1 W = 1 A·V
    assert result.errors() == [] and result.found("A423") == []
    assert result.record.coverage["verification"] == "verified"
    assert _numbers(result)["unaccounted"] == 0


@pytest.mark.parametrize("power", ["12 mW", "12 s"])
def test_a_number_that_agrees_only_bare_is_a_warning_and_not_verified(
    tmp_path: Path, power: str
) -> None:
    clean = _numbers(_lesson(tmp_path / "clean", "12 W"))
    result = _lesson(tmp_path / "unit", power)
    [warning] = result.found("A423")
    assert warning.severity.value == "warning"
    assert (warning.line, warning.column) == result.lesson_at(power)
    assert "P: 12" in warning.message and "A·V" in warning.message
    assert f"{{value: P, unit: {power.split()[1]}}}" in warning.message
    assert result.errors() == []
    assert _numbers(result)["verified"] == clean["verified"] - 1
    assert _numbers(result)["unaccounted"] == 1
    assert result.record.coverage["verification"] == "partial"
    [value] = [v for v in result.claim("ohm")["values"] if v["name"] == "P"]
    assert value["ok"] is False


def test_a_wrong_value_with_a_unit_is_still_an_error(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "13 mW")
    [mismatch] = result.found("A401")
    assert "P: the lesson says 13 mW" in mismatch.message
    assert result.found("A423") == []
    assert result.record.coverage["verification"] == "failed"


def test_a_unit_in_the_bind_is_the_authors_word(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "12 mW", bound="{value: P, unit: mW}")
    assert result.found("A423") == [] and result.errors() == []
    assert result.record.coverage["verification"] == "verified"


def test_a_quiz_converts_its_options_to_the_facts_unit(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "12 W", option="6 kV", answer="6 kV")
    messages = [d.message for d in result.found("A403")]
    assert any("answer '6 kV' should state 6 V" in m for m in messages), messages
    assert result.status()["drop"] == "fail"
    assert _lesson(tmp_path / "right", "12 W").status()["drop"] == "pass"


def test_a_converted_mismatch_says_both_values_in_one_unit(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "12 W", drop="6 kV")
    [mismatch] = result.found("A401")
    assert "computed 6 V (the lesson's 6 kV is 6000 V)" in mismatch.message


def test_worked_out_units_survive_the_claim_cache() -> None:
    outcome = Outcome(quantities={"P": 12}, units={"P": "A·V"})
    decoded, _ = codec.decode_outcome(codec.encode_outcome(outcome, []))
    assert decoded.units == {"P": "A·V"}
    broken = codec.encode_outcome(outcome, [])
    broken["units"] = {"P": 3}
    with pytest.raises(ValueError, match="units"):
        codec.decode_outcome(broken)


def test_a_claim_that_checked_nothing_is_not_counted_as_passed(tmp_path: Path) -> None:
    from atlas_build import pipeline
    from atlas_build.report import text

    folder = tmp_path / "ohm"
    _lesson(tmp_path, "12 W")
    claims = folder / "claims.yaml"
    inputs_only = '  - id: given\n    kind: formula\n    extends: ohm\n    quote: "With I = 2"\n'
    claims.write_text(claims.read_text("utf-8") + inputs_only + "    bind: [I]\n", "utf-8")
    report, _ = pipeline.check([str(folder)], pipeline.Options())
    statuses = sorted(claim["status"] for claim in report.records[0].claims)
    assert statuses == ["pass", "pass", "unchecked"]
    assert report.summary()["claimsPassed"] == 2
    assert "claims 2/3 passed" in text.render(report).splitlines()[-1]
    [warning] = [d for d in report.records[0].diagnostics if d.code == "A414"]
    assert "claim given" in warning.message and "proves nothing" in warning.message
    assert warning.line > 0
    assert report.records[0].coverage["verification"] == "partial"


def test_an_expression_that_restates_a_number_is_an_input_not_a_proof(tmp_path: Path) -> None:
    """`expressions: {six: "6"}` bound to the lesson's 6 compares 6 with 6: an input."""
    _lesson(tmp_path, "12 W", bound="{value: twelve, unit: W}")
    claims = tmp_path / "ohm" / "claims.yaml"
    text = claims.read_text("utf-8").replace("expressions: {", 'expressions: {twelve: "12", ')
    claims.write_text(text, "utf-8")
    result = check(tmp_path / "ohm")
    [value] = [v for v in result.claim("ohm")["values"] if v["name"] == "twelve"]
    assert value["input"] is True
    assert (
        result.record.coverage["numbers"]["verified"]
        < _numbers(_lesson(tmp_path / "clean", "12 W"))["verified"]
    )


def _with_inline(tmp_path: Path, inline: str, bind: bool) -> Checked:
    """The Ohm lesson with `inline` (as YAML escapes it) after its worked sentence, and a
    claim binding its number to V when `bind`."""
    _lesson(tmp_path, "12 W")
    folder = tmp_path / "ohm"
    lesson = folder / "lesson.md"
    sentence = QUOTE.format(power="12 W")
    written = inline.replace("\\\\", "\\")
    lesson.write_text(lesson.read_text("utf-8").replace(sentence, f"{sentence} {written}"), "utf-8")
    if bind:
        claims = folder / "claims.yaml"
        claim = f'  - id: inline\n    kind: formula\n    extends: ohm\n    quote: "{inline}"\n'
        claims.write_text(claims.read_text("utf-8") + claim + "    bind: [V]\n", "utf-8")
    return check(folder)


@pytest.mark.parametrize(("drop", "verdict"), [("6", "verified"), ("7", "failed")])
def test_a_number_in_inline_math_is_bound_like_prose(
    tmp_path: Path, drop: str, verdict: str
) -> None:
    inline = f"In short, $V \\\\approx {drop}\\\\,\\\\mathrm{{V}}$ here."
    result = _with_inline(tmp_path / "free", inline, bind=False)
    assert result.record.coverage["verification"] == "partial"  # not bound: unaccounted
    [unbound] = result.record.coverage["numbers"]["unaccountedAt"]
    assert unbound["text"].startswith(drop)
    result = _with_inline(tmp_path / "bound", inline, bind=True)
    assert result.record.coverage["verification"] == verdict
    assert len(result.found("A401")) == (verdict == "failed")


@pytest.mark.parametrize(
    ("written", "errors"),
    [("0.006\\\\,\\\\mathrm{kV}", 0), ("6\\\\,\\\\mathrm{mV}", 1), ("6000\\\\ \\\\text{mV}", 0)],
)
def test_a_unit_written_in_inline_latex_is_converted(
    tmp_path: Path, written: str, errors: int
) -> None:
    """`$V \\approx 6\\,\\mathrm{mV}$` was read as a bare 6 and verified against 6 V."""
    result = _with_inline(tmp_path, f"In short, $V \\\\approx {written}$ here.", bind=True)
    assert len(result.found("A401")) == errors, [d.message for d in result.found("A401")]
    assert result.record.coverage["verification"] == ("failed" if errors else "verified")


MOSFET = """
## Science and assumptions

### Square law

$$
I_D=\\frac{1}{2}\\mu_n C_{ox}\\frac{W}{L}V_{ov}^2
$$

$$
g_m=\\frac{2 I_D}{V_{ov}},\\qquad V_{DS}\\geq V_{ov}
$$

Symbols and units

I_D

Drain current

µA

μ_n

Electron mobility

cm²/(V·s)

C_ox

Oxide capacitance per area

fF/µm²

W

Channel width

µm

L

Channel length

µm

V_ov

Overdrive voltage

V

V_DS

Drain-source voltage

mV

g_m

Transconductance

mS

{sentence}
"""
MOSFET_QUOTE = (
    "With μ_n = 400 cm²/(V·s), C_ox = 5 fF/µm², W = 10 µm, L = 1 µm and V_ov = 0.7 V "
    "the drain current is I_D = {current} and g_m = {gm}; at V_DS = {vds} it stays saturated."
)


def _mosfet(tmp_path: Path, current: str = "490 µA", gm: str = "1.4 mS", vds: str = "800 mV"):
    sentence = MOSFET_QUOTE.format(current=current, gm=gm, vds=vds)
    value = vds.split()[0]
    claims = f"""
claims:
  - id: worked
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [mu_n, C_ox, W, L, V_ov, I_D, g_m, V_DS]
    params:
      values: {{mu_n: 400, C_ox: 5, W: 10, L: 1, V_ov: 0.7, V_DS: {value}}}
      use: [{{equation: 0, relation: 0}}, {{equation: 1, relation: 0}}]
      identities: [{{equation: 1, relation: 1}}]
"""
    return check(write_lesson(tmp_path, "mosfet", MOSFET.replace("{sentence}", sentence), claims))


def test_a_relation_between_prefixed_units_computes_in_the_table_s_units(
    tmp_path: Path,
) -> None:
    """µA on the left, cm²/(V·s)·fF/µm²·V² on the right: one of the latter is 1/10 µA,
    so I_D is 490 µA (not the 4900 a bare evaluation gives), and g_m = 2 I_D/V_ov in mS."""
    result = _mosfet(tmp_path)
    assert result.status() == {"worked": "pass"}, result.claim("worked")["message"]
    assert result.record.coverage["dimensions"]["consistent"] == 3
    assert result.record.coverage["verification"] == "verified"


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"current": "4900 µA"}, "computed 490"),  # the bare-number answer is wrong
        ({"gm": "1400 mS"}, "computed 7/5"),
        ({"vds": "600 mV"}, "identity-1-1"),  # 0.6 V is below the 0.7 V overdrive
    ],
)
def test_a_prefix_error_in_a_worked_number_fails(
    tmp_path: Path, edit: dict[str, str], said: str
) -> None:
    result = _mosfet(tmp_path, **edit)
    assert result.status() == {"worked": "fail"}
    assert said in result.claim("worked")["message"]


def _without(tmp_path: Path, symbol: str, **edit: str) -> Checked:
    """The MOSFET lesson with one symbol-table entry (name, meaning, unit) removed."""
    folder = _mosfet(tmp_path, **edit).folder
    lesson = folder / "lesson.md"
    text = lesson.read_text(encoding="utf-8")
    start = text.index(f"\n{symbol}\n\n")
    end = start
    for _ in range(3):
        end = text.index("\n\n", end + 1)
    lesson.write_text(text[:start] + text[end:], encoding="utf-8")
    return check(folder)


def test_a_symbol_the_table_omits_takes_its_unit_from_its_relation(tmp_path: Path) -> None:
    """g_m without an entry is worked out in µA/V from `2 I_D / V_ov`: the right number in
    mS is verified, one with the wrong prefix is not, and the lesson stays partial because
    the relation's dimensions are only partly checked."""
    right = _without(tmp_path / "right", "g_m")
    assert right.status() == {"worked": "pass"}
    assert not right.found("A423")
    assert right.record.coverage["dimensions"]["incomplete"] == 1
    assert right.record.coverage["verification"] == "partial"
    wrong = _without(tmp_path / "wrong", "g_m", gm="1400 mS")  # bare 1400 µA/V
    [finding] = wrong.found("A423")
    assert "works g_m out in µA/V" in finding.message
    assert wrong.record.coverage["verification"] != "verified"


def test_a_unit_written_for_a_value_nothing_gives_a_unit_is_unproven(tmp_path: Path) -> None:
    """V_DS is an input: no finding. A computed value with no unit anywhere, written with
    one, agrees only as a bare number."""
    result = _without(tmp_path, "V_DS")
    assert not result.found("A423")  # V_DS is an input the claim fixes
    assert result.record.coverage["verification"] == "partial"  # V_DS ≥ V_ov is incomplete


@pytest.mark.parametrize(("unit", "status"), [("", "pass"), (', unit: "µA/V²"', "fail")])
def test_a_bind_unit_replaces_the_worked_out_one_and_says_so(
    tmp_path: Path, unit: str, status: str
) -> None:
    sentence = "With μ_n = 400 cm²/(V·s) and C_ox = 5 fF/µm² the product is 200 µA/V²."
    claims = f"""
claims:
  - id: process
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [mu_n, C_ox, {{value: k{unit}}}]
    params:
      values: {{mu_n: 400, C_ox: 5}}
      expressions: {{k: "\\\\mu_n C_{{ox}}"}}
"""
    result = check(write_lesson(tmp_path, "k", MOSFET.replace("{sentence}", sentence), claims))
    assert result.status()["process"] == status
    if status == "fail":
        [mismatch] = result.found("A401")
        assert "computed 2000" in mismatch.message
        assert "leave `unit` out of the bind" in mismatch.message


RC = """
## Science and assumptions

### Time constant

$$
\\tau=R C
$$

Symbols and units

τ

Time constant

ns

R

Resistance

kΩ

C

Capacitance

pF

{sentence}
"""


@pytest.mark.parametrize(
    ("farads", "status"), [("10⁻¹² F", "pass"), ("1 F", "fail"), ("1 dB", "fail")]
)
def test_a_letter_prose_keeps_out_of_units_is_one_for_a_quantity_of_its_dimension(
    tmp_path: Path, farads: str, status: str
) -> None:
    """`F` (like `L`, `T`, `N`) after a number is more often a variable, so the prose
    reader leaves it out; bound to a capacitance in pF, it is the unit and is converted
    (`1 F` is not the 1 pF the claim fixes, though the bare numbers agree)."""
    sentence = f"With R = 1 kΩ and C = {farads} the time constant is τ = 1 ns."
    claims = f"""
claims:
  - id: rc
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [R, C, tau]
    params: {{values: {{R: 1, C: 1}}, use: [{{equation: 0, relation: 0}}]}}
"""
    result = check(write_lesson(tmp_path, "rc", RC.replace("{sentence}", sentence), claims))
    assert result.status() == {"rc": status}
    if status == "fail":  # `dB` after a capacitance is kept as written, and cannot convert
        [mismatch] = result.found("A401")
        assert f"the lesson says {farads}" in mismatch.message


BANDWIDTH = """
## Science and assumptions

$$
f_c=\\frac{f_{\\mathrm{GBW}}}{G}
$$

Symbols and units

f\\_c

Closed-loop bandwidth

kHz

f\\_GBW

Gain-bandwidth product

MHz

G

Closed-loop gain

dimensionless

{sentence}
"""


@pytest.mark.parametrize(("ratio", "verified"), [("0.1", True), ("100", False)])
def test_a_ratio_of_two_prefixes_of_one_unit_is_a_pure_number(
    tmp_path: Path, ratio: str, verified: bool
) -> None:
    """f_c/f_GBW is worked out in kHz/MHz: the bare number the lesson states is the pure
    number (0.1), not the table-unit quotient (100)."""
    sentence = f"With f\\_GBW = 10 MHz and G = 10, f\\_c = 1000 kHz, so f\\_c/f\\_GBW = {ratio}."
    claims = f"""
claims:
  - id: bw
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [f_GBW, G, f_c, ratio]
    params:
      values: {{f_GBW: 10, G: 10}}
      use: [{{equation: 0, relation: 0}}]
      expressions: {{ratio: "\\\\frac{{f_c}}{{f_{{\\\\mathrm{{GBW}}}}}}"}}
"""
    result = check(write_lesson(tmp_path, "bw", BANDWIDTH.replace("{sentence}", sentence), claims))
    assert result.errors() == []
    [value] = [v for v in result.claim("bw")["values"] if v["name"] == "ratio"]
    assert value["ok"] is verified
    assert (result.found("A423") == []) is verified
    assert result.record.coverage["verification"] == ("verified" if verified else "partial")


GAIN = """
## Science and assumptions

$$
G=1+\\frac{R_f}{R_g}
$$

Symbols and units

G

Closed-loop voltage gain

{unit}

R\\_f

Feedback resistor

kΩ

R\\_g

Ground resistor

kΩ

{sentence}
"""


def _gain(
    tmp_path: Path,
    unit: str,
    gain: str,
    *,
    also: str = "",
    bind: tuple[str, ...] = (),
    expressions: str = "",
    after: str = "",
    tail: str = "",
) -> Checked:
    """The gain stage with G = `gain` (the sentence continuing with `also`, its claim
    binding `bind` more quantities computed by `expressions`), further claims `after` it
    and `tail` after the lesson's sentence."""
    sentence = f"With R\\_g = 1 kΩ and R\\_f = 10 kΩ the gain is G = {gain}{also}."
    computed = f", expressions: {{{expressions}}}" if expressions else ""
    claims = f"""
claims:
  - id: gain
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [{", ".join(("R_g", "R_f", "G", *bind))}]
    params: {{values: {{R_f: 10, R_g: 1}}, use: [{{equation: 0, relation: 0}}]{computed}}}
{after}"""
    body = GAIN.replace("{unit}", unit).replace("{sentence}", sentence) + tail
    return check(write_lesson(tmp_path, "gain", body, claims))


@pytest.mark.parametrize("unit", ["V/V", "dimensionless", "ratio"])
def test_a_level_in_db_on_a_plain_ratio_fails_and_says_what_to_bind(
    tmp_path: Path, unit: str
) -> None:
    """`G = 11 dB` for a gain of 11 (20.83 dB, or 10.41 dB of power) agreed as a bare
    number and read verified. A level is not the ratio, and which logarithm is meant
    cannot be read, so it is neither converted nor compared bare."""
    result = _gain(tmp_path, unit, "11 dB")
    assert result.status() == {"gain": "fail"}
    [mismatch] = result.found("A401")
    assert "the lesson says 11 dB" in mismatch.message
    assert "20\\log_{10} G" in mismatch.message and "dimensionless (dB)" in mismatch.message
    assert result.record.coverage["verification"] == "failed"


@pytest.mark.parametrize("unit", ["dimensionless (decibels)", "dimensionless (dB)"])
def test_a_symbol_whose_table_unit_names_a_level_is_written_in_db(
    tmp_path: Path, unit: str
) -> None:
    result = _gain(tmp_path, unit, "11 dB")
    assert result.errors() == [] and result.status() == {"gain": "pass"}
    assert result.record.coverage["verification"] == "verified"


def test_a_table_unit_db_is_a_level_as_dimensionless_db_is(tmp_path: Path) -> None:
    """A table unit `dB` was A421 (logarithmic units are not supported): a level is a
    dimensionless logarithm of a ratio, read as `dimensionless (dB)` is, without a warning."""
    result = _gain(tmp_path, "dB", "11 dB")
    assert result.errors() == [] and result.status() == {"gain": "pass"}
    assert [d.code for d in result.record.diagnostics if d.severity.value == "warning"] == []


@pytest.mark.parametrize(
    ("unit", "gain", "status"),
    [("V/V", "11 V/V", "pass"), ("dimensionless", "11 V/V", "pass"), ("V/V", "12 V/V", "fail"),
     ("V/V", "11", "pass"), ("V/V", "11 V", "fail")],
)  # fmt: skip
def test_a_gain_in_v_per_v_is_a_pure_number(
    tmp_path: Path, unit: str, gain: str, status: str
) -> None:
    """`G = 11 V/V` (the table's own unit) was read as `11 V` and failed to convert."""
    result = _gain(tmp_path, unit, gain)
    assert result.status() == {"gain": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert f"the lesson says {gain}," in mismatch.message


@pytest.mark.parametrize(
    ("stated", "bound", "status"),
    [("20.83 dB", "level", "pass"), ("11 dB", "ratio", "fail"), ("11", "ratio", "pass")],
)
def test_an_expression_in_db_must_compute_a_level(
    tmp_path: Path, stated: str, bound: str, status: str
) -> None:
    """An expression the table does not name, `R_f/R_g + 1 = 11`, is no level: `11 dB`
    for it fails as it does for a table symbol; `20\\log_{10} G` is one, and takes dB."""
    result = _gain(
        tmp_path, "V/V", "11", also=f", and {bound} is {stated}", bind=(bound,),
        expressions='ratio: "1+\\\\frac{R_f}{R_g}", level: "20\\\\log_{10} G"',
    )  # fmt: skip
    assert result.status() == {"gain": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert "a level in dB is not ratio itself" in mismatch.message


def test_a_constant_logarithm_is_a_level_too(tmp_path: Path) -> None:
    """`20\\log_{10} 2` computes a level (6.02 dB per bit) as much as `20\\log_{10} G`."""
    result = _gain(tmp_path, "V/V", "11", also=", and a bit is 6.02 dB", bind=("bit",),
                   expressions='bit: "20\\\\log_{10} 2"')  # fmt: skip
    assert result.status() == {"gain": "pass"} and result.errors() == []


QUIZ_GAIN = """  - id: quiz-gain
    kind: quiz
    params: {{question: "What is the gain", fact: gain.{fact}}}
"""
GAIN_QUIZ = """
## Check your understanding

### What is the gain of the stage?

1. 10
2. {option}
3. 12

Answer and reasoning

{answer}

One plus the resistor ratio.
"""


@pytest.mark.parametrize(
    ("option", "answer", "status"),
    [("11", "11", "pass"), ("11 kHz", "11 kHz", "fail"), ("1100%", "1100%", "pass"),
     ("11%", "11%", "fail"), ("1100 percent", "1100 percent", "pass"),
     ("11 per cent", "11 per cent", "fail")],
)  # fmt: skip
def test_a_quiz_on_a_pure_number_takes_no_dimensioned_unit(
    tmp_path: Path, option: str, answer: str, status: str
) -> None:
    """A gain of 11 is not stated by `11 kHz`, and `11%` is 0.11 of it, not 11; `percent`
    is `%` (`1100 percent` failed where `1100%` passed)."""
    tail = GAIN_QUIZ.replace("{option}", option).replace("{answer}", answer)
    result = _gain(tmp_path, "V/V", "11", after=QUIZ_GAIN.format(fact="G"), tail=tail)
    assert result.status()["quiz-gain"] == status


def test_a_quiz_on_a_value_the_claim_fixes_proves_nothing(tmp_path: Path) -> None:
    result = _gain(
        tmp_path, "V/V", "11", expressions='eleven: "11"', after=QUIZ_GAIN.format(fact="eleven"),
        tail=GAIN_QUIZ.replace("{option}", "11").replace("{answer}", "11"),
    )  # fmt: skip
    assert result.status()["quiz-gain"] == "error"
    [error] = [d for d in result.found("A404") if "quiz-gain" in d.message]
    assert "is a value claim 'gain' fixes itself" in error.message


WALL = """
## Science

$$
{equation}
$$

Symbols and units

{rows}

{sentence}
"""


def _wall(tmp_path: Path, equation: str, rows: dict[str, str], sentence: str, claim: str):
    table = "\n\n".join(f"{symbol}\n\nWhat {symbol} is\n\n{unit}" for symbol, unit in rows.items())
    body = WALL.format(equation=equation, rows=table, sentence=sentence)
    claims = f"""
claims:
  - id: wall
    kind: formula
    quote: {yaml_string(sentence)}
{claim}
"""
    return check(write_lesson(tmp_path, "wall", body, claims))


def _interface(tmp_path: Path, unit: str) -> Checked:
    sentence = f"With T\\_in = 20 °C and ΔT\\_b = 4 K the interface is at T\\_1 = 16 {unit}."
    claim = """    bind: [T_in, DeltaT_b, T_1]
    params:
      values: {T_in: 20, DeltaT_b: 4}
      use: [{equation: 0, relation: 0}]"""
    rows = {"T\\_1": unit, "T\\_in": "°C", "ΔT\\_b": "K"}
    return _wall(tmp_path, "T_1=T_{in}-\\Delta T_b", rows, sentence, claim)


def test_a_celsius_value_less_a_kelvin_interval_is_computed_in_celsius(tmp_path: Path) -> None:
    """20 °C − 4 K is 16 °C: with T_1 in °C the relation is consistent and 16 °C verified."""
    result = _interface(tmp_path, "°C")
    assert result.errors() == [] and result.status() == {"wall": "pass"}
    assert result.record.coverage["verification"] == "verified"


def test_a_kelvin_symbol_is_not_computed_from_a_celsius_side(tmp_path: Path) -> None:
    """With T_1 in K the claim computed 20 − 4 and verified "16 K" (it is 289.15 K): an
    offset is not a ratio, so the claim refuses to compute, beside the relation's A420."""
    result = _interface(tmp_path, "K")
    assert result.status() == {"wall": "error"}
    assert "left side is in K and the right side in °C" in result.claim("wall")["message"]
    [affine] = result.found("A420")
    assert "left side K, right side °C" in affine.message
    assert _numbers(result)["verified"] == 0


@pytest.mark.parametrize(
    ("difference", "status"), [("25 K", "pass"), ("298.15 K", "fail"), ("77 °F", "fail")]
)
def test_a_difference_of_celsius_values_is_an_interval_in_kelvin(
    tmp_path: Path, difference: str, status: str
) -> None:
    """T_in − T_out with both in °C is 25 K: a prose 25 K verifies (it was an A423 warning)
    and 298.15 K or 77 °F, the temperature 25 °C, fail (they were verified)."""
    sentence = (
        "With T\\_in = 20 °C, T\\_out = −5 °C and R = 0.025 K/W the difference is"
        f" {difference} and the wall loses q = 1000 W."
    )
    claim = """    bind: [T_in, T_out, R, dT, q]
    params:
      values: {T_in: 20, T_out: -5, R: 0.025}
      use: [{equation: 0, relation: 0}]
      expressions: {dT: "T_{in}-T_{out}"}"""
    rows = {"q": "W", "T\\_in": "°C", "T\\_out": "°C", "R": "K/W"}
    result = _wall(tmp_path, "q=\\frac{T_{in}-T_{out}}{R}", rows, sentence, claim)
    assert result.status() == {"wall": status}
    assert result.found("A423") == [] and result.found("A420") == []
    if status == "fail":
        [mismatch] = result.found("A401")
        assert f"dT: the lesson says {difference}, computed 25 K" in mismatch.message


@pytest.mark.parametrize(("kelvin", "status"), [("293.15 K", "pass"), ("20 K", "fail")])
def test_a_celsius_value_plus_273_15_kelvin_converts_it(
    tmp_path: Path, kelvin: str, status: str
) -> None:
    """`T = θ + 273.15 K` is an explicit conversion: consistent, and computed in K."""
    sentence = f"At θ = 20 °C the absolute temperature is T = {kelvin}."
    claim = """    bind: [theta, T]
    params:
      values: {theta: 20}
      use: [{equation: 0, relation: 0}]"""
    rows = {"T": "K", "θ": "°C"}
    result = _wall(tmp_path, "T=\\theta+273.15\\,\\mathrm{K}", rows, sentence, claim)
    assert result.status() == {"wall": status}
    assert result.found("A420") == []
    assert result.record.coverage["dimensions"]["consistent"] == 1


BATTERY = """
## Science and assumptions

$$
E=P t
$$

Symbols and units

E

Energy drawn from the cell

{unit}

P

Power drawn

W

t

Time

h

{sentence}
"""


def _battery(tmp_path: Path, energy: str, unit: str = "Wh") -> Checked:
    sentence = f"Drawing P = 0.54 W for t = 20 h uses E = {energy} of the charge."
    claims = f"""
claims:
  - id: energy
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [P, t, E]
    params: {{values: {{P: 0.54, t: 20}}, use: [{{equation: 0, relation: 0}}]}}
"""
    body = BATTERY.replace("{unit}", unit).replace("{sentence}", sentence)
    return check(write_lesson(tmp_path, "battery", body, claims))


@pytest.mark.parametrize(
    ("energy", "unit", "status"),
    [
        ("10.8 Wh", "Wh", "pass"),
        ("10.8 W·h", "Wh", "pass"),
        ("0.0108 kWh", "Wh", "pass"),
        ("38.88 kJ", "Wh", "pass"),
        ("10.8", "Wh", "pass"),
        ("10.8 Wh", "W·h", "pass"),
        ("0.03888 MJ", "kJ", "pass"),
        ("10.8 kWh", "Wh", "fail"),
        ("10.8 BTU", "Wh", "fail"),
        ("10.8 kcal", "Wh", "fail"),
        ("10.8 mWh", "Wh", "fail"),
    ],
)
def test_watt_hours_and_other_energy_units_convert(
    tmp_path: Path, energy: str, unit: str, status: str
) -> None:
    """`E = 10.8 kWh` for 10.8 W·h was compared as a bare 10.8 and verified."""
    result = _battery(tmp_path, energy, unit)
    assert result.found("A420") == [] and result.found("A421") == []
    assert result.status() == {"energy": status}


@pytest.mark.parametrize(
    ("energy", "unread"), [("10.8 mw", "mw"), ("10.8 kwh.", "kwh"), ("10.8 Nm", "Nm"),
                           ("10.8 KJ", "KJ"), ("10.8 therms", "therms")],
)  # fmt: skip
def test_a_unit_the_vocabulary_does_not_read_fails_instead_of_passing_bare(
    tmp_path: Path, energy: str, unread: str
) -> None:
    """A word meant as a unit after a number of a quantity with a dimension is kept as
    written and cannot convert (A401 naming it and docs/units.md); the bare 10.8 agrees."""
    result = _battery(tmp_path, energy)
    assert result.status() == {"energy": "fail"}
    [mismatch] = result.found("A401")
    assert f"the lesson says 10.8 {unread}" in mismatch.message
    assert f"cannot read unit {unread!r}" in mismatch.message
    assert "docs/units.md" in mismatch.message
    assert (mismatch.line, mismatch.column) == result.lesson_at("10.8")


@pytest.mark.parametrize("after", ["and", "or so", "of", "in all", "at most"])
def test_english_words_after_a_bare_number_still_compare_it_bare(
    tmp_path: Path, after: str
) -> None:
    result = _battery(tmp_path, f"10.8 {after}")
    assert result.status() == {"energy": "pass"} and result.errors() == []


def test_a_table_unit_meant_as_a_unit_is_a_warning_not_a_dimension_of_its_own(
    tmp_path: Path,
) -> None:
    """`kwh` in the symbol table was read as a made-up unit `kwh` (A420 at `E = P t`);
    it is A421, naming kWh, and E's numbers are compared bare, as for any unread unit."""
    result = _battery(tmp_path, "10.8", unit="kwh")
    [warning] = result.found("A421")
    assert "did you mean kWh?" in warning.message
    assert result.found("A420") == []


HEADED_WALL = """
## Science and assumptions

$$
q=\\frac{T_{in}-T_{out}}{R}
$$

Symbols and units

q

Heat flow

W

T\\_in

Inside temperature

°C

T\\_out

Outside temperature

°C

R

Thermal resistance

K/W

{sentence}
"""


@pytest.mark.parametrize(
    ("inside", "outside", "status"),
    [
        (r"20^\circ\mathrm{C}", r"-5^\circ\mathrm{C}", "pass"),
        (r"68^\circ\mathrm{F}", r"23^\circ\mathrm{F}", "pass"),  # 20 °C and −5 °C
        (r"20\,^{\circ}\mathrm{C}", r"-5\,\mathrm{^\circ C}", "pass"),
        (r"20^\circ\mathrm{F}", r"-5^\circ\mathrm{F}", "fail"),  # was verified
        (r"20\,\mathrm{^\circ F}", r"-5\,^{\circ}\mathrm{F}", "fail"),
    ],
)
def test_a_latex_degree_sign_is_a_temperature_unit(
    tmp_path: Path, inside: str, outside: str, status: str
) -> None:
    """`$T = 20^\\circ\\mathrm{F}$` was read as a bare 20 and verified against 20 °C."""
    sentence = (
        f"With $T_{{in}} = {inside}$, $T_{{out}} = {outside}$ and R = 0.025 K/W "
        "the wall loses q = 1000 W."
    )
    claims = f"""
claims:
  - id: flow
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [T_in, T_out, R, q]
    params:
      values: {{T_in: 20, T_out: -5, R: 0.025}}
      use: [{{equation: 0, relation: 0}}]
"""
    body = HEADED_WALL.replace("{sentence}", sentence)
    result = check(write_lesson(tmp_path, "wall", body, claims))
    assert result.status() == {"flow": status}
    assert len(result.found("A401")) == (2 if status == "fail" else 0)


def test_a_unit_edited_in_the_symbol_table_misses_the_claim_cache(tmp_path: Path) -> None:
    """A formula works its quantities out in the table's units, so the table is part of
    the claim's cache key: R edited from Ω to kΩ makes V = 6000 V, and the lesson's
    `6 V` fails, as it does without a cache (a stale outcome verified it)."""
    from atlas_build import pipeline

    folder = _lesson(tmp_path / "lesson", "12 W").folder
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"))

    def record() -> Any:
        report, _ = pipeline.check([str(folder)], options)
        return report.records[0]

    assert record().coverage["verification"] == "verified"
    text = (folder / "lesson.md").read_text(encoding="utf-8")
    (folder / "lesson.md").write_text(text.replace("\n\nΩ\n", "\n\nkΩ\n"), encoding="utf-8")
    edited = record()
    assert edited.coverage["verification"] == "failed"
    assert any(d.code == "A401" and "6 V" in d.message for d in edited.diagnostics)


@pytest.mark.parametrize(
    ("stated", "verdict"),
    [("100%", "verified"), ("1%", "partial"), ("100 percent", "verified"),
     ("100 per cent", "verified"), ("1 percent", "partial")],
)  # fmt: skip
def test_a_percentage_of_a_pure_ratio_is_a_fraction(
    tmp_path: Path, stated: str, verdict: str
) -> None:
    """`V/(I R)` is 1, so `100%` is right; `1%` agrees only as a bare number (A423), and is
    not counted as verified (it was, compared bare as 1). `percent` and `per cent` read as
    `%` (`100 percent` failed where `100%` passed)."""
    sentence = QUOTE.format(power=stated)
    body = BODY.format(sentence=sentence, option="6 V", answer="6 V")
    claims = _ohm_claims(sentence, "ratio", 'ratio: "\\\\frac{V}{I\\\\cdot R}"')
    result = check(write_lesson(tmp_path, "ohm", body, claims))
    assert result.record.coverage["verification"] == verdict
    warned = [d for d in result.record.diagnostics if d.code == "A423"]
    assert bool(warned) == (verdict == "partial")


@pytest.mark.parametrize(
    ("written", "code"),
    [("3 kohm", None), ("3 Mohm", "A401"), ("3 megohm", "A401"), ("3 mohm", "A401")],
)
def test_ascii_ohm_prefixes_are_units_and_mohm_is_ambiguous(
    tmp_path: Path, written: str, code: str | None
) -> None:
    """R is 3 kΩ in the table; `3 Mohm` was read bare and verified."""
    sentence = QUOTE.format(power="12 W").replace("R = 3", f"R = {written}")
    body = BODY.format(sentence=sentence, option="6 V", answer="6 V").replace("\n\nΩ\n", "\n\nkΩ\n")
    body = body.replace("drop is V = 6 V", "drop is V = 6 kV").replace("P = 12 W", "P = 12 kW")
    quoted = sentence.replace("V = 6 V", "V = 6 kV").replace("12 W", "12 kW")
    claims = _ohm_claims(quoted, quiz=False)
    result = check(write_lesson(tmp_path, "ohm", body, claims))
    found = [d.code for d in result.record.diagnostics if d.code.startswith("A40")]
    assert found == ([] if code is None else [code]), result.record.diagnostics


@pytest.mark.parametrize(
    ("sentence", "bound", "code"),
    [
        ("With I = 2 and R = 3 the drop is V = 6 V and the power is P = 12 W.", "P", None),
        ("With I = 2 and R = 3 the drop is V = 6 V and the power is V = 12 W.", "P", "A401"),
        ("With I = 2 and R = 3 the drop is V = 6 V and the power is I·V = 12 W.", "P", None),
    ],
)
def test_a_number_stated_for_another_computed_symbol_fails(
    tmp_path: Path, sentence: str, bound: str, code: str | None
) -> None:
    """`V = 12 W` bound to P (which the claim computes as 12 W) states V, which the claim
    computes as 6 V: the bind compares the wrong symbol, so it is not verified. After an
    operator (`I·V = 12 W`) the number ends a chain and states P."""
    body = BODY.format(sentence=sentence, option="6 V", answer="6 V")
    claims = _ohm_claims(sentence, bound, quiz=False)
    body = body.replace("Symbols and units\n", "Symbols and units\n\nP\n\nPower\n\nW\n", 1)
    result = check(write_lesson(tmp_path, "ohm", body, claims))
    found = [d for d in result.record.diagnostics if d.code == "A401"]
    assert [d.code for d in found] == ([] if code is None else [code]), found
    assert code is None or "the lesson writes V = 12 W, but the bind compares it with P" in (
        found[0].message
    )


FORMULA = """    bind: [{bind}]
    params:
      values: {{{values}}}
      use: [{{equation: 0, relation: 0}}]"""


def _capacity(tmp_path: Path, unit: str, stated: str) -> Checked:
    """C = B η with B = 10 kHz and η = 6.66 bit/(s·Hz): C is 66.6 kbit/s, in `unit`."""
    sentence = f"With B = 10 kHz and η = 6.66 the capacity is C ≈ {stated}."
    claim = FORMULA.format(bind="B, eta, C", values="B: 10, eta: 6.66")
    rows = {"C": unit, "B": "kHz", "η": "bit/(s·Hz)"}
    return _wall(tmp_path, "C = B \\eta", rows, sentence, claim)


@pytest.mark.parametrize(
    ("unit", "stated", "says"),
    [
        ("bit/s", "66.6 kb/s", None),  # was the bare 66.6 against 66600
        ("bit/s", "66.6 kbits/s", None),
        ("kb/s", "66600 b/s", None),  # a table unit too (it was A421, unread)
        ("Mbit/s", "66.6 kbps", None),
        ("kbit/s", "66.6 Mb/s", "66600 kbit/s"),  # these three verified, compared bare
        ("kbit/s", "66.6 Gb/s", "66600000 kbit/s"),
        ("kbit/s", "66.6 Kb/s", "ambiguous"),
        ("kbit/s", "66.6 kB/s", "532.8 kbit/s"),  # bytes are not bits
    ],
)
def test_bit_rates_with_a_lower_case_b_are_bits_per_second(
    tmp_path: Path, unit: str, stated: str, says: str | None
) -> None:
    """`kb/s`, `Mb/s`, `Gb/s` were dropped and their numbers compared bare, so 66.6 Mb/s
    verified for 66.6 kbit/s; now they convert like kbit/s, and `Kb/s` (1000 or 1024?) fails
    at the number instead of passing bare."""
    result = _capacity(tmp_path, unit, stated)
    assert result.status() == {"wall": "fail" if says else "pass"}, result.record.diagnostics
    if says is None:
        assert result.errors() == []
    else:
        [mismatch] = result.found("A401")
        assert says in mismatch.message
        assert at(mismatch) == result.lesson_at(f"≈ {stated}")


def _dram(tmp_path: Path, rate: str, peak: str) -> Checked:
    """D = R w: 3200 MT/s on an 8-byte bus is 25.6 GB/s."""
    sentence = f"At R = {rate} on a w = 8 B bus the peak is D = {peak}."
    claim = FORMULA.format(bind="R, w, D", values="R: 3200, w: 8")
    return _wall(tmp_path, "D = R w", {"D": "GB/s", "R": "MT/s", "w": "B"}, sentence, claim)


@pytest.mark.parametrize(
    ("rate", "peak", "says"),
    [
        ("3200 MT/s", "25.6 GB/s", None),  # was A420: MT·B/s read as megatesla-bytes
        ("3.2 GT/s", "25.6 GB/s", None),
        ("3200 MT/s", "25.6 MB/s", "0.0256 GB/s"),
        ("3200 kT/s", "25.6 GB/s", "3.2 MT/s"),
        ("3200 MT", "25.6 GB/s", "megatransfers"),  # MT alone is not read, nor compared bare
    ],
)
def test_transfers_per_second_are_a_rate_of_transfers_not_teslas(
    tmp_path: Path, rate: str, peak: str, says: str | None
) -> None:
    """`MT/s` was megateslas per second, so the DRAM relation was inconsistent (A420) and
    computed 25600 GB/s; transfers are counted things of dimension one, like tokens."""
    result = _dram(tmp_path, rate, peak)
    assert result.status() == {"wall": "fail" if says else "pass"}, result.record.diagnostics
    assert result.found("A420") == []
    if says is None:
        assert result.errors() == []
    else:
        [mismatch] = result.found("A401")
        assert says in mismatch.message


@pytest.mark.parametrize(
    ("unit", "b", "stated", "status"),
    [
        ("dimensionless", "1000000000", "3.2 billion", "pass"),  # was the bare 3.2 vs 3.2e9
        ("dimensionless", "1000000000", "3200 million", "pass"),
        ("dimensionless", "1000000000", "3200000 thousand", "pass"),
        ("dimensionless", "1000000000", "3.2", "fail"),
        ("GB", "1", "3.2 billion bytes", "pass"),
        ("GB", "1", "3.2 million bytes", "fail"),  # verified: the bare 3.2 in GB
        ("MB", "1000", "3.2 billion bytes", "pass"),  # was the bare 3.2 against 3200
    ],
)
def test_a_magnitude_word_scales_the_number_before_it(
    tmp_path: Path, unit: str, b: str, stated: str, status: str
) -> None:
    """`3.2 billion` is 3.2×10⁹ (the short scale); the word was not read, so the number
    was compared bare: `3.2 million bytes` verified for 3.2 GB."""
    sentence = f"With a = 3.2 and b = {b} the total is N = {stated}."
    claim = FORMULA.format(bind="a, b, N", values=f"a: 3.2, b: {b}")
    rows = {"N": unit, "a": unit, "b": "dimensionless"}
    result = _wall(tmp_path, "N = a b", rows, sentence, claim)
    assert result.status() == {"wall": status}, result.record.diagnostics


ERROR_RATE = """
## Science

$$
z = x
$$

Symbols and units

x

Errors counted

dimensionless

y

Bits sent

dimensionless

z

A copy of x

dimensionless

{sentence}

## Check your understanding

### What is the error rate?

1. 17 percent
2. {answer}
3. 1.7 percent

Answer and reasoning

{answer}

It is x over y.
"""


@pytest.mark.parametrize(
    ("stated", "status"),
    [("0.17%", "pass"), ("0.17 percent", "pass"), ("0.17 per cent", "pass"),
     ("17 percent", "fail")],
)  # fmt: skip
def test_percent_in_words_is_a_percent_sign(tmp_path: Path, stated: str, status: str) -> None:
    """The error rate x/y is a pure number nothing gives a unit: `0.17%` states 0.0017, and
    `0.17 percent` (or `per cent`), compared bare as 0.17, failed, in the prose and in a
    quiz's answer alike."""
    sentence = f"With x = 17 and y = 10000 the error rate is {stated}."
    claims = f"""
claims:
  - id: rate
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [x, y, p]
    params:
      values: {{x: 17, y: 10000}}
      use: [{{equation: 0, relation: 0}}]
      expressions: {{p: "\\\\frac{{x}}{{y}}"}}
  - id: quiz
    kind: quiz
    params: {{question: "What is the error rate", fact: rate.p, ratio: true}}
"""
    body = ERROR_RATE.format(sentence=sentence, answer=stated)
    result = check(write_lesson(tmp_path, "rate", body, claims))
    assert result.status() == {"rate": status, "quiz": status}, result.record.diagnostics


@pytest.mark.parametrize(
    ("clock", "rate", "says"),
    [("1600 MHz", "3200 MT/s", None), ("1.6 GHz", "3.2 GT/s", None),
     ("1600 MT/s", "3200 MT/s", "a transfer is not a clock cycle"),
     ("1600 MHz", "3.2 GHz", "a transfer is not a clock cycle")],
)  # fmt: skip
def test_transfers_and_clock_cycles_are_not_converted_into_each_other(
    tmp_path: Path, clock: str, rate: str, says: str | None
) -> None:
    """A double-data-rate bus makes two transfers per cycle (R = 2f). Both are counts per
    second, so `1600 MT/s` would verify for the 1600 MHz clock: the classic 2x error, kept
    apart as rad/s and Hz are."""
    sentence = f"The clock f = {clock} gives R = {rate}."
    claim = FORMULA.format(bind="f, R", values="f: 1600")
    result = _wall(tmp_path, "R = 2 f", {"R": "MT/s", "f": "MHz"}, sentence, claim)
    assert result.status() == {"wall": "fail" if says else "pass"}, result.record.diagnostics
    if says is not None:
        [mismatch] = result.found("A401")
        assert says in mismatch.message


HEATING = """
## Science and assumptions

$$
\\Delta T=P R_{{th}}
$$

Symbols and units

P

Power dissipated

W

{sentence}
"""


def _heating(tmp_path: Path, stated: str, name: str, unit: str | None = None) -> Checked:
    """A plate's temperature rise ΔT = P R_th, with R_th (and so ΔT) given no unit: bound
    as `DeltaT`, or as `rise`, an expression whose name says it is a difference."""
    sentence = f"With P = 2 W and R\\_th = 5 the plate warms by a rise of {stated}."
    bound = name if unit is None else f"{{value: {name}, unit: {unit}}}"
    expressions = '\n      expressions: {rise: "\\\\Delta T"}' if name == "rise" else ""
    claims = f"""
claims:
  - id: heat
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [P, R_th, {bound}]
    params:
      values: {{P: 2, R_th: 5}}
      use: [{{equation: 0, relation: 0}}]{expressions}
"""
    return check(write_lesson(tmp_path, "heat", HEATING.format(sentence=sentence), claims))


@pytest.mark.parametrize("name", ["DeltaT", "rise"])
def test_the_advice_for_a_temperature_rise_gives_a_unit_of_intervals(
    tmp_path: Path, name: str
) -> None:
    """`{value: rise, unit: °C}` made the computed rise a temperature, so its 10 K read as
    10 °C and `50 °F` (the temperature 10 °C) verified: the advice is kelvin."""
    result = _heating(tmp_path, "10 °C", name)
    [warning] = result.found("A423")
    assert at(warning) == result.lesson_at("10 °C")
    assert f"{{value: {name}, unit: K}}" in warning.message
    assert "°C}" not in warning.message
    assert "is a difference of temperatures" in warning.message


@pytest.mark.parametrize("name", ["DeltaT", "rise"])
@pytest.mark.parametrize(
    ("stated", "status"), [("10 °C", "pass"), ("18 °F", "pass"), ("11 °C", "fail"),
                           ("50 °F", "fail"), ("283.15 K", "fail")],
)  # fmt: skip
def test_following_the_advice_verifies_the_rise_and_fails_an_edited_one(
    tmp_path: Path, name: str, stated: str, status: str
) -> None:
    """With the advised `unit: K` a rise of 10 K is 10 °C or 18 °F of rise; 11 °C is wrong,
    and so are 50 °F and 283.15 K, the temperature 10 °C rather than a rise of it."""
    result = _heating(tmp_path, stated, name, unit="K")
    assert result.status() == {"heat": status}, result.record.diagnostics
    assert not result.found("A423")
    if status == "fail":
        [mismatch] = result.found("A401")
        assert at(mismatch) == result.lesson_at(stated)
        assert f"{name}: the lesson says {stated}, computed 10 K" in mismatch.message
