"""What a build makes from each lesson: its published record and its site page.

Both need the lesson's parsed source, record and lesson model, which the check has
just built in its worker process. `make` runs there (as `pipeline.check`'s `after`),
so a cold build reads, validates and parses every lesson once, and the rendering is
shared out over the same workers. Lessons whose check came from the cache get their
record and page from the cache too (see `cli._emit` and `site.docs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from atlas_build import pipeline
from atlas_build.diagnostics import Severity

if TYPE_CHECKING:
    from atlas_build.authoring.emit import Rendered
    from atlas_build.site.lesson import LessonPage


@dataclass
class Made:
    slugs: frozenset[str]  # the lessons the page may link to when it was rendered
    emitted: Rendered | None = None
    page: LessonPage | None = None


def make(
    checked: pipeline.Checked,
    slugs: frozenset[str],
    options: pipeline.Options,
    site: bool,
    allow_errors: bool = False,
) -> Made:
    """The lesson's record and page. A lesson with errors gets no page unless the build
    publishes errors (`--allow-errors`): the site would not be built anyway, and rendering
    work (figures above all) is only ever done for what `check` accepted or the user asked
    for. A page that fails here is left to the site stage, which renders it again and
    reports the failure as a finding of that lesson."""
    from atlas_build import paths
    from atlas_build.authoring import emit

    made = Made(slugs)
    source, record, lesson = checked.source, checked.record, checked.lesson
    if source is None or record is None or lesson is None or source.data is None:
        return made
    made.emitted = emit.render(
        record, source.data, lesson, paths.publish_slug(source.slug, record.id)
    )
    if site and (allow_errors or not checked.report.count(Severity.ERROR)):
        from atlas_build.site import docs

        try:
            made.page = docs.render_page(checked, slugs, options)
        except Exception:  # reported by the site stage, which renders it again
            made.page = None
    return made
