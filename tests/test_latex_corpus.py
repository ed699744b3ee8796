"""The equation corpus: real-lesson LaTeX across subjects, parsed at a reported rate."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from atlas_build.latex import ERROR_CODES, LatexError, parse_equation
from atlas_build.latex.mathml import MathError, render

CORPUS = Path(__file__).resolve().parent / "latex_corpus"
MIN_RATE = 0.97
MIN_ENTRIES = 400


def entries() -> list[tuple[str, str]]:
    """(file name, equation) for every corpus entry (format: latex_corpus/README.md)."""
    found: list[tuple[str, str]] = []
    for path in sorted(CORPUS.glob("*.tex")):
        for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            lines = [line for line in block.strip().splitlines() if not line.startswith("%")]
            equation = "\n".join(lines).strip()
            if equation:
                found.append((path.name, equation))
    return found


ENTRIES = entries()


def test_corpus_is_large_and_covers_every_subject() -> None:
    assert len(ENTRIES) >= MIN_ENTRIES
    subjects = {name for name, _ in ENTRIES}
    assert len(subjects) >= 6
    for subject in subjects:
        assert sum(1 for name, _ in ENTRIES if name == subject) >= 60, subject


def test_katex_renders_every_entry() -> None:
    refused = []
    for name, equation in ENTRIES:
        try:
            render(equation, display=True)
        except MathError as error:
            refused.append((name, equation[:60], error.message))
    assert not refused


def test_parse_rate(capsys: pytest.CaptureFixture[str]) -> None:
    """At least 97% of the corpus parses (a part that states no relation, such as a
    confidence interval shown on its own, is read as an expression: it is no failure);
    every failure is a located LatexError, and no entry takes a second."""
    failures: list[tuple[str, str, str]] = []
    slowest = 0.0
    for name, equation in ENTRIES:
        started = time.perf_counter()
        try:
            parse_equation(equation)
        except LatexError as error:
            assert error.code in ERROR_CODES
            assert 0 <= error.offset <= len(equation)
            failures.append((name, error.code, equation.replace("\n", " ")[:80]))
        slowest = max(slowest, time.perf_counter() - started)
    rate = 1 - len(failures) / len(ENTRIES)
    with capsys.disabled():
        print(f"\nlatex corpus: {len(ENTRIES) - len(failures)}/{len(ENTRIES)} parse ({rate:.1%})")
        for failure in failures:
            print("  not parsed:", *failure)
    assert slowest < 1.0
    assert rate >= MIN_RATE, failures
