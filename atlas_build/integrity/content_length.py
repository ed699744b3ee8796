"""contentLength counts code points of the canonical content; other conventions are named."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject

STAGE = "integrity"
MISMATCH = define(
    "A204",
    "content-length-mismatch",
    Severity.ERROR,
    "contentLength is not the number of Unicode code points of the canonical content.",
    example='"contentLength": 10250 for a 10251-code-point canonical body',
    fix="Run `atlas-build fix`, or correct the number to the one reported.",
    stage=STAGE,
)
CONVENTION = define(
    "A205",
    "content-length-convention",
    Severity.INFO,
    "The content has characters outside the Basic Multilingual Plane, where code points and "
    "UTF-16 units differ; this says which convention the record's contentLength follows.",
    example="content with an emoji: 11 code points, 12 UTF-16 units",
    fix="Nothing to fix when the record uses code points.",
    stage=STAGE,
)


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@RULES.rule("content-length", order=20)
def check(subject: Subject) -> Iterator[Diagnostic]:
    stated = subject.record.contentLength
    canonical = subject.canonical
    points = len(canonical)
    units = utf16_units(canonical)
    where = subject.at("/contentLength")
    astral = units != points
    if stated == points:
        if astral:
            yield at(
                CONVENTION,
                where,
                f"content has {units - points} characters outside the BMP; contentLength "
                f"{stated} counts code points (UTF-16 units would be {units})",
            )
        return
    conventions = {
        units: "UTF-16 code units of the canonical content",
        len(subject.record.content): "code points of the content as shipped (unpadded)",
        utf16_units(subject.record.content): "UTF-16 code units of the content as shipped",
        len(canonical.encode("utf-8")): "UTF-8 bytes of the canonical content",
    }
    used = conventions.get(stated) if stated != points else None
    because = f"; the record counted {used}" if used else ""
    yield at(
        MISMATCH,
        where,
        f"contentLength is {stated}, expected {points} code points of the canonical "
        f"content{because}",
    )
