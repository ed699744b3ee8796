"""Linear scans of JSON text that may be hostile: each is one pass, whatever the input.

A record is checked before `json.loads` sees it (nesting depth, number literals) and
located after (brackets, strings, the position of a value). Every pattern here is
possessive or anchored so that no input makes the regex engine revisit text: an
unterminated string simply runs to the end of the file, a backslash run is consumed in
pairs, and a failed number match never restarts inside the same run of digits.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

# A string literal; an unterminated one (no closing quote) runs to the end of the text.
STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?'
STRING_RE = re.compile(STRING, re.DOTALL)
MAX_NUMBER_CHARS = 1000
_NUMBER_CHAR = r"[0-9A-Za-z.+\-]"
_NUMBER_START = rf"(?<!{_NUMBER_CHAR})-?[0-9]"
# Strings are skipped as units; brackets count depth; a run of number characters long
# enough to refuse (the look-behind starts it at the start of its run, so a failed match
# is never retried inside the same run); NaN and Infinity outside strings.
_PRESCAN = re.compile(
    STRING
    + r"|[\[\]{}]"
    + rf"|(?P<long>{_NUMBER_START}{_NUMBER_CHAR}{{{MAX_NUMBER_CHARS},}}+)"
    + r"|(?P<constant>-?(?:Infinity|NaN))",
    re.DOTALL,
)
_BRACKETS = re.compile(STRING + r"|[\[\]{}]", re.DOTALL)
_NUMBERS = re.compile(STRING + rf"|{_NUMBER_START}{_NUMBER_CHAR}*+", re.DOTALL)


@dataclass(frozen=True)
class Prescan:
    """What one pass over the text found: the deepest nesting and where the limit was
    first passed, the first over-long number literal, the first NaN/Infinity (offsets or -1)."""

    deepest: int
    too_deep_at: int
    long_number_at: int
    long_number_length: int
    non_finite_at: int


def prescan(text: str, max_depth: int) -> Prescan:
    """Nesting, number lengths and non-finite constants, strings skipped, in one pass."""
    depth = deepest = 0
    too_deep = long_at = long_length = non_finite = -1
    for match in _PRESCAN.finditer(text):
        start = match.start()
        first = text[start]
        if first == '"':
            continue
        if first in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth == max_depth + 1:
                    too_deep = start
        elif first in "]}":
            depth -= 1
        elif match.lastgroup == "constant":
            if non_finite < 0:
                non_finite = start
        elif long_at < 0:
            long_at, long_length = start, match.end() - start
    return Prescan(deepest, too_deep, long_at, long_length, non_finite)


def number_literals(text: str) -> Iterator[tuple[int, str]]:
    """(offset, literal) of each number outside strings, in order (for error paths)."""
    for match in _NUMBERS.finditer(text):
        if text[match.start()] != '"':
            yield match.start(), match.group()


class Brackets:
    """The matching close of every `[`/`{` outside strings, found in one pass on demand.

    Two flat integer arrays (open offsets, in order, and their closes), so a 5 MB file of
    `[],[],...` costs 16 bytes per container, not a Python object each.
    """

    def __init__(self, text: str) -> None:
        self._opens = array("q")
        self._closes = array("q")
        stack: list[int] = []
        for match in _BRACKETS.finditer(text):
            start = match.start()
            first = text[start]
            if first in "[{":
                stack.append(len(self._opens))
                self._opens.append(start)
                self._closes.append(len(text))
            elif first in "]}" and stack:
                self._closes[stack.pop()] = start

    def close(self, start: int) -> int:
        """Offset of the bracket closing the one at `start` (the text's end if none)."""
        index = bisect_left(self._opens, start)
        if index < len(self._opens) and self._opens[index] == start:
            return self._closes[index]
        return start
