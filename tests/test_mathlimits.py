"""Lesson math is bounded (atlas_build/mathlimits.py): `check` refuses macro definitions and
oversized formulas at their position (A340, A341), and the site's renderer refuses them
again, so a lesson that passes `check`, or is published with `--allow-errors`, cannot make
`build` hang on KaTeX."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support import position, write_lesson

from atlas_build import pipeline
from atlas_build.latex import mathml
from atlas_build.mathlimits import MAX_FORMULA, MAX_TOTAL

CHAIN = "\\def\\a{xxxxxxxxxxxxxxxx}" + "".join(
    f"\\def\\{b}{{\\{a}\\{a}\\{a}\\{a}\\{a}\\{a}\\{a}\\{a}}}"
    for a, b in zip("abcdefg", "bcdefgh", strict=True)
)


def _diagnostics(folder: Path) -> list:  # type: ignore[type-arg]
    report, _ = pipeline.check([str(folder)], pipeline.Options())
    return report.records[0].diagnostics


def test_macro_definitions_are_errors_at_the_command(tmp_path: Path) -> None:
    body = f"## Bomb\n\nInline $\\newcommand{{\\x}}{{y}}\\x$ too.\n\n$$\n{CHAIN}\\h\n$$\n"
    folder = write_lesson(tmp_path, "bomb", body, "claims: []\n")
    text = (folder / "lesson.md").read_text("utf-8")
    found = [d for d in _diagnostics(folder) if d.code == "A340"]
    assert len(found) == 1 + CHAIN.count("\\def")
    assert (found[0].line, found[0].column) == position(text, "\\newcommand")
    assert (found[1].line, found[1].column) == position(text, "\\def")
    assert "\\def defines a macro" in found[1].message


@pytest.mark.parametrize("command", ["def", "gdef", "let", "renewcommand", "DeclareMathOperator"])
def test_the_renderer_refuses_macro_definitions(command: str) -> None:
    with pytest.raises(mathml.MathError) as raised:
        mathml.render(f"x + \\{command}\\a{{b}}\\a", display=True)
    assert raised.value.position == 4


def test_oversized_formulas_are_errors(tmp_path: Path) -> None:
    long = "x+" * (MAX_FORMULA // 2 + 1) + "x"
    body = f"## Long\n\n$$\n{long}\n$$\n\n" + "".join(
        f"$$\n{'y+' * 4000}y\n$$\n\n" for _ in range(MAX_TOTAL // 8000 + 1)
    )
    folder = write_lesson(tmp_path, "long", body, "claims: []\n")
    found = [d for d in _diagnostics(folder) if d.code == "A341"]
    assert len(found) == 2
    assert "limit 10,000" in found[0].message and "together" in found[1].message
    with pytest.raises(mathml.MathError):
        mathml.render(long, display=True)


def test_a_macro_bomb_published_with_errors_builds_quickly(tmp_path: Path, run_script) -> None:  # type: ignore[no-untyped-def]
    content = tmp_path / "content"
    write_lesson(content, "bomb", f"## Bomb\n\n$$\n{CHAIN}\\h\n$$\n", "claims: []\n")
    repo = Path(__file__).resolve().parent.parent
    started = time.perf_counter()
    result = run_script(
        "build", content, "--allow-errors", "--no-cache", "--out", tmp_path / "build",
        "--site-dir", tmp_path / "site", "--mkdocs-config", repo / "mkdocs.yml", timeout=120,
    )  # fmt: skip
    assert time.perf_counter() - started < 60
    assert result.code == 1 and "A340" in result.err
    page = (tmp_path / "site" / "lessons" / "bomb" / "index.html").read_text("utf-8")
    assert "atlas-math-error" in page and "<math" not in page.split("Bomb", 2)[-1][:2000]
