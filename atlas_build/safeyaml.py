"""Safe YAML for untrusted files (front matter, claims): plain data only, every node located.

PyYAML's safe loader still expands aliases (the billion-laughs shape), silently
keeps the last of duplicate keys and turns `2026-10-07` into a date. This
reader composes the node tree itself and refuses aliases, non-standard tags,
duplicate keys, oversized documents and deep nesting, and keeps dates as
strings. Numbers are checked before they are built: a literal over 1,000 characters
is refused (PyYAML turns `0x...`, `0o...` and `1:2:3...` of any length into an
integer, sexagesimal ones in quadratic time, and printing such an integer raises), and
so are floats that are not finite (`.inf`, `.nan`, `1e99999`), which no JSON record or
comparison can hold. It returns the data plus the 1-based position of every value and key
by JSON pointer, so callers can report `file:line:col`. A syntax error about something left
open (a quote, a key's `:`, a bracket) is located where it opens, not where PyYAML gave up.

Speed: most documents are read with libyaml's scanner and parser (C) feeding the
same Python composer and checks, several times faster than PyYAML's Python
scanner. libyaml and PyYAML disagree on some rare inputs (tabs, unusual line
breaks, `?` in flow collections, the position of an empty flow value), so text
with any of those, and anything libyaml does not accept cleanly, is read by the
pure-Python parser, whose verdicts and positions are the reference; a
differential test holds the two paths to the same results.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import ParserError
from yaml.resolver import Resolver

try:
    import yaml.cyaml

    CParser: Any = yaml.cyaml.CParser  # type: ignore[attr-defined]
except (ImportError, AttributeError):  # PyYAML built without libyaml: the Python path alone
    CParser = None

MAX_BYTES = 256 * 1024
MAX_NODES = 20_000
MAX_DEPTH = 32
MAX_NUMBER_CHARS = 1000
_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
STANDARD_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")
)
Position = tuple[int, int]


class YamlError(Exception):
    """`kind` is "syntax", "unsafe", "duplicate" or "non-finite"; line and column are 1-based."""

    def __init__(self, kind: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.kind, self.message, self.line, self.column = kind, message, line, column


@dataclass
class Document:
    data: Any
    values: dict[str, Position] = field(default_factory=dict)
    keys: dict[str, Position] = field(default_factory=dict)

    def position(self, pointer: str, *, key: bool = False) -> Position:
        """Position of a pointer's key (when asked and present) or value, else its parent's."""
        if key and pointer in self.keys:
            return self.keys[pointer]
        probe = pointer
        while probe and probe not in self.values:
            probe = probe.rsplit("/", 1)[0]
        return self.values.get(probe, (1, 1))


def _error(kind: str, message: str, mark: Any, line_offset: int) -> YamlError:
    if mark is None:
        return YamlError(kind, message, 1 + line_offset, 1)
    return YamlError(kind, message, mark.line + 1 + line_offset, mark.column + 1)


# Errors about something left open: PyYAML's problem mark is where it gave up, the end of
# the text (an unclosed quote) or the next line's first token (a key without `:`, a flow
# collection without its `]` or `}`), a line or more after the mistake. The context mark is
# where the quote, key or bracket opened, on the line the author has to fix.
_LEFT_OPEN = {
    "while scanning a quoted scalar": "the quoted string that opens here is not closed",
    "while scanning a simple key": "this key has no `:` after it on its line",
    "while parsing a flow sequence": "this `[` is not closed",
    "while parsing a flow mapping": "this `{` is not closed",
}


def _marked(error: yaml.MarkedYAMLError, text: str, line_offset: int) -> YamlError:
    """A syntax error at the mark that says where the mistake is (`_LEFT_OPEN`, or a quoted
    string that ran on to where the parser failed); where PyYAML stopped is kept in the
    message."""
    problem, context = error.problem_mark, error.context_mark
    message = str(error.problem or error.context)
    if problem is None:
        return _error("syntax", message, context, line_offset)
    stopped = f"{message} at line {problem.line + 1 + line_offset}, column {problem.column + 1}"
    opened = _LEFT_OPEN.get(str(error.context))
    if opened is not None and context is not None and problem.line > context.line:
        return _error("syntax", f"{opened} ({stopped})", context, line_offset)
    quote = _runaway_quote(text, problem) if isinstance(error, ParserError) else None
    if quote is not None:
        ended = quote.end_mark.line + 1 + line_offset
        message = f"the quoted string that opens here runs on to line {ended}: is its closing"
        return _error(
            "syntax", f"{message} quote missing? ({stopped})", quote.start_mark, line_offset
        )
    return _error("syntax", message, problem, line_offset)


def _runaway_quote(text: str, problem: Any) -> Any:
    """The quoted scalar just before a parser error, if it spans lines and ends on the
    error's line: a missing closing quote makes a string run on to the next quote (`date:
    "2026-11-29` ... `version: "1.0"`), and the parser fails just after it, lines late."""
    last = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= problem.index:
                break
            last = token
    except yaml.YAMLError:
        return None
    if not isinstance(last, yaml.ScalarToken) or last.style not in ('"', "'"):
        return None
    return last if last.start_mark.line < last.end_mark.line == problem.line else None


class _Loader(yaml.SafeLoader):
    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        """PyYAML's composer, refusing aliases, and counting values as they are composed so
        that a document of a million tiny values stops at the limit, not after building
        them all (a mapping's keys are composed with index None and are not counted)."""
        if self.check_event(AliasEvent):
            raise _Refused("unsafe", "YAML aliases are not allowed", self.peek_event().start_mark)
        if not (isinstance(parent, MappingNode) and index is None):
            self.values_composed = getattr(self, "values_composed", 0) + 1
            if self.values_composed > MAX_NODES:
                mark = self.peek_event().start_mark
                raise _Refused("unsafe", f"more than {MAX_NODES} values", mark)
        return Composer.compose_node(self, parent, index)


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


if CParser is not None:

    class _FastLoader(Composer, CParser, SafeConstructor, Resolver):
        """libyaml events, our composer: Python's recursion limit still bounds nesting."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
        compose_node = _Loader.compose_node

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)


# Where libyaml and PyYAML are known to differ (see the module docstring). A `?` is one
# (a complex key, or a `?` in a flow scalar, which only the Python parser refuses) unless
# it ends a quoted string: a quiz question in quotes (`"... ridge point?"`) stays fast.
_PYTHON_ONLY = re.compile("[\t\r\x85\u2028\u2029\ufeff]|\\?(?![\"'])|:\\s*[,}\\]]")


def _fast(text: str) -> bool:
    if CParser is None or _PYTHON_ONLY.search(text):
        return False
    try:
        text.encode("utf-8")  # libyaml needs valid UTF-8: no lone surrogates
    except UnicodeEncodeError:
        return False
    return True


class _Refused(Exception):
    def __init__(self, kind: str, message: str, mark: Any) -> None:
        self.kind, self.message, self.mark = kind, message, mark


_FLOATS = SafeConstructor()


def _number(node: ScalarNode) -> None:
    """Refuse a number literal too long to build safely, or a float that is not finite."""
    if len(node.value) > MAX_NUMBER_CHARS:
        message = f"a number written with {len(node.value)} characters; the limit is "
        raise _Refused("unsafe", message + str(MAX_NUMBER_CHARS), node.start_mark)
    if node.tag == _FLOAT:
        try:
            value = _FLOATS.construct_yaml_float(node)
        except (ValueError, TypeError):  # not a float after all: construction reports it
            return
        if not math.isfinite(value):
            message = f"{node.value!r} is not a finite number (infinity and NaN are refused)"
            raise _Refused("non-finite", message, node.start_mark)


def _walk(node: Node, pointer: str, depth: int) -> Iterator[tuple[str, Node, Node | None]]:
    if depth > MAX_DEPTH:
        raise _Refused("unsafe", f"nesting deeper than {MAX_DEPTH} levels", node.start_mark)
    if node.tag not in STANDARD_TAGS:
        raise _Refused("unsafe", f"tag {node.tag!r} is not allowed", node.start_mark)
    if isinstance(node, ScalarNode) and node.tag in (_INT, _FLOAT):
        _number(node)
    yield pointer, node, None
    if isinstance(node, MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, ScalarNode) or key.tag != "tag:yaml.org,2002:str":
                raise _Refused("syntax", "keys must be plain strings", key.start_mark)
            if key.value in seen:
                raise _Refused("duplicate", f"duplicate key {key.value!r}", key.start_mark)
            seen.add(key.value)
            child = f"{pointer}/{key.value.replace('~', '~0').replace('/', '~1')}"
            for entry in _walk(value, child, depth + 1):
                yield entry if entry[0] != child else (child, entry[1], key)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            yield from _walk(item, f"{pointer}/{index}", depth + 1)


def load(text: str, *, line_offset: int = 0, max_bytes: int = MAX_BYTES) -> Document:
    """Parse one YAML document; raises YamlError with a position for anything refused."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise YamlError("unsafe", f"document exceeds {max_bytes} bytes", 1 + line_offset, 1)
    if _fast(text):
        try:
            return _read(_FastLoader, text, line_offset)
        except Exception:  # noqa: BLE001  (read again below, for the finding and its position)
            pass
    return _read(_Loader, text, line_offset)


def _position(text: str, index: int) -> Any:
    """A mark-like (0-based line, column) for a character index of `text`."""
    start = text.rfind("\n", 0, index) + 1
    return yaml.Mark("", index, text.count("\n", 0, index), index - start, None, 0)


def _unconstructible(loader: Any, entries: list[tuple[str, Node, Node | None]]) -> Any:
    """The mark of the first scalar the constructor cannot read on its own, if one is."""
    for _, node, _ in entries:
        if isinstance(node, ScalarNode):
            loader.constructed_objects, loader.recursive_objects = {}, {}
            try:
                loader.construct_object(node)
            except Exception:  # noqa: BLE001  (whatever it raises, this is the value)
                return node.start_mark
    return None


def _read(kind: Any, text: str, line_offset: int) -> Document:
    try:
        loader = kind(text)
    except yaml.reader.ReaderError as error:  # NUL and other unprintable characters
        where = _position(text, error.position)
        raise _error("syntax", str(error.reason), where, line_offset) from None
    except yaml.MarkedYAMLError as error:
        raise _marked(error, text, line_offset) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise _error("syntax", str(getattr(error, "reason", error)), mark, line_offset) from None
    entries: list[tuple[str, Node, Node | None]] = []
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None)
        for entry in _walk(node, "", 0):
            entries.append(entry)
            if len(entries) > MAX_NODES:
                raise _Refused("unsafe", f"more than {MAX_NODES} values", entry[1].start_mark)
        data = loader.construct_document(node)
    except _Refused as refused:
        raise _error(refused.kind, refused.message, refused.mark, line_offset) from None
    except yaml.MarkedYAMLError as error:
        raise _marked(error, text, line_offset) from None
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as error:
        mark = _unconstructible(loader, entries)
        raise _error("syntax", f"cannot be read: {error}", mark, line_offset) from None
    except (TypeError, KeyError, IndexError, AttributeError) as error:
        # a standard tag applied to text it cannot construct (`!!int ""`, `!!bool maybe`)
        mark = _unconstructible(loader, entries)
        message = f"a tagged value cannot be read: {error!r}"
        raise _error("syntax", message, mark, line_offset) from None
    finally:
        loader.dispose()
    document = Document(data)
    for pointer, value, key in entries:
        mark = value.start_mark
        document.values[pointer] = (mark.line + 1 + line_offset, mark.column + 1)
        if key is not None:
            document.keys[pointer] = (
                key.start_mark.line + 1 + line_offset,
                key.start_mark.column + 1,
            )
    return document
