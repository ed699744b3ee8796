"""Quizzes: the questions of a quiz section (`Check your understanding`, `Quiz`, ...).

A question is a heading under the section (or a paragraph ending in `?` followed by a
list), then its numbered options, an answer mark (`Answer and reasoning`, `Solution`,
`Answer: ...`), the answer and its reasoning. Every span is kept with offsets so a page
can fold the answer and reasoning into `<details>`.
"""

from __future__ import annotations

from atlas_build.lesson import shapes
from atlas_build.lesson.model import Block, Quiz


def _trimmed_end(content: str, block: Block) -> int:
    """Where a paragraph's text ends, before the line break and blank lines after it."""
    end = block.end
    while end > block.start and content[end - 1 : end].isspace():
        end -= 1
    return end


def _is_question(blocks: list[Block], index: int, end: int) -> bool:
    block = blocks[index]
    if block.kind == "heading":
        return True
    return (
        block.kind == "paragraph"
        and block.text.rstrip().endswith("?")
        and index + 1 < end
        and blocks[index + 1].kind == "list"
    )


def _question(blocks: list[Block], start: int, stop: int, section: str, content: str) -> Quiz:
    block = blocks[start]
    body = blocks[start + 1 : stop]
    options: tuple[tuple[str, int], ...] = ()
    options_end: int | None = None
    answer_text: str | None = None
    answer_offset = answer_end = mark_offset = reasoning_offset = None
    mark: str | None = None
    reasoning: list[str] = []
    for position, part in enumerate(body):
        if part.kind == "list" and not options:
            options, options_end = tuple(part.items), part.end
            continue
        found = shapes.answer_mark(part.text) if part.kind == "paragraph" else None
        if found is None:
            continue
        mark, inline = found
        mark_offset = part.start
        rest = [item for item in body[position + 1 :] if item.kind == "paragraph"]
        if inline:
            answer_text = inline
            located = content.find(inline, part.start, part.end) if content else -1
            answer_offset = located if located != -1 else part.start
            answer_end = answer_offset + len(inline)
            explained = rest
        else:
            answer = rest[0] if rest else None
            answer_text = answer.text if answer else None
            answer_offset = answer.start if answer else None
            answer_end = _trimmed_end(content, answer) if answer else None
            explained = rest[1:]
        reasoning = [item.text for item in explained]
        reasoning_offset = explained[0].start if explained else None
        break
    end = body[-1].end if body else block.end
    return Quiz(
        block.text,
        options,
        answer_text,
        answer_offset,
        "\n\n".join(reasoning),
        block.start,
        section,
        options_end,
        mark,
        mark_offset,
        answer_end,
        reasoning_offset,
        end,
    )


def _sections(blocks: list[Block]) -> list[tuple[int, int]]:
    """(heading index, end index) of every quiz section."""
    found: list[tuple[int, int]] = []
    for index, block in enumerate(blocks):
        if found and index < found[-1][1]:
            continue  # a `### Questions` inside a quiz section belongs to it
        if block.kind == "heading" and shapes.is_quiz_heading(block.text):
            end = index + 1
            while end < len(blocks) and not (
                blocks[end].kind == "heading" and blocks[end].level <= block.level
            ):
                end += 1
            found.append((index, end))
    return found


def quizzes(blocks: list[Block], content: str = "") -> list[Quiz]:
    found: list[Quiz] = []
    for heading, end in _sections(blocks):
        section = blocks[heading].text
        starts = [i for i in range(heading + 1, end) if _is_question(blocks, i, end)]
        for position, start in enumerate(starts):
            stop = starts[position + 1] if position + 1 < len(starts) else end
            found.append(_question(blocks, start, stop, section, content))
    return found
