"""Dimensional consistency of SymPy relations from several subjects."""

from __future__ import annotations

import pytest
import sympy as sp

from atlas_build.units import (
    AFFINE,
    ARGUMENT,
    EXPONENT,
    RELATION,
    SCALE,
    TERMS,
    UNCERTAIN,
    UNKNOWN,
    Finding,
    UnitSpec,
    check,
    counted_from_zero,
    dimension_of,
    errors,
    parse_unit,
    side_ratio,
    unit_of,
    units_from_glossary,
    unknowns,
    zero_mismatch,
)


def units(*pairs: tuple[str, str]) -> dict[str, UnitSpec]:
    built = units_from_glossary(pairs)
    assert not built.problems, built.problems
    return built.units


def kinds(findings: list[Finding]) -> list[str]:
    return [finding.kind for finding in findings]


DEVICE = units(
    ("V_T", "V"),
    ("V_bi", "V"),
    ("k_B", "J/K"),
    ("T", "K"),
    ("q", "C"),
    ("N_A", "cm⁻³"),
    ("N_D", "cm⁻³"),
    ("n_i", "cm⁻³"),
    ("J", "A/cm²"),
    ("n", "cm⁻³"),
    ("μ", "cm²/(V·s)"),
    ("E", "V/cm"),
)
V_T, V_bi, k_B, T, q = sp.symbols("V_T V_bi k_B T q")
N_A, N_D, n_i, J, n, mu, E = sp.symbols("N_A N_D n_i J n mu E")
THERMAL = k_B * T / q


def test_thermal_voltage_is_consistent() -> None:
    assert check(V_T, THERMAL, "=", DEVICE) == []
    assert dimension_of(THERMAL, DEVICE) == dimension_of(V_T, DEVICE)
    thermal = unit_of(THERMAL, DEVICE)
    assert thermal is not None and thermal.format() == "J/C"


def test_built_in_potential_is_consistent() -> None:
    assert check(V_bi, THERMAL * sp.log(N_A * N_D / n_i**2), "=", DEVICE) == []


def test_drift_current_density_is_consistent() -> None:
    assert check(J, q * n * mu * E, "=", DEVICE) == []


def test_dropping_the_charge_is_reported_in_the_lessons_units() -> None:
    (finding,) = check(V_T, k_B * T, "=", DEVICE)
    assert finding.kind == RELATION
    assert finding.message == "left side V, right side J"
    (finding,) = check(V_T, k_B / q, "=", DEVICE)
    assert finding.message == "left side V, right side J/(K·C)"
    assert (finding.left, finding.right) == ("V", "J/(K·C)")


def test_logarithm_of_a_dimensioned_ratio_is_reported_at_the_argument() -> None:
    (finding,) = check(V_bi, THERMAL * sp.log(N_A * N_D / n_i), "=", DEVICE)
    assert finding.kind == ARGUMENT
    assert finding.expr == N_A * N_D / n_i
    assert finding.side == "rhs"
    assert "argument of log must be dimensionless; it is 1/cm³" in finding.message


def test_a_level_in_decibels_of_a_dimensioned_quantity_is_not_certain() -> None:
    """`S = −174 + 10 log₁₀ B + NF` (B in Hz) is how link budgets are written: the level of
    B in its table unit. Not an error; the same logarithm outside 10·log₁₀ still is."""
    table = units(("S", "dBm"), ("B", "Hz"), ("NF", "dB"))
    S, B, NF = sp.symbols("S B NF")
    (finding,) = check(S, -174 + 10 * sp.log(B, 10) + NF, "=", table)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert "a level in decibels" in finding.message
    assert kinds(check(S, sp.log(B) + NF, "=", table)) == [ARGUMENT]


def test_a_quantity_equal_to_its_level_is_not_certain() -> None:
    """`kT_0 ≈ −174 dBm/Hz` (a radar lesson): the noise density in joules, stated as its level
    in dBm per hertz. Not an error (it was a false A420); two levels still compare."""
    from atlas_build.latex import parse_equation

    table = units(("k", "J/K"), ("T_0", "K"), ("P", "W"))
    [density] = parse_equation(r"kT_0\approx-174\ \mathrm{dBm/Hz}", symbols=["k", "T_0"]).relations
    (finding,) = check(density.lhs, density.rhs, density.op, table)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert "a level (a logarithm)" in finding.message
    [linear] = parse_equation(r"P=2\ \mathrm{W/Hz}", symbols=["P"]).relations
    assert kinds(check(linear.lhs, linear.rhs, linear.op, table)) == [RELATION]


def test_levels_added_in_decibels_are_no_sum_of_two_dimensions() -> None:
    """`N_th = −174 dBm/Hz + NF + 10 log₁₀ B` (a phase-noise lesson): the level of a
    density plus a level in dB is how noise floors are written, not dBm/Hz plus dB (a
    false A420). Two linear quantities of two dimensions still differ."""
    from atlas_build.latex import parse_equation

    table = units(("N_th", "dBm"), ("NF", "dB"), ("B", "Hz"), ("P", "W"), ("E", "J"))
    written = r"N_{\mathrm{th}}=-174\ \mathrm{dBm/Hz}+\mathrm{NF}+10\log_{10}B"
    [floor] = parse_equation(written, symbols=["N_th", "NF", "B"]).relations
    findings = check(floor.lhs, floor.rhs, floor.op, table)
    assert findings and not any(finding.is_error for finding in findings), findings
    P, E = sp.symbols("P E")
    assert TERMS in kinds(check(P, P + E, "=", table))


def test_a_unit_written_per_a_count_of_another_may_be_scaled_by_that_count() -> None:
    """`IL = ℓ/(100 m)·(k₁√f + …)` with k₁ in `dB per 100 m per √MHz` (a cabling lesson's
    false A420): the loss of each 100 m, times how many there are. The sides differ by one
    metre only then; another difference still is an error."""
    from atlas_build.latex import parse_equation

    table = units(("IL", "dB"), ("ell", "m"), ("k_1", "dB per 100 m per √MHz"), ("f", "MHz"))
    written = r"\mathrm{IL}=\frac{\ell}{100\ \mathrm{m}}\,k_1\sqrt{f}"
    [loss] = parse_equation(written, symbols=["IL", "ell", "k_1", "f"]).relations
    findings = check(loss.lhs, loss.rhs, loss.op, table)
    assert findings and not any(finding.is_error for finding in findings), findings
    plain = units(("IL", "dB"), ("ell", "m"), ("k_1", "dB/m/√MHz"), ("f", "MHz"))
    assert RELATION in kinds(check(loss.lhs, loss.rhs, loss.op, plain))


def test_one_plus_a_rate_per_year_is_a_years_growth() -> None:
    """`N = −ln(1 − rC/S)/ln(1 + r)` with r in 1/year (an insulation-payback lesson's false
    A420): 1 + r is one year's growth, the year left unwritten. 1 + a length still is not."""
    table = units(("N", "years"), ("r", "1/year"), ("C", "EUR"), ("S", "EUR/year"), ("L", "m"))
    N, r, C, S, L = sp.symbols("N r C S L")
    findings = check(N, -sp.log(1 - r * C / S) / sp.log(1 + r), "=", table)
    assert not any(finding.is_error for finding in findings), findings
    assert any(finding.is_error for finding in check(N, sp.log(1 + L), "=", table))


CIRCUIT = units(
    ("τ", "s"),
    ("R", "Ω"),
    ("C", "F"),
    ("P", "W"),
    ("α", "dimensionless"),
    ("V", "V"),
    ("f", "GHz"),
    ("I", "A"),
    ("Q", "C"),
    ("t", "ns"),
)
tau, R, C, P, alpha, V, f, I_, Q, t = sp.symbols("tau R C P alpha V f I Q t")


def test_rc_time_constant_and_dynamic_power() -> None:
    assert check(tau, R * C, "=", CIRCUIT) == []
    assert check(P, alpha * C * V**2 * f, "=", CIRCUIT) == []
    (finding,) = check(P, alpha * C * V * f, "=", CIRCUIT)
    assert finding.message == "left side W, right side F·V·GHz"


def test_derivative_divides_by_its_variable() -> None:
    assert check(I_, sp.Derivative(Q, t), "=", CIRCUIT) == []
    assert check(V, sp.Derivative(Q, t) * R, "=", CIRCUIT) == []
    assert check(I_, sp.Derivative(Q, (t, 2)), "=", CIRCUIT)[0].kind == RELATION


def test_integral_multiplies_by_its_variable() -> None:
    assert check(Q, sp.Integral(I_, (t, 0, tau)), "=", CIRCUIT) == []


def test_a_sum_with_a_foreign_term_names_the_term_and_its_side() -> None:
    rhs = R * C + V
    (finding,) = check(tau, rhs, "=", CIRCUIT)
    assert finding.kind == TERMS
    assert finding.expr == V  # the term that disagrees with the other side
    assert finding.side == "rhs"
    assert finding.term == V
    assert finding.term_index == list(sp.Add.make_args(rhs)).index(V)
    assert finding.message == "terms of a sum differ: V is V, C*R is F·Ω"


def test_the_majority_of_terms_sets_the_reference() -> None:
    findings = check(tau, R * C + tau + t + V, "=", CIRCUIT)
    assert kinds(findings) == [TERMS]
    assert findings[0].expr == V


def test_nested_findings_keep_the_direct_term_of_their_side() -> None:
    rhs = tau + tau * sp.exp(V)
    (finding,) = check(tau, rhs, "=", CIRCUIT)
    assert finding.kind == ARGUMENT
    assert finding.expr == V
    assert finding.term == tau * sp.exp(V)


ROOFLINE = units(("P", "TFLOP/s"), ("π", "TFLOP/s"), ("I", "FLOPs/byte"), ("β", "TB/s"))
pi_, beta = sp.Symbol("pi"), sp.Symbol("beta")


def test_roofline_min_keeps_its_arguments_dimension() -> None:
    assert check(P, sp.Min(pi_, I_ * beta), "=", ROOFLINE) == []
    (finding,) = check(P, sp.Min(pi_, I_), "=", ROOFLINE)
    assert finding.kind == TERMS
    assert "arguments of Min differ" in finding.message


def cache_pairs() -> tuple[tuple[str, str], ...]:
    return (
        ("B_tok", "bytes per token"),
        ("B_total", "bytes"),
        ("L", "count"),
        ("H_kv", "count"),
        ("d_h", "elements per token"),
        ("b", "bytes per element"),
        ("T", "tokens"),
        ("N", "count"),
    )


def test_kv_cache_bytes() -> None:
    cache = units(*cache_pairs())
    b_tok, b_total, layers, heads, d_h, b, tokens, batch = sp.symbols(
        "B_tok B_total L H_kv d_h b T N"
    )
    per_token = 2 * layers * heads * d_h * b
    assert check(b_tok, per_token, "=", cache) == []
    assert check(b_total, b_tok * tokens * batch, "=", cache) == []
    # tokens are counted, so bytes per token and bytes share a dimension; a rate does not
    assert check(b_total, per_token, "=", cache) == []
    (finding,) = check(
        b_total, per_token / sp.Symbol("t_s"), "=", units(*cache_pairs(), ("t_s", "s"))
    )
    assert finding.message == "left side bytes, right side bytes/(token·s)"


Q_, K_, A_ = (sp.Symbol(name, commutative=False) for name in "QKA")
d_k = sp.Symbol("d_k")
softmax_rows = sp.Function("softmax_rows")


def transposed(x: sp.Expr) -> sp.Expr:
    from atlas_build.latex.functions import Transposed

    return Transposed(x)


def test_attention_weights_are_dimensionless_whatever_q_and_k_are() -> None:
    lesson = units(
        ("Q", "real T_q × d_k array"),
        ("K", "real T_k × d_k array"),
        ("A", "dimensionless T_q × T_k array"),
        ("d_k", "coordinates"),
    )
    findings = check(A_, softmax_rows(Q_ * K_ / sp.sqrt(d_k)), "=", lesson)
    assert errors(findings) == []
    assert [str(finding.expr) for finding in unknowns(findings)] == ["Q", "K"]
    assert "not specified (real T_q × d_k array)" in findings[0].message


def test_softmax_of_a_descriptive_score_is_not_certain() -> None:
    """`value units` leaves the unit open (it may be a pure number), so softmax of value²
    is not checked, with that reason; softmax of volts is an argument error."""
    lesson = units(
        ("Q", "value units"), ("K", "value units"), ("A", "dimensionless"), ("d_k", "count")
    )
    pytest.importorskip("atlas_build.latex.functions")
    arg = Q_ * transposed(K_) / sp.sqrt(d_k)
    (finding,) = check(A_, softmax_rows(arg), "=", lesson)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert "it is value units²; value units describe a unit the lesson leaves open" in (
        finding.message
    )
    physical = {**lesson, "Q": parse_spec("V"), "K": parse_spec("V")}
    (finding,) = check(A_, softmax_rows(arg), "=", physical)
    assert finding.kind == ARGUMENT and finding.message.endswith("it is V²")


def test_unknown_symbols_are_reported_once_and_are_not_errors() -> None:
    a, b = sp.symbols("a b")
    findings = check(tau, a + a * b + sp.exp(a), "=", CIRCUIT)
    assert kinds(findings) == [UNKNOWN, UNKNOWN]
    assert [str(finding.expr) for finding in findings] == ["a", "b"]
    assert not any(finding.is_error for finding in findings)
    assert findings[0].message == "a has no unit in the glossary"


def test_an_unknown_part_does_not_hide_a_known_inconsistency() -> None:
    a = sp.Symbol("a")
    findings = check(tau, a + R * C + V, "=", CIRCUIT)
    assert sorted(kinds(findings)) == [TERMS, UNKNOWN]


def test_powers_need_rational_exponents_on_dimensioned_bases() -> None:
    x = sp.Symbol("x")
    lesson = {**CIRCUIT, "x": parse_spec("dimensionless")}
    assert check(V, V ** sp.Rational(1, 2) * V ** sp.Rational(1, 2), "=", CIRCUIT) == []
    (finding,) = check(V, V**x, "=", lesson)  # `(V_DD − V_t)^κ`: the unit depends on κ
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert "its unit depends on the value of x" in finding.message
    (finding,) = check(V, V**sp.pi, "=", CIRCUIT)
    assert finding.kind == EXPONENT
    assert "rational exponent, not pi" in finding.message
    assert check(alpha, alpha**x, "=", lesson) == []  # a dimensionless base takes any power
    (finding,) = check(alpha, alpha**V, "=", CIRCUIT)
    assert finding.kind == EXPONENT and finding.expr == V
    assert check(V, V ** sp.Float(1.0), "=", CIRCUIT) == []


def test_numbers_zero_and_infinity() -> None:
    assert check(V, 2 * V, "=", CIRCUIT) == []
    assert check(V, sp.S(0), "=", CIRCUIT) == []
    assert check(V, -sp.oo, "=", CIRCUIT) == []
    assert check(V, sp.pi * V, "=", CIRCUIT) == []
    (bare,) = check(V, sp.S(3), "=", CIRCUIT)  # `V = 3`: the 3 may be 3 V
    assert bare.kind == UNCERTAIN and "bare number" in bare.message
    assert kinds(check(V, alpha, "=", CIRCUIT)) == [RELATION]


def test_inequalities_compare_and_proportionality_does_not() -> None:
    assert kinds(check(V, tau, "<=", CIRCUIT)) == [RELATION]
    assert kinds(check(V, tau, "approx", CIRCUIT)) == [RELATION]
    assert check(V, tau, "propto", CIRCUIT) == []
    assert kinds(check(V, tau + V, "propto", CIRCUIT)) == [TERMS]


def test_sums_extrema_and_transposes_keep_the_dimension() -> None:
    j, m = sp.symbols("j m")
    lesson = units(("o", "value units"), ("a_j", "dimensionless"), ("v_j", "value units"))
    a, v = sp.IndexedBase("a"), sp.IndexedBase("v")
    assert check(sp.Symbol("o"), sp.Sum(a[j] * v[j], (j, 1, m)), "=", lesson) == []
    assert check(sp.Symbol("o"), sp.Max(v[j], sp.Symbol("o")), "=", lesson) == []
    transposes = pytest.importorskip("atlas_build.latex.functions")
    assert check(V, transposes.Transposed(sp.Symbol("V", commutative=False)), "=", CIRCUIT) == []
    over = transposes.MaxOver(v[j], (j, 1, m))
    assert check(sp.Symbol("o"), over, "=", lesson) == []


def test_indexed_symbols_find_their_glossary_family() -> None:
    i, j = sp.symbols("i j")
    lesson = units(("p_i", "dimensionless"), ("z_i", "logits"), ("x̂_i", "V"))
    p, z = sp.IndexedBase("p"), sp.IndexedBase("z")
    assert dimension_of(p[j], lesson) == dimension_of(sp.S(1), lesson)
    assert dimension_of(z[i] - z[j], lesson) == lesson["z_i"].dimension
    assert dimension_of(sp.IndexedBase("x_hat")[i], lesson) == lesson["x_hat_i"].dimension
    assert dimension_of(sp.Symbol("p_j"), lesson) == dimension_of(sp.S(1), lesson)
    assert dimension_of(sp.Symbol("p_q"), lesson) is None  # q is no index letter


def test_functions_by_role() -> None:
    g = sp.Function("g")
    var = sp.Function("Var")
    findings = check(V, g(V), "=", CIRCUIT)
    assert kinds(findings) == [UNKNOWN] and "function g" in findings[0].message
    (finding,) = check(V, sp.Function("f")(V), "=", CIRCUIT)  # the glossary types f: GHz
    assert finding.message == "left side V, right side GHz"
    assert check(sp.Symbol("Var"), var(V), "=", {**CIRCUIT, "Var": parse_spec("V²")}) == []
    assert check(V**2, var(V), "=", CIRCUIT) == []
    assert check(V, sp.Abs(V) + sp.Function("relu")(V), "=", CIRCUIT) == []
    assert check(alpha, sp.sign(V) * sp.Function("softmax")(alpha), "=", CIRCUIT) == []
    assert check(sp.S(1) / V, sp.DiracDelta(V), "=", CIRCUIT) == []
    assert check(alpha, sp.atan2(V, V), "=", CIRCUIT) == []
    assert kinds(check(alpha, sp.sin(V), "=", CIRCUIT)) == [ARGUMENT]


def parse_spec(text: str) -> UnitSpec:
    result = parse_unit(text)
    assert isinstance(result, UnitSpec)
    return result


class WithUnit(sp.Function):
    """Stands in for the parser's coming `WithUnit(value, Symbol(unit text))` node."""

    nargs = 2


def test_a_number_with_a_unit_has_that_unit() -> None:
    assert check(V_T, WithUnit(sp.Float("25.9"), sp.Symbol("mV")), "approx", DEVICE) == []
    (finding,) = check(V_T, WithUnit(sp.Float("25.9"), sp.Symbol("mA")), "approx", DEVICE)
    assert finding.message == "left side V, right side mA"
    (finding,) = check(V_T, WithUnit(sp.Integer(3), sp.Symbol("furlongs")), "=", DEVICE)
    assert finding.kind == UNKNOWN and "furlongs" in finding.message


def test_deep_trees_are_refused_not_crashed() -> None:
    deep: sp.Expr = V
    for _ in range(300):
        deep = sp.exp(deep, evaluate=False)
    findings = check(alpha, deep, "=", CIRCUIT)
    assert [finding.message for finding in findings] == ["expression too deep to check"]


def test_parsed_reference_equations() -> None:
    latex = pytest.importorskip("atlas_build.latex")
    try:
        (relation,) = latex.parse_relations(r"V_{bi} = \frac{k_B T}{q}\ln\frac{N_A N_D}{n_i^2}")
    except latex.LatexError as error:  # pragma: no cover - the parser is changing
        pytest.skip(f"parser does not read this yet: {error}")
    assert check(relation.lhs, relation.rhs, relation.op, DEVICE) == []


MOSFET = units(
    ("I_D", "µA"),
    ("μ_n", "cm²/(V·s)"),
    ("C_ox", "fF/µm²"),
    ("W", "µm"),
    ("L", "µm"),
    ("V_ov", "V"),
    ("g_m", "mS"),
)
I_D, mu_n, C_ox, W, L, V_ov, g_m = sp.symbols("I_D mu_n C_ox W L V_ov g_m")


def test_sides_in_units_of_one_dimension_are_consistent_and_say_their_ratio() -> None:
    """Claims compute in the table's units: the right side's number is a tenth of µA."""
    rhs = mu_n * C_ox * W / L * V_ov**2 / 2
    assert check(I_D, rhs, "=", MOSFET) == []
    assert side_ratio(I_D, rhs, MOSFET) == sp.Rational(1, 10)
    assert side_ratio(g_m, 2 * I_D / V_ov, MOSFET) == sp.Rational(1, 1000)
    assert side_ratio(tau, R * C, CIRCUIT) == 1
    assert side_ratio(P, V, CIRCUIT) == 1  # different dimensions: no ratio to apply
    assert side_ratio(sp.Symbol("x"), R * C, CIRCUIT) == 1  # an unknown unit: none either


def test_terms_and_arguments_in_different_scales_are_notes_not_errors() -> None:
    """`1 − t_RFC/t_REFI` in ns and µs is right physics: a note of scale, never an error
    (claims computing in the table's units take care of the factor)."""
    (finding,) = check(tau, tau + t, "=", CIRCUIT)
    assert finding.kind == SCALE and not finding.is_error
    assert finding.message == "terms of a sum differ in scale: tau is s, t is ns"
    (finding,) = check(V, V * sp.exp(-t / tau), "=", CIRCUIT)
    assert finding.kind == SCALE and finding.expr == -t / tau
    assert "a pure number only up to the factor 1/1000000000" in finding.message
    assert check(V, V * sp.exp(-tau / (R * C)), "=", CIRCUIT) == []
    mixed = units(("P", "FLOP/s"), ("π", "FLOP/s"), ("I", "FLOPs/byte"), ("β", "GB/s"))
    (finding,) = check(P, sp.Min(pi_, I_ * beta), "=", mixed)
    assert finding.kind == SCALE and "arguments of Min differ in scale" in finding.message


GAS = units(
    ("P", "kPa"), ("V", "L"), ("n", "mol"), ("R", "J/(mol·K)"), ("T", "K"), ("θ", "°C"),
    ("θ_1", "°C"), ("θ_2", "°C"), ("ΔT", "K"), ("Q", "J"), ("C_v", "J/(mol·K)"),
)  # fmt: skip
P_, V_, n_, R_, T_, theta, theta_1, theta_2, dT, Q_, C_v = sp.symbols(
    "P V n R T theta theta_1 theta_2 DeltaT Q C_v"
)


def test_a_celsius_value_is_never_multiplied_or_set_equal_to_kelvin() -> None:
    """°C has its zero at 273.15 K: P V = n R θ is wrong, T = θ too; θ + 273.15 K is a
    kelvin value, θ₂ − θ₁ an interval, and ΔT may be multiplied."""
    assert check(P_ * V_, n_ * R_ * T_, "=", GAS) == []
    (finding,) = check(P_ * V_, n_ * R_ * theta, "=", GAS)
    assert finding.kind == AFFINE and finding.expr == theta
    assert "cannot be multiplied; convert it to kelvin first" in finding.message
    (finding,) = check(T_, theta, "=", GAS)
    assert finding.kind == AFFINE and "left side K, right side °C" in finding.message
    assert kinds(check(T_, theta**2 / T_, "=", GAS)) == [AFFINE]  # raised to a power
    assert check(T_, theta + kelvin_term(), "=", GAS) == []
    assert check(dT, theta_2 - theta_1, "=", GAS) == []
    assert check(Q_, n_ * C_v * dT, "=", GAS) == []
    assert check(theta, theta_1, "=", GAS) == []


def kelvin_term(value: str = "273.15") -> sp.Basic:
    from atlas_build.latex import parse_relations

    return parse_relations(f"T={value}\\,\\mathrm{{K}}")[0].rhs


HEAT = units(
    ("T", "K"), ("T_1", "K"), ("θ", "°C"), ("θ_in", "°C"), ("θ_out", "°C"), ("ΔT_b", "K"),
    ("Δθ", "°C"), ("k", "W/K"), ("q", "W"), ("R_th", "°C/W"), ("φ", "°F"), ("φ_2", "°F"),
    ("C", "J/K"), ("t", "s"),
)  # fmt: skip
T1, th, th_in, th_out, dT_b, dth, k_, q_, R_th, phi, phi_2, C_, t_ = sp.symbols(
    "T_1 theta theta_in theta_out DeltaT_b Deltatheta k q R_th phi phi_2 C t"
)


def test_a_celsius_value_shifted_by_an_interval_is_still_celsius() -> None:
    """θ_in − ΔT_b is a temperature in °C (20 °C − 4 K is 16 °C, not 16 K): it equals a
    °C symbol, and setting a kelvin one equal to it is an affine finding."""
    assert check(th, th_in - dT_b, "=", HEAT) == []
    assert check(th, th_in + dT_b, "=", HEAT) == []
    assert str(unit_of(th_in - dT_b, HEAT)) == "°C"
    (finding,) = check(T1, th_in - dT_b, "=", HEAT)
    assert finding.kind == AFFINE and "left side K, right side °C" in finding.message
    assert kinds(check(q_, k_ * (th_in - dT_b), "=", HEAT)) == [AFFINE]  # still a point
    assert kinds(check(T1, th_in + kelvin_term("5"), "=", HEAT)) == [AFFINE]  # 5 K: a shift


def test_a_difference_of_two_celsius_values_is_an_interval_in_kelvin() -> None:
    """θ_in − θ_out is an interval: it is a kelvin (so a claim compares it with 25 K, never
    25 °C), may be multiplied, and is not a °C temperature; 2θ₁ − 2θ₂ is one too."""
    assert str(unit_of(th_in - th_out, HEAT)) == "K"
    assert check(q_, k_ * (th_in - th_out), "=", HEAT) == []
    assert check(q_, (th_in - th_out) / R_th, "=", HEAT) == []
    assert check(dT_b, 2 * th_in - 2 * th_out, "=", HEAT) == []
    (finding,) = check(th, th_in - th_out, "=", HEAT)
    assert finding.kind == AFFINE and "left side °C, right side K" in finding.message
    assert str(unit_of(phi - phi_2, HEAT)) == "Δ°F"  # 5/9 K: not a kelvin
    assert unit_of(phi - phi_2, HEAT).scale == sp.Rational(5, 9)


def test_two_celsius_values_do_not_add_but_their_mean_is_one() -> None:
    (finding,) = check(th, th_in + th_out, "=", HEAT)
    assert finding.kind == AFFINE and "adds temperatures in °C" in finding.message
    assert check(th, (th_in + th_out) / 2, "=", HEAT) == []  # weights ½ + ½
    assert check(th, th_in + th_out - th, "=", HEAT) == []  # weights 1 + 1 − 1


def test_a_ratio_of_celsius_values_shifted_alike_is_a_ratio_of_intervals() -> None:
    """`(θ_f + β)/(θ_i + β)` (IEC 60949's withstand, β in K; a batch-54 lesson): both sums
    are temperatures from −β, so the ratio is dimensionless and may be raised or have its
    logarithm taken; it was refused as a multiplied °C point (a false A420). A ratio of
    sums that share no term, and a lone °C value divided, are still refused."""
    x = sp.Symbol("x")
    table = {**HEAT, **units(("x", "dimensionless"))}
    shifted = (th_in + dT_b) / (th_out + dT_b)
    assert check(x, shifted, "=", table) == []
    assert check(x, sp.sqrt(sp.log(shifted)), "=", table) == []
    assert check(x, shifted**2, "=", table) == []
    assert kinds(check(x, (th_in + dT_b) / (th_out + dth), "=", table)) == [AFFINE, AFFINE]
    assert AFFINE in kinds(check(x, th_in / th_out, "=", table))


def test_only_a_constant_at_the_zero_converts_celsius_to_kelvin() -> None:
    assert check(T1, th + kelvin_term(), "=", HEAT) == []
    assert check(T1, th + kelvin_term("273"), "=", HEAT) == []
    assert check(T1, th - dT_b + kelvin_term(), "=", HEAT) == []
    assert kinds(check(T1, th + kelvin_term("300"), "=", HEAT)) == [AFFINE]


def test_intervals_in_celsius_units_are_kelvin_sized() -> None:
    """A symbol named as a difference in °C, a unit holding °C (°C/W) and the rate dθ/dt
    are intervals, so they add to a °C value and may be multiplied."""
    assert check(dth, th_in - th_out, "=", HEAT) == []
    assert check(th, th_in - dth, "=", HEAT) == []
    assert check(th, th_in + R_th * q_, "=", HEAT) == []
    assert str(unit_of(R_th * q_, HEAT)) == "K"
    assert check(q_, C_ * sp.Derivative(th, t_), "=", HEAT) == []


def test_branches_and_arguments_are_all_temperatures_or_none() -> None:
    assert str(unit_of(sp.Max(th_in, th_out), HEAT)) == "°C"
    assert check(th, sp.Max(th_in, th_out), "=", HEAT) == []
    (finding,) = check(T1, sp.Max(th_in, T1), "=", HEAT)
    assert finding.kind == AFFINE and "arguments of Max mix a temperature in °C" in finding.message


def test_sides_with_different_zeros_have_no_ratio() -> None:
    assert zero_mismatch(T1, th_in - dT_b, HEAT) == ("K", "°C")
    assert zero_mismatch(th, th_in - dT_b, HEAT) is None
    assert zero_mismatch(dT_b, th_in - th_out, HEAT) is None
    assert zero_mismatch(T1, th + kelvin_term(), HEAT) is None
    assert side_ratio(T1, th_in - dT_b, HEAT) == 1


def test_a_percent_symbol_in_a_sum_says_to_use_a_fraction() -> None:
    table = units(("A", "ns"), ("h", "ns"), ("m", "%"), ("p", "ns"))
    A, h, m, p = sp.symbols("A h m p")
    (finding,) = check(A, h + m * p, "=", table)
    assert finding.kind == SCALE and "m*p is %·ns, h is ns" in finding.message
    assert "give it the unit dimensionless and its value as a fraction, 0.05" in finding.message
    (plain,) = check(tau, tau + t, "=", CIRCUIT)
    assert "fraction" not in plain.message


def test_a_relation_with_measured_constants_is_a_numeric_value_equation() -> None:
    """`E_eV ≈ 1239.84/λ_nm` (E in eV, λ in nm) and an empirical fit `c = −0.442 − 6×10⁻⁴ T`
    (T in °C) agree once their constants carry units: not certain, so no error. A simple
    constant (½) carries none: `P = ½ C V²` without f still disagrees for certain."""
    energy, wavelength, c, t = sp.symbols("E_eV lambda_nm c T_sj")
    table = units(("E_eV", "eV"), ("lambda_nm", "nm"), ("c", "dimensionless"), ("T_sj", "°C"))
    (finding,) = check(energy, sp.Rational(123984, 100) / wavelength, "approx", table)
    assert finding.kind == UNCERTAIN and "numeric-value" in finding.message
    fit = check(c, sp.Rational(-221, 500) - sp.Rational(3, 5000) * t, "=", table)
    assert fit and all(f.kind == UNCERTAIN for f in fit)
    P, C, V = sp.symbols("P C V")
    assert kinds(check(P, sp.Rational(1, 2) * C * V**2, "=", CIRCUIT)) == [RELATION]


def test_a_daily_total_and_a_rate_per_day_are_not_told_apart() -> None:
    """`E_day = P_STC·H_POA/G_STC·PR` with the insolation H_POA in kWh/m² per day and the
    day's energy E_day in kWh (a solar lesson): the sides differ by one day, the way
    energy people write a daily total, and it was a false A420. A side off by an hour, or
    by a day squared, is still an error."""
    table = units(("E", "kWh"), ("P", "kW"), ("H", "kWh/m² per day"), ("G", "kW/m²"))
    E, P, H, G = sp.symbols("E P H G")
    (finding,) = check(E, P * H / G, "=", table)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert "differ by one day" in finding.message
    hourly = units(("E", "kWh"), ("P", "kW"), ("H", "kWh/m² per hour"), ("G", "kW/m²"))
    assert kinds(check(E, P * H / G, "=", hourly)) == [RELATION]
    assert kinds(check(E, (P * H / G) ** 2 / E, "=", table)) == [RELATION]


def test_a_relation_that_holds_whatever_the_zero_may_multiply_celsius_values() -> None:
    """`T_in = (1 − r)T_s + r T_ex` (a mixture of two air streams) and `T_j = (T_a + R q(1 −
    αT₀))/(1 − αRq)` (a coefficient taken from T₀): moving every °C value by one amount
    leaves both as they were, so the scale's zero cancels (two false A420 in blind lessons).
    P V = n R θ and θ_in + θ_out still depend on it."""
    r, alpha = sp.symbols("r alpha")
    mixed = units(("θ", "°C"), ("θ_in", "°C"), ("θ_out", "°C"), ("r", "dimensionless"),
                  ("α", "1/K"), ("R_th", "K/W"), ("q", "W"))  # fmt: skip
    assert check(th, (1 - r) * th_in + r * th_out, "=", mixed) == []
    junction = (th_in + R_th * q_ * (1 - alpha * th_out)) / (1 - alpha * R_th * q_)
    assert check(th, junction, "=", mixed) == []
    assert AFFINE in kinds(check(th, (1 - r) * th_in + 2 * r * th_out, "=", mixed))
    assert kinds(check(P_ * V_, n_ * R_ * theta, "=", GAS)) == [AFFINE]
    assert kinds(check(th, th_in + th_out, "=", HEAT)) == [AFFINE]


def test_the_logarithm_of_a_concentration_is_not_certain() -> None:
    """`pKₐ = −log₁₀ Kₐ` with Kₐ in mol/L (a buffer lesson) takes the logarithm of the value
    in its table unit, as chemistry's p-scales do: not an error (it was a false A420). A
    ratio whose units fail to cancel is still one, and so is the logarithm of another lone
    quantity (B in Hz, above)."""
    table = units(("pK_a", "dimensionless"), ("K_a", "mol/L"), ("c", "mol/L"), ("V", "L"))
    pka, ka, c, v = sp.symbols("pK_a K_a c V")
    (finding,) = check(pka, -sp.log(ka, 10), "=", table)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert kinds(check(pka, -sp.log(c / v, 10), "=", table)) == [ARGUMENT]


def test_an_arrow_compares_no_sides() -> None:
    """`ω² = g k tanh(kh) \\xrightarrow{kh≫1} L_0 = gT²/2π` (an ocean-wave lesson): the arrow
    leads from the dispersion relation to its deep-water form, rad/s² to m, and was a false
    A420. A map and a transform pair relate different quantities too; their parts are still
    checked, and `←` (an update rule) still compares."""
    for op in ("->", "mapsto", "<->"):
        assert check(V, tau, op, CIRCUIT) == []
        assert kinds(check(V, tau + V, op, CIRCUIT)) == [TERMS]
    assert kinds(check(V, tau, "<-", CIRCUIT)) == [RELATION]


def test_a_fitted_logarithm_of_a_lone_quantity_is_not_certain() -> None:
    """`S = a + b log₁₀ M` (a strength–maturity law, M in °C·h; batch 56): the coefficient b
    was fitted for M in its table unit, so the dimensioned argument is not certain (it was
    a false A420). Without the intercept (`a = b log₁₀ M`, as `S = V_GS log₁₀ I_D` in
    test_units_counts), without a symbol coefficient (`S = a + log₁₀ M`), or of a ratio
    whose units fail to cancel, it is still an error."""
    table = units(("S", "MPa"), ("a", "MPa"), ("b", "MPa"), ("M", "°C·h"), ("t", "h"))
    S, a, b, M, t = sp.symbols("S a b M t")
    (finding,) = check(S, a + b * sp.log(M, 10), "=", table)
    assert finding.kind == UNCERTAIN and not finding.is_error
    assert ARGUMENT in kinds(check(a, b * sp.log(M, 10), "=", table))
    assert ARGUMENT in kinds(check(S, a + sp.log(M, 10), "=", table))
    assert ARGUMENT in kinds(check(S, a + b * sp.log(M / t, 10), "=", table))


def test_a_side_counted_from_the_scales_zero_may_multiply_a_celsius_value() -> None:
    """`h = c_pa T + ω(h_g0 + c_pv T)` (moist air's enthalpy from 0 °C, T in °C; batch 56):
    the term ω·h_g0 holds no temperature, so the side is counted from the scale's zero
    (the report then calls the multiplied °C value not certain). `P V = n R θ` and
    `k(θ − ΔT)` have no such term. `check` itself still finds the °C value multiplied."""
    table = units(
        ("h", "kJ/kg"), ("c_pa", "kJ/(kg·K)"), ("omega", "kg/kg"), ("h_g0", "kJ/kg"),
        ("c_pv", "kJ/(kg·K)"), ("T", "°C"),
    )  # fmt: skip
    h, c_pa, omega, h_g0, c_pv, T = sp.symbols("h c_pa omega h_g0 c_pv T")
    moist = c_pa * T + omega * (h_g0 + c_pv * T)
    assert counted_from_zero(h, moist, table) == omega * h_g0
    assert AFFINE in kinds(check(h, moist, "=", table))
    assert counted_from_zero(h, c_pa * T + c_pv * T, table) is None
    assert counted_from_zero(q_, k_ * (th_in - dT_b), HEAT) is None
    assert counted_from_zero(P_ * V_, n_ * R_ * theta, GAS) is None
    rtd = units(("R", "Ω"), ("R_0", "Ω"), ("A", "1/°C"), ("T", "°C"))
    R, R_0, A = sp.symbols("R R_0 A")
    assert counted_from_zero(R, R_0 * (1 + A * T), rtd) is None  # R₀ scales the T term too
