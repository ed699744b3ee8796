"""Small text helpers shared by the lesson model, the report and the site."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^\w\- ]+")
_SPACES = re.compile(r"[\s]+")


def slugify(text: str) -> str:
    """Heading anchor in the style of Python-Markdown's toc extension (which MkDocs uses)."""
    value = unicodedata.normalize("NFKD", text)
    value = value.encode("ascii", "ignore").decode("ascii")
    value = _NOT_WORD.sub("", value).strip().lower()
    return _SPACES.sub("-", value)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 error`, `2 errors` (`many` for nouns that do not take an s)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
