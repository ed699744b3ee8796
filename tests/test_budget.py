"""Time and memory budgets (atlas_build/budget.py): limits from the command line, not the lesson.

A claims file picks its own per-claim timeout (up to 600 s) and sizes; the run's budgets cap
them: the claims of one lesson share `--lesson-time`, the whole run `--run-time`, and every
step estimates its memory before allocating against `--memory-budget`.
"""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest
from support import write_lesson, yaml_string

from atlas_build import pipeline
from atlas_build.budget import Budget, MemoryBudgetExceeded, deadline, need

VARIANCE_BODY = """
## Science and assumptions

$$
\\operatorname{Var}(q^{\\mathsf T}k)\\approx d_k
$$

A dot product of d_k unit-variance coordinates has variance d_k.
"""


def _slow_claims(count: int) -> str:
    """Claims that would each run for minutes: 2 million samples of 2048-wide vectors."""
    claims = "\n".join(
        f"  - id: slow-{index}\n    kind: variance\n    timeout: 600\n"
        "    params: {equation: 0, relation: 0, widths: [2048], samples: 2000000}"
        for index in range(count)
    )
    return "claims:\n" + claims + "\n"


def _check(folders: list[Path], **budget: float) -> pipeline.Report:
    options = pipeline.Options(budget=Budget(**budget))  # type: ignore[arg-type]
    report, _ = pipeline.check([str(folder) for folder in folders], options)
    return report


def test_claims_of_a_lesson_share_the_lesson_time(tmp_path: Path) -> None:
    folder = write_lesson(tmp_path, "slow", VARIANCE_BODY, _slow_claims(40))
    started = time.perf_counter()
    report = _check([folder], lesson_seconds=2.0)
    assert time.perf_counter() - started < 20  # 40 claims x 600 s asked for
    [record] = report.records
    late = [d for d in record.diagnostics if d.code == "A405"]
    assert len(late) == 40
    used = r"stopped after [0-9.]+ s, when the claims of this lesson had used"
    assert re.search(used, late[0].message), late[0].message
    assert all(
        "lesson used their time budget of 2 s (--lesson-time)" in d.message for d in late[1:]
    )
    assert {claim["status"] for claim in record.claims} == {"error"}
    assert report.exit_code() == 1


def test_claims_of_a_run_share_the_run_time(tmp_path: Path) -> None:
    folders = [write_lesson(tmp_path, f"slow-{n}", VARIANCE_BODY, _slow_claims(5)) for n in "ab"]
    started = time.perf_counter()
    report = _check(folders, run_seconds=2.0)
    assert time.perf_counter() - started < 20
    messages = [d.message for r in report.records for d in r.diagnostics if d.code == "A405"]
    assert len(messages) == 10
    assert sum("run used their time budget of 2 s (--run-time)" in m for m in messages) >= 8


def test_a_claims_file_asking_600_s_ends_within_a_minute(tmp_path: Path) -> None:
    """`defaults: {timeout: 600}` ran a claim for two minutes under the 120 s lesson budget
    (issue 32). The budget is 30 s now, and each timeout over it is a located warning."""
    claims = _slow_claims(3).replace("claims:\n", "defaults: {timeout: 600}\nclaims:\n", 1)
    folder = write_lesson(tmp_path, "slow", VARIANCE_BODY, claims)
    started = time.perf_counter()
    [record] = _check([folder]).records  # the default budget
    assert time.perf_counter() - started < 50
    over = [d for d in record.diagnostics if d.code == "A418"]
    text = (folder / "claims.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    expected = {(n, line.index("600") + 1) for n, line in enumerate(lines, 1) if "600" in line}
    assert {(d.line, d.column) for d in over} == expected and len(over) == 4
    assert all(d.severity.value == "warning" for d in over)
    assert "timeout: 600 s is more than the claims of this lesson may take together (30 s" in (
        over[0].message
    )
    late = [d for d in record.diagnostics if d.code == "A405"]
    assert len(late) == 3 and "time budget of 30 s (--lesson-time)" in late[-1].message


PACKING_BODY = "## Packing\n\nThe query at slot7 may attend to slots5,6,7.\n"


def _packing(block: int) -> str:
    quote = yaml_string("The query at slot7 may attend to slots5,6,7.")
    return (
        "claims:\n  - id: pack\n    kind: packed_mask\n"
        f"    quote: {quote}\n    bind: [query, allowed]\n"
        f"    params: {{docs: [[1, 2, 3, 4, 5], [6, 7, 8]], block_size: {block}, query: 7}}\n"
    )


def test_memory_is_refused_before_allocating_with_a_located_message(tmp_path: Path) -> None:
    folder = write_lesson(tmp_path, "huge", PACKING_BODY, _packing(65536))
    started = time.perf_counter()
    report = _check([folder])
    assert time.perf_counter() - started < 10
    [record] = report.records
    [refused] = [d for d in record.diagnostics if d.code == "A404"]
    assert "the 65536-slot attention mask needs about 16 GiB" in refused.message
    assert "over the memory budget of 1 GiB (--memory-budget)" in refused.message
    assert refused.line is not None and refused.column is not None


def test_the_memory_budget_is_configurable(tmp_path: Path) -> None:
    folder = write_lesson(tmp_path, "mid", PACKING_BODY, _packing(2048))
    assert _check([folder]).records[0].claims[0]["status"] == "pass"
    [record] = _check([folder], memory_bytes=8 * 2**20).records
    assert record.claims[0]["status"] == "error"
    assert "over the memory budget of 8 MiB" in record.claims[0]["message"]


def test_variance_samples_fit_the_budget(tmp_path: Path) -> None:
    claims = (
        "claims:\n  - id: wide\n    kind: variance\n"
        "    params: {equation: 0, relation: 0, widths: [4096], samples: 20000}\n"
    )
    folder = write_lesson(tmp_path, "wide", VARIANCE_BODY, claims)
    [record] = _check([folder], memory_bytes=100 * 2**20).records
    assert "the Monte Carlo samples needs about 1 GiB" in record.claims[0]["message"]


def test_need_refuses_only_above_the_budget() -> None:
    need(100, 100, "exactly the budget")
    try:
        need(100, 101, "one byte more")
    except MemoryBudgetExceeded as error:
        assert "one byte more needs about 101 bytes" in str(error)
    else:
        raise AssertionError("not refused")


def test_budget_flags_reach_the_claims(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    folder = write_lesson(tmp_path, "mid", PACKING_BODY, _packing(2048))
    result = run_cli("check", folder, "--no-cache", "--memory-budget", "8MiB", "-q")
    assert result.code == 1 and "over the memory budget of 8 MiB" in result.out
    slow = write_lesson(tmp_path, "slow", VARIANCE_BODY, _slow_claims(3))
    started = time.perf_counter()
    result = run_cli("check", slow, "--no-cache", "--lesson-time", "1", "-q")
    assert time.perf_counter() - started < 15
    assert result.out.count("A405") == 3
    assert run_cli("check", slow, "--lesson-time", "nan").code == 2


def test_a_lesson_too_dense_to_read_is_one_a108(tmp_path: Path) -> None:
    """Everything but the claims shares --read-time: 200 KB of nested list items under a
    0.5 s budget ends at once with one located error, not a stalled run."""
    body = "## Lists\n\n" + "- a\n  - b\n" * 20_000
    folder = write_lesson(tmp_path, "dense", body, "claims: []\n")
    started = time.perf_counter()
    report = _check([folder], read_seconds=0.5)
    assert time.perf_counter() - started < 10
    [record] = report.records
    [slow] = [d for d in record.diagnostics if d.code == "A108"]
    assert "took longer than 0.5 s (--read-time)" in slow.message
    assert (slow.line, slow.column) == (1, 1) and report.exit_code() == 1
    # Given time it is read: the A108 above is the budget, not the lesson. (Whether the
    # default read time suffices depends on the machine, coverage and load.)
    assert _check([folder], read_seconds=300).records[0].coverage is not None


class _Stop(Exception):
    pass


def test_a_deadline_whose_first_alarm_is_swallowed_still_stops_the_block() -> None:
    """An alarm that fires inside `__del__` or a gc callback is dropped by the interpreter,
    and a stage may catch what it raises; the deadline keeps firing until the block exits."""
    swallowed = 0
    started = time.monotonic()
    with pytest.raises(_Stop):
        with deadline(0.05, _Stop):
            while time.monotonic() - started < 5:
                try:
                    time.sleep(0.01)
                except _Stop:
                    swallowed += 1
                    if swallowed == 1:
                        continue
                    raise
    assert swallowed == 2
    assert time.monotonic() - started < 2


def test_a_deadline_leaves_no_alarm_behind() -> None:
    with deadline(0.05, _Stop):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    time.sleep(0.15)
