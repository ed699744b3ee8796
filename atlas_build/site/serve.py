"""`atlas-build serve`: preview the site with live reload, regenerating on content edits.

The docs tree is generated once, then `mkdocs serve` (a child process) serves it
and reloads the browser when a page changes. This process polls the content
folders; when a lesson, record or claims file changes it re-runs the check and
rewrites the docs tree, touching only the files whose bytes changed, so MkDocs
rebuilds and the open page reloads. Lessons with errors are shown, not refused:
a preview is where authors look at their errors.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from atlas_build import pipeline
from atlas_build.report.text import line
from atlas_build.site import docs
from atlas_build.site.build import mkdocs_config

WATCHED = (".md", ".json", ".yaml", ".yml")


def fingerprint(paths: list[str]) -> tuple[tuple[str, int, int], ...]:
    """(path, mtime, size) of every lesson-related file under `paths`."""
    found: list[tuple[str, int, int]] = []
    for root in paths:
        base = Path(root)
        files = [base] if base.is_file() else base.rglob("*") if base.is_dir() else []
        for path in files:
            if path.suffix in WATCHED and path.is_file():
                stat = path.stat()
                found.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


def regenerate(paths: list[str], docs_dir: Path, options: pipeline.Options) -> None:
    report, checked = pipeline.check(paths, options)
    tree = docs.generate_docs(report, checked, options=options)
    docs.write_tree(tree, docs_dir)
    for record in report.records:
        for diagnostic in record.diagnostics:
            if diagnostic.severity.value == "error":
                print(line(diagnostic), file=sys.stderr)
    summary = report.summary()
    print(
        f"atlas-build: docs regenerated: {summary['records']} lessons, "
        f"{summary['errors']} errors, {summary['warnings']} warnings",
        file=sys.stderr,
    )


def serve(
    paths: list[str],
    *,
    docs_dir: Path,
    config: Path,
    address: str,
    options: pipeline.Options,
    poll: float = 1.0,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """Serve until interrupted (or `stop()` returns True); 0 on a clean stop."""
    if not config.is_file():
        print(f"atlas-build: error: {config}: no MkDocs configuration", file=sys.stderr)
        return 2
    try:
        regenerate(paths, docs_dir, options)
    except docs.DocsDirError as error:
        print(f"atlas-build: error: {error}", file=sys.stderr)
        return 2
    seen = fingerprint(paths)
    with tempfile.TemporaryDirectory(prefix="atlas-serve-") as scratch:
        child = Path(scratch) / "mkdocs.yml"
        child.write_text(mkdocs_config(config, docs_dir, Path(scratch) / "site"), "utf-8")
        command = [sys.executable, "-m", "mkdocs", "serve", "--livereload"]
        command += ["--config-file", str(child), "--dev-addr", address]
        server = subprocess.Popen(command, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        try:
            while server.poll() is None and not stop():
                time.sleep(poll)
                now = fingerprint(paths)
                if now != seen:
                    seen = now
                    regenerate(paths, docs_dir, options)
        except KeyboardInterrupt:
            pass
        finally:
            if server.poll() is None:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
    return 0 if server.returncode in (0, -15, None) or stop() else 1
