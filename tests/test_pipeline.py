"""The per-lesson cache and the process pool of `pipeline.check`, on copies of content/.

Proven here: a warm run serves every lesson from the cache with a report identical to
the cold one (in every output format); editing a lesson or its claims.yaml recomputes
exactly that lesson, and an edit that breaks a quoted number is reported (A401), never
served as a stale pass; reverting an edit serves the original entry again; a changed
tool version (a library's or atlas_build's) recomputes every lesson; a damaged
per-lesson or per-claim entry is recomputed and rewritten, with an unchanged report;
changing the set of checked lessons (adding or renaming one) recomputes the lessons
whose cross-reference checks depend on it; `-j 1` and `-j 2` give identical reports.

One cold run of the three real lessons is made per module (the `baseline` fixture of
conftest.py) and its content/ and cache/ copied into each test (`tree`): runs are made
from that copy as the working directory with the relative PATH `content`, because a
lesson's key includes its displayed path.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import (
    ALL_CACHED,
    CONTENT,
    SLUGS,
    Baseline,
    Run,
    check_content,
    lesson_entry,
    library_version,
    timeless,
)

from atlas_build import cache as caching
from atlas_build import pipeline
from atlas_build.cache import Cache, fingerprint
from atlas_build.report import FORMATS, render

NONE_CACHED = dict.fromkeys(SLUGS, False)
LESSON_PATHS = [
    "content/attention/record.json",
    "content/kv-cache/lesson.md",
    "content/softmax-temperature/lesson.md",
]


@contextlib.contextmanager
def atlas_build_version(version: str) -> Iterator[None]:
    fingerprint.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(caching, "__version__", version)
            yield
    finally:
        fingerprint.cache_clear()


def test_cold_run_caches_nothing_and_warm_run_serves_all_identically(
    baseline: Baseline, tree: Path
) -> None:
    assert baseline.cold.cached == NONE_CACHED
    assert baseline.cold.json["summary"]["claims"] > 40  # the claims really ran
    warm = check_content()
    assert warm.cached == ALL_CACHED
    assert warm.json == baseline.cold.json  # timings included: they are cached too
    for output_format in FORMATS:
        expected = render(baseline.cold.report, output_format, verbose=True)
        assert render(warm.report, output_format, verbose=True) == expected, output_format


def _append_prose(text: str) -> str:
    return text + "\nA closing sentence that states no number at all.\n"


def _append_comment(text: str) -> str:
    return text + "# reviewed again; the bytes change, the claims do not\n"


THREE_LOGITS = "the probabilities to three decimals are \\[0.665,0.245,0.090\\]"
THREE_LOGITS_BIND = "    bind: [logits, temperature, probabilities]\n    params: {logits: [2, 1, 0]"


def _misquote_probability(text: str) -> str:
    assert text.count(THREE_LOGITS) == 1
    return text.replace(THREE_LOGITS, THREE_LOGITS.replace("0.665", "0.675"))


def _tighten_tolerance(text: str) -> str:
    # 0.665 is 0.665241 rounded: right to three decimals, wrong to within 1e-9
    assert text.count(THREE_LOGITS_BIND) == 1
    return text.replace(THREE_LOGITS_BIND, "    tolerance: 1e-9\n" + THREE_LOGITS_BIND)


# id: (lesson folder, file, edit, error codes it must cause in that lesson)
EDITS: dict[str, tuple[str, str, Callable[[str], str], list[str]]] = {
    "lesson-prose": ("softmax-temperature", "lesson.md", _append_prose, []),
    "claims-comment": ("kv-cache", "claims.yaml", _append_comment, []),
    "record-claims-comment": ("attention", "claims.yaml", _append_comment, []),
    "lesson-quoted-number": ("softmax-temperature", "lesson.md", _misquote_probability, ["A401"]),
    "claims-tolerance": ("softmax-temperature", "claims.yaml", _tighten_tolerance, ["A401"]),
}


@pytest.mark.parametrize(("slug", "name", "edit", "errors"), EDITS.values(), ids=EDITS.keys())
def test_an_edit_recomputes_exactly_its_lesson(
    baseline: Baseline,
    tree: Path,
    slug: str,
    name: str,
    edit: Callable[[str], str],
    errors: list[str],
) -> None:
    """Only the edited lesson is recomputed; what the edit breaks is reported, never a
    stale pass; reverting serves the original entry again."""
    path = tree / "content" / slug / name
    original = path.read_bytes()
    path.write_bytes(edit(original.decode("utf-8")).encode("utf-8"))

    edited = check_content()
    assert edited.cached == {**ALL_CACHED, slug: False}
    assert baseline.cold.codes(slug) == []
    assert sorted(set(edited.codes(slug))) == errors  # one wrong number may fail two claims
    if errors:
        assert edited.json["summary"]["claimsFailed"] >= 1
        assert edited.report.exit_code() == 1
    else:
        assert timeless(edited.json) == timeless(baseline.cold.json)
    for other in SLUGS:
        if other != slug:
            assert edited.record(other) == baseline.cold.record(other)
    assert check_content().cached == ALL_CACHED  # the recomputed report was stored

    path.write_bytes(original)
    reverted = check_content()
    assert reverted.cached == ALL_CACHED
    assert reverted.json == baseline.cold.json


@pytest.mark.parametrize(
    "bump",
    [
        lambda: library_version("sympy", "0.0.1-test"),
        lambda: atlas_build_version(caching.__version__ + ".post1"),
    ],
    ids=["sympy-version", "atlas-build-version"],
)
def test_a_changed_tool_version_recomputes_every_lesson(
    baseline: Baseline, tree: Path, bump: Callable[[], contextlib.AbstractContextManager[None]]
) -> None:
    with bump():
        bumped = check_content()
        assert bumped.cached == NONE_CACHED
        assert check_content().cached == ALL_CACHED
    assert timeless(bumped.json) == timeless(baseline.cold.json)
    back = check_content()  # the real versions again: the original entries are still valid
    assert back.cached == ALL_CACHED
    assert back.json == baseline.cold.json


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty"])
def test_a_damaged_lesson_entry_is_recomputed(baseline: Baseline, tree: Path, damage: str) -> None:
    path = lesson_entry(tree, "kv-cache")
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:-2] + bytes([data[-2] ^ 0x01]) + data[-1:])
    else:
        path.write_bytes(b"")

    run = check_content()
    assert run.cached == {**ALL_CACHED, "kv-cache": False}
    assert timeless(run.json) == timeless(baseline.cold.json)
    assert lesson_entry(tree, "kv-cache") == path  # rewritten, and valid again
    assert check_content().cached == ALL_CACHED


def test_damaged_claim_entries_are_recomputed(
    baseline: Baseline, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every per-claim entry damaged (and the per-lesson entries gone, so that the claims
    are evaluated): each is looked up, refused, recomputed and rewritten; same report."""
    claim_dir = tree / "cache" / "claim"
    entries = sorted(path for path in claim_dir.rglob("*") if path.is_file())
    assert len(entries) > 20
    for number, path in enumerate(entries):
        data = path.read_bytes()
        damaged = [data[:-1], data[:-2] + bytes([data[-2] ^ 0x01]) + data[-1:], b""]
        path.write_bytes(damaged[number % 3])
    shutil.rmtree(tree / "cache" / "lesson")

    lookups: dict[str, bool] = {}
    real_get = Cache.get

    def spy(self: Cache, namespace: str, key: str) -> bytes | None:
        payload = real_get(self, namespace, key)
        if namespace == "claim":
            lookups[key] = payload is not None
        return payload

    monkeypatch.setattr(Cache, "get", spy)
    run = check_content(jobs=1)  # in this process, so the spy sees every lookup
    monkeypatch.undo()

    assert run.cached == NONE_CACHED
    assert {path.name for path in entries} <= set(lookups)
    assert not any(lookups[path.name] for path in entries)  # none was trusted
    assert timeless(run.json) == timeless(baseline.cold.json)
    store = Cache(tree / "cache")
    assert all(store.get("claim", path.name) is not None for path in entries)


def test_jobs_1_and_jobs_2_report_identically(run_cli: Callable[..., Any], tree: Path) -> None:
    """Through the CLI, without cache: same exit code, records in the same order, same
    report (claims[].seconds is wall-clock time, so it is left out of the comparison)."""
    serial = run_cli("check", "--format", "json", "--no-cache", "-q", "-j", "1", "content")
    pooled = run_cli("check", "--format", "json", "--no-cache", "-q", "-j", "2", "content")
    assert serial.code == pooled.code == 0
    paths = [record["path"] for record in serial.json()["records"]]
    assert paths == LESSON_PATHS
    assert [record["path"] for record in pooled.json()["records"]] == paths
    assert timeless(pooled.json()) == timeless(serial.json())
    assert not (tree / ".atlas-cache").exists()


def test_pool_results_are_cached_like_serial_ones(baseline: Baseline, tree: Path) -> None:
    """A cold `-j 2` run fills the cache that a `-j 1` run then serves, identically."""
    shutil.rmtree(tree / "cache")
    pooled = check_content(jobs=2)
    assert pooled.cached == NONE_CACHED
    assert timeless(pooled.json) == timeless(baseline.cold.json)
    for output_format in set(FORMATS) - {"json"}:
        expected = render(baseline.cold.report, output_format, verbose=True)
        assert render(pooled.report, output_format, verbose=True) == expected, output_format
    serial = check_content(jobs=1)
    assert serial.cached == ALL_CACHED
    assert serial.json == pooled.json


def test_adding_a_related_lesson_recomputes_every_lesson(baseline: Baseline, tree: Path) -> None:
    """softmax-temperature relates to atlas-lesson-kv-cache, and attention links
    /learn/atlas/kv-cache/. Whether those resolve (A240 and A332) depends on the checked
    set, not on the lesson's own bytes, so a lesson's key includes the set of ids and
    slugs of the run: when it changes, every lesson is recomputed, as it must be."""
    shutil.rmtree(tree / "cache" / "lesson")  # keep the claim entries: runs stay quick
    shutil.rmtree(tree / "content" / "kv-cache")
    without = check_content()
    assert without.cached == {"attention": False, "softmax-temperature": False}
    assert without.codes("softmax-temperature", "warning") == ["A240"]
    assert "kv-cache" in json.dumps(without.record("softmax-temperature")["diagnostics"])
    assert "'kv-cache'" in json.dumps(without.record("attention")["diagnostics"])
    assert check_content().cached == {"attention": True, "softmax-temperature": True}

    shutil.copytree(CONTENT / "kv-cache", tree / "content" / "kv-cache")
    added = check_content()
    assert added.cached == NONE_CACHED
    assert added.codes("softmax-temperature", "warning") == []
    assert timeless(added.json) == timeless(baseline.cold.json)


def test_renaming_a_lesson_folder_recomputes_lessons_linking_to_it(
    baseline: Baseline, tree: Path
) -> None:
    """Same ids, other slugs: attention's link to /learn/atlas/kv-cache/ no longer
    resolves (A332), so its cached report must not be served."""
    (tree / "content" / "kv-cache").rename(tree / "content" / "kv-cache-renamed")
    renamed = check_content()
    assert not any(renamed.cached.values())
    notes = renamed.record("attention")["diagnostics"]
    assert any(d["code"] == "A332" and "'kv-cache'" in d["message"] for d in notes)
    assert not any(
        d["code"] == "A332" and "'kv-cache'" in d["message"]
        for d in baseline.cold.record("attention")["diagnostics"]
    )


def test_creating_an_empty_claims_file_invalidates_the_lesson(tree: Path) -> None:
    claims = tree / "content" / "softmax-temperature" / "claims.yaml"
    claims.unlink()
    assert check_content().codes("softmax-temperature") == []  # no claims file: nothing to check
    claims.write_bytes(b"")
    run = check_content()
    assert check_content(cache=None).codes("softmax-temperature") == ["A400"]
    assert run.cached["softmax-temperature"] is False
    assert run.codes("softmax-temperature") == ["A400"]


JACOBIAN = r"=\frac{p_i\left(\delta_{ij}-p_j\right)}{\tau},"


def test_a_failing_check_is_located_where_the_equation_now_is(tree: Path) -> None:
    lesson = tree / "content" / "softmax-temperature" / "lesson.md"
    text = lesson.read_text(encoding="utf-8")
    assert text.count(JACOBIAN) == 1
    text = text.replace(JACOBIAN, JACOBIAN.replace(r"{\tau}", r"{2\tau}"))
    lesson.write_text(text, encoding="utf-8")
    broken = check_content().record("softmax-temperature")["diagnostics"]
    (before,) = [d for d in broken if d["code"] == "A403"]

    lesson.write_text(text.replace("## The mechanism\n", "## The mechanism\n\nOne.\n\nTwo.\n"))
    moved = check_content().record("softmax-temperature")["diagnostics"]
    (after,) = [d for d in moved if d["code"] == "A403"]
    assert (after["line"], after["column"]) == (before["line"] + 4, before["column"])
    fresh = check_content(cache=None).record("softmax-temperature")["diagnostics"]
    assert [d for d in fresh if d["code"] == "A403"] == [after]


def test_a_failing_claims_stage_is_an_internal_error_on_its_lesson(tmp_path, monkeypatch):
    """A bug in a stage that escapes its rule registry (the claims stage's number
    binding once raised on a complex value) is an A901 on that lesson, the other
    lessons are still checked, and the exit code says the result is incomplete."""
    from atlas_build import claims

    for slug in ("kv-cache", "softmax-temperature"):
        shutil.copytree(CONTENT / slug, tmp_path / "content" / slug)
    real = claims.evaluate

    def evaluate(path, lesson_id, *args, **kwargs):
        if lesson_id == "atlas-lesson-kv-cache":
            raise TypeError("Cannot convert complex to float")
        return real(path, lesson_id, *args, **kwargs)

    monkeypatch.setattr(claims, "evaluate", evaluate)
    monkeypatch.chdir(tmp_path)
    run = check_content(cache=None)
    assert run.codes("kv-cache") == ["A901"]
    messages = [d["message"] for d in run.record("kv-cache")["diagnostics"] if d["code"] == "A901"]
    assert messages == ["checking this lesson failed: TypeError: Cannot convert complex to float"]
    assert run.record("softmax-temperature")["claims"] and not run.codes("softmax-temperature")
    assert run.report.exit_code() == 2


def test_lesson_ids_are_read_once_per_file_content(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids for cross-references come from the cache while a file is unchanged; an edited
    file is read again, and its new id is the one used."""
    from atlas_build import load

    read: list[str] = []
    original = load.identity

    def counted(path: Path, raw: bytes) -> str | None:
        read.append(path.parent.name)
        return original(path, raw)

    monkeypatch.setattr(load, "identity", counted)
    assert check_content().cached == ALL_CACHED and read == []
    path = tree / "content" / "kv-cache" / "lesson.md"
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("id: "))
    path.write_text(text.replace(old, old + "-renamed", 1), encoding="utf-8")
    renamed = check_content()
    assert read == ["kv-cache"]
    assert renamed.record("kv-cache")["id"] == old.removeprefix("id: ") + "-renamed"
    one_folder = pipeline.Options(jobs=1, cache_dir="cache")
    pipeline.check(["content/attention"], one_folder)  # its neighbours' ids: cached too
    assert read == ["kv-cache"]


def test_a_memo_serves_unchanged_lessons_without_reading_the_cache(
    tree: Path, cache_reads: list[tuple[str, str]]
) -> None:
    """`serve` keeps a Memo: the second check reads no cache entry of an unchanged lesson,
    its reports equal a memo-less check's, and later stages adding findings to one check's
    report do not leak into the next."""
    memo = pipeline.Memo()
    options = pipeline.Options(jobs=1, cache_dir="cache")
    first = Run(*pipeline.check(["content"], options, memo=memo))
    assert first.cached == ALL_CACHED and len(memo.reports) == len(SLUGS)
    first.checked[0].report.diagnostics.append(first.checked[0].report.diagnostics[0])
    cache_reads.clear()
    second = Run(*pipeline.check(["content"], options, memo=memo))
    assert cache_reads == []
    plain = check_content()
    assert timeless(second.json) == timeless(plain.json)
    assert [item.digest for item in second.checked] == [item.digest for item in plain.checked]
    assert all(item.digest for item in second.checked)


def test_a_memo_recomputes_an_edited_lesson_and_forgets_the_old_one(tree: Path) -> None:
    memo = pipeline.Memo()
    options = pipeline.Options(jobs=1, cache_dir="cache")
    pipeline.check(["content"], options, memo=memo)
    before = set(memo.reports)
    path = tree / "content" / "kv-cache" / "lesson.md"
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("title: "))
    path.write_text(text.replace(old, old + " (edited)", 1), encoding="utf-8")
    edited = Run(*pipeline.check(["content"], options, memo=memo))
    assert edited.cached == {**ALL_CACHED, "kv-cache": False}
    assert len(memo.reports) == len(SLUGS) and len(set(memo.reports) - before) == 1
    again = Run(*pipeline.check(["content"], options, memo=memo))
    assert again.cached == ALL_CACHED
    assert timeless(again.json) == timeless(edited.json)


def test_the_cached_path_imports_no_claims_stage() -> None:
    """A check whose lessons are all cached reads reports back and never runs a claim:
    importing the command line, the pipeline, the report and the ledger loads neither
    SymPy nor NumPy nor pydantic (they cost the no-change check most of its time)."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import atlas_build.cli, atlas_build.pipeline, atlas_build.report, atlas_build.ledger\n"
        "print(sorted(m for m in ('sympy', 'numpy', 'pydantic') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"


def test_a_check_with_every_lesson_cached_runs_no_stage(tmp_path: Path) -> None:
    """The second `check` of an unchanged lesson replays its report: in a fresh process it
    imports neither SymPy nor the stages (the code catalog, which imports them all, is
    only for SARIF)."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parent.parent
    shutil.copytree(repo / "content" / "rc-delay", tmp_path / "content" / "rc-delay")
    command = [sys.executable, "-c", (
        "import sys\n"
        "from atlas_build.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('sympy', 'atlas_build.claims') if m in sys.modules))\n"
    ), "check", "content", "--cache-dir", "cache", "-q"]  # fmt: skip
    runs = [
        subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        for _ in range(2)
    ]
    assert runs[0].stdout.strip().endswith("['atlas_build.claims', 'sympy']"), runs[0].stderr
    assert runs[1].stdout.strip().endswith("[]"), runs[1].stderr
