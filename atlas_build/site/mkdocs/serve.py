"""`atlas-build serve`: preview the site, rebuilt incrementally on every save, with live reload.

Everything runs in this one process, so MkDocs, the theme and the checks stay loaded
between saves. MkDocs' own live-reload server (`mkdocs.livereload`) serves a site
folder inside a temporary directory and watches the content folders and the MkDocs
configuration. On a change it calls `Preview`, which checks the lessons (through the
cache, so only what the save touched is checked again), rewrites the docs tree (only
the files whose bytes changed), lays out again with MkDocs only the pages whose
markdown changed (`incremental`, the same code `build` runs) in the spare copy of the
site, swaps it in, and the server reloads the open pages. The log says which files
changed, their findings, and which pages were laid out again; not MkDocs' list of every
page outside the nav. Lessons with errors are shown, not refused: a preview is where
authors look at their errors.

Ctrl-C, SIGTERM and SIGHUP (which `atlas_build.cli` turns into an exception) stop the
server and remove the temporary directory.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from atlas_build import load, outputs, pipeline
from atlas_build.diagnostics import Severity
from atlas_build.report import Report
from atlas_build.report.text import line
from atlas_build.site.mkdocs import docsfolder, incremental, pagestore, tree
from atlas_build.site.mkdocs.build import config_problems, mkdocs_config, rendered
from atlas_build.site.mkdocs.publish import spare_path, staging, swap
from atlas_build.site.mkdocs.stats import Stats
from atlas_build.site.pages import docs
from atlas_build.site.pages.lesson import LessonPage
from atlas_build.text import plural

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

WATCHED = (".md", ".json", ".yaml", ".yml")


DEPTH = 3  # content/ -> lesson folder -> its files, with a level to spare


def fingerprint(paths: list[str]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every lesson-related file under `paths` (`DEPTH` levels down,
    through links, as `load.discover` goes); `os.scandir`, not pathlib, because this runs
    on every save over every lesson."""
    found: dict[str, tuple[int, int]] = {}
    for root in paths:
        if os.path.isfile(root):
            _note(root, found)
        elif os.path.isdir(root):
            _scan(root, found, DEPTH)
    return found


def _note(path: str, found: dict[str, tuple[int, int]]) -> None:
    if os.path.splitext(path)[1] in WATCHED:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            found[str(Path(path))] = (info.st_mtime_ns, info.st_size)


def _scan(folder: str, found: dict[str, tuple[int, int]], depth: int) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir():
                if depth > 1:
                    _scan(entry.path, found, depth - 1)
            elif entry.is_file():
                _note(entry.path, found)
        except OSError:
            continue


class Preview:
    """One rebuild of the served site per call (the live-reload server's builder)."""

    def __init__(self, paths: list[str], docs_dir: Path, config: Path, scratch: Path,
                 options: pipeline.Options, out: TextIO, trust: bool = False) -> None:  # fmt: skip
        self.paths, self.docs_dir, self.config = paths, docs_dir, config
        self.trust = trust
        self.site = scratch / "site"
        self.mkdocs_file = scratch / "mkdocs.yml"
        self.options, self.out = options, out
        self.files: tree.Files = {}  # what the served site and its spare hold
        self.spare: tree.Files = {}
        self.seen: dict[str, tuple[int, int]] = {}
        self.pages: dict[str, LessonPage] = {}  # this process's pages, by key
        self.checks = pipeline.Memo()  # this process's lesson reports and ids
        self.laid_out: pagestore.Pages = {}  # and what MkDocs made of each page
        self.written: docsfolder.Written = {}  # the docs files as this process wrote them
        self.rounds = 0

    def _changed(self) -> list[str]:
        now = fingerprint(self.paths)
        changed = sorted(p for p in now.keys() | self.seen.keys() if now.get(p) != self.seen.get(p))
        self.seen = now
        return changed

    def __call__(self) -> None:
        started = time.perf_counter()
        changed = self._changed()
        if self.rounds:
            shown = ", ".join(changed[:5]) + (", ..." if len(changed) > 5 else "")
            print(f"atlas-build: changed: {shown or 'nothing in the lessons'}", file=self.out)
        self.rounds += 1
        try:
            report, checked = pipeline.check(self.paths, self.options, memo=self.checks)
        except load.UsageError as error:
            print(f"atlas-build: error: {error}", file=self.out)
            return
        touched = {str(Path(p)) for p in changed}
        for record in report.records:
            mine = self.rounds > 1 and _near(record.path, touched)
            for diagnostic in record.diagnostics:  # first round: the errors; then what changed
                if (
                    diagnostic.severity is Severity.ERROR
                    or mine
                    and diagnostic.severity is (Severity.WARNING)
                ):
                    print(line(diagnostic), file=self.out)
        stats = self._lay_out(report, checked)
        summary = report.summary()
        findings = f"{plural(summary['errors'], 'error')}, {plural(summary['warnings'], 'warning')}"
        took = time.perf_counter() - started
        outcome = rendered(stats) if stats is not None else "site not rebuilt; old pages shown"
        print(
            f"atlas-build: {plural(summary['records'], 'lesson')}, {findings}; {outcome} "
            f"({took:.1f} s)",
            file=self.out,
        )

    def _lay_out(self, report: Report, checked: list[pipeline.Checked]) -> Stats | None:
        from mkdocs.exceptions import MkDocsException

        docs_tree = docs.generate_docs(report, checked, options=self.options, memo=self.pages)
        for diagnostic in docs_tree.diagnostics:
            print(line(diagnostic), file=self.out)
        sources = docs_tree.sources()
        docsfolder.write_tree(docs_tree, self.docs_dir, written=self.written, sources=sources)
        refused = config_problems(self.config, self.trust)  # the file is watched: read anew
        for diagnostic in refused:
            print(line(diagnostic), file=self.out)
        if refused:
            return None
        spare = spare_path(self.site)
        with staging(self.site, spare) as (staged, recycled):
            text = mkdocs_config(self.config, self.docs_dir, staged)
            self.mkdocs_file.write_text(text, encoding="utf-8")
            known = self.spare if recycled else {}
            try:
                stats = incremental.build(
                    self.mkdocs_file, self.options.cache_dir, known=known, sources=sources,
                    stream=self.out, memo=self.laid_out, jobs=self.options.jobs,
                    trust=self.trust,
                )  # fmt: skip
            except (MkDocsException, OSError) as error:
                print(f"atlas-build: MkDocs: {error}", file=self.out)
                return None
            swap(staged, self.site, keep=spare)
        self.files, self.spare = stats.files, self.files
        return stats


def _near(path: str, touched: set[str]) -> bool:
    """The lesson, its claims file or its record changed."""
    folder = str(Path(path).parent)
    return any(str(Path(item).parent) == folder for item in touched)


def serve(
    paths: list[str],
    *,
    docs_dir: Path,
    config: Path,
    address: str,
    options: pipeline.Options,
    poll: float = 0.25,
    stop: Callable[[], bool] = lambda: False,
    out: TextIO | None = None,
    trust: bool = False,
) -> int:
    """Serve until interrupted (or `stop()` returns True); 0 on a clean stop, 2 on bad usage."""
    stream = out or sys.stderr
    if not config.is_file():
        print(f"atlas-build: error: {config}: no MkDocs configuration", file=stream)
        return 2
    refused = config_problems(config, trust)
    for diagnostic in refused:
        print(line(diagnostic), file=stream)
    if refused:
        print("atlas-build: error: the MkDocs configuration is refused", file=stream)
        return 1
    linked = outputs.refused([docs_dir])  # the one folder serve writes in the repository
    for diagnostic in linked:
        print(line(diagnostic), file=stream)
    if linked:
        return 1
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        print(f"atlas-build: error: --dev-addr {address!r} is not HOST:PORT", file=stream)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="atlas-serve-"))
    server = None
    try:
        preview = Preview(paths, docs_dir, config, scratch, options, stream, trust)
        try:
            preview()
        except docsfolder.DocsDirError as error:
            print(f"atlas-build: error: {error}", file=stream)
            return 2
        pipeline.warm()
        _settle()
        server = _server_class()(
            builder=preview, host=host, port=int(port), root=str(preview.site),
            polling_interval=poll,
        )  # fmt: skip
        server.error_handler = lambda code: _error_page(preview.site, code)
        _watch(server, [*paths, str(config)], poll)
        logging.getLogger("mkdocs.livereload").setLevel(logging.ERROR)  # not each request
        _stop_when(stop, server)
        print(f"atlas-build: serving on http://{address}/ (Ctrl-C stops)", file=stream)
        server.serve()
    finally:
        if server is not None:
            server.shutdown()
        gc.unfreeze()  # a caller that goes on (a test run) gets its collector back whole
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


_LIVE_RELOAD = re.compile(r"/livereload/([0-9]+)/([0-9]+)")
LONGEST_NUMBER = 19  # digits: MkDocs' live-reload numbers are milliseconds, `int` takes 4,300


def bad_request(path_info: str) -> str | None:
    """Why MkDocs' server cannot answer a request for this path, or None. Any page the
    author opens can send one: a NUL (`GET /%00`) made `open` raise and a live-reload
    number of thousands of digits made `int` raise, each a 500 and a traceback on the
    author's terminal. The path is decoded as MkDocs decodes it."""
    path = path_info.encode("latin-1", "replace").decode("utf-8", "ignore")
    if any(ord(char) < 0x20 or char == "\x7f" for char in path):
        return "the path holds a control character"
    live = _LIVE_RELOAD.fullmatch(path)
    if live is not None and max(len(live[1]), len(live[2])) > LONGEST_NUMBER:
        return f"a live-reload number is longer than {LONGEST_NUMBER} digits"
    return None


def _server_class() -> type[LiveReloadServer]:
    """MkDocs' live-reload server, answering 400 to a request it cannot parse."""
    from mkdocs.livereload import LiveReloadServer

    class Server(LiveReloadServer):
        def _serve_request(self, environ: dict[str, Any], start_response: Any) -> Any:
            why = bad_request(environ.get("PATH_INFO", ""))
            if why is None:
                return super()._serve_request(environ, start_response)
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [f"400 Bad Request: {why}\n".encode()]

    return Server


def _watch(server: LiveReloadServer, paths: list[str], poll: float) -> None:
    """Watch with the platform's file events (inotify) where it has them, else by polling.

    MkDocs' server polls: every `poll` seconds it walks and stats every watched file, which
    for a thousand lessons took 0.1-0.2 s of the interpreter four times a second, slowing
    the very rebuild it had asked for. Events cost nothing between saves and arrive at
    once. Only changes count (created, modified, moved, deleted): inotify also reports a
    file being opened or closed, and the rebuild reads every lesson, so those would start
    the next rebuild forever. Where events cannot be had (no inotify, or its limits
    reached: found by starting a trial observer on the same paths) MkDocs' polling
    observer stays."""
    changes = _changes_observer()
    if changes is not None and _starts(changes(), paths):
        server.observer = changes(timeout=poll)
    for path in paths:
        server.watch(path)


def _changes_observer() -> Any:
    """An inotify observer class that schedules every watch for changes only; None
    where the platform has no inotify."""
    try:
        from watchdog import events
        from watchdog.observers.api import ObservedWatch
        from watchdog.observers.inotify import InotifyObserver
    except ImportError:
        return None
    kinds = [events.FileCreatedEvent, events.FileModifiedEvent, events.FileMovedEvent,
             events.FileDeletedEvent, events.DirCreatedEvent, events.DirMovedEvent,
             events.DirDeletedEvent]  # fmt: skip

    class Changes(InotifyObserver):
        def schedule(
            self,
            event_handler: events.FileSystemEventHandler,
            path: str | Path,
            *,
            recursive: bool = False,
            event_filter: list[type[events.FileSystemEvent]] | None = None,
            follow_symlink: bool = False,
        ) -> ObservedWatch:
            return super().schedule(
                event_handler, path, recursive=recursive, event_filter=kinds,
                follow_symlink=follow_symlink,
            )  # fmt: skip

    return Changes


def _starts(trial: Any, paths: list[str]) -> bool:
    from watchdog.events import FileSystemEventHandler

    try:
        for path in paths:
            trial.schedule(FileSystemEventHandler(), os.path.abspath(path), recursive=True)
        trial.start()
    except OSError:
        return False
    finally:
        if trial.is_alive():
            trial.stop()
            trial.join(timeout=5)
    return True


def _settle() -> None:
    """Collect the first build's garbage, then exempt what it left (a thousand lessons'
    reports, pages and page entries, kept between saves) from the collector: a full
    collection over it took a second of some saves (measured at 1,000 lessons). What a
    later save replaces is still freed by reference counting; only a frozen object caught
    in a reference cycle would stay, at most one lesson's worth per save."""
    gc.collect()
    gc.freeze()


def _error_page(site: Path, code: int) -> bytes | None:
    page = site / f"{code}.html"
    return page.read_bytes() if page.is_file() else None


def _stop_when(stop: Callable[[], bool], server: LiveReloadServer) -> None:
    def watch() -> None:
        while not stop():
            time.sleep(0.1)
        server.shutdown()

    threading.Thread(target=watch, daemon=True).start()
