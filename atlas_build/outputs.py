"""What a build makes from each lesson: its published record and its site page.

Both need the lesson's parsed source, record and lesson model, which the check has
just built in its worker process. `make` runs there (as `pipeline.check`'s `after`),
so a cold build reads, validates and parses every lesson once, and the rendering is
shared out over the same workers. Lessons whose check came from the cache get their
record and page from the cache too (see `cli._emit` and `site.docs`).

The output folders are in the working tree, where a pull request can commit a link:
`refused` says which named folder is (or lies under) a link before anything is written,
the folders made inside `--out` are replaced when they are links, and after a build
`records/` and `lesson-data/` hold exactly the files of its lessons.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from atlas_build import cache as caching
from atlas_build import paths, pipeline, published
from atlas_build.diagnostics import Diagnostic, Location, Severity, at
from atlas_build.outputcodes import OUTPUT_LINK

if TYPE_CHECKING:
    from atlas_build.authoring.emit import Rendered
    from atlas_build.site.pages.lesson import LessonPage


@dataclass
class Made:
    slugs: frozenset[str]  # the lessons the page may link to when it was rendered
    emitted: Rendered | None = None
    page: LessonPage | None = None


def make(
    checked: pipeline.Checked,
    slugs: frozenset[str],
    options: pipeline.Options,
    site: bool,
    allow_errors: bool = False,
) -> Made:
    """The lesson's record and page. A lesson with errors gets no page unless the build
    publishes errors (`--allow-errors`): the site would not be built anyway, and rendering
    work (figures above all) is only ever done for what `check` accepted or the user asked
    for. A page that fails here is left to the site stage, which renders it again and
    reports the failure as a finding of that lesson."""
    from atlas_build import paths
    from atlas_build.authoring import emit

    made = Made(slugs)
    source, record, lesson = checked.source, checked.record, checked.lesson
    if source is None or record is None or lesson is None or source.data is None:
        return made
    made.emitted = emit.render(
        record, source.data, lesson, paths.publish_slug(source.slug, record.id)
    )
    if site and (allow_errors or not checked.report.count(Severity.ERROR)):
        from atlas_build.site.pages import docs

        try:
            made.page = docs.render_page(checked, slugs, options)
        except Exception:  # reported by the site stage, which renders it again
            made.page = None
    return made


LEDGER = "records-ledger"


class _Written:
    """What the last build wrote under an output folder, by lesson file: the emit key and,
    for its record and lesson data, the relative path and the stamp (inode, size, change
    time) it left. A lesson whose key and both stamps are unchanged is not read from the
    cache or compared byte by byte again: only the kernel sets a change time, so a file
    edited, replaced or committed since no longer matches and is rewritten."""

    def __init__(self, store: caching.Cache, out: Path) -> None:
        self.store, self.out = store, out
        self.key = caching.digest(LEDGER, str(out.resolve()))
        data = store.get_json(LEDGER, self.key)
        self.rows: dict[str, Any] = data if isinstance(data, dict) else {}
        self.kept: dict[str, list[Any]] = {}

    def _stamp(self, relative: str) -> list[int] | None:
        return paths.stamp(self.out / relative)

    def holds(self, lesson: str, key: str) -> bool:
        row = self.rows.get(lesson)
        if not (isinstance(row, list) and len(row) == 5 and row[0] == key):
            return False
        record, data = row[1], row[3]
        if not all(isinstance(p, str) and paths.is_relative(p) for p in (record, data)):
            return False
        if self._stamp(record) != row[2] or self._stamp(data) != row[4]:
            return False
        self.kept[lesson] = row
        return True

    def wrote(self, lesson: str, key: str, emitted: Any) -> None:
        record = emitted.record.relative_to(self.out).as_posix()
        data = emitted.lesson_data.relative_to(self.out).as_posix()
        self.kept[lesson] = [key, record, self._stamp(record), data, self._stamp(data)]

    def save(self) -> None:
        if self.kept != self.rows:
            self.store.put_json(LEDGER, self.key, self.kept)


def refused(folders: list[Path]) -> list[Diagnostic]:
    """A507 for each output folder that is a symbolic link or lies under one (the first
    link on its way is named), or that is not a folder: nothing may be written through
    a link a repository committed (`build -> /home/ci`)."""
    found: dict[str, Diagnostic] = {}  # by path: `build` is on the way to `build/docs` too
    for folder in folders:
        link = paths.first_link(folder)
        if link is not None:
            why = f"{link} is a symbolic link (to {os.readlink(link)})"
        elif os.path.lexists(folder) and not folder.is_dir():
            why = f"{folder} is not a folder"
        else:
            continue
        message = f"{why}; nothing is written through it: remove it or name another folder"
        where = str(link or folder)
        found.setdefault(where, at(OUTPUT_LINK, Location(where, 1, 1), message))
    return list(found.values())


LOCK = ".atlas-build.lock"


def lock_file(out: Path) -> Path:
    """The lock concurrent builds take turns on, as a plain file: a committed link there
    would have the lock opened, and truncated, at the link's target."""
    path = out / LOCK
    if os.path.lexists(path) and not (path.is_file() and not path.is_symlink()):
        _remove(path)
    return path


FOLDERS = ("records", "lesson-data")
_NAMES = {  # what `emit.write` names its files, and nothing else is swept
    "records": re.compile(rf"{paths.SLUG.pattern}\.json"),
    "lesson-data": re.compile(rf"{paths.SLUG.pattern}-[0-9a-f]{{16}}\.json"),
}


def write_records(checked: list[pipeline.Checked], options: pipeline.Options, out: Path) -> int:
    """Write every lesson's record and lesson data under `out`; the number written or
    found in place. Each is rendered once per lesson file (the `emit` cache entry). Then
    the files no lesson of this build produced are deleted: a lesson that was deleted or
    renamed went on being published."""
    for folder in FOLDERS:
        path = out / folder
        if os.path.lexists(path) and (path.is_symlink() or not path.is_dir()):
            _remove(path)  # made again by the first write, as a folder
    store, root = caching.Cache(options.cache_dir), paths.Root(out)
    ledger = _Written(store, out)
    written = sum(_emit(item, options, store, root, ledger) for item in checked)
    ledger.save()
    _remove_stale(out, {row[i] for row in ledger.kept.values() for i in (1, 3)})
    return written


def _remove_stale(out: Path, produced: set[str]) -> None:
    """Delete the records and lesson data in `out` that are not `produced` (relative
    paths). Names are matched literally against what `emit.write` writes, so another
    lesson's file, or a file someone else put there, is never taken for a stale one."""
    for folder, names in _NAMES.items():
        try:
            entries = list(os.scandir(out / folder))
        except OSError:
            continue
        for entry in entries:
            if (
                f"{folder}/{entry.name}" not in produced
                and names.fullmatch(entry.name)
                and entry.is_file(follow_symlinks=False)
            ):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _emit(
    item: pipeline.Checked,
    options: pipeline.Options,
    store: caching.Cache,
    root: paths.Root,
    ledger: _Written,
) -> int:
    from atlas_build.authoring import emit

    if published.refused(item.report):
        return 0
    lesson = str(item.found.path)
    if item.file_digest is not None:
        key = caching.digest(caching.fingerprint(), "emit", item.found.path.parent.name,
                             item.file_digest)  # fmt: skip
    else:
        try:
            raw = item.found.path.read_bytes()
        except OSError:
            return 0
        key = caching.digest(caching.fingerprint(), "emit", item.found.path.parent.name,
                             caching.digest(raw))  # fmt: skip
    if ledger.holds(lesson, key):
        return 1
    payload = store.get("emit", key)
    rendered = emit.Rendered.from_json(payload) if payload is not None else None
    if rendered is None:
        made = getattr(item.made, "emitted", None)
        if isinstance(made, emit.Rendered):
            rendered = made
        else:
            pipeline.materialize(item, options)
            source, record, model = item.source, item.record, item.lesson
            if source is None or record is None or model is None or source.data is None:
                return 0
            slug = paths.publish_slug(source.slug, record.id)
            rendered = emit.render(record, source.data, model, slug)
        store.put("emit", key, rendered.to_json())
    try:
        emitted = emit.write(rendered, root)
    except paths.UnsafePath as error:
        print(f"atlas-build: error: {item.report.path}: not written: {error}", file=sys.stderr)
        return 0
    ledger.wrote(lesson, key, emitted)
    return 1
