"""MkDocs' own build with its per-page steps wrapped: the internals the driver replaces.

`incremental.build` and `prerender` run MkDocs' `build()` inside `patched(session)`,
which replaces seven MkDocs attributes, private ones among them, for as long as it runs:

- `mkdocs.commands.build._populate_page` and `_build_page`: a page whose entry is in the
  cache (`pagestore`, keyed by `mkcontext.context`, its path and its bytes) is neither
  read nor rendered; its HTML is written unless the staging folder holds it already
  (`tree`), and its search entries are put at its place in the index. A rendered page
  is stored, unless it logged a warning (read from `config._current_page`) or links
  another file through markdown (`_RelativePathTreeprocessor.path_to_url`);
- `File.copy_file`: static files the staging folder holds already are not copied;
- `utils.clean_directory`: the staging folder is not emptied (`tree` deletes what the
  new site does not have);
- `Files.add_files_from_theme`: the theme's list of static files is kept per theme;
- `Theme.get_env`: one Jinja environment per context (`prepared.THEMES`);

and, for the same output sooner, `htmlfeed`, `rawblocks` and `searchparser`. These are
written against the MkDocs, Material and Python-Markdown versions of
`mkcontext.SUPPORTED`; on any other version nothing here runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from atlas_build.cache import digest
from atlas_build.site.mkdocs import linkcheck, mkcontext, pagestore, tree
from atlas_build.site.mkdocs.prepared import THEMES, Prepared
from atlas_build.site.mkdocs.speedups import htmlfeed, rawblocks
from atlas_build.site.mkdocs.stats import Stats

THEME = "mkdocs-theme-files"  # cache namespace of the theme's list of static files


class Session:
    """Per-build bookkeeping of the wrapped MkDocs steps."""

    def __init__(
        self,
        prepared: Prepared,
        staged: tree.Tree,
        sources: dict[str, str],
        memo: pagestore.Pages | None = None,
        only: set[str] | None = None,
    ) -> None:
        config = prepared.config
        self.only = only  # lay out these pages and nothing else (`prerender`)
        self.config = config
        self.memo = memo
        self.used: pagestore.Pages = {}
        self.context = prepared.context
        self.batch = prepared.batch
        self.store = prepared.store
        self.tree = staged
        self.sources = sources
        self.stats = Stats(incremental=self.context is not None)
        self.always = set(
            mkcontext.untitled(config.nav)
        )  # read by every page's nav: always rendered
        self.found: dict[str, pagestore.Entry] = {}
        self.keys: dict[str, str] = {}
        self.linking: set[str] = set()
        self.warned: set[str] = set()
        self.blobs: dict[str, bytes] = {}
        self.docs = Path(config.docs_dir).resolve()

    def _search(self) -> list[dict[str, Any]] | None:
        for plugin in self.config.plugins.values():
            entries = getattr(getattr(plugin, "search_index", None), "entries", None)
            if isinstance(entries, list):
                return entries
        return None

    def populate(self, original: Callable[..., None]) -> Callable[..., None]:
        def populate(page: Any, config: Any, files: Any, dirty: bool = False) -> None:
            uri = page.file.src_uri
            if self.only is not None and uri not in self.only:
                return
            if self.context is not None and uri not in self.always:
                excluded = "excluded" if page.file.inclusion.is_excluded() else "included"
                key = self._key(page, uri, excluded)
                entry = self._entry(key) if key else None
                if entry is not None and self._available(page, entry):
                    self.found[uri] = entry
                    page.present_anchor_ids = set(entry.anchors)
                    return
                if key is not None:
                    self.keys[uri] = key
            original(page, config, files, dirty)

        return populate

    def _key(self, page: Any, uri: str, excluded: str) -> str | None:
        """By the sha256 of the page's markdown: the one `sources` has for a file of the
        generated docs tree (so an unchanged page is not even read), else its bytes'."""
        sha = self.sources.get(uri) if self._from_docs(page.file) else None
        if sha is None:
            try:
                sha = hashlib.sha256(page.file.content_bytes).hexdigest()
            except OSError:
                return None  # MkDocs reports the unreadable file itself
        return digest(self.context or "", uri, excluded, sha)

    def _entry(self, key: str) -> pagestore.Entry | None:
        entry = self.memo.get(key) if self.memo is not None else None
        if entry is None and self.batch is not None:
            entry = self.batch.get(key)
        if entry is None:
            entry = pagestore.get(self.store, key)
            if entry is not None and self.batch is not None:
                self.batch.note(key, entry)
        if entry is not None and self.memo is not None:
            self.used[key] = entry
        return entry

    def _available(self, page: Any, entry: pagestore.Entry) -> bool:
        """The page's HTML is in the staging folder already, or in the cache."""
        if entry.html is None or self.tree.holds(page.file.dest_uri, entry.html):
            return True
        html = pagestore.html(self.store, entry.html)
        if html is not None:
            self.blobs[page.file.src_uri] = html
        return html is not None

    def build_page(self, original: Callable[..., None]) -> Callable[..., None]:
        from mkdocs import utils

        def build_page(page: Any, config: Any, doc_files: Any, nav: Any, env: Any,
                       dirty: bool = False, excluded: bool = False) -> None:  # fmt: skip
            uri = page.file.src_uri
            if self.only is not None and uri not in self.only:
                return
            search = self._search()
            entry = self.found.get(uri)
            if entry is not None:
                if uri in self.blobs:
                    utils.write_file(self.blobs.pop(uri), page.file.abs_dest_path)
                if search is not None:
                    search.extend(entry.search)
                self.stats.reused += 1
                return
            before = len(search) if search is not None else 0
            self.tree.holds(page.file.dest_uri, None)
            original(page, config, doc_files, nav, env, dirty, excluded)
            self.stats.rendered.append(uri)
            key = self.keys.get(uri)
            if key is None or uri in self.linking or uri in self.warned:
                return
            output = Path(page.file.abs_dest_path)
            html = output.read_bytes() if output.is_file() else None
            added = search[before:] if search is not None else []
            stored = pagestore.put(self.store, key, html, added, page.present_anchor_ids or set())
            if html is not None and stored.html is not None and self.store.enabled:
                linkcheck.note(self.store, stored.html, html)  # stored under its sha256
            if self.batch is not None:
                self.batch.note(key, stored)
            if self.memo is not None:
                self.used[key] = stored

        return build_page

    def copy_file(self, original: Callable[..., None]) -> Callable[..., None]:
        def copy_file(file: Any, dirty: bool = False) -> None:
            if self.only is not None:
                return
            sha = self.sources.get(file.src_uri) if self._from_docs(file) else None
            if sha is None and file.abs_src_path and Path(file.abs_src_path).is_file():
                sha = tree.sha256_file(Path(file.abs_src_path))
            if not self.tree.holds(file.dest_uri, sha):
                original(file, dirty)

        return copy_file

    def _from_docs(self, file: Any) -> bool:
        source = file.abs_src_path
        return bool(source) and Path(source).parent.is_relative_to(self.docs)

    def theme_files(self, original: Callable[..., None]) -> Callable[..., None]:
        """The theme's static files, listed once per theme version: listing and filtering
        its ~14,500 files took a third of a second per build."""
        from mkdocs.structure.files import File, Files

        def add_files_from_theme(files: Any, env: Any, config: Any) -> None:
            dirs = [str(folder) for folder in config.theme.dirs]
            key = mkcontext.theme_key(config) if self.context is not None else None
            listed = mkcontext.listing(self.store.get(THEME, key), dirs) if key else None
            if listed is None:
                found = Files([])
                original(found, env, config)
                listed = [[file.src_uri, str(file.src_dir)] for file in found]
                if key:
                    self.store.put(THEME, key, json.dumps(listed).encode("utf-8"))
            for path, folder in listed:
                if files.get_file_from_path(path) is None:  # docs files override the theme's
                    files.append(File(path, folder, config.site_dir, config.use_directory_urls))

        return add_files_from_theme

    def get_env(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """One Jinja environment per context for the life of the process, so that a preview
        compiles the theme's templates once, not on every save (a build runs once anyway)."""

        def get_env(theme: Any) -> Any:
            if self.context is None:
                return original(theme)
            if self.context not in THEMES:
                THEMES.clear()
                THEMES[self.context] = original(theme)
            return THEMES[self.context]

        return get_env

    def path_to_url(self, original: Callable[..., str]) -> Callable[..., str]:
        def path_to_url(processor: Any, url: str) -> str:
            parts = urlsplit(url)
            if parts.path and not (parts.scheme or parts.netloc):
                self.linking.add(processor.file.src_uri)  # depends on another file
            return original(processor, url)

        return path_to_url


class _Warnings(logging.Handler):
    """Marks the page being read or rendered when MkDocs logs a warning about it."""

    def __init__(self, session: Session) -> None:
        super().__init__(logging.WARNING)
        self.session = session

    def emit(self, record: logging.LogRecord) -> None:
        page = getattr(self.session.config, "_current_page", None)
        if page is not None:
            self.session.warned.add(page.file.src_uri)


@contextlib.contextmanager
def patched(session: Session) -> Iterator[None]:
    """MkDocs' per-page steps and static-file copy go through the session; the staging
    folder is not emptied first (`tree` deletes what the new site does not have)."""
    from mkdocs import utils
    from mkdocs.commands import build as mkdocs_build
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import _RelativePathTreeprocessor as Links
    from mkdocs.theme import Theme

    saved = (
        mkdocs_build._populate_page,
        mkdocs_build._build_page,
        Links.path_to_url,
        File.copy_file,
        utils.clean_directory,
        Files.add_files_from_theme,
        Theme.get_env,
    )
    watcher = _Warnings(session)
    logger = logging.getLogger("mkdocs")
    mkdocs_build._populate_page = session.populate(saved[0])
    mkdocs_build._build_page = session.build_page(saved[1])
    Links.path_to_url = session.path_to_url(saved[2])  # type: ignore[method-assign]
    File.copy_file = session.copy_file(saved[3])  # type: ignore[method-assign]
    utils.clean_directory = lambda directory: None
    Files.add_files_from_theme = session.theme_files(saved[5])  # type: ignore[method-assign]
    Theme.get_env = session.get_env(saved[6])  # type: ignore[method-assign]
    logger.addHandler(watcher)
    try:
        with htmlfeed.patched(*_parsers()), rawblocks.patched(), _search_sections():
            yield  # the same output, sooner
    finally:
        mkdocs_build._populate_page, mkdocs_build._build_page = saved[0], saved[1]
        Links.path_to_url = saved[2]  # type: ignore[method-assign]
        File.copy_file = saved[3]  # type: ignore[method-assign]
        utils.clean_directory = saved[4]
        Files.add_files_from_theme = saved[5]  # type: ignore[method-assign]
        Theme.get_env = saved[6]  # type: ignore[method-assign]
        logger.removeHandler(watcher)


def _search_sections() -> contextlib.AbstractContextManager[None]:
    """The theme's search plugin splits pages with `searchparser.Parser` (same sections)."""
    try:
        from atlas_build.site.mkdocs.speedups import searchparser
    except ImportError:  # no Material: its plugin is not there to patch
        return contextlib.nullcontext()
    return searchparser.patched()


def _parsers() -> list[type[Any]]:
    """The HTML parsers MkDocs runs on every page that `htmlfeed` may feed: the one that
    collects a page's anchor ids and the search plugin's (when it is the theme's)."""
    from mkdocs.structure.pages import _HTMLHandler

    found: list[type[Any]] = [_HTMLHandler]
    with contextlib.suppress(ImportError):
        from material.plugins.search.plugin import Parser

        found.append(Parser)
    return found
