"""The widened dialect: each construct real lessons write, as the SymPy it becomes."""

from __future__ import annotations

from typing import Any

import pytest
import sympy as sp
from sympy.core.symbol import Str

from atlas_build.latex import parse_equation, parse_expression, parse_relations
from atlas_build.latex.functions import (
    AngleBracket,
    Cardinality,
    Component,
    Compose,
    Convolution,
    Curl,
    Det,
    Divergence,
    Dots,
    Expectation,
    Given,
    Gradient,
    Hadamard,
    Indicator,
    InnerProduct,
    Kronecker,
    Laplacian,
    MatrixLiteral,
    MaxOver,
    Norm,
    Parallel,
    PlusMinus,
    PositivePart,
    Related,
    Rounded,
    Transposed,
    Unit,
    WithUnit,
)
from atlas_build.latex.probability import Probability
from atlas_build.latex.sets import (
    ArgMax,
    ArgMin,
    BigCap,
    BigCup,
    Cap,
    Cup,
    IndexIn,
    IndexRange,
    IntegralOver,
    IntervalOf,
    MinOf,
    SetBuilder,
    SetMax,
    SetMinus,
    SetOf,
    SetSum,
)

a, b, c, d, f, g, h, i, j, k, m, n, p, q, r, s, t, x, y, z = sp.symbols(
    "a b c d f g h i j k m n p q r s t x y z"
)
A, B, C, D, E, G, L, N, P, Q, R, S, T, V, X, Y = sp.symbols("A B C D E G L N P Q R S T V X Y")
theta, sigma, mu, tau, lam, omega = sp.symbols("theta sigma mu tau lambda omega")
F = sp.Function


def _e(latex: str, **options: Any) -> Any:
    return parse_expression(latex, **options)


def unit(value: Any, text: str) -> WithUnit:
    return WithUnit(sp.sympify(value), Unit(text))


FUNCTIONS: list[tuple[str, Any]] = [
    (r"\sin x", sp.sin(x)),
    (r"\cos(\omega t)", sp.cos(omega * t)),
    (r"\tan x", sp.tan(x)),
    (r"\tanh(x)", sp.tanh(x)),
    (r"\sinh x + \cosh x", sp.sinh(x) + sp.cosh(x)),
    (r"\arcsin x", sp.asin(x)),
    (r"\arccos x", sp.acos(x)),
    (r"\arctan(\omega R C)", sp.atan(omega * R * C)),
    (r"\sec x", sp.sec(x)),
    (r"\csc x", sp.csc(x)),
    (r"\cot x", sp.cot(x)),
    (r"\sin^2 x", sp.sin(x) ** 2),
    (r"\sin^{-1} x", sp.asin(x)),
    (r"\exp(x)", sp.exp(x)),
    (r"\log_{10} x", sp.log(x, 10)),
    (r"\lg x", sp.log(x, 10)),
    (r"\ln x", sp.log(x)),
    (r"\max(a, b)", sp.Max(a, b)),
    (r"\min\{a, b\}", sp.Min(a, b)),
    (r"\Pr(X \ge a)", Probability(Str("Pr"), sp.Ge(X, a, evaluate=False))),
    (r"\Pr[X \ge a]", Probability(Str("Pr"), sp.Ge(X, a, evaluate=False))),
    (r"\det A", Det(A)),
    (r"\dim V", F("dim")(V)),
    (r"\ker A", F("ker")(A)),
    (r"\operatorname{sgn}(x)", sp.sign(x)),
    (r"\operatorname{erf}(x)", sp.erf(x)),
    (r"\operatorname{Var}(X)", F("Var")(X)),
    (r"\mathrm{Var}(X)", F("Var")(X)),
    (r"\operatorname{Var}[X]", F("Var")(X)),
    (r"\text{softmax}(z)", F("softmax")(z)),
    (r"f(s_n, e_n)", F("f")(sp.Symbol("s_n"), sp.Symbol("e_n"))),
    (r"Q(s, a)", F("Q")(s, a)),
    (r"f(x)", F("f")(x)),
    (r"f(x + 1)", F("f")(x + 1)),
    (r"x(t)", F("x")(t)),
    (r"\sigma(W x + b)", F("sigma")(sp.Symbol("W") * x + b)),
    (r"p(y \mid x)", F("p")(Given(y, x))),
    (r"P(A|B)", Probability(Str("P"), Given(A, B))),
    (r"P(X = k)", Probability(Str("P"), sp.Eq(X, k, evaluate=False))),
    (r"T(T+1)", T * (T + 1)),
    (r"a (b)", a * b),
    (r"\mathcal{L}(\theta)", F("L_cal")(theta)),
    (r"\operatorname{softmax}(z)_i", Component(F("softmax")(z), i)),
    (r"\operatorname*{arg\,min}_h f(h)", ArgMin(F("f")(h), IndexRange(h, 1, n))),
    (r"\arg\max_x f(x)", ArgMax(F("f")(x), IndexRange(x, 1, n))),
    (r"\argmax_{y \in Y} p(y)", ArgMax(F("p")(y), IndexIn(y, Y))),
    (r"\mathbb{E}[X]", Expectation(X, sp.true)),
    (r"\mathbb{E}_{x\sim p}[f(x)]", Expectation(F("f")(x), Related(x, p, "sim"))),
    (r"\mathbb{E}[X]^2", Expectation(X, sp.true) ** 2),
    (r"\mathbb{E}\left[X \mid Y = y\right]", Expectation(Given(X, sp.Eq(Y, y)), sp.true)),
    (r"\mathbb{1}[y = k]", Indicator(sp.Eq(y, k, evaluate=False))),
    (r"\mathbb{1}_{A}(x)", Indicator(Related(x, A, "in"))),
    (r"f^{-1}(y)", F("f_inv")(y)),
    (r"\Delta n(x)", F("Deltan")(x)),
]


@pytest.mark.parametrize(("latex", "expected"), FUNCTIONS, ids=[c[0] for c in FUNCTIONS])
def test_functions(latex: str, expected: Any) -> None:
    assert _e(latex) == expected


def test_operator_name_without_argument_is_a_quantity() -> None:
    (wer,) = parse_relations(r"\operatorname{WER}=\frac{S+D+I}{N}")
    assert wer.lhs == sp.Symbol("WER")
    assert wer.rhs == (S + D + sp.Symbol("I")) / N
    (recall,) = parse_relations(r"\operatorname{Recall@}k = \frac{|R_k\cap G|}{|G|}")
    assert recall.lhs == F("Recall@")(k)
    assert recall.rhs == Cardinality(Cap(sp.Symbol("R_k"), G)) / sp.Abs(G)


OPERATORS: list[tuple[str, dict[str, Any], Any]] = [
    (r"A \odot B", {}, Hadamard(A, B)),
    (r"A \otimes B", {}, Kronecker(A, B)),
    (r"f \circ g", {}, Compose(f, g)),
    (r"x \ast h", {}, Convolution(x, h)),
    (r"R_1 \parallel R_2", {}, Parallel(sp.Symbol("R_1"), sp.Symbol("R_2"))),
    (r"R_1 \| R_2", {}, Parallel(sp.Symbol("R_1"), sp.Symbol("R_2"))),
    (r"\nabla_\theta L", {}, Gradient(L, theta)),
    (r"\nabla f", {}, Gradient(f)),
    (r"\nabla^2 \phi", {}, Laplacian(sp.Symbol("phi"))),
    (r"\nabla \cdot \mathbf{E}", {}, Divergence(E)),
    (r"\nabla \times B", {}, Curl(B)),
    (r"\partial_x f", {}, sp.Derivative(f, x)),
    (r"\partial L / \partial w", {}, sp.Derivative(L, sp.Symbol("w"))),
    (r"f'(x)", {}, F("f_prime")(x)),
    (r"f^{\prime}", {}, sp.Symbol("f_prime")),
    (r"f''", {}, sp.Symbol("f_prime2")),
    (r"\bigcup_{i=1}^{n} A_i", {}, BigCup(sp.IndexedBase("A")[i], IndexRange(i, 1, n))),
    (r"\bigcap_{i \in S} A_i", {}, BigCap(sp.IndexedBase("A")[i], IndexIn(i, S))),
    (r"\int_a^b x^2\,dx", {}, sp.Integral(x**2, (x, a, b))),
    (
        r"\int_0^1 f(v)\,\mathrm{d}v",
        {},
        sp.Integral(F("f")(sp.Symbol("v")), (sp.Symbol("v"), 0, 1)),
    ),
    (r"\int dx\, f(x)", {}, sp.Integral(F("f")(x), x)),
    (r"\iint_D f\,dx\,dy", {}, IntegralOver(f, IndexIn(sp.Tuple(x, y), D))),
    (r"\prod_{k=1}^{n} k", {}, sp.Product(k, (k, 1, n))),
    (r"\sum_{i\in p} x_i", {}, SetSum(sp.IndexedBase("x")[i], IndexIn(i, p))),
    (
        r"\max_{p\in\mathcal P} f(p)",
        {},
        SetMax(F("f")(p), IndexIn(p, sp.Symbol("P_cal"))),
    ),
    (r"\sum_{i \neq j} w_i", {}, SetSum(sp.IndexedBase("w")[i], sp.Ne(i, j))),
    (r"\binom{n}{k}", {}, sp.binomial(n, k)),
    (r"{n\choose k}", {}, sp.binomial(n, k)),
    (r"{a \over b}", {}, a / b),
    (r"n!", {}, sp.factorial(n)),
    (r"(2n)!", {}, sp.factorial(2 * n)),
    (r"5!", {}, sp.Integer(120)),
    (r"a \pm b", {}, PlusMinus(a, b)),
    (r"\pm b", {}, PlusMinus(0, b)),
    (r"a \bmod m", {}, sp.Mod(a, m, evaluate=False)),
    (r"A \cap B", {}, Cap(A, B)),
    (r"A \cup B", {}, Cup(A, B)),
    (r"A \setminus B", {}, SetMinus(A, B)),
]


@pytest.mark.parametrize(("latex", "options", "expected"), OPERATORS, ids=[c[0] for c in OPERATORS])
def test_operators(latex: str, options: dict[str, Any], expected: Any) -> None:
    assert _e(latex, **options) == expected


RELATIONS: list[tuple[str, str]] = [
    (r"x \in S", "in"),
    (r"x \notin S", "notin"),
    (r"x \not\in S", "notin"),
    (r"A \subset S", "subset"),
    (r"A \subseteq S", "subseteq"),
    (r"a \equiv b", "equiv"),
    (r"x \sim p", "sim"),
    (r"a \simeq b", "simeq"),
    (r"a \ll b", "ll"),
    (r"a \gg b", "gg"),
    (r"x := 3", ":="),
    (r"x \coloneqq 3", ":="),
    (r"m_t \leftarrow \beta m_{t-1} + g_t", "<-"),
    (r"w \gets w - g", "<-"),
    (r"n \to \infty", "->"),
    (r"x \mapsto x^2", "mapsto"),
    (r"a \perp b", "perp"),
    (r"a \leqslant b", "<="),
]


@pytest.mark.parametrize(("latex", "op"), RELATIONS)
def test_relation_names(latex: str, op: str) -> None:
    (relation,) = parse_relations(latex)
    assert relation.op == op
    assert (relation.relational() is None) == (op not in (":=", "<=")), relation.relational()


def test_relational_objects_for_new_ops() -> None:
    (define,) = parse_relations("x := 3")
    assert define.relational() == sp.Eq(x, 3, evaluate=False)
    (member,) = parse_relations(r"x \in S")
    assert member.relational() is None


def test_logic_connectives_join_statements() -> None:
    relations = parse_relations(r"x > 0 \Rightarrow x^2 > 0")
    assert [r.op for r in relations] == [">", ">", "implies"]
    assert relations[2].lhs == sp.Gt(x, 0) and relations[2].rhs == sp.Gt(x**2, 0)
    assert relations[2].relational() == sp.Implies(sp.Gt(x, 0), sp.Gt(x**2, 0))
    both = parse_relations(r"a = b \quad\Longleftrightarrow\quad c = d")
    assert [r.op for r in both] == ["=", "=", "iff"]
    assert both[2].source == r"a = b \quad\Longleftrightarrow\quad c = d"
    converse = parse_relations(r"a < b \Leftarrow c < d")
    assert converse[2].op == "implies" and converse[2].lhs == sp.Lt(c, d)
    for latex in (r"a > 0 \land b > 0", r"a > 0 \lor b > 0", r"a = 1 \iff b = 2"):
        assert parse_relations(latex)[-1].op in ("and", "or", "iff")
    assert _e(r"P(\lnot A)") == Probability(Str("P"), sp.Not(A))


def test_quantifiers_and_remarks_separate_statements() -> None:
    relations = parse_relations(r"y_i(w^\top x_i + b) \ge 1 \;\; \forall i")
    assert [r.op for r in relations] == [">="]
    relations = parse_relations(r"\forall \epsilon > 0\ \exists N : |a_n - L| < \epsilon")
    assert [(r.lhs, r.op) for r in relations] == [
        (sp.Symbol("epsilon"), ">"),
        (sp.Abs(sp.Symbol("a_n") - L), "<"),
    ]
    relations = parse_relations(r"x = 5 \text{ if } y > 0 \qquad \text{(per head)}")
    assert [(r.lhs, r.op, r.rhs) for r in relations] == [(x, "=", 5), (y, ">", 0)]


def test_bars_absolute_value_cardinality_and_condition() -> None:
    assert _e("|x|") == sp.Abs(x)
    assert _e(r"|R_k\cap G|") == Cardinality(Cap(sp.Symbol("R_k"), G))
    assert _e(r"P(A|B)") == _e(r"P(A\mid B)") == Probability(Str("P"), Given(A, B))
    assert _e(r"P(|x| > 1 | y)") == Probability(Str("P"), Given(sp.Gt(sp.Abs(x), 1), y))
    assert _e(r"|a - |b||") == sp.Abs(a - sp.Abs(b))
    assert _e(r"|a| + |b|") == sp.Abs(a) + sp.Abs(b)
    assert _e(r"\lvert x\rvert") == sp.Abs(x)
    assert _e(r"\lVert x\rVert") == _e(r"\|x\|") == _e("||x||") == Norm(x)
    assert _e(r"\|x\|_2^2") == Norm(x, 2) ** 2
    assert _e(r"\left\| x \right\|_F") == Norm(x, sp.Symbol("F"))
    assert _e(r"D_{KL}(P \| Q)") == F("D_KL")(P, Q)
    assert _e(r"\{x \mid x > 0\}") == SetBuilder(x, sp.Gt(x, 0))


NOTATION: list[tuple[str, Any]] = [
    (r"\lfloor x \rfloor", sp.floor(x)),
    (r"\lceil x \rceil", sp.ceiling(x)),
    (r"\left\lfloor \frac{x}{s} \right\rceil", Rounded(x / s)),
    (r"\hat x", sp.Symbol("x_hat")),
    (r"\widehat y", sp.Symbol("y_hat")),
    (r"\tilde A", sp.Symbol("A_tilde")),
    (r"\widetilde D", sp.Symbol("D_tilde")),
    (r"\bar x", sp.Symbol("x_bar")),
    (r"\overline x", sp.Symbol("x_bar")),
    (r"\dot x", sp.Symbol("x_dot")),
    (r"\hat{x}_i", sp.Symbol("x_hat_i")),
    (r"\overline{A + B}", F("bar")(A + B)),
    (r"\mathcal{P}", sp.Symbol("P_cal")),
    (r"\mathbb{R}", sp.Symbol("R_bb")),
    (r"\mathbf{x}", x),
    (r"\boldsymbol{\mu}", mu),
    (r"\mathsf{T}", T),
    (r"\mathfrak{g}", sp.Symbol("g_frak")),
    (r"\mathscr{L}", sp.Symbol("L_scr")),
    (r"x^{*}", sp.Symbol("x_star")),
    (r"x^\dagger", sp.Symbol("x_dagger")),
    (r"n^{+}", sp.Symbol("n_plus")),
    (r"W^{(l)}", sp.Symbol("W^(l)")),
    (r"L^{\text{CLIP}}", sp.Symbol("L^CLIP")),
    (r"T_{60}^{\mathrm{E}}", sp.Symbol("T^E_60")),  # Eyring's reverberation time, no power E
    (r"\Delta V_{bi}", sp.Symbol("DeltaV_bi")),
    (r"\Delta(x)", sp.Symbol("Delta") * x),
    (r"a_1+\cdots+a_n", sp.Symbol("a_1") + Dots() + sp.Symbol("a_n")),
    (r"x_1, \ldots, x_n", sp.Tuple(sp.Symbol("x_1"), Dots(), sp.Symbol("x_n"))),
    (r"[a, b)", IntervalOf(a, b, sp.false, sp.true)),
    (r"(a, b]", IntervalOf(a, b, sp.true, sp.false)),
    (r"[a, b]", IntervalOf(a, b, sp.false, sp.false)),
    (r"(a, b)", sp.Tuple(a, b)),
    (r"[x]_+", PositivePart(x)),
    (r"\left.\frac{dV}{dx}\right|_{x=a}", sp.Subs(sp.Derivative(V, x), x, a)),
    (r"f(x)\big|_{x=0}", sp.Subs(F("f")(x), x, 0)),
    (r"\big( a \Big[ b \bigr] \bigl)", a * b),
    (r"\left( a \middle| b \right)", Given(a, b)),
    (r"\langle x, y\rangle", InnerProduct(x, y)),
    (r"\langle x \rangle", AngleBracket(x)),
    (r"\{1, 2, 3\}", SetOf(1, 2, 3)),
    (r"\lbrace a \rbrace", SetOf(a)),
    (r"\emptyset", SetOf()),
    (r"\min\left\{ x : x > 0 \right\}", MinOf(SetBuilder(x, sp.Gt(x, 0)))),
    (r"\underbrace{x + y}_{\text{sum}}", x + y),
    (r"\overbrace{x}^{n}", x),
    (r"\boxed{a}", a),
    (r"\hbar \ell", sp.Symbol("hbar") * sp.Symbol("ell")),
    (r"a^\circ", sp.Symbol("a_circ")),  # a standard-state value (E^\circ), not a in degrees
    (r"90^\circ", unit(90, "°")),
    (r"25^\circ\mathrm{C}", unit(25, "°C")),
    (r"5\%", unit(5, "%")),
    (r"8\ \mathrm{bytes/rank}", unit(8, "bytes/rank")),
    (r"25.9\,\mathrm{mV}", unit(sp.Rational(259, 10), "mV")),
    (r"2.9\,\mathrm{m\,K}", unit(sp.Rational(29, 10), "m·K")),  # metre-kelvin, not mK
    (r"2.9\,\mathrm{mK}", unit(sp.Rational(29, 10), "mK")),
    (r"3~\text{ns}", unit(3, "ns")),
    (r"200\,\mu\text{A/V}^2", unit(200, "μA/V^2")),
    (r"50\,\Omega", unit(50, "Ω")),
    (r"10^{16}\,\mathrm{cm^{-3}}", unit(10**16, "cm^-3")),
    (r"3 \times 10^{8}\ \text{m/s}", unit(3 * 10**8, "m/s")),
    (r"2\,\mathrm{d}x", 2 * sp.Symbol("d") * x),
    (r"x\,\text{(approx.)}", x),
    (r"\text{bytes per token}", sp.Symbol("bytes_per_token")),
    (r"a \qquad\text{(in total)}", a),
    (r"x \times 100\%", x * unit(100, "%")),
    (r"x/10\,\mathrm{K}", x / unit(10, "K")),  # the unit is the divisor's: x/(10 K)
    (r"x/10\mathrm{K}", x / unit(10, "K")),
    ("1{,}000", sp.Integer(1000)),
    (r"48\,000", sp.Integer(48000)),
    (".5", sp.Rational(1, 2)),
]


@pytest.mark.parametrize(("latex", "expected"), NOTATION, ids=[c[0] for c in NOTATION])
def test_notation(latex: str, expected: Any) -> None:
    assert _e(latex) == expected


def test_units_keep_their_text_and_hide_from_free_symbols() -> None:
    value = _e(r"25.9\,\mathrm{mV}")
    assert isinstance(value, WithUnit)
    assert (value.value, value.unit) == (sp.Rational(259, 10), "mV")
    assert value.free_symbols == set()
    assert float(value) == pytest.approx(25.9)
    (relation,) = parse_relations(r"T = 300\,\mathrm{s}")
    assert relation.rhs.free_symbols == set()


ENVIRONMENTS: list[tuple[str, Any]] = [
    (
        r"\begin{cases} x & x \ge 0 \\ 0 & \text{otherwise} \end{cases}",
        sp.Piecewise((x, sp.Ge(x, 0)), (0, True), evaluate=False),
    ),
    (
        r"\begin{cases} 1, & \text{if } c > r, \\ e^{1 - r/c}, & \text{if } c \le r. \end{cases}",
        sp.Piecewise((1, sp.Gt(c, r)), (sp.exp(1 - r / c), sp.Le(c, r)), evaluate=False),
    ),
    (
        r"\left\{ \begin{array}{ll} 1 & x > 0 \\ 0 & x \le 0 \end{array} \right.",
        sp.Piecewise((1, sp.Gt(x, 0)), (0, sp.Le(x, 0)), evaluate=False),
    ),
    (
        r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
        MatrixLiteral(sp.Tuple(a, b), sp.Tuple(c, d)),
    ),
    (r"\begin{bmatrix} 1 \\ 2 \end{bmatrix}", MatrixLiteral(sp.Tuple(1), sp.Tuple(2))),
    (r"\begin{matrix} a & b \end{matrix}", MatrixLiteral(sp.Tuple(a, b))),
    (
        r"\begin{vmatrix} a & b \\ c & d \end{vmatrix}",
        Det(MatrixLiteral(sp.Tuple(a, b), sp.Tuple(c, d))),
    ),
    (r"\begin{array}{cc} a & b \end{array}", MatrixLiteral(sp.Tuple(a, b))),
]


@pytest.mark.parametrize(("latex", "expected"), ENVIRONMENTS, ids=[c[0][:30] for c in ENVIRONMENTS])
def test_environments(latex: str, expected: Any) -> None:
    assert _e(latex) == expected


def test_matrix_in_a_relation_chain_keeps_products_ordered() -> None:
    latex = r"AA=\begin{bmatrix}2&0\\0&2\end{bmatrix}\ne AB"
    first, second = parse_relations(latex, matrices={"A", "B"})
    two = MatrixLiteral(sp.Tuple(2, 0), sp.Tuple(0, 2))
    nA, nB = sp.Symbol("A", commutative=False), sp.Symbol("B", commutative=False)
    assert (first.lhs, first.op, first.rhs) == (nA * nA, "=", two)
    assert (second.op, second.rhs) == ("!=", nA * nB)
    assert two * nA != nA * two


def test_nested_alignment_and_row_spacing() -> None:
    latex = (
        r"\begin{equation}\begin{aligned} a &= b \\[4pt] c &= d \label{eq:x}\tag{2}"
        r"\end{aligned}\end{equation}"
    )
    assert [(r.lhs, r.rhs) for r in parse_relations(latex)] == [(a, b), (c, d)]


DERIVATIVES: list[tuple[str, Any]] = [
    (r"\frac{dy}{dx}", sp.Derivative(y, x)),
    (r"\frac{d^2y}{dx^2}", sp.Derivative(y, (x, 2))),
    (r"\frac{d}{dt} x", sp.Derivative(x, t)),
    (r"\frac{\mathrm{d}V}{\mathrm{d}x}", sp.Derivative(V, x)),
    (r"\frac{dV}{\mathrm{d}x}", sp.Derivative(V, x)),
    (r"\frac{\partial^2 E}{\partial t^2}", sp.Derivative(E, (t, 2))),
    (r"\frac{d_k}{2}", sp.Symbol("d_k") / 2),
    (r"\frac{d}{2}", d / 2),
]


@pytest.mark.parametrize(("latex", "expected"), DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
def test_derivatives_with_plain_d(latex: str, expected: Any) -> None:
    assert _e(latex) == expected


UNICODE: list[tuple[str, str]] = [
    ("a × b", r"a \times b"),
    ("a · b", r"a \cdot b"),
    ("a − b", "a - b"),
    ("α + β", r"\alpha + \beta"),
    ("ℝ^n", r"\mathbb{R}^n"),
    ("∞", r"\infty"),
    ("x²", "x^{2}"),
    ("N₀", "N_{0}"),
    ("x̂", r"\hat{x}"),
    ("𝒫", r"\mathcal{P}"),
    ("ε", r"\epsilon"),
    ("µ", r"\mu"),
]


@pytest.mark.parametrize(("written", "latex"), UNICODE)
def test_unicode_math_characters(written: str, latex: str) -> None:
    assert _e(written) == _e(latex)


@pytest.mark.parametrize(
    ("written", "op"),
    [("a ≤ b", "<="), ("a ≥ b", ">="), ("a ≠ b", "!="), ("a ≈ b", "approx"), ("x ∈ S", "in")],
)
def test_unicode_relations(written: str, op: str) -> None:
    assert parse_relations(written)[0].op == op


def test_unicode_keeps_offsets() -> None:
    from atlas_build.latex import LatexError

    with pytest.raises(LatexError) as caught:
        parse_relations("α = ☃")
    assert caught.value.offset == 4


def test_lists_join_a_relation_that_states_a_range() -> None:
    relations = parse_relations(
        r"P(X = k) = \frac{\lambda^k e^{-\lambda}}{k!}, \quad k = 0, 1, 2, \ldots"
    )
    assert relations[1].lhs == k
    assert relations[1].rhs == sp.Tuple(0, 1, 2, Dots())
    (pair,) = parse_relations(r"q_i, k_i \sim \mathcal{N}(0, 1)")
    assert pair.lhs == sp.Tuple(sp.Symbol("q_i"), sp.Symbol("k_i"))
    assert pair.rhs == F("N_cal")(0, 1)


def test_division_binds_the_juxtaposed_factors_after_it() -> None:
    assert _e(r"e^{qV/kT}") == sp.exp(q * V / (sp.Symbol("k") * T))
    assert _e("a/b c") == a * c / b
    assert _e(r"a/b\cdot c") == a * c / b
    assert _e(r"x/2\pi") == x / (2 * sp.pi)


def test_indexed_brackets_and_sums_over_signals() -> None:
    (conv,) = parse_relations(r"y[n] = \sum_{k} h[k]\, x[n-k]")
    hh, xx, yy = sp.IndexedBase("h"), sp.IndexedBase("x"), sp.IndexedBase("y")
    assert conv.lhs == yy[n]
    assert conv.rhs == sp.Sum(hh[k] * xx[n - k], (k, 1, n))
    assert _e(r"I_0 \left[x - 1\right]") == sp.Symbol("I_0") * (x - 1)
    assert _e(r"e[n]") == sp.IndexedBase("e")[n]


def test_max_over_a_range_still_builds_maxover() -> None:
    assert _e(r"\max_{j} z_j") == MaxOver(sp.IndexedBase("z")[j], (j, 1, n))
    assert _e(r"K^\top", matrices={"K"}) == Transposed(sp.Symbol("K", commutative=False))


# -- The claims language real lessons need (issue 33): what the parser reads -----------


def test_and_or_between_values_are_operators_not_statement_links() -> None:
    """`G_i=A_i\\land B_i,\\quad C_{i+1}=G_i\\lor(P_i\\land C_i)` gave the phantom relations
    `G_i=A_i` and `C_{i+1}=G_i`: a connective with a definition on one side and a value on
    the other joins values."""
    from atlas_build.latex.functions import BitAnd, BitOr

    carry = r"G_i=A_i\land B_i,\quad C_{i+1}=G_i\lor(P_i\land C_i)"
    relations = parse_relations(carry, indices={"i"})
    Ai, Bi, Ci, Gi, Pi = (sp.IndexedBase(name)[i] for name in "ABCGP")
    assert [(r.lhs, r.op, r.rhs) for r in relations] == [
        (Gi, "=", BitAnd(Ai, Bi)),
        (sp.IndexedBase("C")[i + 1], "=", BitOr(Gi, BitAnd(Pi, Ci))),
    ]
    assert relations[0].source == r"G_i=A_i\land B_i"
    # names stay SymPy's logic (`P(A \lor B)` is an event), ∧ binding tighter than ∨
    [plain] = parse_relations(r"y = a \lor b \land c")
    assert plain.rhs == sp.Or(a, sp.And(b, c))
    assert parse_relations(r"y = A ∧ B")[0].rhs == sp.And(A, B)
    assert parse_relations(r"A \land B = C")[0].lhs == sp.And(A, B)
    # between two statements it still links them
    assert [r.op for r in parse_relations(r"x > 0 \land y > 0")] == [">", ">", "and"]


def test_binary_numerals_are_read_in_their_base() -> None:
    assert _e("0111_2") == 7
    assert _e("0111_{2}") == 7
    assert _e("0111₂") == 7
    assert _e("1010₂ + 0011₂") == 13
    assert _e("17_{8}") == 15
    assert _e("0121_2") == Component(121, 2)  # not a binary numeral: an entry, as before
    assert _e("x_2") == sp.Symbol("x_2")


def test_upright_i_and_j_are_the_imaginary_unit() -> None:
    assert _e(r"R + \mathrm{j}\omega L") == R + sp.I * omega * L
    assert _e(r"3 + 4\mathrm{i}") == 3 + 4 * sp.I  # not 4 with the unit `i`
    assert _e(r"e^{\mathrm{j}\omega t}") == sp.exp(sp.I * omega * t)  # a power, not a label
    assert _e(r"\mathrm{e}^{\mathrm{i}\pi}") == -1
    assert _e(r"x_{\mathrm{j}}") == sp.Symbol("x_j")  # a subscript names
    assert _e(r"i\omega") == i * omega  # a plain i is a symbol (a glossary may say more)


def test_an_acronym_the_lesson_declares_is_a_symbol_not_a_unit() -> None:
    """`2\\pi\\,\\mathrm{GBW}` is 2π times the gain–bandwidth product when the glossary
    names GBW; undeclared, an upright group after a number stays a unit (`5\\,\\mathrm{mV}`)."""
    declared = parse_equation(r"S=2\pi\,\mathrm{GBW}\,I", symbols=["GBW"]).relations[0]
    assert declared.rhs == 2 * sp.pi * sp.Symbol("GBW") * sp.Symbol("I")
    plain = parse_equation(r"S=2\pi\,\mathrm{GBW}\,I").relations[0]
    assert plain.rhs.has(WithUnit)
    volts = parse_equation(r"V=5\,\mathrm{mV}", symbols=["mV"]).relations[0]
    assert isinstance(volts.rhs, WithUnit)


def test_a_unit_set_off_after_a_formula_is_its_unit_not_a_factor() -> None:
    """`J ≈ 0.49\\,H^2\\,T\\ \\ \\mathrm{kW/m}` (a batch-54 lesson): the unit names what the
    fitted formula gives; read as k·W/m it made W and m undefined symbols (A321). A wide
    space sets it off at the end of a side, or a `\\quad` before it alone; a thin space,
    a declared name or an acronym keeps it a factor."""
    H = sp.Symbol("H")
    [fitted] = parse_equation(r"J\approx 0.49\,H^2\,T\ \ \mathrm{kW/m}").relations
    assert fitted.rhs == sp.Rational(49, 100) * H**2 * T
    [period] = parse_equation(r"t=\frac{2000}{R}\;\text{ns},\quad u=2").relations[:1]
    assert period.rhs == 2000 / R
    quad = parse_equation(r"\theta=\frac{\lambda}{d}\quad(\mathrm{rad})")
    assert (len(quad.relations), quad.expressions) == (1, ())
    assert parse_equation(r"a=b\,\mathrm{m}").relations[0].rhs == b * sp.Symbol("m")
    declared = parse_equation(r"a=b\ \mathrm{ms}", symbols=["ms"]).relations[0]
    assert declared.rhs == b * sp.Symbol("ms")
    acronym = parse_equation(r"t=u-v\ \ \mathrm{INT}").relations[0]
    assert acronym.rhs.has(sp.Symbol("INT"))
    assert parse_equation(r"x=5\ \mathrm{m}").relations[0].rhs == unit(5, "m")


def test_an_indexed_signal_of_time_in_a_sum_is_applied() -> None:
    """`\\sum_i x_i(t)` sums the records x_i at time t; it was read as x_i times t, which
    gave a false A420 (left side V, right side seconds·V). A group of several terms after
    an indexed name still multiplies it (`\\sum_i a_i(b+c)`)."""
    [signal] = parse_equation(r"y=\frac{1}{N}\sum_{i=1}^{N}x_i(t)").relations
    assert not signal.rhs.has(sp.Symbol("t") * sp.IndexedBase("x")[sp.Symbol("i")])
    assert "x_i(t)" in str(signal.rhs)
    [product] = parse_equation(r"y=\sum_{i=1}^{N}a_i(b+c)").relations
    assert "(b + c)*a[i]" in str(product.rhs)


def test_digits_grouped_after_the_point_are_one_number() -> None:
    """`2.897\\,771\\,955` is Wien's constant written as SI groups digits, not 2.897 times
    771.955 (which made `hc/(x₅k_B) ≈ 2.897\\,771\\,955×10⁻³ m·K` fail at its own
    constants); groups before the point were already joined (`65\\,535`)."""
    [wien] = parse_equation(r"b\approx 2.897\,771\,955\times10^{-3}").relations
    assert wien.rhs == sp.Rational(2897771955, 10**12)
    [window] = parse_equation(r"W=65\,535\times 2^{S}").relations
    assert window.rhs == 65535 * 2 ** sp.Symbol("S")
    [product] = parse_equation(r"y=0.12\,345").relations  # not groups of three: a product
    assert product.rhs == sp.Rational(12, 100) * 345


def test_delta_and_a_letter_the_glossary_declares_are_one_symbol() -> None:
    """`\\delta q` is the lesson's δq (the error in q) when the glossary declares it; it
    was δ times q, so `δq/q` cancelled to δ and gave a false A420. Undeclared, it stays a
    product."""
    latex = r"\frac{\delta q}{q}\approx\frac{1}{2}\,\frac{e}{p}"
    [declared] = parse_equation(latex, symbols=["deltaq", "q"]).relations
    assert declared.lhs == sp.Symbol("deltaq") / sp.Symbol("q")
    [plain] = parse_equation(latex).relations
    assert plain.lhs == sp.Symbol("delta")


def test_delta_and_a_subscripted_symbol_the_glossary_declares_are_one_symbol() -> None:
    """`\\delta T_{\\mathrm{hot}}` is the glossary's δT_hot (a thermocouple lesson): it was δ
    times T_hot, a temperature in °C multiplied, a false A420."""
    latex = r"\delta T_{\mathrm{hot}}\approx\frac{a}{b}\,\delta T_{\mathrm{cj}}"
    [declared] = parse_equation(latex, symbols=["deltaT_hot", "deltaT_cj", "a", "b"]).relations
    assert declared.lhs == sp.Symbol("deltaT_hot")
    assert sp.Symbol("deltaT_cj") in declared.rhs.free_symbols


def test_a_declared_quantity_multiplies_a_group_that_works_a_value_out() -> None:
    """`H_0\\left(\\frac{n}{n_0}\\right)^{2}`: the glossary's shutoff head H_0 (m) times a
    squared speed ratio; it was read as H_0 applied to n/n_0 (m², a false A420 in a pump
    lesson). A declared function is still applied, and so is an undeclared letter."""
    latex = r"H=H_0\left(\frac{n}{n_0}\right)^{2}-a\,Q^{2}"
    [product] = parse_equation(latex, symbols=["H", "H_0", "n", "n_0", "a", "Q"]).relations
    h0, n, n0 = sp.symbols("H_0 n n_0")
    assert product.rhs.coeff(h0) == (n / n0) ** 2
    [applied] = parse_equation(r"y=\sigma\left(\frac{a}{b}\right)").relations
    assert not applied.rhs.free_symbols & {sp.Symbol("sigma")}


def test_a_subscript_qualified_in_parentheses_names_what_the_glossary_names() -> None:
    """`R_{DS(\\mathrm{on})}` is the glossary's `R_DS(on)`, read R_DS; it was R indexed by
    D·S(on), an A321 for R in a dead-time lesson. A parenthesised index that is no upright
    word stays an index (`x_{i(k)}`)."""
    for latex in (r"P=R_{DS(\mathrm{on})}\,I", r"P=R_{DS(\text{on})}\,I"):
        [relation] = parse_equation(latex).relations
        assert relation.rhs == sp.Symbol("R_DS") * sp.Symbol("I")
    [indexed] = parse_equation(r"y=x_{i(k)}").relations
    assert indexed.rhs.has(sp.Indexed)


def test_a_related_survives_substitution() -> None:
    """SymPy rebuilds a node from its args on `xreplace` and `subs`: a `Related` must take
    its op back as the `Str` it stores (a lesson's `Re ≲ 2300` crashed inference)."""
    x = sp.Symbol("x")
    related = Related(x, sp.Integer(2300), "lesssim")
    moved = related.xreplace({x: sp.Integer(8460)})
    assert isinstance(moved, Related) and moved.op == "lesssim"
    assert moved.lhs == 8460 and related.subs(x, 1).lhs == 1


def test_a_label_ending_in_a_connective_is_a_remark() -> None:
    """`\\text{condensation when } T_s\\le T_d` labels a condition: it was read as a symbol
    condensation_when times T_s, a °C temperature multiplied (a false A420 in a dew-point
    lesson). One word stays a name (`\\text{overhead}`)."""
    [condition] = parse_equation(
        r"\text{condensation when } T_s\le T_d", symbols=["T_s", "T_d"]
    ).relations
    assert condition.lhs == sp.Symbol("T_s") and condition.op == "<="
    [named] = parse_equation(r"\text{overhead}=\frac{k+m}{k}").relations
    assert named.lhs == sp.Symbol("overhead")


def test_a_name_pulled_against_its_parenthesis_is_applied() -> None:
    """`I_{\\mathrm{pv}}\\!\\left(V_{\\mathrm{bat}}+V_{\\mathrm{sw}}\\right)`: the negative thin
    space is the idiom that pulls a function's argument back against its name; the module's
    current at that voltage was read as a product (A·V², a false A420 in a charge-controller
    lesson). A correction factor `(1 + …)` is still multiplied, and without `\\!` the sum
    still reads as a product."""
    latex = r"P=D\,V\,I_{\mathrm{pv}}\!\left(V+V_{\mathrm{sw}}\right)"
    [applied] = parse_equation(latex).relations
    assert sp.Symbol("I_pv") not in applied.rhs.free_symbols
    [factor] = parse_equation(r"S=S_{\min}\!\left(1+\frac{B}{B_0}\right)").relations
    assert factor.rhs.coeff(sp.Symbol("S_min")) == 1 + sp.Symbol("B") / sp.Symbol("B_0")
    [product] = parse_equation(r"P=D\,V\,I_{\mathrm{pv}}\left(V+V_{\mathrm{sw}}\right)").relations
    assert sp.Symbol("I_pv") in product.rhs.free_symbols


def test_the_dot_of_a_line_integral_goes_with_its_element() -> None:
    """`\\oint \\mathbf{H}\\cdot\\mathrm{d}\\mathbf{l}` is H integrated along l (Ampère's law
    in a Rogowski-coil lesson); the `\\cdot` before the element had left the integrand
    unfinished, a syntax error."""
    [ampere] = parse_equation(r"\oint \mathbf{H}\cdot\mathrm{d}\mathbf{l}=i").relations
    assert ampere.lhs == sp.Integral(sp.Symbol("H"), sp.Symbol("l"))
    [work] = parse_equation(r"W=\int_0^L \mathbf{F}\cdot \mathrm{d}\mathbf{x}").relations
    assert work.rhs == sp.Integral(sp.Symbol("F"), (sp.Symbol("x"), 0, sp.Symbol("L")))


def test_an_upright_transpose_or_hermitian_mark_is_no_label() -> None:
    """One upright capital is a variant's label (`T_{60}^{\\mathrm{E}}`), but `^{\\mathrm{T}}`
    stays the transpose and `^{\\mathrm{H}}` is not turned into a label either."""
    [transposed] = parse_equation(r"y=A^{\mathrm{T}}B").relations
    assert transposed.rhs.has(Transposed)
    [hermitian] = parse_equation(r"y=A^{\mathrm{H}}").relations
    assert sp.Symbol("A^H") not in hermitian.rhs.free_symbols
