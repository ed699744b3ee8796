"""MkDocs lays out the docs tree, rendering again only the pages whose inputs changed.

What MkDocs makes of a page (its HTML file, its entries in the search index, the ids it
defines) is a function of the page's markdown file and of the site around it
(`mkcontext`). Nothing else enters, because the pages link one another only through raw
HTML, which MkDocs passes through unresolved; a page whose markdown does link another
file is rendered every time. So each rendered page is cached by (that context, its path,
its bytes), and `build` runs MkDocs' own `build()` with its per-page steps wrapped
(`speedups.patches`): a page whose entry is found is neither read nor rendered. The 404
page, the sitemap and the search index file MkDocs makes as always, so the output is a
cold `mkdocs build`'s, byte for byte (tests/test_site_incremental.py).

Reuse is off (every page rendered, nothing stored) when `mkcontext.context` is None, and
on MkDocs, Material or Python-Markdown versions the patches were not written against
(`mkcontext.supported`) MkDocs runs as it is. Many pages missing from the cache are laid
out first in forked workers (`prerender`).

A build runs this in a child process (`child`); `serve` calls `build` itself.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import TextIO

from atlas_build.site.mkdocs import mkcontext, pagestore, prerender, tree
from atlas_build.site.mkdocs.prepared import Prepared, prepare
from atlas_build.site.mkdocs.speedups.patches import Session, patched
from atlas_build.site.mkdocs.stats import Stats

FORMAT = "%(levelname)-7s -  %(message)s"  # what `mkdocs build` prints


def build(
    config_file: Path,
    cache_dir: str | None,
    *,
    known: tree.Files | None = None,
    sources: dict[str, str] | None = None,
    stream: TextIO | None = None,
    memo: pagestore.Pages | None = None,
    handler: logging.Handler | None = None,
    prepared: Prepared | None = None,
    site_dir: Path | None = None,
    jobs: int = 1,
    trust: bool = False,
) -> Stats:
    """`mkdocs build` of `config_file` into its `site_dir` (or `site_dir`), reusing cached
    pages and the files of that folder that `known` vouches for; raises MkDocs' own errors
    (`Abort` for warnings in strict mode, `ConfigurationError`). `sources`: sha256 of docs
    files; `memo`: page entries of earlier builds in this process, left holding this
    build's; `prepared`: what `prepare` made of the same `config_file` and `cache_dir`;
    `jobs`: processes to lay out pages missing from the cache in first (`prerender`);
    `trust`: the configuration may load hooks (`mkconfig`); `handler`: where MkDocs'
    warnings and errors go (else `stream`, as `mkdocs build` prints them)."""
    from mkdocs.commands import build as mkdocs_build
    from mkdocs.utils import DuplicateFilter

    started = time.perf_counter()
    logger = logging.getLogger("mkdocs")
    handler = handler or log_handler(stream)
    logger.addHandler(handler)
    duplicates = DuplicateFilter()
    mkdocs_build.log.addFilter(duplicates)
    try:
        prepared = prepared or prepare(config_file, cache_dir, entries=not memo, trust=trust)
        config = prepared.config
        if prepared.store.enabled:  # again: untitled nav entries' files may have changed since
            prepared.context = mkcontext.context(config, config_file)
        try:
            if site_dir is not None:
                config["site_dir"] = str(site_dir)
            site = Path(config.site_dir)
            site.mkdir(parents=True, exist_ok=True)
            prerendered = 0
            if jobs > 1 and mkcontext.supported():
                prerendered = prerender.run(prepared, sources or {}, jobs)
                config["site_dir"] = str(site)  # the workers set their own, in their copy
            staged = tree.Tree(site, known or {})
            session = Session(prepared, staged, sources or {}, memo)
            session.stats.prerendered, session.stats.jobs = prerendered, jobs
            if mkcontext.supported():
                with patched(session):
                    mkdocs_build.build(config)
                if memo is not None:
                    memo.clear()
                    memo.update(session.used)
            else:  # unknown internals: MkDocs as it is (it empties the folder first)
                session.stats.incremental = False
                mkdocs_build.build(config)
            session.stats.files = staged.finish()
            if session.batch is not None:
                session.batch.save()
        finally:
            config.plugins.on_shutdown()
    finally:
        logger.removeHandler(handler)
        mkdocs_build.log.removeFilter(duplicates)
    session.stats.seconds = time.perf_counter() - started
    return session.stats


def log_handler(stream: TextIO | None) -> logging.Handler:
    """MkDocs' warnings and errors as `mkdocs build` prints them (not its INFO list of
    every page outside the nav)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(logging.WARNING)
    return handler
