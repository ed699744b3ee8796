"""The check pipeline: load -> integrity -> lesson model -> claims -> report.

Data flows one way: each stage receives what the previous one produced and
returns diagnostics (and, for the lesson model and claims, results the report
and site render). This module wires the stages together for one lesson, and
runs lessons in a process pool with a content-addressed cache in front: a
lesson whose file, claims file, checked set and environment are unchanged is
not re-evaluated. The report's order never depends on the pool.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from atlas_build import cache as caching
from atlas_build import load, published
from atlas_build.budget import Budget, OutOfTime, StageClock
from atlas_build.claimjson import ClaimJSON
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.ledger import Ledger, Tiers
from atlas_build.report import RecordReport, Report
from atlas_build.ruler import INTERNAL
from atlas_build.source import Source
from atlas_build.workers import pool as workers_pool

if TYPE_CHECKING:
    from atlas_build.lesson import Lesson
    from atlas_build.model import LessonRecord

Progress = Callable[[int, int, str], None]
After = Callable[["Checked", frozenset[str], "Options"], object]


@dataclass(frozen=True)
class Options:
    strict: bool = False
    require_record_hash: bool = False
    max_bytes: int = load.DEFAULT_MAX_BYTES
    jobs: int = 1
    cache_dir: str | None = None  # None: no cache (library default); the CLI passes one
    budget: Budget = field(default_factory=Budget)
    require_accounted: bool = False


@dataclass
class Checked:
    """One lesson's report, and (once materialised) what emitters and the site need."""

    found: load.Found
    report: RecordReport
    seconds: float = 0.0
    cached: bool = False
    source: Source | None = None
    record: LessonRecord | None = None
    lesson: Lesson | None = None
    made: object = None  # what `after` made from this lesson in the worker that checked it
    digest: str | None = None  # of the report as cached: what pages are keyed by
    file_digest: str | None = None  # of the lesson file's bytes, as checked


@dataclass
class Memo:
    """What a long-lived process (`serve`) keeps between checks, so a save costs the lessons
    it touched and not a cache read and JSON decode of every other one. Both maps are
    content-addressed (a key never goes stale) and hold only the last check's lessons."""

    reports: dict[str, tuple[RecordReport, float, str]] = field(default_factory=dict)
    identities: dict[str, str | None] = field(default_factory=dict)
    used: set[str] = field(default_factory=set, repr=False)  # identity keys read this check


@dataclass(frozen=True)
class _Task:
    found: load.Found
    known: frozenset[str]
    slugs: frozenset[str]
    options: Options
    after: After | None = None


@dataclass
class _Prepared:
    found: load.Found
    key: str | None = None
    lesson_id: str | None = None
    slug: str | None = None
    file_digest: str | None = None  # the lesson file's bytes; None when it was not read
    claims_digest: str | None = None  # its claims file's, or "absent"


def _sorted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)


def _load(
    found: load.Found, options: Options
) -> tuple[Source, LessonRecord | None, Lesson | None, list[Diagnostic]]:
    """Read, validate and parse one lesson: what the checks, records and pages start from."""
    from atlas_build import lesson
    from atlas_build.load import schema

    source = load.read(found, max_bytes=options.max_bytes)
    diagnostics = list(source.diagnostics)
    record = None
    if source.data is not None:
        record, problems = schema.validate(source.data, source.locator)
        diagnostics.extend(problems)
    model = lesson.build(record.content) if record is not None else None
    return source, record, model, diagnostics


def check_one(
    found: load.Found, known: frozenset[str], slugs: frozenset[str], options: Options
) -> Checked:
    """Every stage for one lesson, in this process. The claims run under their own budgets;
    everything else shares the lesson's `read_seconds` (a lesson too dense to check in
    that time is one A108, not a stalled run)."""
    from atlas_build import claims, integrity, lesson

    started = time.perf_counter()
    clock = StageClock(options.budget.read_seconds)
    source = load.unread(found)
    record: LessonRecord | None = None
    model: Lesson | None = None
    diagnostics: list[Diagnostic] = []
    evaluation = None
    try:
        with clock.running():
            source, record, model, diagnostics = _load(found, options)
            if record is not None and model is not None:
                integrity_options = integrity.Options(
                    require_record_hash=options.require_record_hash
                )
                subject = integrity.Subject(source, record, known, integrity_options)
                diagnostics.extend(integrity.run(subject))
                diagnostics.extend(lesson.run(lesson.LessonSubject(source, record, model, slugs)))
        if record is not None and model is not None:
            evaluation = claims.evaluate(
                source.claims_path,
                record.id,
                model,
                source.locator,
                cache=caching.Cache(options.cache_dir),
                budget=options.budget,
                require_accounted=options.require_accounted,
                clock=clock,
            )
            diagnostics.extend(evaluation.diagnostics)
            if source.claims_path is not None:  # what no claim of this lesson is given
                seconds = options.budget.lesson_seconds
                diagnostics.extend(claims.file.over_budget(source.claims_path, seconds))
    except OutOfTime:
        evaluation = None
        message = (
            f"checking this lesson took longer than {clock.total:g} s (--read-time) outside "
            "its written claims: it is too large or too dense to check"
        )
        diagnostics.append(at(load.TOO_SLOW, Location(source.path, 1, 1), message))
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - one lesson's failure is an A901 on that lesson
        evaluation = None
        message = f"checking this lesson failed: {type(error).__name__}: {error}"[:500]
        diagnostics.append(at(INTERNAL, Location(source.path, 1, 1), message))
    identifier = record.id if record else _raw_id(source)
    report = RecordReport(source.path, identifier, _sorted(diagnostics), slug=source.slug)
    if evaluation is not None:
        report.claims = [result.to_json() for result in evaluation.results]
        report.coverage = evaluation.coverage
    elapsed = time.perf_counter() - started
    return Checked(found, report, elapsed, False, source, record, model)


def _run_task(task: _Task) -> tuple[RecordReport, float, object]:
    checked = check_one(task.found, task.known, task.slugs, task.options)
    made = None
    if task.after is not None and not checked.report.internal_error:
        made = task.after(checked, task.slugs, task.options)
    return checked.report, checked.seconds, made


def _raw_id(source: Source) -> str | None:
    value = source.data.get("id") if isinstance(source.data, dict) else None
    return value if isinstance(value, str) else None


def _read_bytes(path: Path, limit: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError:
        return b""


def _prepare(
    found: load.Found,
    options: Options,
    store: caching.Cache,
    memo: Memo | None = None,
    ledger: Ledger | None = None,
) -> _Prepared:
    """Identity of a lesson (its id, for cross-references) and the digest of its inputs."""
    prepared = _Prepared(found)
    if found.diagnostics or not found.path.is_file():
        return prepared
    raw = _read_bytes(found.path, options.max_bytes)
    claims = found.path.parent / load.CLAIMS_FILE
    claims_digest = (  # an empty claims file is an error; no claims file is not
        caching.digest(_read_bytes(claims, 1 << 20)) if claims.is_file() else "absent"
    )
    file_digest = caching.digest(raw)
    prepared.lesson_id = _identity(found.path, raw, file_digest, store, memo, ledger)
    prepared.slug = found.path.parent.name
    prepared.file_digest, prepared.claims_digest = file_digest, claims_digest
    return prepared


def _identity(
    path: Path,
    raw: bytes,
    file_digest: str,
    store: caching.Cache,
    memo: Memo | None = None,
    ledger: Ledger | None = None,
) -> str | None:
    """`load.identity`, remembered by the file's bytes: reading the id parses the front
    matter or the whole record, which a build with one lesson changed did for every
    lesson (0.7 s of 250 lessons, profiled), and a one-folder check for every neighbour."""
    key = caching.digest(caching.fingerprint(), "identity", path.suffix, file_digest)
    memo = Memo() if memo is None else memo
    ledger = Ledger() if ledger is None else ledger

    def from_memo(key: str) -> tuple[str | None] | None:
        memo.used.add(key)
        return (memo.identities[key],) if key in memo.identities else None

    def from_ledger(key: str) -> tuple[str | None] | None:
        found, value = ledger.identity(key)
        return (value,) if found else None

    def from_entry(key: str) -> tuple[str | None] | None:
        payload = store.get("identity", key)
        if payload is None:
            return None
        remembered = payload.decode("ascii", "replace")
        return (remembered if load.is_identifier(remembered) else None,)

    def keep_memo(key: str, value: tuple[str | None]) -> None:
        memo.identities[key] = value[0]

    def keep_ledger(key: str, value: tuple[str | None]) -> None:
        ledger.remember_identity(key, value[0])

    tiers = Tiers(from_memo, from_ledger, from_entry, keep_memo, keep_ledger)
    found = tiers.recall(key)
    if found is not None:
        return found[0]
    value = load.identity(path, raw)
    store.put("identity", key, (value or "").encode("ascii"))
    keep_ledger(key, (value,))
    keep_memo(key, (value,))
    return value


def _lesson_key(prepared: _Prepared, context: str, options: Options) -> str:
    return caching.digest(
        caching.fingerprint(),
        context,
        load.display(prepared.found.path),
        str(prepared.file_digest),
        str(prepared.claims_digest),
        json.dumps(
            [
                options.require_record_hash,
                options.max_bytes,
                options.budget.memory_bytes,
                options.budget.lesson_seconds,
                options.require_accounted,
                options.budget.read_seconds,
            ]
        ),
    )


Remembered = tuple[RecordReport, float, str]  # a lesson's report, its seconds, its digest


def _reports(
    last: Memo, kept: Memo | None, ledger: Ledger, store: caching.Cache, task: _Task
) -> Tiers[Remembered]:
    """Where a lesson's report may be: the previous check's memo (read) and this one's
    (written), the ledger's heads, the lesson's cache entry."""

    def from_ledger(key: str) -> Remembered | None:
        head = ledger.head(key, _ClaimsLoader(task.options.cache_dir, key, task))
        return None if head is None else (head.report, head.seconds, head.digest)

    def from_entry(key: str) -> Remembered | None:
        payload = store.get("lesson", key)
        if payload is None:
            return None
        try:
            report, seconds = RecordReport.from_cache(payload)
        except (ValueError, KeyError, TypeError):  # not what this version writes: recheck
            return None
        return report, seconds, caching.digest(payload)

    def keep_memo(key: str, found: Remembered) -> None:
        if kept is not None:
            kept.reports[key] = found

    def keep_ledger(key: str, found: Remembered) -> None:
        ledger.remember(key, *found)

    return Tiers(last.reports.get, from_ledger, from_entry, keep_memo, keep_ledger)


def check(
    paths: list[str],
    options: Options,
    progress: Progress | None = None,
    after: After | None = None,
    memo: Memo | None = None,
) -> tuple[Report, list[Checked]]:
    """Run every stage on the lessons under `paths`; raises load.UsageError for bad PATHs.

    `after(checked, slugs, options)` runs in the worker right after a lesson is checked
    (not for lessons whose report came from the cache), while its parsed source, record
    and lesson model are at hand; its result is `Checked.made`. A build uses it to render
    pages and records without reading and parsing every lesson a second time. `memo`:
    see `Memo`; it is left holding this check's lessons.
    """
    found = load.discover(paths)
    options = replace(options, budget=options.budget.started())
    store = caching.Cache(options.cache_dir)
    last = memo or Memo()  # what the previous check left; `kept`: what this one uses
    kept = Memo(identities=last.identities) if memo is not None else None
    roots = [str(Path(path).resolve()) for path in paths]
    ledger = Ledger.load(store, roots) if not last.reports else Ledger()  # a memo knows more
    prepared = [_prepare(item, options, store, kept, ledger) for item in found]
    beside = _neighbours(found, options, store, kept, ledger)
    known = frozenset(p.lesson_id for p in prepared if p.lesson_id) | frozenset(beside)
    slugs = frozenset(p.slug for p in prepared if p.slug and p.lesson_id) | frozenset(
        beside.values()
    )
    context = caching.digest(*sorted(known), "|", *sorted(slugs))
    results: list[Checked | None] = [None] * len(prepared)
    pending: list[int] = []
    for index, item in enumerate(prepared):
        if item.file_digest is not None:
            item.key = _lesson_key(item, context, options)
            task = _Task(item.found, known, slugs, options)
            remembered = _reports(last, kept, ledger, store, task).recall(item.key)
            if remembered is not None:
                cached_report, seconds, payload_digest = remembered
                results[index] = Checked(
                    item.found,
                    _copy(cached_report),
                    seconds,
                    cached=True,
                    digest=payload_digest,
                    file_digest=item.file_digest,
                )
                continue
        pending.append(index)
    done = len(prepared) - len(pending)
    if progress:
        progress(done, len(prepared), "")
    tasks = [_Task(prepared[i].found, known, slugs, options, after) for i in pending]
    outcomes = _execute(tasks, options.jobs)
    for index, (record_report, seconds, made) in zip(pending, outcomes, strict=True):
        payload = record_report.to_cache(seconds)
        made_digest = caching.digest(payload)
        results[index] = Checked(
            prepared[index].found,
            record_report,
            seconds,
            made=made,
            digest=made_digest,
            file_digest=prepared[index].file_digest,
        )
        key = prepared[index].key
        if key is not None and _cacheable(record_report):
            store.put("lesson", key, payload)
            ledger.remember(key, record_report, seconds, made_digest)
            if kept is not None:
                kept.reports[key] = _copy(record_report), seconds, made_digest
        done += 1
        if progress:
            progress(done, len(prepared), record_report.path)
    if not last.reports:
        ledger.save(store, roots)
    checked = [result for result in results if result is not None]
    published.mark(checked, options.max_bytes)
    report = Report([item.report for item in checked], strict=options.strict)
    report.timings = {item.report.path: item.seconds for item in checked}
    if memo is not None and kept is not None:
        memo.reports = kept.reports
        memo.identities = {key: kept.identities[key] for key in kept.used}
    return report, checked


def _copy(report: RecordReport) -> RecordReport:
    """A remembered report for one more use: later stages add findings to its list."""
    return replace(report, diagnostics=list(report.diagnostics))


def _neighbours(
    found: list[load.Found],
    options: Options,
    store: caching.Cache,
    memo: Memo | None = None,
    ledger: Ledger | None = None,
) -> dict[str, str]:
    """Id -> folder name of the lessons beside the checked ones (`load.neighbours`):
    checking one folder resolves `related` ids (A240) and lesson links (A331, A332)
    against the whole content directory, so a lesson that exists is not reported
    unknown, and one that exists nowhere still is."""
    found_ids: dict[str, str] = {}
    for path in load.neighbours(found):
        raw = _read_bytes(path, options.max_bytes)
        identifier = _identity(path, raw, caching.digest(raw), store, memo, ledger)
        if identifier:
            found_ids.setdefault(identifier, path.parent.name)
    return found_ids


def _cacheable(report: RecordReport) -> bool:
    """Reports that depend only on the inputs: not an internal error, and no claim cut off
    by a time limit (with more time, or a quieter machine, it may pass)."""
    from atlas_build.claims.codes import TIMEOUT

    return not report.internal_error and not any(d.code == TIMEOUT.code for d in report.diagnostics)


def _execute(tasks: list[_Task], jobs: int) -> Iterator[tuple[RecordReport, float, object]]:
    """Results in task order; a pool of `jobs` processes when there is work to share."""
    workers = max(1, min(jobs, len(tasks)))
    if workers == 1:
        yield from map(_run_task, tasks)
        return
    with workers_pool(workers) as pool:
        yield from pool.map(_run_task, tasks, chunksize=max(1, len(tasks) // (workers * 8)))


def warm() -> None:
    """Import and set up what checking a lesson needs (SymPy and the claims stage, the
    record schema's validator, the markdown parser): a long-lived process (`serve`) pays
    it before the first save instead of on it (about 1.7 s, measured)."""
    from atlas_build import claims, integrity, lesson, markdown  # noqa: F401
    from atlas_build.load import schema

    schema.warm()
    markdown.parse_blocks("# Warm\n\nA $x$.\n")


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def materialize(checked: Checked, options: Options) -> Checked:
    """Load the record and lesson model of a (possibly cached) result, for emitters."""
    if checked.source is None:
        checked.source, checked.record, checked.lesson, _ = _load(checked.found, options)
    return checked


@dataclass(frozen=True)
class _ClaimsLoader:
    """The claims of a report read from the ledger: from the report's own cache entry, or,
    when that is gone or damaged, by checking the lesson again. A class, not a closure:
    reports travel to page-rendering workers, so it must pickle."""

    cache_dir: str | None
    key: str
    task: _Task

    def __call__(self) -> list[ClaimJSON]:
        payload = caching.Cache(self.cache_dir).get("lesson", self.key)
        if payload is not None:
            with contextlib.suppress(ValueError, KeyError, TypeError, RecursionError):
                return RecordReport.from_cache(payload)[0].claims
        return list(_run_task(replace(self.task, after=None))[0].claims)
