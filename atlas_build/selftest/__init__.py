"""`atlas-build selftest`: mutation testing for lessons.

Each lesson with a claims file is mutated one edit at a time (see `mutants`); each
mutant is re-hashed so integrity passes, then checked by the real pipeline. A
mutant is killed when the check reports an error (an internal error, A901, is a crash
of atlas-build, not a catch); the survivors are the
statements nothing guards. Mutants run in a process pool and share the claim
cache, so only the claims a mutant touches are re-evaluated.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from atlas_build import load, pipeline
from atlas_build.diagnostics import Severity
from atlas_build.lesson.model import Lesson
from atlas_build.load import frontmatter, records
from atlas_build.ruler import INTERNAL
from atlas_build.selftest.dimensions import dimension_mutants
from atlas_build.selftest.mutants import Mutant, every_number, generate
from atlas_build.workers import pool as workers_pool


@dataclass
class Outcome:
    mutant: Mutant
    killed: bool
    by: list[str]  # codes of the errors that killed it
    line: int | None = None
    column: int | None = None


@dataclass
class LessonResult:
    path: str
    baseline_errors: int
    outcomes: list[Outcome] = field(default_factory=list)
    id: str | None = None
    content_hash: str | None = None  # of the lesson mutated, so a site can tell a stale result
    bare: list[Outcome] | None = None  # `--all-numbers`: the same mutants, no claims file
    claims: bool = True  # the lesson has a claims file

    @property
    def bare_rate(self) -> float | None:
        """Kill rate without the claims file (`--all-numbers`): what inference catches."""
        if self.bare is None:
            return None
        return sum(o.killed for o in self.bare) / len(self.bare) if self.bare else 1.0

    @property
    def killed(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.killed)

    @property
    def rate(self) -> float:
        return self.killed / len(self.outcomes) if self.outcomes else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "id": self.id,
            "contentHash": self.content_hash,
            "baselineErrors": self.baseline_errors,
            "mutants": len(self.outcomes),
            "killed": self.killed,
            "killRate": round(self.rate, 4),
            "survivors": [
                {
                    "kind": o.mutant.kind,
                    "description": o.mutant.description,
                    "line": o.line,
                    "column": o.column,
                    "original": o.mutant.original,
                    "replacement": o.mutant.replacement,
                }
                for o in self.outcomes
                if not o.killed
            ],
            "kills": {
                kind: sum(1 for o in self.outcomes if o.mutant.kind == kind and o.killed)
                for kind in sorted({o.mutant.kind for o in self.outcomes})
            },
            **(
                {
                    "claimsFile": self.claims,
                    "killedWithoutClaims": sum(o.killed for o in self.bare),
                    "killRateWithoutClaims": round(self.bare_rate or 0.0, 4),
                }
                if self.bare is not None
                else {}
            ),
        }


@dataclass(frozen=True)
class _Job:
    found: load.Found
    mutant: Mutant
    options: pipeline.Options
    known: frozenset[str]
    slugs: frozenset[str]
    claims: bool = True  # check the mutant with the lesson's claims file (if it has one)


def _write_variant(found: load.Found, content: str, folder: Path, claims_file: bool) -> Path:
    """A copy of the lesson with `content` as its body, computed fields re-hashed."""
    folder.mkdir(parents=True)
    source = found.path
    claims = source.parent / load.CLAIMS_FILE
    if claims_file and claims.is_file():
        shutil.copyfile(claims, folder / load.CLAIMS_FILE)
    if source.name == load.LESSON_FILE:
        text = source.read_text(encoding="utf-8")
        parts = frontmatter.split(text)
        assert parts is not None
        target = folder / load.LESSON_FILE
        target.write_text(text[: parts[2]] + content, encoding="utf-8")
        return target
    data = json.loads(source.read_text(encoding="utf-8"))
    data["content"] = content
    data, _ = records.refresh(data)
    target = folder / load.RECORD_FILE
    target.write_text(records.dumps(data), encoding="utf-8")
    return target


def _run_mutant(job: _Job) -> Outcome:
    source = load.read(job.found, max_bytes=job.options.max_bytes)
    assert source.data is not None
    content = job.mutant.apply(source.data["content"])
    with tempfile.TemporaryDirectory(prefix="atlas-selftest-") as temporary:
        folder = Path(temporary) / job.found.path.parent.name
        path = _write_variant(job.found, content, folder, job.claims)
        found = load.Found(path, path.parent.parent)
        checked = pipeline.check_one(found, job.known, job.slugs, job.options)
    errors = [d for d in checked.report.diagnostics if d.severity is Severity.ERROR]
    where = source.locator.content(job.mutant.offset)
    caught = [d for d in errors if d.code != INTERNAL.code]  # a crash is not a catch
    return Outcome(job.mutant, bool(caught), sorted({d.code for d in errors}), where.line,
                   where.column)  # fmt: skip


def in_section(lesson: Lesson, offset: int, title: str) -> bool:
    """Whether `offset` lies under the top-level section (`## ` or `# `) titled `title`,
    subsections included, compared without case: `--section "Engineering example"` measures
    the worked example alone, the typo test issue 31 states its target on."""
    found = lesson.section_of(offset, deepest=2)
    return found is not None and found.text.strip().casefold() == title.strip().casefold()


def selftest(
    paths: list[str],
    options: pipeline.Options,
    all_numbers: bool = False,
    section: str | None = None,
) -> list[LessonResult]:
    """Kill rates of every lesson with a claims file under `paths`. With `all_numbers`,
    of every lesson, for a typo in every prose number: with the claims file and without
    it (what the checks inferred from the lesson itself catch). With `section`, only the
    mutants in the top-level section of that title are made."""
    from atlas_build import lesson as lesson_stage
    from atlas_build.claims.running import file as claims_file

    results: list[LessonResult] = []
    report, checked = pipeline.check(paths, options)
    known = frozenset(item.report.id for item in checked if item.report.id)
    slugs = frozenset(item.report.slug for item in checked if item.report.slug)
    jobs: list[_Job] = []
    owners: list[tuple[LessonResult, bool]] = []
    for item in checked:
        pipeline.materialize(item, options)
        source = item.source
        if source is None or item.record is None:
            continue
        has_claims = source.claims_path is not None
        if not has_claims and not all_numbers:
            continue
        errors = item.report.count(Severity.ERROR)
        result = LessonResult(item.report.path, errors, id=item.record.id,
                              content_hash=item.record.contentHash, claims=has_claims)  # fmt: skip
        results.append(result)
        if errors:
            continue  # a lesson that fails already cannot tell which mutants its checks catch
        model = item.lesson or lesson_stage.build(item.record.content)
        if all_numbers:
            result.bare = []
            for mutant in every_number(model):
                if section is not None and not in_section(model, mutant.offset, section):
                    continue
                for with_claims in (True, False) if has_claims else (False,):
                    jobs.append(_Job(item.found, mutant, options, known, slugs, with_claims))
                    owners.append((result, with_claims))
            continue
        assert source.claims_path is not None
        spec, _ = claims_file.read(source.claims_path)
        specs = [claim for _, claim in spec.claims] if spec else []
        quotes = [c["quote"] for c in specs if c.get("quote")]
        for mutant in generate(quotes, model, dimension_mutants(model, specs)):
            if section is not None and not in_section(model, mutant.offset, section):
                continue
            jobs.append(_Job(item.found, mutant, options, known, slugs))
            owners.append((result, True))
    workers = max(1, min(options.jobs, len(jobs)))
    if workers == 1:
        outcomes = list(map(_run_mutant, jobs))
    else:
        with workers_pool(workers) as pool:
            outcomes = list(pool.map(_run_mutant, jobs, chunksize=4))
    for (owner, with_claims), outcome in zip(owners, outcomes, strict=True):
        if with_claims or not owner.claims:
            owner.outcomes.append(outcome)
        if not with_claims and owner.bare is not None:
            owner.bare.append(outcome)
    del report
    return results


def render_text(results: list[LessonResult]) -> str:
    lines: list[str] = []
    for result in results:
        if result.baseline_errors:
            lines.append(f"{result.path}: has {result.baseline_errors} errors; fix them first")
            continue
        bare = result.bare_rate
        if bare is not None and result.claims:
            lines.append(
                f"{result.path}: {result.killed}/{len(result.outcomes)} typos caught "
                f"({100 * result.rate:.1f}%) with the claims file, "
                f"{sum(o.killed for o in result.bare or [])}/{len(result.bare or [])} "
                f"({100 * bare:.1f}%) without it"
            )
        elif bare is not None:
            lines.append(
                f"{result.path}: {result.killed}/{len(result.outcomes)} typos caught "
                f"({100 * result.rate:.1f}%), no claims file"
            )
        else:
            lines.append(
                f"{result.path}: {result.killed}/{len(result.outcomes)} mutants killed "
                f"({100 * result.rate:.1f}%)"
            )
        for outcome in result.outcomes:
            if not outcome.killed:
                lines.append(
                    f"  {result.path}:{outcome.line}:{outcome.column}: survived "
                    f"[{outcome.mutant.kind}] {outcome.mutant.description}"
                )
    return "\n".join(lines) + "\n"


def render_json(results: list[LessonResult]) -> str:
    return (
        json.dumps({"lessons": [r.to_json() for r in results]}, indent=2, ensure_ascii=False) + "\n"
    )
