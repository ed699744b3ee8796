"""Authored lessons: `lesson.md` = YAML front matter (record metadata) + markdown body.

Front matter is untrusted input, so it is composed node by node with PyYAML's
safe loader and refused outright when it uses aliases (the billion-laughs
shape), non-standard tags, duplicate keys, or exceeds a size cap. Dates stay
strings, exactly as the record stores them. The record the rest of the
pipeline sees is the front matter plus fields computed from the body.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from atlas_build.authoring import records
from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.model import COMPUTED_FIELDS
from atlas_build.source import LineIndex, Source

STAGE = "load"
MAX_FRONT_MATTER = 64 * 1024
MAX_NODES = 5000
_OPEN = re.compile(r"\A---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)
STANDARD_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")
)

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


class _Refused(Exception):
    def __init__(self, code: Any, message: str, mark: Any) -> None:
        self.code, self.message, self.mark = code, message, mark


class _Loader(yaml.SafeLoader):
    """A safe loader whose composer rejects aliases and whose dates stay strings."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise _Refused(
                HOSTILE, "YAML aliases are not allowed in front matter", event.start_mark
            )
        return Composer.compose_node(self, parent, index)


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _walk(node: Node, pointer: str) -> Iterator[tuple[str, Node, Node | None]]:
    """(pointer, value node, key node) for every node, in document order."""
    yield pointer, node, None
    if isinstance(node, MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, ScalarNode):
                raise _Refused(SYNTAX, "front-matter keys must be plain strings", key.start_mark)
            if key.value in seen:
                raise _Refused(DUPLICATE, f"duplicate key {key.value!r}", key.start_mark)
            seen.add(key.value)
            child = f"{pointer}/{key.value.replace('~', '~0').replace('/', '~1')}"
            for entry in _walk(value, child):
                yield entry if entry[0] != child else (child, entry[1], key)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            yield from _walk(item, f"{pointer}/{index}")


class LessonLocator:
    """Positions in a lesson.md: front-matter nodes by pointer, body offsets by line."""

    def __init__(self, path: str, text: str, body_start: int) -> None:
        self.path = path
        self._lines = LineIndex(text)
        self._body_start = body_start
        # pointer -> (value line, column), (key line, column) | None; 1-based in lesson.md
        self.marks: dict[str, tuple[tuple[int, int], tuple[int, int] | None]] = {}

    def pointer(self, pointer: str) -> Location:
        if pointer == "/content" or pointer.startswith("/sections"):
            return self.content(0)
        probe = pointer
        while probe:
            if probe in self.marks:
                line, column = self.marks[probe][0]
                return Location(self.path, line, column, pointer)
            probe = probe.rsplit("/", 1)[0]
        return Location(self.path, 1, 1, pointer)

    def key(self, pointer: str) -> Location:
        found = self.marks.get(pointer)
        if found is not None and found[1] is not None:
            return Location(self.path, *found[1], pointer)
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
    """Parse a lesson.md into a Source whose data is front matter + `content` (the body)."""
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
    offset_line = locator.line_of(front_start) - 1

    def located(code: Any, message: str, mark: Any) -> list[Diagnostic]:
        line = (mark.line + 1 + offset_line) if mark is not None else 1
        column = (mark.column + 1) if mark is not None else 1
        return [at(code, Location(path, line, column), message)]

    if len(front) > MAX_FRONT_MATTER:
        return None, located(HOSTILE, f"front matter exceeds {MAX_FRONT_MATTER} bytes", None)
    loader = _Loader(front)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, located(SYNTAX, "front matter is empty", None)
        entries = list(_walk(node, ""))
        if len(entries) > MAX_NODES:
            return None, located(HOSTILE, f"front matter has over {MAX_NODES} values", None)
        for _pointer, value, _ in entries:
            if value.tag not in STANDARD_TAGS:
                raise _Refused(HOSTILE, f"tag {value.tag!r} is not allowed", value.start_mark)
        if not isinstance(node, MappingNode):
            raise _Refused(SYNTAX, "front matter must be a mapping of fields", node.start_mark)
        data = loader.construct_document(node)
    except _Refused as refused:
        return None, located(refused.code, refused.message, refused.mark)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        return None, located(SYNTAX, f"{error.problem or error.context}", mark)
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as error:
        return None, located(SYNTAX, f"front matter cannot be read: {error}", None)
    finally:
        loader.dispose()
    for pointer, value, key in entries:
        key_at = (key.start_mark.line + 1 + offset_line, key.start_mark.column + 1) if key else None
        value_at = (value.start_mark.line + 1 + offset_line, value.start_mark.column + 1)
        locator.marks[pointer] = (value_at, key_at)
    problems = [
        at(COMPUTED, locator.key(f"/{name}"), f"{name} is computed from the body; remove it")
        for name in data
        if name in COMPUTED_FIELDS
    ]
    return (None if problems else data), problems
