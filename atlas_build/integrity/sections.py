"""Sections are recomputed from the canonical content and compared field by field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject

STAGE = "integrity"
MISMATCH = define(
    "A220",
    "section-mismatch",
    Severity.ERROR,
    "A section's id, title, start or end differs from what the content's headings give.",
    example='"start": 2235 where the heading line starts at 2234',
    fix="Run `atlas-build fix`, or set the value reported as expected.",
    stage=STAGE,
)
MISSING = define(
    "A221",
    "section-missing",
    Severity.ERROR,
    "The content has a heading the sections list does not describe.",
    example="a `## New part` heading added without a section entry",
    fix="Run `atlas-build fix` to recompute sections.",
    stage=STAGE,
)
EXTRA = define(
    "A222",
    "section-extra",
    Severity.ERROR,
    "The sections list describes more headings than the content has.",
    example="a heading deleted from the content, its section left behind",
    fix="Run `atlas-build fix` to recompute sections.",
    stage=STAGE,
)
STRUCTURE = define(
    "A223",
    "section-structure",
    Severity.ERROR,
    "Sections must be in order, contiguous, non-overlapping, within the content, and have "
    "unique ids.",
    example="section-3 ends at 900 but section-4 starts at 850",
    fix="Run `atlas-build fix` to recompute sections.",
    stage=STAGE,
)
NO_HEADINGS = define(
    "A224",
    "no-headings",
    Severity.WARNING,
    "The content has no heading, so the lesson has no sections to navigate or deep-link.",
    example="a body of paragraphs only",
    fix="Start the lesson with `# Title`.",
    stage=STAGE,
)


@RULES.rule("section-structure", order=30)
def structure(subject: Subject) -> Iterator[Diagnostic]:
    stated = subject.record.sections
    length = subject.record.contentLength
    seen: dict[str, int] = {}
    for index, section in enumerate(stated):
        pointer = f"/sections/{index}"
        if section.id in seen:
            yield at(
                STRUCTURE,
                subject.at(pointer + "/id"),
                f"{section.id} is used by sections {seen[section.id]} and {index}",
            )
        seen.setdefault(section.id, index)
        if section.start > section.end:
            yield at(
                STRUCTURE,
                subject.at(pointer + "/end"),
                f"{section.id} ends ({section.end}) before it starts ({section.start})",
            )
        if section.end > length:
            yield at(
                STRUCTURE,
                subject.at(pointer + "/end"),
                f"{section.id} ends at {section.end}, past contentLength {length}",
            )
        if index:
            previous = stated[index - 1]
            if section.start < previous.end:
                yield at(
                    STRUCTURE,
                    subject.at(pointer + "/start"),
                    f"{section.id} starts at {section.start}, inside {previous.id} "
                    f"(ends {previous.end}): sections overlap or are out of order",
                )
            elif section.start > previous.end:
                yield at(
                    STRUCTURE,
                    subject.at(pointer + "/start"),
                    f"gap between {previous.id} (ends {previous.end}) and {section.id} "
                    f"(starts {section.start}): sections must be contiguous",
                )


@RULES.rule("sections", order=31)
def compare(subject: Subject) -> Iterator[Diagnostic]:
    computed = subject.sections
    stated = subject.record.sections
    if not computed:
        yield at(NO_HEADINGS, subject.content_at(0), "content has no headings")
    for index, (want, have) in enumerate(zip(computed, stated, strict=False)):
        line, column = subject.content_position(want.start)
        where = f"heading {want.title!r} at content line {line}, column {column}"
        for field in ("id", "title", "start", "end"):
            expected, actual = getattr(want, field), getattr(have, field)
            if expected != actual:
                location = replace(
                    subject.at(f"/sections/{index}/{field}"),
                    content_line=line,
                    content_column=column,
                )
                yield at(
                    MISMATCH,
                    location,
                    f"{want.id} {field}: expected {expected!r}, record has {actual!r} ({where})",
                )
    for want in computed[len(stated) :]:
        heading = subject.content_at(want.start)
        yield at(
            MISSING,
            heading,
            f"heading {want.title!r} has no section entry (expected {want.id} "
            f"{want.start}-{want.end})",
        )
    for index in range(len(computed), len(stated)):
        have = stated[index]
        yield at(
            EXTRA,
            subject.at(f"/sections/{index}"),
            f"{have.id} ({have.title!r}) matches no heading in the content",
        )
