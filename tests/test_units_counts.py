"""Never cry wolf (issue 30): an A420 only where the dimension check is certain.

One test per class of false finding seen on lessons nobody here wrote (tests/blind): the
correct relation passes clean, and a relation of the same shape with a real defect, in
real units, still fails. Counts (`samples`, `jobs`, bits) are numbers; terms of one
dimension in units of other sizes are right physics; an angle in degrees is what sin
takes; a side that is a bare number may carry the unit; set notation is no arithmetic;
descriptive units (`value units`, `record`, `same units as x`) leave the unit open. And
the unit columns real tables write read (A421 only for a unit meant but unreadable), an
entry listing several symbols pairs them with its units (no A424).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp
from support import Checked, write_lesson
from support import check as run_lesson

from atlas_build.units import (
    ARGUMENT,
    RELATION,
    SCALE,
    TERMS,
    UNCERTAIN,
    UnitError,
    UnitProblem,
    UnitSpec,
    check,
    convert,
    errors,
    mutants,
    parse_unit,
    unit_parts,
    units_from_glossary,
)


def units(*pairs: tuple[str, str]) -> dict[str, UnitSpec]:
    built = units_from_glossary(pairs)
    assert not built.problems, built.problems
    return built.units


def kinds(lhs: sp.Basic, rhs: sp.Basic, table: dict[str, UnitSpec], op: str = "=") -> list[str]:
    return [finding.kind for finding in check(lhs, rhs, op, table)]


S = sp.symbols
f_k, k, f_s, N, T, L, rho, n, P = S("f_k k f_s N T L rho n P")


# --- counts are numbers ----------------------------------------------------------------


def test_a_count_of_samples_divides_a_frequency() -> None:
    """`f_k = k f_s / N` with N in samples was "left side Hz, right side Hz/samples"."""
    table = units(("f_k", "Hz"), ("k", "dimensionless"), ("f_s", "Hz"), ("N", "samples"),
                  ("T", "s"), ("X", "dimensionless"), ("n", "dimensionless"))  # fmt: skip
    assert kinds(f_k, k * f_s / N, table) == []
    assert kinds(T, N / f_s, table) == []
    assert kinds(S("X"), sp.exp(-2 * sp.pi * sp.I * k * n / N), table) == []
    assert kinds(f_k, k * N / f_s, table) == [RELATION]  # Hz against s: still an error


def test_jobs_and_requests_are_counts_in_queueing() -> None:
    """`L = ρ/(1−ρ)` with L in jobs and `P = ρ^n` with n in jobs were A420."""
    table = units(("L", "jobs"), ("rho", "dimensionless"), ("n", "jobs"), ("P", "dimensionless"),
                  ("lambda", "requests/s"), ("W", "seconds"), ("mu", "jobs/s"))  # fmt: skip
    lam, W, mu = S("lambda W mu")
    assert kinds(L, rho / (1 - rho), table) == []
    assert kinds(P, rho**n, table) == []
    assert kinds(L, lam * W, table) == []
    assert kinds(W, 1 / (mu - lam), table) == []
    assert kinds(L, lam / W, table) == [RELATION]  # requests/s², not a count
    assert kinds(P, rho**W, table) == ["exponent"]  # an exponent in seconds


def test_a_rate_named_per_second_is_one_over_time() -> None:
    """`IOPS = 1/t` and `ω = 2π RPM/60`: rates a table names in capitals are 1/s, not counts
    (as counts, the relation would be a false error)."""
    table = units(("X", "IOPS"), ("t", "ms"), ("omega", "rad/s"), ("n", "RPM"), ("m", "m"))
    X, t, omega, m = S("X t omega m")
    assert errors(check(X, 1 / t, "=", table)) == []
    assert errors(check(omega, 2 * sp.pi * n / 60, "=", table)) == []
    assert kinds(X, m / t, table) == [RELATION]


def test_bits_are_counts_but_keep_converting_as_information() -> None:
    """Shannon's `C = B log₂(1+S/N)` in bit/s against Hz; `t = t_pg + (n−1) t_c` with n in
    bits; `T = N R η` in Gb/s against GT/s. A byte is still 8 bits, and never a FLOP."""
    table = units(("C", "bit/s"), ("B", "Hz"), ("S", "W"), ("N_n", "W"), ("t", "ps"),
                  ("t_pg", "ps"), ("n", "bits"), ("t_c", "ps"), ("T_d", "Gb/s"),
                  ("N", "counts"), ("R", "GT/s"), ("eta", "dimensionless"))  # fmt: skip
    C, B, S_, N_n, t, t_pg, t_c, T_d, R, eta = S("C B S N_n t t_pg t_c T_d R eta")
    assert kinds(C, B * sp.log(1 + S_ / N_n, 2), table) == []
    assert kinds(t, t_pg + (n - 1) * t_c, table) == []
    assert kinds(T_d, N * R * eta, table) == []
    assert kinds(t, t_pg + (n - 1) * B, table) == [TERMS]  # Hz among picoseconds
    assert convert(1, "B", "bit") == 8
    with pytest.raises(UnitError):
        convert(1, "B", "FLOP")


def test_flops_against_tokens_and_parameters() -> None:
    """`C ≈ 6 N D` (FLOP against tokens·parameters); `G = n t/(86 400 s/day)` in GPU-days."""
    table = units(("C", "FLOP"), ("N", "parameters"), ("D", "tokens"), ("G", "GPU-days"),
                  ("n", "counts"), ("t", "seconds"))  # fmt: skip
    C, D, G, t = S("C D G t")
    assert kinds(C, 6 * N * D, table, "approx") == []
    assert kinds(G, n * t / sp.Integer(86400), table) == []  # GPU·days: a count of days
    assert kinds(G, n / t, table) == [RELATION]


# --- right physics, other sizes -----------------------------------------------------------


def test_terms_in_ns_and_us_are_a_note_not_an_error() -> None:
    """`η = 1 − t_RFC/t_REFI` (ns over µs) and `k t_rep + 0.38 R C / k` (ps and F·Ω)."""
    table = units(("eta", "dimensionless"), ("t_RFC", "ns"), ("t_REFI", "µs"), ("t", "ps"),
                  ("t_rep", "ps"), ("R", "Ω"), ("C", "fF"), ("k", "counts"))  # fmt: skip
    eta, t_RFC, t_REFI, t, t_rep, R, C = S("eta t_RFC t_REFI t t_rep R C")
    assert kinds(eta, 1 - t_RFC / t_REFI, table) == [SCALE]
    assert errors(check(t, k * t_rep + sp.Rational(38, 100) * R * C / k, "=", table)) == []
    assert kinds(eta, 1 - t_RFC, table) == [TERMS]  # a time taken from 1: a real defect


def test_a_percent_symbol_divided_by_100_is_not_an_error() -> None:
    """`L = L₀(1 + ε/100)` with ε in percent."""
    table = units(("L", "m"), ("L_0", "m"), ("epsilon", "%"), ("x", "m"))
    L_0, eps, x = S("L_0 epsilon x")
    assert errors(check(L, L_0 * (1 + eps / 100), "=", table)) == []
    assert kinds(L, L_0 * (1 + x), table) == [TERMS]


# --- angles, bare numbers, set notation --------------------------------------------------


def test_an_angle_in_degrees_is_a_trig_argument() -> None:
    table = units(("NA", "dimensionless"), ("n", "dimensionless"), ("theta", "degrees"),
                  ("lambda", "nm"))  # fmt: skip
    NA, theta, lam = S("NA theta lambda")
    assert kinds(NA, n * sp.sin(theta), table) == []
    assert kinds(NA, n * sp.sin(lam), table) == [ARGUMENT]
    assert kinds(NA, sp.exp(theta), table) == [SCALE]  # an angle in exp: a note, not an error


def test_a_side_that_is_a_bare_number_may_carry_the_unit() -> None:
    """`W_max = 65 535 × 2^S` (W in bytes, a count as well) and `V_th = 0.7` (V in volts)."""
    table = units(("W", "bytes"), ("S", "dimensionless"), ("V", "V"), ("a", "dimensionless"))
    W, S_, V, a = S("W S V a")
    assert kinds(W, 65535 * 2**S_, table) == []
    findings = check(V, sp.Float("0.7"), "=", table)
    assert [f.kind for f in findings] == [UNCERTAIN] and "bare number" in findings[0].message
    assert kinds(V, a, table) == [RELATION]  # a dimensionless symbol carries no unit


def test_a_symbolic_power_of_a_dimensioned_quantity_is_not_certain() -> None:
    """The alpha-power law `f ∝ (V_DD − V_t)^κ / V_DD`: V^κ has a unit for every κ; an
    irrational number as exponent (V^π) is still an error."""
    table = units(("f", "Hz"), ("V_DD", "V"), ("V_t", "V"), ("kappa", "dimensionless"))
    f, V_DD, V_t, kappa = S("f V_DD V_t kappa")
    assert kinds(f, (V_DD - V_t) ** kappa / V_DD, table, "propto") == [UNCERTAIN]
    assert kinds(f, V_DD**sp.pi, table, "propto") == ["exponent"]


def test_set_membership_is_not_arithmetic() -> None:
    table = units(("W", "value units"), ("m", "rows"), ("n", "columns"))
    W, R_bb, m = S("W R_bb m")
    assert kinds(W, R_bb ** (m * n), table, "in") == [UNCERTAIN]


# --- descriptive units ----------------------------------------------------------------------


def test_descriptive_units_are_not_compared_as_dimensions() -> None:
    """`x_{t+1} = G(x_t, u_t)` with x a record and G a function; `C = Σ A B` in value
    units; the same shapes in real units still fail."""
    G = sp.Function("G")
    x, u, A, B, C = S("x u A B C")
    table = units(("x", "record"), ("G", "function"), ("u", "record"), ("A", "value units"),
                  ("B", "value units"), ("C", "value units"))  # fmt: skip
    assert kinds(x, G(x, u), table) == [UNCERTAIN]
    assert kinds(C, sp.Sum(A * B, (k, 1, n)), table) == [UNCERTAIN]
    assert kinds(C, sp.Sum(A, (k, 1, n)), table) == []  # they agree with each other
    real = units(("x", "m"), ("G", "s"), ("u", "m"), ("A", "V"), ("B", "V"), ("C", "V"))
    assert kinds(x, G(x, u), real) == [RELATION]
    assert kinds(C, sp.Sum(A * B, (k, 1, n)), real) == [RELATION]


def test_same_units_as_a_listed_symbol_take_its_unit() -> None:
    """`same units as x` is x's unit where the table gives one (then checked like it), and
    a descriptive unit of its own where it does not (Newton's method, in units of f)."""
    x, y, t, e, f, fp = S("x y t e f f_prime")
    table = units(("x", "m"), ("y", "same units as x"), ("t", "s"))
    assert table["y"].dimension == table["x"].dimension
    assert kinds(y, x * t, table) == [RELATION]
    newton = units(("x", "same units as x"), ("f", "units of f"),
                   ("f_prime", "units of f per unit of x"))  # fmt: skip
    assert kinds(x, x - f / fp, newton) == []
    assert kinds(x, f / fp**2, newton) == [UNCERTAIN]


def test_a_function_in_the_units_of_its_operands_keeps_them() -> None:
    fl = sp.Function("fl")
    s, x = S("s x")
    table = units(("fl", "same units as the operands"), ("s", "value units"), ("x", "value units"))
    assert kinds(s, fl(s + x), table) == []


def test_a_level_in_decibels_takes_a_quantity_in_its_table_unit() -> None:
    """`S = −174 + 10 log₁₀ B + NF`: B in Hz inside 10·log₁₀ is the decibel convention."""
    table = units(("S", "dBm"), ("B", "Hz"), ("NF", "dB"), ("V", "dimensionless"))
    S_, B, NF, V = S("S B NF V")
    assert kinds(S_, -174 + 10 * sp.log(B, 10) + NF, table) == [UNCERTAIN]
    density = units(("NSD", "dBFS/Hz"), ("P_n", "dBFS"), ("f_s", "Hz"))
    NSD, P_n, f_s = S("NSD P_n f_s")  # a density level: dBFS/Hz is P_n less 10 log₁₀ of Hz
    assert kinds(NSD, P_n - 10 * sp.log(f_s / 2, 10), density) == [UNCERTAIN]
    assert kinds(V, sp.log(B), table) == [ARGUMENT]  # ln of a frequency: an error


def test_mutants_are_only_edits_the_check_reports() -> None:
    table = units(("V", "V"), ("I", "A"), ("R", "Ω"), ("N", "samples"))
    V, I_, R = S("V I R")
    for mutant in mutants(V, I_ * R, table):
        assert errors(check(mutant.lhs, mutant.rhs, "=", table)), mutant.description
    assert mutants(V, I_ * R * N, table)  # a count factor does not stop the edits


# --- unit columns real tables write ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "printed"),
    [
        ("cycles/instruction", "count", "cycles/instruction"),
        ("references/instruction", "count", "references/instruction"),
        ("defects/cm²", "unit", "defects/cm²"),
        ("requests/s", "unit", "requests/s"),
        ("jobs/s", "unit", "jobs/s"),
        ("failures/h", "unit", "failures/h"),
        ("failures/year", "unit", "failures/year"),
        ("samples/s", "unit", "samples/s"),
        ("tokens per sequence", "count", "tokens/sequence"),
        ("loss/parameter", "count", "loss/parameter"),
        ("value units × s", "abstract", "value units·s"),
        ("same units as x", "abstract", "units of x"),
        ("units of f per unit of x squared", "abstract", "units of f/units of x²"),
        ("dB", "dimensionless", "dB"),
        ("dBm", "dimensionless", "dBm"),
        ("dBi", "dimensionless", "dBi"),
        ("dB/km", "unit", "dB/km"),
        ("degrees", "dimensionless", "degrees"),
        ("degrees C", "unit", "°C"),
        ("GPU-days", "unit", "GPU·days"),
        ("Gbaud", "unit", "Gbaud"),
        ("IOPS", "unit", "IOPS"),
        ("RPM", "unit", "RPM"),
        ("loss per parameter", "count", "loss/parameter"),
        ("positive integer count", "count", "dimensionless"),
        ("zero or one", "dimensionless", "dimensionless"),
        ("record", "abstract", "record"),
        ("V peak", "unit", "V"),
        ("drive writes/day", "unit", "drive writes/day"),
        ("page faults per second", "unit", "page faults/second"),
        # a count per so many things (MPKI): a number before a counted noun is its scale
        ("counts per 1000 instructions", "dimensionless", "1/1000·1/instructions"),
        ("misses per 1000 instructions", "dimensionless", "1/1000·misses/instructions"),
        # what one count is worth, in any notation (a fixed-point lesson): a count
        ("counts of 2⁻ⁿ", "count", "dimensionless"),
        ("counts of 2^−(n₁+n₂)", "count", "dimensionless"),
        # electrons as image sensors count charge (a camera lesson): `e⁻`, no power of e
        ("e⁻", "count", "electrons"),
        ("e⁻/s", "unit", "electrons/s"),
        ("V/e⁻", "unit", "V/electrons"),
        # which value of a compound unit (batch 54's port velocity); A-weighted levels
        ("m³/s rms", "unit", "m³/s"),
        ("V/√Hz peak", "unit", "V/Hz^(1/2)"),
        ("dB(A)", "dimensionless", "dBA"),
        ("dB(A) SPL", "abstract", "dBA SPL"),
    ],
)
def test_unit_columns_of_real_tables_read(text: str, kind: str, printed: str) -> None:
    read = parse_unit(text)
    assert isinstance(read, UnitSpec), read
    assert read.kind == kind and read.units is not None and read.units.format() == printed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mw", "did you mean mW or MW?"),
        ("mw/cm²", "did you mean mW or MW?"),
        ("kwh per day", "did you mean kWh?"),
        ("KB/s", "ambiguous"),
        ("feet", "outside"),
        ("kohms", "did you mean"),
        ("b/s·Hz", "ambiguous"),
        ("m/s feet", "outside"),
        ("m³/s at", "unknown unit 'at'"),
    ],
)
def test_a_unit_meant_but_unreadable_is_still_a_problem(text: str, message: str) -> None:
    read = parse_unit(text)
    assert isinstance(read, UnitProblem) and message in read.message


def test_a_level_converts_only_to_itself() -> None:
    assert convert(3, "dBm", "dBm") == 3
    for other in ("V/V", "dimensionless", "dB"):
        with pytest.raises(UnitError):
            convert(11, "dBm" if other == "dB" else "dB", other)


def test_an_entry_of_several_symbols_pairs_them_with_its_units() -> None:
    assert unit_parts(2, "bits/s, seconds") == [("bits/s", 0), ("seconds", 8)]
    assert unit_parts(2, "dimensionless; cycles") == [("dimensionless", 0), ("cycles", 15)]
    whole = [("counts", 0), ("counts", 0)]
    assert unit_parts(2, "counts") == whole
    assert unit_parts(2, "V, typically small") == [("V, typically small", 0)] * 2
    assert unit_parts(2, "s, approximate") == [("s, approximate", 0)] * 2
    built = units_from_glossary([("C, RTT", "bits/s, seconds"), ("RTT", "s")])
    assert built.problems == [] and built.units["RTT"].text == "seconds"


def test_a_row_for_a_square_gives_the_root_to_its_symbol() -> None:
    """`σ_e²` / `V²`: the row is the unit of σ_e², so σ_e (what a reader of the table names)
    is in V; `σ_e^2 = Δ²/12` with Δ in V is then consistent, not V⁴ against V²."""
    built = units_from_glossary(
        [("σ_e²", "V²"), ("Δ", "V")], names=lambda text: ["sigma_e"] if "σ" in text else ["Delta"]
    )
    sigma_e, Delta = S("sigma_e Delta")
    assert str(built.units["sigma_e"].units) == "V"
    assert kinds(sigma_e**2, Delta**2 / 12, built.units) == []


# --- in the build --------------------------------------------------------------------------

BODY = """
## Science and assumptions

### Relations

$$
{relation}
$$

Symbols and units

{table}

## Engineering example

Nothing more.
"""


def _lesson(tmp_path: Path, relation: str, *rows: tuple[str, str]) -> Checked:
    table = "\n\n".join(f"{symbol}\n\nA quantity\n\n{unit}" for symbol, unit in rows)
    body = BODY.format(relation=relation, table=table)
    return run_lesson(write_lesson(tmp_path, "probe", body, "claims: []\n"))


def _units_codes(result: Checked) -> list[str]:
    return sorted(d.code for d in result.record.diagnostics if d.code.startswith("A42"))


def test_a_queueing_lesson_passes_clean_and_a_wrong_one_still_fails(tmp_path: Path) -> None:
    rows = [("L", "jobs"), ("λ", "jobs/s"), ("W", "seconds")]
    clean = _lesson(tmp_path / "clean", "L=\\lambda W", *rows)
    assert _units_codes(clean) == [] and clean.errors() == []
    [item] = clean.record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "consistent"
    wrong = _lesson(tmp_path / "wrong", "L=\\lambda W^{2}", *rows)
    [error] = wrong.found("A420")
    assert "dimensions disagree: left side jobs, right side jobs·s" in error.message


def test_ohms_law_in_the_wrong_unit_is_still_an_error(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "V=I R", ("V", "V"), ("I", "A"), ("R", "s"))
    [error] = result.found("A420")
    assert error.severity.value == "error" and "left side V, right side A·s" in error.message


def test_descriptive_units_are_said_once_and_the_relation_is_not_checked(tmp_path: Path) -> None:
    rows = [("x\\_t", "record"), ("G", "function"), ("u\\_t", "record")]
    result = _lesson(tmp_path, "x_{t+1}=G(x_t,u_t)", *rows)
    assert result.errors() == []
    [note] = result.found("A425")
    assert note.severity.value == "info" and note.message.startswith(
        "1 relation not checked for dimensions, since a disagreement in them is not certain:"
        " equation 0 relation 0 `x_{t+1}=G(x_t,u_t)`: left side record, right side function"
    )
    agreeing = _lesson(tmp_path / "agreeing", "x_{t+1}=x_t", *rows)
    assert agreeing.found("A425") == []  # descriptive units that agree: consistent, no note
    [item] = result.record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "describe a unit the lesson leaves open" in item["dimensions"]["message"]


def test_a_second_unit_named_in_the_first_or_descriptive_is_no_conflict(tmp_path: Path) -> None:
    """`seconds (or hours)` then `h`; `seconds` then `time units`; `mV/V (or V/V)` then
    `V/V` (a DIBL lesson's η): no A424. `bytes` then `TB` still is one: a bare number under
    the second table would be read as bytes."""
    rows = [("t", "seconds (or hours)"), ("T", "s"), ("C", "bytes"), ("t", "h"),
            ("T", "time units"), ("C", "TB"), ("η", "mV/V (or V/V)"), ("η", "V/V")]  # fmt: skip
    result = _lesson(tmp_path, "t=T", *rows)
    [conflict] = result.found("A424")
    assert "'C' is already given unit 'bytes'" in conflict.message


def test_real_table_units_get_no_warning_and_a_misspelt_one_does(tmp_path: Path) -> None:
    rows = [("λ", "failures/h"), ("t", "hours"), ("R", "probability (dimensionless)"),
            ("C, RTT", "bits/s, seconds"), ("P\\_r", "dBm"), ("P", "mw")]  # fmt: skip
    result = _lesson(tmp_path, "R=e^{-\\lambda t}", *rows)
    assert result.errors() == []
    [warning] = [d for d in result.record.diagnostics if d.severity.value == "warning"
                 and d.code.startswith("A42")]  # fmt: skip
    assert warning.code == "A421" and "did you mean mW" in warning.message
    [item] = result.record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "consistent"


# --- lessons nobody on the team wrote, batch 5 ------------------------------------------


def test_the_log_of_a_current_is_not_certain_where_it_is_differentiated() -> None:
    """`S = (∂ log₁₀ I_D / ∂ V_GS)⁻¹`: log I and log(I/I₀) differ by a constant, which the
    derivative drops; the same log outside a derivative is still an error."""
    table = units(("S", "V"), ("I\\_D", "A"), ("V\\_GS", "V"))
    S_, I_D, V_GS = S("S I_D V_GS")
    swing = 1 / sp.Derivative(sp.log(I_D, 10), V_GS)
    assert kinds(S_, swing, table) == [UNCERTAIN]
    assert ARGUMENT in kinds(S_, V_GS * sp.log(I_D, 10), table)


def test_a_unit_with_a_symbolic_power_describes_a_unit() -> None:
    """Black's prefactor `h·(MA/cm²)^n` depends on n: a descriptive unit, not an A421."""
    read = parse_unit("h·(MA/cm²)^n")
    assert isinstance(read, UnitSpec) and read.kind == "abstract"
    assert isinstance(parse_unit("h·(MA/cm²)^2"), UnitSpec)
    assert parse_unit("h·(MA/cm²)^2").kind == "unit"
    king = parse_unit("V²·(s/m)ⁿ")  # King's law B, with a superscript n (batch 55)
    assert isinstance(king, UnitSpec) and king.kind == "abstract"


def test_a_symbol_given_two_units_makes_its_relations_uncertain(tmp_path: Path) -> None:
    """I_D in A in one table and in A/µm in another: I_D = I_T with I_T in A/µm holds in
    the second table's units. The A424 is the finding; the relation is not checked."""
    rows = [("I\\_D", "A"), ("I\\_T", "A/µm"), ("I\\_D", "A/µm")]
    result = _lesson(tmp_path / "twice", "I_D=I_T", *rows)
    assert result.errors() == [] and _units_codes(result) == ["A424", "A425"]
    [item] = result.record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "I_D has two units in the symbol tables" in item["dimensions"]["message"]
    once = _lesson(tmp_path / "once", "I_D=I_T", ("I\\_D", "A"), ("I\\_T", "A/µm"))
    assert [d.code for d in once.errors()] == ["A420"]


def test_units_described_in_words_with_marks_are_descriptive() -> None:
    """A held-out AdamW lesson gave λ `loss units per parameter unit² (Adam+L2); 1/parameter
    unit (AdamW)`: units described in words, not an unreadable unit (A421)."""
    read = parse_unit("loss units per parameter unit² (Adam+L2); 1/parameter unit (AdamW)")
    assert isinstance(read, UnitSpec) and read.kind == "abstract"
    assert isinstance(parse_unit("V/(m"), UnitProblem)  # a unit expression still must read


def test_a_constant_listed_among_symbols_takes_its_unit_with_it() -> None:
    """`N, H, ln 2` with `tokens, nats/token, nats/bit`: N and H are paired with their own
    units; the constant's unit is nobody's (the column was read whole, and failed)."""
    read = units_from_glossary([("N, H, ln 2", "tokens, nats/token, nats/bit")])
    assert read.problems == []
    assert read.units["N"].text == "tokens" and read.units["H"].text == "nats/token"


def test_a_list_of_units_pairs_by_semicolons_or_not_at_all() -> None:
    """`n, t, P_CW` with `bits; bit errors per codeword; dimensionless` (a NAND lesson):
    semicolons list one unit per symbol, though one is a phrase. `τ, μ_n, μ_p, V, L, G`
    with `s, cm²/(V·s), V, cm, dimensionless` (five units, six symbols; a photoconductor
    lesson) pairs no way: it gave all six the unit s, two false A424. Now none is given."""
    assert [text for text, _ in unit_parts(3, "bits; bit errors per codeword; dimensionless")] == [
        "bits", "bit errors per codeword", "dimensionless"
    ]  # fmt: skip
    assert unit_parts(6, "s, cm²/(V·s), V, cm, dimensionless") == [("", 0)] * 6
    built = units_from_glossary([("τ, μ_n, μ_p, V, L, G", "s, cm²/(V·s), V, cm, dimensionless")])
    assert built.problems == [] and built.units == {}


def test_a_unit_with_a_remark_in_parentheses_is_one_item_of_a_list() -> None:
    """Batch 54: `τ, L, D` with `min (converted to h for H), m, m` pairs one unit per symbol,
    and `θ, p, V_s, V_c` with `rad (electrical), m, V` (four symbols, three units) pairs no
    way. Both were read whole and refused (two false A421)."""
    paired = units_from_glossary([("τ, L, D", "min (converted to h for H), m, m")])
    assert paired.problems == []
    assert [paired.units[n].units.format() for n in ("tau", "L", "D")] == ["min", "m", "m"]
    unpaired = units_from_glossary([("θ, p, V\\_s, V\\_c", "rad (electrical), m, V")])
    assert unpaired.problems == [] and unpaired.units == {}
    assert unit_parts(2, "V, typically small") == [("V, typically small", 0)] * 2


def test_an_enthalpy_counted_from_zero_celsius_is_not_an_error(tmp_path: Path) -> None:
    """Batch 56's refrigerator lesson: `h = c_pa T + ω(h_g0 + c_pv T)` with T in °C is moist
    air's enthalpy from 0 °C (a false A420); the relation is not checked, with the reason.
    Without the term that holds no temperature it is still an error."""
    rows = [("h", "kJ/kg"), ("c\\_pa", "kJ/(kg·K)"), ("T", "°C"), ("ω", "kg/kg"),
            ("h\\_g0", "kJ/kg"), ("c\\_pv", "kJ/(kg·K)")]  # fmt: skip
    moist = _lesson(tmp_path / "moist", "h=c_{pa}T+\\omega\\,(h_{g0}+c_{pv}T)", *rows)
    assert moist.errors() == []
    [item] = moist.record.coverage["relations"]["items"]
    assert item["dimensions"]["status"] == "not checked"
    assert "counted from the scale's zero" in item["dimensions"]["message"]
    dry = _lesson(tmp_path / "dry", "h=c_{pa}T+\\omega\\,c_{pv}T", *rows)
    assert [d.code for d in dry.errors()] == ["A420"]
