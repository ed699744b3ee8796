"""claims.infer.lists: relations over lists, checked at the lists a paragraph writes.

Per pattern: unnamed lists found by their values (softmax at a temperature the paragraph
writes as a bare number), named lists (`x = [...]`) with rounded inputs, a plain symbol
through a sum; a list edited once verifies nothing and reports nothing."""

from __future__ import annotations

from typing import Any

import sympy

from atlas_build.claims.infer import lists
from atlas_build.latex import Relation

_SOFTMAX = r"""
## Science and assumptions

### Softmax with temperature

$$
p_i=\frac{e^{z_i/\tau}}{\sum_{j=1}^{n}e^{z_j/\tau}}
$$

Symbols and units

p\_i

Probability of outcome i

dimensionless

z\_i

Logit of outcome i

dimensionless

τ

Temperature

dimensionless

n

Number of outcomes

count

## Engineering example

With logits \[2,1,0\] and temperature 1, the probabilities to three decimals are
\[0.665,0.245,0.090\]. At temperature 0.5 they are \[0.867,0.117,0.016\].
"""

_NORM = r"""
## Science and assumptions

### Normalization

$$
\mu=\frac{1}{d}\sum_{i=1}^{d}x_i,\qquad y_i=\gamma_i\hat{x}_i+\beta_i
$$

Symbols and units

x\_i

Feature i

dimensionless

μ

Mean of the features

dimensionless

d

Number of features

count

x̂\_i

Normalized feature i

dimensionless

y\_i

Output feature i

dimensionless

γ\_i

Gain of feature i

dimensionless

β\_i

Bias of feature i

dimensionless

## Engineering example

Take x = \[1,2,4,9\], whose mean is μ = 4.

The normalized vector is x̂ = \[−0.9733,−0.6489,0.0000,1.6222\]. With γ = \[2,1,1,0.5\] and
β = \[0,0.5,−0.5,0\], the output is y = \[−1.9467,−0.1489,−0.5000,0.8111\].
"""


def _computed(record: Any) -> list[str]:
    return [
        claim["message"]
        for claim in record.claims
        if claim.get("source") == "inferred" and "(computed)" in claim["message"]
    ]


def _errors(record: Any) -> list[str]:
    return [d.code for d in record.diagnostics if d.severity.value == "error"]


def test_unnamed_lists_are_found_by_their_values(authored) -> None:
    record = authored(_SOFTMAX)
    shown = _computed(record)
    assert _errors(record) == []
    assert len(shown) == 2, shown
    assert "\\[2,1,0\\] → z_i, 1 → τ; \\[0.665,0.245,0.090\\] → p_i" in shown[0]
    assert "0.5 → τ; \\[0.867,0.117,0.016\\] → p_i" in shown[1]
    assert record.coverage["relations"]["verified"] == 1


def test_a_list_edited_once_verifies_nothing_and_reports_nothing(authored) -> None:
    record = authored(_SOFTMAX.replace("0.867,0.117", "0.868,0.117"))
    shown = _computed(record)
    assert _errors(record) == []
    assert len(shown) == 1 and "0.665" in shown[0]


def test_a_result_written_to_few_digits_is_not_found_by_its_value(authored) -> None:
    """`[0.7,0.2,0.1]` (3 significant digits in all) could match some reading by chance."""
    body = _SOFTMAX.replace("\\[0.665,0.245,0.090\\]", "\\[0.7,0.2,0.1\\]")
    record = authored(body.replace(" At temperature 0.5 they are \\[0.867,0.117,0.016\\].", ""))
    assert _computed(record) == []


def test_named_lists_a_sum_and_rounded_inputs(authored) -> None:
    """μ through its sum; y from x̂ written to four decimals, its rounding carried (y₁ =
    2 × −0.9733 = −1.9466, written −1.9467 from the unrounded −0.97333)."""
    record = authored(_NORM)
    shown = _computed(record)
    assert _errors(record) == []
    assert any("\\[1,2,4,9\\] → x; 4 → μ" in m for m in shown), shown
    assert any("→ y_i (computed)" in m and "→ γ_i" in m for m in shown), shown
    assert record.coverage["relations"]["verified"] == 2


def test_a_named_result_that_does_not_fit_verifies_nothing(authored) -> None:
    record = authored(_NORM.replace("−0.1489", "−0.1589"))
    shown = _computed(record)
    assert _errors(record) == []
    assert not any("→ y_i" in m for m in shown)


def test_what_is_a_relation_over_lists() -> None:
    p_i, z_i, z_j, tau = sympy.symbols("p_i z_i z_j tau")
    z, j, n = sympy.IndexedBase("z"), sympy.Symbol("j"), sympy.Symbol("n")
    rhs = sympy.exp(z_i / tau) / sympy.Sum(sympy.exp(z[j] / tau), (j, 1, n))
    softmax = Relation(p_i, rhs, "=", 0, 0, "")
    form = lists.shape(0, 0, softmax, {"p", "z"})
    assert form is not None and form.listed and form.output == "p" and form.letter == "i"
    assert form.vectors == ("z",) and form.scalars == ("tau",) and form.ranges == ("n",)
    jacobian = Relation(sympy.Symbol("d_ij"), p_i * z_j, "=", 0, 0, "")
    assert lists.shape(0, 1, jacobian, {"p", "z"}) is None  # two free indices
    computed = lists.compute(form, {"z": [2, 1, 0]}, {"tau": sympy.Integer(1)})
    assert computed is not None
    assert [round(float(v), 3) for v in computed] == [0.665, 0.245, 0.090]


def test_computing_stops_when_the_lessons_budget_is_spent() -> None:
    """A lesson of many long lists computes a bounded number of operations, counted (not
    timed), so its report is the same on every run."""
    p_i, z_i, tau = sympy.symbols("p_i z_i tau")
    z, j, n = sympy.IndexedBase("z"), sympy.Symbol("j"), sympy.Symbol("n")
    rhs = sympy.exp(z_i / tau) / sympy.Sum(sympy.exp(z[j] / tau), (j, 1, n))
    form = lists.shape(0, 0, Relation(p_i, rhs, "=", 0, 0, ""), {"p", "z"})
    assert form is not None
    values = {"z": [sympy.Integer(k) for k in range(8)]}
    budget = lists.Budget(lists.MAX_COMPUTED)
    done = 0
    while lists.compute(form, values, {"tau": sympy.Integer(1)}, budget) is not None:
        done += 1
    assert 0 < done < lists.MAX_COMPUTED // 8  # each reading costs its elements × its size
    assert lists.compute(form, values, {"tau": sympy.Integer(1)}, budget) is None


def test_a_written_claim_on_a_list_wins(authored) -> None:
    """A claim that binds the probabilities: the inferred list check on them is not
    reported, as for one number."""
    claims = r"""
    claims:
      - id: probabilities
        kind: formula
        quote: "temperature 1, the probabilities to three decimals are \\[0.665,0.245,0.090\\]."
        bind: [tau, p]
        params:
          values: {z: [2, 1, 0], tau: 1}
          use: [{equation: 0, relation: 0}]
    """
    record = authored(_SOFTMAX, claims)
    assert [c["status"] for c in record.claims if c["id"] == "probabilities"] == ["pass"]
    shown = _computed(record)
    assert not any("0.665" in m for m in shown), shown
    assert any("0.867" in m for m in shown), shown


_ENTROPY = r"""
## Science and assumptions

### Entropy

$$
H=-\sum_{i=1}^{n}p_i\ln p_i
$$

Symbols and units

H

Entropy of the distribution

dimensionless

p\_i

Probability of outcome i

dimensionless

n

Number of outcomes

count

## Engineering example

For p = \[0.665,0.245,0.090\] it comes to {H}, out of 2 or 3 outcomes.
"""


def test_one_precise_unnamed_number_is_found_by_its_value(authored) -> None:
    """`0.832` (half a unit is 0.06% of it) is the entropy of the named list; `0.8` could
    agree by chance and verifies nothing (no noun names it: `meant`)."""
    precise = _computed(authored(_ENTROPY.replace("{H}", "0.832"), slug="precise"))
    assert len(precise) == 1 and "0.832 → H (computed)" in precise[0], precise
    assert _computed(authored(_ENTROPY.replace("{H}", "0.8"), slug="coarse")) == []


def test_a_verified_list_stays_verified_where_another_check_reads_it(authored) -> None:
    """The softmax verifies `[0.665,0.245,0.090]`; the entropy then reads it as its
    input, which must not demote its numbers from verified to input."""
    softmax = "p_i=\\frac{e^{z_i/\\tau}}{\\sum_{j=1}^{n}e^{z_j/\\tau}}"
    entropy = "H=-\\sum_{i=1}^{n}p_i\\ln p_i"
    body = _SOFTMAX.replace(softmax, f"{softmax},\\qquad {entropy}")
    body = body.replace("τ\n\nTemperature", "H\n\nEntropy\n\ndimensionless\n\nτ\n\nTemperature")
    body = body.replace("\\[0.665,0.245,0.090\\].", "\\[0.665,0.245,0.090\\], entropy 0.832.")
    record = authored(body)
    shown = _computed(record)
    assert any("0.832 → H" in m for m in shown) and any("0.665" in m for m in shown), shown
    both = authored(_SOFTMAX, slug="plain").coverage["numbers"]["verified"]
    assert record.coverage["numbers"]["verified"] >= both + 1


def test_sums_inside_sums_over_long_lists_are_not_written_out() -> None:
    """Three nested sums over 32 elements would be 32,768 terms: not computed at all."""
    x, i, j, k, n = sympy.IndexedBase("x"), *sympy.symbols("i j k n")
    rhs = sympy.Sum(sympy.Sum(sympy.Sum(x[i] * x[j] * x[k], (k, 1, n)), (j, 1, n)), (i, 1, n))
    form = lists.shape(0, 0, Relation(sympy.Symbol("s"), rhs, "=", 0, 0, ""), {"x"})
    assert form is not None
    assert lists.compute(form, {"x": [sympy.Integer(1)] * 32}, {}) is None
    small = lists.compute(form, {"x": [sympy.Integer(1)] * 4}, {})
    assert small is not None and [float(v) for v in small] == [64.0]


_MIXTURE = r"""
## Science and assumptions

### A causal value mixture

$$
o=\sum_j a_jv_j
$$

Symbols and units

o

Scalar attention output in this example

value units

a\_j

Softmax probability over allowed keys

dimensionless

v\_j

Allowed scalar value

value units

s\_j

Pre-softmax score

dimensionless

With allowed scores \[0,ln3\] and scalar values \[2,6\], attention probabilities are
\[0.25,0.75\] and output is 5. At the first causal position only value 2 is allowed, so
output is 2.
"""


def test_lists_and_a_result_named_by_their_nouns(authored) -> None:
    """The seed's worked relation names no list by a symbol: `scores`, `values`,
    `probabilities` and `output` are the nouns of its table's meanings. The output 5 is
    written to one digit, too coarse to be found by its value, yet named by its noun; o is
    verified by example. Another output verifies nothing, and nothing is reported."""
    record = authored(_MIXTURE)
    assert _errors(record) == []
    [shown] = _computed(record)
    assert "\\[0.25,0.75\\] → a" in shown and "\\[2,6\\] → v" in shown and "5 → o" in shown
    assert record.coverage["relations"]["verified"] == 1
    wrong = authored(_MIXTURE.replace("output is 5", "output is 4"), slug="b")
    assert _errors(wrong) == [] and _computed(wrong) == []
