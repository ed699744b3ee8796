"""The streaming JSON locator: every pointer, key and content offset where it is written.

Expected positions are found without atlas-build: the value (or key) at a pointer is
replaced by a sentinel and the sentinel searched for in the same dump, and content
offsets are counted through `json.dumps` of each character.
"""

from __future__ import annotations

import functools
import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from atlas_build.load import jsonfile

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='ab/~"\\é\n', max_size=3), children, max_size=4)
    ),
    max_leaves=25,
)


def _pointers(value, parts=()):
    yield parts
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _pointers(item, (*parts, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _pointers(item, (*parts, index))


def _marked(value, parts, *, key):
    """`value` with the value (or key) at `parts` replaced by a sentinel, order kept."""
    if not parts:
        return SENTINEL
    head, rest = parts[0], parts[1:]
    if isinstance(value, list):
        return [_marked(item, rest, key=key) if i == head else item for i, item in enumerate(value)]
    if key and not rest:
        return {(SENTINEL if k == head else k): item for k, item in value.items()}
    return {k: (_marked(item, rest, key=key) if k == head else item) for k, item in value.items()}


SENTINEL = "\u2063sentinel\u2063"


def _where(text, needle):
    index = text.index(needle)
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


@settings(max_examples=150, deadline=None)
@given(
    data=st.dictionaries(st.text(max_size=3), json_values, max_size=5),
    indent=st.sampled_from([None, 0, 2]),
    ascii_only=st.booleans(),
)
def test_locator_finds_every_pointer_and_key(data, indent, ascii_only):
    from atlas_build.source import json_pointer

    dump = functools.partial(json.dumps, indent=indent, ensure_ascii=ascii_only)
    text = dump(data)
    locator = jsonfile.JsonLocator("r.json", text)
    for parts in _pointers(data):
        pointer = json_pointer(parts)
        sentinel = dump(SENTINEL)
        found = locator.pointer(pointer)
        assert (found.line, found.column) == _where(dump(_marked(data, parts, key=False)), sentinel)
        if parts and isinstance(parts[-1], str):
            found = locator.key(pointer)
            expected = _where(dump(_marked(data, parts, key=True)), sentinel)
            assert (found.line, found.column) == expected, pointer


def test_locator_falls_back_to_the_nearest_parent():
    text = '{\n  "a": {"b": [10, 20]},\n  "c": 1\n}'
    locator = jsonfile.JsonLocator("r.json", text)
    assert (locator.pointer("/a/b/1").line, locator.pointer("/a/b/1").column) == (2, 19)
    assert (locator.pointer("/a/b/7").line, locator.pointer("/a/b/7").column) == (2, 14)
    assert (locator.pointer("/a/zz/0").line, locator.pointer("/a/zz/0").column) == (2, 8)
    assert (locator.key("/c").line, locator.key("/c").column) == (3, 3)
    assert (locator.pointer("/a/b/01").column, locator.pointer("/a/b/-1").column) == (14, 14)
    empty = jsonfile.JsonLocator("r.json", "")
    assert (empty.pointer("/x").line, empty.pointer("/x").column) == (1, 1)


PIECES = ["a", "\n", '"', "\\", "/", "\t", "\x00", "é", "\u2028", "\U0001f600", "\ud800", "\udc00"]


@settings(max_examples=200, deadline=None)
@given(
    content=st.lists(st.sampled_from(PIECES), max_size=30).map("".join), ascii_only=st.booleans()
)
def test_content_offsets_map_to_their_source_characters(content, ascii_only):
    assume(json.loads(json.dumps(content)) == content)  # "\ud800" "\udc00" would decode as one
    text = json.dumps({"id": "x", "content": content, "z": 1}, ensure_ascii=ascii_only, indent=1)
    locator = jsonfile.JsonLocator("r.json", text)
    source = text.index('"content": "') + len('"content": "')
    line = column = 1
    for offset, char in enumerate(content + "\0"):
        found = locator.content(offset)
        expected = text.count("\n", 0, source) + 1, source - text.rfind("\n", 0, source)
        assert (found.line, found.column) == expected, offset
        assert (found.content_line, found.content_column) == (line, column), offset
        source += len(json.dumps(char, ensure_ascii=ascii_only)) - 2
        line, column = (line + 1, 1) if char == "\n" else (line, column + 1)
