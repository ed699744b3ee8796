"""`atlas-build serve`: the preview rebuilds what a save changed, says so, and stops cleanly."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from test_site_render import write_lesson

from atlas_build import pipeline
from atlas_build.site import serve

REPO = Path(__file__).resolve().parent.parent
CLI = str(Path(sys.executable).parent / "atlas-build")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fetch(url: str, wanted: str, deadline: float) -> str:
    text = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                text = response.read().decode("utf-8")
            if wanted in text:
                return text
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} never showed {wanted!r}; last: {text[:200]!r}")


def _edit(lesson: Path, old: str, new: str) -> None:
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_serve_rebuilds_what_a_save_changed(tmp_path: Path) -> None:
    content = tmp_path / "content"
    lesson = write_lesson(content, "live", "# Live\n\nFirst version of the text.\n")
    write_lesson(content, "other", "# Other\n\nAn untouched lesson.\n")
    port, stopping, result, log = _free_port(), threading.Event(), [], io.StringIO()
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"))
    worker = threading.Thread(
        target=lambda: result.append(
            serve.serve(
                [str(content)],
                docs_dir=tmp_path / "docs",
                config=REPO / "mkdocs.yml",
                address=f"127.0.0.1:{port}",
                options=options,
                poll=0.1,
                stop=stopping.is_set,
                out=log,
            )
        ),
        daemon=True,
    )
    worker.start()
    try:
        base = f"http://127.0.0.1:{port}/"
        url = base + "lessons/live/"
        page = _fetch(url, "First version of the text.", time.monotonic() + 60)
        epoch = re.search(r"livereload\((\d+),", page)
        assert epoch, "the served page carries the live-reload script"
        _edit(lesson, "First version", "Second version")
        with urllib.request.urlopen(f"{base}livereload/{epoch[1]}/1", timeout=60) as woke:
            assert int(woke.read()) > int(epoch[1])  # the browser is told to reload
        _fetch(url, "Second version of the text.", time.monotonic() + 10)
        _edit(lesson, "Second version of the text.", "Broken [link](../nowhere/).")
        _fetch(url, "A331", time.monotonic() + 60)
    finally:
        stopping.set()
        worker.join(timeout=30)
    assert result == [0]
    text = log.getvalue()
    assert "changed: " + str(lesson) in text
    assert "rendered 1 of 8 pages: lessons/live/index.md" in text  # nothing else laid out
    assert re.search(r"2 lessons, 1 error, \d+ warnings?;", text) and "1 errors" not in text
    assert "error A331" in text  # the finding of the lesson that changed
    assert "not included in the" not in text  # MkDocs' list of pages outside the nav


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_signals_stop_serve_and_remove_its_folder(tmp_path: Path, signum: int) -> None:
    """SIGTERM left `python -m mkdocs serve` running with parent 1; now nothing is left."""
    content, scratch = tmp_path / "content", tmp_path / "tmp"
    write_lesson(content, "live", "# Live\n\nServed text.\n")
    scratch.mkdir()
    port = _free_port()
    process = subprocess.Popen(
        [CLI, "serve", str(content), "--dev-addr", f"127.0.0.1:{port}", "--mkdocs-config",
         str(REPO / "mkdocs.yml"), "--docs-dir", str(tmp_path / "docs"), "--cache-dir",
         str(tmp_path / "cache"), "-j", "2"],
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        _fetch(f"http://127.0.0.1:{port}/lessons/live/", "Served text.", time.monotonic() + 90)
        assert [p.name for p in scratch.iterdir() if p.name.startswith("atlas-serve-")]
        children = _children(process.pid)
        process.send_signal(signum)
        assert process.wait(timeout=30) == 128 + signum
    finally:
        if process.poll() is None:
            process.kill()
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert f"stopped by signal {signum}" in stderr and "Traceback" not in stderr
    time.sleep(0.5)
    assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]
    assert list(scratch.iterdir()) == []
