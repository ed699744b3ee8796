"""Coverage in words, and the same words in every output format (issue 13: every
relation's status and every number's class, per lesson, wherever the report is read)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from atlas_build.report import coverage

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_statuses_that_occur_are_named() -> None:
    found = {
        "verification": "partial",
        "relations": {"total": 6, "verified": 5, "defined": 1, "unchecked": 0, "unreadable": 0},
        "numbers": {"total": 29, "verified": 26, "input": 2, "exempt": 1, "unaccounted": 0},
        "dimensions": {"consistent": 4, "inconsistent": 0, "incomplete": 2, "not checked": 0},
    }
    assert coverage.sentence(found) == (
        "partly verified: 5 of 6 relations verified, 1 definition; 26 of 29 numbers verified, "
        "2 inputs, 1 exempt; dimensions: 4 of 6 relations consistent, 2 incomplete"
    )


def test_quiz_answers_are_named_when_the_lesson_has_quizzes() -> None:
    found = {
        "verification": "partial",
        "relations": {"total": 1, "verified": 1},
        "numbers": {"total": 2, "verified": 2},
        "quizzes": {"total": 3, "verified": 1, "unchecked": 1, "failed": 0, "unverified": 1},
    }
    assert coverage.sentence(found) == (
        "partly verified: 1 of 1 relation verified; 2 of 2 numbers verified; "
        "1 of 3 quiz answers verified, 1 listed unchecked, 1 not checked"
    )
    found["quizzes"] = {"total": 0}
    assert "quiz" not in (coverage.sentence(found) or "")


def test_nothing_checked_says_so() -> None:
    assert coverage.sentence(None) is None
    assert coverage.sentence({"verification": "unverified"}) is None
    said = coverage.sentence({"verification": "unverified", "relations": {"total": 0}})
    assert said == "not verified: no display equations"


@pytest.mark.parametrize("state", ["verified", "partial", "unverified", "failed"])
def test_the_verdict_is_the_report_s_own(state: str) -> None:
    said = coverage.sentence({"verification": state, "relations": {"total": 1, "verified": 1}})
    assert said is not None and said.startswith(coverage.VERIFICATION_WORDS[state] + ":")


@pytest.fixture(scope="module")
def lesson(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("coverage") / "kv-cache"
    shutil.copytree(ROOT / "content" / "kv-cache", folder)
    return folder


def _expected(run_cli, lesson: Path) -> tuple[str, str]:
    report = run_cli("check", str(lesson), "--format", "json").json()
    (record,) = report["records"]
    said = coverage.sentence(record["coverage"])
    assert said and "relations" in said and "numbers" in said and "dimensions" in said
    return record["path"], said


def test_text_prints_each_lesson_s_coverage(run_cli, lesson: Path) -> None:
    path, said = _expected(run_cli, lesson)
    out = run_cli("check", str(lesson)).out.splitlines()
    assert f"{path}: {said}" in out
    assert out[-1].startswith("checked 1 lesson")


def test_github_notice_carries_coverage(run_cli, lesson: Path) -> None:
    path, said = _expected(run_cli, lesson)
    out = run_cli("check", str(lesson), "--format", "github").out
    assert f"::notice file={path},title=coverage::{said}" in out


def test_junit_testcase_properties_carry_coverage(run_cli, lesson: Path) -> None:
    _, said = _expected(run_cli, lesson)
    root = ElementTree.fromstring(run_cli("check", str(lesson), "--format", "junit").out)
    properties = {
        p.get("name"): p.get("value") for p in root.iter("property") if p.get("name") is not None
    }
    assert properties["coverage"] == said
    assert int(properties["relations.total"]) >= int(properties["relations.verified"]) > 0
    assert "numbers.unaccounted" in properties and "dimensions.consistent" in properties


def test_sarif_run_properties_carry_coverage(run_cli, lesson: Path) -> None:
    _, said = _expected(run_cli, lesson)
    run = json.loads(run_cli("check", str(lesson), "--format", "sarif").out)["runs"][0]
    (entry,) = run["properties"]["lessons"]
    assert entry["coverage"] == said and entry["id"] == "atlas-lesson-kv-cache"
    assert entry["relations"]["total"] >= entry["relations"]["verified"] > 0
    assert "items" not in entry["relations"]  # counts only; the JSON report has the items


def test_a_lesson_with_errors_never_reads_verified() -> None:
    proved = {"verification": "verified", "relations": {"total": 1, "verified": 1}}
    assert coverage.sentence(
        proved,
        "pass",
    ).startswith("verified:")
    said = coverage.sentence(proved, "error")
    assert said is not None and said.startswith("verification failed:")


@pytest.mark.parametrize("breakage", ["claims: [\n", "lesson: atlas-lesson-other\n"])
def test_a_lesson_whose_claims_file_is_unusable_still_reads_failed(
    run_cli, lesson: Path, tmp_path: Path, breakage: str
) -> None:
    broken = tmp_path / "kv-cache"
    shutil.copytree(lesson, broken)
    claims = broken / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    if breakage.startswith("lesson:"):
        text = "\n".join(
            breakage.strip() if line.startswith("lesson:") else line for line in text.splitlines()
        )
    else:
        text += breakage
    claims.write_text(text, encoding="utf-8")
    result = run_cli("check", str(broken))
    assert result.code == 1 and "A400" in result.out
    said = [line for line in result.out.splitlines() if ": verification failed: " in line]
    assert len(said) == 1 and " relations verified, " in said[0] and " not checked" in said[0]
