"""The MkDocs child a build starts before checking (site/mkdocs/build.py `MkDocs`) and the page
entries it reads in shards (site/mkdocs/pagestore.py `Batch`).

Proven here: a child never asked to build ends when closed, leaving no process and no
scratch folder; one started before its docs folder exists builds once the folder is
written; a configuration error is reported once, after the request, as without the
early start; a build reads the page entries of the last build from the shards, not
one entry per page, and saves only the shards that changed; a damaged shard is a miss.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from support import MKDOCS_CONFIG, edit_text, site_build, site_content

from atlas_build.cache import Cache
from atlas_build.site.mkdocs import build, incremental, pagestore
from atlas_build.site.mkdocs.stats import Stats


def test_a_child_never_asked_ends_with_nothing_left(tmp_path: Path) -> None:
    child = build.MkDocs(
        MKDOCS_CONFIG, tmp_path / "docs", tmp_path / "site", str(tmp_path / "cache")
    )
    process, scratch = child.process, child.scratch
    assert process is not None and scratch.is_dir()
    child.close()
    assert process.poll() is not None and process.returncode == 0
    assert not scratch.exists()
    child.close()  # twice is harmless


def test_a_child_started_before_the_docs_exist_builds_them(tmp_path: Path) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert not (work / "docs").exists()
    child = build.MkDocs(MKDOCS_CONFIG, work / "docs", work / "site", str(cache))
    try:
        code, log = site_build(content, work, cache, child=child)
    finally:
        child.close()
    assert code == 0 and "MkDocs rendered all 10 pages" in log, log
    assert (work / "site" / "lessons" / "alpha" / "index.html").is_file()


def test_a_configuration_error_is_reported_once_after_the_request(tmp_path: Path) -> None:
    content, work = site_content(tmp_path), tmp_path / "work"
    config = tmp_path / "mkdocs.yml"
    config.write_text(MKDOCS_CONFIG.read_text(encoding="utf-8") + "\nnot_an_option: 1\n")
    child = build.MkDocs(config, work / "docs", work / "site", str(tmp_path / "cache"))
    try:
        code, log = site_build(content, work, tmp_path / "cache", config=config, child=child)
    finally:
        child.close()
    assert code == 1
    assert log.count("Unrecognised configuration name: not_an_option") == 1, log


def _batch_reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts: dict[str, int] = {}
    original = pagestore.get
    original_batch = pagestore.Batch.get

    def single(store: Cache, key: str) -> pagestore.Entry | None:
        counts["single"] = counts.get("single", 0) + 1
        return original(store, key)

    def batched(self: pagestore.Batch, key: str) -> pagestore.Entry | None:
        found = original_batch(self, key)
        counts["batch"] = counts.get("batch", 0) + (found is not None)
        return found

    monkeypatch.setattr(pagestore, "get", single)
    monkeypatch.setattr(pagestore.Batch, "get", batched)
    return counts


def _in_process(work: Path, cache: Path, docs: Path) -> Stats:
    """The docs folder laid out again in this process (where the counters are)."""
    config = work / "in-process.yml"
    config.write_text(build.mkdocs_config(MKDOCS_CONFIG, docs, work / "laid-out"), encoding="utf-8")
    return incremental.build(config, str(cache), stream=io.StringIO())


def test_page_entries_come_from_the_shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    _in_process(work, cache, work / "docs")  # writes the shards of this docs folder
    shards = sorted(p for p in (cache / pagestore.BATCH).rglob("*") if p.is_file())
    before = {p: p.stat().st_mtime_ns for p in shards}
    counts = _batch_reads(monkeypatch)
    stats = _in_process(work, cache, work / "docs")
    assert stats.reused == 10 and not stats.rendered
    assert counts == {"batch": 10}  # no entry read one by one
    assert {p: p.stat().st_mtime_ns for p in shards} == before  # nothing changed: none saved
    edit_text(work / "docs" / "lessons" / "alpha" / "index.md", "pangolins", "numbats")
    monkeypatch.undo()
    stats = _in_process(work, cache, work / "docs")
    assert stats.rendered == ["lessons/alpha/index.md"]
    saved = [p for p in shards if p.stat().st_mtime_ns != before[p]]
    assert 1 <= len(saved) <= 2  # the shard of the new key, and of the old one


@pytest.mark.parametrize("damage", [b"[]", b'{"' + b"0" * 64 + b'": {"html": 3}}'])
def test_a_damaged_shard_is_a_miss(tmp_path: Path, damage: bytes) -> None:
    store = Cache(tmp_path / "cache")
    batch = pagestore.Batch(store, "docs")
    for key in batch.keys:
        store.put(pagestore.BATCH, key, damage)
    again = pagestore.Batch(store, "docs")
    assert again.get("0" * 64) is None
    assert all(isinstance(shard, dict) for shard in again.loaded)
    assert json.loads(json.dumps(again.used)) == [{}] * pagestore.SHARDS


def test_a_child_dies_with_a_build_killed_with_sigkill(tmp_path: Path) -> None:
    """A build killed with SIGKILL cannot close its child: the kernel ends it (Linux). A
    holder process keeps the child's input open, so only that can end it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import subprocess, sys, time\n"
        "from pathlib import Path\n"
        "from atlas_build.site.mkdocs.build import MkDocs\n"
        f"child = MkDocs(Path({str(MKDOCS_CONFIG)!r}), Path({str(tmp_path / 'docs')!r}),\n"
        f"               Path({str(tmp_path / 'site')!r}), {str(tmp_path / 'cache')!r})\n"
        "holder = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],\n"
        "                          pass_fds=[child.process.stdin.fileno()])\n"
        "print(child.process.pid, holder.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    pid, holder = map(int, parent.stdout.readline().split())
    try:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                break  # gone (and reaped by init)
            if state == "Z":
                break
            time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
            raise AssertionError("the MkDocs child outlived its killed parent by 10 s")
    finally:
        os.kill(holder, signal.SIGKILL)
