"""`atlas-build serve`: the preview rebuilds what a save changed, says so, and stops cleanly."""

from __future__ import annotations

import gc
import io
import logging
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
from support import write_site_lesson

from atlas_build import pipeline
from atlas_build.site.mkdocs import serve

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


def _serving(
    content: Path,
    tmp_path: Path,
    options: pipeline.Options,
    port: int,
    stopping: threading.Event,
    result: list[int],
    log: io.StringIO,
) -> threading.Thread:
    """`serve` of `content` in a thread, until `stopping` is set; its exit code goes to
    `result`, its log to `log`."""
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
    return worker


def test_serve_rebuilds_what_a_save_changed(tmp_path: Path) -> None:
    content = tmp_path / "content"
    lesson = write_site_lesson(content, "live", "# Live\n\nFirst version of the text.\n")
    write_site_lesson(content, "other", "# Other\n\nAn untouched lesson.\n")
    port, stopping, result, log = _free_port(), threading.Event(), [], io.StringIO()
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"))
    worker = _serving(content, tmp_path, options, port, stopping, result, log)
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
    assert gc.get_freeze_count() == 0  # serve froze its state while it ran, not after
    text = log.getvalue()
    assert "changed: " + str(lesson) in text
    assert "rendered 1 of 8 pages: lessons/live/index.md" in text  # nothing else laid out
    assert re.search(r"2 lessons, 1 error, \d+ warnings?;", text) and "1 errors" not in text
    assert "error A331" in text  # the finding of the lesson that changed
    assert "not included in the" not in text  # MkDocs' list of pages outside the nav


def test_serve_lays_out_a_first_build_in_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first build of a preview lays out its new pages in -j processes, as `build`
    does (a save, with one page new, stays in process: fewer than `prerender.LEAST`)."""
    from atlas_build.site.mkdocs import prerender

    monkeypatch.setattr(prerender, "LEAST", 2)
    content = tmp_path / "content"
    for name in ("one", "two", "three"):
        write_site_lesson(content, name, f"# Lesson {name}\n\nSome text.\n")
    stopping, result, log = threading.Event(), [], io.StringIO()
    options = pipeline.Options(jobs=2, cache_dir=str(tmp_path / "cache"))
    worker = _serving(content, tmp_path, options, _free_port(), stopping, result, log)
    deadline = time.monotonic() + 60
    while "serving on" not in log.getvalue() and time.monotonic() < deadline:
        time.sleep(0.1)
    stopping.set()
    worker.join(timeout=30)
    assert result == [0]
    assert re.search(r"rendered all (\d+) pages, \1 of them in 2 processes", log.getvalue())


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
    write_site_lesson(content, "live", "# Live\n\nServed text.\n")
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


def _server(tmp_path: Path) -> object:
    from mkdocs.livereload import LiveReloadServer

    return LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))


def test_serve_watches_with_file_events_where_it_can(tmp_path: Path) -> None:
    """inotify, not MkDocs' poller, which walked every lesson four times a second."""
    from watchdog.observers.inotify import InotifyObserver

    server = _server(tmp_path)
    (tmp_path / "content").mkdir()
    serve._watch(server, [str(tmp_path / "content")], 0.25)  # type: ignore[arg-type]
    assert isinstance(server.observer, InotifyObserver)  # type: ignore[attr-defined]
    assert list(server._watched_paths) == [str(tmp_path / "content")]  # type: ignore[attr-defined]


def test_serve_falls_back_to_polling_when_events_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from watchdog.observers.inotify import InotifyObserver
    from watchdog.observers.polling import PollingObserver

    def refuse(self: object) -> None:
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(InotifyObserver, "start", refuse)
    server = _server(tmp_path)
    serve._watch(server, [str(tmp_path)], 0.25)  # type: ignore[arg-type]
    assert isinstance(server.observer, PollingObserver)  # type: ignore[attr-defined]
    assert list(server._watched_paths) == [str(tmp_path)]  # type: ignore[attr-defined]


def test_reading_a_watched_file_does_not_ask_for_a_rebuild(tmp_path: Path) -> None:
    """inotify reports opens and closes too; the rebuild reads every lesson, so only a
    change may set the flag, or serve would rebuild forever."""
    from mkdocs.livereload import LiveReloadServer

    lesson = tmp_path / "content" / "alpha" / "lesson.md"
    lesson.parent.mkdir(parents=True)
    lesson.write_text("# Alpha\n", encoding="utf-8")
    builds: list[float] = []  # the server's rebuilds, counted by its builder
    server = LiveReloadServer(
        builder=lambda: builds.append(time.monotonic()),
        host="127.0.0.1",
        port=0,
        root=str(tmp_path),
    )
    serve._watch(server, [str(tmp_path / "content")], 0.25)
    serving = threading.Thread(target=server.serve, daemon=True)
    serving.start()
    try:
        deadline = time.monotonic() + 5
        while not server.observer.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        for _ in range(3):
            lesson.read_bytes()
        time.sleep(0.5 + server.build_delay)
        assert builds == []
        lesson.write_text("# Alpha, edited\n", encoding="utf-8")
        deadline = time.monotonic() + 5
        while not builds and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(builds) >= 1
    finally:
        server.shutdown(wait=True)
        serving.join(timeout=5)


BAD_REQUESTS = {
    "nul": "/\x00",  # `GET /%00`: `open` raised ValueError
    "long-epoch": "/livereload/" + "9" * 5000 + "/1",  # `int` raised ValueError
    "long-request-id": "/livereload/1/" + "9" * 5000,
    "control": "/lessons/\x1b[2J/",
}


@pytest.mark.parametrize("path", sorted(BAD_REQUESTS))
def test_a_request_the_server_cannot_parse_is_a_400_without_a_traceback(
    tmp_path: Path, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Any page the author visits can send these; MkDocs' server answered 500 and printed
    a traceback."""
    server = serve._server_class()(
        builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path)
    )
    statuses: list[str] = []
    with caplog.at_level(logging.DEBUG):
        body = b"".join(
            server.serve_request(
                {"PATH_INFO": BAD_REQUESTS[path]}, lambda status, headers: statuses.append(status)
            )
        )
    assert statuses == ["400 Bad Request"] and body.startswith(b"400 Bad Request: ")
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert not [record for record in caplog.records if record.exc_info]


def test_a_request_it_can_parse_is_served_as_before(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("<html><body>hello</body></html>", encoding="utf-8")
    server = serve._server_class()(
        builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path)
    )
    statuses: list[str] = []
    body = b"".join(
        server.serve_request({"PATH_INFO": "/page.html"}, lambda s, h: statuses.append(s))
    )
    assert statuses == ["200 OK"] and b"hello" in body
    missing = b"".join(
        server.serve_request({"PATH_INFO": "/nope"}, lambda s, h: statuses.append(s))
    )
    assert statuses[-1] == "404 Not Found" and missing
