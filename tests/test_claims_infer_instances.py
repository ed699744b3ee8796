"""claims.infer.instances: a recurrence's relations taken at the steps its prose names."""

from __future__ import annotations

import sympy

from atlas_build.claims.infer import instances
from atlas_build.latex import parse_relations

ADAM = r"m_t=\beta_1 m_{t-1}+(1-\beta_1)g_t"
CORRECTION = r"\hat m_t=\frac{m_t}{1-\beta_1^t}"


def _one(latex: str):
    [relation] = parse_relations(latex)
    return relation


def test_a_shifted_index_makes_a_letter_a_step() -> None:
    """`m_{t−1}` steps t; an index that is the letter itself (`x_i` summed) steps nothing."""
    assert instances.letters([_one(ADAM), _one(CORRECTION)]) == {"t"}
    assert instances.letters([_one(r"x_{k+1}=x_k(2-a x_k)")]) == {"k"}
    assert instances.letters([_one(r"y=\sum_{i=1}^{n}x_i")]) == set()
    assert instances.letters([_one(r"Q=C_{\mathrm{ox}}V")]) == set()


def test_an_index_two_symbols_share_makes_a_relation_elementwise() -> None:
    """`φ_i = mθ_i` holds for each pair i, and so does `θ_i = b^{−2i/d}` (i stands alone
    too); `m̂_t = m_t/(1 − β₁^t)` is elementwise in t. One symbol with an index and no other
    (`T_j = T_a + Pθ`) is no element of anything."""
    assert instances.letters([_one(r"\phi_i=m\theta_i")]) == {"i"}
    assert instances.letters([_one(r"\theta_i=b^{-2i/d}")]) == {"i"}
    assert instances.letters([_one(CORRECTION)]) == {"t"}
    assert instances.letters([_one(r"T_j=T_a+P\theta")]) == set()


def test_a_relation_at_a_step_names_each_steps_value() -> None:
    """At t = 2: m_t → m_2, m_{t−1} → m_1, g_t → g_2, and a bare t is 2 (β₁^t = β₁²)."""
    at = instances.at(_one(ADAM), "t", 2)
    assert at is not None
    m1, m2, g2, beta = sympy.symbols("m_1 m_2 g_2 beta_1")
    assert at.lhs == m2 and sympy.expand(at.rhs - (beta * m1 + (1 - beta) * g2)) == 0
    corrected = instances.at(_one(CORRECTION), "t", 2)
    assert corrected is not None and corrected.rhs == m2 / (1 - beta**2)
    assert instances.at(_one(ADAM), "t", 0) is None  # m_{−1}: before the first step
    assert instances.at(_one(r"y=a+b"), "t", 1) is None  # nothing in t


def test_a_prose_name_is_a_step_only_of_a_stepped_symbol() -> None:
    """`m₁` (m_1) and `m̂₂` are values of stepped symbols; `β₁` is no step of β, which no
    relation steps; `m₁₀₀` is past any example's steps."""
    relations = [_one(ADAM), _one(CORRECTION)]
    steps = instances.Steps(relations, instances.letters(relations))
    assert steps.find("m_1") == "m_1" and steps.symbol("m_1") == "m_t"
    assert steps.find("m_hat_2") == "m_hat_2"
    assert steps.find("beta_1") is None
    assert steps.find("m_100") is None
    assert steps.steps(["m_1", "m_hat_2", "beta_1"]) == {"t": {1, 2}}
