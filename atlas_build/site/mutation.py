"""The Selftest page: per lesson, how many single edits its checks catch, and the
survivors (edits no check notices), from `atlas-build selftest --format json`.

Selftest runs the whole pipeline once per mutant, so the site does not run it; `build
--selftest FILE` reads its JSON. That file is as untrusted as any other in a lesson
repository: it is size-capped, every field is type-checked before use and every text
escaped, and a result whose `contentHash` is not the published lesson's is shown as
stale rather than as the lesson's. Without a file the page says how to make one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from atlas_build.site.html import badge, block, esc, front_matter
from atlas_build.site.indexes import Entry, lesson_link

HERE = "selftest"
MAX_BYTES = 16 * 1024 * 1024
SHOWN = 200  # survivors listed per lesson; the rest are counted
HOW = (
    "<code>atlas-build selftest content/ --format json &gt; build/selftest.json</code>, then "
    "<code>atlas-build build content/ --selftest build/selftest.json</code> "
    "(<code>make site</code> does both)"
)


@dataclass
class Results:
    lessons: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None  # why the file could not be used


def read(path: str | os.PathLike[str] | None) -> Results | None:
    """The lessons of a selftest JSON file; None when no file was named."""
    if path is None:
        return None
    file = Path(path)
    try:
        if file.stat().st_size > MAX_BYTES:
            return Results(problem=f"{file} is over {MAX_BYTES // 2**20} MiB")
        data = json.loads(file.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        return Results(problem=f"{file}: {type(error).__name__}: {error}")
    lessons = data.get("lessons") if isinstance(data, dict) else None
    if not isinstance(lessons, list):
        return Results(problem=f"{file}: not selftest JSON (no `lessons` list)")
    return Results([lesson for lesson in lessons if isinstance(lesson, dict)])


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _survivor(item: object) -> str:
    item = item if isinstance(item, dict) else {}
    where = f"{_int(item.get('line'))}:{_int(item.get('column'))}"
    edit = f"<code>{esc(_text(item.get('original')))}</code> → "
    edit += f"<code>{esc(_text(item.get('replacement')))}</code>"
    return (
        f"<tr><td>{esc(where)}</td><td>{esc(_text(item.get('kind')))}</td>"
        f"<td>{esc(_text(item.get('description')))}</td><td>{edit}</td></tr>"
    )


def _lesson(index: int, result: dict[str, Any], entry: Entry | None) -> tuple[str, str]:
    """(summary row, details section) of one lesson's result."""
    total, killed = _int(result.get("mutants")), _int(result.get("killed"))
    listed = result.get("survivors")
    survivors: list[Any] = listed if isinstance(listed, list) else []
    name = lesson_link(entry, HERE) if entry else esc(_text(result.get("path")))
    published = entry.page.content_hash if entry and entry.page else None
    stale = published is not None and result.get("contentHash") != published
    if _int(result.get("baselineErrors")):
        state = badge("fail", "lesson has errors")
    elif stale:
        state = badge("warning", "stale")
    else:
        state = badge("pass" if killed == total else "warning", f"{killed} of {total} killed")
    rate = f"{100 * killed / total:.1f}%" if total else "–"
    counted = result.get("kills")
    kills: dict[Any, Any] = counted if isinstance(counted, dict) else {}
    by_kind = ", ".join(f"{esc(str(k))} {_int(v)}" for k, v in sorted(kills.items()))
    anchor = f"selftest-{entry.page.slug}" if entry and entry.page else f"selftest-{index}"
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
        by_path = {entry.report.path: entry for entry in entries}
        parts = [
            _lesson(index, result, by_path.get(_text(result.get("path"))))
            for index, result in enumerate(r for r in results.lessons if isinstance(r, dict))
        ]
        head = "".join(
            f"<th>{name}</th>"
            for name in ("Lesson", "Status", "Kill rate", "Survivors", "Killed by kind", "")
        )
        rows = "\n".join(row for row, _ in parts)
        body = (
            intro
            + f'<div class="atlas-findings"><table><thead><tr>{head}</tr></thead><tbody>\n'
            + f"{rows}\n</tbody></table></div>"
            + "".join(section for _, section in parts)
        )
    return (
        front_matter({"title": "Selftest", "search": {"exclude": True}})
        + "\n# Selftest\n\n"
        + block(body, "atlas-report")
    )
