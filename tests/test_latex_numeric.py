"""Numeric evaluation of the widened dialect against hand-computed values, and the
memory and work bounds that hold for any input."""

from __future__ import annotations

import math
import time
import tracemalloc
from typing import Any

import numpy as np
import pytest

from atlas_build.latex import EvaluationError, evaluate, parse_expression, parse_relations
from atlas_build.latex.budget import DEFAULT_MAX_ELEMENTS

SCALARS: list[tuple[str, dict[str, Any], float]] = [
    (r"\sin\frac{\pi}{6}", {}, 0.5),
    (r"\cos 0 + \tan\frac{\pi}{4}", {}, 2.0),
    (r"\tanh x", {"x": 0.5}, 0.46211715726000974),
    (r"\sinh 1 - \cosh 1", {}, -math.exp(-1)),
    (r"\arcsin 1 + \arccos 1 + \arctan 1", {}, math.pi / 2 + math.pi / 4),
    (r"\sec 0 + \csc\frac{\pi}{2} + \cot\frac{\pi}{4}", {}, 3.0),
    (r"\sin^{-1} 0.5", {}, math.pi / 6),
    (r"\sin^2 x + \cos^2 x", {"x": 0.3}, 1.0),
    (r"\log_2 8 + \lg 100 + \ln e", {}, 6.0),
    (r"\exp(1)", {}, math.e),
    (r"\binom{5}{2}", {}, 10.0),
    (r"\binom{n}{k}", {"n": 6.0, "k": 3.0}, 20.0),
    (r"{n \choose k}", {"n": 10.0, "k": 4.0}, 210.0),
    (r"n!", {"n": 5.0}, 120.0),
    (r"(n - 1)!", {"n": 4.0}, 6.0),
    (r"\frac{n!}{k!\,(n-k)!}", {"n": 7.0, "k": 2.0}, 21.0),
    (r"\lfloor x \rfloor + \lceil x \rceil", {"x": 2.5}, 5.0),
    (r"\left\lfloor x \right\rceil", {"x": 2.6}, 3.0),
    (r"|x| + \left|y\right|", {"x": -2.0, "y": 3.0}, 5.0),
    (r"\|v\|", {"v": np.array([3.0, 4.0])}, 5.0),
    (r"\|v\|_1", {"v": np.array([3.0, -4.0])}, 7.0),
    (r"\|v\|_\infty", {"v": np.array([3.0, -4.0])}, 4.0),
    (r"\lVert M \rVert_F", {"M": np.array([[1.0, 2.0], [2.0, 4.0]])}, 5.0),
    (r"\|v\|_2^2", {"v": np.array([1.0, 2.0, 2.0])}, 9.0),
    (r"[x]_+ + [y]_+", {"x": -1.0, "y": 2.0}, 2.0),
    (r"\langle u, v \rangle", {"u": np.array([1.0, 2.0]), "v": np.array([3.0, 4.0])}, 11.0),
    (r"R_1 \parallel R_2", {"R_1": 6.0, "R_2": 3.0}, 2.0),
    (r"\operatorname{sgn}(x)", {"x": -3.0}, -1.0),
    (r"\operatorname{erf}(0)", {}, 0.0),
    (r"25.9\,\mathrm{mV}", {}, 25.9),
    (r"3 \times 10^{8}\ \text{m/s}", {}, 3e8),
    (r"90^\circ", {}, 90.0),
    (r"x \times 100\%", {"x": 0.25}, 25.0),
    (r"\mathbb{1}[y = k]", {"y": 2.0, "k": 2.0}, 1.0),
    (r"\mathbb{1}[y = k]", {"y": 2.0, "k": 3.0}, 0.0),
    (r"a \bmod m", {"a": 7.0, "m": 3.0}, 1.0),
    (r"\begin{vmatrix} 1 & 2 \\ 3 & 4 \end{vmatrix}", {}, -2.0),
    (r"\det A", {"A": np.array([[2.0, 0.0], [0.0, 3.0]])}, 6.0),
    (r"\operatorname{softmax}(z)_i", {"z": np.array([0.0, 0.0]), "i": 2}, 0.5),
    (r"\left.x^2\right|_{x=3}", {}, 9.0),
    (r"f(x)|_{x=2}", {}, 4.0),
]


def _softmax(x: Any) -> Any:
    shifted = np.exp(x - np.max(x))
    return shifted / shifted.sum()


FUNCTIONS = {"softmax": _softmax, "f": lambda x: x * x}


@pytest.mark.parametrize(("latex", "bindings", "expected"), SCALARS, ids=[s[0] for s in SCALARS])
def test_scalar_values(latex: str, bindings: dict[str, Any], expected: float) -> None:
    value = evaluate(parse_expression(latex), bindings, FUNCTIONS)
    assert float(value) == pytest.approx(expected, rel=1e-12, abs=1e-12)


PIECEWISE = r"\begin{cases} x^2 & x \ge 0 \\ -x & \text{otherwise} \end{cases}"


@pytest.mark.parametrize(("x", "expected"), [(3.0, 9.0), (-2.0, 2.0), (0.0, 0.0)])
def test_piecewise_picks_the_first_true_row(x: float, expected: float) -> None:
    assert evaluate(parse_expression(PIECEWISE), {"x": x}) == pytest.approx(expected)


def test_piecewise_is_elementwise() -> None:
    values = evaluate(parse_expression(PIECEWISE), {"x": np.array([-1.0, 2.0])})
    np.testing.assert_allclose(values, [1.0, 4.0])


def test_matrix_literals_multiply_in_order() -> None:
    latex = r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} \begin{pmatrix} 5 \\ 6 \end{pmatrix}"
    np.testing.assert_allclose(evaluate(parse_expression(latex), {}), [[17.0], [39.0]])
    product = parse_relations(r"AB=\begin{bmatrix}1&0\\0&1\end{bmatrix}", matrices={"A", "B"})[0]
    a = np.array([[0.0, 1.0], [1.0, 0.0]])
    np.testing.assert_allclose(evaluate(product.lhs, {"A": a, "B": a}), evaluate(product.rhs, {}))


def test_hadamard_and_kronecker_products() -> None:
    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])
    hadamard = evaluate(parse_expression(r"A \odot B"), {"A": a, "B": b})
    np.testing.assert_allclose(hadamard, [[0.0, 2.0], [3.0, 0.0]])
    kron = evaluate(parse_expression(r"A \otimes B"), {"A": a, "B": b})
    assert kron.shape == (4, 4) and kron[0, 1] == 1.0 and kron[3, 2] == 4.0


def test_convolution_of_sequences() -> None:
    value = evaluate(
        parse_expression(r"x \ast h"), {"x": np.array([1.0, 2.0]), "h": np.array([1.0, 1.0])}
    )
    np.testing.assert_allclose(value, [1.0, 3.0, 2.0])


def test_sums_products_and_extrema_over_index_sets() -> None:
    x = np.array([10.0, 20.0, 30.0, 40.0])
    sets = {"x": x, "p": {1, 3}}
    assert evaluate(parse_expression(r"\sum_{i\in p} x_i"), sets) == pytest.approx(40.0)
    assert evaluate(parse_expression(r"\prod_{i\in p} x_i"), sets) == pytest.approx(300.0)
    paths = {"P_cal": [1, 2, 4], "c": np.array([5.0, 1.0, 9.0, 3.0])}
    assert evaluate(parse_expression(r"\max_{p\in\mathcal P} c_p"), paths) == 5.0
    assert evaluate(parse_expression(r"\min_{p\in\mathcal{P}} c_p"), paths) == 1.0
    scores = {"Y": [1, 2, 3], "s": np.array([0.2, 0.7, 0.1])}
    assert evaluate(parse_expression(r"\arg\max_{y \in Y} s_y"), scores) == 2
    assert evaluate(parse_expression(r"\operatorname*{arg\,min}_{y \in Y} s_y"), scores) == 3
    ranged = {"s": np.array([0.2, 0.7, 0.1]), "n": 3}
    assert evaluate(parse_expression(r"\arg\max_{j} s_j"), ranged) == 2
    edges = {"E": {(1, 2), (2, 3)}, "w": np.array([[0.0, 5.0, 0.0], [0.0, 0.0, 7.0]])}
    assert (
        evaluate(parse_expression(r"\sum_{(i,j)\in E} w_{ij}", indices={"i", "j"}), edges) == 12.0
    )


def test_set_operations_and_cardinality() -> None:
    bindings = {"R_k": frozenset({1, 2, 3, 7}), "G": frozenset({2, 3, 5})}
    (recall,) = parse_relations(r"\operatorname{Recall@}k = \frac{|R_k \cap G|}{|G|}")
    assert evaluate(recall.rhs, bindings) == pytest.approx(2 / 3)
    assert evaluate(parse_expression(r"|R_k \cup G|"), bindings) == 5.0
    assert evaluate(parse_expression(r"|R_k \setminus G|"), bindings) == 2.0
    assert evaluate(parse_expression(r"|\{1, 2, 2, 3\}|"), {}) == 3.0
    union = parse_expression(r"\left|\bigcup_{i=1}^{2} A_i\right|")
    assert evaluate(union, {"A": [frozenset({1, 2}), frozenset({2, 3})]}) == 3.0


def test_membership_conditions() -> None:
    indicator = parse_expression(r"\mathbb{1}[r \in G]")
    assert evaluate(indicator, {"r": 2, "G": {1, 2}}) == 1.0
    assert evaluate(indicator, {"r": 4, "G": {1, 2}}) == 0.0


@pytest.mark.parametrize(
    ("latex", "bindings", "expected"),
    [
        (r"\int_0^1 x^2\,dx", {}, 1 / 3),
        (r"\int_{0}^{\pi} \sin t\,\mathrm{d}t", {}, 2.0),
        (r"\int_{-\infty}^{\infty} \frac{1}{\sqrt{2\pi}} e^{-x^2/2}\,dx", {}, 1.0),
        (r"\int_0^{\infty} \lambda e^{-\lambda t}\, dt", {"lambda": 3.0}, 1.0),
        (r"\int_{-\infty}^{0} e^{x}\,dx", {}, 1.0),
        (r"\int_0^1\!\!\int_0^2 x y\,dx\,dy", {}, 1.0),
    ],
)
def test_definite_integrals_by_quadrature(
    latex: str, bindings: dict[str, Any], expected: float
) -> None:
    value = evaluate(parse_expression(latex), bindings)
    assert float(value) == pytest.approx(expected, rel=1e-9)


def test_integral_work_is_bounded() -> None:
    expr = parse_expression(r"\int_0^1 x\,dx")
    with pytest.raises(EvaluationError) as caught:
        evaluate(expr, {}, max_iterations=10)
    assert caught.value.code == "too-large"


@pytest.mark.parametrize(
    ("latex", "bindings", "code"),
    [
        (r"a_1 + \cdots + a_n", {"a_1": 1.0, "a_n": 2.0}, "unsupported"),
        (r"a \pm b", {"a": 1.0, "b": 2.0}, "unsupported"),
        (r"\mathbb{E}[X]", {"X": 1.0}, "unsupported"),
        (r"\nabla f", {"f": 1.0}, "unsupported"),
        (r"\int f\,dx", {"f": 1.0}, "unsupported"),
        (r"\sum_{i \neq j} w_i", {"w": np.ones(3), "j": 1}, "unsupported"),
        (r"|S|", {"S": "abc"}, "numeric"),
    ],
)
def test_values_that_do_not_exist_are_reported(
    latex: str, bindings: dict[str, Any], code: str
) -> None:
    with pytest.raises(EvaluationError) as caught:
        evaluate(parse_expression(latex), bindings)
    assert caught.value.code == code


def test_large_matrix_product_is_refused_before_allocating() -> None:
    """``Q K^T`` with T = 15,000 would be 1.8 GB; it is refused with the sizes named."""
    rng = np.random.default_rng(0)
    q = rng.standard_normal((15_000, 64))
    k = rng.standard_normal((15_000, 64))
    expr = parse_expression(r"QK^{\mathsf T}", matrices={"Q", "K"})
    tracemalloc.start()
    try:
        with pytest.raises(EvaluationError) as caught:
            evaluate(expr, {"Q": q, "K": k})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.code == "too-large"
    assert "matrix product" in caught.value.message and "(15000, 64)" in caught.value.message
    assert peak < 64 * 2**20


def test_broadcast_and_kronecker_are_bounded() -> None:
    column, row = np.ones((20_000, 1)), np.ones((1, 20_000))
    with pytest.raises(EvaluationError) as caught:
        evaluate(parse_expression("a + b"), {"a": column, "b": row})
    assert caught.value.code == "too-large"
    with pytest.raises(EvaluationError) as caught:
        evaluate(
            parse_expression(r"A \otimes B"),
            {"A": np.ones((100, 100)), "B": np.ones((100, 100))},
            max_elements=10**6,
        )
    assert caught.value.code == "too-large"
    small = evaluate(parse_expression("a + b"), {"a": np.ones((3, 1)), "b": np.ones((1, 4))})
    assert small.shape == (3, 4)


def test_default_budget_is_256_mib_of_float64() -> None:
    assert DEFAULT_MAX_ELEMENTS * 8 == 256 * 2**20


def test_huge_factorial_is_bounded() -> None:
    started = time.perf_counter()
    value = evaluate(parse_expression("n!"), {"n": 1e9})
    assert value == math.inf
    assert time.perf_counter() - started < 10  # bounded, not slow: a hang guard
