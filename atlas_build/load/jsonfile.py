"""Strict JSON reading: one located diagnostic for each way a file can be untrustworthy.

Python's `json` accepts things a validator must not: duplicate keys (last one
silently wins), `NaN`/`Infinity`, and it raises `RecursionError` on deep nesting.
This module refuses all of them with a file position, after a linear pre-scan
(`jsonscan`) has refused what `json` would be slow or unbounded on: nesting beyond 64
levels and number literals longer than 1,000 characters. `jsonlocate` maps JSON
pointers and positions inside the `content` string back to `line:col`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.load import jsonscan
from atlas_build.load.jsonlocate import JsonLocator
from atlas_build.source import pointer_segment

__all__ = ["JsonLocator", "decode", "parse"]

STAGE = "load"
TOO_LARGE = define(
    "A101",
    "file-too-large",
    Severity.ERROR,
    "The file is larger than the size cap (default 1 MiB, `--max-bytes`).",
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
    "`NaN`, `Infinity` or `-Infinity` appear, or a number too large for a double (`1e400`); "
    "they are not JSON numbers any reader can hold.",
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


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NonFinite(literal)
    return value


def decode(raw: bytes, path: str, *, max_bytes: int) -> tuple[str | None, list[Diagnostic]]:
    """Bytes to text, refusing oversize files, a BOM and invalid UTF-8 with a position.

    `raw` is at most `max_bytes + 1` bytes of the file (nothing past the cap is read), so
    an oversize file is located where it crosses the cap, the last place anything of it
    was read, not at 1:1 (a 2 MB record had its one finding there)."""
    here = Location(path, 1, 1)
    if len(raw) > max_bytes:
        read = raw[:max_bytes].decode("utf-8", "replace")
        message = f"the file is larger than the cap of {max_bytes} bytes; it is read up to here"
        return None, [at(TOO_LARGE, _where(read, path, len(read)), message)]
    if raw.startswith(b"\xef\xbb\xbf"):
        return None, [at(BOM, here, "file starts with a UTF-8 byte-order mark (EF BB BF)")]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as error:
        good = raw[: error.start].decode("utf-8")
        bad = raw[error.start : error.start + 1].hex().upper()
        message = f"invalid UTF-8 byte 0x{bad} at byte offset {error.start}"
        return None, [at(NOT_UTF8, _where(good, path, len(good)), message)]


def parse(text: str, path: str) -> tuple[Any, list[Diagnostic]]:
    """Parse JSON strictly; on failure return `None` and one located diagnostic."""
    scan = jsonscan.prescan(text, MAX_DEPTH)
    if scan.deepest > MAX_DEPTH:
        message = f"nesting depth {scan.deepest} exceeds the limit of {MAX_DEPTH}"
        return None, [at(TOO_DEEP, _where(text, path, scan.too_deep_at), message)]
    if scan.long_number_at >= 0:
        message = (
            f"a number written with {scan.long_number_length} characters; "
            f"the limit is {jsonscan.MAX_NUMBER_CHARS}"
        )
        return None, [at(SYNTAX, _where(text, path, scan.long_number_at), message)]
    try:
        data = json.loads(
            text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float
        )
        return data, []
    except json.JSONDecodeError as error:
        message = error.msg
        if message == "Extra data":
            message = "trailing data after the JSON value"
        elif error.pos >= len(text.rstrip()):
            message = f"{message} (the file ends early: truncated?)"
        return None, [at(SYNTAX, Location(path, error.lineno, error.colno), message)]
    except _NonFinite as error:
        return None, [_non_finite(text, path, str(error.args[0]), scan)]
    except _DuplicateKey as error:
        return None, [_duplicate(text, path, error.key)]
    except RecursionError:
        return None, [at(TOO_DEEP, Location(path, 1, 1), "structure is nested too deeply")]


def _where(text: str, path: str, offset: int) -> Location:
    start = text.rfind("\n", 0, offset) + 1
    return Location(path, text.count("\n", 0, offset) + 1, offset - start + 1)


def _non_finite(text: str, path: str, literal: str, scan: jsonscan.Prescan) -> Diagnostic:
    """`NaN`/`Infinity` (found by the pre-scan) or a literal that overflows a double."""
    if literal in ("NaN", "Infinity", "-Infinity"):
        return at(
            NON_FINITE, _where(text, path, max(scan.non_finite_at, 0)), f"{literal} is not JSON"
        )
    offset = next(
        (start for start, number in jsonscan.number_literals(text) if number == literal), 0
    )
    message = f"{literal} is too large for a double (it would read as infinity)"
    return at(NON_FINITE, _where(text, path, offset), message)


_TOKEN = re.compile(jsonscan.STRING + r"|[\[\]{}:,]", re.DOTALL)


@dataclass
class _Container:
    pointer: str
    is_object: bool
    keys: set[str] = field(default_factory=set)
    member: str = "0"  # current key (objects) or index (arrays)
    expecting_key: bool = True


def _duplicate(text: str, path: str, key: str) -> Diagnostic:
    """Locate the second occurrence of a key within one object.

    A map of pointers cannot do this when it does not escape `/` in keys (as
    json-source-map did not: `{"a/b": 1, "a": {"b": 2}}` looked like a duplicate to it).
    This scan follows objects and arrays (strings skipped) and decodes each key in its
    own object.
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
            try:
                name = json.loads(token)
            except ValueError:  # a key cut off by the end of the file
                break
            if name in top.keys:
                pointer = f"{top.pointer}/{pointer_segment(name)}"
                where = _where(text, path, match.start())
                location = Location(path, where.line, where.column, pointer)
                return at(DUPLICATE_KEY, location, f"duplicate key {name!r} at {pointer}")
            top.keys.add(name)
            top.member = name
    return at(DUPLICATE_KEY, Location(path, 1, 1), f"duplicate key {key!r}")
