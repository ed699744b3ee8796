"""Inferred checks written as claims.yaml entries, for an author who wants to pin them.

Each check that held on values the prose states directly becomes a `formula` claim: its
quote is the sentence of the number it verified, its bind names that number's symbol, its
values are the other numbers the check read (in the glossary's units, as claims.yaml
takes them). A relation solved for its left-hand symbol is `use`d, so the claim computes
the number; any other is checked as an identity at the stated values.
"""

from __future__ import annotations

import re
from typing import Any

import sympy

from atlas_build.claims.binding import anchors
from atlas_build.claims.binding.compare import terminating
from atlas_build.claims.infer.found import Pin
from atlas_build.claims.infer.model import Inferred
from atlas_build.lesson.model import Lesson

DEFINING = ("=", ":=", "<-")
_ID = re.compile(r"[^a-z0-9]+")


def _number(value: sympy.Expr) -> int | str | None:
    """A value as claims.yaml writes one: an integer, a decimal when it ends, else a
    fraction (decimals as text, so no float rounding comes between)."""
    if not isinstance(value, sympy.Rational):
        return None
    if value.is_Integer:
        return int(value)
    if terminating(value):
        text = format(sympy.Float(value, 40), "f").rstrip("0").rstrip(".")
        return text or "0"
    return f"{value.p}/{value.q}"


def _bind(lesson: Lesson, quote: str, symbol: str, at: int) -> list[str | None] | None:
    """One bind entry per number (or list) the quote writes: `symbol` at the one written
    at `at`."""
    items, found = anchors.occurrences(quote, anchors.skeleton(lesson.content))
    if len(found) != 1:
        return None  # the sentence is written more than once: the quote must say more
    entries: list[str | None] = []
    for item in found[0].items:
        result = getattr(item, "result", item)
        entries.append(symbol if result.start <= at < result.end else None)
    return entries if symbol in entries else None


def entry(lesson: Lesson, check: Inferred, number: int) -> dict[str, Any] | None:
    """The claims.yaml entry of one held statement check (None when it cannot be written
    as one): the `Pin` of its anchor, its other values and its relation."""
    if not check.holds or check.derived:
        return None
    anchor = check.anchor
    if any(s.value is None or _number(s.value) is None for s in check.used):
        return None
    lhs = check.parsed.lhs
    defines = check.parsed.op in DEFINING and isinstance(lhs, sympy.Symbol)
    values = tuple((s.name, s.value) for s in check.used if s is not anchor)
    computes = defines and lhs.name == anchor.name
    pin = Pin(check.equation, check.index, (anchor.start, anchor.end), anchor.name,
              anchor.value, values, computes)  # fmt: skip
    return pinned(lesson, pin, number)


def pinned(lesson: Lesson, pin: Pin, number: int) -> dict[str, Any] | None:
    """The claims.yaml entry of a held check restated as a `Pin` (a statement check's by
    `entry`, a worked or list check's from `infer.offered`), or None."""
    start, end = anchors.sentence_span(lesson.content, *pin.anchor)
    quote = lesson.content[start:end].strip()
    bind = _bind(lesson, quote, pin.symbol, pin.anchor[0])
    if bind is None:
        return None
    values: dict[str, Any] = {}
    for name, value in pin.values:
        written = _written(value)
        if written is None:
            return None
        values[name] = written
    ref = {"equation": pin.equation, "relation": pin.index}
    params: dict[str, Any] = {"values": values}
    if pin.computes:
        params["use"] = [ref]
    else:
        result = _written(pin.value)
        if result is None:
            return None
        params["values"][pin.symbol] = result
        params["identities"] = [ref]
    slug = _ID.sub("-", pin.symbol.lower()).strip("-") or "value"
    return {
        "id": f"inferred-{slug}-{number}",
        "kind": "formula",
        "quote": quote,
        "bind": bind,
        "params": params,
    }


def _written(value: object) -> Any:
    """A value (a list's as a list) as claims.yaml writes it, or None."""
    if isinstance(value, tuple):
        items = [_number(v) if isinstance(v, sympy.Expr) else None for v in value]
        return None if any(item is None for item in items) else items
    return _number(value) if isinstance(value, sympy.Expr) else None


def entries(
    lesson: Lesson, checks: list[Inferred], pins: list[Pin] | None = None
) -> list[dict[str, Any]]:
    """The entries of every check that can be written as one, those of one sentence that
    compute from its relations merged into one claim (one quote, one bind list), then
    those of the worked and list checks (`pins`)."""
    found: list[dict[str, Any]] = []
    for pin in pins or []:
        written = pinned(lesson, pin, len(found) + 1)
        if written is not None:
            found.append(written)
    for check in checks:
        written = entry(lesson, check, len(found) + 1)
        if written is None:
            continue
        into = next((claim for claim in found if _merges(claim, written)), None)
        if into is None:
            found.append(written)
            continue
        into["bind"] = [a or b for a, b in zip(into["bind"], written["bind"], strict=True)]
        into["params"]["use"] += written["params"]["use"]
        into["params"]["values"].update(written["params"]["values"])
        computed = {name for name in into["bind"] if name}
        into["params"]["values"] = {
            name: value for name, value in into["params"]["values"].items() if name not in computed
        }
    return found


def _merges(claim: dict[str, Any], other: dict[str, Any]) -> bool:
    """Same quote, both computing by `use`, binding different numbers, and agreeing on
    every value they both fix."""
    if claim["quote"] != other["quote"] or "use" not in claim["params"]:
        return False
    if "use" not in other["params"]:
        return False
    if any(a and b for a, b in zip(claim["bind"], other["bind"], strict=True)):
        return False
    mine, theirs = claim["params"]["values"], other["params"]["values"]
    return all(mine[name] == theirs[name] for name in mine.keys() & theirs.keys())
