"""The Selftest page (issue 13): per lesson, the kill rate and every survivor, read from
`selftest --format json` as untrusted input, with a stale result told apart."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_selftest import with_unchecked_quiz
from test_site_render import assert_inert

from atlas_build.authoring.sources import new_lesson
from atlas_build.site import mutation

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


def test_hostile_results_render_inert() -> None:
    hostile = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    results = mutation.Results(
        [
            {
                "path": hostile,
                "mutants": 2,
                "killed": "2",  # not a count: read as 0
                "kills": {hostile: 1},
                "survivors": [
                    {
                        "kind": hostile,
                        "description": hostile,
                        "original": hostile,
                        "replacement": "</code><script>",
                        "line": "x",
                        "column": -1,
                    },  # fmt: skip
                    "not a survivor",
                ],
            },
            "not a lesson",
        ]
    )
    page = mutation.page(results, [])
    assert "<script>" not in page and "<img" not in page
    assert_inert(page.split("---\n", 2)[2])
    assert "0 of 2 killed" in page


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
