"""A glossary block (`Symbols and units` and its symbol / meaning / unit paragraphs) as a
table: one row per entry the lesson model read, the symbol set as math where it is one.
"""

from __future__ import annotations

from html import unescape

from atlas_build.latex import mathml
from atlas_build.lesson.model import Glossary, GlossaryEntry
from atlas_build.site.pages.mathtext import plain
from atlas_build.site.pages.sanitize import clean
from atlas_build.site.pages.structures.parts import Parts, Replacement, consecutive, scroll_box
from atlas_build.site.pages.structures.symbolmath import symbol_latex

HEADERS = ("Symbol", "Meaning", "Unit")


def symbol_cell(entry: GlossaryEntry, written: str) -> str:
    """The symbol as math when the paragraph is plain text naming symbols; else as written
    (markup, a claim mark or an anchor in it stay as they are)."""
    if "<" in written or unescape(written) != " ".join(entry.symbol.split()):
        return written
    latex = symbol_latex(entry.symbol)
    if latex is None:
        return written
    try:
        return clean(mathml.render(latex, display=False))
    except mathml.MathError:
        return written


def _rows(glossary: Glossary, parts: Parts, first: int) -> list[str] | None:
    rows: list[str] = []
    expected = first
    for entry in glossary.entries:
        found = consecutive(
            [parts.at(entry.offset), parts.at(entry.meaning_offset), parts.at(entry.unit_offset)]
        )
        if found is None or found[0] != expected:
            return None
        cells = [parts.inner(index) for index in found]
        if any(cell is None for cell in cells):
            return None
        symbol, meaning, unit = (cell or "" for cell in cells)
        rows.append(
            f'<tr><th scope="row">{symbol_cell(entry, symbol)}</th>'
            f"<td>{meaning}</td><td>{unit}</td></tr>"
        )
        expected = found[-1] + 1
    return rows


def table(glossary: Glossary, parts: Parts) -> Replacement | None:
    """The replacement for a glossary's parts, or None when they do not line up. A mark
    that is a paragraph becomes the caption; a heading mark stays a heading."""
    mark = parts.at(glossary.offset)
    if mark is None or not glossary.entries:
        return None
    caption = parts.inner(mark)
    if caption is None and not parts.is_heading(mark):
        return None
    rows = _rows(glossary, parts, mark + 1)
    if rows is None:
        return None
    head = "".join(f'<th scope="col">{name}</th>' for name in HEADERS)
    html = (
        "<table>"
        + (f"<caption>{caption}</caption>" if caption is not None else "")
        + f"<thead><tr>{head}</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
    label = plain(caption) if caption is not None else glossary.mark
    label += f": {glossary.section}" if glossary.section else ""
    first = mark if caption is not None else mark + 1
    return Replacement(first, mark + 3 * len(rows), scroll_box(html, "atlas-glossary", label))
