"""Rendered HTML with MathML -> the plain text a reader sees, for labels that cannot hold
markup: the table of contents and the page title.

A heading `The $\\sqrt{d_k}$ factor` would otherwise show its TeX source there. The
MathML KaTeX made is read back (not the TeX: KaTeX already parsed it) and written with
Unicode where Unicode has the character: `√dₖ`, `T²`, `a/b`. The annotation holding the
TeX source is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_SUB = dict(
    zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)
_SUP = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzT",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ",
        strict=True,
    )
)
_ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "~": "\u0303", "˜": "\u0303", "‾": "\u0304",
            "¯": "\u0304", "˙": "\u0307", "¨": "\u0308", "→": "\u20d7"}  # fmt: skip
_RELATIONS = frozenset("=<>≤≥≈≠≡∝→←↦∼")
_OPERATORS = frozenset(" +-−±=/·×⋅,<>≤≥≈")
_INVISIBLE = frozenset("\u2061\u2062\u2063\u2064")
_MATH_SKIP = frozenset({"annotation", "annotation-xml", "mphantom"})


@dataclass
class _Node:
    tag: str
    children: list[_Node | str] = field(default_factory=list)


class _Reader(HTMLParser):
    """Text outside `<math>`; inside it, a tree converted when the element closes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[_Node] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math" or self.stack:
            node = _Node(tag)
            if self.stack:
                self.stack[-1].children.append(node)
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            return
        while self.stack:
            node = self.stack.pop()
            if node.tag == tag:
                break
        if not self.stack and node.tag == "math":
            self.out.append(_text(node).strip())

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1].children.append(data)
        else:
            self.out.append(data)


def _mapped(text: str, table: dict[str, str], marker: str) -> str:
    text = text.replace(" ", "")
    if text and all(char in table for char in text):
        return "".join(table[char] for char in text)
    return f"{marker}{text}" if len(text) == 1 else f"{marker}({text})"


def _wrapped(text: str) -> str:
    """Parentheses around a fraction's part or a root's argument that is no single term."""
    return f"({text})" if any(char in _OPERATORS for char in text) else text


def _text(node: _Node | str) -> str:
    if isinstance(node, str):
        return "".join(char for char in node if char not in _INVISIBLE)
    if node.tag in _MATH_SKIP:
        return ""
    parts = [_text(child) for child in node.children]
    parts += [""] * max(0, 3 - len(parts))  # a script element missing a child reads as empty
    tag = node.tag
    if tag == "mo":
        symbol = "".join(parts).strip()
        return f" {symbol} " if symbol in _RELATIONS else symbol
    if tag == "msub":
        return parts[0] + _mapped(parts[1].strip(), _SUB, "_")
    if tag == "msup":
        return parts[0] + _mapped(parts[1].strip(), _SUP, "^")
    if tag == "msubsup":
        return parts[0] + _mapped(parts[1].strip(), _SUB, "_") + _mapped(parts[2], _SUP, "^")
    if tag == "mfrac":
        return f"{_wrapped(parts[0].strip())}/{_wrapped(parts[1].strip())}"
    if tag == "msqrt":
        return "√" + _wrapped("".join(parts).strip())
    if tag == "mroot":
        return _mapped(parts[1].strip(), _SUP, "") + "√" + _wrapped(parts[0].strip())
    if tag == "mover" and parts[1].strip() in _ACCENTS and len(parts[0]) == 1:
        return parts[0] + _ACCENTS[parts[1].strip()]
    if tag in ("mover", "munder", "munderover"):
        return parts[0]
    if tag == "mtd":
        return "".join(parts) + " "
    if tag == "mtr":
        return "".join(parts).strip() + "; "
    return "".join(parts)


def plain(html: str) -> str:
    """The text of sanitised HTML, with each formula written as readable text."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return " ".join("".join(reader.out).replace("  ", " ").split())
