"""Where a JSON pointer, or an offset into the `content` string, sits in a record file.

A map of every pointer costs a Python object per value: 2 GB for a 5 MB record holding
a 2.5-million-element array. This locator finds one pointer at a time instead. It walks
the pointer from the root, and for each container on the way keeps only flat integer
arrays (where each member's key and value start, and a hash of each key), filled
incrementally as far as a lookup needed; nested containers are skipped in one step
through the bracket table. Memory is one 8-byte integer per array element and three per
object member scanned, in the containers a query passed through (a 2.5-million-element
array: 20 MB, not 2 GB), and a second query into the same container scans nothing again.
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

from atlas_build.diagnostics import Location
from atlas_build.load.jsonscan import STRING_RE, Brackets
from atlas_build.source import LineIndex

_SPACE = re.compile(r"[ \t\n\r]*+")
_SCALAR = re.compile(r"[^\s,\]}]++")
_ESCAPE = re.compile(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)",
    re.DOTALL,
)
_INDEX = re.compile(r"0|[1-9][0-9]{0,17}")
_CACHED_CONTAINERS = 256


@dataclass
class _Members:
    """The members of one container found so far; `resume` is where scanning goes on."""

    is_object: bool
    resume: int
    done: bool = False
    values: array = field(default_factory=lambda: array("q"))
    keys: array = field(default_factory=lambda: array("q"))
    hashes: array = field(default_factory=lambda: array("q"))


def _key(raw: str) -> str:
    """A key literal's decoded text (lone surrogate escapes kept, as `json` keeps them)."""
    if "\\" not in raw:
        return raw[1:-1]
    try:
        decoded = json.loads(raw)
    except ValueError:
        return raw[1:-1]
    return decoded if isinstance(decoded, str) else raw[1:-1]


def _segments(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


class JsonLocator:
    """Pointer and content-offset locations for a parsed JSON record file."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._text = text
        self._containers: OrderedDict[int, _Members] = OrderedDict()

    @cached_property
    def _lines(self) -> LineIndex:
        return LineIndex(self._text)

    @cached_property
    def _brackets(self) -> Brackets:
        return Brackets(self._text)

    def _at(self, offset: int, pointer: str) -> Location:
        line, column = self._lines.position(offset)
        return Location(self.path, line, column, pointer)

    # --- walking a pointer ------------------------------------------------------------

    def _skip(self, start: int) -> int:
        """The offset just after the value starting at `start`."""
        text = self._text
        first = text[start]
        if first in "[{":
            return self._brackets.close(start) + 1
        match = STRING_RE.match(text, start) if first == '"' else _SCALAR.match(text, start)
        return match.end() if match and match.end() > start else start + 1

    def _members(self, start: int) -> _Members:
        members = self._containers.get(start)
        if members is None:
            members = _Members(self._text[start] == "{", start + 1)
            self._containers[start] = members
            if len(self._containers) > _CACHED_CONTAINERS:
                self._containers.popitem(last=False)
        else:
            self._containers.move_to_end(start)
        return members

    def _advance(self, members: _Members) -> bool:
        """Scan one more member; False when the container has no more."""
        text, position = self._text, members.resume
        if members.done:
            return False
        position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
        if position < len(text) and text[position] == ",":
            position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
        if position >= len(text) or text[position] in "]}":
            members.done = True
            return False
        key_start = position
        if members.is_object:
            match = STRING_RE.match(text, position)
            if match is None:
                members.done = True
                return False
            members.keys.append(key_start)
            members.hashes.append(hash(_key(match.group())))
            position = _SPACE.match(text, match.end()).end()  # type: ignore[union-attr]
            if position < len(text) and text[position] == ":":
                position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
            if position >= len(text):
                members.done = True
                members.values.append(key_start)
                return True
        members.values.append(position)
        members.resume = self._skip(position)
        return True

    def _child(self, start: int, segment: str) -> tuple[int | None, int] | None:
        """(key offset or None, value offset) of a member of the container at `start`."""
        members = self._members(start)
        if not members.is_object:
            if not _INDEX.fullmatch(segment):
                return None
            index = int(segment)
            while len(members.values) <= index and self._advance(members):
                pass
            return (None, members.values[index]) if index < len(members.values) else None
        wanted = hash(segment)
        searched = 0
        while True:
            try:
                index = members.hashes.index(wanted, searched)
            except ValueError:
                searched = len(members.hashes)
                if not self._advance(members):
                    return None
                continue
            raw = STRING_RE.match(self._text, members.keys[index])
            if raw is not None and _key(raw.group()) == segment:
                return members.keys[index], members.values[index]
            searched = index + 1

    def _find(self, pointer: str) -> tuple[int | None, int, bool] | None:
        """(key offset, value offset, whether the whole pointer was found) of the deepest
        value on the pointer's path; None for a text with no value at all."""
        text = self._text
        root = _SPACE.match(text).end()  # type: ignore[union-attr]
        if root >= len(text):
            return None
        key: int | None = None
        value = root
        for segment in _segments(pointer):
            if text[value] not in "[{":
                return key, value, False
            child = self._child(value, segment)
            if child is None:
                return key, value, False
            key, value = child
        return key, value, True

    def pointer(self, pointer: str) -> Location:
        found = self._find(pointer)
        if found is None:
            return Location(self.path, 1, 1, pointer)
        return self._at(found[1], pointer)

    def key(self, pointer: str) -> Location:
        found = self._find(pointer)
        if found is None or not found[2] or found[0] is None:
            return self.pointer(pointer)
        return self._at(found[0], pointer)

    # --- offsets into the content string ------------------------------------------------

    @cached_property
    def _content(self) -> tuple[int, int, array, array, LineIndex] | None:
        """Where `content`'s characters start, its decoded length, each escape's decoded
        offset and the source characters gained by the escapes up to and including it
        (plain characters between escapes map one to one), and the decoded text's lines;
        None when the record has no string `content`."""
        found = self._find("/content")
        if found is None or not found[2] or self._text[found[1]] != '"':
            return None
        start = found[1] + 1
        literal = STRING_RE.match(self._text, found[1])
        end = literal.end() - 1 if literal is not None else len(self._text)
        decoded, gained = array("q"), array("q")
        shift = 0
        for match in _ESCAPE.finditer(self._text, start, end):
            decoded.append(match.start() - start - shift)
            shift += match.end() - match.start() - 1
            gained.append(shift)
        try:
            value = json.loads(self._text[start - 1 : end + 1])
        except ValueError:
            value = None
        text = value if isinstance(value, str) else ""
        return start, len(text), decoded, gained, LineIndex(text)

    def content(self, offset: int) -> Location:
        mapping = self._content
        if mapping is None:
            return self.pointer("/content")
        start, length, decoded, gained, lines = mapping
        offset = max(0, min(offset, length))
        index = bisect_right(decoded, offset) - 1
        if index < 0:
            shift = 0
        elif decoded[index] == offset:
            shift = gained[index - 1] if index else 0
        else:
            shift = gained[index]
        line, column = self._lines.position(min(start + offset + shift, len(self._text)))
        content_line, content_column = lines.position(offset)
        return Location(self.path, line, column, "/content", content_line, content_column)
