"""Lesson-LaTeX parsing: the reference lesson's equations and each whitelisted construct."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from support import ATTENTION, GRADIENT, MATRICES

from atlas_build.latex import (
    MaxOver,
    MinOver,
    Transposed,
    parse_expression,
    parse_relations,
)

ROOT = Path(__file__).resolve().parents[1]

a, b, c, x, y, z = sp.symbols("a b c x y z")
i, j, k, m, n, o, t = sp.symbols("i j k m n o t")
d_k, tau = sp.symbols("d_k tau")
A_, V_ = sp.IndexedBase("a"), sp.IndexedBase("v")


def nc(name: str) -> sp.Symbol:
    return sp.Symbol(name, commutative=False)


def test_seed_equations_are_the_reference_lessons() -> None:
    record = ROOT / "content" / "attention" / "record.json"
    if not record.exists():
        pytest.skip("reference lesson not present")
    content = json.loads(record.read_text(encoding="utf-8"))["content"]
    assert f"$$\n{ATTENTION}\n$$" in content
    assert f"$$\n{GRADIENT}\n$$" in content


def test_attention_equation_structure() -> None:
    first, second, third = parse_relations(ATTENTION, matrices=MATRICES)
    scores = nc("Q") * Transposed(nc("K")) / sp.sqrt(d_k) + nc("M")
    assert (first.lhs, first.op) == (nc("A"), "=")
    assert first.rhs == sp.Function("softmax_rows")(scores)
    assert (second.lhs, second.op, second.rhs) == (nc("Y"), "=", nc("A") * nc("V"))
    assert second.rhs != nc("V") * nc("A")
    assert third.op == "approx"
    assert third.lhs == sp.Function("Var")(Transposed(sp.Symbol("q")) * sp.Symbol("k"))
    assert third.rhs == d_k


def test_attention_relation_spans() -> None:
    relations = parse_relations(ATTENTION, matrices=MATRICES)
    assert [r.source for r in relations] == [
        r"A&=\operatorname{softmax}_{\mathrm{rows}}\!\left(\frac{QK^{\mathsf T}}{\sqrt{d_k}}"
        r"+M\right)",
        "Y=AV",
        r"\operatorname{Var}(q^{\mathsf T}k)&\approx d_k",
    ]
    assert relations[0].start == len(r"\begin{aligned}")
    for relation in relations:
        assert ATTENTION[relation.start : relation.end] == relation.source


def test_attention_without_declarations_still_transposes() -> None:
    first, _, third = parse_relations(ATTENTION)
    assert first.rhs.has(Transposed(sp.Symbol("K")))
    assert third.lhs.has(Transposed(sp.Symbol("q")))


def test_gradient_equation_structure() -> None:
    definition, derivative = parse_relations(GRADIENT, indices={"j"})
    s = sp.IndexedBase("s")
    assert (definition.lhs, definition.op) == (o, "=")
    assert definition.rhs == sp.Sum(A_[j] * V_[j], (j, 1, n))
    assert derivative.lhs == sp.Derivative(o, s[j], evaluate=False)
    assert derivative.rhs == A_[j] * (V_[j] - o)
    assert [(r.start, r.source) for r in (definition, derivative)] == [
        (0, r"o=\sum_j a_jv_j"),
        (23, r"\frac{\partial o}{\partial s_j}=a_j(v_j-o)"),
    ]


def test_gradient_without_indices_uses_composite_names() -> None:
    definition, derivative = parse_relations(GRADIENT)
    a_j, v_j, s_j = sp.symbols("a_j v_j s_j")
    assert definition.rhs == sp.Sum(A_[j] * V_[j], (j, 1, n))
    assert derivative.lhs == sp.Derivative(o, s_j, evaluate=False)
    assert derivative.rhs == a_j * (v_j - o)


def test_caller_bounds_replace_the_default_range() -> None:
    definition, _ = parse_relations(GRADIENT, bounds={"j": (1, 3)})
    assert definition.rhs == sp.Sum(A_[j] * V_[j], (j, 1, 3))


def test_other_lesson_equations() -> None:
    p, zz = sp.IndexedBase("p"), sp.IndexedBase("z")
    (softmax,) = parse_relations(
        r"p_i=\frac{e^{z_i/\tau}}{\sum_{j=1}^{n} e^{z_j/\tau}}", indices={"i"}
    )
    assert softmax.lhs == p[i]
    assert softmax.rhs == sp.exp(zz[i] / tau) / sp.Sum(sp.exp(zz[j] / tau), (j, 1, n))
    (entropy,) = parse_relations(r"H(p)=-\sum_i p_i\ln p_i", functions={"H"})
    assert entropy.lhs == sp.Function("H")(sp.Symbol("p"))
    assert entropy.rhs == -sp.Sum(p[i] * sp.log(p[i]), (i, 1, n))
    (cache,) = parse_relations(r"\text{bytes}=2\cdot L\cdot H_{kv}\cdot d_h\cdot T\cdot b")
    assert cache.lhs == sp.Symbol("bytes")
    assert cache.rhs == 2 * sp.Mul(*sp.symbols("L H_kv d_h T b"))


def _expr(latex: str, **options: Any) -> sp.Expr:
    return parse_expression(latex, **options)


CONSTRUCTS: list[tuple[str, dict[str, Any], Any]] = [
    ("2L", {}, 2 * sp.Symbol("L")),
    ("ab", {}, a * b),
    ("0.25", {}, sp.Rational(1, 4)),
    ("x^{12}", {}, x**12),
    ("x^12", {}, 2 * x),
    (r"\frac12", {}, sp.Rational(1, 2)),
    (r"\frac{a}{b}", {}, a / b),
    (r"\tfrac{a}{b}", {}, a / b),
    (r"\dfrac{a}{b}", {}, a / b),
    ("a/b c", {}, a * c / b),
    # a derivative written inline, as `\frac{dR}{dt}` (it was d·R/(d·t), cancelled to R/t)
    ("dR/dt", {}, sp.Derivative(sp.Symbol("R"), sp.Symbol("t"))),
    # a comma pair the glossary declares as one name (`Φ_e,λ`, the spectral flux)
    (r"\Phi_{e,\lambda}", {"symbols": {"Phi_e_lambda"}}, sp.Symbol("Phi_e_lambda")),
    (r"a/b\,c", {}, a * c / b),
    (r"a/\tfrac12\,b", {}, 2 * a / b),  # a number set against a quantity counts it
    (r"a/2\,b", {}, a / (2 * b)),
    (r"a\cdot b", {}, a * b),
    (r"a\times b", {}, a * b),
    ("a*b", {}, a * b),
    ("-a+b", {}, b - a),
    ("+a", {}, a),
    (r"\sqrt{x}", {}, sp.sqrt(x)),
    (r"\sqrt[3]{x}", {}, x ** sp.Rational(1, 3)),
    (r"e^{x}", {}, sp.exp(x)),
    ("e", {}, sp.E),
    ("e", {"symbols": {"e"}}, sp.Symbol("e")),
    (r"\mathrm{e}^{x}", {}, sp.exp(x)),
    (r"\exp(x)", {}, sp.exp(x)),
    (r"\exp x", {}, sp.exp(x)),
    (r"\ln x", {}, sp.log(x)),
    (r"\log x", {}, sp.log(x)),
    (r"\log_2 x", {}, sp.log(x, 2)),
    (r"\ln 2x", {}, sp.log(2 * x)),
    (r"\log x\cdot y", {}, sp.log(x) * y),
    (r"\ln^2 x", {}, sp.log(x) ** 2),
    (r"\ln(x)^2", {}, sp.log(x) ** 2),
    (r"\alpha\beta", {}, sp.Symbol("alpha") * sp.Symbol("beta")),
    (r"\Omega", {}, sp.Symbol("Omega")),
    (r"\varepsilon", {}, sp.Symbol("varepsilon")),
    (r"\ell", {}, sp.Symbol("ell")),
    (r"\pi", {}, sp.pi),
    (r"\pi", {"symbols": {"pi"}}, sp.Symbol("pi")),
    (r"\infty", {}, sp.oo),
    (r"\left(a+b\right)c", {}, (a + b) * c),
    (r"\left[a+b\right]", {}, a + b),
    (r"\left|x\right|", {}, sp.Abs(x)),
    (r"\lvert x\rvert", {}, sp.Abs(x)),
    (r"\big(a\big)\Bigl(b\Bigr)", {}, a * b),
    (r"a\,b\;c\!x\:y\ z", {}, a * b * c * x * y * z),
    (r"a\quad b\qquad c", {}, a * b * c),
    (r"\displaystyle\textstyle a", {}, a),
    (r"\mathbf{x}", {}, x),
    (r"\boldsymbol{x}", {}, x),
    (r"\mathit{x}", {}, x),
    (r"\mathtt{x}", {}, x),
    (r"\mathrm{rows}", {}, sp.Symbol("rows")),
    (r"\text{bytes per token}", {}, sp.Symbol("bytes_per_token")),
    (r"\textrm{a}\textit{b}\textbf{c}", {}, a * b * c),
    (r"\mathsf{T}", {}, sp.Symbol("T")),
    ("d_k", {}, d_k),
    ("H_{kv}", {}, sp.Symbol("H_kv")),
    (r"H_{\mathrm{kv}}", {}, sp.Symbol("H_kv")),
    (r"x_{\max}", {}, sp.Symbol("x_max")),
    (r"z_\alpha", {}, sp.Symbol("z_alpha")),
    ("x_1", {}, sp.Symbol("x_1")),
    ("x_{t-1}", {}, sp.IndexedBase("x")[t - 1]),
    ("x_{i,j}", {}, sp.IndexedBase("x")[i, j]),
    ("W_{ij}", {"indices": {"i", "j"}}, sp.IndexedBase("W")[i, j]),
    ("W_{ij}", {"indices": {"j"}}, sp.Symbol("W_ij")),
    (r"x_{\mathrm{j}}", {"indices": {"j"}}, sp.Symbol("x_j")),
    ("a_jv_j", {"indices": {"j"}}, A_[j] * V_[j]),
    (r"\hat{y}", {}, sp.Symbol("y_hat")),
    (r"\bar{x}_i", {"indices": {"i"}}, sp.IndexedBase("x_bar")[i]),
    (r"\tilde{z}", {}, sp.Symbol("z_tilde")),
    (r"\sum_{j=1}^{n} a_j", {}, sp.Sum(A_[j], (j, 1, n))),
    (r"\sum_{j}^{m} a_j", {}, sp.Sum(A_[j], (j, 1, m))),
    (r"\sum_j a_j + c", {}, sp.Sum(A_[j], (j, 1, n)) + c),
    (r"\sum\limits_{i,j} x_{ij}", {}, sp.Sum(sp.IndexedBase("x")[i, j], (i, 1, n), (j, 1, n))),
    (r"\sum_{t=1}^{T}t", {}, sp.Sum(t, (t, 1, sp.Symbol("T")))),
    (r"\prod_{k=1}^{m} k", {}, sp.Product(k, (k, 1, m))),
    (r"\max_j z_j", {}, MaxOver(sp.IndexedBase("z")[j], (j, 1, n))),
    (r"\min_j z_j", {}, MinOver(sp.IndexedBase("z")[j], (j, 1, n))),
    (r"\max(a, b)", {}, sp.Max(a, b)),
    (r"\min(a, b)", {}, sp.Min(a, b)),
    (r"\lim_{\tau\to 0} \tau x", {}, sp.Limit(tau * x, tau, 0, dir="+-")),
    (r"\lim_{x\to 0^+} x", {}, sp.Limit(x, x, 0, dir="+")),
    (r"\lim_{x\to 0^{-}} x", {}, sp.Limit(x, x, 0, dir="-")),
    (r"\frac{\partial o}{\partial x}", {}, sp.Derivative(o, x, evaluate=False)),
    (r"\frac{\partial^2 f}{\partial x\partial y}", {}, sp.Derivative(sp.Symbol("f"), x, y)),
    (r"\frac{\partial^2 f}{\partial x^2}", {}, sp.Derivative(sp.Symbol("f"), (x, 2))),
    (r"\frac{\mathrm{d}y}{\mathrm{d}x}", {}, sp.Derivative(y, x, evaluate=False)),
    (r"\frac{\partial}{\partial x} x^2y", {}, sp.Derivative(x**2 * y, x, evaluate=False)),
    (r"\frac{\partial \ln p}{\partial z}", {}, sp.Derivative(sp.log(sp.Symbol("p")), z)),
    (r"K^{\mathsf T}", {"matrices": {"K"}}, Transposed(nc("K"))),
    (r"K^\top", {"matrices": {"K"}}, Transposed(nc("K"))),
    (r"K^\intercal", {"matrices": {"K"}}, Transposed(nc("K"))),
    ("K^T", {"matrices": {"K"}}, Transposed(nc("K"))),
    ("(QK)^T", {"matrices": {"Q", "K"}}, Transposed(nc("Q") * nc("K"))),
    ("x^T", {}, x ** sp.Symbol("T")),
    (r"q^{\mathsf T}", {}, Transposed(sp.Symbol("q"))),
    (r"q^{(h)\mathsf T}_i", {}, Transposed(sp.Symbol("q^(h)_i"))),  # head h's query, transposed
    (r"E^{\circ}", {}, sp.Symbol("E_circ")),  # the standard potential, not E in degrees
    ("Q^{-1}", {"matrices": {"Q"}}, nc("Q") ** -1),
    (r"A\times B", {"matrices": {"A", "B"}}, nc("A") * nc("B")),
    ("W_q", {"matrices": {"W"}}, nc("W_q")),
    (
        r"\operatorname{softmax}_{\mathrm{rows}}(x)",
        {},
        sp.Function("softmax_rows")(x),
    ),
    (r"\operatorname{f}(a, b)", {}, sp.Function("f")(a, b)),
    (r"\operatorname{Var} x", {}, sp.Function("Var")(x)),
    ("H(p)", {"functions": {"H"}}, sp.Function("H")(sp.Symbol("p"))),
    ("H(p)^2", {"functions": {"H"}}, sp.Function("H")(sp.Symbol("p")) ** 2),
    ("H(p + q)", {}, sp.Symbol("H") * (sp.Symbol("p") + sp.Symbol("q"))),
    ("H (p)", {}, sp.Symbol("H") * sp.Symbol("p")),
    ("a_j(v_j-o)", {"indices": {"j"}}, A_[j] * (V_[j] - o)),
]


@pytest.mark.parametrize(
    ("latex", "options", "expected"), CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS]
)
def test_construct(latex: str, options: dict[str, Any], expected: Any) -> None:
    assert _expr(latex, **options) == expected


def test_derivative_is_unevaluated() -> None:
    derivative = _expr(r"\frac{\partial}{\partial x} x^2")
    assert isinstance(derivative, sp.Derivative)
    assert derivative.doit() == 2 * x


def test_matrix_products_keep_order() -> None:
    assert _expr("AB", matrices={"A", "B"}) != _expr("BA", matrices={"A", "B"})
    assert _expr("ab") == _expr("ba")


@pytest.mark.parametrize(
    ("latex", "op"),
    [
        ("a=b", "="),
        (r"a\approx b", "approx"),
        (r"a\propto b", "propto"),
        ("a<b", "<"),
        (r"a\le b", "<="),
        (r"a\leq b", "<="),
        ("a>b", ">"),
        (r"a\ge b", ">="),
        (r"a\geq b", ">="),
        (r"a\ne b", "!="),
        (r"a\neq b", "!="),
    ],
)
def test_relation_operators(latex: str, op: str) -> None:
    (relation,) = parse_relations(latex)
    assert (relation.lhs, relation.op, relation.rhs) == (a, op, b)


def test_relational_objects() -> None:
    equal, less, approx = parse_relations(r"a=b,\ a<b,\quad a\approx b")
    assert equal.relational() == sp.Eq(a, b, evaluate=False)
    assert less.relational() == sp.Lt(a, b, evaluate=False)
    assert approx.relational() is None


def test_chain_gives_one_relation_per_operator() -> None:
    latex = r"0\leq H\leq\ln n = c"
    relations = parse_relations(latex)
    assert [(r.op, r.source) for r in relations] == [
        ("<=", r"0\leq H"),
        ("<=", r"H\leq\ln n"),
        ("=", r"\ln n = c"),
    ]


def test_commas_inside_groups_do_not_split() -> None:
    relations = parse_relations(r"f(a, b) = x_{i,j}, \quad c = \max(a, b).", functions={"f"})
    assert [r.source for r in relations] == ["f(a, b) = x_{i,j}", r"c = \max(a, b)"]
    assert relations[1].rhs == sp.Max(a, b)


def test_row_continuation_extends_the_chain() -> None:
    latex = r"\begin{aligned}p&=a+b\\&=c\\&\quad+x,\qquad y=z\end{aligned}"
    relations = parse_relations(latex)
    assert [(r.lhs, r.rhs) for r in relations] == [(sp.Symbol("p"), a + b), (a + b, c + x), (y, z)]
    assert relations[1].source == r"a+b\\&=c\\&\quad+x"


@pytest.mark.parametrize(
    "environment",
    ["aligned", "align", "align*", "gathered", "gather", "gather*", "split", "equation"],
)
def test_environments(environment: str) -> None:
    latex = rf"\begin{{{environment}}} a &= b \\ c &= x \end{{{environment}}}"
    assert [(r.lhs, r.rhs) for r in parse_relations(latex)] == [(a, b), (c, x)]


def test_comments_and_trailing_period() -> None:
    (relation,) = parse_relations("a % a comment\n = b.")
    assert (relation.lhs, relation.rhs) == (a, b)
