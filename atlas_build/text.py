"""Small text helpers shared by the lesson model and the site."""

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
