"""One notation table: the parser (`latex/`), the glossary readers (`lesson/`) and the glossary
symbol reader (`units/`) name every accent, combining mark and Greek letter alike."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from atlas_build import notation
from atlas_build.latex import names as latex_names
from atlas_build.latex import parse_expression
from atlas_build.latex import unicode as latex_unicode
from atlas_build.latex.dialect import WHITELIST
from atlas_build.latex.roles import ACCENT
from atlas_build.latex.vocabulary import GREEK_NAMES
from atlas_build.lesson import canonical
from atlas_build.lesson import names as lesson_names
from atlas_build.lesson.latexnames import scan
from atlas_build.lesson.symbols import name_of
from atlas_build.units import symbol_names
from atlas_build.units import symbols as units_symbols

PARSER_ACCENTS = sorted(name for name, command in WHITELIST.items() if command.kind == ACCENT)
"""The accent commands the LaTeX parser accepts."""


def _parsed(latex: str) -> str:
    expr = parse_expression(latex)
    assert expr.is_Symbol, latex
    return str(expr)


def test_notation_is_a_leaf() -> None:
    tree = ast.parse(Path(notation.__file__).read_text(encoding="utf-8"))
    imported = [
        node.module or "" if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert [name for name in imported if name.startswith("atlas_build")] == []


def test_every_accent_the_parser_accepts_is_in_the_table() -> None:
    assert PARSER_ACCENTS == sorted(notation.ACCENTS)
    assert "dddot" in PARSER_ACCENTS


def test_the_layers_read_the_one_table() -> None:
    assert latex_names.ACCENTS == notation.ACCENTS
    assert lesson_names.ACCENTS == notation.ACCENTS
    assert latex_unicode.COMBINING == notation.COMBINING
    assert lesson_names.COMBINING == notation.COMBINING_SUFFIXES
    assert units_symbols.ACCENTS == notation.COMBINING_SUFFIXES
    assert lesson_names.SUBSCRIPT_SIGNS == units_symbols.SUBSCRIPT_SIGNS
    assert list(notation.GREEK_LETTERS) == GREEK_NAMES
    assert set(notation.GREEK_LETTERS) <= lesson_names.GREEK


def test_every_accent_suffix_has_a_combining_mark() -> None:
    assert set(notation.COMBINING.values()) <= set(notation.ACCENTS)
    assert set(notation.COMBINING_SUFFIXES.values()) == set(notation.ACCENTS.values())


@pytest.mark.parametrize("command", PARSER_ACCENTS)
def test_an_accent_command_is_named_alike_everywhere(command: str) -> None:
    name = f"x_{notation.ACCENTS[command]}"
    latex = f"\\{command}{{x}}"
    assert _parsed(latex) == name
    assert scan(latex).names == (name,)
    assert symbol_names(latex) == [name]
    assert canonical(f"${latex}$") == [name]


@pytest.mark.parametrize("mark", sorted(notation.COMBINING))
def test_a_combining_mark_is_named_as_its_accent_command(mark: str) -> None:
    command = notation.COMBINING[mark]
    name = _parsed(f"\\{command}{{x}}")
    written = "x" + mark
    assert _parsed(written) == name
    assert name_of(written) == name
    assert canonical(written) == [name]
    assert symbol_names(written) == [name]


def test_a_triple_dot_is_the_same_symbol_in_a_glossary_and_an_equation() -> None:
    assert canonical("x\u20db") == [_parsed(r"\dddot{x}")] == ["x_dddot"]
    assert symbol_names("x\u20db") == symbol_names(r"\dddot{x}") == ["x_dddot"]
    assert scan(r"\dddot{x}_i").names == ("x_dddot_i",)


GREEK_CHARACTERS = sorted(
    {chr(code) for code in [*range(0x391, 0x3AA), *range(0x3B1, 0x3CA)] if code != 0x3A2}
    | set(notation.LETTERLIKE)
)
"""The Greek alphabet (U+03A2 is unassigned) and the characters read by a fixed table."""


@pytest.mark.parametrize("char", GREEK_CHARACTERS)
def test_a_greek_character_is_named_alike_everywhere(char: str) -> None:
    name = notation.greek_name(char)
    assert name is not None
    assert _parsed(f"{char}_a") == f"{name}_a"  # subscripted, so `π` is no constant
    folded = notation.plain_letter(name)
    assert lesson_names.greek_name(char) == folded
    assert symbol_names(char) == [folded]
    assert lesson_names.key(folded) == lesson_names.key(name)


@pytest.mark.parametrize(
    ("char", "name"),
    [("Α", "A"), ("Ρ", "P"), ("ο", "o"), ("ϑ", "vartheta"), ("ħ", "hbar"), ("ϴ", "Theta")],
)
def test_greek_spellings_the_tables_disagreed_on(char: str, name: str) -> None:
    assert _parsed(char) == name
    assert symbol_names(char) == [notation.plain_letter(name)]


@pytest.mark.parametrize("variant", [n for n in notation.GREEK_LETTERS if n.startswith("var")])
def test_a_variant_letter_compares_equal_to_its_plain_form(variant: str) -> None:
    assert _parsed(f"\\{variant}") == variant
    assert lesson_names.key(variant) == lesson_names.key(variant[3:])
    assert scan(f"\\{variant}").names == (variant,)
