"""A quiz question's answer mark, answer and reasoning folded into a collapsed `<details>`,
so a reader tries the question before seeing the answer; works with JavaScript off.

Claim marks and anchors inside stay where they are: browsers open a `<details>` when a
link's fragment names an element inside it, so the validation panel's links still land.
"""

from __future__ import annotations

from atlas_build.lesson.model import Quiz
from atlas_build.site.pages.structures.parts import Parts, Replacement, consecutive

SUMMARY = "Show answer"


def fold(quiz: Quiz, parts: Parts) -> Replacement | None:
    """The replacement for the parts from the answer mark to the question's end, or None
    when the question has no answer mark or the parts do not line up."""
    if quiz.mark_offset is None:
        return None
    first = parts.at(quiz.mark_offset)
    if first is None:
        return None
    span = parts.within(quiz.mark_offset, max(quiz.end, quiz.mark_offset + 1))
    if not span or span[0] != first:
        return None
    heading = next((n for n, index in enumerate(span) if parts.is_heading(index)), len(span))
    found = consecutive(list(span[:heading]))
    if not found:
        return None
    mark = parts.html(found[0])
    if mark.startswith("<p>"):
        mark = '<p class="atlas-answer-mark">' + mark[len("<p>") :]
    body = "\n".join([mark.strip()] + [parts.html(i).strip() for i in found[1:]])
    summary = f"<summary>{SUMMARY}</summary>"
    html = f'<details class="question atlas-answer">\n{summary}\n{body}\n</details>'
    return Replacement(found[0], found[-1], html)
