"""Dimension mutants (issue 16): edits of an equation's text that break its dimensions,
each caught by the build at the relation, and counted by selftest as their own kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas_build import lesson, pipeline, selftest
from atlas_build.authoring.sources import new_lesson
from atlas_build.selftest.dimensions import KIND, dimension_mutants

SKELETON_GLOSSARY = (
    "d\n\nDistance travelled\n\nm\n\nv\n\nConstant speed\n\nm/s\n\nt\n\nTime elapsed\n\ns\n"
)
SKELETON_SENTENCE = "With v = 3 m/s and t = 2 s the distance is d = 6 m."


def _glossary(*rows: tuple[str, str, str]) -> str:
    return "".join(f"{symbol}\n\n{meaning}\n\n{unit}\n\n" for symbol, meaning, unit in rows)


def _lesson(tmp_path: Path, equation: str, glossary: str) -> Path:
    """A skeleton lesson with one equation and its glossary, and no claims: the dimension
    check runs on every lesson, claims or not."""
    new_lesson("subject", tmp_path, title="Subject", topic="Tests")
    path = tmp_path / "subject" / "lesson.md"
    text = path.read_text(encoding="utf-8")
    assert "$$\nd=v t\n$$" in text and SKELETON_GLOSSARY in text and SKELETON_SENTENCE in text
    text = text.replace("$$\nd=v t\n$$", f"$$\n{equation}\n$$")
    text = text.replace(SKELETON_GLOSSARY, glossary.rstrip("\n") + "\n")
    text = text.replace(SKELETON_SENTENCE, "The relation holds at every operating point.")
    path.write_text(text, encoding="utf-8")
    (tmp_path / "subject" / "claims.yaml").unlink()
    return path


THERMAL = _glossary(
    ("V_T", "Thermal voltage", "V"),
    ("k_B", "Boltzmann constant", "J/K"),
    ("T", "Absolute temperature", "K"),
    ("q", "Elementary charge", "C"),
)


def _mutants(path: Path) -> list[selftest.Mutant]:
    model = lesson.build(path.read_text(encoding="utf-8").split("---\n", 2)[2])
    return list(dimension_mutants(model, []))


def test_thermal_voltage_gets_each_edit_kind(tmp_path: Path) -> None:
    path = _lesson(tmp_path, r"V_T=\frac{k_B T}{q}", THERMAL)
    found = {m.description.split(": ", 1)[1]: (m.original, m.replacement) for m in _mutants(path)}
    assert found["drop the divisor of '\\\\frac{k_B T}{q}'"] == (r"\frac{k_B T}{q}", "{k_B T}")
    squares = [key for key in found if key.startswith("square")]
    adds = [key for key in found if key.startswith("add")]
    assert len(squares) == 1 and len(adds) == 1, found
    assert all(m.kind == KIND for m in _mutants(path))


def test_every_dimension_mutant_fails_the_build_at_the_relation(tmp_path: Path, run_cli) -> None:
    path = _lesson(tmp_path, r"V_T=\frac{k_B T}{q}", THERMAL)
    original = path.read_text(encoding="utf-8")
    equation_line = original[: original.index("V_T=")].count("\n") + 1
    clean = run_cli("check", str(path.parent), "--no-cache", "--format", "json").json()
    assert not [d for d in clean["records"][0]["diagnostics"] if d["code"] == "A420"]
    mutants = _mutants(path)
    assert len(mutants) == 3
    body_start = original.index("---\n", 4) + 4
    for mutant in mutants:
        offset = body_start + mutant.offset
        assert original[offset : offset + len(mutant.original)] == mutant.original
        path.write_text(
            original[:offset] + mutant.replacement + original[offset + len(mutant.original) :],
            encoding="utf-8",
        )
        result = run_cli("check", str(path.parent), "--no-cache", "--format", "json")
        found = [d for d in result.json()["records"][0]["diagnostics"] if d["code"] == "A420"]
        assert result.code == 1 and found, mutant.description
        assert found[0]["line"] == equation_line
        assert "dimensions disagree" in found[0]["message"], found[0]["message"]


def test_edits_stay_out_of_limits_and_subscripts(tmp_path: Path) -> None:
    glossary = _glossary(("S", "Total length", "m"), ("x_i", "Length of piece i", "m"),
                         ("n", "Number of pieces", "count"))  # fmt: skip
    path = _lesson(tmp_path, r"S=\sum_{i=1}^{n} x_i", glossary)
    mutants = _mutants(path)
    assert mutants, "a consistent relation with dimensioned symbols gets mutants"
    model = lesson.build(path.read_text(encoding="utf-8").split("---\n", 2)[2])
    math = model.display_math[0]
    limits = math.latex.index("_{i=1}^{n}")
    for mutant in mutants:
        start = mutant.offset - math.offset
        assert not limits <= start < limits + len("_{i=1}^{n}"), mutant.description


@pytest.mark.parametrize(
    "glossary",
    [
        _glossary(("y", "Ratio", "dimensionless"), ("a", "Share", "fraction")),
        "",
    ],
    ids=["dimensionless", "no-units"],
)
def test_no_mutant_where_dimensions_cannot_break(tmp_path: Path, glossary: str) -> None:
    path = _lesson(tmp_path, r"y=a^{2}", glossary or "y\n\nRatio\n\n")
    assert _mutants(path) == []


def test_selftest_counts_the_dimension_kind(tmp_path: Path) -> None:
    new_lesson("speed", tmp_path, title="Speed", topic="Tests")
    options = pipeline.Options(jobs=1, cache_dir=str(tmp_path / "cache"))
    (result,) = selftest.selftest([str(tmp_path / "speed")], options)
    dimension = [o for o in result.outcomes if o.mutant.kind == KIND]
    assert len(dimension) >= 2
    assert all(o.killed and "A420" in o.by for o in dimension), selftest.render_text([result])
    assert result.to_json()["kills"][KIND] == len(dimension)
