"""Numeric evaluation of parsed lesson LaTeX, a symbolic derivation, and dialect docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp
from support import ATTENTION, GRADIENT, MATRICES

from atlas_build.latex import (
    ERROR_CODES,
    WHITELIST,
    EvaluationError,
    evaluate,
    parse_expression,
    parse_relations,
)

ROOT = Path(__file__).resolve().parents[1]


def softmax(x: Any) -> Any:
    shifted = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def test_attention_relations_evaluate_on_arrays() -> None:
    rng = np.random.default_rng(7)
    t, d = 5, 4
    q, key, v = (
        rng.standard_normal((t, d)),
        rng.standard_normal((t, d)),
        rng.standard_normal((t, 3)),
    )
    mask = np.where(np.tril(np.ones((t, t), dtype=bool)), 0.0, -np.inf)
    first, second, _ = parse_relations(ATTENTION, matrices=MATRICES)
    bindings: dict[str, Any] = {"Q": q, "K": key, "V": v, "M": mask, "d_k": d}
    weights = evaluate(first.rhs, bindings, {"softmax_rows": softmax})
    expected = softmax(q @ key.T / np.sqrt(d) + mask)
    np.testing.assert_allclose(weights, expected, rtol=1e-12)
    assert np.allclose(np.triu(weights, 1), 0.0)
    output = evaluate(second.rhs, {**bindings, "A": weights})
    np.testing.assert_allclose(output, expected @ v, rtol=1e-12)


def test_dot_product_of_declared_vectors() -> None:
    (_, _, variance) = parse_relations(ATTENTION, matrices={"q", "k"})
    inner = variance.lhs.args[0]
    value = evaluate(inner, {"q": np.array([1.0, 2.0]), "k": np.array([3.0, 4.0])})
    assert value == pytest.approx(11.0)


def test_worked_mixture_numbers() -> None:
    definition, derivative = parse_relations(GRADIENT, indices={"j"})
    bindings = {"a": np.array([0.25, 0.75]), "v": np.array([2.0, 6.0]), "n": 2}
    output = evaluate(definition.rhs, bindings)
    assert output == pytest.approx(5.0)
    slopes = [evaluate(derivative.rhs, {**bindings, "o": output, "j": j}) for j in (1, 2)]
    assert slopes == pytest.approx([-0.75, 0.75])


@pytest.mark.parametrize(
    ("latex", "options", "bindings", "expected"),
    [
        (r"\sqrt{x}+\exp(0)+\ln e", {}, {"x": 4.0}, 4.0),
        (r"\left|x\right|\cdot 2^{3}", {}, {"x": -1.5}, 12.0),
        (r"\prod_{k=1}^{3} k", {}, {}, 6.0),
        (r"\max_j z_j - \min_j z_j", {}, {"z": np.array([3.0, -1.0, 2.0]), "n": 3}, 4.0),
        (r"\max(a, b)", {}, {"a": 1.0, "b": 2.0}, 2.0),
        (r"\sum_{i,j} W_{ij}", {}, {"W": np.arange(4.0).reshape(2, 2), "n": 2}, 6.0),
        (r"\frac{1}{0.5}\,\pi", {}, {}, 2 * np.pi),
        ("x^{-1}", {}, {"x": 0.0}, np.inf),
    ],
)
def test_scalar_evaluation(
    latex: str, options: dict[str, Any], bindings: dict[str, Any], expected: float
) -> None:
    value = evaluate(parse_expression(latex, **options), bindings)
    assert value == pytest.approx(expected)


def test_matrix_inverse_and_transpose() -> None:
    matrix = np.array([[2.0, 1.0], [1.0, 3.0]])
    expr = parse_expression(r"A^{-1}A^{\mathsf T}", matrices={"A"})
    np.testing.assert_allclose(evaluate(expr, {"A": matrix}), np.linalg.inv(matrix) @ matrix.T)


@pytest.mark.parametrize(
    ("latex", "bindings", "code", "name"),
    [
        ("x + y", {"x": 1.0}, "unbound-symbol", "y"),
        (r"\operatorname{Var}(x)", {"x": 1.0}, "unknown-function", "Var"),
        (r"\frac{\partial o}{\partial x}", {"o": 1.0, "x": 1.0}, "unsupported", None),
        ("a_j", {"a": np.zeros(3), "j": 4}, "bad-index", "a"),
        ("a_j", {"a": np.zeros(3), "j": 0}, "bad-index", "a"),
        ("a_j", {"a": np.zeros(3), "j": 1.5}, "bad-index", None),
        ("x + y", {"x": np.zeros(2), "y": np.zeros(3)}, "numeric", None),
        (r"\sum_{j=1}^{n} j", {"n": 10**7}, "too-large", None),
    ],
)
def test_evaluation_errors(
    latex: str, bindings: dict[str, Any], code: str, name: str | None
) -> None:
    expr = parse_expression(latex, indices={"j"} if latex == "a_j" else ())
    with pytest.raises(EvaluationError) as caught:
        evaluate(expr, bindings)
    assert caught.value.code == code
    assert caught.value.name == name


def test_softmax_derivative_derivation_for_three_terms() -> None:
    """The parsed objects support the claims layer's derivation (here with n = 3)."""
    definition, derivative = parse_relations(GRADIENT, indices={"j"})
    a, s = sp.IndexedBase("a"), sp.IndexedBase("s")
    o, j, n = sp.symbols("o j n")
    size = 3
    softmax_of = {
        a[k]: sp.exp(s[k]) / sp.Add(*(sp.exp(s[m]) for m in range(1, size + 1)))
        for k in range(1, size + 1)
    }
    output = definition.rhs.subs(n, size).doit().xreplace(softmax_of)
    for index in range(1, size + 1):
        lhs = derivative.lhs.xreplace({j: index}).xreplace({o: output}).doit()
        rhs = derivative.rhs.xreplace({j: index}).xreplace(softmax_of).xreplace({o: output})
        assert sp.simplify(lhs - rhs) == 0
    wrong = parse_relations(r"\frac{\partial o}{\partial s_j}=a_j(o-v_j)", indices={"j"})[0]
    lhs = wrong.lhs.xreplace({j: 1}).xreplace({o: output}).doit()
    rhs = wrong.rhs.xreplace({j: 1}).xreplace(softmax_of).xreplace({o: output})
    assert sp.simplify(lhs - rhs) != 0


def test_dialect_doc_lists_every_command_and_code() -> None:
    doc = (ROOT / "docs" / "latex-dialect.md").read_text(encoding="utf-8")
    table = doc.split("## Whitelist", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`\\([A-Za-z]+|[^A-Za-z`])`", table))
    assert set(WHITELIST) == listed
    for code in ERROR_CODES:
        assert f"| `{code}` |" in doc


def test_package_never_evaluates_text() -> None:
    banned = {"eval", "exec", "compile", "sympify", "parse_expr", "parse_latex", "lambdify", "S"}
    for path in (ROOT / "atlas_build" / "latex").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                owner = getattr(getattr(func, "value", None), "id", None)
                if (owner, name) == ("re", "compile"):
                    continue  # a regular expression (mathml.py), not code
                assert name not in banned, f"{path.name}:{node.lineno} calls {name}"
