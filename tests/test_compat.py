"""Claims files survive upgrades (issue 33): every lesson of the compatibility corpus
(tests/compat/README.md), whose claims file passed with the release it was written for,
passes with this tree, as it is or after `atlas-build fix`, and which of the two is
explicit: a lesson that needs `fix` is listed in NEEDS_FIX with the reason, `fix` must
rewrite exactly those files and leave every other one as it is, and a listed lesson must
still fail unfixed (else it comes off the list).

A lesson passes when its check has no error and every claim of its report is `pass`.
Each release folder is checked on its own, as a content directory (two releases hold
lessons of one slug).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

COMPAT = Path(__file__).resolve().parent / "compat"
RELEASES = sorted(path for path in COMPAT.iterdir() if path.is_dir())

NEEDS_FIX = {
    "2026-12-01-233d4b7/littles-law": (
        'values written with their unit (W: "0.08 s", Z: "9 s"): 233d4b7 dropped the '
        "unit, 42b91c7 made a value a bare number in the symbol table's unit (A404 "
        "'carries a unit'); fix writes 0.08 and 9"
    ),
    "2026-12-01-233d4b7/bike-ride": (
        'values written as the lesson writes them (v: "5 m/s", t: "120 s"), the same '
        "change; fix writes 5 and 120"
    ),
}


def _lessons(release: Path) -> list[Path]:
    return sorted(path for path in release.iterdir() if path.is_dir())


def _failures(folder: Path) -> dict[str, list[str]]:
    """Lesson folder name -> what keeps it from passing (empty when it passes)."""
    from atlas_build import pipeline
    from atlas_build.diagnostics import Severity

    report, _ = pipeline.check([str(folder)], pipeline.Options(jobs=2))
    found: dict[str, list[str]] = {}
    for record in report.records:
        problems = [
            f"{d.code} {d.line}:{d.column} {d.message}"
            for d in record.diagnostics
            if d.severity is Severity.ERROR
        ]
        problems += [
            f"claim {claim['id']}: {claim['status']}"
            for claim in record.claims or []
            if claim.get("status") != "pass"
        ]
        if not record.claims:
            problems.append("no claim ran")
        found[Path(record.path).parent.name] = problems
    return found


def test_the_corpus_covers_several_releases_and_lists_real_lessons() -> None:
    assert len(RELEASES) >= 5
    names = {
        f"{release.name}/{lesson.name}" for release in RELEASES for lesson in _lessons(release)
    }
    assert set(NEEDS_FIX) <= names
    for release in RELEASES:
        for lesson in _lessons(release):
            files = {path.name for path in lesson.iterdir()}
            assert "claims.yaml" in files and files & {"lesson.md", "record.json"}, lesson


@pytest.mark.parametrize("release", RELEASES, ids=[release.name for release in RELEASES])
def test_every_lesson_of_a_release_passes_now(
    release: Path, tmp_path: Path, run_cli: object
) -> None:
    copy = tmp_path / release.name
    shutil.copytree(release, copy)
    for lesson in _lessons(copy):
        before = (lesson / "claims.yaml").read_bytes()
        result = run_cli("fix", lesson)  # type: ignore[operator]
        assert result.code == 0, result.err
        rewritten = (lesson / "claims.yaml").read_bytes() != before
        key = f"{release.name}/{lesson.name}"
        assert rewritten == (key in NEEDS_FIX), (key, result.out)
        if rewritten:
            assert "claims.yaml: rewrote" in result.out, result.out
        else:
            assert "claims.yaml: claims up to date" in result.out, result.out
    failures = _failures(copy)
    assert sorted(failures) == [lesson.name for lesson in _lessons(release)]
    assert {name: problems for name, problems in failures.items() if problems} == {}


def test_lessons_listed_as_needing_fix_fail_without_it(tmp_path: Path) -> None:
    """The list stays honest: a lesson on it that passes as it is comes off it."""
    for key in NEEDS_FIX:
        release, lesson = key.split("/")
        target = tmp_path / release / lesson
        shutil.copytree(COMPAT / release / lesson, target)
    for release in {key.split("/")[0] for key in NEEDS_FIX}:
        failures = _failures(tmp_path / release)
        assert all(failures.values()), failures
        assert all(
            any("carries a unit" in problem for problem in problems)
            for problems in failures.values()
        ), failures


def test_a_wrong_number_in_a_compat_lesson_fails_at_that_number(
    tmp_path: Path, run_cli: object
) -> None:
    """The corpus can fail: one number of the prose edited (600 m -> 610 m) is an A401 at
    its line and column, after `fix` upgraded the file around it."""
    source = COMPAT / "2026-12-01-233d4b7" / "bike-ride"
    lesson = tmp_path / "content" / "bike-ride"
    shutil.copytree(source, lesson)
    run_cli("fix", lesson)  # type: ignore[operator]
    assert _failures(lesson.parent) == {"bike-ride": []}
    path = lesson / "lesson.md"
    text = path.read_text(encoding="utf-8")
    sentence = "covers d = 600 m."
    assert text.count(sentence) == 1
    path.write_text(text.replace(sentence, "covers d = 610 m."), encoding="utf-8")
    line = text[: text.index(sentence)].count("\n") + 1
    column = text.index(sentence) - text.rfind("\n", 0, text.index(sentence)) + len("covers d = ")
    from atlas_build import pipeline

    report, _ = pipeline.check([str(lesson.parent)], pipeline.Options(jobs=1))
    [record] = report.records
    errors = [(d.code, d.line, d.column) for d in record.diagnostics
              if d.severity.name == "ERROR"]  # fmt: skip
    assert ("A401", line, column) in errors, errors
