"""atlas-build selftest: mutants of a lesson, and how many of them its claims catch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import with_unchecked_quiz

from atlas_build import lesson, pipeline, selftest
from atlas_build.claims.prose import numbers
from atlas_build.claims.running import file as claims_file
from atlas_build.selftest.mutants import MINUS, Mutant, generate, number_mutants

ROOT = Path(__file__).resolve().parent.parent
CLI = str(Path(sys.executable).parent / "atlas-build")

# The attention lesson's first quiz ("What does the attention weight matrix mix?") is
# qualitative: no claim can compute "value vectors", so swapping its answer for another
# option survives. Every other generated mutant must be killed.
EXPLAINED_SURVIVORS = {"What does the attention weight matrix mix?"}


@pytest.fixture(scope="module")
def attention_result(tmp_path_factory: pytest.TempPathFactory) -> selftest.LessonResult:
    folder = tmp_path_factory.mktemp("selftest") / "attention"
    shutil.copytree(ROOT / "content" / "attention", folder)
    options = pipeline.Options(jobs=2, cache_dir=str(folder.parent / "cache"))
    (result,) = selftest.selftest([str(folder)], options)
    return result


def test_attention_kill_rate_is_at_least_95_percent(attention_result) -> None:
    assert attention_result.baseline_errors == 0
    assert len(attention_result.outcomes) >= 50
    assert attention_result.rate >= 0.95, selftest.render_text([attention_result])


def test_attention_survivors_are_the_explained_ones(attention_result) -> None:
    survivors = [o for o in attention_result.outcomes if not o.killed]
    for outcome in survivors:
        assert outcome.mutant.kind == "quiz", outcome.mutant
        assert any(q[:40] in outcome.mutant.description for q in EXPLAINED_SURVIVORS)
        assert outcome.line is not None and outcome.column is not None


def test_every_mutant_kind_is_generated_and_killed(attention_result) -> None:
    kinds = {o.mutant.kind for o in attention_result.outcomes}
    assert {"number", "slots", "equation", "quiz", "sentence"} <= kinds
    for kind in kinds - {"quiz"}:
        assert all(o.killed for o in attention_result.outcomes if o.mutant.kind == kind), kind


def test_killed_mutants_name_the_codes_that_caught_them(attention_result) -> None:
    codes = {code for o in attention_result.outcomes if o.killed for code in o.by}
    assert codes <= {c for c in codes if c.startswith("A4")}  # claims, never integrity
    assert {"A401", "A402", "A403"} <= codes


def test_mutants_edit_exactly_one_place() -> None:
    content = json.loads((ROOT / "content/attention/record.json").read_text())["content"]
    model = lesson.build(content)
    spec, _ = claims_file.read(str(ROOT / "content/attention/claims.yaml"))
    assert spec is not None
    quotes = [c["quote"] for c in spec.data["claims"] if c.get("quote")]
    mutants = generate(quotes, model)
    assert len({(m.offset, m.original, m.replacement) for m in mutants}) == len(mutants)
    for mutant in mutants:
        mutated = mutant.apply(content)
        assert mutated != content
        assert mutated[: mutant.offset] == content[: mutant.offset]


def test_a_row_quote_mutates_its_row_only() -> None:
    """`| 2 | 6 |` fits every row; the claim checks its own, so only that row is mutated."""
    content = "## Table\n\n| t | d |\n|---|---|\n| 1 | 3 |\n| 2 | 6 |\n| 4 | 12 |\n"
    row = content.index("| 2 | 6 |")
    mutants = generate(["| 2 | 6 |"], lesson.build(content))
    assert mutants and all(row <= m.offset < row + len("| 2 | 6 |") for m in mutants)


def test_number_mutants_change_digits_signs_and_slots() -> None:
    (value,) = numbers.extract("is −0.75 here")
    replacements = {text for text, _ in number_mutants(value)}
    assert "−0.76" in replacements and "0.75" in replacements
    (slots,) = numbers.extract("attend to slots5,6,7")
    replacements = {text for text, _ in number_mutants(slots)}
    assert "slots5,6" in replacements
    (zero,) = numbers.extract("score 0 here")
    assert MINUS + "0" not in {text for text, _ in number_mutants(zero)}  # -0 is 0


def test_mutant_apply_refuses_a_stale_offset() -> None:
    with pytest.raises(AssertionError):
        Mutant("number", "x", 0, "abc", "abd").apply("xyz")


def test_cli_json_and_fail_under(tmp_path: Path) -> None:
    from atlas_build.authoring.sources import new_lesson

    new_lesson("speed", tmp_path, title="Speed", topic="Tests")
    folder = with_unchecked_quiz(tmp_path / "speed")  # its quiz answer survives
    done = subprocess.run(
        [CLI, "selftest", str(folder), "--format", "json", "--no-cache", "--fail-under", "100"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = json.loads(done.stdout)
    (entry,) = report["lessons"]
    assert entry["mutants"] >= 8 and 0 < entry["killRate"] < 1
    assert done.returncode == 1  # the qualitative quiz answer survives, below 100%
    assert all({"kind", "description", "line", "column"} <= set(s) for s in entry["survivors"])


def _probe(tmp_path: Path, body: str) -> Path:
    """A lesson folder with rc-delay's front matter and `body`, no claims file."""
    folder = tmp_path / "content" / "probe"
    folder.mkdir(parents=True)
    repo = Path(__file__).resolve().parent.parent
    front = (repo / "content" / "rc-delay" / "lesson.md").read_text(encoding="utf-8")
    head = front[: front.index("\n---\n", 4) + 5]
    (folder / "lesson.md").write_text(head + body, encoding="utf-8")
    return folder


def test_all_numbers_edits_every_prose_number_with_and_without_the_claims_file(tmp_path):
    """`--all-numbers`: a typo in each number no rule exempts, checked with the claims file
    and without it, so anyone can measure what inference alone catches."""
    from atlas_build.claims.prose import exempt

    body = (
        "## Work\n\nA shard serves 125 requests/s and receives 100 requests/s, so the "
        "utilization is 100/125 = 0.8 and the idle share 1 − 0.8 = 0.2.\n"
    )
    folder = _probe(tmp_path, body)
    [result] = selftest.selftest([str(folder)], pipeline.Options(jobs=1), all_numbers=True)
    assert result.bare is not None and not result.claims
    counted = [s for s in exempt.spots(lesson.build(body)) if not s.exempt]
    assert len(result.outcomes) == len(counted) == len(result.bare)
    killed = {o.mutant.original for o in result.outcomes if o.killed}
    assert {"0.8", "0.2"} <= killed  # results of worked arithmetic: a typo there is caught
    data = result.to_json()
    assert data["killRateWithoutClaims"] == round(result.bare_rate or 0, 4)


def test_section_limits_the_edits_to_one_top_level_section(tmp_path):
    """`--section "Engineering example"`: only numbers under that `##` heading, its
    subsections included, are edited: the worked-example typo test of issue 31."""
    body = (
        "## Science\n\nThe idle share is 1 − 0.8 = 0.2 at 80% load.\n\n"
        "## Engineering example\n\nA shard serves 125 requests/s at 100 requests/s, so the "
        "utilization is 100/125 = 0.8.\n\n### Margin\n\nIts idle share is 1 − 0.8 = 0.2.\n\n"
        "## Distinctions\n\nA 2× faster shard halves it.\n"
    )
    folder = _probe(tmp_path, body)
    options = pipeline.Options(jobs=1)
    [every] = selftest.selftest([str(folder)], options, all_numbers=True)
    [only] = selftest.selftest(
        [str(folder)], options, all_numbers=True, section="engineering EXAMPLE"
    )
    start, end = body.index("## Engineering"), body.index("## Distinctions")
    inside = [o for o in every.outcomes if start <= o.mutant.offset < end]
    assert 0 < len(only.outcomes) == len(inside) < len(every.outcomes)
    assert {o.mutant.offset for o in only.outcomes} == {o.mutant.offset for o in inside}
    assert "0.2" in {o.mutant.original for o in only.outcomes}  # under `### Margin`
