"""Inferred checks cached by what they are a function of: the lesson's content and the
parser declarations its claims make (`key`).

Claim outcomes were always content-addressed; inference, which runs on every lesson, was
not, so every cold check and every re-check paid for it again (bench/README.md). An
entry is plain JSON (offsets, verdicts, messages) and, like everything in the cache,
untrusted: the cache authenticates it, and `load` still takes only what has the exact
shape `dump` writes, with offsets inside the lesson; anything else is recomputed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.claims.infer.checks import MAX_CHECKS
from atlas_build.claims.infer.found import Found

NAMESPACE = "inferred"
FORMAT = 1
MAX_TEXT = 20_000  # characters of a summary or message


def key(content: str, options: Mapping[int, Any], written: Iterable[tuple[int, int]] = ()) -> str:
    """What inference reads: the lesson (its model is a function of its content), the
    declarations its claims make for each equation's parser, and the numbers its written
    claims bind (`infer.found`'s `written`)."""
    declared = json.dumps(
        {str(k): v for k, v in options.items()}, sort_keys=True, ensure_ascii=False
    )
    spans = json.dumps(sorted(written))
    return digest(fingerprint(), NAMESPACE, str(FORMAT), content, declared, spans)


def dump(found: list[Found]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "checks": [
            {
                "equation": item.equation,
                "index": item.index,
                "holds": item.holds,
                "certain": item.certain,
                "anchor": list(item.anchor),
                "inputs": [list(span) for span in item.inputs],
                "summary": item.summary,
                "error": item.error,
            }
            for item in found
        ],
    }


def save(cache: Cache, entry: str, found: list[Found]) -> None:
    cache.put_json(NAMESPACE, entry, dump(found))


def load(cache: Cache, entry: str, content: str) -> list[Found] | None:
    """The checks stored under `entry`, or None (missing, or not exactly what `dump` writes
    for a lesson of this length)."""
    stored = cache.get_json(NAMESPACE, entry)
    if not isinstance(stored, dict) or set(stored) != {"format", "checks"}:
        return None
    if stored["format"] != FORMAT or not isinstance(stored["checks"], list):
        return None
    if len(stored["checks"]) > MAX_CHECKS:
        return None
    found = []
    for item in stored["checks"]:
        read = _check(item, len(content))
        if read is None:
            return None
        found.append(read)
    return found


_KEYS = {"equation", "index", "holds", "certain", "anchor", "inputs", "summary", "error"}


def _check(item: object, length: int) -> Found | None:
    if not isinstance(item, dict) or set(item) != _KEYS:
        return None
    equation, index = item["equation"], item["index"]
    if not (_count(equation) and _count(index)):
        return None
    holds, certain = item["holds"], item["certain"]
    if not (isinstance(holds, bool) and isinstance(certain, bool)):
        return None
    anchor = _span(item["anchor"], length)
    inputs = item["inputs"]
    if anchor is None or not isinstance(inputs, list) or len(inputs) > length:
        return None
    spans = [_span(span, length) for span in inputs]
    summary, error = item["summary"], item["error"]
    if not (isinstance(summary, str) and len(summary) <= MAX_TEXT):
        return None
    if error is not None and not (isinstance(error, str) and len(error) <= MAX_TEXT):
        return None
    if any(span is None for span in spans) or (error is None) == (certain and not holds):
        return None
    kept = tuple(span for span in spans if span is not None)
    return Found(equation, index, holds, certain, anchor, kept, summary, error)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


def _span(value: object, length: int) -> tuple[int, int] | None:
    if not (isinstance(value, list) and len(value) == 2 and all(_count(v) for v in value)):
        return None
    start, end = value
    return (start, end) if start < end <= length else None
