"""The Selftest page (issue 13): per lesson, the kill rate and every survivor, read from
`selftest --format json` as untrusted input, with a stale result told apart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import assert_inert, with_unchecked_quiz

from atlas_build.authoring.sources import new_lesson
from atlas_build.report import RecordReport
from atlas_build.site.pages import mutation
from atlas_build.site.pages.indexes import Entry

ROOT = Path(__file__).resolve().parent.parent
CLI = str(Path(sys.executable).parent / "atlas-build")


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def _article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A content folder with the `new` skeleton, its selftest JSON and a site built from
    both (the skeleton's quiz answer, listed unchecked, is a known survivor)."""
    root = tmp_path_factory.mktemp("selftest-site")
    new_lesson("speed", root / "content", title="Speed", topic="Tests")
    with_unchecked_quiz(root / "content" / "speed")
    cache = ["--cache-dir", str(root / "cache")]
    done = _run("selftest", "content/", "--format", "json", *cache, cwd=root)
    assert done.returncode == 0, done.stderr
    (root / "build").mkdir()
    (root / "build" / "selftest.json").write_text(done.stdout, encoding="utf-8")
    built = _run("build", "content/", "--selftest", "build/selftest.json",
                 "--mkdocs-config", str(ROOT / "mkdocs.yml"), *cache, cwd=root)  # fmt: skip
    assert built.returncode == 0, built.stderr
    return root


def test_page_lists_kill_rate_and_survivors(project: Path) -> None:
    result = json.loads((project / "build" / "selftest.json").read_text(encoding="utf-8"))
    (lesson,) = result["lessons"]
    assert lesson["survivors"], "the skeleton's quiz answer survives"
    page = _article((project / "site" / "selftest" / "index.html").read_text(encoding="utf-8"))
    assert f"{lesson['killed']} of {lesson['mutants']} killed" in page
    assert f"{100 * lesson['killed'] / lesson['mutants']:.1f}%" in page
    for survivor in lesson["survivors"]:
        assert f"{survivor['line']}:{survivor['column']}" in page
        assert survivor["description"].replace("'", "&#x27;") in page
    assert 'href="../lessons/speed/"' in page and 'id="selftest-speed"' in page
    assert "stale" not in page


def test_a_result_for_other_text_is_stale(project: Path) -> None:
    result = json.loads((project / "build" / "selftest.json").read_text(encoding="utf-8"))
    result["lessons"][0]["contentHash"] = "0" * 64
    stale = project / "build" / "stale.json"
    stale.write_text(json.dumps(result), encoding="utf-8")
    config = str(ROOT / "mkdocs.yml")
    built = _run("build", "content/", "--selftest", str(stale), "--site-dir", "stale-site",
                 "--mkdocs-config", config, "--no-cache", cwd=project)  # fmt: skip
    assert built.returncode == 0, built.stderr
    page = (project / "stale-site" / "selftest" / "index.html").read_text(encoding="utf-8")
    assert ">stale<" in page and "changed after this selftest ran" in page


def test_a_fifo_named_by_selftest_is_a_warning_not_a_hang(project: Path) -> None:
    fifo = project / "build" / "selftest.fifo"
    os.mkfifo(fifo)
    built = subprocess.run(
        [CLI, "build", "content/", "--selftest", "build/selftest.fifo", "--site-dir", "fifo-site",
         "--mkdocs-config", str(ROOT / "mkdocs.yml"), "--no-cache"],
        cwd=project, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert (
        "build/selftest.fifo:1:1: warning A510 --selftest: build/selftest.fifo is not a regular "
        "file; the Selftest page has no results" in built.stderr
    )
    assert "Traceback" not in built.stderr
    page = (project / "fifo-site" / "selftest" / "index.html").read_text(encoding="utf-8")
    assert "could not be read" in page


def _entry(path: str) -> Entry:
    return Entry(RecordReport(path, "x"), None, "X", "Tests", "learning")


def _lesson(path: str, **changes: object) -> dict[str, object]:
    """An entry as `selftest --format json` writes it, with `changes`."""
    entry: dict[str, object] = {"path": path, "id": "x", "contentHash": None,
                                "baselineErrors": 0, "mutants": 2, "killed": 1, "killRate": 0.5,
                                "survivors": [], "kills": {}}  # fmt: skip
    return {**entry, **changes}


def _read(tmp_path: Path, lessons: list[object]) -> mutation.Results:
    path = tmp_path / "selftest.json"
    path.write_text(json.dumps({"lessons": lessons}, indent=2), encoding="utf-8")
    results = mutation.read(path)
    assert results is not None
    return results


def test_hostile_results_render_inert(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    survivor = {"kind": hostile, "description": hostile, "original": hostile,
                "replacement": "</code><script>", "line": 3, "column": 1}  # fmt: skip
    results = _read(tmp_path, [_lesson(hostile, kills={hostile: 1}, survivors=[survivor])])
    assert results.warnings == []
    page = mutation.page(results, [_entry(hostile)])
    assert "<script>" not in page and "<img" not in page
    assert_inert(page.split("---\n", 2)[2])
    assert "1 of 2 killed" in page and "3:1" in page


MALFORMED = {  # entry changes -> the pointer the warning is at
    "killed-over-mutants": ({"killed": 3}, "/killed"),
    "killed-huge": ({"killed": 10**400}, "/killed"),
    "killed-a-string": ({"killed": "2"}, "/killed"),
    "killed-a-bool": ({"killed": True}, "/killed"),
    "mutants-negative": ({"mutants": -1}, "/mutants"),
    "kills-not-counts": ({"kills": {"sign": 1.5}}, "/kills/sign"),
    "survivor-line-huge": ({"survivors": [{"line": 10**30}]}, "/survivors/0/line"),
    "survivor-not-text": (
        {
            "survivors": [
                {
                    "line": 1,
                    "column": 1,
                    "kind": 5,
                    "description": "",
                    "original": "",
                    "replacement": "",
                }
            ]
        },  # fmt: skip
        "/survivors/0/kind",
    ),
    "path-missing": ({"path": None}, "/path"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_value_is_a_located_warning(tmp_path: Path, name: str) -> None:
    """`killed: 10^400` ended the build in OverflowError (exit 2): every value selftest
    would not write is a warning at its line and column, and its entry is left out."""
    changes, pointer = MALFORMED[name]
    good = _lesson("content/good/lesson.md")
    results = _read(tmp_path, [good, {**_lesson("content/bad/lesson.md"), **changes}])
    assert results.lessons == [good]
    (warning,) = results.warnings
    text = (tmp_path / "selftest.json").read_text(encoding="utf-8")
    second = text.index("\n    {", text.index("\n    {") + 1)  # where the bad entry starts
    key = f'"{pointer.rsplit("/", 1)[1]}": '
    offset = text.index(key, second) + len(key)  # its value
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    assert (warning.code, warning.severity.value) == ("A510", "warning")
    assert (warning.line, warning.column) == (line, column), warning
    assert warning.message.startswith(f"/lessons/1{pointer}: ")
    mutation.page(results, [_entry("content/good/lesson.md"), _entry("content/bad/lesson.md")])


@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "device", "folder", "missing"])
def test_only_a_regular_file_is_read(tmp_path: Path, kind: str) -> None:
    """A link to /dev/zero passed the size check (its size is 0) and ran out of memory; a
    FIFO never answered."""
    path = tmp_path / "selftest.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    results = mutation.read(path)
    assert results is not None and results.problem and not results.lessons
    (warning,) = results.warnings
    assert (warning.code, warning.line, warning.column) == ("A510", 1, 1)
    assert "could not be read" in mutation.page(results, [])


def test_a_large_file_of_empty_entries_is_bounded(tmp_path: Path) -> None:
    """2 MiB of `{}` took past 60 s and made a 48 MB page (600 KB: 37.6 s, 0.92 GB)."""
    path = tmp_path / "selftest.json"
    path.write_text('{"lessons": [' + ",".join(["{}"] * 700_000) + "]}", encoding="utf-8")
    started = time.perf_counter()
    results = mutation.read(path)
    assert results is not None and results.lessons == []
    assert len(results.warnings) == mutation.WARNINGS + 1
    assert results.warnings[-1].message == (
        f"{700_000 - mutation.WARNINGS} more malformed entries are left out"
    )
    page = mutation.page(results, [_entry("content/x/lesson.md")])
    assert time.perf_counter() - started < 30 and len(page) < 10_000


def test_only_lessons_of_the_build_are_shown_once_each(tmp_path: Path) -> None:
    mine = _lesson("content/mine/lesson.md", killed=2)
    results = _read(
        tmp_path, [mine, _lesson("content/mine/lesson.md"), _lesson("content/other/lesson.md")]
    )
    page = mutation.page(results, [_entry("content/mine/lesson.md")])
    assert page.count("2 of 2 killed") == 1 and "1 of 2 killed" not in page
    assert "2 results are for lessons this site does not have" in page


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe", b"{", b'{"lessons": 3}', b"[" * 100_000 + b"]" * 100_000],
    ids=["not-utf8", "truncated", "no-list", "deep"],
)
def test_unreadable_file_is_said_not_raised(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "selftest.json"
    path.write_bytes(content)
    results = mutation.read(path)
    assert results is not None and results.problem and not results.lessons
    assert "could not be read" in mutation.page(results, [])


def test_no_file_says_how_to_make_one() -> None:
    assert mutation.read(None) is None
    page = mutation.page(None, [])
    assert "no selftest results" in page and "atlas-build selftest content/" in page
