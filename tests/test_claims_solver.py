"""claims/solver.py: substituting values into a relation stays bounded on any input."""

from __future__ import annotations

import sympy

from atlas_build.claims import numeric, solver
from atlas_build.latex import parse_relations


def test_a_power_past_the_exact_bound_is_taken_in_digits() -> None:
    """`(1 − p)^(8(n−1)C)` at p = 10⁻¹⁴ is exactly a number of 14·32·C digits (SymPy
    computed it as the tree was rebuilt: minutes at a real lesson's C = 10¹³); with values
    past `numeric.MAX_EXACT_POWER` in the exponent it is taken at 30 digits instead. C is
    small here, so the exact path, were it taken, fails the assertion in a second."""
    p, n, c = sympy.symbols("p n C")
    expression = (1 - p) ** (8 * (n - 1) * c)
    at = {p: sympy.Rational(1, 10**14), n: sympy.Integer(5), c: sympy.Integer(4000)}
    found = solver.substitute(expression, at)
    assert isinstance(found, sympy.Float)
    assert abs(float(found) - (1 - 128_000e-14)) < 1e-15


def test_a_small_power_stays_exact() -> None:
    x = sympy.Symbol("x")
    exponent = numeric.MAX_EXACT_POWER
    found = solver.substitute((1 + x) ** exponent, {x: sympy.Rational(1, 2)})
    assert found == sympy.Rational(3, 2) ** exponent


def test_an_exponential_of_a_huge_multiple_of_ln_2_is_taken_in_digits() -> None:
    """`e^H` at H = 6.4×10¹² ln 2 (a perplexity from a misread bit count) is 2^(6.4×10¹²),
    which SymPy computes exactly: a lesson stopped at its 30 s limit. An exponent past
    `numeric.MAX_EXACT_POWER`, symbolic or not, puts the values in at 30 digits."""
    h = sympy.Symbol("H")
    found = solver.substitute(sympy.exp(h) - 1, {h: 400 * sympy.log(2)})
    assert isinstance(found, sympy.Float) and abs(float(found) / 2.0**400 - 1) < 1e-12
    small = solver.substitute(sympy.exp(h), {h: 3 * sympy.log(2)})
    assert small == 8


def test_the_root_of_a_linear_relation_is_found_at_once() -> None:
    """`sympy.solve` did not return on `6.4×10¹² − H/ln 2` (minutes); the polynomial's own
    roots are found at once."""
    h = sympy.Symbol("H")
    [root] = solver.roots(sympy.Integer(6_400_000_000_000) - h / sympy.log(2), h, None)
    assert sympy.simplify(root - 6_400_000_000_000 * sympy.log(2)) == 0
    assert sorted(solver.roots(h**2 - 4, h, None)) == [-2, 2]


def test_a_case_split_on_a_relation_sympy_cannot_decide_is_no_number() -> None:
    """`f = 64/Re` for `Re ≲ 2300`, `0.316 Re^(-1/4)` for `4000 ≲ Re ≲ 10⁵`: SymPy keeps the
    `Piecewise` open on the `≲` (a `Related`), which calls itself real and finite. It is no
    number: `number` says so instead of failing to make a Float of it (a lesson crashed)."""
    re_ = sympy.Symbol("Re")
    split = sympy.Piecewise(
        (64 / re_, parse_relation(r"\mathrm{Re}\lesssim 2300")),
        (sympy.Rational(316, 1000) * re_ ** sympy.Rational(-1, 4), True),
    )
    found = solver.substitute(sympy.Rational(7, 4) - split, {re_: sympy.Integer(8460)})
    assert solver.number(found) is None
    assert solver.evaluate(sympy.Rational(7, 4) - split, {re_: sympy.Integer(8460)}) is None


def parse_relation(latex: str) -> sympy.Basic:
    """The condition `latex` as the parser reads it inside a case split (a `Related`)."""
    from atlas_build.latex.functions import Related

    relation = parse_relations(latex)[0]
    return Related(relation.lhs, relation.rhs, relation.op)


def test_a_quadratic_over_an_algebraic_domain_is_solved_in_digits() -> None:
    """A pi pad's attenuation put `10^(1007/2000)` into the coefficients of a quadratic in
    V_out, and `sympy.roots` factored over that extension for minutes (a false A108 in an
    RF lesson). Its coefficients are taken to 30 digits first: the same roots, at once."""
    v, ten, r = sympy.Symbol("V_out"), sympy.Integer(10), sympy.Rational
    k, m, n = ten ** r(1007, 2000), ten ** r(7, 1000), ten ** r(1021, 2000)
    root = sympy.sqrt(k - 1)
    shared = -250 * m - 25 * k + 25 + 250 * n
    difference = (
        -k / (250 * m - 25) * v**2
        + 4 * sympy.sqrt(13) * 2 ** r(7, 2000) * 5 ** r(1007, 2000) * sympy.sqrt(1 + k)
        / (-25 * root + 250 * m * root) * v
        - 260 * m / shared - 26 * k / shared + r(33, 100)
    )  # fmt: skip
    found = sorted(float(solver.number(x)) for x in solver.roots(difference, v))
    expected = sorted(float(x) for x in sympy.Poly(sympy.N(difference, 30), v).nroots())
    assert len(found) == 2
    assert all(abs(a - b) <= 1e-9 * abs(b) for a, b in zip(found, expected, strict=True))


def test_an_exponent_undefined_at_the_values_is_no_crash() -> None:
    """`d^{(k−1)/(d−1)}`-like forms at d = 1 (a load-balancing lesson): the exponent is NaN
    there, and comparing it with the exact-power limit raised TypeError (an A901 on the
    lesson)."""
    x, a, b = sympy.symbols("x a b")
    expression = x ** ((a - 1) / (b - 1))
    found = solver.substitute(expression, {x: sympy.Integer(2), a: sympy.Integer(1), b: 1})
    assert found is not None


def test_a_linear_root_is_read_off_without_clearing_denominators(monkeypatch) -> None:
    """`−1000·√410·exp(−23443267/4123565280000000)/41 · x + 990` (a fiber bend-loss lesson):
    `sympy.roots` clears an expression domain's denominators first, and that took five
    minutes (an A108 at the 30 s read limit). A linear root is −b/a."""
    x = sympy.Symbol("x")
    a = -1000 * sympy.sqrt(410) * sympy.exp(sympy.Rational(-23443267, 4123565280000000)) / 41
    called = []
    monkeypatch.setattr(solver.sympy, "roots", lambda *args, **kw: called.append(args) or {})
    [root] = solver.roots(a * x + 990, x)
    assert not called
    assert abs(float(root) - float(-990 / a)) < 1e-12
