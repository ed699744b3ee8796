"""Specifications and interfaces: label / value / context rows, read from paragraphs.

A published specification table arrives as paragraphs: a short label (`Dense score
shape`), its value (`T × T per head`) and, when there is one, a context sentence (`T is
sequence length; ...`). Interface rows (`Representations Input` / `Queries, keys,
values`) are a label ending in its role and a value. Rows are read greedily: a label and
a value, then a context when the next paragraph ends as a sentence. A paragraph that is
prose where a label should be stays plain.
"""

from __future__ import annotations

from atlas_build.lesson import shapes
from atlas_build.lesson.model import Block, Specification

MAX_LABEL_WORDS = 8
_ROLES = {"input": "input", "inputs": "input", "output": "output", "outputs": "output"}


def _role(label: str) -> str:
    words = label.split()
    return _ROLES.get(words[-1].casefold(), "") if len(words) >= 2 else ""


def _is_label(block: Block) -> bool:
    return (
        block.kind == "paragraph"
        and not shapes.is_sentence(block.text)
        and len(block.text.split()) <= MAX_LABEL_WORDS
    )


def _rows(run: list[Block], section: str, group: str) -> list[Specification]:
    rows: list[Specification] = []
    index = 0
    while index + 1 < len(run):
        label, value = run[index], run[index + 1]
        if not _is_label(label) or shapes.is_long_prose(value.text):
            index += 1
            continue
        context = run[index + 2] if index + 2 < len(run) else None
        if context is not None and not shapes.is_sentence(context.text):
            context = None
        last = context or value
        rows.append(
            Specification(
                section,
                group,
                label.text,
                value.text,
                context.text if context else "",
                label.start,
                value.start,
                context.start if context else None,
                last.end,
                _role(label.text),
            )
        )
        index += 3 if context else 2
    return rows


def specifications(blocks: list[Block]) -> list[Specification]:
    found: list[Specification] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if not (block.kind == "heading" and shapes.is_specs_heading(block.text)):
            index += 1
            continue
        group = ""
        run: list[Block] = []
        cursor = index + 1
        while cursor < len(blocks):
            part = blocks[cursor]
            if part.kind == "heading" and part.level <= block.level:
                break
            if part.kind == "paragraph":
                run.append(part)
            else:
                found += _rows(run, block.text, group)
                run = []
                if part.kind == "heading":
                    group = part.text
            cursor += 1
        found += _rows(run, block.text, group)
        index = cursor
    return found
