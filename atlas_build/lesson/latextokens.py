"""LaTeX as tokens for the name scan: commands, letters, numbers, spaces, other characters.

Any input tokenises (nothing is rejected), each token keeps its offset, and braces are
paired once up front so the scan never searches for a closing brace twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LETTER, NUMBER, CMD, SPACE, CHAR = "letter", "number", "cmd", "space", "char"
_TOKEN = re.compile(r"\\([A-Za-z]+)|\\(.)|(\d+(?:\.\d+)?|\.\d+)|(\s+)|(.)", re.S)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    start: int


def tokens(latex: str) -> list[Token]:
    found: list[Token] = []
    for match in _TOKEN.finditer(latex):
        command, symbol, number, space, char = match.groups()
        if command is not None:
            found.append(Token(CMD, command, match.start()))
        elif symbol is not None:
            found.append(Token(CMD, symbol, match.start()))
        elif number is not None:
            found.append(Token(NUMBER, number, match.start()))
        elif space is not None:
            found.append(Token(SPACE, space, match.start()))
        elif char.isalpha():
            found.append(Token(LETTER, char, match.start()))
        else:
            found.append(Token(CHAR, char, match.start()))
    return found


def pairs(tokens: list[Token]) -> dict[int, int]:
    """Index of each `{` -> index of its `}` and back (unclosed ones run to the end)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind == CHAR and token.text == "{":
            stack.append(index)
        elif token.kind == CHAR and token.text == "}" and stack:
            opening = stack.pop()
            pairs[opening], pairs[index] = index, opening
    for opening in stack:
        pairs[opening] = len(tokens)
    return pairs


def degree_signs(found: list[Token], first: int, end: int) -> set[int]:
    """The indices of each `^\\circ` after a number between `first` and `end`
    (`L_{90^\\circ}`: the 90° turn's, `ΔL_90°`): a degree sign a name leaves out."""
    signs: set[int] = set()
    for at in range(max(first, 1), end - 1):
        sign = at + 2 if found[at + 1].kind == CHAR and found[at + 1].text == "{" else at + 1
        caret = found[at].kind == CHAR and found[at].text == "^"
        if caret and found[at - 1].kind == NUMBER and sign < end and found[sign].text == "circ":
            signs |= {at, sign}
    return signs


def cut_off(found: list[Token], word: str | None, after: int) -> tuple[str | None, int]:
    """`\\mathrm{NR@}k`: the word and, when it ends in `@`, the cut-off written against it
    (`NR@k`, one metric's name, as a glossary writes it); the index after what was read."""
    if word is None or not word.endswith("@"):
        return word, after
    if after < len(found) and found[after].kind in (LETTER, NUMBER):
        return word + found[after].text, after + 1
    return word, after
