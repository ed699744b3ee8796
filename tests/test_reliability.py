"""Nothing lost: SIGKILL mid-build, concurrent builds, atomic writes, a corrupted cache."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atlas_build import atomic
from atlas_build.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
CLI = str(Path(sys.executable).parent / "atlas-build")


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def complete_site(site: Path, slugs: list[str]) -> bool:
    """A servable site: the home page and every lesson page, each a whole HTML document."""
    pages = [site / "index.html"] + [site / "lessons" / slug / "index.html" for slug in slugs]
    return all(
        page.is_file() and page.read_text(encoding="utf-8").rstrip().endswith("</html>")
        for page in pages
    )


def leftovers(project: Path) -> list[int]:
    """Processes still running in the project directory (orphaned pool workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if Path(os.readlink(entry / "cwd")) == project.resolve():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the repository's content and MkDocs configuration, built once."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path


def build(project: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [CLI, "build", "content/", "-q", *extra],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


SLUGS = sorted(path.name for path in (ROOT / "content").iterdir() if path.is_dir())


@pytest.mark.slow
def test_sigkill_mid_build_loses_nothing(project: Path) -> None:
    assert build(project).wait(timeout=300) == 0
    content_before = tree_digest(project / "content")
    site_before = tree_digest(project / "site")
    assert complete_site(project / "site", SLUGS)
    # Change one lesson so a finished build would produce a different site.
    lesson = project / "content" / "kv-cache" / "lesson.md"
    note = "\nA closing note added before the kills.\n"
    lesson.write_text(lesson.read_text(encoding="utf-8") + note, encoding="utf-8")
    content_before = tree_digest(project / "content")
    outcomes = []
    for delay in (0.2, 0.6, 1.2, 2.0, 3.0, 4.5):
        process = build(project, "--no-cache")
        time.sleep(delay)
        finished = process.poll() is not None
        if not finished:
            os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        outcomes.append((delay, finished))
        assert tree_digest(project / "content") == content_before, f"content changed at {delay}s"
        site_now = tree_digest(project / "site")
        assert complete_site(project / "site", SLUGS), f"site incomplete after kill at {delay}s"
        if not finished and site_now != site_before:
            # killed after the swap: the new site is whole; it becomes the reference
            site_before = site_now
    assert any(not finished for _, finished in outcomes), "every build finished before the kill"
    time.sleep(1.0)
    assert leftovers(project) == [], "killed builds left worker processes behind"
    final = build(project)
    assert final.wait(timeout=300) == 0, final.stderr.read() if final.stderr else ""
    assert complete_site(project / "site", SLUGS)
    assert "A closing note added before the kills." in (
        project / "site" / "lessons" / "kv-cache" / "index.html"
    ).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_mid_build_cleans_up_like_ctrl_c(project: Path, signum: int) -> None:
    """SIGTERM (what CI runners and `timeout` send) left a `.site.new-*` folder behind."""
    assert build(project).wait(timeout=300) == 0
    site_before = tree_digest(project / "site")
    process = build(project, "--no-cache")
    deadline = time.monotonic() + 120
    while not list(project.glob(".site.new-*")) and time.monotonic() < deadline:
        assert process.poll() is None, "the build finished before it staged a site"
        time.sleep(0.05)
    os.kill(process.pid, signum)
    assert process.wait(timeout=60) == 128 + signum
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert f"stopped by signal {signum}" in stderr and "Traceback" not in stderr
    time.sleep(1.0)
    spare = project / ".site.old-spare"  # the first build's copy, for the next to reuse
    assert [path for path in project.glob(".site.*") if path != spare] == []
    assert tree_digest(project / "site") == site_before
    assert leftovers(project) == []


def test_site_follows_the_umask(project: Path) -> None:
    old = os.umask(0o022)
    try:
        assert build(project, "--no-cache").wait(timeout=300) == 0
    finally:
        os.umask(old)
    assert (project / "site").stat().st_mode & 0o777 == 0o755
    assert (project / "site" / "index.html").stat().st_mode & 0o777 == 0o644


@pytest.mark.slow
def test_two_builds_at_once_both_finish_correctly(project: Path) -> None:
    first, second = build(project), build(project)
    assert first.wait(timeout=600) == 0
    assert second.wait(timeout=600) == 0
    assert complete_site(project / "site", SLUGS)
    records = sorted((project / "build" / "records").glob("*.json"))
    assert len(records) == len(SLUGS)
    for record in records:
        json.loads(record.read_text(encoding="utf-8"))
    # the cache both wrote is sound: a cached check reports what an uncached one does
    cached = subprocess.run(
        [CLI, "check", "content/", "--format", "json", "-q"], cwd=project, capture_output=True
    )
    fresh = subprocess.run(
        [CLI, "check", "content/", "--format", "json", "-q", "--no-cache"],
        cwd=project,
        capture_output=True,
    )
    assert cached.returncode == fresh.returncode == 0
    strip = lambda out: [  # noqa: E731
        {k: v for k, v in r.items() if k != "claims"} for r in json.loads(out)["records"]
    ]
    assert strip(cached.stdout) == strip(fresh.stdout)


def test_atomic_write_leaves_the_original_on_failure(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "record.json"
    target.write_bytes(b"original")

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_bytes(target, b"new content")
    assert target.read_bytes() == b"original"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]  # no temporary left


def test_atomic_write_skips_unchanged_files(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    atomic.write_bytes(target, b"same")
    os.utime(target, (1_000_000, 1_000_000))
    assert atomic.write_bytes(target, b"same") is False
    assert target.stat().st_mtime == 1_000_000


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty"])
def test_corrupt_cache_entry_is_recomputed_not_trusted(tmp_path: Path, damage: str) -> None:
    cache = Cache(tmp_path)
    cache.put("lesson", "ab" * 32, b'{"value": 1}')
    path = tmp_path / "lesson" / "ab" / ("ab" * 32)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[:-3])
    elif damage == "flip":
        path.write_bytes(data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])
    elif damage == "header":
        path.write_bytes(b"XXXX" + data[4:])
    else:
        path.write_bytes(b"")
    assert cache.get("lesson", "ab" * 32) is None
    assert not path.exists()  # the damaged entry is removed
