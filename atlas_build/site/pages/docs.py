"""The docs tree MkDocs lays out: every page and file, generated in memory.

`generate_docs` turns a check's report and lessons into `{path: bytes}` (markdown
pages, figure SVGs, the stylesheet) plus the site stage's own findings; lesson pages
come from this process's memo, the page ledger (the docs folder holds them already) or
the cache when nothing they depend on changed, else they are rendered, in `-j` workers.
The driver writes the tree to the docs folder (`mkdocs.docsfolder`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from atlas_build import outputcodes as codes
from atlas_build import paths, pipeline, published
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.diagnostics import Diagnostic, Location, Severity, at
from atlas_build.report import Report
from atlas_build.site.pages import indexes, lesson, mutation, pagecache, reference, summary
from atlas_build.site.pages.pageledger import Ledger, PageHead, head_of
from atlas_build.workers import pool as workers_pool

ASSETS = {
    "assets/atlas.css": "assets/atlas.css",
    "assets/latinmodern-math.otf": "vendor/latinmodern-math.otf",
    "assets/latinmodern-math-LICENSE.txt": "vendor/GUST-FONT-LICENSE.txt",
}


@dataclass
class DocsTree:
    """The generated files (`files`), and those the docs folder already holds as they must
    be (`kept`, path -> sha256, see `pageledger`); lesson pages by slug."""

    files: dict[str, bytes] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)
    pages: dict[str, PageHead] = field(default_factory=dict)  # by slug
    full: dict[str, lesson.LessonPage] = field(default_factory=dict)  # those made or read
    diagnostics: list[Diagnostic] = field(default_factory=list)  # added by the site stage
    ledger: Ledger | None = None
    written: list[tuple[str, PageHead, dict[str, str]]] = field(default_factory=list)

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8")

    def sources(self) -> dict[str, str]:
        """sha256 of every file of the tree: MkDocs' sources."""
        return {**digests(self.files), **self.kept}

    def page(self, slug: str) -> lesson.LessonPage | None:
        """A lesson page whole (loaded again when only its head was read)."""
        if slug in self.full:
            return self.full[slug]
        head = self.pages.get(slug)
        return head.load() if head is not None and head.load is not None else None

    def settle(self) -> None:
        """After `write_tree`: remember the pages written, for the next build's ledger."""
        if self.ledger is None:
            return
        for key, head, shas in self.written:
            self.ledger.wrote(key, head, shas)
        self.ledger.save()


def _publishable(item: pipeline.Checked) -> bool:
    """A lesson whose record loaded and passed the schema (load-stage errors are A1xx),
    at an address no other lesson has (`published`)."""
    return (
        bool(item.report.id)
        and not published.refused(item.report)
        and not any(
            d.severity is Severity.ERROR and d.code.startswith("A1")
            for d in item.report.diagnostics
        )
    )


def _page_key(item: pipeline.Checked, linkable: str) -> str | None:
    """A lesson page depends on its file (the digest the check took of its bytes), its
    check result (the digest of the report as cached, `Checked.digest`: serialising the
    report again per page took 1.4 s of a 1,000-lesson build) and the lessons it may link
    to (`linkable`: one digest of their slugs, not a thousand parts per page)."""
    file_digest = item.file_digest
    if file_digest is None:
        try:
            file_digest = digest(item.found.path.read_bytes())
        except OSError:
            return None
    result = item.digest or json.dumps(item.report.to_json(), sort_keys=True, ensure_ascii=False)
    return digest(fingerprint(), "page", file_digest, result, linkable)


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
    return lesson.build(
        item.source, item.record, report, slugs, Cache(options.cache_dir), model=item.lesson
    )


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


Found = dict[int, lesson.LessonPage | tuple[str, PageHead, dict[str, str]]]
"""A lesson page by lesson index: whole, or (its key, head, files) when the docs folder
holds it already (`pageledger`)."""


def _lesson_pages(
    checked: list[pipeline.Checked],
    slugs: frozenset[str],
    options: pipeline.Options,
    memo: dict[str, lesson.LessonPage] | None = None,
    ledger: Ledger | None = None,
) -> tuple[Found, dict[int, str]]:
    """Pages by lesson index, reused from `memo` (pages this process made, by key), the
    ledger or the cache when nothing they depend on changed; `memo` is left holding this
    round's pages. Also each page's key."""
    store = Cache(options.cache_dir)
    remembered = dict(memo or {})
    linkable = digest("slugs", *sorted(slugs))
    keys: dict[int, str | None] = {}
    pages: Found = {}
    for index, item in enumerate(checked):
        if not _publishable(item):
            continue
        key = keys[index] = _page_key(item, linkable) if store.enabled else None
        known = remembered.get(key or "")
        if known is None and key is not None and ledger is not None:
            held = ledger.find(key)
            if held is not None:
                head, shas = held
                head.load = _loader(key, store, item, slugs, options)
                pages[index] = key, head, shas
                continue
        cached = copy.copy(known) if known is not None else _cached_page(key, store, item)
        if cached is None and (cached := _made_page(item, slugs)) is not None:
            if key is not None:
                store.put("page", key, pagecache.dump(cached))
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
        memo.update(
            {
                str(keys[i]): copy.copy(page)
                for i, page in pages.items()
                if keys.get(i) and isinstance(page, lesson.LessonPage)
            }
        )
    for index, each in pages.items():
        report = checked[index].report
        added = each.added if isinstance(each, lesson.LessonPage) else each[1].added
        if isinstance(each, lesson.LessonPage):
            each.report = report
        if added:
            report.diagnostics = sorted(report.diagnostics + added, key=Diagnostic.sort_key)
    return pages, {index: key for index, key in keys.items() if key is not None}


def _loader(
    key: str,
    store: Cache,
    item: pipeline.Checked,
    slugs: frozenset[str],
    options: pipeline.Options,
) -> Callable[[], lesson.LessonPage | None]:
    """The whole page of a lesson the ledger vouched for: from the cache, else rendered."""

    def load() -> lesson.LessonPage | None:
        page = _cached_page(key, store, item)
        if page is None:
            made = _render_page((item, slugs, options))
            page = made if isinstance(made, lesson.LessonPage) else None
        if page is not None:
            page.report = item.report
        return page

    return load


def generate_docs(
    report: Report,
    checked: list[pipeline.Checked],
    *,
    options: pipeline.Options | None = None,
    memo: dict[str, lesson.LessonPage] | None = None,
    selftest: mutation.Results | None = None,
    docs_dir: Path | None = None,
) -> DocsTree:
    """All pages of the site. Site findings (LaTeX errors, ...) go into `report` too.
    `memo`: lesson pages of an earlier call in this process (`serve`), see `_lesson_pages`;
    `selftest`: what `--selftest` read, for the Selftest page; `docs_dir`: the folder the
    tree will be written to, whose page ledger says which pages it holds already."""
    options = options or pipeline.Options()
    store = Cache(options.cache_dir)
    ledger = Ledger(store, docs_dir) if docs_dir is not None and store.enabled else None
    tree = DocsTree(ledger=ledger)
    slugs = frozenset(
        paths.publish_slug(item.report.slug, str(item.report.id))
        for item in checked
        if _publishable(item)
    )
    entries: list[indexes.Entry] = []
    pages, keys = _lesson_pages(checked, slugs, options, memo, ledger)
    for index, item in enumerate(checked):
        found = pages.get(index)
        head = _place(tree, found, keys.get(index)) if found is not None else None
        title = head.title if head else (item.report.id or item.report.path)
        topic = head.topic if head else "Not published"
        category = head.category if head else "errors"
        entries.append(indexes.Entry(item.report, head, title, topic, category))
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


def _place(
    tree: DocsTree,
    found: lesson.LessonPage | tuple[str, PageHead, dict[str, str]],
    key: str | None,
) -> PageHead:
    """Put a lesson page into the tree under its slug (no two published lessons share
    one: `published`); its head."""
    if not isinstance(found, lesson.LessonPage):
        _, head, shas = found
        tree.diagnostics += head.added
        tree.pages[head.slug] = head
        tree.kept.update(shas)
        return head
    page = found
    tree.diagnostics += page.added
    head = head_of(page)
    tree.pages[page.slug] = head
    tree.full[page.slug] = page
    written = {f"{page.directory}/index.md": page.text.encode("utf-8")}
    for name, data in page.files.items():
        written[f"{page.directory}/{name}"] = data
    tree.files.update(written)
    if key is not None:
        tree.written.append((key, head, digests(written)))
    return head


def digests(files: dict[str, bytes]) -> dict[str, str]:
    """sha256 of every file of the docs tree: MkDocs' sources."""
    return {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
