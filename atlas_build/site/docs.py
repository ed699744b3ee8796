"""The docs tree MkDocs lays out: every page and file, generated in memory, then synced.

`generate_docs` turns a check's report and lessons into `{path: bytes}` (markdown
pages, figure SVGs, the stylesheet) plus the site stage's own findings. `write_tree`
makes a directory hold exactly that tree: changed files are rewritten atomically,
unchanged ones keep their mtime (so `mkdocs serve` only reloads what changed), and
files of lessons that no longer exist are removed.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from atlas_build import paths, pipeline
from atlas_build.atomic import write_bytes
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.diagnostics import Diagnostic, Location, Severity, at
from atlas_build.report import Report
from atlas_build.site import codes, indexes, lesson, mutation, pagecache, reference, summary
from atlas_build.workers import pool as workers_pool

ASSETS = {
    "assets/atlas.css": "assets/atlas.css",
    "assets/latinmodern-math.otf": "vendor/latinmodern-math.otf",
    "assets/latinmodern-math-LICENSE.txt": "vendor/GUST-FONT-LICENSE.txt",
}


MARKER = ".atlas-build-docs"  # MkDocs skips dotfiles, so this never becomes a page


@dataclass
class DocsTree:
    files: dict[str, bytes] = field(default_factory=dict)
    pages: dict[str, lesson.LessonPage] = field(default_factory=dict)  # by slug
    diagnostics: list[Diagnostic] = field(default_factory=list)  # added by the site stage

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8")


def _publishable(item: pipeline.Checked) -> bool:
    """A lesson whose record loaded and passed the schema (load-stage errors are A1xx)."""
    return bool(item.report.id) and not any(
        d.severity is Severity.ERROR and d.code.startswith("A1") for d in item.report.diagnostics
    )


def _page_key(item: pipeline.Checked, linkable: str) -> str | None:
    """A lesson page depends on its file, its check result (the digest of the report as
    cached, `Checked.digest`: serialising the report again per page took 1.4 s of a
    1,000-lesson build) and the lessons it may link to (`linkable`: one digest of their
    slugs, not a thousand parts per page)."""
    try:
        raw = item.found.path.read_bytes()
    except OSError:
        return None
    result = item.digest or json.dumps(item.report.to_json(), sort_keys=True, ensure_ascii=False)
    return digest(fingerprint(), "page", raw, result, linkable)


def _cached_page(key: str | None, store: Cache, item: pipeline.Checked) -> lesson.LessonPage | None:
    if key is None or (payload := store.get("page", key)) is None:
        return None
    return pagecache.load(payload, item.report)


def render_page(
    item: pipeline.Checked, slugs: frozenset[str], options: pipeline.Options
) -> lesson.LessonPage | None:
    """Render one lesson page; None for a lesson that cannot be published."""
    if not _publishable(item):
        return None
    if item.source is None:
        pipeline.materialize(item, options)
    if item.source is None or item.record is None:
        return None
    report = copy.copy(item.report)  # the page's own findings are merged by the caller
    return lesson.build(item.source, item.record, report, slugs, Cache(options.cache_dir))


@dataclass(frozen=True)
class PageFailure:
    """A page whose rendering raised: reported as that lesson's A505, never a crash."""

    message: str


def _render_page(
    job: tuple[pipeline.Checked, frozenset[str], pipeline.Options],
) -> lesson.LessonPage | PageFailure | None:
    try:
        return render_page(*job)
    except Exception as error:  # one lesson's page must not take the site down
        return PageFailure(f"the page could not be rendered: {type(error).__name__}: {error}")


def _made_page(item: pipeline.Checked, slugs: frozenset[str]) -> lesson.LessonPage | None:
    """The page the check's worker rendered, if it saw the same set of linkable lessons."""
    made = item.made
    page = getattr(made, "page", None)
    if isinstance(page, lesson.LessonPage) and getattr(made, "slugs", None) == slugs:
        return page
    return None


def _render_pages(
    jobs: list[tuple[pipeline.Checked, frozenset[str], pipeline.Options]], workers: int
) -> list[lesson.LessonPage | PageFailure | None]:
    """Math and figures make rendering the slow part of a cold build: share it out."""
    workers = max(1, min(workers, len(jobs)))
    if workers == 1:
        return [_render_page(job) for job in jobs]
    with workers_pool(workers) as pool:
        return list(pool.map(_render_page, jobs, chunksize=max(1, len(jobs) // (workers * 8))))


def _lesson_pages(
    checked: list[pipeline.Checked],
    slugs: frozenset[str],
    options: pipeline.Options,
    memo: dict[str, lesson.LessonPage] | None = None,
) -> dict[int, lesson.LessonPage]:
    """Pages by lesson index, reused from `memo` (pages this process made, by key) or the
    cache when nothing they depend on changed; `memo` is left holding this round's pages."""
    store = Cache(options.cache_dir)
    remembered = dict(memo or {})
    linkable = digest("slugs", *sorted(slugs))
    keys: dict[int, str | None] = {}
    pages: dict[int, lesson.LessonPage] = {}
    for index, item in enumerate(checked):
        if not _publishable(item):
            continue
        keys[index] = _page_key(item, linkable) if store.enabled else None
        known = remembered.get(keys[index] or "")
        cached = copy.copy(known) if known is not None else _cached_page(keys[index], store, item)
        if cached is None and (cached := _made_page(item, slugs)) is not None:
            if keys[index] is not None:
                store.put("page", str(keys[index]), pagecache.dump(cached))
        if cached is not None:
            pages[index] = cached
    missing = [index for index in keys if index not in pages]
    rendered = _render_pages([(checked[i], slugs, options) for i in missing], options.jobs)
    for index, page in zip(missing, rendered, strict=True):
        if isinstance(page, PageFailure):
            failed = at(codes.PAGE, Location(checked[index].report.path, 1, 1), page.message)
            report = checked[index].report
            report.diagnostics = sorted([*report.diagnostics, failed], key=Diagnostic.sort_key)
            continue
        if page is None:
            continue
        key = keys[index]
        if key is not None:
            store.put("page", key, pagecache.dump(page))
        pages[index] = page
    if memo is not None:
        memo.clear()
        memo.update({str(keys[i]): copy.copy(page) for i, page in pages.items() if keys.get(i)})
    for index, page in pages.items():
        report = checked[index].report
        page.report = report
        if page.added:
            report.diagnostics = sorted(report.diagnostics + page.added, key=Diagnostic.sort_key)
    return pages


def generate_docs(
    report: Report,
    checked: list[pipeline.Checked],
    *,
    options: pipeline.Options | None = None,
    memo: dict[str, lesson.LessonPage] | None = None,
    selftest: mutation.Results | None = None,
) -> DocsTree:
    """All pages of the site. Site findings (LaTeX errors, ...) go into `report` too.
    `memo`: lesson pages of an earlier call in this process (`serve`), see `_lesson_pages`;
    `selftest`: what `--selftest` read, for the Selftest page."""
    options = options or pipeline.Options()
    tree = DocsTree()
    slugs = frozenset(
        paths.publish_slug(item.report.slug, str(item.report.id))
        for item in checked
        if _publishable(item)
    )
    entries: list[indexes.Entry] = []
    pages = _lesson_pages(checked, slugs, options, memo)
    for index, item in enumerate(checked):
        page = pages.get(index)
        if page is not None:
            tree.diagnostics += page.added
            if page.slug in tree.pages:
                page.slug = f"{page.slug}-{len(tree.pages)}"
            tree.pages[page.slug] = page
            tree.files[f"{page.directory}/index.md"] = page.text.encode("utf-8")
            for name, data in page.files.items():
                tree.files[f"{page.directory}/{name}"] = data
        record = page.record if page is not None else None
        title = record.title if record else (item.report.id or item.report.path)
        topic = record.topic if record else "Not published"
        category = record.category if record else "errors"
        entries.append(indexes.Entry(item.report, page, title, topic, category))
    entries.sort(key=lambda e: (e.topic.casefold(), e.title.casefold(), e.report.path))
    topics = indexes.topic_slugs(entries)
    tree.files["index.md"] = indexes.home(entries, topics, report).encode("utf-8")
    tree.files["topics/index.md"] = indexes.topics_index(entries, topics).encode("utf-8")
    for topic, slug in topics.items():
        text = indexes.topic_page(topic, slug, entries)
        tree.files[f"topics/{slug}/index.md"] = text.encode("utf-8")
    tree.files["report/index.md"] = summary.report_page(entries, report).encode("utf-8")
    tree.files["codes/index.md"] = reference.page().encode("utf-8")
    tree.files[f"{mutation.HERE}/index.md"] = mutation.page(selftest, entries).encode("utf-8")
    package = resources.files("atlas_build.site")
    for target, name in ASSETS.items():
        tree.files[target] = (package / name).read_bytes()
    return tree


class DocsDirError(Exception):
    """The docs directory holds files atlas-build did not generate; nothing was touched."""


Written = dict[str, tuple[str, int, int]]
"""A docs file as this process left it: sha256 of its bytes, mtime (ns) and size."""


def write_tree(
    tree: DocsTree,
    root: str | os.PathLike[str],
    *,
    written: Written | None = None,
    sources: dict[str, str] | None = None,
) -> list[str]:
    """Make `root` hold exactly `tree.files` (see module docstring); the paths it wrote
    or deleted.

    Stale files are deleted, so a folder is only synced when it is empty or carries the
    marker file of an earlier generation (`--docs-dir .` must not wipe a checkout).
    `written` (kept by `serve`, updated here) with `sources` (the files' sha256) skips
    reading back a file whose digest, mtime and size are what this process wrote last.
    """
    base = Path(root)
    if base.is_dir() and any(base.iterdir()) and not (base / MARKER).is_file():
        raise DocsDirError(f"{base}/ has files atlas-build did not generate; not writing there")
    base.mkdir(parents=True, exist_ok=True)
    write_bytes(base / MARKER, b"generated by atlas-build; every file here is rewritten\n")
    folder = paths.Root(base)
    changed = [
        relative
        for relative, data in tree.files.items()
        if not _unchanged(base, relative, written, sources)
        and write_bytes(folder.inside(relative), data)
    ]
    if written is not None and sources is not None:
        _remember(written, base, sources)
    return changed + _remove_stale(base, set(tree.files) | {MARKER})


def _remove_stale(base: Path, wanted: set[str]) -> list[str]:
    """Delete the files of `base` not `wanted` (relative paths) and the folders left empty;
    by relative strings, not a `Path` per file of a thousand-lesson tree."""
    removed: list[str] = []
    kept: set[str] = set()  # folders (relative) that still hold something
    for here, dirs, names in os.walk(base, topdown=False):
        where = os.path.relpath(here, base)
        prefix = "" if where == "." else f"{where}/"
        for name in names:
            if prefix + name in wanted:
                kept.add(where)
            else:
                os.unlink(os.path.join(here, name))
                removed.append(prefix + name)
        for name in dirs:
            if prefix + name in kept:
                kept.add(where)
            else:
                with contextlib.suppress(OSError):  # a link, or a file that just appeared
                    os.rmdir(os.path.join(here, name))
    return removed


def _unchanged(
    base: Path, relative: str, written: Written | None, sources: dict[str, str] | None
) -> bool:
    """This process wrote these bytes there, and the file was not touched since. (Only
    paths written before get here: `write_bytes` went through `paths.Root.inside`.)"""
    known = written.get(relative) if written is not None and sources is not None else None
    if known is None or sources is None or known[0] != sources.get(relative):
        return False
    try:
        info = os.stat(os.path.join(base, relative))
    except OSError:
        return False
    return (info.st_mtime_ns, info.st_size) == known[1:]


def _remember(written: Written, base: Path, sources: dict[str, str]) -> None:
    written.clear()
    for relative, sha in sources.items():
        with contextlib.suppress(OSError):
            info = os.stat(os.path.join(base, relative))
            written[relative] = (sha, info.st_mtime_ns, info.st_size)
