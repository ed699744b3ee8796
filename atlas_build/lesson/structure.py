"""The structured parts Atlas lessons use, recognised from the block sequence by shape.

Published lessons are flattened HTML, so a glossary is a mark paragraph (`Symbols and
units`) followed by (symbol, meaning, unit) paragraph triples (`glossaries.py`), a quiz
section holds questions with options, an answer mark, the answer and its reasoning
(`quizzes.py`), a specifications section holds label / value / context rows
(`specs.py`), assumptions are `Assumptions ...` paragraphs and the sources section is a
list of links. Marks and headings are recognised by their wording's shape
(`shapes.py`), so other wordings of the same format read the same; anything not
recognised stays plain.
"""

from __future__ import annotations

from atlas_build.lesson import shapes
from atlas_build.lesson.glossaries import glossaries
from atlas_build.lesson.model import Assumption, Block, Link
from atlas_build.lesson.quizzes import quizzes
from atlas_build.lesson.specs import specifications

__all__ = [
    "ANSWER_MARK",
    "ASSUMPTIONS_PREFIX",
    "GLOSSARY_MARK",
    "QUIZ_SECTION",
    "SOURCES_SECTION",
    "assumptions",
    "glossaries",
    "quizzes",
    "sources",
    "specifications",
]

# The wording of the published format; other wordings of the same shape are recognised too.
GLOSSARY_MARK = "Symbols and units"
ANSWER_MARK = "Answer and reasoning"
ASSUMPTIONS_PREFIX = "Assumptions"
QUIZ_SECTION = "Check your understanding"
SOURCES_SECTION = "Sources"


def assumptions(blocks: list[Block]) -> list[Assumption]:
    """`Assumptions ...` paragraphs (also `Assumptions:`, `Assumption.`), or a paragraph
    that is just `Assumptions` followed by the paragraph stating them."""
    found: list[Assumption] = []
    section = ""
    for index, block in enumerate(blocks):
        if block.kind == "heading":
            section = block.text
        elif block.kind != "paragraph":
            continue
        elif (text := shapes.assumption_text(block.text)) is not None:
            found.append(Assumption(section, text, block.start))
        elif block.text.rstrip(":").casefold() in shapes.ASSUMPTION_WORDS:
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            if following is not None and following.kind in ("paragraph", "list"):
                found.append(Assumption(section, following.text, following.start))
    return found


def sources(blocks: list[Block]) -> list[Link]:
    """The links listed under the sources heading (`Sources`, `References`, ...)."""
    found: list[Link] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        index += 1
        if not (block.kind == "heading" and shapes.is_sources_heading(block.text)):
            continue
        while index < len(blocks) and not (
            blocks[index].kind == "heading" and blocks[index].level <= block.level
        ):
            if blocks[index].kind == "list":
                found += blocks[index].links
            index += 1
    return found
