"""Authored lessons: `lesson.md` = YAML front matter (record metadata) + markdown body.

Front matter is untrusted input, so it is composed node by node with PyYAML's
safe loader and refused outright when it uses aliases (the billion-laughs
shape), non-standard tags, duplicate keys, or exceeds a size cap. Dates stay
strings, exactly as the record stores them. Numbers a JSON record cannot hold (`.inf`,
`.nan`) are A106 and strings that are not Unicode (a `"\\ud800"` escape) A110 at the
value, as for a record.json, before any field is computed from them. The record the
rest of the pipeline sees is the front matter plus fields computed from the body.
"""

from __future__ import annotations

import re
from typing import Any

from atlas_build import safeyaml
from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.load import records
from atlas_build.load.jsonfile import NON_FINITE
from atlas_build.load.schema import SCHEMA, lone_surrogates, not_unicode
from atlas_build.model import COMPUTED_FIELDS
from atlas_build.source import LineIndex, Source, json_pointer

STAGE = "load"
MAX_FRONT_MATTER = 64 * 1024
_OPEN = re.compile(r"\A---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)

MISSING = define(
    "A130",
    "missing-front-matter",
    Severity.ERROR,
    "lesson.md must start with a `---` line, the YAML front matter, and a closing `---` line.",
    example="a lesson.md that starts with `# Title`",
    fix="Add the front matter (`atlas-build new` shows every field).",
    stage=STAGE,
)
SYNTAX = define(
    "A131",
    "front-matter-syntax",
    Severity.ERROR,
    "The front matter is not valid YAML, or is not a mapping of field names to values.",
    example="title: [unclosed",
    fix="Repair the YAML at the reported position.",
    stage=STAGE,
)
HOSTILE = define(
    "A132",
    "front-matter-unsafe",
    Severity.ERROR,
    "The front matter uses a YAML feature atlas-build refuses: aliases/anchors (which can "
    "expand exponentially), custom tags (which can construct objects), or is too large.",
    example="a: &x [1]\nb: [*x, *x]   or   id: !!python/object:os.system",
    fix="Write the values out in plain YAML.",
    stage=STAGE,
)
DUPLICATE = define(
    "A133",
    "front-matter-duplicate-key",
    Severity.ERROR,
    "A front-matter key appears twice; YAML loaders silently keep the last one.",
    example="title: A\ntitle: B",
    fix="Keep one of the two keys.",
    stage=STAGE,
)
COMPUTED = define(
    "A134",
    "computed-field-in-front-matter",
    Severity.ERROR,
    "contentHash, contentLength, sections, recordHash and content are computed from the body; "
    "writing them by hand in front matter is refused.",
    example="contentHash: fc3f...",
    fix="Delete the field; the build computes it.",
    stage=STAGE,
)


class LessonLocator:
    """Positions in a lesson.md: front-matter nodes by pointer, body offsets by line."""

    def __init__(self, path: str, text: str, body_start: int) -> None:
        self.path = path
        self._lines = LineIndex(text)
        self._body_start = body_start
        self.document = safeyaml.Document(None)

    def pointer(self, pointer: str) -> Location:
        if pointer == "/content" or pointer.startswith("/sections"):
            return self.content(0)
        return Location(self.path, *self.document.position(pointer), pointer)

    def key(self, pointer: str) -> Location:
        if pointer in self.document.keys:
            return Location(self.path, *self.document.position(pointer, key=True), pointer)
        return self.pointer(pointer)

    def line_of(self, offset: int) -> int:
        return self._lines.position(offset)[0]

    def content(self, offset: int) -> Location:
        line, column = self._lines.position(self._body_start + offset)
        return Location(self.path, line, column, "/content")


def split(text: str) -> tuple[str, int, int] | None:
    """(front matter text, its start offset, body start offset), or None without front matter."""
    opening = _OPEN.match(text)
    if opening is None:
        return None
    closing = _CLOSE.search(text, opening.end())
    if closing is None:
        return None
    return text[opening.end() : closing.start()], opening.end(), closing.end()


def read_lesson(text: str, path: str) -> Source:
    """Parse a lesson.md into a Source whose data is front matter + `content` (the body).
    CRLF line endings (a Windows checkout of the repository) are read as LF, the canonical
    form's: a CR sits at the end of its line, so every line and column stays where it is."""
    text = text.replace("\r\n", "\n")
    parts = split(text)
    if parts is None:
        locator = LessonLocator(path, text, 0)
        problem = at(MISSING, Location(path, 1, 1), "no front matter: expected a first line `---`")
        return Source(path, "lesson", locator, None, [problem])
    front, front_start, body_start = parts
    locator = LessonLocator(path, text, body_start)
    data, problems = _front_matter(front, front_start, locator, path)
    if data is not None:
        data = records.compose(data, text[body_start:])
    return Source(path, "lesson", locator, data, problems)


def _front_matter(
    front: str, front_start: int, locator: LessonLocator, path: str
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    codes = {"syntax": SYNTAX, "unsafe": HOSTILE, "duplicate": DUPLICATE, "non-finite": NON_FINITE}
    try:
        document = safeyaml.load(
            front, line_offset=locator.line_of(front_start) - 1, max_bytes=MAX_FRONT_MATTER
        )
    except safeyaml.YamlError as error:
        where = Location(path, error.line, error.column)
        return None, [at(codes[error.kind], where, f"front matter: {error.message}")]
    if not isinstance(document.data, dict):
        where = Location(path, *document.position(""))
        return None, [at(SYNTAX, where, "front matter must be a mapping of record fields")]
    locator.document = document
    problems = [
        at(SCHEMA, locator.key(pointer) if is_key else locator.pointer(pointer), message)
        for pointer, is_key, message in _not_unicode(document.data)
    ]
    problems += [
        at(COMPUTED, locator.key(f"/{name}"), f"{name} is computed from the body; remove it")
        for name in document.data
        if name in COMPUTED_FIELDS
    ]
    return (None if problems else document.data), problems


def _not_unicode(data: Any) -> list[tuple[str, bool, str]]:
    """(pointer, is_key, message) for each string holding a lone surrogate escape."""
    found = []
    for path, is_key in lone_surrogates(data):
        pointer = json_pointer(path)
        what = f"the key {path[-1]!r}" if is_key else pointer
        found.append((pointer, is_key, f"front matter: {not_unicode(what)}"))
    return found
