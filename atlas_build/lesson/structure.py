"""The structured parts Atlas lessons use, recognised from the block sequence.

Published lessons are flattened HTML, so a glossary is a `Symbols and units`
paragraph followed by (symbol, meaning, unit) paragraph triples, a quiz is a
`###` question, an ordered list of options, `Answer and reasoning`, the answer
and its reasoning, and `## Sources` is a list of links.
"""

from __future__ import annotations

from atlas_build.lesson.model import Assumption, Block, Glossary, GlossaryEntry, Link, Quiz

GLOSSARY_MARK = "Symbols and units"
ANSWER_MARK = "Answer and reasoning"
ASSUMPTIONS_PREFIX = "Assumptions"
QUIZ_SECTION = "Check your understanding"
SOURCES_SECTION = "Sources"
MAX_SYMBOL_LENGTH = 32


def _looks_like_symbol(text: str) -> bool:
    """Symbols are short and are not sentences: `d_k`, `T_q,T_k`, `Var`, `τ`."""
    return (
        0 < len(text) <= MAX_SYMBOL_LENGTH
        and len(text.split()) <= 2
        and not text.endswith((".", ":"))
        and not text.startswith(ASSUMPTIONS_PREFIX)
    )


def glossaries(blocks: list[Block]) -> list[Glossary]:
    found: list[Glossary] = []
    section = ""
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if block.kind == "heading":
            section = block.text
        if block.kind == "paragraph" and block.text == GLOSSARY_MARK:
            entries: list[GlossaryEntry] = []
            cursor = index + 1
            while cursor + 2 < len(blocks) and all(
                blocks[cursor + step].kind == "paragraph" for step in range(3)
            ):
                symbol, meaning, unit = (blocks[cursor + step] for step in range(3))
                if not _looks_like_symbol(symbol.text):
                    break
                entries.append(GlossaryEntry(symbol.text, meaning.text, unit.text, symbol.start))
                cursor += 3
            found.append(Glossary(section, tuple(entries), block.start))
            index = cursor
            continue
        index += 1
    return found


def _section_range(blocks: list[Block], title: str) -> tuple[int, int, int] | None:
    """(index of the heading, first index after it, end index) of the section titled so."""
    for index, block in enumerate(blocks):
        if block.kind == "heading" and block.text == title:
            end = index + 1
            while end < len(blocks) and not (
                blocks[end].kind == "heading" and blocks[end].level <= block.level
            ):
                end += 1
            return index, index + 1, end
    return None


def quizzes(blocks: list[Block]) -> list[Quiz]:
    span = _section_range(blocks, QUIZ_SECTION)
    if span is None:
        return []
    _, first, end = span
    found: list[Quiz] = []
    index = first
    while index < end:
        block = blocks[index]
        if block.kind != "heading":
            index += 1
            continue
        stop = index + 1
        while stop < end and blocks[stop].kind != "heading":
            stop += 1
        body = blocks[index + 1 : stop]
        options: tuple[tuple[str, int], ...] = ()
        answer: Block | None = None
        reasoning: list[str] = []
        for position, part in enumerate(body):
            if part.kind == "list" and not options:
                options = tuple(part.items)
            elif part.kind == "paragraph" and part.text == ANSWER_MARK:
                rest = [item for item in body[position + 1 :] if item.kind == "paragraph"]
                answer = rest[0] if rest else None
                reasoning = [item.text for item in rest[1:]]
                break
        found.append(
            Quiz(
                block.text,
                options,
                answer.text if answer else None,
                answer.start if answer else None,
                "\n\n".join(reasoning),
                block.start,
            )
        )
        index = stop
    return found


def assumptions(blocks: list[Block]) -> list[Assumption]:
    found: list[Assumption] = []
    section = ""
    for block in blocks:
        if block.kind == "heading":
            section = block.text
        elif block.kind == "paragraph" and block.text.startswith(ASSUMPTIONS_PREFIX + " "):
            text = block.text[len(ASSUMPTIONS_PREFIX) :].strip()
            found.append(Assumption(section, text, block.start))
    return found


def sources(blocks: list[Block]) -> list[Link]:
    span = _section_range(blocks, SOURCES_SECTION)
    if span is None:
        return []
    _, first, end = span
    return [link for block in blocks[first:end] if block.kind == "list" for link in block.links]
