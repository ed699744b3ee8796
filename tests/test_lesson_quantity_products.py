"""A glossary quantity before a parenthesis multiplies it (issue 30 §1, heat-sink-fin).

The parser applies `f`, `g` and `h` as functions by default; where the lesson's table gives
the letter a physical unit (`h` in W/(m²·K)), it is a quantity, and `h(A_b + η_f A_f)`
multiplies as `a(b + c)` does. A one-term argument (`h(t)`) is still a call, and a letter
the table gives no physical unit (a function `f`, a dimensionless `σ`) is still applied.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy
from support import glossary_body, lesson_text
from sympy.core.function import AppliedUndef

from atlas_build import units
from atlas_build.claims.coverage import dimensions
from atlas_build.latex import parse_relations

FIN = [
    ("Q", "Heat flow", "W"),
    ("h", "Convective heat transfer coefficient", "W/(m²·K)"),
    ("A_b", "Exposed base area", "m²"),
    ("A_f", "Fin surface area", "m²"),
    ("η_f", "Fin efficiency", "dimensionless"),
    ("ΔT", "Base minus air temperature", "K"),
    ("t", "Time", "s"),
]


@pytest.fixture
def dimension_errors(content_dir: Path, diagnose):
    def run(equation: str) -> list[str]:
        folder = content_dir / "probe"
        folder.mkdir(exist_ok=True)
        text = glossary_body([equation], FIN, "The heat flow Q after a time t.")
        (folder / "lesson.md").write_text(lesson_text(text), encoding="utf-8")
        return [d.message for d in diagnose(folder) if d.code == "A420"]

    return run


@pytest.mark.parametrize(
    "equation",
    [
        r"Q=h\left(A_b+\eta_f A_f\right)\Delta T",  # heat-sink-fin, word for word
        r"Q=h(A_b+\eta_f A_f)\,\Delta T",
        r"Q=h(t)\,A_b\,\Delta T",  # h as a function of time: still a call
    ],
)
def test_a_quantity_multiplies_its_parenthesis(dimension_errors, equation):
    assert dimension_errors(equation) == []


@pytest.mark.parametrize(
    "equation",
    [
        r"Q=h\left(A_b+\eta_f A_f\right)",  # ΔT left out: W against W/K
        r"Q=h\left(A_b+\eta_f A_f\right)\Delta T\,t",  # a time too many
    ],
)
def test_a_product_missing_a_factor_is_still_a420(dimension_errors, equation):
    assert len(dimension_errors(equation)) == 1


def _table(*entries: tuple[str, str]) -> dict[str, units.UnitSpec]:
    table = {}
    for name, text in entries:
        spec = units.parse_unit(text)
        assert isinstance(spec, units.UnitSpec)
        table[name] = spec
    return table


def _applied(latex: str, table: dict[str, units.UnitSpec]) -> list[str]:
    (relation,) = parse_relations(latex, symbols=dimensions.declared(table))
    return sorted(type(node).__name__ for node in relation.rhs.atoms(AppliedUndef))


def test_only_a_letter_with_a_physical_unit_is_declared_a_quantity():
    table = _table(("h", "W/(m²·K)"), ("f", "function"), ("sigma", "dimensionless"))
    assert dimensions.declared(table) == ["h"]
    assert _applied(r"y=h\left(a+b\right)", table) == []
    assert _applied(r"y=h(t)", table) == ["h"]
    assert _applied(r"y=f(a+b)", table) == ["f"]  # a function stays one
    assert _applied(r"y=\sigma(a+b)", table) == ["sigma"]  # so does a sigmoid
    assert _applied(r"y=h\left(a+b\right)", {}) == ["h"]  # no table: the convention
    (relation,) = parse_relations(r"y=h\left(a+b\right)", symbols=["h"])
    assert relation.rhs == sympy.Symbol("h") * (sympy.Symbol("a") + sympy.Symbol("b"))


def test_an_acronym_of_the_table_is_a_symbol_whatever_its_unit():
    """`SE = SL − 2\\,\\mathrm{TL} + TS − (NL − DI) − DT` (a sonar lesson, every term in dB):
    `2\\,\\mathrm{TL}` is twice the transmission loss, not 2 teralitres (a false A420, TL in
    `dB` being no physical unit). An acronym the table does not name stays a unit."""
    table = _table(("SE", "dB"), ("SL", "dB"), ("TL", "dB"), ("TS", "dB"))
    assert "TL" in dimensions.declared(table)
    (relation,) = parse_relations(
        r"\mathrm{SE}=\mathrm{SL}-2\,\mathrm{TL}+\mathrm{TS}", symbols=dimensions.declared(table)
    )
    assert relation.rhs == sympy.Symbol("SL") - 2 * sympy.Symbol("TL") + sympy.Symbol("TS")
    assert "GB" not in dimensions.declared(table)
