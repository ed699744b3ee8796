"""What a ``\\text{...}`` group is: a name, a unit after a number, or a remark.

``\\text{bytes}`` and ``\\text{miss rate}`` are names (``bytes``, ``miss_rate``);
``3\\,\\text{ns}`` is a unit; ``\\text{ if }``, ``\\text{(per head)}`` and
``\\text{where}`` are remarks, which separate relations like ``\\quad`` and are
otherwise dropped. The rule is on the words, not on any lesson: a group is a
remark when it is empty, starts with a bracket, holds sentence punctuation, or
starts with one of the connective words below.
"""

from __future__ import annotations

CONNECTIVES = frozenset(
    [
        "if",
        "for",
        "when",
        "where",
        "and",
        "or",
        "otherwise",
        "else",
        "with",
        "since",
        "as",
        "so",
        "then",
        "thus",
        "hence",
        "therefore",
        "because",
        "given",
        "assuming",
        "provided",
        "unless",
        "until",
        "while",
        "whenever",
        "only",
        "also",
        "not",
        "note",
        "see",
        "approx",
        "approximately",
        "about",
        "roughly",
        "typically",
        "i.e.",
        "e.g.",
        "ie",
        "eg",
        "s.t.",
        "st",
        "subject",
        "such",
        "all",
        "any",
        "each",
        "every",
        "some",
        "no",
        "the",
        "an",
        "is",
        "are",
        "be",
        "of",
        "at",
        "in",
        "on",
        "by",
        "to",
        "per",
        "via",
        "using",
        "from",
        "over",
        "under",
        "around",
        "across",
        "between",
        "within",
        "without",
        "after",
        "before",
        "here",
        "which",
        "that",
        "this",
        "we",
        "let",
        "iff",
        "resp",
        "respectively",
        "holds",
        "means",
        "gives",
        "yields",
    ]
)
"""Words that open a remark rather than name a quantity (lower case)."""

_REMARK_MARKS = frozenset(":;,!?$")
UNIT_CHARACTERS = frozenset("/^_-.·%°μµΩ*() ")


def is_remark(text: str) -> bool:
    """Whether a ``\\text`` group's words are prose (a remark), not a name."""
    words = text.split()
    if not words:
        return True
    stripped = text.strip()
    if stripped[0] in "([{" or any(ch in _REMARK_MARKS for ch in stripped):
        return True
    if not any(ch.isalnum() for ch in stripped):
        return True
    if len(stripped) == 1:
        return False
    first, last = words[0].lower(), words[-1].lower()
    if len(words) > 1 and last in CONNECTIVES:
        return True  # `\text{condensation when } T_s \le T_d`: a label, then its condition
    return first in CONNECTIVES or first.rstrip(".") in CONNECTIVES


def is_unit(text: str) -> bool:
    """Whether ``text`` (after a number) reads as a unit: ``ns``, ``GB/s``, ``μA/V^2``."""
    stripped = text.strip()
    if not stripped or stripped.split()[0].lower() in CONNECTIVES:
        return False
    if not (stripped[0].isalpha() or stripped[0] in "%°μµΩ"):
        return False
    return all(ch.isalnum() or ch in UNIT_CHARACTERS for ch in stripped)


def name_of(text: str) -> str:
    """The symbol name of a ``\\text`` group: words joined by ``_``, a comma separating
    words like a space (``B_{\\text{Gen5, one way}}`` is ``B_Gen5_one_way``)."""
    return "_".join(text.replace(",", " ").split())
