"""Glossary symbol text under the shared naming convention, and the units mapping."""

from __future__ import annotations

import pytest

from atlas_build.units import SymbolError, UnitSpec, symbol_names, units_from_glossary


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("d_k", ["d_k"]),
        ("H_{kv}", ["H_kv"]),
        ("V_bi", ["V_bi"]),
        ("k_B", ["k_B"]),
        ("τ", ["tau"]),
        ("Δ", ["Delta"]),
        ("ε", ["epsilon"]),
        ("ϵ", ["epsilon"]),
        ("φ", ["phi"]),
        ("ϕ", ["phi"]),
        ("λ", ["lambda"]),
        ("Ω", ["Omega"]),
        ("ΔV", ["DeltaV"]),
        ("ΔV_bi", ["DeltaV_bi"]),
        ("x̂", ["x_hat"]),
        ("ŷ", ["y_hat"]),
        ("x̃", ["x_tilde"]),
        ("x̄", ["x_bar"]),
        ("ẋ", ["x_dot"]),
        ("x̂_i", ["x_hat_i"]),
        ("x̂ᵢ", ["x_hat_i"]),
        ("f'", ["f_prime"]),
        ("f′", ["f_prime"]),
        ("f''", ["f_prime2"]),
        ("f″", ["f_prime2"]),
        ("𝐱", ["x"]),
        ("𝒫", ["P_cal"]),
        ("ℒ", ["L_cal"]),
        ("ℝ", ["R_bb"]),
        ("𝔼", ["E_bb"]),
        ("𝔤", ["g_frak"]),
        ("N₀", ["N_0"]),
        ("Iⱼ", ["I_j"]),
        ("nᵢ", ["n_i"]),
        ("Nᵢⱼ", ["N_ij"]),
        ("k_SiO₂", ["k_SiO_2"]),
        ("μₙ", ["mu_n"]),
        ("µₙ", ["mu_n"]),
        ("n⁺", ["n_plus"]),
        ("p⁻", ["p_minus"]),
        ("n^+", ["n_plus"]),
        ("x*", ["x_star"]),
        ("x^*", ["x_star"]),
        ("x^{\\ast}", ["x_star"]),
        ("x†", ["x_dagger"]),
        ("ΔG, ΔG°", ["DeltaG", "DeltaG_circ"]),
        ("d_½", ["d_1/2"]),
        ("T\\_q,T\\_k", ["T_q", "T_k"]),
        ("q,k", ["q", "k"]),
        ("δ\\_ij", ["delta_ij"]),
        ("Var", ["Var"]),
        ("Var(q^T k)", ["Var"]),
        ("$d_k$", ["d_k"]),
        ("ℓ", ["ell"]),
        ("ℏ", ["hbar"]),
    ],
)
def test_glossary_symbols_follow_the_convention(text: str, names: list[str]) -> None:
    assert symbol_names(text) == names


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x²", "power"),
        ("x⁻¹", "power"),
        ("x^2", "power"),
        ("a b", "no spaces"),
        ("", "empty"),
        ("a,,b", "empty"),
        ("a+b", "cannot be part"),
        ("x" * 100, "longer"),
        ("_", "no symbol"),
    ],
)
def test_text_that_names_no_symbol(text: str, message: str) -> None:
    with pytest.raises(SymbolError, match=message):
        symbol_names(text)


def test_latex_symbol_text_is_read_by_the_parser() -> None:
    pytest.importorskip("atlas_build.latex")
    assert symbol_names("\\tau") == ["tau"]
    assert symbol_names("H_{\\mathrm{kv}}") == ["H_kv"]
    with pytest.raises(SymbolError):
        symbol_names("\\frac{a}{b}")


def test_units_mapping_from_a_glossary() -> None:
    built = units_from_glossary(
        [
            ("V\\_bi", "V"),
            ("k\\_B", "J/K"),
            ("μₙ", "cm²/(V·s)"),
            ("n\\_i", "cm⁻³"),
            ("T\\_q,T\\_k", "counts"),
            ("x²", "m²"),
            ("L", "furlong per fortnight"),
            ("V\\_bi", "V (at 300 K)"),
            ("n\\_i", "s"),
            ("k\\_B", "mJ/K"),
        ]
    )
    assert sorted(built.units) == ["T_k", "T_q", "V_bi", "k_B", "mu_n", "n_i"]
    assert built.units["T_q"] is built.units["T_k"]
    assert built.units["V_bi"].text == "V"  # the first entry wins
    assert isinstance(built.units["mu_n"], UnitSpec)
    problems = [(p.entry, p.field) for p in built.problems]
    assert problems == [(5, "symbol"), (6, "unit"), (8, "conflict"), (9, "conflict")]
    assert "another size of that dimension" in built.problems[3].message
    assert "cannot read unit 'furlong per fortnight': not a unit of the vocabulary" in (
        built.problems[1].message
    )
    assert built.problems[1].column == 0


def test_a_caller_may_bring_its_own_symbol_reader() -> None:
    built = units_from_glossary(
        [("a", "V"), ("b", "s")], names=lambda text: [text.upper()] * (text == "a")
    )
    assert list(built.units) == ["A"]
    assert [(p.entry, p.field) for p in built.problems] == [(1, "symbol")]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Cᵢ₊₁", ["C_i+1"]),
        ("Tᵢ₋₁", ["T_i-1"]),
        ("C_{i+1}", ["C_i+1"]),
        ("z_1−α/2", ["z_1-alpha/2"]),
        ("ḡr", ["g_bar_r"]),
        ("R_□", ["R_square"]),
        ("x_∞", ["x_infty"]),
        ("ΔL_90°", ["DeltaL_90"]),  # the 90° turn's; the units side had read DeltaL_90_circ
        ("NR@k", ["NR@k"]),  # a metric at a cut-off
        ("E°", ["E_circ"]),
        ("T₆₀ᴱ", ["T^E_60"]),  # Eyring's T₆₀, `T_{60}^{\mathrm{E}}`: a variant, not a power
    ],
)
def test_spellings_of_real_glossaries_name_as_the_lesson_model_does(
    text: str, names: list[str]
) -> None:
    """The units side and the lesson model (`lesson.symbols.canonical`) agree on the
    spellings other glossaries use: index expressions in subscripts, letters after an accent."""
    from atlas_build.lesson import canonical

    assert symbol_names(text) == names == canonical(text)
