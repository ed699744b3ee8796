"""Typed access to a lesson record; mirrors `schemas/lesson-record.schema.json`.

The JSON Schema is the public contract. This model repeats its constraints so
that code gets typed fields, and `tests/test_model.py` proves the two accept and
reject the same fixtures. Validation is strict (no coercion of "1" to 1).
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)
from rfc3986_validator import validate_rfc3986  # the checker jsonschema uses for "uri"

SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
HEX64 = r"^[0-9a-f]{64}$"
SEMVER = r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$"


def _uri(value: str) -> str:
    if not validate_rfc3986(value, rule="URI"):
        raise ValueError(f"{value!r} is not a URI")
    return value


def _date(value: str) -> str:
    datetime.date.fromisoformat(value)
    return value


Uri = Annotated[str, StringConstraints(max_length=2048), AfterValidator(_uri)]
Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_date)]
LessonId = Annotated[str, StringConstraints(pattern=SLUG, max_length=128)]
Hex64 = Annotated[str, StringConstraints(pattern=HEX64)]


def _integral(value: object) -> object:
    """JSON Schema counts 10251.0 as an integer; so does the model (but never a bool)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _not_bool(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number")
    return value


NonNegative = Annotated[int, BeforeValidator(_integral), Field(ge=0)]


def _unique(values: list[str]) -> list[str]:
    if len(set(values)) != len(values):
        raise ValueError("items must be unique")
    return values


IdList = Annotated[list[LessonId], AfterValidator(_unique)]


class Section(BaseModel):
    """One heading's span in the canonical content, in code points."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Annotated[str, StringConstraints(pattern=r"^section-[1-9][0-9]*$")]
    title: str
    start: NonNegative
    end: NonNegative


class Citation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    title: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    url: Uri


Name = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Label = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Title = Annotated[str, StringConstraints(min_length=1, max_length=300)]
Person = Annotated[str, StringConstraints(max_length=300)]
Short = Annotated[str, StringConstraints(max_length=200)]
Token = Annotated[str, StringConstraints(max_length=100)]
Prose = Annotated[str, StringConstraints(max_length=2000)]
LongProse = Annotated[str, StringConstraints(max_length=20000)]
Body = Annotated[str, StringConstraints(max_length=5 * 1024 * 1024)]


class LessonRecord(BaseModel):
    """A schemaVersion 1 lesson record. Unknown top-level fields are kept, not rejected."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    schemaVersion: Annotated[Literal[1], BeforeValidator(_not_bool), BeforeValidator(_integral)]
    id: LessonId
    title: Title
    category: Name
    format: Name
    description: Prose
    canonicalUrl: Uri
    publishedDate: Date | None
    revisionDate: Date
    author: Person | None
    topic: Label
    series: Short | None
    license: Short | None
    rightsUrl: Uri | None
    version: Annotated[str, StringConstraints(pattern=SEMVER)]
    status: Label
    evidenceScope: LongProse
    contentCoverage: Token
    artifactUrl: Uri | None
    interactiveUrl: Uri | None
    related: IdList
    supersedes: IdList
    supersededBy: IdList
    contentHash: Hex64
    contentLength: NonNegative
    jsonUrl: Uri | None
    markdownUrl: Uri | None
    sections: list[Section]
    citations: list[Citation]
    recordHash: Hex64
    contentFormat: Literal["text/markdown"]
    content: Body


FIELDS: tuple[str, ...] = tuple(LessonRecord.model_fields)
COMPUTED_FIELDS: frozenset[str] = frozenset(
    {"content", "contentHash", "contentLength", "sections", "recordHash"}
)
