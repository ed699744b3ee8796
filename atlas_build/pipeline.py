"""The check pipeline: load -> integrity -> lesson model -> claims -> report.

Data flows one way: each stage receives what the previous one produced and
returns diagnostics (and, for the lesson model and claims, results the report
and site render). This module only wires the stages together.
"""

from __future__ import annotations

from dataclasses import dataclass

from atlas_build import integrity, lesson, load
from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.lesson import Lesson
from atlas_build.load import schema
from atlas_build.model import LessonRecord
from atlas_build.report import RecordReport, Report
from atlas_build.ruler import Timings
from atlas_build.source import Source


@dataclass(frozen=True)
class Options:
    strict: bool = False
    require_record_hash: bool = False
    max_bytes: int = load.DEFAULT_MAX_BYTES


@dataclass
class Checked:
    """One lesson after every stage: what the site and emitters need besides the report."""

    source: Source
    record: LessonRecord | None
    report: RecordReport
    lesson: Lesson | None = None


def _sorted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)


def check_sources(
    sources: list[Source], options: Options, timings: Timings | None = None
) -> list[Checked]:
    validated: list[tuple[Source, LessonRecord | None, list[Diagnostic]]] = []
    for source in sources:
        diagnostics = list(source.diagnostics)
        record = None
        if source.data is not None:
            record, problems = schema.validate(source.data, source.locator)
            diagnostics.extend(problems)
        validated.append((source, record, diagnostics))
    known = frozenset(record.id for _, record, _ in validated if record is not None)
    slugs = frozenset(source.slug for source, _, _ in validated if source.slug)
    integrity_options = integrity.Options(require_record_hash=options.require_record_hash)
    checked: list[Checked] = []
    for source, record, diagnostics in validated:
        if record is not None:
            subject = integrity.Subject(source, record, known, integrity_options)
            diagnostics.extend(integrity.run(subject, timings))
        model = None
        if record is not None:
            model = lesson.build(record.content)
            diagnostics.extend(
                lesson.run(lesson.LessonSubject(source, record, model, slugs), timings)
            )
        identifier = record.id if record else _raw_id(source)
        report = RecordReport(source.path, identifier, _sorted(diagnostics), slug=source.slug)
        checked.append(Checked(source, record, report, model))
    return checked


def _raw_id(source: Source) -> str | None:
    value = source.data.get("id") if isinstance(source.data, dict) else None
    return value if isinstance(value, str) else None


def check(paths: list[str], options: Options) -> tuple[Report, list[Checked]]:
    """Run every stage on the lessons under `paths`; raises load.UsageError for bad PATHs."""
    timings = Timings()
    sources = [load.read(found, max_bytes=options.max_bytes) for found in load.discover(paths)]
    checked = check_sources(sources, options, timings)
    report = Report([item.report for item in checked], strict=options.strict)
    report.timings = timings.seconds
    return report, checked


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(diagnostic.severity is Severity.ERROR for diagnostic in diagnostics)
