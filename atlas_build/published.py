"""Where each lesson is published, and lessons that would be published at one address.

A lesson's page is `/lessons/<slug>/` (its folder's name when that is a plain slug, else
its id: `paths.publish_slug`) and its record is `records/<id>.json`. Two lessons with one
slug or one id would write the same files: the site moved the second page to `<slug>-1`
without a word, and the first lesson's data was deleted as the second's stale file. So a
check reports every such lesson (A509, naming the others), and neither is published.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from atlas_build import load, paths
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.outputcodes import PUBLISHED_TWICE
from atlas_build.report import RecordReport

if TYPE_CHECKING:
    from atlas_build.pipeline import Checked


def mark(checked: list[Checked], max_bytes: int = load.DEFAULT_MAX_BYTES) -> None:
    """Add an A509 to each lesson that shares its page or its record with another."""
    pages: dict[str, list[int]] = {}
    records: dict[str, list[int]] = {}
    for index, item in enumerate(checked):
        identifier = item.report.id
        if paths.is_slug(identifier):
            assert identifier is not None
            pages.setdefault(paths.publish_slug(item.report.slug, identifier), []).append(index)
            records.setdefault(identifier, []).append(index)
    told: set[int] = set()
    for address, groups in (("/lessons/{}/", pages), ("records/{}.json", records)):
        for name, members in groups.items():
            for index in members if len(members) > 1 else ():
                if index in told:
                    continue
                told.add(index)
                others = [checked[other].report.path for other in members if other != index]
                report = checked[index].report
                message = (
                    f"this lesson and {', '.join(others)} would both be published at "
                    f"{address.format(name)}; rename a folder or change an id (neither is "
                    "published)"
                )
                where = _where(checked[index], address == "records/{}.json", max_bytes)
                report.diagnostics = sorted(
                    [*report.diagnostics, at(PUBLISHED_TWICE, where, message)],
                    key=Diagnostic.sort_key,
                )


def _where(item: Checked, by_id: bool, max_bytes: int) -> Location:
    """The lesson's `id` when it is what names the address; else where its file starts
    (the folder's name names the page)."""
    report = item.report
    if not by_id and paths.is_slug(report.slug):
        return Location(report.path, 1, 1)
    source = item.source or load.read(item.found, max_bytes=max_bytes)
    return source.locator.pointer("/id")


def refused(report: RecordReport) -> bool:
    """The lesson shares an address with another (A509): it is not published."""
    return any(diagnostic.code == PUBLISHED_TWICE.code for diagnostic in report.diagnostics)
