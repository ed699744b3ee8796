"""Lay out the pages a build has no entry for in several processes before MkDocs runs.

MkDocs lays pages out one after another, and in a cold build of a large site that is
most of the site stage (about 55 ms a page here), on one core. Each page's HTML, search
entries and ids depend only on its markdown and the site around it (`incremental`), so
pages can be laid out in any process: `run` forks `jobs` workers from the child that
has the configuration and theme loaded, each lays out its share of the pages missing
from the cache with MkDocs' own per-page steps (`speedups.patches.Session` with `only`) into
a scratch folder and stores them like any page, and the build that follows finds every
page in the cache. The build, not the workers, writes the site, the search index, the
sitemap and the 404 page, so the output is the one a single process makes, byte for
byte. A page a worker could not lay out cleanly (a warning) is not stored, and the
build lays it out again and reports it.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from atlas_build.cache import digest
from atlas_build.site.mkdocs import mkcontext, pagestore, tree
from atlas_build.site.mkdocs.prepared import Prepared
from atlas_build.site.mkdocs.speedups.patches import Session, patched
from atlas_build.workers import pool

LEAST = 16  # fewer missing pages than this are laid out by the build itself
_FORKED: tuple[Prepared, dict[str, str]] | None = None


def missing(prepared: Prepared, sources: dict[str, str]) -> list[str]:
    """Pages of the docs folder with no entry in the cache (never the untitled nav pages,
    which every build lays out). With `sources`, the docs tree the parent wrote, its files
    are not listed again; either way this is an estimate, and the build decides by its own
    keys what it reuses."""
    from mkdocs.structure.files import File, Files, get_files, set_exclusions

    config, context = prepared.config, prepared.context
    if context is None:
        return []
    if sources:
        made = [File(p, config.docs_dir, config.site_dir, config.use_directory_urls)
                for p in sorted(sources) if p.endswith(".md")]  # fmt: skip
        set_exclusions(made, config)
        files = Files(made)
    else:
        files = get_files(config)
    always = set(mkcontext.untitled(config.nav))
    found: list[str] = []
    for file in files.documentation_pages():
        uri = file.src_uri
        if uri in always:
            continue
        sha = sources.get(uri)
        if sha is None and file.abs_src_path:
            try:
                sha = hashlib.sha256(Path(file.abs_src_path).read_bytes()).hexdigest()
            except OSError:
                continue
        if sha is None:
            continue
        excluded = "excluded" if file.inclusion.is_excluded() else "included"
        key = digest(context, uri, excluded, sha)
        held = prepared.batch is not None and prepared.batch.holds(key)
        if not held and not prepared.store.has(pagestore.PAGES, key):
            found.append(uri)
    return found


def run(prepared: Prepared, sources: dict[str, str], jobs: int) -> int:
    """Lay out the missing pages in `jobs` processes; how many were missing (0 when too
    few to be worth the processes, or when the build cannot reuse pages anyway)."""
    global _FORKED
    if jobs < 2 or prepared.context is None:
        return 0
    wanted = missing(prepared, sources)
    if len(wanted) < LEAST:
        return 0
    shares = [wanted[index::jobs] for index in range(jobs)]
    _FORKED = prepared, sources
    try:
        with pool(jobs) as workers:
            list(workers.map(_lay_out, shares))
    finally:
        _FORKED = None
    return len(wanted)


def _lay_out(uris: list[str]) -> int:
    """In a forked worker: MkDocs' build with only these pages laid out, into a scratch
    folder, nothing logged (the build reports what it lays out itself)."""
    from mkdocs.commands import build as mkdocs_build
    from mkdocs.exceptions import MkDocsException

    assert _FORKED is not None
    prepared, sources = _FORKED
    logger = logging.getLogger("mkdocs")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    logger.addHandler(logging.NullHandler())
    mkdocs_build._build_theme_template = _skip  # no 404 page or sitemap: the build's
    scratch = Path(tempfile.mkdtemp(prefix="atlas-prerender-"))
    config: Any = prepared.config
    config["site_dir"] = str(scratch)
    session = Session(prepared, tree.Tree(scratch, {}), sources, only=set(uris))
    session.batch = None  # this process's notes would be lost: the build reads the store
    try:
        with patched(session):
            mkdocs_build.build(config)
    except MkDocsException:
        pass  # strict mode counts a warning: that page was not stored, the build reports it
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return len(session.stats.rendered)


def _skip(*args: object, **kwargs: object) -> None:
    return None
