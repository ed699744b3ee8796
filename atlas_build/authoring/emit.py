"""Emit published records and content-addressed lesson-data artifacts.

`build/records/<id>.json` is the record as it would be published;
`build/lesson-data/<slug>-<h>.json` carries the parsed lesson (sections,
glossary, quizzes, equations) and `<h>` is the first 16 hex digits of the
sha256 of the exact bytes written, the way upstream Atlas names `artifactUrl`
files. Both are deterministic: the same sources give byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atlas_build import paths
from atlas_build.atomic import write_bytes
from atlas_build.lesson.model import Lesson
from atlas_build.load import records
from atlas_build.model import LessonRecord


@dataclass(frozen=True)
class Emitted:
    record: Path
    lesson_data: Path


def lesson_data(record: LessonRecord, lesson: Lesson, slug: str) -> dict[str, Any]:
    """The structured lesson a reader-facing app needs, without re-parsing markdown."""
    return {
        "id": record.id,
        "slug": slug,
        "version": record.version,
        "title": record.title,
        "contentHash": record.contentHash,
        "sections": [section.model_dump() for section in record.sections],
        "equations": [
            {"index": math.index, "latex": math.latex.strip(), "offset": math.offset}
            for math in lesson.display_math
        ],
        "glossaries": [
            {
                "section": glossary.section,
                "entries": [
                    {"symbol": entry.symbol, "meaning": entry.meaning, "unit": entry.unit}
                    for entry in glossary.entries
                ],
            }
            for glossary in lesson.glossaries
        ],
        "quizzes": [
            {
                "question": quiz.question,
                "options": [text for text, _ in quiz.options],
                "answer": quiz.answer,
                "reasoning": quiz.reasoning,
            }
            for quiz in lesson.quizzes
        ],
        "assumptions": [
            {"section": item.section, "text": item.text} for item in lesson.assumptions
        ],
        "sources": [{"title": link.text, "url": link.url} for link in lesson.sources],
    }


@dataclass(frozen=True)
class Rendered:
    """The bytes a lesson publishes, before they are written anywhere."""

    record_id: str
    slug: str
    record: bytes
    lesson_data: bytes

    def to_json(self) -> bytes:
        return json.dumps(
            {
                "id": self.record_id,
                "slug": self.slug,
                "record": self.record.decode("utf-8"),
                "lessonData": self.lesson_data.decode("utf-8"),
            }
        ).encode("utf-8")

    @classmethod
    def from_json(cls, payload: bytes) -> Rendered | None:
        """A cached rendering, or None when the entry is not one (never trusted as a path)."""
        try:
            data = json.loads(payload)
            fields = [data[name] for name in ("id", "slug", "record", "lessonData")]
        except (ValueError, TypeError, KeyError):
            return None
        if not all(isinstance(value, str) for value in fields):
            return None
        identifier, slug, record, lesson_data = fields
        if not (paths.is_slug(identifier) and paths.is_slug(slug)):
            return None
        try:
            return cls(identifier, slug, record.encode("utf-8"), lesson_data.encode("utf-8"))
        except UnicodeEncodeError:
            return None


def render(record: LessonRecord, data: dict[str, Any], lesson: Lesson, slug: str) -> Rendered:
    """The published record (recordHash by atlas-build's recipe) and the lesson data."""
    published = records.with_record_hash(records.ordered(dict(data)))
    payload = json.dumps(lesson_data(record, lesson, slug), ensure_ascii=False, indent=2) + "\n"
    return Rendered(
        record.id, slug, records.dumps(published).encode("utf-8"), payload.encode("utf-8")
    )


def write(rendered: Rendered, out: Path | paths.Root) -> Emitted:
    """Write one lesson's files atomically. Files of earlier versions are not removed
    here but by the build once every lesson is written (`outputs.write_records`), so no
    lesson's write can delete another's file.

    The id and slug are checked again here (they may come from a cache entry), so no
    value can place a file outside `out/records` and `out/lesson-data`. A build passes
    `out` as one `paths.Root` shared by every lesson. Outputs are not flushed to disk one
    by one (`atomic.write_bytes`): the next build rewrites any it finds damaged.
    """
    folder = out if isinstance(out, paths.Root) else paths.Root(out)
    record_id = paths.slug(rendered.record_id, "record id")
    slug = paths.slug(rendered.slug, "lesson slug")
    record_path = folder.inside(f"records/{record_id}.json")
    if not _holds(record_path, rendered.record):
        write_bytes(record_path, rendered.record, durable=False)
    digest = hashlib.sha256(rendered.lesson_data).hexdigest()[:16]
    data_path = folder.inside(f"lesson-data/{slug}-{digest}.json")
    if not _holds(data_path, rendered.lesson_data):
        write_bytes(data_path, rendered.lesson_data, durable=False)
    return Emitted(record_path, data_path)


def _holds(path: Path, data: bytes) -> bool:
    """The file is already these bytes: a build with nothing changed rewrites nothing
    (and does not list lesson-data/ once per lesson, which made it quadratic)."""
    try:
        return path.is_file() and not path.is_symlink() and path.read_bytes() == data
    except OSError:
        return False


def emit(
    record: LessonRecord, data: dict[str, Any], lesson: Lesson, slug: str, out: Path
) -> Emitted:
    return write(render(record, data, lesson, slug), out)
