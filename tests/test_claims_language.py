"""The claims language real lessons need (issue "The claims language real lessons need"):
one test per item, each a correct statement that verifies and the same statement with one
number edited that fails at that number."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from conftest import value_position

DISTANCE = r"""
## Science and assumptions

### Distance at constant speed

$$
d = v\,t
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s

## Engineering example

At 3 m/s for 2 s, the distance is d = {d} m.
"""


def _claim(record: Any, claim_id: str) -> dict[str, Any]:
    return next(claim for claim in record.claims if claim["id"] == claim_id)


def test_values_may_use_other_values(authored: Any) -> None:
    """`values: {v: 3, t: "v - 1"}` said "v has no value"."""
    claims = """
    claims:
      - id: distance
        kind: formula
        quote: "the distance is d = {d} m"
        bind: [d]
        params:
          values: {{t: "v - 1", v: 3}}
          use: [{{equation: 0, relation: 0}}]
    """
    right = authored(DISTANCE.format(d=6), claims.format(d=6))
    assert _claim(right, "distance")["status"] == "pass"
    wrong = authored(DISTANCE.format(d=7), claims.format(d=7), slug="wrong")
    assert _claim(wrong, "distance")["status"] == "fail"


HEAT = r"""
## Science and assumptions

### Coolant energy balance

$$
Q = \dot m\,c_p\,\Delta T
$$

Symbols and units

Q

Heat removed

W

ṁ

Coolant mass flow

kg/s

c\_p

Specific heat of the coolant

J/(kg·K)

ΔT

Coolant temperature rise

K

## Engineering example

Removing 2 kW with 0.1 kg/s of water raises the coolant by about {rise} K.
"""

INVERSE = """
claims:
  - id: rise
    kind: formula
    quote: "raises the coolant by about {rise} K"
    bind: [DeltaT]
    params:
      values: {{Q: 2000, m_dot: 0.1, c_p: 4180}}
      use: [{{equation: 0, relation: 0}}]
"""


def test_use_solves_a_relation_for_whichever_symbol_is_unknown(authored: Any) -> None:
    """`use` computed only a relation's left side: solving `Q = ṁ c_p ΔT` for ΔT needed
    the inverse written by hand."""
    right = authored(HEAT.format(rise="4.8"), INVERSE.format(rise="4.8"))
    assert _claim(right, "rise")["status"] == "pass", right.diagnostics
    wrong = authored(HEAT.format(rise="5.8"), INVERSE.format(rise="5.8"), slug="wrong")
    assert _claim(wrong, "rise")["status"] == "fail"


def _lesson(equations: list[str], glossary: list[tuple[str, str, str]], example: str) -> str:
    """A lesson body: display equations, a symbol table, and one example sentence."""
    lines = ["## Science and assumptions", "", "### The model", ""]
    for latex in equations:
        lines += ["$$", latex, "$$", ""]
    lines += ["Symbols and units", ""]
    for symbol, meaning, unit in glossary:
        lines += [symbol, "", meaning, "", unit, ""]
    return "\n".join([*lines, "## Engineering example", "", example, ""])


def _check(authored: Any, body: str, claims: str, edits: dict[str, str], slug: str) -> Any:
    """The record for `body`/`claims` with each `{name}` slot replaced by its edit."""
    for slot, text in edits.items():
        body, claims = body.replace("{" + slot + "}", text), claims.replace("{" + slot + "}", text)
    return authored(body, claims, slug=slug)


def _verifies_and_catches(
    authored: Any, body: str, claims: str, right: dict[str, str], wrong: dict[str, str]
) -> Any:
    """The statement verifies as written, and fails with one number edited (`wrong`
    replaces one of `right`'s slots), at that number."""
    good = _check(authored, body, claims, right, "right")
    [claim] = good.claims
    assert claim["status"] == "pass", (claim, good.diagnostics)
    bad = _check(authored, body, claims, {**right, **wrong}, "wrong")
    [claim] = bad.claims
    assert claim["status"] == "fail", (claim, bad.diagnostics)
    [slot] = wrong
    [error] = [d for d in bad.diagnostics if d.code == "A401"]
    assert (error.line, error.column) == _slot_position(error.path, body, slot, {**right, **wrong})
    return good


def _slot_position(path: str, body: str, slot: str, edits: dict[str, str]) -> tuple[int, int]:
    """Line and column, in the lesson file written from `body`, of the number at `{slot}`."""
    text = Path(path).read_text(encoding="utf-8")
    before = body[: body.index("{" + slot + "}")]
    for name, value in edits.items():
        before = before.replace("{" + name + "}", value)
        body = body.replace("{" + name + "}", value)
    at = text.index(body) + len(before)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


SUM = _lesson(
    [r"S = \sum_{n=0}^{N-1} x_n"],
    [("S", "Sum of the samples", "V"), ("x\\_n", "Sample n", "V"),
     ("N", "Number of samples", "dimensionless"), ("n", "Sample index", "dimensionless")],
    "The four samples sum to S = {s} V.",
)  # fmt: skip


def test_a_list_is_indexed_from_where_its_sum_starts(authored: Any) -> None:
    """`\\sum_{n=0}^{N-1} x_n` gave "no value for x[0]": lists were indexed from 1. The
    list binds to the range the relation states, and N is its length."""
    claims = """
    claims:
      - id: total
        kind: formula
        quote: "sum to S = {s} V"
        bind: [S]
        params:
          values: {x: [1, 2, 3, 4]}
          use: [{equation: 0, relation: 0}]
    """
    _verifies_and_catches(authored, SUM, claims, {"s": "10"}, {"s": "11"})


def test_index_base_says_where_a_list_starts(authored: Any) -> None:
    body = _lesson(
        [r"D = x_3 - x_0"],
        [("D", "Rise over the record", "V"), ("x\\_n", "Sample n", "V")],
        "From the first sample to the last the signal rises by D = {d} V.",
    )
    claims = """
    claims:
      - id: rise
        kind: formula
        quote: "the signal rises by D = {d} V"
        bind: [D]
        params:
          values: {x: [1, 2, 4, 8]}
          index_base: {x: 0}
          use: [{equation: 0, relation: 0}]
    """
    _verifies_and_catches(authored, body, claims, {"d": "7"}, {"d": "6"})


DFT = _lesson(
    [r"X_k = \sum_{n=0}^{N-1} x_n\, e^{-2\pi i k n/N}"],
    [("X\\_k", "Spectrum value at bin k", "V"), ("x\\_n", "Sample n", "V"),
     ("N", "Number of samples", "dimensionless"), ("k", "Bin index", "dimensionless"),
     ("n", "Sample index", "dimensionless"), ("i", "Imaginary unit", "dimensionless")],
    "For the samples 1, 2, 3 and 4 V, the DC bin is X_0 = {x0} V, the bin at half the sampling"
    " rate is X_2 = −2 V, and bin 1 has magnitude |X_1| = {m} V.",
)  # fmt: skip


def test_the_glossary_imaginary_unit_is_the_square_root_of_minus_one(authored: Any) -> None:
    """In `e^{-2\\pi i k n/N}`, `i` was a plain symbol without a value: the symbol table
    says it is the imaginary unit, so it is √−1."""
    claims = """
    claims:
      - id: dft
        kind: formula
        quote: "the DC bin is X_0 = {x0} V, the bin at half the sampling rate is X_2 = −2 V,
          and bin 1 has magnitude |X_1| = {m} V"
        bind: ["X[0]", "X[2]", null, m]
        params:
          values: {x: [1, 2, 3, 4]}
          steps: {k: [0, 1, 2, 3]}
          use: [{equation: 0, relation: 0}]
          expressions: {m: "|X_1|"}
    """
    right = {"x0": "10", "m": "2.83"}
    _verifies_and_catches(authored, DFT, claims, right, {"m": "2.84"})


def test_j_is_the_imaginary_unit_where_the_glossary_says_so(authored: Any) -> None:
    """As engineers write it: `j` declared the imaginary unit, and `\\mathrm{j}` always."""
    for written, entry in ((r"j", [("j", "Imaginary unit (j² = −1)", "dimensionless")]),
                           (r"\mathrm{j}", [])):  # fmt: skip
        body = _lesson(
            [rf"Z = R + {written}\omega L"],
            [("Z", "Impedance of the coil", "Ω"), ("R", "Winding resistance", "Ω"),
             ("ω", "Angular frequency", "rad/s"), ("L", "Inductance", "H"), *entry],
            "At 1000 rad/s a 3 Ω, 4 mH coil has an impedance of magnitude |Z| = {z} Ω.",
        )  # fmt: skip
        claims = """
        claims:
          - id: coil
            kind: formula
            quote: "has an impedance of magnitude |Z| = {z} Ω"
            bind: [magnitude]
            params:
              values: {R: 3, omega: 1000, L: 0.004}
              use: [{equation: 0, relation: 0}]
              expressions: {magnitude: "|Z|"}
        """
        _verifies_and_catches(authored, body, claims, {"z": "5"}, {"z": "7"})


EVALUATED = [
    # (relation, values, quantity, right, wrong): each construct the dialect lists
    (r"b = a \bmod 7", "{a: 23}", "b", "2", "3"),
    (r"b = \lfloor a \rceil", "{a: 2.6}", "b", "3", "2"),
    (r"b = \left\lfloor \frac{a}{4} \right\rfloor", "{a: 23}", "b", "5", "6"),
    (r"b = \Im\left(\frac{1}{1 + \mathrm{j} a}\right)", "{a: 1}", "b", "−0.5", "0.5"),
    (r"y = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} x", "{x: [1, 1]}", "y[2]", "7", "6"),
    (r"\Delta_{[2^{10},2^{11})} = 2^{10}\varepsilon", '{"\\\\varepsilon": "2^{-52}"}',
     "Delta_1024_2048", "2.27 × 10⁻¹³", "2.37 × 10⁻¹³"),
]  # fmt: skip


def test_what_the_dialect_parses_a_claim_evaluates(authored: Any) -> None:
    """`\\bmod`, `\\lfloor x \\rceil`, `\\lfloor x \\rfloor`, `\\Im`, matrix literals and a
    left side subscripted by an interval were refused ("cannot evaluate Mod/Rounded/
    IntervalOf")."""
    for relation, values, quantity, right, wrong in EVALUATED:
        body = _lesson([relation], [], "The worked value is about {v} here.")
        claims = f"""
        claims:
          - id: worked
            kind: formula
            quote: "The worked value is about {{v}} here."
            bind: ["{quantity}"]
            params:
              values: {values}
              use: [{{equation: 0, relation: 0}}]
        """
        _verifies_and_catches(authored, body, claims, {"v": right}, {"v": wrong})


ERROR = _lesson(
    [r"E = \sum_{i=1}^{n} r_i^2"],
    [("E", "Squared error", "V²"), ("r\\_i", "Residual i", "V"),
     ("n", "Number of samples", "dimensionless"), ("i", "Sample index", "dimensionless")],
    "The squared error of the fit is E = {e} V².",
)  # fmt: skip


def test_vector_arithmetic_is_element_wise(authored: Any) -> None:
    """`r: "v - y"` with vectors printed a SymPyDeprecationWarning and failed with
    `AttributeError: 'Dict' object has no attribute 'as_coeff_Mul'`."""
    claims = """
    claims:
      - id: fit
        kind: formula
        quote: "The squared error of the fit is E = {e} V²."
        bind: [E]
        params:
          values: {v: [3, 5, 7], y: [2, 3, 4], r: "v - y"}
          use: [{equation: 0, relation: 0}]
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _verifies_and_catches(authored, ERROR, claims, {"e": "14"}, {"e": "15"})
    assert [str(w.message) for w in caught if "sympy" in str(w.filename).lower()] == []
    mismatched = authored(
        ERROR.replace("{e}", "14"),
        claims.replace("{e}", "14").replace("[2, 3, 4]", "[2, 3]"),
        slug="shapes",
    )
    [claim] = mismatched.claims
    assert claim["status"] == "error"
    assert (
        "a sum entry by entry needs the same shape: a vector of 3 entries and a vector of 2"
        in (claim["message"])
    )
    assert "Error" not in claim["message"]  # no internal exception's name


ADDER = _lesson(
    [r"G_i=A_i\land B_i,\quad P_i=A_i\oplus B_i,\quad C_{i+1}=G_i\lor(P_i\land C_i),"
     r"\quad S_i=P_i\oplus C_i"],
    [("A\\_i", "Bit i of the first addend", "dimensionless"),
     ("B\\_i", "Bit i of the second addend", "dimensionless"),
     ("G\\_i", "Generate signal of bit i", "dimensionless"),
     ("P\\_i", "Propagate signal of bit i", "dimensionless"),
     ("C\\_i", "Carry into bit i", "dimensionless"), ("S\\_i", "Sum bit i", "dimensionless")],
    "Adding A = 0111₂ and B = 0011₂ with no carry in, the carries are C_1 = 1, C_2 = 1,"
    " C_3 = 1 and C_4 = {c4}, so the sum is S = {s}.",
)  # fmt: skip
ADDER_CLAIMS = """
claims:
  - id: adder
    kind: formula
    quote: "Adding A = 0111₂ and B = 0011₂ with no carry in, the carries are C_1 = 1,
      C_2 = 1, C_3 = 1 and C_4 = {c4}, so the sum is S = {s}."
    bind: [a, b, "C[1]", "C[2]", "C[3]", "C[4]", s]
    params:
      values: {A: [1, 1, 1, 0], B: [1, 1, 0, 0], C_0: 0}
      index_base: 0
      equations: [0]
      expressions:
        a: "\\\\sum_{i=0}^{3} A_i 2^i"
        b: "\\\\sum_{i=0}^{3} B_i 2^i"
        s: "\\\\sum_{i=0}^{3} S_i 2^i"
"""


def test_boolean_operators_and_binary_numerals_evaluate(authored: Any) -> None:
    """A ripple-carry adder: `G_i=A_i\\land B_i,\\quad C_{i+1}=G_i\\lor(P_i\\land C_i)`
    gave the phantom relations `G_i=A_i` and `C_{i+1}=G_i`; ∧ ∨ ⊕ evaluate on 0/1, and
    the binary numerals of the prose (`0111₂`) are read in base 2."""
    right = {"c4": "0", "s": "1010₂"}
    good = _verifies_and_catches(authored, ADDER, ADDER_CLAIMS, right, {"c4": "1"})
    relations = good.coverage["relations"]
    assert (relations["total"], relations["verified"]) == (4, 4)  # no phantom relation
    _verifies_and_catches(authored, ADDER, ADDER_CLAIMS, right, {"s": "1011₂"})


def test_binary_numerals_in_values_and_worked_arithmetic(authored: Any) -> None:
    from atlas_build.claims.prose import numbers

    assert [q.value for q in numbers.quantities(numbers.extract("A = 0111₂, B = 10₂"))] == [7, 2]
    assert [q.value for q in numbers.quantities(numbers.extract("x = 2₂"))] == [2]  # not binary
    body = _lesson(
        [r"Y = A \oplus B"],
        [("Y", "Exclusive or of the words", "dimensionless"),
         ("A", "First word", "dimensionless"), ("B", "Second word", "dimensionless")],
        "The words differ in one bit: Y = {y}, and 0111₂ + 0011₂ = {total} as a sum.",
    )  # fmt: skip
    claims = """
    claims:
      - id: xor
        kind: formula
        quote: "The words differ in one bit: Y = {y}, and"
        bind: [Y]
        params:
          values: {A: "0111₂", B: "0011_2"}
          use: [{equation: 0, relation: 0}]
    """
    good = _verifies_and_catches(authored, body, claims, {"y": "0100₂", "total": "1010₂"},
                                 {"y": "0110₂"})  # fmt: skip
    assert not [d for d in good.diagnostics if d.code == "A408"]
    wrong = _check(authored, body, claims, {"y": "0100₂", "total": "1011₂"}, "arithmetic")
    [slip] = [d for d in wrong.diagnostics if d.code == "A408"]
    text = Path(slip.path).read_text(encoding="utf-8")
    assert (slip.line, slip.column) == value_position(text, "1011₂")
