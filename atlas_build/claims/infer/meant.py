"""Which symbol a list or number of the prose is, by the noun written just before it.

The seed's worked relation reads `With allowed scores [0,ln3] and scalar values [2,6],
attention probabilities are [0.25,0.75] and output is 5.`: no list is named by a symbol,
yet each is named by the noun its table's meaning is about (`s_j` — Pre-softmax score,
`v_j` — Allowed scalar value, `a_j` — Softmax probability over allowed keys, `o` — Scalar
attention output). A list or number is a symbol's where the last content word before it,
singular, is a word of that symbol's meaning and of no other meaning in the table of its
own section (the whole lesson's tables when its section has none).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from typing import TypeVar

from atlas_build.claims.infer.statements import STOP
from atlas_build.lesson.model import Lesson

_T = TypeVar("_T")
_WORD = re.compile(r"[A-Za-z]{3,}")
_BOUNDARY = re.compile(r"[\d\])=≈]")  # where the words of the previous quantity end
_REACH = 48  # characters before a list or number searched for its noun
_VERBS = frozenset({"equal", "equals", "become", "becomes", "come", "comes", "out"})


def singular(word: str) -> str:
    """`probabilities` -> `probability`, `scores` -> `score`, `values` -> `value`."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ses") or word.endswith("xes"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


class Tables:
    """The meaning words (singular) of every glossary symbol, by the section it is in."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.by_section: dict[int, dict[str, frozenset[str]]] = {}
        for glossary in lesson.glossaries:
            heading = lesson.section_of(glossary.offset)
            key = heading.start if heading is not None else -1
            table = self.by_section.setdefault(key, {})
            for entry in glossary.entries:
                words = frozenset(
                    singular(w) for w in _WORD.findall(entry.meaning) if w.lower() not in STOP
                )
                for name in entry.names:
                    table[name] = words
        self.every = {n: w for table in self.by_section.values() for n, w in table.items()}

    def symbol(self, offset: int, start: int, names: Container[str]) -> str | None:
        """The one name of `names` whose meaning holds the noun just before `offset` (not
        before `start`, the paragraph's), where no other symbol's meaning does."""
        head = noun(self.lesson.content, max(start, offset - _REACH), offset)
        if head is None:
            return None
        heading = self.lesson.section_of(offset)
        table = self.by_section.get(heading.start if heading is not None else -1) or self.every
        holding = [name for name, words in table.items() if head in words]
        if len(holding) != 1 or holding[0] not in names:
            return None
        return holding[0]

    def named(
        self, items: Iterable[_T], offset: Callable[[_T], int], start: int, names: Container[str]
    ) -> dict[str, list[_T]]:
        """The items (each at `offset(item)`) their nouns name, by symbol (`symbol`): a
        paragraph of several cases (`temperature 1 … temperature 0.5`) names one symbol more
        than once."""
        found: dict[str, list[_T]] = {}
        for item in items:
            name = self.symbol(offset(item), start, names)
            if name is not None:
                found.setdefault(name, []).append(item)
        return found


def noun(content: str, start: int, end: int) -> str | None:
    """The last content word of `content[start:end]` after the previous quantity, singular."""
    text = content[start:end]
    cut = [m.end() for m in _BOUNDARY.finditer(text)]
    text = text[cut[-1] :] if cut else text
    words = [w for w in _WORD.findall(text) if w.lower() not in STOP | _VERBS]
    return singular(words[-1]) if words else None
