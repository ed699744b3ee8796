"""Strict JSON reading: one located diagnostic for each way a file can be untrustworthy.

Python's `json` accepts things a validator must not: duplicate keys (last one
silently wins), `NaN`/`Infinity`, and it raises `RecursionError` on deep nesting.
This module refuses all of them with a file position, and maps JSON pointers and
positions inside the `content` string back to `line:col` using json-source-map.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from json_source_map import handle, types

from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.source import LineIndex, pointer_segment

STAGE = "load"
TOO_LARGE = define(
    "A101",
    "file-too-large",
    Severity.ERROR,
    "The file is larger than the size cap (default 5 MiB, `--max-bytes`).",
    example="a 100 MB record.json",
    fix="Split the lesson or raise `--max-bytes` deliberately.",
    stage=STAGE,
)
BOM = define(
    "A102",
    "byte-order-mark",
    Severity.ERROR,
    "The file starts with a UTF-8 byte-order mark; records are plain UTF-8 (RFC 8259 §8.1).",
    example="EF BB BF at the start of record.json",
    fix="Save the file as UTF-8 without BOM.",
    stage=STAGE,
)
NOT_UTF8 = define(
    "A103",
    "not-utf8",
    Severity.ERROR,
    "The file contains bytes that are not valid UTF-8.",
    example="a Latin-1 `é` (0xE9) in a title",
    fix="Re-encode the file as UTF-8.",
    stage=STAGE,
)
SYNTAX = define(
    "A104",
    "json-syntax",
    Severity.ERROR,
    "The file is not valid JSON (truncated, trailing garbage, bad token...).",
    example='{"id": "x",',
    fix="Repair the JSON at the reported position.",
    stage=STAGE,
)
DUPLICATE_KEY = define(
    "A105",
    "duplicate-key",
    Severity.ERROR,
    "An object has the same key twice; JSON parsers disagree on which one wins.",
    example='{"id": "a", "id": "b"}',
    fix="Keep one of the two keys.",
    stage=STAGE,
)
NON_FINITE = define(
    "A106",
    "non-finite-number",
    Severity.ERROR,
    "`NaN`, `Infinity` or `-Infinity` appear; they are not JSON.",
    example='{"contentLength": NaN}',
    fix="Use a finite number or null.",
    stage=STAGE,
)
TOO_DEEP = define(
    "A107",
    "too-deeply-nested",
    Severity.ERROR,
    "Arrays or objects are nested deeper than any record needs (limit 64).",
    example="[[[[...]]]] 10,000 levels deep",
    fix="Flatten the structure.",
    stage=STAGE,
)

MAX_DEPTH = 64
_NON_FINITE = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')
_LONG_NUMBER = re.compile(r"-?[0-9]{1000,}")
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|([\[\]{}])')


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _NonFinite(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _constant(name: str) -> Any:
    raise _NonFinite(name)


def _max_depth(text: str) -> tuple[int, int]:
    """Deepest nesting and the offset where the limit is first passed (strings skipped)."""
    depth = deepest = 0
    where = -1
    for match in _NESTING.finditer(text):
        bracket = match.group(1)
        if bracket is None:
            continue
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth == MAX_DEPTH + 1:
                    where = match.start(1)
        else:
            depth -= 1
    return deepest, where


def decode(raw: bytes, path: str, *, max_bytes: int) -> tuple[str | None, list[Diagnostic]]:
    """Bytes to text, refusing oversize files, a BOM and invalid UTF-8 with a position."""
    here = Location(path, 1, 1)
    if len(raw) > max_bytes:
        return None, [at(TOO_LARGE, here, f"file is {len(raw)} bytes; the cap is {max_bytes}")]
    if raw.startswith(b"\xef\xbb\xbf"):
        return None, [at(BOM, here, "file starts with a UTF-8 byte-order mark (EF BB BF)")]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as error:
        good = raw[: error.start].decode("utf-8")
        line, column = LineIndex(good).position(len(good))
        bad = raw[error.start : error.start + 1].hex().upper()
        message = f"invalid UTF-8 byte 0x{bad} at byte offset {error.start}"
        return None, [at(NOT_UTF8, Location(path, line, column), message)]


def parse(text: str, path: str) -> tuple[Any, list[Diagnostic]]:
    """Parse JSON strictly; on failure return `None` and one located diagnostic."""
    deepest, where = _max_depth(text)
    if deepest > MAX_DEPTH:
        line, column = LineIndex(text).position(where)
        message = f"nesting depth {deepest} exceeds the limit of {MAX_DEPTH}"
        return None, [at(TOO_DEEP, Location(path, line, column), message)]
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant), []
    except json.JSONDecodeError as error:
        message = error.msg
        if message == "Extra data":
            message = "trailing data after the JSON value"
        elif error.pos >= len(text.rstrip()):
            message = f"{message} (the file ends early: truncated?)"
        return None, [at(SYNTAX, Location(path, error.lineno, error.colno), message)]
    except _NonFinite as error:
        match = next(m for m in _NON_FINITE.finditer(text) if m.group(1))
        line, column = LineIndex(text).position(match.start(1))
        return None, [at(NON_FINITE, Location(path, line, column), f"{error.args[0]} is not JSON")]
    except _DuplicateKey as error:
        return None, [_duplicate(text, path, error.key)]
    except RecursionError:
        return None, [at(TOO_DEEP, Location(path, 1, 1), "structure is nested too deeply")]
    except ValueError as error:  # e.g. an integer literal beyond Python's digit limit
        long_number = _LONG_NUMBER.search(text)
        line, column = LineIndex(text).position(long_number.start()) if long_number else (1, 1)
        return None, [at(SYNTAX, Location(path, line, column), f"unreadable number: {error}")]


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')


@dataclass
class _Container:
    pointer: str
    is_object: bool
    keys: set[str] = field(default_factory=set)
    member: str = "0"  # current key (objects) or index (arrays)
    expecting_key: bool = True


def _duplicate(text: str, path: str, key: str) -> Diagnostic:
    """Locate the second occurrence of a key within one object.

    json-source-map cannot do this: its pointers do not escape `/` in keys, so
    `{"a/b": 1, "a": {"b": 2}}` looks like a duplicate to it. This scan follows
    objects and arrays (strings skipped) and decodes each key in its own object.
    """
    stack: list[_Container] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if token in "{[":
            pointer = f"{top.pointer}/{pointer_segment(top.member)}" if top else ""
            stack.append(_Container(pointer, token == "{"))
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == "," and top is not None:
            if top.is_object:
                top.expecting_key = True
            else:
                top.member = str(int(top.member) + 1)
        elif token == ":" and top is not None:
            top.expecting_key = False
        elif top is not None and top.is_object and top.expecting_key:
            name = json.loads(token)
            if name in top.keys:
                pointer = f"{top.pointer}/{pointer_segment(name)}"
                line, column = LineIndex(text).position(match.start())
                location = Location(path, line, column, pointer)
                return at(DUPLICATE_KEY, location, f"duplicate key {name!r} at {pointer}")
            top.keys.add(name)
            top.member = name
    return at(DUPLICATE_KEY, Location(path, 1, 1), f"duplicate key {key!r}")


class JsonLocator:
    """Pointer and content-offset locations for a parsed JSON record file."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._text = text
        self._lines = LineIndex(text)

    @cached_property
    def _map(self) -> dict[str, Any]:
        try:
            return dict(handle.value(source=self._text, current_location=types.Location(0, 0, 0)))
        except Exception:
            return {}

    def _entry(self, pointer: str) -> tuple[str, Any] | None:
        while True:
            # json-source-map joins raw keys with "/" (no RFC 6901 escaping)
            raw = "/".join(
                part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")
            )
            entry = self._map.get(raw)
            if entry is not None or not pointer:
                return (pointer, entry) if entry is not None else None
            pointer = pointer.rsplit("/", 1)[0]

    def pointer(self, pointer: str) -> Location:
        found = self._entry(pointer)
        if found is None:
            return Location(self.path, 1, 1, pointer)
        start = found[1].value_start
        return Location(self.path, start.line + 1, start.column + 1, pointer)

    def key(self, pointer: str) -> Location:
        found = self._entry(pointer)
        if found is None or found[1].key_start is None:
            return self.pointer(pointer)
        start = found[1].key_start
        return Location(self.path, start.line + 1, start.column + 1, pointer)

    @cached_property
    def _content_positions(self) -> list[int]:
        """Source index of each decoded code point of the `content` string, plus its end."""
        found = self._entry("/content")
        if found is None or found[0] != "/content":
            return []
        index = found[1].value_start.position
        text = self._text
        if index >= len(text) or text[index] != '"':
            return []
        positions: list[int] = []
        index += 1
        while index < len(text) and text[index] != '"':
            positions.append(index)
            if text[index] != "\\":
                index += 1
            elif text[index + 1] != "u":
                index += 2
            elif 0xD800 <= int(text[index + 2 : index + 6], 16) < 0xDC00:
                index += 12  # a surrogate pair decodes to one code point
            else:
                index += 6
        positions.append(index)
        return positions

    @cached_property
    def _content_lines(self) -> LineIndex:
        positions = self._content_positions
        return LineIndex(json.loads(self._text[positions[0] - 1 : positions[-1] + 1]))

    def content(self, offset: int) -> Location:
        positions = self._content_positions
        if not positions:
            return self.pointer("/content")
        offset = max(0, min(offset, len(positions) - 1))
        line, column = self._lines.position(positions[offset])
        content_line, content_column = self._content_lines.position(offset)
        return Location(self.path, line, column, "/content", content_line, content_column)
