"""Glossary blocks: a mark (`Symbols and units`, `Notation`...) and symbol / meaning /
unit paragraph triples.

Published lessons are flattened HTML, so a glossary table arrives as paragraphs. The
triples run until the block ends structurally: a heading, a block that is not a
paragraph, another mark, an `Assumptions` paragraph, or a paragraph that is prose
(symbols and units are short; prose has sentences). Reading that stops for any other
reason (a symbol without its meaning or unit, a paragraph that cannot be a symbol where
an entry should start) leaves a `GlossaryNote` saying where and why.
"""

from __future__ import annotations

import re

from atlas_build import notation
from atlas_build.lesson import names as naming
from atlas_build.lesson import shapes, symbols
from atlas_build.lesson.model import Block, Glossary, GlossaryEntry, GlossaryNote
from atlas_build.lesson.spellings import Spellings

MAX_SYMBOL_LENGTH = 48
MAX_SYMBOL_WORDS = 4
_WORD = re.compile(r"^[A-Z][a-z]{4,}$")  # `Capacitance`: a meaning where a symbol should be


def _symbol_cell(text: str, spellings: Spellings) -> symbols.SymbolCell | None:
    """The symbol a paragraph names, or None when it cannot be a glossary symbol. A
    capitalised word (`Capacitance`) is a meaning out of place unless it is a Greek
    letter's name (`Delta`) or a formula writes it (`Update`, `Loutput` for L_output)."""
    if not 0 < len(text) <= MAX_SYMBOL_LENGTH or text.endswith(":"):
        return None
    cell = symbols.read(text)
    if cell.kind == symbols.NONE:
        cell = _one_subscript(text, spellings)
    if cell.kind == symbols.NONE:
        return None
    if _WORD.match(text) and text not in naming.GREEK:
        if not any(spellings.written(name) for name in cell.names):
            return None
    if cell.kind == symbols.SYMBOL and symbols.words(text.replace(cell.qualifier, "")) > (
        MAX_SYMBOL_WORDS
    ):
        return None
    return cell


def _one_subscript(text: str, spellings: Spellings) -> symbols.SymbolCell:
    """`V\\_LL,1,rms`: commas inside one subscript, as a formula writes
    `V_{LL,1,\\mathrm{rms}}`, where the parts read neither as a list nor as one index pair;
    `L∞`, a sign a subscript holds glued to its letter (`L_{\\infty}`); the name only where
    a formula writes it."""
    plain = text.replace("\\_", "_").strip()
    if " " in plain:
        return symbols.SymbolCell(text, (), symbols.NONE)
    if "_" in plain and "," in plain:
        plain = plain.replace(",", "_")
    elif "_" not in plain and (glued := _GLUED_SIGN.fullmatch(plain)):
        plain = f"{glued.group(1)}_{glued.group(2)}"
    name = symbols.name_of(plain)
    if name is None or not spellings.written(name):
        return symbols.SymbolCell(text, (), symbols.NONE)
    return symbols.SymbolCell(text, (name,), symbols.SYMBOL)


_GLUED_SIGN = re.compile(rf"([^\W\d_]+)([{''.join(naming.SUBSCRIPT_SIGNS)}])")


def _ends_block(block: Block) -> bool:
    return (
        block.kind != "paragraph"
        or shapes.is_glossary_mark(block.text)
        or shapes.assumption_text(block.text) is not None
    )


def _what(block: Block | None) -> str:
    if block is None:
        return "the end of the lesson"
    if block.kind == "paragraph":
        return "prose" if shapes.is_prose(block.text) else f"{block.text[:40]!r}"
    return f"a {block.kind}"


def _entry_at(blocks: list[Block], index: int, run_end: int, spellings: Spellings) -> bool:
    """Whether a readable entry (a symbol, then its meaning and unit) starts at `index`,
    after a meaning and a unit that are not prose: the block goes on past an odd symbol."""
    if index + 2 >= run_end:
        return False
    if any(shapes.is_long_prose(blocks[i].text) for i in range(index - 2, index + 3)):
        return False
    text = blocks[index].text
    return not shapes.is_prose(text) and _symbol_cell(text, spellings) is not None


def _described(blocks: list[Block], index: int, run_end: int) -> bool:
    """Whether a meaning and a unit, neither of them prose, follow `blocks[index]`."""
    rest = blocks[index + 1 : index + 3]
    return index + 2 < run_end and not any(shapes.is_prose(part.text) for part in rest)


def _why(text: str) -> str:
    return " (a word no formula writes)" if _WORD.match(text) else ""


def _stop(text: str, entry: int) -> str:
    """Why reading stops at `text`, said once for the block."""
    return (
        f"glossary entries stop at {text[:60]!r}, which cannot be a symbol{_why(text)} "
        f"(entry {entry} of the block); the rest is read as prose"
    )


def read_glossary(
    blocks: list[Block], mark: int, section: str, spellings: Spellings | None = None
) -> tuple[Glossary | None, int]:
    """The glossary whose mark is `blocks[mark]`, and the index after what it used. A mark
    followed by neither an entry nor a dangling symbol is no glossary (None): it stays
    plain, like a glossary of terms. Names are spelled as the lesson's formulas spell them
    (`spellings`, by default those of `blocks`)."""
    spellings = spellings if spellings is not None else Spellings(blocks)
    run_end = mark + 1
    while run_end < len(blocks) and not _ends_block(blocks[run_end]):
        run_end += 1
    entries: list[GlossaryEntry] = []
    notes: list[GlossaryNote] = []
    unread: list[Block] = []
    cursor = mark + 1
    while cursor < run_end:
        head = blocks[cursor]
        if shapes.is_prose(head.text):
            break
        cell = _symbol_cell(head.text, spellings)
        if (
            cell is None
            and notation.NUMBER_FUNCTION.fullmatch(head.text.strip())
            and _described(blocks, cursor, run_end)
        ):
            cell = symbols.SymbolCell(head.text, (), symbols.NONE)  # `ln 2`: a constant, named
        if cell is None and _entry_at(blocks, cursor + 3, run_end, spellings):
            unread.append(head)  # one odd symbol among entries: keep reading the entries
            cell = symbols.SymbolCell(head.text, (), symbols.NONE)
        elif cell is None and not entries:
            break  # a mark followed by no entry (a glossary of terms) is no symbol table
        elif cell is None:
            notes.append(GlossaryNote(head.start, _stop(head.text, len(entries) + 1)))
            break
        rest = blocks[cursor + 1 : min(cursor + 3, run_end)]
        if any(shapes.is_long_prose(part.text) for part in rest):
            rest = rest[: next(i for i, p in enumerate(rest) if shapes.is_long_prose(p.text))]
        if len(rest) < 2:
            missing = "meaning and unit" if not rest else "unit"
            after = blocks[cursor + 1 + len(rest)] if cursor + 1 + len(rest) < len(blocks) else None
            reason = (
                f"glossary symbol {head.text!r} has no {missing}: the block ends at {_what(after)}"
            )
            notes.append(GlossaryNote(head.start, reason))
            cursor += 1 + len(rest)
            break
        meaning, unit = rest
        entries.append(
            GlossaryEntry(
                head.text,
                meaning.text,
                unit.text,
                head.start,
                spellings.resolve(cell.names, cell.qualifier),
                meaning.start,
                unit.start,
                unit.end,
            )
        )
        cursor += 3
    if unread:
        spelled = ", ".join(repr(part.text[:40]) + _why(part.text) for part in unread)
        reason = (
            f"glossary symbol {spelled} cannot be read as a symbol; its entry names nothing "
            "and the entries after it are read on"
        )
        notes.insert(0, GlossaryNote(unread[0].start, reason))
    block = blocks[mark]
    if not entries and not notes:
        return None, mark + 1
    end = blocks[cursor - 1].end if cursor > mark + 1 else block.end
    return Glossary(section, tuple(entries), block.start, block.text, end, tuple(notes)), cursor


def glossaries(blocks: list[Block]) -> list[Glossary]:
    found: list[Glossary] = []
    headings: list[Block] = []
    spellings = Spellings(blocks)
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if block.kind == "heading":
            while headings and headings[-1].level >= block.level:
                headings.pop()
        if block.kind in ("paragraph", "heading") and shapes.is_glossary_mark(block.text):
            section = headings[-1].text if headings else ""
            glossary, after = read_glossary(blocks, index, section, spellings)
            if glossary is not None:
                found.append(glossary)
                index = after
                continue
        if block.kind == "heading":
            headings.append(block)
        index += 1
    return found
