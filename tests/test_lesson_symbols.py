"""The symbol naming convention: glossary text (`symbols.canonical`) and LaTeX (the name
scan, and the parser where it reads the notation) give one symbol the same name."""

from __future__ import annotations

import pytest

from atlas_build.lesson import canonical
from atlas_build.lesson.latexnames import scan
from atlas_build.lesson.names import is_letter, key
from atlas_build.lesson.symbols import (
    EXPRESSION,
    NONE,
    OPERATOR,
    SYMBOL,
    VALUE,
    mentions,
    name_of,
    read,
    words,
)

# (glossary text, LaTeX, name): one row per line of the convention table.
CONVENTION = [
    ("d_k", r"d_k", "d_k"),
    ("H_kv", r"H_{\mathrm{kv}}", "H_kv"),
    ("B_tok", r"B_{\text{tok}}", "B_tok"),
    ("k_SiO₂", r"k_{\mathrm{SiO_2}}", "k_SiO_2"),
    ("B_Gen5_one_way", r"B_{\text{Gen5 one way}}", "B_Gen5_one_way"),
    ("τ", r"\tau", "tau"),
    ("Δ", r"\Delta", "Delta"),
    ("ΔV", r"\Delta V", "DeltaV"),
    ("ΔV_bi", r"\Delta V_{bi}", "DeltaV_bi"),
    ("Δt", r"\Delta t", "Deltat"),
    ("x̂", r"\hat{x}", "x_hat"),
    ("ŷ", r"\widehat{y}", "y_hat"),
    ("Ã", r"\tilde{A}", "A_tilde"),
    ("Ã", r"\widetilde{A}", "A_tilde"),
    ("x̄", r"\bar{x}", "x_bar"),
    ("x̄", r"\overline{x}", "x_bar"),
    ("ẋ", r"\dot{x}", "x_dot"),
    ("ẍ", r"\ddot{x}", "x_ddot"),
    ("v⃗", r"\vec{v}", "v_vec"),
    ("x̌", r"\check{x}", "x_check"),
    ("x̂_i", r"\hat{x}_i", "x_hat_i"),
    ("x̂ᵢ", r"\hat{x}_{i}", "x_hat_i"),
    ("f'", r"f'", "f_prime"),
    ("f′", r"f^{\prime}", "f_prime"),
    ("f''", r"f''", "f_prime2"),
    ("𝐱", r"\mathbf{x}", "x"),
    ("𝒙", r"\boldsymbol{x}", "x"),
    ("x", r"\bm{x}", "x"),
    ("𝑥", r"\mathit{x}", "x"),
    ("𝒫", r"\mathcal{P}", "P_cal"),
    ("ℝ", r"\mathbb{R}", "R_bb"),
    ("𝔼", r"\mathbb{E}", "E_bb"),
    ("𝔤", r"\mathfrak{g}", "g_frak"),
    ("rows", r"\mathrm{rows}", "rows"),
    ("rows", r"\text{rows}", "rows"),
    ("N₀", r"N_0", "N_0"),
    ("Iⱼ", r"I_j", "I_j"),
    ("nᵢ", r"n_i", "n_i"),
    ("μₙ", r"\mu_n", "mu_n"),
    ("n⁺", r"n^{+}", "n_plus"),
    ("p⁻", r"p^{-}", "p_minus"),
    ("x*", r"x^{*}", "x_star"),
    ("x*", r"x^\ast", "x_star"),
    ("x⋆", r"x^\star", "x_star"),
    ("x†", r"x^\dagger", "x_dagger"),
    ("E°", r"E^{\circ}", "E_circ"),  # a standard-state value (a Nernst lesson)
    ("ΔG°", r"\Delta G^\circ", "DeltaG_circ"),
    ("S\\_2.83V", r"S_{2.83V}", "S_2.83V"),  # a decimal in a subscript
    ("ΣK", r"\sum K", "K"),  # a cell naming a sum defines its summand
    ("NR@k", r"\mathrm{NR@}k", "NR@k"),  # a metric at a cut-off (a retrieval lesson)
    ("P@10", r"\mathrm{P@}10", "P@10"),
]


@pytest.mark.parametrize(("written", "latex", "name"), CONVENTION)
def test_glossary_text_and_latex_give_the_same_name(written, latex, name):
    assert canonical(written) == [name]
    assert scan(latex).names == (name,)


def test_a_vulgar_fraction_in_a_subscript_is_the_fraction() -> None:
    """`d\\_½` (an ALiBi lesson's half distance) is the `d_{1/2}` its equation writes; the
    glossary had stopped reading there."""
    assert canonical("d\\_½") == canonical("d\\_{1/2}") == ["d_1/2"]


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("T\\_q,T\\_k", ["T_q", "T_k"]),
        ("T_q,T_k", ["T_q", "T_k"]),
        ("q,k", ["q", "k"]),
        ("Var", ["Var"]),
        ("ε", ["epsilon"]),
        ("ϵ", ["epsilon"]),
        ("φ", ["phi"]),
        ("ϕ", ["phi"]),
        ("λ", ["lambda"]),
        ("x²", ["x"]),
        ("σ²", ["sigma"]),
        ("Qᵀ", ["Q"]),
        ("ℓ", ["ell"]),
        ("µ", ["mu"]),
        ("δ_ij", ["delta_ij"]),
        ("H_{kv}", ["H_kv"]),
        ("x̂_i", ["x_hat_i"]),
        ("\\hat{x}_i", ["x_hat_i"]),
        ("$\\Delta V$", ["DeltaV"]),
        ("B_Gen5,one way", ["B_Gen5"]),
        ("B (one way)", ["B"]),
        ("V_DS,sat", ["V_DS_sat"]),
        ("p(x)", ["p"]),
        ("Ν", ["N"]),  # Greek capital nu is written N
        ("ħ", ["hbar"]),
        ("ℏ", ["hbar"]),
    ],
)
def test_canonical_names(written, names):
    assert canonical(written) == names


@pytest.mark.parametrize(
    ("written", "kind", "mentioned"),
    [
        ("32 × 10⁹ bits/s", VALUE, ()),
        ("128/130", VALUE, ()),
        ("≈ 25.9 mV", VALUE, ()),
        ("kT/q", EXPRESSION, ("kT", "k", "T", "q")),
        ("Query heads per layer", NONE, ()),
        ("", NONE, ()),
        ("x + (", EXPRESSION, ("x",)),
        ("⟨v\\_n²⟩", EXPRESSION, ("v_n",)),  # a mean square: `\\langle v_n^2\\rangle`
    ],
)
def test_cells_that_name_no_single_symbol(written, kind, mentioned):
    cell = read(written)
    assert cell.kind == kind and cell.names == ()
    if mentioned:
        assert cell.mentions == mentioned


def test_a_qualified_symbol_keeps_its_qualifier():
    cell = read("B_Gen5,one way")
    assert (cell.kind, cell.names, cell.qualifier) == (SYMBOL, ("B_Gen5",), "one way")


@pytest.mark.parametrize(
    "token", ["2x", "x-y", "(", "∂", "μₙp", "T_max−T_min", "x_i−x_j", "2.5", "x_1.", "x.5"]
)
def test_tokens_that_are_no_name(token):
    assert name_of(token) is None


# Spellings real glossaries use (issue "Never cry wolf"): Unicode and ASCII index
# expressions in subscripts, letters run on after an accent, accents and subscripts in words.
SPELLINGS = [
    ("Cᵢ₊₁", ["C_i+1"]),
    ("Tᵢ₋₁", ["T_i-1"]),
    ("C_{i+1}", ["C_i+1"]),
    ("x_{i,j}", ["x_ij"]),
    ("s_c,B²", ["s_c_B"]),  # an index pair with no space after its comma (a blind lesson)
    ("t_50,1,t_50,2", ["t_50_1", "t_50_2"]),  # two index pairs
    ("L\\_0,L", ["L_0", "L"]),  # a base after its own subscripted name lists it (batch 55)
    ("R(T),R\\_0,A,B,T", ["R", "R_0", "A", "B", "T"]),  # a list with no spaces (an RTD lesson)
    ("R, R1–R4", ["R", "R1", "R2", "R3", "R4"]),  # a numbered run (a bridge lesson)
    ("R_1, …, R_4", ["R_1", "R_2", "R_3", "R_4"]),
    ("R₁–R₄", ["R_1", "R_2", "R_3", "R_4"]),
    ("x_i, y", ["x_i", "y"]),  # with a space, two names
    ("z_1−α/2", ["z_1-alpha/2"]),
    ("ḡr", ["g_bar_r"]),
    ("x̂y", ["x_hat_y"]),
    ("η̄_cos", ["eta_bar_cos"]),
    ("bar theta", ["theta_bar"]),
    ("theta-bar", ["theta_bar"]),
    ("x hat", ["x_hat"]),
    ("CD_after etch", ["CD_after_etch"]),
    ("Aik, Bkj", ["Aik", "Bkj"]),
    ("d,d0", ["d", "d0"]),
    ("η(t), η_max, η_min, T_w, T", ["eta", "eta_max", "eta_min", "T_w", "T"]),
    ("Delta", ["Delta"]),
    ("R_□", ["R_square"]),  # a sign in a subscript, named as its LaTeX command
]


@pytest.mark.parametrize(("written", "names"), SPELLINGS)
def test_spellings_of_real_glossaries(written, names):
    assert canonical(written) == names


@pytest.mark.parametrize(
    ("written", "operators"),
    [
        ("⊙", ("⊙",)),
        ("∘", ("∘",)),
        ("+, −", ("+", "−")),
        ("∧, ∨, ⊕", ("∧", "∨", "⊕")),
        ("⌊·⌋", ("⌊·⌋",)),  # floor, a placeholder inside (a convolution lesson)
        ("⌈·⌉", ("⌈·⌉",)),
    ],
)
def test_an_operator_is_a_glossary_entry(written, operators):
    cell = read(written)
    assert (cell.kind, cell.names, cell.operators) == (OPERATOR, (), operators)


@pytest.mark.parametrize(
    ("written", "mentioned"),
    [
        ("μ_n C_ox", ("mu_n", "C_ox")),  # an implicit product
        ("P(D | +)/P(D̄ | +)", ("P", "D", "D_bar")),  # a ratio, not a call of P
        ("dV\\_OS/dT", ("V_OS", "T")),  # an offset drift, `\frac{dV_{OS}}{dT}`: no one name
        ("‖a‖, ‖b‖", ("a", "b")),  # the norms of two vectors (a similarity-search lesson)
        ("I²t", ("I", "t")),  # a fuse's Joule integral: I² times t, the equation's `I^2t`
        ("(I²t)\\_m", ("I", "t")),  # its melting value, `(I^2t)_{\mathrm m}`
        ("(I²t)\\_pulse", ("I", "t")),
        ("V_1-V_2", ("V_1", "V_2")),  # a difference, not the run V_1 to V_2
        ("∠L", ("L",)),  # the phase of a loop gain (a Bode lesson: a false A322)
        ("⌊x⌋\\_ε", ("x", "epsilon")),  # x rounded down to a grid ε (a rounding lesson)
    ],
)
def test_expressions_of_real_glossaries(written, mentioned):
    cell = read(written)
    assert (cell.kind, cell.names, cell.mentions) == (EXPRESSION, (), mentioned)


def test_a_multi_letter_base_with_a_subscript_mentions_its_latex_reading():
    """`CD_{\\text{after etch}}` is C times D_after_etch to LaTeX."""
    assert read("CD_after etch").mentions == ("C", "D_after_etch")
    assert read("LR⁺").mentions == () and read("eta_max").mentions == ()


def test_a_sign_in_a_subscript_scans_as_the_parser_names_it():
    assert scan(r"R_{\square}=\rho").names == ("R_square", "rho")
    assert scan(r"\bar\eta_{\cos}").names == ("eta_bar_cos",)


def test_a_list_of_symbols_counts_words_per_symbol():
    assert words("η(t), η_max, η_min, T_w, T") == 1
    assert words("Query heads per layer") == 4


def test_prose_mentions_names_under_the_convention():
    text = "Dividing by √dₖ keeps T² scores (p_j − δ_ij)/τ; ΔV and a model's A, I."
    found = mentions(text)
    assert {"d_k", "T", "p_j", "delta_ij", "tau", "DeltaV"} <= found
    assert not {"a", "A", "I"} & found


def test_keys_fold_what_the_convention_leaves_open():
    assert key("varepsilon") == key("epsilon")
    assert key("varphi") == key("phi")
    assert key("L_scr") == key("L_cal")
    assert key("x_i_hat") == key("x_hat_i")
    assert key("k_SiO2") == key("k_SiO_2")
    assert key("d_k") != key("d_v") and key("T") != key("t")


def test_one_letter_symbols():
    assert all(is_letter(name) for name in ("x", "T", "tau", "Delta", "varepsilon"))
    assert not any(is_letter(name) for name in ("d_k", "Var", "x_hat", "DeltaV", "1"))


# --- the scan: what is not a symbol ---------------------------------------------------------


def test_units_after_a_number_are_no_symbols():
    found = scan(
        r"V_T=\frac{kT}{q}\approx 25.9\,\mathrm{mV},\qquad B=32\times 10^{9}\,\text{bits/s}"
    )
    assert found.names == ("V_T", "k", "T", "q", "B")
    assert set(found.units) == {"mV", "bits/s", "bits", "s"}  # each word of a unit too


@pytest.mark.parametrize(
    ("latex", "units"),
    [
        (r"R\approx\frac{\eta\,\lambda}{1.2398\ \mu\mathrm{m}}\ \mathrm{A/W}", ("µm", "A/W")),
        (r"y=\frac{a}{x}\,\mathrm{W\cdot m^{-2}},\qquad x=a", ("W·m^-2",)),
        (r"y\approx a\,x~\mathrm{kg\,m^2}", ("kg m^2",)),
    ],
)
def test_a_unit_spaced_off_at_the_end_of_a_side_is_no_symbol(latex, units):
    """photodiode-responsivity writes the unit of a result after its fraction."""
    found = scan(latex)
    assert set(units) <= set(found.units)
    assert not {"A", "W", "m", "kg", "mu"} & set(found.names)


@pytest.mark.parametrize(
    ("latex", "name"),
    [
        (r"y=a\,\mathrm{W}\,x", "W"),  # a factor in the middle of the side
        (r"y=a\,\mathrm{K}+x", "K"),  # a term follows
        (r"y=a\mathrm{W}", "W"),  # not spaced off
        (r"y=a\,\mathrm{Q}", "Q"),  # no unit reads `Q`
    ],
)
def test_an_upright_letter_that_is_no_trailing_unit_is_a_name(latex, name):
    assert name in scan(latex).names


def test_a_unit_name_also_used_as_a_symbol_stays_a_symbol():
    found = scan(r"V=5\,\mathrm{V}")
    assert "V" in found.names and "V" in found.units


@pytest.mark.parametrize(
    ("latex", "differential"),
    [
        (r"\frac{dy}{dx}=f", True),
        (r"\frac{\mathrm{d}y}{\mathrm{d}t}", True),
        (r"Q=\int_0^T I(t)\,dt", True),
        (r"\frac{d^2 x}{dt^2}=a", True),
        (r"y=d_k x", False),
        (r"y=d\cdot x", False),
    ],
)
def test_the_differential_d(latex, differential):
    assert scan(latex).differential is differential


@pytest.mark.parametrize(
    ("latex", "imaginary"),
    [
        (r"v=V e^{j\omega t}", ("j",)),
        (r"z=x+\mathrm{i}y", ("i",)),
        (r"Z=R+j\omega L", ("j",)),
        (r"y=x_i+j", ()),
    ],
)
def test_imaginary_units(latex, imaginary):
    assert scan(latex).imaginary == imaginary


def test_constants_operators_and_functions_are_no_symbols():
    found = scan(r"\mathbb{E}[X]+E[Y]+e^{x}+\operatorname{softmax}_{\mathrm{rows}}(z)+e_k")
    assert found.names == ("X", "Y", "x", "z", "e_k")
    assert found.operators == ("E", "E_bb")
    assert found.functions == ("softmax", "softmax_rows")
    assert scan(r"u=\exp\!\big(-(1+x)\big)+\tanh y").functions == ("exp", "tanh")


@pytest.mark.parametrize(
    ("latex", "operators", "names"),
    [
        (r"P\{N(t)=k\}=x", ("P",), ("N", "t", "k", "x")),
        (r"P\left\{T>t\right\}=x", ("P",), ("T", "t", "x")),
        (r"\mathbb{P}(A\mid B)=x", ("P", "P_bb"), ("A", "B", "x")),
        (r"\mathbb{E}_{\theta}\left[L\right]=x", ("E", "E_bb"), ("theta", "L", "x")),
        (r"P(t)=I V", (), ("P", "t", "I", "V")),  # power over time: no condition
        (r"P=a(b+c)", (), ("P", "a", "b", "c")),
        (r"E(k)=x", (), ("E", "k", "x")),  # a plain E takes a square bracket
        (r"E_g[1-x]=y", (), ("E_g", "x", "y")),  # a subscripted E is a name
        (r"P(\|x\|)=y", (), ("P", "x", "y")),  # a norm is no condition
    ],
)
def test_probability_and_expectation_are_operators(latex, operators, names):
    found = scan(latex)
    assert (found.operators, found.names) == (operators, names)


def test_index_expressions_name_their_base():
    found = scan(r"h_t=W x_{t-1}+b_{i,j}")
    assert "h_t" in found.names and "b_i_j" in found.names
    assert {"x", "b", "h"} <= set(found.bases) and "t" in found.names


def test_scan_positions_point_at_the_name():
    latex = r"y=\alpha x + \hat{z}_k"
    found = scan(latex)
    for name, written in (("y", "y"), ("alpha", "\\alpha"), ("x", "x"), ("z_hat_k", "\\hat")):
        assert latex[found.positions[name] :].startswith(written)


@pytest.mark.parametrize(
    "latex", ["{" * 5000, "}" * 50, r"\hat", r"x_", r"x^", r"\frac{", "\\", r"\text{", "é∑"]
)
def test_the_scan_accepts_any_input(latex):
    scan(latex)


@pytest.mark.parametrize(
    "latex",
    [
        "\\mathbf{" * 20_000 + "x+" + "}" * 20_000,
        "\\hat" * 20_000 + "+",
        "\\text{" + "a " * 50_000 + "}",
        "x_{a}" * 20_000,
    ],
)
def test_the_scan_of_deeply_nested_input_is_linear(latex):
    """Quadratic work on these would take minutes; linear work takes well under a second."""
    scan(latex)


# --- the parser's names: the same convention --------------------------------------------------

PARSED = [
    (r"y=d_k", "d_k", "d_k"),
    (r"y=H_{\mathrm{kv}}", "H_kv", "H_kv"),
    (r"y=B_{\text{tok}}", "B_tok", "B_tok"),
    (r"y=\tau", "τ", "tau"),
    (r"y=\hat{x}_i", "x̂_i", "x_hat_i"),
    (r"y=\mathbf{x}", "𝐱", "x"),
    (r"y=\varepsilon", "ε", "varepsilon"),
]


@pytest.mark.parametrize(("latex", "written", "name"), PARSED)
def test_parsed_names_match_the_glossary(latex, written, name):
    from atlas_build.latex import parse_relations
    from atlas_build.lesson.usage import tree_names

    (relation,) = parse_relations(latex)
    found = tree_names([relation.lhs, relation.rhs])
    assert list(found.names) == ["y", name]
    assert [key(n) for n in canonical(written)] == [key(name)]


def test_hand_built_trees_for_notation_the_parser_may_not_read_yet():
    """`\\Delta V`, `f'`, `x^{*}`, `\\mathcal{P}`, a bound accented family: named by the
    convention, the glossary spellings find them."""
    import sympy

    from atlas_build.lesson.usage import tree_names

    i, n = sympy.symbols("i n")
    x_hat = sympy.IndexedBase("x_hat")
    expression = (
        sympy.Sum(x_hat[i] * sympy.Symbol("f_prime"), (i, 1, n))
        + sympy.Symbol("DeltaV") * sympy.Symbol("x_star")
        + sympy.Symbol("P_cal")
        + sympy.Function("softmax")(sympy.Symbol("z"))
    )
    found = tree_names([expression])
    keys = {key(name) for name in (*found.names, *found.bases)}
    for written in ("ΔV", "f′", "x*", "𝒫", "z"):
        assert key(canonical(written)[0]) in keys
    assert "x_hat" in found.bases and set(found.bound) == {"i", "n"}
    assert list(found.functions) == ["softmax"]


def test_a_multi_letter_name_is_read_by_latex_as_its_letters() -> None:
    """`NG` (a noise gain) written `NG\\,\\frac{…}` in an equation is N times G to LaTeX: the
    glossary entry mentions N and G (no A321 for them), and is used through them (no A320)."""
    cell = read("NG")
    assert cell.names == ("NG",) and set(cell.mentions) == {"N", "G"}
