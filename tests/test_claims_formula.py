"""The `formula` kind on lessons of other subjects: worked examples computed from the
lesson's own equations (claims/kinds/formula.py, _exact.py, _values.py).

Vectors with inferred index ranges and sums over them (layer normalization), element-wise
results bound to quoted lists, powers on the left (`\\sigma^2`), recurrences from base
cases (an Adam step), values written as numerals or LaTeX, closed-form sums, and the
messages a user gets for a wrong parameter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import Checked, check, position, write_lesson, yaml_string

LAYER_NORM = """
## Science and assumptions

### Normalizing one vector

$$
\\mu=\\frac{1}{n}\\sum_{i=1}^{n}x_i,\\qquad
\\sigma^2=\\frac{1}{n}\\sum_{i=1}^{n}\\left(x_i-\\mu\\right)^2
$$

$$
\\hat{x}_i=\\frac{x_i-\\mu}{\\sqrt{\\sigma^2+\\epsilon}},\\qquad y_i=\\gamma\\hat{x}_i+\\beta
$$

{sentence}
"""
SENTENCE = (
    "For x = \\[1,2,4,9\\] the mean is μ = {mu}, the variance is σ² = {var} and the "
    "normalized vector to two decimals is \\[{xhat}\\]."
)


def layer_norm(
    mu: str = "4", var: str = "9.5", xhat: str = "−0.97,−0.65,0.00,1.62"
) -> tuple[str, str]:
    sentence = SENTENCE.format(mu=mu, var=var, xhat=xhat)
    claims = f"""
claims:
  - id: normalize
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [x, mu, sigma_squared, x_hat]
    params:
      values: {{x: [1, 2, 4, 9], gamma: 1, beta: 0, epsilon: "10^{{-5}}"}}
      equations: [0, 1]
"""
    return LAYER_NORM.replace("{sentence}", sentence), claims


def _check(tmp_path: Path, body: str, claims: str) -> Checked:
    return check(write_lesson(tmp_path, "probe", body, claims))


def test_vectors_sums_and_elementwise_results(tmp_path: Path) -> None:
    result = _check(tmp_path, *layer_norm())
    assert result.status() == {"normalize": "pass"}, result.record.claims
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses == ["verified", "verified", "verified", "defined"]  # y_i: nothing bound
    values = {v["name"]: v["computed"] for v in result.claim("normalize")["values"]}
    assert values["mu"] == "4" and values["sigma_squared"] == "19/2 = 9.5"


@pytest.mark.parametrize(
    ("edit", "name"),
    [
        ({"mu": "5"}, "mu"),
        ({"var": "9"}, "sigma_squared"),
        ({"xhat": "−0.97,−0.65,0.01,1.62"}, "x_hat"),
    ],
)
def test_a_wrong_worked_number_fails_at_it(tmp_path: Path, edit: dict[str, str], name: str) -> None:
    result = _check(tmp_path, *layer_norm(**edit))
    assert result.status() == {"normalize": "fail"}
    [mismatch] = result.found("A401")
    assert mismatch.message.startswith(f"claim normalize: {name}: the lesson says")


def test_editing_the_equation_moves_the_numbers(tmp_path: Path) -> None:
    body, claims = layer_norm()
    result = _check(
        tmp_path, body.replace("\\left(x_i-\\mu\\right)^2", "\\left(x_i+\\mu\\right)^2"), claims
    )
    assert result.status() == {"normalize": "fail"}
    assert any("sigma_squared" in d.message for d in result.found("A401"))


ADAM = """
## Science and assumptions

### One parameter, two steps

$$
m_t=\\beta_1 m_{t-1}+(1-\\beta_1)g_t,\\qquad \\hat{m}_t=\\frac{m_t}{1-\\beta_1^t}
$$

{sentence}
"""
ADAM_SENTENCE = (
    "With gradients g = \\[0.5,0.3\\] the first moments are m₁ = {m1} and m₂ = 0.075, and "
    "the corrected m̂₂ = {hat} to three decimals."
)


def adam(m1: str = "0.05", hat: str = "0.395") -> tuple[str, str]:
    sentence = ADAM_SENTENCE.format(m1=m1, hat=hat)
    claims = f"""
claims:
  - id: step
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [g, "m[1]", "m[2]", "m_hat[2]"]
    params:
      values: {{g: [0.5, 0.3], "\\\\beta_1": 0.9, m_0: 0}}
      equations: [0]
      steps: {{t: [1, 2]}}
"""
    return ADAM.replace("{sentence}", sentence), claims


def test_recurrences_evaluate_step_by_step(tmp_path: Path) -> None:
    result = _check(tmp_path, *adam())
    assert result.status() == {"step": "pass"}, result.record.claims
    # m1 = 0.1*0.5 = 0.05, m2 = 0.9*0.05 + 0.1*0.3 = 0.075, m̂2 = 0.075/(1 - 0.81) = 0.3947
    values = {v["name"]: (v["quoted"], v["computed"]) for v in result.claim("step")["values"]}
    assert values["m[1]"] == ("0.05", "1/20 = 0.05")
    assert values["m_hat[2]"] == ("0.395", "15/38 = 0.394737")
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses == ["verified", "verified"]


def test_recurrence_mistake_is_caught(tmp_path: Path) -> None:
    result = _check(tmp_path, *adam(m1="0.5"))
    assert result.status() == {"step": "fail"}


def test_a_flipped_sign_fails_at_the_relation(tmp_path: Path) -> None:
    """m_t = β m_{t−1} − (1 − β) g_t: every number computed from it is wrong, so the failure
    is reported where the relation is written, not only at the numbers."""
    body, claims = adam()
    flipped = body.replace("m_{t-1}+(1-\\beta_1)g_t", "m_{t-1}-(1-\\beta_1)g_t")
    result = _check(tmp_path, flipped, claims)
    text = (result.folder / "lesson.md").read_text("utf-8")
    [relation] = [d for d in result.found("A403") if "disagree with the lesson" in d.message]
    assert (relation.line, relation.column) == position(text, "m_t=\\beta_1")
    assert "m[1] = -1/20 = -0.05 where the lesson says 0.05" in relation.message
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses[0] == "failed"


def test_a_wrong_number_alone_does_not_blame_its_relation(tmp_path: Path) -> None:
    result = _check(tmp_path, *adam(m1="0.06"))  # m2 and m̂2 still match: the relation holds
    assert not [d for d in result.found("A403") if "disagree with the lesson" in d.message]
    assert [r["status"] for r in result.record.coverage["relations"]["items"]] == ["verified"] * 2


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ("{values: {x: {a: 1}}, equations: [0, 1]}", "`values.x` must be "),
        ("{values: {x: [1, 2]}, equation: [0]}", "`equation` is not a parameter of kind formula"),
        ("{values: {x: [1, 2]}, equations: 0}", "`equations` must be a list"),
        (
            "{values: {x: [1, 2], epsilon: 'ten'}, equations: [0, 1]}",
            "values.epsilon: 'ten' is not a number",
        ),
        ("{values: {x: [1, 2], epsilon: .nan}, equations: [0, 1]}", "finite"),
        (
            "{values: {x: [1, 2], epsilon: '2000 ms'}, equations: [0, 1]}",
            "values.epsilon: '2000 ms' carries a unit (ms)",
        ),
        ("{values: {x: [1, 2], epsilon: '5%'}, equations: [0, 1]}", "5% as 0.05"),
        (
            "{values: {x: [1, 2], mu: 3, epsilon: 0}, equations: [0, 1]}",
            "values.mu: mu is what equation 0 relation 0",
        ),
    ],
)
def test_wrong_parameters_get_plain_messages_at_the_parameter(
    tmp_path: Path, params: str, says: str
) -> None:
    body, _ = layer_norm()
    claims = f"claims:\n  - id: normalize\n    kind: formula\n    params: {params}\n"
    result = _check(tmp_path, body, claims)
    [problem] = [d for d in result.errors() if d.code in ("A404", "A400")][:1]
    assert says in problem.message, problem.message
    assert "Input should" not in problem.message and "pydantic" not in problem.message
    assert problem.path.endswith("claims.yaml") and problem.line == 4


CHARGING = """
## Science and assumptions

### Charging a capacitor

$$
v(t)=V_s\\left(1-e^{-t/\\tau}\\right),\\qquad E(t)=\\frac{1}{2}C\\,v(t)^2
$$

{sentence}
"""


def charging(at_tau: str = "3.16", at_two: str = "4.32", energy: str = "9.3") -> tuple[str, str]:
    sentence = (
        f"With V_s = 5, τ = 2 and C = 1, the voltage at t = 2 is v = {at_tau}, "
        f"v(2τ) = {at_two} and the stored energy E(2τ) is about {energy}."
    )
    claims = f"""
claims:
  - id: charge
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [V_s, tau, C, t, v, null, v_twice, null, E_twice]
    params:
      values: {{V_s: 5, tau: 2, C: 1, t: 2}}
      equations: [0]
      expressions: {{v_twice: "v(2\\\\tau)", E_twice: "E(2\\\\tau)"}}
"""
    return CHARGING.replace("{sentence}", sentence), claims


def test_function_style_definitions_are_evaluated_where_called(tmp_path: Path) -> None:
    """`v(t) = ...` defines v: `v(2τ)` (and `v(t)` inside E) evaluate its body at the
    argument, and `v` is a quantity at the stated t."""
    result = _check(tmp_path, *charging())
    assert result.status() == {"charge": "pass"}, result.record.claims
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses == ["verified", "verified"]  # the numbers computed through each one
    values = {v["name"]: v["computed"] for v in result.claim("charge")["values"]}
    assert values["v"] == "5 - 5*exp(-1) ≈ 3.1606"
    assert values["v_twice"] == "5 - 5*exp(-2) ≈ 4.32332"
    assert values["E_twice"] == "(5 - 5*exp(-2))**2/2 ≈ 9.34556"


@pytest.mark.parametrize(
    ("edit", "name"), [({"at_tau": "3.12"}, "v"), ({"at_two": "4.38"}, "v_twice")]
)
def test_a_wrong_function_value_fails_at_it(
    tmp_path: Path, edit: dict[str, str], name: str
) -> None:
    result = _check(tmp_path, *charging(**edit))
    assert result.status() == {"charge": "fail"}
    [mismatch] = result.found("A401")
    assert mismatch.message.startswith(f"claim charge: {name}: the lesson says")


@pytest.mark.parametrize(
    ("equation", "says"),
    [
        ("v(t)=v(t)+1", "more than 32 nested function calls"),
        ("v(t)=t,\\qquad w=v(1, 2)", "v is defined with 1 argument(s)"),
    ],
)
def test_bad_function_definitions_are_located_errors(
    tmp_path: Path, equation: str, says: str
) -> None:
    body = f"## Science and assumptions\n\n$$\n{equation}\n$$\n\nAt t = 1 the value is 1.\n"
    claims = """
claims:
  - id: bad
    kind: formula
    quote: "At t = 1 the value is 1."
    bind: [t, v]
    params: {values: {t: 1}, equations: [0], expressions: {w2: "v(1, 2)"}}
"""
    result = _check(tmp_path, body, claims)
    assert result.status() == {"bad": "error"}
    [problem] = result.errors()
    assert says in problem.message


def test_a_bare_multi_letter_subscript_is_explained(tmp_path: Path) -> None:
    """`V_sx` is V_s times x: "no value for x" alone sent an author looking elsewhere."""
    body, claims = charging()
    claims = claims.replace('v_twice: "v(2\\\\tau)"', 'v_twice: "V_sx"')
    result = _check(tmp_path, body, claims)
    [problem] = [d for d in result.errors() if d.code == "A404"]
    assert "no value for x" in problem.message
    assert "`V_sx` reads as V_s·x" in problem.message and "write `V_{sx}`" in problem.message


def test_a_long_exact_value_is_shown_by_its_decimal() -> None:
    import sympy

    from atlas_build.claims.binding.compare import show

    long = -sympy.Rational(1, 10**14) + sympy.exp(sympy.Rational(1869206073, 69032450)) / 10**14
    assert show(long) == "≈ 0.00574755"
    assert show(5000 / sympy.pi) == "5000/pi ≈ 1591.55"  # short exact forms stay
    assert show(sympy.Rational(1, 4)) == "1/4 = 0.25"
    assert show(sympy.Integer(10) ** 999) == "≈ 1e+999"  # `1e999` in values: no 1000 digits
    assert show(sympy.Integer(2) ** 64) == "18446744073709551616"


APPROX = """
## Science and assumptions

$$
d=v t
$$

$$
d\\approx {stated}\\,\\mathrm{{mm}}
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s

A worked distance.
"""


WALK = """
claims:
  - id: walk
    kind: formula
    params:
      values: {v: 0.0029, t: 2}
      use: [{equation: 0, relation: 0}]
      identities: [{equation: 1, relation: 0}]
"""


@pytest.mark.parametrize(("stated", "holds"), [("6", True), ("5.8", True), ("5.7", False),
                                                ("10", False)])  # fmt: skip
def test_an_approximate_identity_allows_its_written_precision_not_a_fixed_floor(
    tmp_path: Path, stated: str, holds: bool
) -> None:
    """d = 5.8 mm: `≈ 6 mm` holds (half a millimetre), `≈ 10 mm` does not; before, 0.005 of
    an SI metre let any millimetre value pass."""
    body = APPROX.replace("{stated}", stated).replace("{{mm}}", "{mm}")
    result = _check(tmp_path, body, WALK)
    [check] = [c for c in result.claim("walk")["checks"] if c["name"] == "identity-1-0"]
    assert check["ok"] is holds, check["message"]


def test_a_division_by_zero_is_said_plainly_at_the_relation(tmp_path: Path) -> None:
    """x = [2, 2] with ε = 0 makes σ² zero and x̂ 0/0: a located A404 in words, never
    SymPy's `zoo` or `nan` in a comparison."""
    body, claims = layer_norm()
    claims = claims.replace("x: [1, 2, 4, 9]", "x: [2, 2]").replace(
        'epsilon: "10^{-5}"', "epsilon: 0"
    )
    result = _check(tmp_path, body, claims)
    [problem] = [d for d in result.errors() if d.code == "A404"]
    assert "is undefined at the stated values" in problem.message
    assert "\\hat{x}_i" in problem.message and problem.path.endswith("lesson.md")
    assert "zoo" not in problem.message and "nan" not in problem.message.lower()


def test_a_failed_check_inherited_through_extends_is_told_once(tmp_path: Path) -> None:
    body = APPROX.replace("{stated}", "10").replace("{{mm}}", "{mm}")
    again = "  - id: walk-again\n    kind: formula\n    extends: walk\n"
    result = _check(tmp_path, body, WALK + again)
    assert result.status() == {"walk": "fail", "walk-again": "fail"}
    [told] = [d for d in result.errors() if "identity-1-0" in d.message]
    assert "claim walk:" in told.message
    assert "fails claim 'walk'" in result.claim("walk-again")["message"]


AMPLIFIER = """
## Science and assumptions

$$
{gain}
$$

$$
G_{\\mathrm{dB}}=20\\log_{10} G
$$

With R\\_g = 1 and R\\_f = 9 the gain is G = 10, or G\\_dB = 20.

A decibel gain is 20 times the common logarithm of the voltage gain.
"""
AMPLIFIER_CLAIMS = """
claims:
  - id: design
    kind: formula
    quote: "With R\\\\_g = 1 and R\\\\_f = 9 the gain is G = 10, or G\\\\_dB = 20."
    bind: [R_g, R_f, G, G_dB]
    params:
      values: {R_f: 9, R_g: 1}
      equations: [0, 1]
      expressions:
        factor: "\\\\frac{G_{\\\\mathrm{dB}}}{\\\\log_{10} G}"
  - id: factor
    kind: formula
    extends: design
    quote: "A decibel gain is 20 times the common logarithm of the voltage gain."
    bind: [factor]
"""


def test_a_number_that_no_relation_moves_is_no_evidence_for_it(tmp_path: Path) -> None:
    """`G_dB / log10 G` is 20 whatever G is: it matching the lesson's "20 times" does not
    make a wrong `G = R_f/R_g` verified, and the A403 falls on that relation."""
    right = _check(tmp_path / "right", AMPLIFIER.replace("{gain}", "G=1+\\frac{R_f}{R_g}"),
                   AMPLIFIER_CLAIMS)  # fmt: skip
    assert right.errors() == []
    body = AMPLIFIER.replace("{gain}", "G=\\frac{R_f}{R_g}")
    result = _check(tmp_path / "wrong", body, AMPLIFIER_CLAIMS)
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses[0] == "failed" and statuses[1] == "verified"
    [blamed] = [d for d in result.found("A403") if "disagree with the lesson" in d.message]
    assert "G=\\frac{R_f}{R_g}" in blamed.message


def test_quantities_computed_through_an_unread_table_unit_are_named() -> None:
    """`E = P t`, `W = E/2` and `F = t` with P's table unit unread: E and W went through P
    (W by way of E), F did not; a recurrence (`m` reads itself) ends."""
    from atlas_build.claims.kinds import _unread

    direct = {"E": {"P", "t"}, "W": {"E"}, "F": {"t"}, "m": {"m", "P"}}
    assert _unread.through(direct, {"P": "mw"}) == {"E": ["P"], "W": ["P"], "m": ["P"]}
    assert _unread.through(direct, {}) == {}
