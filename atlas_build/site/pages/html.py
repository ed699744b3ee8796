"""Small helpers for writing the generated pages: escaping, raw HTML blocks, headings, URLs.

Generated pages are MkDocs markdown files whose body is raw HTML, except headings:
those are markdown headings (`## ... {#id}`), so MkDocs' table of contents and the
theme's permalinks work. Their inner HTML is re-serialised with every character
markdown would interpret written as an entity, so MkDocs shows it exactly as given.
"""

from __future__ import annotations

import json
import posixpath
from html import escape
from html.parser import HTMLParser

_MARKDOWN_SPECIAL = {c: f"&#{ord(c)};" for c in "\\`*_{}[]!#|~^=<>"}


def esc(value: object) -> str:
    """Text or attribute value, HTML-escaped."""
    return escape(str(value), quote=True)


def block(html: str, css: str = "atlas-block", *, searchable: bool = True) -> str:
    """A raw HTML block MkDocs passes through untouched (blank lines around it)."""
    exclude = "" if searchable else " data-search-exclude"
    return f'\n<div class="{css}"{exclude}>\n{html.strip()}\n</div>\n\n'


def _attribute(value: str) -> str:
    return "".join(_MARKDOWN_SPECIAL.get(c) or escape(c, quote=True) for c in value)


class _Reserialiser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def _attrs(self, attrs: list[tuple[str, str | None]]) -> str:
        """Attribute values too: a formula's `aria-label` holds TeX (`\\frac`, `_`, `*`)."""
        return "".join(
            f' {name}="{_attribute(value)}"' if value is not None else f" {name}"
            for name, value in attrs
        )

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(f"<{tag}{self._attrs(attrs)}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(f"<{tag}{self._attrs(attrs)}></{tag}>")

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        text = escape(data, quote=False).replace("&lt;", "<").replace("&gt;", ">")
        text = "".join(_MARKDOWN_SPECIAL.get(c, c) for c in text)
        self.out.append(" ".join(text.split("\n")))


def inline_for_markdown(html: str) -> str:
    """Inline HTML that Python-Markdown will reproduce unchanged inside a heading."""
    parser = _Reserialiser()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


def heading(
    level: int, inner_html: str, anchor: str, *, label: str | None = None, searchable: bool = True
) -> str:
    """A markdown heading with a fixed id (attr_list) and optional table-of-contents label."""
    attributes = f"#{anchor}" + ("" if searchable else " data-search-exclude")
    if label:
        clean = label.replace('"', "'").replace("{", "(").replace("}", ")").replace("\n", " ")
        attributes += f' data-toc-label="{escape(clean, quote=False)}"'
    return f"\n{'#' * level} {inline_for_markdown(inner_html)} {{{attributes}}}\n\n"


def front_matter(fields: dict[str, object]) -> str:
    """YAML front matter; JSON scalars are valid YAML, so any title survives quoting.

    Text values are HTML-escaped: MkDocs and the theme put page meta into `<title>`,
    `<meta content="...">`, the header and the search index without escaping them, so a
    lesson title is inert only if it arrives as text already.
    """
    lines = [
        f"{key}: {json.dumps(esc(value) if isinstance(value, str) else value, ensure_ascii=False)}"
        for key, value in fields.items()
    ]
    return "---\n" + "\n".join(lines) + "\n---\n"


def href(from_dir: str, to_dir: str, fragment: str | None = None) -> str:
    """Relative URL between two page directories of the docs tree ('' is the home page)."""
    path = posixpath.relpath(to_dir or ".", from_dir or ".")
    url = "./" if path == "." else path + ("" if path.endswith("/") else "/")
    if to_dir and "." in posixpath.basename(to_dir):
        url = url.rstrip("/")
    return url + (f"#{fragment}" if fragment else "")


def badge(status: str, text: str | None = None) -> str:
    return f'<span class="atlas-badge atlas-{esc(status)}">{esc(text or status)}</span>'
