"""Making lesson-supplied text (paths, ids, messages) inert in every output format.

Everything a report prints can come from a hostile repository: a folder named with a
newline and an ANSI escape could print a fake summary line on a terminal, a `|` or
`![](...)` in an id could inject into the GitHub step summary, and characters XML 1.0
forbids make JUnit output unparseable. Each format therefore passes every string through
one of these functions, which escape what the format cannot carry safely and keep all
other text (any language, emoji) as it is.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

# C0 and C1 controls, DEL; bidirectional overrides, embeddings, isolates and marks; line
# and paragraph separators; invisible format characters; the byte-order mark; the two
# noncharacters XML 1.0 forbids; and lone surrogates (which no UTF encoding can write).
_BEYOND_C0 = (
    "\x7f-\x9f\u061c\u180e\u200e\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ufffe\uffff\ud800-\udfff"
)
_UNSAFE = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
_UNSAFE_IN_JSON = re.compile(f"[{_BEYOND_C0}]")  # json.dumps already escapes C0 in strings
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
MAX_CELL = 200


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def text(value: str) -> str:
    """One line of plain text: every unsafe character written as a visible escape
    (`\\n`, `\\x1b`, `\\u202e`), so nothing can end the line, recolour the terminal,
    reorder what follows, or fail to encode."""
    return _UNSAFE.sub(_visible, value)


def json_text(dumped: str) -> str:
    """A `json.dumps(..., ensure_ascii=False)` result with unsafe characters as `\\uXXXX`.

    They can only occur inside JSON strings (JSON's own syntax is ASCII), where the
    escape denotes the same character: the document is the same value, but is valid
    UTF-8 even with lone surrogates, and prints inertly.
    """
    return _UNSAFE_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)


def markdown_cell(value: str) -> str:
    """Text for a GitHub-flavoured markdown table cell that renders as exactly that text:
    a code span (no links, images, mentions, emoji or HTML inside one) with a fence longer
    than any backtick run, pipes escaped for the table, controls escaped, length capped."""
    shown = text(value)
    if not shown.strip():
        return shown.replace(" ", "&#32;")
    if len(shown) > MAX_CELL:
        shown = shown[:MAX_CELL] + "..."
    shown = shown.replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", shown)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {shown} {fence}"


_NAME_PUNCTUATION = frozenset("._/- ")


def _name_char(char: str) -> str:
    if char in _NAME_PUNCTUATION or unicodedata.category(char)[0] in "LNM":
        return char
    return quote(char.encode("utf-8", "surrogatepass"), safe="")


def markdown_name(value: str) -> str:
    """A lesson's id or path for a markdown table cell (`markdown_cell`), holding no markdown
    syntax at all: every character but letters, digits and marks of any script, spaces and
    `._/-` is percent-encoded as UTF-8 (`%` too, so the cell decodes back to the name), so
    no `|`, `#`, backtick, `\\`, `<`, `@` or `:` remains for any reader of the summary to
    take for a cell, a heading, a code span's end, an escape, HTML, a mention or a link.
    (A code span alone was not enough: readers that split rows before they look for code
    spans, or that search the text for a heading, found the id's own `|` and `## ...`.)"""
    shown = value[:MAX_CELL]
    encoded = "".join(map(_name_char, shown))
    return markdown_cell(encoded + ("..." if len(value) > MAX_CELL else ""))
