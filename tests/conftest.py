"""Shared fixtures: the seed record, writing records to a temporary content tree, running the CLI,
the cold pipeline run of the cache tests.

Every test module may use these. Plain helpers that test modules share (functions, test data)
live in support.py: no test module imports another.
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings as _hypothesis

if TYPE_CHECKING:
    from support import Baseline

    from atlas_build.diagnostics import Diagnostic

# atlas_build is imported inside the helpers, so that a module broken mid-edit elsewhere in
# the package cannot stop unrelated test modules from being collected.

# The cache key and default cache live in the user's config and cache folders: tests get
# their own, so they never read or write the developer's (and every subprocess inherits it).
_HOME = tempfile.mkdtemp(prefix="atlas-test-home-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")
for _name in ("ATLAS_BUILD_CACHE_KEY", "ATLAS_BUILD_CACHE_DIR"):
    os.environ.pop(_name, None)

# Property tests draw the same inputs on every run (a CI that goes red by chance cannot be
# told from a regression); `make fuzz` sets ATLAS_HYPOTHESIS=explore to draw new ones.
_hypothesis.register_profile("atlas-repeatable", derandomize=True, database=None)
_hypothesis.register_profile("atlas-explore", derandomize=False)
_hypothesis.load_profile(
    "atlas-explore" if os.environ.get("ATLAS_HYPOTHESIS") == "explore" else "atlas-repeatable"
)

REPO = Path(__file__).resolve().parent.parent
SEED_PATH = REPO / "content" / "attention" / "record.json"
_SEED: dict[str, Any] = json.loads(SEED_PATH.read_text(encoding="utf-8"))


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def rehash_record(record: dict[str, Any], *, sign: bool = False) -> dict[str, Any]:
    """Recompute contentHash, contentLength and sections from `content` (in place).

    With `sign=True` recordHash is rewritten with atlas-build's recipe too.
    """
    from atlas_build.canonical import canonicalize, sections
    from atlas_build.recordhash import content_hash, record_hash

    canonical = canonicalize(record["content"])
    record["contentHash"] = content_hash(canonical)
    record["contentLength"] = len(canonical)
    record["sections"] = [span.to_json() for span in sections(canonical)]
    if sign:
        record["recordHash"] = record_hash(record)
    return record


def value_position(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column in code points) where the `occurrence`-th `needle` starts."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


_SENTINEL = "\u2063sentinel\u2063"


def pointer_position(record: Any, pointer: str, *, indent: int | None = 2) -> tuple[int, int]:
    """Where the value at `pointer` starts in `json.dumps(record, indent=...)` (as written by
    `write_record`), found independently of atlas-build by substituting a sentinel."""
    marked = copy.deepcopy(record)
    if pointer == "":
        return 1, 1
    *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]
    parent = marked
    for part in parents:
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    if isinstance(parent, list):
        parent[int(last)] = _SENTINEL
    else:
        parent[last] = _SENTINEL
    text = json.dumps(marked, ensure_ascii=False, indent=indent)
    return value_position(text, json.dumps(_SENTINEL, ensure_ascii=False))


@pytest.fixture
def seed() -> dict[str, Any]:
    """A fresh deep copy of the seed record (content/attention/record.json)."""
    return copy.deepcopy(_SEED)


@pytest.fixture
def seed_bytes() -> bytes:
    return SEED_PATH.read_bytes()


@pytest.fixture
def rehash() -> Callable[..., dict[str, Any]]:
    return rehash_record


@pytest.fixture
def locate() -> Callable[..., tuple[int, int]]:
    return value_position


@pytest.fixture
def position() -> Callable[..., tuple[int, int]]:
    return pointer_position


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    return folder


@pytest.fixture
def write_record(content_dir: Path) -> Callable[..., Path]:
    """Write `content/<slug>/record.json` under tmp_path and return its path.

    `data` may be a dict (dumped with `indent`, so every field sits on its own line),
    a str (written verbatim, no newline translation) or bytes.
    """

    def write(
        data: dict[str, Any] | str | bytes, *, slug: str = "attention", indent: int | None = 2
    ) -> Path:
        folder = content_dir / slug
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "record.json"
        if isinstance(data, bytes):
            path.write_bytes(data)
        elif isinstance(data, str):
            path.write_bytes(data.encode("utf-8", "surrogatepass"))
        else:
            path.write_text(json.dumps(data, ensure_ascii=False, indent=indent), encoding="utf-8")
        return path

    return write


@pytest.fixture
def diagnose() -> Callable[..., list[Diagnostic]]:
    """Run the check pipeline in-process; returns every diagnostic of every record."""

    def run(*paths: str | Path, **options: Any) -> list[Diagnostic]:
        from atlas_build import pipeline

        report, _ = pipeline.check([str(path) for path in paths], pipeline.Options(**options))
        return [d for record in report.records for d in record.diagnostics]

    return run


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Call `atlas_build.cli.main` in-process with the given arguments."""

    def run(*args: str | Path) -> CliResult:
        from atlas_build import cli

        capsys.readouterr()
        try:
            code = cli.main([str(arg) for arg in args])
        except SystemExit as exit_:  # argparse usage errors and --version
            code = exit_.code if isinstance(exit_.code, int) else 2
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def _console_script() -> list[str]:
    script = Path(sys.executable).with_name("atlas-build")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "atlas_build.cli"]


@pytest.fixture
def run_script() -> Callable[..., CliResult]:
    """Run the installed `atlas-build` console script in a subprocess."""

    def run(*args: str | Path, cwd: str | Path | None = None, timeout: float = 60) -> CliResult:
        env = {key: value for key, value in os.environ.items() if key != "GITHUB_STEP_SUMMARY"}
        completed = subprocess.run(
            [*_console_script(), *map(str, args)],
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=timeout,
            env=env,
            check=False,
        )
        return CliResult(completed.returncode, completed.stdout, completed.stderr)

    return run


@pytest.fixture
def cache_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every `Cache.get` from here on, as (namespace, key), enabled cache or not."""
    from atlas_build.cache import Cache

    reads: list[tuple[str, str]] = []
    original = Cache.get

    def counted(self: Cache, namespace: str, key: str) -> bytes | None:
        reads.append((namespace, key))
        return original(self, namespace, key)

    monkeypatch.setattr(Cache, "get", counted)
    return reads


@pytest.fixture(scope="session")
def lesson_pages() -> list[str]:
    """The generated page (markdown with raw HTML, what MkDocs reads) of every lesson in
    content/: the tests of the parsers the site driver speeds up read them."""
    from atlas_build import pipeline
    from atlas_build.site.pages import docs

    options = pipeline.Options(jobs=1)
    _, checked = pipeline.check([str(Path(__file__).resolve().parent.parent / "content")], options)
    slugs = frozenset(item.found.path.parent.name for item in checked)
    rendered = [docs.render_page(item, slugs, options) for item in checked]
    return [page.text for page in rendered if page is not None]


AUTHORED_FRONT_MATTER = """\
---
schemaVersion: 1
id: atlas-lesson-{slug}
title: {title}
category: learning
format: Atlas lesson
description: A small lesson written for the tests.
canonicalUrl: https://atlas.example.org/learn/{slug}/
publishedDate: null
revisionDate: "2026-11-29"
author: null
topic: Worked examples
series: null
license: null
rightsUrl: https://atlas.example.org/licenses.html
version: "1.0.0"
status: Published educational lesson
evidenceScope: Authored arithmetic for tests.
contentCoverage: published-lesson
artifactUrl: null
interactiveUrl: null
related: []
supersedes: []
supersededBy: []
jsonUrl: null
markdownUrl: null
citations: []
contentFormat: text/markdown
---
Worked examples · Atlas v1.0.0

# {title}

"""


@pytest.fixture
def authored(tmp_path: Path) -> Callable[..., Any]:
    """Write `content/<slug>/lesson.md` (front matter + `body`, and `claims` as claims.yaml
    when given) under tmp_path, check it with the real pipeline, return its RecordReport."""
    import textwrap

    def make(body: str, claims: str | None = None, slug: str = "probe") -> Any:
        from atlas_build import pipeline

        folder = tmp_path / "content" / slug
        folder.mkdir(parents=True, exist_ok=True)
        title = slug.replace("-", " ").capitalize()
        text = AUTHORED_FRONT_MATTER.format(slug=slug, title=title)
        (folder / "lesson.md").write_text(text + textwrap.dedent(body).lstrip(), "utf-8")
        if claims is not None:
            (folder / "claims.yaml").write_text(textwrap.dedent(claims).lstrip(), "utf-8")
        report, _ = pipeline.check([str(folder)], pipeline.Options(jobs=1))
        [record] = report.records
        return record

    return make


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Baseline:
    """One cold, cached run of three real lessons, one of each format (a record, a
    lesson.md, one whose claims file quotes across paragraphs): made once per module that
    asks for it (test_pipeline, test_ledger)."""
    from support import CONTENT, SLUGS, Baseline, check_content

    root = tmp_path_factory.mktemp("baseline")
    for slug in SLUGS:
        shutil.copytree(CONTENT / slug, root / "content" / slug)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        cold = check_content()
    return Baseline(root, cold)


@pytest.fixture
def tree(baseline: Baseline, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the baseline's content/ and warm cache/, as working directory."""
    shutil.copytree(baseline.root, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path
