"""The check ledger (atlas_build/ledger.py): a warm check reads one entry, not two per lesson.

Proven here, on copies of three real lessons (the `baseline` and `tree`
fixtures of conftest.py, as in test_pipeline): a warm check
reads the ledger and no per-lesson entry, its reports equal a cold check's in every
output format, and their claims are read only when an output asks for them; a claims
entry that is gone or damaged is made again by checking that lesson, never read as no
claims; a forged or damaged ledger is a miss; an edited lesson is checked again and the
ledger follows it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import ALL_CACHED, MKDOCS_CONFIG, SLUGS, Run, check_content, lesson_entry, timeless

from atlas_build import ledger, pipeline
from atlas_build.cache import Cache
from atlas_build.report import FORMATS, render


def test_a_warm_check_reads_the_ledger_and_no_lesson_entry(
    tree: Path, cache_reads: list[tuple[str, str]]
) -> None:
    check_content()  # the baseline's ledger is its folder's: this run writes this folder's
    cold = check_content(cache=None).report.summary()
    cache_reads.clear()
    warm = check_content()
    assert warm.cached == ALL_CACHED
    assert [namespace for namespace, _ in cache_reads] == [ledger.NAMESPACE]
    assert all(item.report.loaded_claims is None for item in warm.checked)
    assert warm.report.summary() == cold
    assert len(cache_reads) == 1  # the counts came from the heads


def test_warm_reports_equal_cold_ones_in_every_format(tree: Path) -> None:
    check_content()
    cold = check_content(cache=None)
    for name in FORMATS:
        warm = check_content()
        if name == "json":
            assert timeless(warm.json) == timeless(cold.json)
            continue
        assert render(warm.report, name) == render(cold.report, name), name


@pytest.mark.parametrize("damage", ["deleted", "truncated"])
def test_claims_whose_entry_is_gone_are_checked_again(tree: Path, damage: str) -> None:
    check_content()
    entry = lesson_entry(tree, "kv-cache")
    if damage == "deleted":
        entry.unlink()
    else:
        entry.write_bytes(entry.read_bytes()[:200])
    warm = check_content()
    assert warm.cached == ALL_CACHED
    (item,) = [c for c in warm.checked if Path(c.report.path).parent.name == "kv-cache"]
    claims = item.report.claims
    assert claims and all(claim["status"] == "pass" for claim in claims)
    assert timeless(warm.json) == timeless(check_content(cache=None).json)


def _ledger_file(tree: Path, paths: tuple[str, ...] = ("content",)) -> Path:
    """This folder's ledger (the copied baseline cache holds its own folder's too)."""
    key = ledger.Ledger.key([str((tree / path).resolve()) for path in paths])
    return tree / "cache" / ledger.NAMESPACE / key[:2] / key


@pytest.mark.parametrize("damage", ["forged", "truncated", "malformed head"])
def test_a_damaged_ledger_is_a_miss(tree: Path, damage: str) -> None:
    check_content()
    path = _ledger_file(tree)
    header, _, payload = path.read_bytes().partition(b"\n")
    data = json.loads(payload)
    if damage == "forged":  # a consistent-looking entry whose tag cannot verify
        for head in data["heads"].values():
            head["tally"] = {"pass": 99}
        path.write_bytes(header + b"\n" + json.dumps(data).encode("ascii"))
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    else:  # authenticated, but not what `encode` writes: read the slow way
        for head in data["heads"].values():
            head["tally"] = "everything passed"
        Cache("cache").put(ledger.NAMESPACE, path.name, json.dumps(data).encode("ascii"))
    warm = check_content()
    assert warm.cached == ALL_CACHED
    assert timeless(warm.json) == timeless(check_content(cache=None).json)


def test_an_edited_lesson_is_checked_again_and_the_ledger_follows(tree: Path) -> None:
    check_content()
    path = tree / "content" / "kv-cache" / "lesson.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    edited = check_content()
    assert edited.cached == {**ALL_CACHED, "kv-cache": False}
    again = check_content()
    assert again.cached == ALL_CACHED
    assert timeless(again.json) == timeless(edited.json)
    assert len(json.loads(_ledger_file(tree).read_bytes().partition(b"\n")[2])["heads"]) == len(
        SLUGS
    )


def test_a_one_folder_check_keeps_its_own_ledger(tree: Path) -> None:
    """Each set of paths has its ledger: checking one folder does not evict the whole's."""
    check_content()
    one = Run(*pipeline.check(["content/attention"], pipeline.Options(cache_dir="cache")))
    assert [item.cached for item in one.checked] == [True]
    assert _ledger_file(tree).is_file() and _ledger_file(tree, ("content/attention",)).is_file()


def test_a_report_from_the_ledger_pickles_with_its_loader(tree: Path) -> None:
    """Reports travel to page-rendering workers: one whose claims are not loaded yet must
    pickle, and load them in the other process."""
    import pickle

    check_content()
    warm = check_content()
    (item,) = [c for c in warm.checked if Path(c.report.path).parent.name == "kv-cache"]
    assert item.report.loaded_claims is None
    copy = pickle.loads(pickle.dumps(item.report))
    assert copy.claims == item.report.claims and copy.claims


def test_a_build_renders_pages_of_ledger_reports_in_workers(tree: Path, run_cli) -> None:
    """The page cache gone, a parallel build renders every page from reports the ledger
    gave (their claims read in the workers), as a cold build does."""

    def build(out: str) -> None:
        result = run_cli(
            "build", "content", "--out", out, "--site-dir", f"{out}-site", "-j", "2",
            "--mkdocs-config", MKDOCS_CONFIG, "--cache-dir", "cache", "-q", "--allow-errors",
        )  # fmt: skip
        assert result.code == 0, result.err

    build("first")
    shutil.rmtree(tree / "cache" / "page")
    build("second")
    docs = sorted((tree / "first" / "docs" / "lessons").rglob("index.md"))
    assert len(docs) == len(SLUGS)
    for page in docs:
        again = tree / "second" / page.relative_to(tree / "first")
        assert again.read_bytes() == page.read_bytes()
