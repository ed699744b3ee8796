"""Build the site: docs tree -> MkDocs (strict) -> link check -> atomic swap of `site/`.

MkDocs writes into a fresh temporary directory beside `site/`; only when it and
the link check succeed is that directory swapped in (rename the old site away,
rename the new one in, delete the old). A failure or an interrupt at any point
before the swap leaves the previous site exactly as it was.

MkDocs runs as `python -m mkdocs build --strict` in a child process (never `-q`,
which hides warnings in MkDocs 1.6), with a small config that `INHERIT`s the
repository's `mkdocs.yml` and points it at the generated docs tree; every
WARNING or ERROR line it prints fails the build.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from atlas_build import pipeline
from atlas_build.cache import Cache
from atlas_build.diagnostics import Location, Severity, at
from atlas_build.report import Report
from atlas_build.report.text import line
from atlas_build.site import codes, docs, linkcheck

DEFAULT_CONFIG = "mkdocs.yml"
STALE_AFTER = 6 * 3600.0  # seconds; younger staging folders may belong to a running build


class SiteError(Exception):
    """The site could not be built; the message lists why (one finding per line)."""


def mkdocs_config(config: Path, docs_dir: Path, target: Path) -> str:
    """A config that inherits `config` and builds `docs_dir` into `target`."""
    import json

    return (
        f"INHERIT: {json.dumps(str(config.resolve()))}\n"
        f"docs_dir: {json.dumps(str(docs_dir.resolve()))}\n"
        f"site_dir: {json.dumps(str(target.resolve()))}\n"
    )


def run_mkdocs(config: Path, docs_dir: Path, target: Path) -> list[str]:
    """Build with MkDocs; returns its warnings and errors (empty on a clean build)."""
    if not config.is_file():
        raise SiteError(f"{config}: no MkDocs configuration (expected at the repository root)")
    with tempfile.TemporaryDirectory(prefix="atlas-mkdocs-") as scratch:
        child = Path(scratch) / "mkdocs.yml"
        child.write_text(mkdocs_config(config, docs_dir, target), encoding="utf-8")
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONUNBUFFERED": "1"}
        result = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(child)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    output = (result.stdout + result.stderr).splitlines()
    problems = [text.strip() for text in output if text.lstrip().startswith(("WARNING", "ERROR"))]
    if result.returncode != 0 and not problems:
        problems = [text for text in output if text.strip()][-5:] or ["mkdocs build failed"]
    return problems


def remove_stale(site_dir: Path, *, age: float = STALE_AFTER) -> None:
    """Delete staging folders that a killed build (SIGKILL, power loss) left beside the site."""
    if not site_dir.parent.is_dir():
        return
    now = time.time()
    for pattern in (f".{site_dir.name}.new-*", f".{site_dir.name}.old-*"):
        for leftover in site_dir.parent.glob(pattern):
            with contextlib.suppress(OSError):
                if leftover.is_dir() and now - leftover.stat().st_mtime > age:
                    shutil.rmtree(leftover, ignore_errors=True)


@contextlib.contextmanager
def staging(site_dir: Path) -> Iterator[Path]:
    """A temporary directory beside `site_dir` (same filesystem, so renames are atomic)."""
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.new-", dir=site_dir.parent))
    os.chmod(staged, 0o777 & ~_umask())  # mkdtemp makes 0700; a site is as readable as any
    try:
        yield staged
    finally:
        shutil.rmtree(staged, ignore_errors=True)


def _link_location(
    problem: linkcheck.Broken,
    tree: docs.DocsTree,
    checked: list[pipeline.Checked],
    site_path: Path,
    options: pipeline.Options | None,
) -> Location:
    """Where the author wrote a broken link: the lesson's line:col when the page is a
    lesson's and the link's text is found in its content, else the built page."""
    fallback = Location(f"{site_path}/{problem.page}")
    parts = problem.page.split("/")
    page = tree.pages.get(parts[1]) if len(parts) == 3 and parts[0] == "lessons" else None
    item = next((c for c in checked if page is not None and c.report is page.report), None)
    if page is None or item is None:
        return fallback
    pipeline.materialize(item, options or pipeline.Options())
    if item.source is None:
        return fallback
    content = page.record.content
    for needle in (f"]({problem.link}", f'="{problem.link}"', f"={problem.link}", problem.link):
        found = content.find(needle)
        if found != -1:
            offset = found + needle.index(problem.link)
            return item.source.locator.content(offset)
    return Location(item.report.path, 1, 1)


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def swap(staged: Path, site_dir: Path) -> None:
    """Replace `site_dir` by `staged`: at every instant one complete site is in place."""
    old = None
    if site_dir.exists() or site_dir.is_symlink():
        old = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.old-", dir=site_dir.parent))
        os.rmdir(old)
        os.rename(site_dir, old)
    try:
        os.rename(staged, site_dir)
    except BaseException:
        if old is not None:
            os.rename(old, site_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def build_site(
    report: Report,
    checked: list[pipeline.Checked],
    *,
    docs_dir: str | os.PathLike[str],
    site_dir: str | os.PathLike[str],
    allow_errors: bool = False,
    config: str | os.PathLike[str] = DEFAULT_CONFIG,
    options: pipeline.Options | None = None,
    stream: TextIO | None = None,
) -> int:
    """Generate the docs tree and build the site; 0 when `site_dir` was replaced, else 1.

    Lessons with errors stop the build unless `allow_errors`; then the pages show
    them, and links the lessons break are reported as warnings. The site stage's own
    findings (LaTeX errors, ...) are added to `report` and printed as
    `path:line:col: severity code message`.
    """
    out = stream or sys.stderr
    if report.count(Severity.ERROR) and not allow_errors:
        print("atlas-build: site not built: lessons have errors (or --allow-errors)", file=out)
        return 1
    tree = docs.generate_docs(report, checked, options=options)
    for diagnostic in tree.diagnostics:
        print(line(diagnostic), file=out)
    if any(d.severity is Severity.ERROR for d in tree.diagnostics) and not allow_errors:
        print("atlas-build: site not built: fix the errors above (or --allow-errors)", file=out)
        return 1
    docs_path, site_path = Path(docs_dir), Path(site_dir)
    try:
        docs.write_tree(tree, docs_path)
        remove_stale(site_path)
        with staging(site_path) as staged:
            problems = run_mkdocs(Path(config), docs_path, staged)
            for problem in problems:
                print(f"{config}: error {codes.MKDOCS.code} {problem}", file=out)
            store = Cache(options.cache_dir if options else None)
            broken = [] if problems else linkcheck.broken_links(staged, cache=store)
            severity = Severity.WARNING if allow_errors else Severity.ERROR
            for link in broken:
                where = _link_location(link, tree, checked, site_path, options)
                message = f"broken link {link.link} ({link.reason})"
                print(line(at(codes.LINK, where, message, severity=severity)), file=out)
            if problems or broken and not allow_errors:
                print(f"atlas-build: site not built; {site_path}/ left as it was", file=out)
                return 1
            swap(staged, site_path)
    except (SiteError, docs.DocsDirError, OSError) as error:
        print(f"atlas-build: site not built: {error}; {site_path}/ left as it was", file=out)
        return 1
    lessons = len(tree.pages)
    print(f"built {lessons} lesson page{'s' if lessons != 1 else ''} into {site_path}/", file=out)
    return 0
