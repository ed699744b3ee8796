"""related/supersedes/supersededBy must name lessons in the checked set."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject

STAGE = "integrity"
UNKNOWN = define(
    "A240",
    "unknown-lesson-reference",
    Severity.WARNING,
    "related, supersedes or supersededBy names a lesson id that is not among the checked lessons.",
    example='"related": ["atlas-lesson-embeding"]',
    fix="Correct the id, or check the referenced lesson together with this one.",
    stage=STAGE,
)
SELF = define(
    "A241",
    "self-reference",
    Severity.ERROR,
    "A lesson lists itself in related, supersedes or supersededBy.",
    example='"supersedes": ["atlas-lesson-attention"] in that very lesson',
    fix="Remove the id.",
    stage=STAGE,
)


@RULES.rule("references", order=60)
def check(subject: Subject) -> Iterator[Diagnostic]:
    record = subject.record
    for field in ("related", "supersedes", "supersededBy"):
        for index, lesson_id in enumerate(getattr(record, field)):
            where = subject.at(f"/{field}/{index}")
            if lesson_id == record.id:
                yield at(SELF, where, f"{field} lists the lesson itself ({lesson_id})")
            elif lesson_id not in subject.known_ids:
                yield at(UNKNOWN, where, f"{field} names {lesson_id!r}, not a checked lesson")
