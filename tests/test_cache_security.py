"""A lesson repository that commits a crafted cache: nothing runs, nothing is forged or misplaced.

The attacker knows every cache key (they are digests of public inputs) and can commit
anything into the working tree, but not the secret the entries are authenticated with. The
repository here commits `.atlas-cache/` holding, at the real keys of its lessons: claim and
page entries that are code-running pickles, a forged clean report for a lesson that fails,
and an emit entry whose id is an absolute path. `check` and `build` run with the default
cache (outside the tree) and with `--cache-dir .atlas-cache` pointing at the planted one:
nothing runs, every result equals `--no-cache`, and nothing is written outside `build/`,
`site/` and the caches.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, CliResult, _console_script, rehash_record

from atlas_build import paths
from atlas_build.authoring import emit
from atlas_build.claims.running import codec

FAILING_SENTENCE = ("and output is 5.", "and output is 4.")


class _Payload:
    """Unpickling this runs a shell command that leaves a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for slug in ("attention", "kv-cache", "softmax-temperature"):  # a record, two lesson.md
        shutil.copytree(REPO / "content" / slug, repo / "content" / slug)
    shutil.copy(REPO / "mkdocs.yml", repo / "mkdocs.yml")
    record = repo / "content" / "attention" / "record.json"
    data = json.loads(record.read_text("utf-8"))
    data["content"] = data["content"].replace(*FAILING_SENTENCE)
    record.write_text(json.dumps(rehash_record(data), ensure_ascii=False, indent=2), "utf-8")
    return repo


def _entries(cache: Path, namespace: str) -> list[Path]:
    return sorted(p for p in (cache / namespace).rglob("*") if p.is_file())


def _plant(cache: Path, marker: Path, outside: Path) -> None:
    """Overwrite every entry of a cache, in place, with a hostile payload under its real key."""
    code = pickle.dumps(_Payload(marker))
    for namespace in ("claim", "page", "figure", "links"):
        for path in _entries(cache, namespace):
            _write(path, b"ATLAS-CACHE 2 " + b"0" * 64 + b"\n" + code)
    for path in _entries(cache, "lesson"):
        report = json.loads(path.read_bytes().partition(b"\n")[2])
        report["diagnostics"], report["claims"] = [], []
        forged = json.dumps(report).encode()
        checksum = hashlib.sha256(forged).hexdigest().encode()
        _write(path, b"ATLAS-CACHE 1 " + checksum + b"\n" + forged)
    hostile = {
        "id": str(outside / "evil"),
        "slug": "../../evil",
        "record": "{}",
        "lessonData": "{}",
    }
    for path in _entries(cache, "emit"):
        payload = json.dumps(hostile).encode()
        _write(path, b"ATLAS-CACHE 2 " + b"f" * 64 + b"\n" + payload)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _snapshot(root: Path, skip: tuple[str, ...]) -> dict[str, bytes]:
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and not relative.startswith(skip):
            found[relative] = path.read_bytes()
    return found


def _normal(result: CliResult) -> tuple[int, object]:
    report = result.json()
    for record in report["records"]:
        for claim in record["claims"]:
            claim["seconds"] = 0
    return result.code, report["records"]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The repository with its cache planted, made once for the module (two builds); the
    real keys come from a build just before (the keys hold a digest of atlas_build's
    sources, so they are made by the same code). Each test works on its own copy."""
    base = tmp_path_factory.mktemp("planted")
    repo = _repository(base)
    marker = base / "code-ran"
    outside = base / "outside"
    outside.mkdir()
    shutil.copytree(repo, base / "uncached")
    build = [*_console_script(), "build", "content/", "--allow-errors", "-q"]
    subprocess.run([*build, "--no-cache"], cwd=base / "uncached", capture_output=True, timeout=600)
    subprocess.run(
        [*build, "--cache-dir", ".atlas-cache"], cwd=repo, capture_output=True, timeout=600
    )
    for namespace in ("claim", "lesson", "emit", "page"):
        assert _entries(repo / ".atlas-cache", namespace), f"no {namespace} entries to imitate"
    shutil.rmtree(repo / "build")
    shutil.rmtree(repo / "site")
    _plant(repo / ".atlas-cache", marker, outside)
    return {"repo": repo, "marker": marker, "outside": outside, "uncached": base / "uncached"}


@pytest.fixture
def planted(template: dict[str, Path], tmp_path: Path) -> dict[str, Path]:
    """A fresh copy of the planted repository (a run replaces the entries it refuses)."""
    repo = tmp_path / "repo"
    shutil.copytree(template["repo"], repo, symlinks=True)
    assert not template["marker"].exists() and list(template["outside"].iterdir()) == []
    return {**template, "repo": repo, "base": tmp_path}


@pytest.mark.parametrize("cache", ["planted", "default"])
def test_planted_cache_changes_nothing_in_check(
    planted: dict[str, Path], run_script: Callable[..., CliResult], cache: str
) -> None:
    repo = planted["repo"]
    flags = ["--cache-dir", ".atlas-cache"] if cache == "planted" else []
    forged = {
        path: path.read_bytes()
        for namespace in ("lesson", "claim")
        for path in _entries(repo / ".atlas-cache", namespace)
    }
    uncached = run_script("check", "content/", "--no-cache", "--format", "json", "-q", cwd=repo)
    assert uncached.code == 1  # the edited sentence fails its claim
    for _ in range(2):  # the second run reads whatever the first one left
        cached = run_script("check", "content/", "--format", "json", "-q", *flags, cwd=repo)
        assert _normal(cached) == _normal(uncached)
    assert not planted["marker"].exists()
    if cache == "planted":  # each forged entry was looked up at its key, refused and replaced
        kept = [
            path for path, data in forged.items() if path.is_file() and path.read_bytes() == data
        ]
        assert kept == [], (len(kept), len(forged))


def test_planted_cache_changes_nothing_in_build(
    planted: dict[str, Path], run_script: Callable[..., CliResult]
) -> None:
    repo, outside = planted["repo"], planted["outside"]
    skipped = ("repo/build", "repo/site", "repo/.atlas-cache")
    before = _snapshot(planted["base"], skipped)
    result = run_script(
        "build",
        "content/",
        "--allow-errors",
        "--cache-dir",
        ".atlas-cache",
        "-q",
        cwd=repo,
        timeout=600,
    )
    assert result.code == 1, result.err
    assert not planted["marker"].exists()
    assert list(outside.iterdir()) == []
    after = _snapshot(planted["base"], skipped)
    assert after == before  # nothing outside build/, site/ and the caches changed
    uncached = planted["uncached"]
    for folder in ("build/records", "build/lesson-data", "site/lessons"):
        assert _snapshot(repo / folder, ()) == _snapshot(uncached / folder, ()), folder


@pytest.mark.parametrize(
    ("identifier", "slug"),
    [("/tmp/evil", "x"), ("x", "../evil"), ("x", "a/b"), ("../x", "x"), ("X", "x"), ("x", "")],
)
def test_emit_refuses_unsafe_ids_and_slugs(tmp_path: Path, identifier: str, slug: str) -> None:
    rendered = emit.Rendered(identifier, slug, b"{}", b"{}")
    with pytest.raises(paths.UnsafePath):
        emit.write(rendered, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.json"))
    payload = json.dumps({"id": identifier, "slug": slug, "record": "{}", "lessonData": "{}"})
    assert emit.Rendered.from_json(payload.encode()) is None


def test_a_lesson_write_deletes_no_other_file(tmp_path: Path) -> None:
    """Slugs `kv-cache` and `kv-cachex` (and, before collisions were refused, two lessons
    with one slug): writing one lesson's files never deletes another's; stale files go in
    one sweep after the build (`test_outputs`)."""
    out = tmp_path / "out"
    first = emit.write(emit.Rendered("a", "kv-cache", b"{}", b"one"), out)
    other = emit.write(emit.Rendered("b", "kv-cachex", b"{}", b"two"), out)
    last = emit.write(emit.Rendered("a", "kv-cache", b"{}", b"three"), out)
    assert first.lesson_data.exists() and other.lesson_data.exists() and last.lesson_data.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"sympy": ["__import__", "os"]},
        {"sympy": ["Function", "f"]},
        {"sympy": ["Symbol", "x"]},
        {"sympy": ["Integer", "9" * 6000]},
        {"ndarray": [1], "shape": [2], "dtype": "float64"},
        {"ndarray": [1], "shape": [1], "dtype": "object"},
        {"np": "object", "value": 1},
        {"pickle": "gASV"},
        {"int": 5},
    ],
)
def test_cached_values_outside_the_vocabulary_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        codec.decode(data)
