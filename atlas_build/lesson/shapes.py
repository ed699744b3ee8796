"""Recognising the parts of a lesson by the shape of their text, not exact words.

Lessons written by different people label the same parts differently: `Symbols and
units`, `Symbols & units`, `Notation`; `Check your understanding`, `Quiz`, `Self-check`;
`Answer and reasoning`, `Solution`. Each mark is recognised by its vocabulary (short,
only words of that part's vocabulary, at least one of its head words), and prose by its
length and sentences, so a lesson in the same format with other wording reads the same.
"""

from __future__ import annotations

import re
import unicodedata

_PUNCTUATION = re.compile(r"[^\w\s]")
_SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)\s+(?=[A-Z0-9\"'(])")
MAX_MARK_WORDS = 5


def words(text: str) -> list[str]:
    """`Symbols & units:` -> [`symbols`, `and`, `units`]; `Self-check` -> [`self`, `check`]."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("&", " and ")
    return _PUNCTUATION.sub(" ", text.replace("-", " ")).split()


def _marked(text: str, vocabulary: frozenset[str], heads: frozenset[str]) -> bool:
    found = words(text)
    return (
        0 < len(found) <= MAX_MARK_WORDS
        and set(found) <= vocabulary
        and bool(set(found) & heads)
        and len(text) <= 60
    )


_GLOSSARY_HEADS = frozenset(
    {"symbols", "symbol", "notation", "variables", "variable", "nomenclature", "quantities"}
)
_GLOSSARY_WORDS = _GLOSSARY_HEADS | frozenset(
    {"and", "units", "unit", "of", "key", "the", "used", "their", "meanings"}
)
_QUIZ_HEADS = frozenset(
    {"quiz", "questions", "question", "understanding", "yourself", "self", "knowledge"}
    | {"comprehension", "concept"}
)
_QUIZ_WORDS = _QUIZ_HEADS | frozenset(
    {"check", "checks", "your", "test", "assessment", "review", "practice", "quick", "and"}
    | {"answers", "a", "short"}
)
_ANSWER_HEADS = frozenset({"answer", "answers", "solution", "solutions"})
_ANSWER_WORDS = _ANSWER_HEADS | frozenset(
    {"and", "reasoning", "explanation", "explained", "worked", "correct", "the", "show"}
    | {"reveal", "why", "rationale", "with"}
)
_SOURCES_HEADS = frozenset({"sources", "references", "bibliography", "citations", "cited"})
_SOURCES_WORDS = _SOURCES_HEADS | frozenset(
    {"source", "reference", "works", "primary", "and", "key", "selected"}
)
_SPECS_HEADS = frozenset(
    {"specifications", "specification", "specs", "spec", "interfaces", "interface"}
)
_SPECS_WORDS = _SPECS_HEADS | frozenset({"and", "key", "technical", "the"})
ASSUMPTION_WORDS = frozenset({"assumptions", "assumption", "assumed"})


def is_glossary_mark(text: str) -> bool:
    """`Symbols and units`, `Symbols`, `Notation`, `Symbols & units`, `Variables`; a
    label, so capitalised (`symbols` alone is a unit column: codeword lengths in symbols)."""
    return text.lstrip()[:1].isupper() and _marked(text, _GLOSSARY_WORDS, _GLOSSARY_HEADS)


def is_quiz_heading(text: str) -> bool:
    """`Check your understanding`, `Quiz`, `Test yourself`, `Self-check`, `Questions`."""
    found = words(text)
    if found and set(found) <= {"self", "check", "test", "assessment"} and "self" in found:
        return True
    return _marked(text, _QUIZ_WORDS, _QUIZ_HEADS) and found not in (["self"], ["concept"])


def answer_mark(text: str) -> tuple[str, str] | None:
    """(mark, inline answer) for `Answer and reasoning`, `Solution`, `Answer: 4` ...;
    None when the paragraph is no answer mark."""
    label, colon, rest = text.partition(":")
    if colon and rest.strip() and _marked(label, _ANSWER_WORDS, _ANSWER_HEADS):
        return label.strip(), rest.strip()
    if _marked(text, _ANSWER_WORDS, _ANSWER_HEADS):
        return text.strip().rstrip(":"), ""
    return None


def is_sources_heading(text: str) -> bool:
    """`Sources`, `References`, `Bibliography`, `Primary sources`."""
    return _marked(text, _SOURCES_WORDS, _SOURCES_HEADS)


def is_specs_heading(text: str) -> bool:
    """`Specifications and interfaces`, `Specifications`, `Interfaces`."""
    return _marked(text, _SPECS_WORDS, _SPECS_HEADS)


def is_interfaces_heading(text: str) -> bool:
    return bool(set(words(text)) & {"interfaces", "interface"})


def assumption_text(text: str) -> str | None:
    """The assumption a paragraph states, for `Assumptions The ...`, `Assumptions: ...`,
    `Assumption. ...`; None for other paragraphs."""
    first, _, rest = text.partition(" ")
    if first.rstrip(":.").casefold() not in ASSUMPTION_WORDS or not rest.strip():
        return None
    if first.rstrip(":.") != first.rstrip(":.").capitalize():
        return None
    if first == "Assumed":
        return None  # `Assumed or fitted floor`: a glossary meaning; a label has `Assumed:`
    return rest.strip()


_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "cf", "vs", "approx", "resp", "incl", "viz", "eq", "eqs", "fig"}
)
"""Words whose full stop ends no sentence: `Percentile level, e.g. 0.95 or 0.99`."""


def _abbreviation(body: str, stop: int) -> bool:
    start = stop
    while start > 0 and not body[start - 1].isspace() and body[start - 1] not in "([":
        start -= 1
    return body[start:stop].casefold() in _ABBREVIATIONS


def sentences(text: str) -> int:
    """How many sentences `text` has (a trailing fragment counts as one); the full stop
    of an abbreviation (`e.g.`, `i.e.`, `cf.`) ends none."""
    body = text.strip()
    if not body:
        return 0
    ends = [
        match
        for match in _SENTENCE_END.finditer(body)
        if not (body[match.start()] == "." and _abbreviation(body, match.start()))
    ]
    return len(ends) + 1


def is_prose(text: str) -> bool:
    """Prose, not a symbol or a label: several sentences, long, a sentence of five or
    more words ending with a full stop, or words introducing what follows (`Now the
    example:`), which no symbol cell ends with."""
    body = text.strip()
    count = len(body.split())
    return (
        sentences(body) >= 2
        or count > 40
        or len(body) > 250
        or (body.endswith((".", "!", "?")) and count >= 5)
        or (body.endswith(":") and count >= 2)
    )


def is_long_prose(text: str) -> bool:
    """Prose that cannot be a glossary meaning or unit: several sentences or long.
    (Meanings may be one sentence with a full stop.)"""
    body = text.strip()
    return sentences(body) >= 2 or len(body.split()) > 40 or len(body) > 250


def is_sentence(text: str) -> bool:
    """Ends as a sentence does: the context line of a specification."""
    return text.rstrip().endswith((".", "!", "?"))
