"""The diagnostic code reference, generated from `catalog.codes()` like a linter's rules.

One entry per code (anchor `#A201`), grouped by the stage that emits it, with what
it means, an example and how to fix it. The report and validation panels link each
finding's code here. Summaries and fixes are markdown (backticks mark commands).
"""

from __future__ import annotations

from atlas_build import catalog, markdown
from atlas_build.diagnostics import Code
from atlas_build.site.pages.html import badge, block, esc, front_matter, heading
from atlas_build.site.pages.sanitize import clean

STAGE_TITLES = {
    "load": "Loading",
    "integrity": "Integrity",
    "lesson": "Lesson model",
    "claims": "Claims",
    "site": "Site",
    "any": "Any stage",
}


def _inline(text: str) -> str:
    return clean(markdown.parser().renderInline(text))


def page() -> str:
    found = list(catalog.codes().values())
    stages: dict[str, list[Code]] = {}
    for code in found:
        stages.setdefault(code.stage, []).append(code)
    text = front_matter({"title": "Diagnostic codes"}) + "\n# Diagnostic codes\n\n"
    text += block(
        f"<p>Every finding atlas-build reports has one of these {len(found)} stable codes. "
        "<code>atlas-build explain CODE</code> prints the same text.</p>"
    )
    for stage, entries in stages.items():
        title = STAGE_TITLES.get(stage, stage.capitalize())
        text += heading(2, esc(title), f"stage-{stage}")
        for code in entries:
            text += heading(3, f"{esc(code.code)} {esc(code.name)}", code.code)
            text += block(
                f"<p>{badge(code.severity.value)} <small>stage: {esc(code.stage)}</small></p>"
                f"<p>{_inline(code.summary)}</p>"
                f"<p><strong>Example:</strong> <code>{esc(code.example)}</code></p>"
                f"<p><strong>Fix:</strong> {_inline(code.fix)}</p>",
                "atlas-block atlas-code",
            )
    return text
