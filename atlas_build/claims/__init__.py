"""Claims stage: re-derive equations with SymPy, run numbers on the engine, bind them to prose.

`content/<slug>/claims.yaml` lists a lesson's checked statements. Each kind lives
in `claims/kinds/` and registers itself; `run` evaluates them, binds the numbers
of each quote, and measures coverage (equations checked, quoted numbers bound).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from atlas_build.budget import Budget
from atlas_build.cache import Cache
from atlas_build.claims import codes, file, kinds  # noqa: F401  (kinds register themselves)
from atlas_build.claims.registry import Outcome
from atlas_build.claims.run import ClaimResult, LessonClaims
from atlas_build.diagnostics import Diagnostic, at
from atlas_build.latex import LatexError, parse_relations
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator

__all__ = ["ClaimResult", "Evaluation", "evaluate"]


@dataclass
class Evaluation:
    results: list[ClaimResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    coverage: dict[str, Any] | None = None


def evaluate(
    claims_path: str,
    lesson_id: str,
    lesson: Lesson,
    locator: Locator,
    *,
    cache: Cache | None = None,
    budget: Budget | None = None,
) -> Evaluation:
    claims_file, problems = file.read(claims_path)
    evaluation = Evaluation(diagnostics=list(problems))
    if claims_file is None:
        return evaluation
    named = claims_file.data.get("lesson")
    if named is not None and named != lesson_id:
        evaluation.diagnostics.append(
            at(
                codes.FILE,
                claims_file.at("/lesson"),
                f"claims.yaml is for lesson {named!r}, not {lesson_id!r}",
            )
        )
        return evaluation
    runner = LessonClaims(claims_file, lesson, locator, cache, budget or Budget().started())
    evaluation.results = runner.run()
    for result in evaluation.results:
        evaluation.diagnostics.extend(result.diagnostics)
    covered: set[int] = set()
    for outcome in runner.outcomes.values():
        if isinstance(outcome, Outcome):
            covered.update(equation for equation, _ in outcome.covers)
    unchecked = {
        entry["equation"]: entry["reason"] for entry in claims_file.data.get("unchecked", [])
    }
    equations = lesson.display_math
    for math in equations:
        try:
            parse_relations(math.latex)
        except LatexError as error:
            evaluation.diagnostics.append(
                at(
                    codes.LATEX,
                    locator.content(math.offset + error.offset),
                    f"equation {math.index}: {error.message} [{error.code}]",
                )
            )
        if math.index not in covered and math.index not in unchecked:
            evaluation.diagnostics.append(
                at(
                    codes.UNCOVERED,
                    locator.content(math.offset + _leading_space(math.latex)),
                    f"display equation {math.index} is not checked by any claim; add one or "
                    "list it under `unchecked` with a reason",
                )
            )
    total = sum(result.numbers_total for result in evaluation.results)
    bound = sum(result.numbers_bound for result in evaluation.results)
    evaluation.coverage = {
        "equations": {
            "total": len(equations),
            "covered": len(covered & {m.index for m in equations}),
            "unchecked": [{"equation": k, "reason": v} for k, v in sorted(unchecked.items())],
        },
        "numbers": {"total": total, "bound": bound},
        "claims": {
            status: sum(1 for r in evaluation.results if r.status == status)
            for status in ("pass", "fail", "error", "skipped")
        },
    }
    return evaluation


def _leading_space(text: str) -> int:
    return len(text) - len(text.lstrip())
