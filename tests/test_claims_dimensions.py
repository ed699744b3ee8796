"""Dimensional checks of a lesson's relations from its own symbol table
(claims/coverage/dimensions.py).

A consistent relation, an inconsistent one (A420 error at the relation, both sides in the
lesson's units), a symbol without a unit (A422 note, relation `incomplete`), an unreadable
unit (A421 warning at the unit) and the per-lesson counts in the coverage.
"""

from __future__ import annotations

from pathlib import Path

from support import Checked, check, write_lesson, yaml_string

SENTENCE = "With I = 2 and R = 3 the drop is V = 6."


def _body(relation: str, unit_of_r: str = "Ω", extra: str = "") -> str:
    return f"""
## Science and assumptions

### Ohm

$$
{relation}
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

{unit_of_r}
{extra}
{SENTENCE}
"""


CLAIMS = f"""
claims:
  - id: ohm
    kind: formula
    quote: {yaml_string(SENTENCE)}
    bind: [I, R, V]
    params:
      values: {{I: 2, R: 3}}
      use: [{{equation: 0, relation: 0}}]
"""


def _lesson(tmp_path: Path, body: str) -> Checked:
    return check(write_lesson(tmp_path, "ohm", body, CLAIMS))


def _codes(result: Checked) -> list[str]:
    return [d.code for d in result.record.diagnostics if d.code.startswith("A42")]


def _dimensions(result: Checked) -> list[dict]:
    return [item.get("dimensions") for item in result.record.coverage["relations"]["items"]]


def test_a_consistent_relation(tmp_path: Path) -> None:
    result = _lesson(tmp_path, _body("V=I\\cdot R"))
    assert _codes(result) == []
    [dimensions] = _dimensions(result)
    assert dimensions["status"] == "consistent"
    assert result.record.coverage["dimensions"]["consistent"] == 1
    assert result.status() == {"ohm": "pass"}


def test_an_inconsistent_relation_fails_at_the_relation(tmp_path: Path) -> None:
    result = _lesson(tmp_path, _body("V=I+R"))
    [diagnostic] = [d for d in result.record.diagnostics if d.code == "A420"]
    assert diagnostic.severity.value == "error"
    assert "A" in diagnostic.message and "Ω" in diagnostic.message
    line = result.lesson_text.splitlines()[diagnostic.line - 1]
    assert "V=I+R" in line
    [dimensions] = _dimensions(result)
    assert dimensions["status"] == "inconsistent"
    assert result.record.coverage["verification"] == "failed"


def test_a_symbol_without_a_unit_is_noted_once_and_left_incomplete(tmp_path: Path) -> None:
    result = _lesson(tmp_path, _body("V=I\\cdot R\\cdot k"))
    assert _codes(result) == ["A422"]
    [note] = [d for d in result.record.diagnostics if d.code == "A422"]
    assert note.severity.value == "info" and "k" in note.message
    [dimensions] = _dimensions(result)
    assert dimensions["status"] == "incomplete"
    assert dimensions["unknown"] == ["k"]


def test_an_unreadable_unit_is_a_warning_at_the_unit(tmp_path: Path) -> None:
    """`kohms per meter`: `kohm` reads, its plural does not (did you mean kohm·s?)."""
    result = _lesson(tmp_path, _body("V=I\\cdot R", unit_of_r="kohms per meter"))
    [warning] = [d for d in result.record.diagnostics if d.code == "A421"]
    assert warning.severity.value == "warning" and "did you mean" in warning.message
    line = result.lesson_text.splitlines()[warning.line - 1]
    start = line.index("kohms")
    assert start < warning.column <= start + len("kohms per meter")
    [dimensions] = _dimensions(result)
    assert dimensions["status"] == "incomplete"


def test_a_unit_of_another_system_is_information_not_a_warning(tmp_path: Path) -> None:
    """`tons` (of refrigeration, an HVAC lesson's capacity) is a real unit the vocabulary
    does not hold: the lesson is right, so it is an A426 note, not an A421 warning, and the
    relation is still only partly checked. A unit written wrong stays an A421 (above)."""
    result = _lesson(tmp_path, _body("V=I\\cdot R", unit_of_r="tons"))
    codes = {d.code: d.severity.value for d in result.record.diagnostics}
    assert codes.get("A426") == "info" and "A421" not in codes
    [dimensions] = _dimensions(result)
    assert dimensions["status"] == "incomplete"


def test_a_prose_unit_is_converted_before_comparing(tmp_path: Path) -> None:
    body = _body("V=I\\cdot R").replace(SENTENCE, "With I = 2 and R = 3 the drop is V = 6000 mV.")
    claims = CLAIMS.replace(
        yaml_string(SENTENCE), yaml_string("With I = 2 and R = 3 the drop is V = 6000 mV.")
    )
    result = check(write_lesson(tmp_path, "ohm", body, claims))
    assert result.status() == {"ohm": "pass"}


def test_a_table_letter_matches_its_variant_in_the_equation(tmp_path: Path) -> None:
    """φ in the table is `phi`; the lesson writes `\\varphi`: the same symbol, so the unit
    applies (it used to leave the relation incomplete, with an A422 note)."""
    body = (
        _body("V=I\\cdot R")
        .replace("$$\nV=I\\cdot R\n$$", "$$\nV=I\\cdot R\n$$\n\n$$\n\\varphi=\\omega t\n$$")
        .replace("R\n\nResistance", "φ\n\nPhase\n\nrad\n\nω\n\nAngular frequency\n\nrad/s\n\n"
                 "t\n\nTime\n\ns\n\nR\n\nResistance")
    )  # fmt: skip
    result = _lesson(tmp_path, body)
    assert [d["status"] for d in _dimensions(result)] == ["consistent", "consistent"]
    assert "A422" not in _codes(result)


def test_a_symbol_given_two_units_is_a_warning_at_the_second(tmp_path: Path) -> None:
    """V in V and again in mV: the claims compute V in volts, so a reader of the second
    table would read the worked numbers off by a factor of 1000."""
    second = "\nSymbols and units\n\nV\n\nVoltage again\n\nmV\n"
    result = _lesson(tmp_path, _body("V=I\\cdot R", extra=second))
    [warning] = [d for d in result.record.diagnostics if d.code == "A424"]
    assert warning.severity.value == "warning"
    assert "claims compute it in 'V', not 'mV'" in warning.message
    assert result.lesson_text.splitlines()[warning.line - 1] == "mV"
    same = _lesson(tmp_path / "same", _body("V=I\\cdot R", extra=second.replace("mV", "V")))
    assert [d for d in same.record.diagnostics if d.code == "A424"] == []


BOUND = """
## Science and assumptions

$$
X_k=\\sum_{n=0}^{N-1} x_n e^{-2\\pi i k n/N}
$$

$$
\\gamma_k=\\frac{k u}{1-k u}
$$

$$
G_i=A_i\\land B_i,\\quad C_{i+1}=G_i\\lor(A_i\\land C_i),\\quad S_i=A_i\\oplus B_i
$$

$$
d_{km}=v t
$$

$$
P=w F
$$

Symbols and units

X

Spectrum of the samples

V

x

A sample

V

N

Number of samples

samples

γ

Relative error bound

dimensionless

u

Unit roundoff

dimensionless

A, B, C, G, S

Bits of the adder

dimensionless

v

Speed

km/h

t

Time

h

P

Power

W

F

Force

N

The transform has N = 8 samples.
"""


def test_a422_names_no_index_bound_variable_or_operator(tmp_path: Path) -> None:
    """A422 asked for units for the summation variable `n`, the bin index `k` (of `X_k`
    and of `γ_k`), the `i` of `e^{-2πikn/N}` and members `X_k`, `G_i` of families the
    table gives: none of them is a quantity without a unit. Operators (∧, ∨, ⊕) are never
    named. What still has no unit is: `w`, and `d_km` (a distance in km, not `d` indexed
    by k and m, which the table does not list)."""
    result = check(write_lesson(tmp_path, "bound", BOUND, "claims: []\n"))
    [note] = [d for d in result.record.diagnostics if d.code == "A422"]
    assert note.message == (
        "no unit in the symbol table for d_km, w: relations using them are only partly checked"
    )
    by_source = {item["source"]: item["dimensions"] for item in _items(result)}
    transform = by_source["X_k=\\sum_{n=0}^{N-1} x_n e^{-2\\pi i k n/N}"]
    assert transform["unknown"] == []
    assert "not checked through X_k, i, k, n" in transform["message"]
    assert by_source["d_{km}=v t"]["unknown"] == ["d_km"]
    assert by_source["P=w F"]["unknown"] == ["w"]


def _items(result: Checked) -> list[dict]:
    return result.record.coverage["relations"]["items"]


def _circle(meaning: str) -> str:
    return f"""
## Science and assumptions

### Area of a disc

$$
A=\\frac{{\\pi d^{{2}}}}{{4}}
$$

Symbols and units

A

Disc area

mm²

d

Diameter

mm

π

{meaning}

dimensionless

## Engineering example

A d = 2 mm disc has A ≈ 3.14 mm².
"""


def test_a_glossary_entry_explaining_pi_leaves_it_the_constant(authored) -> None:
    """`π: Circle constant` explains the constant: `πd²/4` keeps π's value and is verified
    by the example; π as a prevalence would be a symbol the prose must state."""
    record = authored(_circle("Circle constant"))
    assert record.coverage["relations"]["verified"] == 1
    assert record.coverage["relations"]["items"][0]["dimensions"]["status"] == "consistent"
    record = authored(_circle("Prevalence of the condition"))
    assert record.coverage["relations"]["verified"] == 0


MAGNUS = r"""
## Science and assumptions

### Saturation vapour pressure

$$
e_s=c\,\exp\!\left(\frac{a\,T}{b+T}\right)
$$

Symbols and units

e\_s

Saturation vapour pressure

hPa

T

Air temperature

°C

a

Magnus coefficient

dimensionless

b

@

°C

c

Saturation vapour pressure at 0 °C

hPa

## Engineering example

At T = 20 °C, with a = 17.62, b = 243.12 °C and c = 6.112 hPa, e\_s ≈ 23.33 hPa.
"""


def _magnus(meaning: str) -> str:
    return MAGNUS.replace("@", meaning)


def test_an_empirical_form_fitted_on_the_celsius_scale_is_no_error(authored) -> None:
    """The Magnus form adds and multiplies temperatures in °C on purpose: its coefficient b
    is fitted in °C (a false A420 in a dew-point lesson), and the relation holds at the
    example in the table's units. Where b is no coefficient, °C multiplied is an error."""
    record = authored(_magnus("Magnus temperature coefficient"))
    codes = [d.code for d in record.diagnostics if d.severity.value == "error"]
    assert codes == []
    [item] = record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "fitted" in item["dimensions"]["message"]
    assert item["status"] == "verified"
    plain = authored(_magnus("Offset temperature"))
    assert "A420" in [d.code for d in plain.diagnostics]


RTD = r"""
## Science and assumptions

### Callendar–Van Dusen

$$
R=R_0\left[1+AT+BT^2\right]
$$

Symbols and units

R(T),R\_0,A,B,T

Element resistance, its 0 °C value, @ and temperature

Ω, Ω, 1/°C, 1/°C², °C

## Engineering example

At T = 100 °C, with R\_0 = 100 Ω, A = 3.9083 × 10⁻³ and B = −5.775 × 10⁻⁷, R ≈ 138.51 Ω.
"""


def test_a_polynomial_fitted_in_celsius_is_no_error(authored) -> None:
    """An RTD's Callendar–Van Dusen curve `R₀(1 + AT + BT²)` multiplies T in °C on
    purpose: A and B are coefficients per °C (a false A420 in an RTD lesson, whose one
    table entry lists five symbols with no spaces). Where A and B are no coefficients,
    multiplying a °C temperature is still an error."""
    record = authored(RTD.replace("@", "curve coefficients"))
    assert [d.code for d in record.diagnostics if d.severity.value == "error"] == []
    [item] = record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "A420" in [d.code for d in authored(RTD.replace("@", "slopes"), slug="b").diagnostics]


SWING = r"""
## Science and assumptions

### Drain current

$$
I_D=I_T\,10^{-V/S}
$$

Symbols and units

I\_D

Drain current

@

I\_T

Current at threshold

A/µm

V

Gate voltage below threshold

V

S

Swing

V

### Off current

$$
I_{\mathrm{off}}=I_D
$$

Symbols and units

I\_off

Off current

A/µm

I\_D

Drain current

A/µm
"""


def test_a_symbol_with_two_units_makes_its_dimensions_uncertain(authored) -> None:
    """A subthreshold lesson gave I_D as `A (often per width, A/µm)` in one table and A/µm
    in the next: the remark excuses the A424, but a relation read with the first unit had a
    false A420. A symbol two tables give two sizes is no certain disagreement; one unit for
    I_D throughout, and the disagreement is an error."""
    record = authored(SWING.replace("@", "A (often per width, A/µm)"))
    assert [d.code for d in record.diagnostics if d.severity.value != "info"] == []
    statuses = [i["dimensions"]["status"] for i in record.coverage["relations"]["items"]]
    assert statuses == ["not checked", "not checked"]
    head, _, tail = SWING.replace("@", "A").rpartition("A/µm")
    plain = authored(head + "A" + tail, slug="b")
    assert "A420" in [d.code for d in plain.diagnostics]


LED = r"""
## Science and assumptions

### Forward voltage as a thermometer

$$
T_J=T_{\mathrm{cal}}+\frac{V_{F,s}(T_J)-V_{F,s}(T_{\mathrm{cal}})}{n_s\,K_V}
$$

Symbols and units

T\_J

Junction temperature

°C

T\_cal

Calibration temperature

°C

V\_F,s

Forward voltage of the string at the sense current

V

n\_s

Dies in series

count

K\_V

Forward-voltage temperature coefficient of one die

V/K
"""


def test_a_celsius_temperature_as_a_functions_argument_is_no_certain_error(authored) -> None:
    """`V_{F}(T_J)` is the forward voltage at T_J, a function the table names without its
    argument; read as V_F × T_J it multiplied a °C temperature, a false A420 in an LED
    lesson. A °C temperature multiplied outside such a call is still an error."""
    record = authored(LED)
    assert "A420" not in [d.code for d in record.diagnostics]
    [item] = record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] != "inconsistent"
    called = r"\frac{V_{F,s}(T_J)-V_{F,s}(T_{\mathrm{cal}})}{n_s\,K_V}"
    product = LED.replace(called, r"T_J\,T_{\mathrm{cal}}")
    assert "A420" in [d.code for d in authored(product, slug="b").diagnostics]


GAIN = r"""
## Science and assumptions

### Gain of a loaded stage

$$
A_v=-g_m\left(r_o\parallel R_L\right)
$$

Symbols and units

A\_v

Voltage gain

dimensionless

g\_m

Transconductance

S

r\_o

Output resistance

Ω

R\_L

Load resistance

Ω
"""


def test_a_symbol_before_a_bracket_read_as_a_function_is_no_certain_error(authored) -> None:
    """`A_v = -g_m\\left(r_{on}\\parallel r_{op}\\parallel R_L\\right)` (a BJT lesson) is g_m
    times the parallel resistance; the parser applies g_m to it as a function, so the right
    side came out in S, a false A420. The relation is not checked, and not used to infer."""
    record = authored(GAIN)
    assert "A420" not in [d.code for d in record.diagnostics]
    [item] = record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "g_m written before a bracket" in item["dimensions"]["message"]
