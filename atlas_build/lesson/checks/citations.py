"""The `## Sources` links and the record's `citations` field must agree."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject

STAGE = "lesson"
NOT_CITED = define(
    "A310",
    "source-not-cited",
    Severity.WARNING,
    "A link under `## Sources` is missing from the record's `citations`.",
    example="`- [Dao et al. — FlashAttention](https://arxiv.org/abs/2205.14135)` not in citations",
    fix="Add the link to `citations` (lesson.md front matter) or remove it from Sources.",
    stage=STAGE,
)
NOT_LINKED = define(
    "A311",
    "citation-not-linked",
    Severity.WARNING,
    "A citation's URL appears nowhere in the lesson body, so readers cannot follow it.",
    example='citations: [{"title": "Old paper", "url": "https://example.org/old"}]',
    fix="Link the source in the body (usually under `## Sources`) or drop the citation.",
    stage=STAGE,
)


@RULES.rule("citations", order=20)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    cited = {citation.url for citation in subject.record.citations}
    linked = {link.url for link in subject.lesson.links}
    for source in subject.lesson.sources:
        if source.url not in cited:
            yield at(
                NOT_CITED,
                subject.at(source.offset),
                f"source {source.text!r} ({source.url}) is not in citations",
            )
    for index, citation in enumerate(subject.record.citations):
        if citation.url not in linked:
            yield at(
                NOT_LINKED,
                subject.field(f"/citations/{index}/url"),
                f"citation {citation.title!r} ({citation.url}) is not linked in the content",
            )
