"""The Selftest page: per lesson, how many single edits its checks catch, and the
survivors (edits no check notices), from `atlas-build selftest --format json`.

Selftest runs the whole pipeline once per mutant, so the site does not run it; `build
--selftest FILE` reads its JSON. That file is as untrusted as any other in a lesson
repository (a 2 MiB file of empty entries once made a 48 MB page in a minute, a link to
/dev/zero ran out of memory, a FIFO never answered): it is read only when it is a regular
file of at most `MAX_BYTES` (no link is followed), through the strict JSON reader; every
value of every entry is checked before use, and an entry holding one selftest would not
write is left out with a located warning (A510); only results for lessons of this build
are shown, one per lesson, so the page grows with the site, not with the file. Every text
is escaped, and a result whose `contentHash` is not the published lesson's is shown as
stale rather than as the lesson's. Without a file the page says how to make one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from atlas_build import paths
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.load import jsonfile
from atlas_build.outputcodes import SELFTEST_FILE
from atlas_build.site.pages.html import badge, block, esc, front_matter
from atlas_build.site.pages.indexes import Entry, lesson_link
from atlas_build.source import pointer_segment

HERE = "selftest"
MAX_BYTES = 4 * 1024 * 1024
MAX_COUNT = 10**9  # mutants, kills and positions beyond this are not what selftest writes
WARNINGS = 20  # malformed entries told one by one; the rest are counted
SHOWN = 200  # survivors listed per lesson; the rest are counted
HOW = (
    "<code>atlas-build selftest content/ --format json &gt; build/selftest.json</code>, then "
    "<code>atlas-build build content/ --selftest build/selftest.json</code> "
    "(<code>make site</code> does both)"
)


@dataclass
class Results:
    lessons: list[dict[str, Any]] = field(default_factory=list)  # entries that passed `_fault`
    problem: str | None = None  # why the file could not be used
    warnings: list[Diagnostic] = field(default_factory=list)  # A510, located


def read(path: str | os.PathLike[str] | None) -> Results | None:
    """The usable lessons of a selftest JSON file, and a warning for everything else;
    None when no file was named."""
    if path is None:
        return None
    name = os.fspath(path)
    try:
        link = paths.first_link(name)
        if link is not None:
            raise paths.UnsafePath(f"{link} is a symbolic link; it is not followed")
        raw = paths.read_regular(name, MAX_BYTES)
    except paths.UnsafePath as error:
        return _unusable(Location(name, 1, 1), str(error))
    text, problems = jsonfile.decode(raw, name, max_bytes=MAX_BYTES)
    data = None
    if text is not None:
        data, problems = jsonfile.parse(text, name)
    if problems or text is None:
        first = problems[0]
        return _unusable(Location(name, first.line, first.column), first.message)
    listed = data.get("lessons") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return _unusable(Location(name, 1, 1), "not selftest JSON (no `lessons` list)")
    locator = jsonfile.JsonLocator(name, text)
    results, left_out = Results(), 0
    for index, entry in enumerate(listed):
        fault = _fault(entry)
        if fault is None:
            results.lessons.append(entry)
        elif len(results.warnings) < WARNINGS:
            where, why = fault
            location = locator.pointer(f"/lessons/{index}{where}")
            message = f"/lessons/{index}{where}: {why}; the entry is left out"
            results.warnings.append(at(SELFTEST_FILE, location, message))
        else:
            left_out += 1
    if left_out:
        message = f"{left_out} more malformed entries are left out"
        results.warnings.append(at(SELFTEST_FILE, Location(name, 1, 1), message))
    return results


def _unusable(where: Location, why: str) -> Results:
    message = f"--selftest: {why}; the Selftest page has no results"
    return Results(problem=why, warnings=[at(SELFTEST_FILE, where, message)])


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


SURVIVOR_TEXTS = ("kind", "description", "original", "replacement")


def _fault(entry: object) -> tuple[str, str] | None:
    """Where an entry differs from what `selftest --format json` writes, and how: (a JSON
    pointer below the entry, the problem); None for an entry the page can show."""
    if not isinstance(entry, dict):
        return "", "not an object"
    if not isinstance(entry.get("path"), str):
        return "/path", "not a path"
    for key in ("mutants", "killed", "baselineErrors"):
        if not _count(entry.get(key)):
            return f"/{key}", f"not a count (0 to {MAX_COUNT:,})"
    if entry["killed"] > entry["mutants"]:
        return "/killed", "more mutants killed than made"
    if not isinstance(entry.get("contentHash"), str | None):
        return "/contentHash", "not a hash"
    kills = entry.get("kills")
    if not isinstance(kills, dict):
        return "/kills", "not an object"
    for kind, number in kills.items():
        if not _count(number):
            return f"/kills/{pointer_segment(kind)}", "not a count"
    survivors = entry.get("survivors")
    if not isinstance(survivors, list):
        return "/survivors", "not a list"
    for place, item in enumerate(survivors):
        if not isinstance(item, dict):
            return f"/survivors/{place}", "not an object"
        for key in ("line", "column"):
            if not _count(item.get(key)):
                return f"/survivors/{place}/{key}", "not a position"
        for key in SURVIVOR_TEXTS:
            if not isinstance(item.get(key), str):
                return f"/survivors/{place}/{key}", "not a text"
    return None


def _survivor(item: dict[str, Any]) -> str:
    edit = f"<code>{esc(item['original'])}</code> → <code>{esc(item['replacement'])}</code>"
    return (
        f"<tr><td>{item['line']}:{item['column']}</td><td>{esc(item['kind'])}</td>"
        f"<td>{esc(item['description'])}</td><td>{edit}</td></tr>"
    )


def _lesson(index: int, result: dict[str, Any], entry: Entry) -> tuple[str, str]:
    """(summary row, details section) of one lesson's result (checked by `_fault`)."""
    total, killed, survivors = result["mutants"], result["killed"], result["survivors"]
    name = lesson_link(entry, HERE)
    stale = entry.page is not None and result["contentHash"] != entry.page.content_hash
    if result["baselineErrors"]:
        state = badge("fail", "lesson has errors")
    elif stale:
        state = badge("warning", "stale")
    else:
        state = badge("pass" if killed == total else "warning", f"{killed} of {total} killed")
    rate = f"{100 * killed / total:.1f}%" if total else "–"
    by_kind = ", ".join(f"{esc(str(k))} {v}" for k, v in sorted(result["kills"].items()))
    anchor = f"selftest-{entry.page.slug}" if entry.page else f"selftest-{index}"
    row = (
        f"<tr><td>{name}</td><td>{state}</td><td>{rate}</td><td>{len(survivors)}</td>"
        f"<td><small>{by_kind}</small></td>"
        f'<td><a href="#{esc(anchor)}">survivors</a></td></tr>'
    )
    note = ""
    if stale:
        note = "<p>The lesson changed after this selftest ran; the survivors may have moved.</p>"
    if not survivors:
        details = "<p>Every mutant was caught.</p>"
    else:
        rows = "\n".join(_survivor(item) for item in survivors[:SHOWN])
        more = len(survivors) - SHOWN
        details = (
            '<div class="atlas-findings"><table><thead><tr><th>Line:col</th><th>Kind</th>'
            f"<th>Edit no check caught</th><th>Text</th></tr></thead><tbody>\n{rows}\n"
            "</tbody></table></div>" + (f"<p>… and {more} more.</p>" if more > 0 else "")
        )
    section = f'<h2 id="{esc(anchor)}">{name}</h2>{note}{details}'
    return row, section


def _shown(
    results: Results, entries: list[Entry]
) -> tuple[list[tuple[dict[str, Any], Entry]], int]:
    """The first result of each lesson of this build, and how many results are for
    lessons it does not have (or repeat one)."""
    by_path = {entry.report.path: entry for entry in entries}
    shown: dict[str, tuple[dict[str, Any], Entry]] = {}
    for result in results.lessons:
        entry = by_path.get(result["path"])
        if entry is not None and result["path"] not in shown:
            shown[result["path"]] = result, entry
    return list(shown.values()), len(results.lessons) - len(shown)


def page(results: Results | None, entries: list[Entry]) -> str:
    """The Selftest page of the site."""
    intro = (
        "<p>Selftest edits each lesson one place at a time (a digit, a sign, an operator, "
        "a quiz answer, a quoted sentence, an equation's dimensions) and checks every edit "
        "with the full pipeline. A mutant is <em>killed</em> when the check reports an "
        "error; a <em>survivor</em> is an edit nothing in the lesson's checks notices.</p>"
    )
    if results is None:
        body = intro + f"<p>This build has no selftest results: run {HOW}.</p>"
    elif results.problem is not None:
        body = intro + f"<p>The selftest results could not be read: {esc(results.problem)}.</p>"
    else:
        shown, other = _shown(results, entries)
        parts = [_lesson(index, result, entry) for index, (result, entry) in enumerate(shown)]
        head = "".join(
            f"<th>{name}</th>"
            for name in ("Lesson", "Status", "Kill rate", "Survivors", "Killed by kind", "")
        )
        rows = "\n".join(row for row, _ in parts)
        body = (
            intro
            + f'<div class="atlas-findings"><table><thead><tr>{head}</tr></thead><tbody>\n'
            + f"{rows}\n</tbody></table></div>"
            + (f"<p>{other} results are for lessons this site does not have.</p>" if other else "")
            + "".join(section for _, section in parts)
        )
    return (
        front_matter({"title": "Selftest", "search": {"exclude": True}})
        + "\n# Selftest\n\n"
        + block(body, "atlas-report")
    )
